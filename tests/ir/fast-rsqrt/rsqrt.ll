; Float 1 / sqrt(x) on AVX-512 becomes VRSQRT14PS and a Newton step (after
; O3). The pass reads the target's feature string, so each RUN line pins it
; with -mattr (the test does not depend on the machine that runs it):
;  - 16 lanes with !fpmath (OpenCL's 2.5 ulp division): one 512-bit
;    rsqrt14, three fused steps, one VFPCLASSPS picking the estimate's exact
;    0 and inf where AVX512DQ is there (prefix DQ), an fcmp pair without it
;    (prefix NODQ);
;  - 32 lanes marked only `afn` (InstCombine drops !fpmath when it rebuilds
;    float4 divisions; mark-rsqrt sets afn before O3): two 16-lane pieces,
;    joined (a7062f9);
;  - a scalar division (a loop remainder) goes through lane 0 of a 4-vector:
;    the 128-bit rsqrt14 with AVX512VL, the 512-bit one padded with 1.0
;    without it (prefix NOVL);
;  - without !fpmath or afn (-cl-fp32-correctly-rounded-divide-sqrt) the
;    division stays;
;  - without AVX-512F nothing changes (prefix NOAVX512), and "+avx512fp16"
;    is not "+avx512f" (0105fb8: a substring test took one for the other);
;    nor with -O0 (-cl-opt-disable);
;  - with the host's own features (prefix HOST) only what holds on any
;    machine is checked: the exact division stays.
; RUN: -passes=fast-rsqrt -mattr=+avx2,+fma,+avx512f,+avx512vl,+avx512dq | --check-prefixes=CHECK,DQ
; RUN: -passes=fast-rsqrt -mattr=+avx2,+fma,+avx512f | --check-prefixes=CHECK,NODQ,NOVL
; RUN: -passes=fast-rsqrt -mattr=+avx2,+fma | --check-prefix=NOAVX512
; RUN: -passes=fast-rsqrt -mattr=+avx2,+fma,+avx512fp16,-avx512f | --check-prefix=NOAVX512
; RUN: -passes=fast-rsqrt -O0 -mattr=+avx2,+fma,+avx512f,+avx512vl,+avx512dq | --check-prefix=NOAVX512
; RUN: -passes=fast-rsqrt | --check-prefix=HOST

; CHECK-LABEL: define <16 x float> @v16(
; CHECK-NEXT: %[[E:.*]] = call <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float> %x, <16 x float> zeroinitializer, i16 -1)
; CHECK-COUNT-3: call <16 x float> @llvm.fma.v16f32(
; CHECK: %[[REF:.*]] = call <16 x float> @llvm.fma.v16f32(<16 x float> %{{.*}}, <16 x float> %{{.*}}, <16 x float> %[[E]])
; DQ-NEXT: %[[SPECIAL:.*]] = call <16 x i1> @llvm.x86.avx512.fpclass.ps.512(<16 x float> %[[E]], i32 30)
; NODQ-NOT: fpclass
; NODQ: %[[SPECIAL:.*]] = or <16 x i1>
; CHECK-NEXT: %[[R:.*]] = select <16 x i1> %[[SPECIAL]], <16 x float> %[[E]], <16 x float> %[[REF]]
; CHECK-NEXT: ret <16 x float> %[[R]]

; CHECK-LABEL: define <32 x float> @v32_afn(
; CHECK-NEXT: %[[LO:.*]] = shufflevector <32 x float> %x, <32 x float> {{.*}}, <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: call <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float> %[[LO]],
; CHECK: %[[HI:.*]] = shufflevector <32 x float> %x, <32 x float> {{.*}}, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: call <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float> %[[HI]],
; CHECK: %[[JOIN:.*]] = shufflevector <16 x float> %{{.*}}, <16 x float> %{{.*}}, <32 x i32>
; CHECK-NEXT: ret <32 x float> %[[JOIN]]

; CHECK-LABEL: define float @scalar(
; CHECK-NEXT: %[[V:.*]] = insertelement <4 x float> zeroinitializer, float %x, i32 0
; DQ-NEXT: call <4 x float> @llvm.x86.avx512.rsqrt14.ps.128(<4 x float> %[[V]],
; NOVL-NEXT: %[[PAD:.*]] = shufflevector <4 x float> %[[V]], <4 x float> <float 1.000000e+00,
; NOVL-NEXT: call <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float> %[[PAD]],
; CHECK: %[[S:.*]] = extractelement <4 x float> %{{.*}}, i32 0
; CHECK-NEXT: ret float %[[S]]

; CHECK-LABEL: define <16 x float> @exact(
; CHECK-NEXT: %s = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %x)
; CHECK-NEXT: %r = fdiv <16 x float>

; HOST-LABEL: define <16 x float> @exact(
; HOST-NEXT: %s = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %x)
; HOST-NEXT: %r = fdiv <16 x float>

; NOAVX512-NOT: rsqrt14
; NOAVX512: %r = fdiv <16 x float> {{.*}}, %s, !fpmath !0
; NOAVX512: %r = fdiv afn <32 x float>
; NOAVX512: %r = fdiv float 1.000000e+00, %s, !fpmath !0
; NOAVX512: %r = fdiv <16 x float>
; NOAVX512-NOT: rsqrt14

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define <16 x float> @v16(<16 x float> %x) {
  %s = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %x)
  %r = fdiv <16 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s, !fpmath !0
  ret <16 x float> %r
}

define <32 x float> @v32_afn(<32 x float> %x) {
  %s = call <32 x float> @llvm.sqrt.v32f32(<32 x float> %x)
  %r = fdiv afn <32 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s
  ret <32 x float> %r
}

define float @scalar(float %x) {
  %s = call float @llvm.sqrt.f32(float %x)
  %r = fdiv float 1.0, %s, !fpmath !0
  ret float %r
}

define <16 x float> @exact(<16 x float> %x) {
  %s = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %x)
  %r = fdiv <16 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, %s
  ret <16 x float> %r
}

declare <16 x float> @llvm.sqrt.v16f32(<16 x float>)
declare <32 x float> @llvm.sqrt.v32f32(<32 x float>)
declare float @llvm.sqrt.f32(float)

!0 = !{float 2.500000e+00}
