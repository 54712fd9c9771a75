; A float4 live across a barrier is kept component-major
; (workgroup/vector_slots.c; OpenCL C:
;   float4 v = in[g] * 2.0f; t[l] = v.x; barrier(...);
;   out[g] = v + t[lsize - 1 - l];)
; wg-barriers gave v one 16-byte slot; wg-function stores and loads it as
; four float slots, component c of work-item w at scratch + (0 + 4c) * items
; + 4w, so that consecutive work-items' components are consecutive floats
; (whole vector loads and stores once vectorised, not 16-byte strided
; scatters and gathers). Before, CLBlast's Xgemm spent most of its compute
; region on AMD Zen 5 scattering its float4 accumulators.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @acc.loom_wg(
; CHECK-NOT: <4 x float>, ptr %
; CHECK: %mul.i.i = fmul <4 x float>
; CHECK-NEXT: %[[AT:.*]] = mul i64 %linear, 4
; CHECK-NEXT: %[[O0:.*]] = mul i64 0, %items
; CHECK-NEXT: %[[A0:.*]] = getelementptr i8, ptr %3, i64 %[[O0]]
; CHECK-NEXT: %[[S0:.*]] = getelementptr i8, ptr %[[A0]], i64 %[[AT]]
; CHECK-NEXT: %[[E0:.*]] = extractelement <4 x float> %mul.i.i, i64 0
; CHECK-NEXT: store float %[[E0]], ptr %[[S0]], align 4
; CHECK: %[[O3:.*]] = mul i64 12, %items
; CHECK-NEXT: %[[A3:.*]] = getelementptr i8, ptr %3, i64 %[[O3]]
; CHECK-NEXT: %[[S3:.*]] = getelementptr i8, ptr %[[A3]], i64 %[[AT]]
; CHECK-NEXT: %[[E3:.*]] = extractelement <4 x float> %mul.i.i, i64 3
; CHECK-NEXT: store float %[[E3]], ptr %[[S3]], align 4
; after the barrier: four float loads, one vector again
; CHECK: load float, ptr %component_slot{{.*}}, align 4
; CHECK: insertelement <4 x float> poison, float
; CHECK-COUNT-3: insertelement <4 x float> %
; CHECK-NEXT: fadd <4 x float> %[[V:[0-9]+]], %splat.splat.i.i

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local void @acc(ptr addrspace(1) noundef align 16 %in, ptr addrspace(1) noundef align 16 %out, ptr addrspace(3) noundef align 4 %t) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %2 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %3 = mul i64 %2, %1
  %4 = add i64 %3, %0
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %arrayidx = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %6
  %7 = load <4 x float>, ptr addrspace(1) %arrayidx, align 16, !tbaa !10
  %mul = fmul <4 x float> %7, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %slot = call ptr @__loom_slot(i64 0, i64 16)
  store <4 x float> %mul, ptr %slot, align 16
  %8 = extractelement <4 x float> %mul, i64 0
  %arrayidx2 = getelementptr inbounds float, ptr addrspace(3) %t, i64 %0
  store float %8, ptr addrspace(3) %arrayidx2, align 4, !tbaa !13
  br label %9

9:                                                ; preds = %entry
  call void @__loom_barrier_id(i32 1)
  br label %10

10:                                               ; preds = %9
  %11 = call i64 @__loom_wi(i32 noundef 1, i32 noundef 0) #4
  %12 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %13 = xor i64 %12, -1
  %14 = getelementptr float, ptr addrspace(3) %t, i64 %11
  %arrayidx5 = getelementptr float, ptr addrspace(3) %14, i64 %13
  %15 = load float, ptr addrspace(3) %arrayidx5, align 4, !tbaa !13
  %splat.splatinsert = insertelement <4 x float> poison, float %15, i64 0
  %splat.splat = shufflevector <4 x float> %splat.splatinsert, <4 x float> poison, <4 x i32> zeroinitializer
  %slot5 = call ptr @__loom_slot(i64 0, i64 16)
  %live = load <4 x float>, ptr %slot5, align 16
  %add = fadd <4 x float> %live, %splat.splat
  %16 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %17 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %18 = mul i64 %16, %17
  %19 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %20 = add i64 %18, %19
  %21 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %22 = add i64 %20, %21
  %arrayidx6 = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %22
  store <4 x float> %add, ptr addrspace(1) %arrayidx6, align 16, !tbaa !10
  ret void
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

declare dso_local void @__loom_barrier() local_unnamed_addr #2

declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

declare ptr @__loom_slot(i64, i64)

declare void @__loom_barrier_id(i32)

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="1 16 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent noduplicate nounwind "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 1, i32 3}
!6 = !{!"none", !"none", !"none"}
!7 = !{!"float4*", !"float4*", !"float*"}
!8 = !{!"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float*"}
!9 = !{!"const", !"", !""}
!10 = !{!11, !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !11, i64 0}
