; The four components of a float4 read by 8 work-items in a function made
; for 512-bit vectors (an 8-wide group on AVX-512): the stream of 32 floats
; is two whole registers, and each column one two-source shuffle of both
; (VPERMI2PS), where two rounds of even/odd shuffles of 256-bit rows take a
; SHUFPS and a VPERMPD each (vectorize/gather_groups.c).
;  - @narrow256: made for 256-bit vectors, no two-source permutation: rows
;    and even/odd shuffles as before;
;  - @copy: the gathers' values are only scattered, to local memory: behind
;    the test that both sides' lanes are 16 bytes apart, the stream is
;    loaded and stored whole, no shuffle; otherwise the gathers and
;    scatters, marked so neither pass looks at them again
;    (vectorize/copy_groups.c);
;  - @copy_same_space: global to global may overlap: a family of gathers
;    as usual, the scatters left.
; RUN: -passes=combine-gathers

; CHECK-LABEL: define void @narrow(
; CHECK: gathers.whole:
; CHECK: %gathers.rows = load <16 x float>, ptr addrspace(1) %{{.*}}, align 4
; CHECK: %gathers.rows{{[0-9]+}} = load <16 x float>, ptr addrspace(1)
; CHECK-NEXT: shufflevector <16 x float> %gathers.rows, <16 x float> %gathers.rows{{[0-9]+}}, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
; CHECK-NEXT: shufflevector <16 x float> %gathers.rows, <16 x float> %gathers.rows{{[0-9]+}}, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
; CHECK-NEXT: shufflevector <16 x float> %gathers.rows, <16 x float> %gathers.rows{{[0-9]+}}, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
; CHECK-NEXT: shufflevector <16 x float> %gathers.rows, <16 x float> %gathers.rows{{[0-9]+}}, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
; CHECK-NEXT: br label

; CHECK-LABEL: define void @narrow256(
; CHECK: gathers.whole:
; CHECK-NOT: <16 x float>
; CHECK-COUNT-4: load <8 x float>, ptr addrspace(1)
; CHECK: unzip.even
; CHECK: gathers.apart:

; CHECK-LABEL: define void @copy(
; CHECK: %copy_whole = and i1
; CHECK-NEXT: br i1 %copy_whole, label %copy.whole, label %copy.apart
; CHECK: copy.whole:
; CHECK-NEXT: getelementptr i8, ptr addrspace(1) %p0, i64 0
; CHECK-NEXT: %copy.rows = load <16 x float>, ptr addrspace(1)
; CHECK-NEXT: getelementptr i8, ptr addrspace(3) %p0{{[0-9]+}}, i64 0
; CHECK-NEXT: store <16 x float> %copy.rows, ptr addrspace(3)
; CHECK: %copy.rows{{[0-9]+}} = load <16 x float>, ptr addrspace(1)
; CHECK: store <16 x float> %copy.rows{{[0-9]+}}, ptr addrspace(3)
; CHECK-NOT: shufflevector
; CHECK: copy.apart:
; CHECK-COUNT-4: call <8 x float> @llvm.masked.gather.v8f32.v8p1({{.*}}), !loom.gathers.apart
; CHECK-COUNT-4: call void @llvm.masked.scatter.v8f32.v8p3({{.*}}), !loom.scatters.apart
; CHECK: ret void

; CHECK-LABEL: define void @copy_same_space(
; CHECK-NOT: copy.whole
; CHECK: gathers.whole:
; CHECK: call void @llvm.masked.scatter.v8f32.v8p1(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @narrow(<8 x ptr addrspace(1)> %p, ptr addrspace(1) %out) #0 {
entry:
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 8
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p3 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 12
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s01 = fadd <8 x float> %g0, %g1
  %s23 = fadd <8 x float> %g2, %g3
  %s = fadd <8 x float> %s01, %s23
  store <8 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @narrow256(<8 x ptr addrspace(1)> %p, ptr addrspace(1) %out) #1 {
entry:
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 8
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p3 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 12
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s01 = fadd <8 x float> %g0, %g1
  %s23 = fadd <8 x float> %g2, %g3
  %s = fadd <8 x float> %s01, %s23
  store <8 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @copy(<8 x ptr addrspace(1)> %p, <8 x ptr addrspace(3)> %q) #0 {
entry:
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 8
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p3 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 12
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %g0, <8 x ptr addrspace(3)> %q, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %q1 = getelementptr i8, <8 x ptr addrspace(3)> %q, i64 4
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %g1, <8 x ptr addrspace(3)> %q1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %q2 = getelementptr i8, <8 x ptr addrspace(3)> %q, i64 8
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %g2, <8 x ptr addrspace(3)> %q2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %q3 = getelementptr i8, <8 x ptr addrspace(3)> %q, i64 12
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %g3, <8 x ptr addrspace(3)> %q3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  ret void
}

define void @copy_same_space(<8 x ptr addrspace(1)> %p, <8 x ptr addrspace(1)> %q) #0 {
entry:
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(1)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %g0, <8 x ptr addrspace(1)> %q, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %q1 = getelementptr i8, <8 x ptr addrspace(1)> %q, i64 4
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %g1, <8 x ptr addrspace(1)> %q1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p3(<8 x float>, <8 x ptr addrspace(3)>, i32, <8 x i1>)
declare void @llvm.masked.scatter.v8f32.v8p1(<8 x float>, <8 x ptr addrspace(1)>, i32, <8 x i1>)

attributes #0 = { "prefer-vector-width"="512" }
attributes #1 = { "prefer-vector-width"="256" }
