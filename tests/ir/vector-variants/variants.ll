; Scalar math calls left in a work-group function would keep the loop
; vectoriser from widening the work-item loop around them. Each callee
; that qualifies (a library call such as fmodf, an intrinsic LLVM 19 does
; not widen such as llvm.tanh, a builtin's out-of-line path __loom_cold_*)
; gets vector variants of 2, 4, 8 and 16 lanes, unmasked and masked, and
; the "vector-function-abi-variant" attribute that names them. Inside a
; variant each lane calls the scalar function, and those calls carry a
; one-lane mapping of the function to itself, "_ZGV_LLVM_N1vv_fmodf(fmodf)",
; so that the SLP vectoriser cannot turn them back into a call of the
; variant. Guards 3b81ad4: the calls carried an empty mapping, which LLVM
; 19's verifier rejects (loom-opt verifies after the pass; see also
; loom-opt/invalid-input.ll). llvm.sqrt (widened by LLVM) and LoomCL's own
; helpers get nothing.
; RUN: -passes=vector-variants

; CHECK: declare float @fmodf(float, float) #[[FMOD:[0-9]+]]
; CHECK: declare float @llvm.tanh.f32(float) #[[TANH:[0-9]+]]
; CHECK: define internal double @__loom_cold_sin(double %x) #[[COLD:[0-9]+]]
; CHECK-NOT: __loom_vec{{.*}}llvm.sqrt
; CHECK-NOT: __loom_vec{{.*}}__loom_helper
; the variants of fmodf: one call per lane, each with the self mapping
; CHECK-LABEL: define <4 x float> @__loom_vec4_fmodf(<4 x float> %0, <4 x float> %1) {
; CHECK: %[[A0:.*]] = extractelement <4 x float> %0, i32 0
; CHECK-NEXT: %[[B0:.*]] = extractelement <4 x float> %1, i32 0
; CHECK-NEXT: call float @fmodf(float %[[A0]], float %[[B0]]) #[[SELF:[0-9]+]]
; CHECK-COUNT-3: call float @fmodf(float %{{.*}}, float %{{.*}}) #[[SELF]]
; CHECK: ret <4 x float>
; the masked variant calls only the lanes whose mask bit is set
; CHECK-LABEL: define <4 x float> @__loom_vec4m_fmodf(<4 x float> %0, <4 x float> %1, <4 x i1> %2) {
; CHECK: %[[BIT:.*]] = extractelement <4 x i1> %2, i32 0
; CHECK-NEXT: br i1 %[[BIT]], label %lane, label %next
; CHECK: lane:
; CHECK: call float @fmodf(float %{{.*}}, float %{{.*}}) #[[SELF]]
; CHECK-LABEL: define <16 x float> @__loom_vec16m_fmodf(
; CHECK-LABEL: define <2 x float> @__loom_vec2_llvm.tanh.f32(<2 x float> %0)
; CHECK: call float @llvm.tanh.f32(float %{{.*}}) #[[TSELF:[0-9]+]]
; CHECK-LABEL: define <8 x double> @__loom_vec8___loom_cold_sin(<8 x double> %0)
; CHECK-DAG: attributes #[[FMOD]] = { "vector-function-abi-variant"="_ZGV_LLVM_N2vv_fmodf(__loom_vec2_fmodf),_ZGV_LLVM_N4vv_fmodf(__loom_vec4_fmodf),_ZGV_LLVM_N8vv_fmodf(__loom_vec8_fmodf),_ZGV_LLVM_N16vv_fmodf(__loom_vec16_fmodf),_ZGV_LLVM_M2vv_fmodf(__loom_vec2m_fmodf),_ZGV_LLVM_M4vv_fmodf(__loom_vec4m_fmodf),_ZGV_LLVM_M8vv_fmodf(__loom_vec8m_fmodf),_ZGV_LLVM_M16vv_fmodf(__loom_vec16m_fmodf)" }
; CHECK-DAG: attributes #[[TANH]] = { {{.*}}"vector-function-abi-variant"="_ZGV_LLVM_N2v_llvm.tanh.f32(__loom_vec2_llvm.tanh.f32),
; CHECK-DAG: attributes #[[COLD]] = { {{.*}}"vector-function-abi-variant"="_ZGV_LLVM_N2v___loom_cold_sin(__loom_vec2___loom_cold_sin),
; CHECK-DAG: attributes #[[SELF]] = { "vector-function-abi-variant"="_ZGV_LLVM_N1vv_fmodf(fmodf)" }
; CHECK-DAG: attributes #[[TSELF]] = { "vector-function-abi-variant"="_ZGV_LLVM_N1v_llvm.tanh.f32(llvm.tanh.f32)" }

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @wave.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) {
entry:
  %x = load ptr addrspace(1), ptr %args, align 8
  %p.y = getelementptr i8, ptr %args, i64 8
  %y = load ptr addrspace(1), ptr %p.y, align 8
  %n = load i64, ptr %ctx, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %join ]
  %p.x = getelementptr inbounds float, ptr addrspace(1) %x, i64 %lx
  %a = load float, ptr addrspace(1) %p.x, align 4
  %m = call float @fmodf(float %a, float 3.000000e+00)
  %t = call float @llvm.tanh.f32(float %m)
  %s = call float @llvm.sqrt.f32(float %t)
  %h = call float @__loom_helper(float %s)
  %ad = fpext float %h to double
  %big = fcmp ogt double %ad, 1.0e+10
  br i1 %big, label %cold, label %join

cold:
  %sd = call double @__loom_cold_sin(double %ad)
  br label %join

join:
  %r = phi double [ %ad, %wi_x ], [ %sd, %cold ]
  %rf = fptrunc double %r to float
  %p.y1 = getelementptr inbounds float, ptr addrspace(1) %y, i64 %lx
  store float %rf, ptr addrspace(1) %p.y1, align 4
  %lx.next = add i64 %lx, 1
  %more = icmp ult i64 %lx.next, %n
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

declare float @fmodf(float, float)
declare float @llvm.tanh.f32(float)
declare float @llvm.sqrt.f32(float)
declare float @__loom_helper(float)

define internal double @__loom_cold_sin(double %x) noinline {
  %r = fmul double %x, 2.0
  ret double %r
}
