; A call of a masked variant (here of sin's out-of-line path for huge
; arguments, called where some lane's |x| >= 2^15) runs only when some lane
; of its mask is set: the block is split at the call, the mask bitcast to
; an integer is tested, and the result is a phi of the call and poison
; (the caller reads only the lanes the mask sets). Unguarded, the call and
; its spills cost float sin 55% of its time (2.6 -> 5.8 Gelem/s on 2 cores).
; The unmasked variant's call stays as it is.
; RUN: -passes=drop-vector-variants

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %[[B:.*]] = bitcast <16 x i1> %big to i16
; CHECK-NEXT: %any_lane = icmp ne i16 %[[B]], 0
; CHECK-NEXT: br i1 %any_lane, label %masked.call, label %[[JOIN:.*]]
; CHECK: masked.call:
; CHECK-NEXT: %cold = call <16 x float> @__loom_vec16m___loom_cold_sinf(<16 x float> %v, <16 x i1> %big)
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %masked.result = phi <16 x float> [ %cold, %masked.call ], [ poison, %entry ]
; CHECK-NEXT: %r = select <16 x i1> %big, <16 x float> %masked.result, <16 x float> %v
; CHECK: call <16 x float> @__loom_vec16___loom_cold_sinf(<16 x float> %r)
; CHECK-NOT: any_lane
; CHECK: define internal <16 x float> @__loom_vec16m___loom_cold_sinf(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %x = load ptr addrspace(1), ptr %0, align 8
  %v = load <16 x float>, ptr addrspace(1) %x, align 64
  %a = call <16 x float> @llvm.fabs.v16f32(<16 x float> %v)
  %big = fcmp uge <16 x float> %a, <float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0, float 32768.0>
  %cold = call <16 x float> @__loom_vec16m___loom_cold_sinf(<16 x float> %v, <16 x i1> %big)
  %r = select <16 x i1> %big, <16 x float> %cold, <16 x float> %v
  %u = call <16 x float> @__loom_vec16___loom_cold_sinf(<16 x float> %r)
  store <16 x float> %u, ptr addrspace(1) %x, align 64
  ret void
}

define <16 x float> @__loom_vec16m___loom_cold_sinf(<16 x float> %0, <16 x i1> %1) {
  %a = extractelement <16 x float> %0, i32 0
  %r = call float @__loom_cold_sinf(float %a)
  %v = insertelement <16 x float> poison, float %r, i32 0
  ret <16 x float> %v
}

define <16 x float> @__loom_vec16___loom_cold_sinf(<16 x float> %0) {
  %a = extractelement <16 x float> %0, i32 0
  %r = call float @__loom_cold_sinf(float %a)
  %v = insertelement <16 x float> poison, float %r, i32 0
  ret <16 x float> %v
}

declare float @__loom_cold_sinf(float)
declare <16 x float> @llvm.fabs.v16f32(<16 x float>)
