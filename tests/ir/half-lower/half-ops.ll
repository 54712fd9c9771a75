; Half operations LLVM 19's x86 back end gets wrong, rewritten just before
; code generation:
;  - comparisons of half values compare their exact float extensions:
;    with AVX-512 FP16, vectorised vcmpph gave wrong lanes in large loop
;    bodies (guards 6c4ba7f: lgamma_r on half4, lanes 2 and 3);
;  - fneg, fabs and copysign act on the sign bit of the integer bits
;    (through float they quiet signalling NaNs);
;  - double -> half rounds to odd in float first (one correct rounding,
;    no libgcc call per element).
; Half arithmetic (fadd) is left to the back end with AVX-512 FP16; without
; it, arithmetic on vectors of half is done on their float extensions,
; rounded back once (LLVM 19 did that one element at a time: clpeak's half
; kernels ran at 5 GFLOP/s on AMD Zen 5), with the scalar code's results:
; a contracted multiply-add unfused (@mad), OpenCL's mad (llvm.fma) one
; float fma (@mad_fma); the scalar fadd of @scalar_add stays half.
; RUN: -passes=half-lower -mattr=+avx2,+fma,+f16c,+avx512f,+avx512vl,+avx512bw,+avx512fp16
; RUN: -passes=half-lower -mattr=+avx2,+fma,+f16c,+avx512f,+avx512vl,+avx512bw | --check-prefix=NOFP16

; NOFP16-LABEL: define <4 x half> @sign_ops(
; NOFP16: %[[A:.*]] = fpext <4 x half> %{{.*}} to <4 x float>
; NOFP16-NEXT: %[[B:.*]] = fpext <4 x half> %x to <4 x float>
; NOFP16-NEXT: %[[S:.*]] = fadd <4 x float> %[[A]], %[[B]]
; NOFP16-NEXT: fptrunc <4 x float> %[[S]] to <4 x half>
; NOFP16-LABEL: define <8 x half> @mad(
; NOFP16: %[[A:.*]] = fpext <8 x half> %a to <8 x float>
; NOFP16-NEXT: %[[B:.*]] = fpext <8 x half> %b to <8 x float>
; NOFP16-NEXT: %[[P:.*]] = fmul <8 x float> %[[A]], %[[B]]
; NOFP16-NEXT: %[[PH:.*]] = fptrunc <8 x float> %[[P]] to <8 x half>
; NOFP16-NEXT: %[[C:.*]] = fpext <8 x half> %c to <8 x float>
; NOFP16-NEXT: %[[PF:.*]] = fpext <8 x half> %[[PH]] to <8 x float>
; NOFP16-NEXT: %[[S:.*]] = fadd <8 x float> %[[PF]], %[[C]]
; NOFP16-NEXT: %[[R:.*]] = fptrunc <8 x float> %[[S]] to <8 x half>
; NOFP16-NEXT: ret <8 x half> %[[R]]
; NOFP16-LABEL: define <8 x half> @mad_fma(
; NOFP16: %[[M:.*]] = call <8 x float> @llvm.fma.v8f32(<8 x float> %{{.*}}, <8 x float> %{{.*}}, <8 x float> %{{.*}})
; NOFP16-NEXT: %[[R:.*]] = fptrunc <8 x float> %[[M]] to <8 x half>
; NOFP16-NEXT: ret <8 x half> %[[R]]
; NOFP16-LABEL: define half @scalar_add(
; NOFP16: fadd half %x, %y

; CHECK-LABEL: define <8 x i1> @compare(
; CHECK-DAG: %[[XF:.*]] = fpext <8 x half> %x to <8 x float>
; CHECK-DAG: %[[YF:.*]] = fpext <8 x half> %y to <8 x float>
; CHECK: %[[LT:.*]] = fcmp olt <8 x float> %[[XF]], %[[YF]]
; CHECK-NOT: fcmp {{.*}} half
; CHECK: ret <8 x i1> %[[LT]]

; CHECK-LABEL: define half @scalar_compare(
; CHECK: fcmp uge float
; CHECK-NOT: fcmp {{.*}} half

; CHECK-LABEL: define <4 x half> @sign_ops(
; CHECK: %[[XB:.*]] = bitcast <4 x half> %x to <4 x i16>
; CHECK-NEXT: %[[NB:.*]] = xor <4 x i16> %[[XB]], <i16 -32768, i16 -32768, i16 -32768, i16 -32768>
; CHECK-NEXT: %[[NEG:.*]] = bitcast <4 x i16> %[[NB]] to <4 x half>
; CHECK: %[[YB:.*]] = bitcast <4 x half> %y to <4 x i16>
; CHECK-NEXT: %[[AB:.*]] = and <4 x i16> %[[YB]], <i16 32767, i16 32767, i16 32767, i16 32767>
; CHECK-NEXT: %[[ABS:.*]] = bitcast <4 x i16> %[[AB]] to <4 x half>
; CHECK: %[[MB:.*]] = bitcast <4 x half> %[[NEG]] to <4 x i16>
; CHECK-NEXT: %[[MAG:.*]] = and <4 x i16> %[[MB]], <i16 32767,
; CHECK-NEXT: %[[SB:.*]] = bitcast <4 x half> %[[ABS]] to <4 x i16>
; CHECK-NEXT: %[[SIGN:.*]] = and <4 x i16> %[[SB]], <i16 -32768,
; CHECK-NEXT: %[[CS:.*]] = or <4 x i16> %[[MAG]], %[[SIGN]]
; CHECK-NEXT: %[[R:.*]] = bitcast <4 x i16> %[[CS]] to <4 x half>
; CHECK-NOT: fneg
; CHECK-NOT: @llvm.fabs
; CHECK-NOT: @llvm.copysign
; CHECK: fadd <4 x half> %[[R]], %x
; CHECK-LABEL: define half @from_double(
; CHECK: %[[F:.*]] = fptrunc double %d to float
; CHECK-NEXT: %[[BACK:.*]] = fpext float %[[F]] to double
; CHECK-NEXT: %[[INEXACT:.*]] = fcmp one double %[[BACK]], %d
; CHECK: %[[ODD:.*]] = bitcast i32 %{{.*}} to float
; CHECK-NEXT: %[[H:.*]] = fptrunc float %[[ODD]] to half
; CHECK-NEXT: ret half %[[H]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define <8 x i1> @compare(<8 x half> %x, <8 x half> %y) {
  %lt = fcmp olt <8 x half> %x, %y
  ret <8 x i1> %lt
}

define half @scalar_compare(half %x, half %y) {
  %ge = fcmp uge half %x, %y
  %r = select i1 %ge, half %x, half %y
  ret half %r
}

define <4 x half> @sign_ops(<4 x half> %x, <4 x half> %y) {
  %neg = fneg <4 x half> %x
  %abs = call <4 x half> @llvm.fabs.v4f16(<4 x half> %y)
  %cs = call <4 x half> @llvm.copysign.v4f16(<4 x half> %neg, <4 x half> %abs)
  %sum = fadd <4 x half> %cs, %x
  ret <4 x half> %sum
}

define <8 x half> @mad(<8 x half> %a, <8 x half> %b, <8 x half> %c) {
  %r = call <8 x half> @llvm.fmuladd.v8f16(<8 x half> %a, <8 x half> %b, <8 x half> %c)
  ret <8 x half> %r
}

define <8 x half> @mad_fma(<8 x half> %a, <8 x half> %b, <8 x half> %c) {
  %r = call <8 x half> @llvm.fma.v8f16(<8 x half> %a, <8 x half> %b, <8 x half> %c)
  ret <8 x half> %r
}

define half @scalar_add(half %x, half %y) {
  %r = fadd half %x, %y
  ret half %r
}

define half @from_double(double %d) {
  %h = fptrunc double %d to half
  ret half %h
}

declare <4 x half> @llvm.fabs.v4f16(<4 x half>)
declare <4 x half> @llvm.copysign.v4f16(<4 x half>, <4 x half>)

declare <8 x half> @llvm.fmuladd.v8f16(<8 x half>, <8 x half>, <8 x half>)
declare <8 x half> @llvm.fma.v8f16(<8 x half>, <8 x half>, <8 x half>)
