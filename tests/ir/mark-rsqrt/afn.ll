; Before O3, on AVX-512, the 1 / sqrt(x) divisions that fast-rsqrt may
; rewrite (float, !fpmath of at least 1.5 ulp) also get the `afn` flag:
; InstCombine drops !fpmath when it rebuilds a division from the loop
; vectoriser's shuffles (float2/4/8 kernels) but keeps IR flags, so after
; O3 fast-rsqrt still finds them (a7062f9). A correctly rounded division
; (no !fpmath), a double one and any other division stay unmarked; without
; AVX-512F or with -O0 nothing is marked (prefix NONE).
; RUN: -passes=mark-rsqrt -mattr=+avx2,+fma,+avx512f
; RUN: -passes=mark-rsqrt -mattr=+avx2,+fma | --check-prefix=NONE
; RUN: -passes=mark-rsqrt -O0 -mattr=+avx2,+fma,+avx512f | --check-prefix=NONE

; CHECK-LABEL: define <4 x float> @marked(
; CHECK: %r = fdiv afn <4 x float> <float 1.000000e+00, {{.*}}, %s, !fpmath
; CHECK-LABEL: define float @exact(
; CHECK: %r = fdiv float 1.000000e+00, %s
; CHECK-LABEL: define double @dbl(
; CHECK: %r = fdiv double 1.000000e+00, %s, !fpmath
; CHECK-LABEL: define float @not_sqrt(
; CHECK: %r = fdiv float 1.000000e+00, %x, !fpmath

; NONE-NOT: fdiv afn

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define <4 x float> @marked(<4 x float> %x) {
  %s = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %x)
  %r = fdiv <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>, %s, !fpmath !0
  ret <4 x float> %r
}

define float @exact(float %x) {
  %s = call float @llvm.sqrt.f32(float %x)
  %r = fdiv float 1.0, %s
  ret float %r
}

define double @dbl(double %x) {
  %s = call double @llvm.sqrt.f64(double %x)
  %r = fdiv double 1.0, %s, !fpmath !0
  ret double %r
}

define float @not_sqrt(float %x) {
  %r = fdiv float 1.0, %x, !fpmath !0
  ret float %r
}

declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)

!0 = !{float 2.500000e+00}
