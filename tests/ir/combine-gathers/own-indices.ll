; Families whose members have their own 32-bit indices (vectorize/
; index_families.c): CLBlast's XgemmDirect copies 2x2 elements a work-item
; (`at[(2 ly + j) 17 + 2 lx + i] = A[(g + 2 ly + j) ld + k + 2 lx + i]`), and
; the loop vectoriser gives component i = 1 the address sext32(u + <1, 3,
; ...>) beside i = 0's sext32(u + <0, 2, ...>) (or a disjoint `or` of 1),
; not i = 0's address plus 4 bytes. Member 1 is then member 0 plus one
; element in every lane when the 32-bit sums do not wrap: the wrap test on
; lane 0's index also keeps the last member's last lane in range, INT_MAX -
; 14 - 1.
;  - @copy: rows j = 0 and 1 of A copied to a __local array (`[272 x
;    float]`, flattened to float addresses first), their members
;    interleaved as the kernel writes them (j = 0, 1 for i = 0, then for i =
;    1): both copies at once, one 64-byte load and store each, behind one
;    test that also finds the two __local ranges apart (the stores change
;    order); the gathers and scatters in their order otherwise;
;  - @gathers: two members read and added: one family, its two columns
;    unzipped from the 16 floats;
;  - @apart2: the second index 2 more, not 1: no family, the gathers stay;
;  - @read_between: @copy's first two members, then a read of the __local
;    array before the other two: the stores cannot move past it, nothing
;    is combined.
; RUN: -passes=combine-gathers

; CHECK-LABEL: define void @copy(
; CHECK: %gathers_whole = icmp sle i32 %{{.*}}, 2147483632
; CHECK: %copies_apart = icmp uge i64 %{{.*}}, 127
; CHECK: br i1 %{{.*}}, label %copy.whole, label %copy.apart
; CHECK: copy.whole:
; CHECK-NEXT: getelementptr i8, ptr addrspace(1) %p0
; CHECK-NEXT: %copy.rows = load <16 x float>
; CHECK: store <16 x float> %copy.rows, ptr addrspace(3)
; CHECK: load <16 x float>
; CHECK: store <16 x float>
; CHECK-NEXT: br label %
; CHECK: copy.apart:
; CHECK: @llvm.masked.gather.v8f32.v8p1({{.*}} %pa0,
; CHECK: @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga0,
; CHECK: @llvm.masked.gather.v8f32.v8p1({{.*}} %pb0,
; CHECK: @llvm.masked.scatter.v8f32.v8p3(<8 x float> %gb0,
; CHECK: @llvm.masked.gather.v8f32.v8p1({{.*}} %pa1,
; CHECK: @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga1,
; CHECK: @llvm.masked.gather.v8f32.v8p1({{.*}} %pb1,
; CHECK: @llvm.masked.scatter.v8f32.v8p3(<8 x float> %gb1,

; CHECK-LABEL: define <8 x float> @gathers(
; CHECK: %gathers_whole = icmp sle i32 %{{.*}}, 2147483632
; CHECK: gathers.whole:
; CHECK: load <16 x float>
; CHECK: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <8 x i32> <i32 0, i32 2,
; CHECK: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <8 x i32> <i32 1, i32 3,

; CHECK-LABEL: define <8 x float> @apart2(
; CHECK-NOT: gathers_whole
; CHECK: @llvm.masked.gather
; CHECK: @llvm.masked.gather
; CHECK: ret <8 x float>

; CHECK-LABEL: define float @read_between(
; CHECK-NOT: copy.whole
; CHECK-NOT: gathers.whole
; CHECK: ret float

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @copy(ptr addrspace(1) %a, ptr addrspace(3) %t, i32 %u, i32 %ld, i32 %v) #0 {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %u1 = add i32 %u, %ld
  %u1s = insertelement <8 x i32> poison, i32 %u1, i64 0
  %u1v = shufflevector <8 x i32> %u1s, <8 x i32> poison, <8 x i32> zeroinitializer
  %vs = insertelement <8 x i32> poison, i32 %v, i64 0
  %vv = shufflevector <8 x i32> %vs, <8 x i32> poison, <8 x i32> zeroinitializer
  %v1 = add i32 %v, 17
  %v1s = insertelement <8 x i32> poison, i32 %v1, i64 0
  %v1v = shufflevector <8 x i32> %v1s, <8 x i32> poison, <8 x i32> zeroinitializer
  %ia0 = add nsw <8 x i32> %uv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %xa0 = sext <8 x i32> %ia0 to <8 x i64>
  %pa0 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xa0
  %ga0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %ja0 = add nsw <8 x i32> %vv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %ya0 = sext <8 x i32> %ja0 to <8 x i64>
  %qa0 = getelementptr inbounds [272 x float], ptr addrspace(3) %t, i64 0, <8 x i64> %ya0
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga0, <8 x ptr addrspace(3)> %qa0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %ib0 = add nsw <8 x i32> %u1v, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %xb0 = sext <8 x i32> %ib0 to <8 x i64>
  %pb0 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xb0
  %gb0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pb0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %jb0 = add nsw <8 x i32> %v1v, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %yb0 = sext <8 x i32> %jb0 to <8 x i64>
  %qb0 = getelementptr inbounds [272 x float], ptr addrspace(3) %t, i64 0, <8 x i64> %yb0
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %gb0, <8 x ptr addrspace(3)> %qb0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %ia1 = or disjoint <8 x i32> %ia0, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %xa1 = sext <8 x i32> %ia1 to <8 x i64>
  %pa1 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xa1
  %ga1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %ja1 = add nsw <8 x i32> %vv, <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %ya1 = sext <8 x i32> %ja1 to <8 x i64>
  %qa1 = getelementptr inbounds [272 x float], ptr addrspace(3) %t, i64 0, <8 x i64> %ya1
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga1, <8 x ptr addrspace(3)> %qa1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %ib1 = add <8 x i32> %u1v, <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %xb1 = sext <8 x i32> %ib1 to <8 x i64>
  %pb1 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xb1
  %gb1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pb1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %jb1 = add nsw <8 x i32> %v1v, <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %yb1 = sext <8 x i32> %jb1 to <8 x i64>
  %qb1 = getelementptr inbounds [272 x float], ptr addrspace(3) %t, i64 0, <8 x i64> %yb1
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %gb1, <8 x ptr addrspace(3)> %qb1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  ret void
}

define <8 x float> @gathers(ptr addrspace(1) %a, i32 %u) #0 {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %i0 = add <8 x i32> %uv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %x0 = sext <8 x i32> %i0 to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %x0
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i1 = add <8 x i32> %uv, <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %x1 = sext <8 x i32> %i1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %x1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s = fadd <8 x float> %g0, %g1
  ret <8 x float> %s
}

define <8 x float> @apart2(ptr addrspace(1) %a, i32 %u) #0 {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %i0 = add <8 x i32> %uv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %x0 = sext <8 x i32> %i0 to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %x0
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i1 = add <8 x i32> %uv, <i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14, i32 16>
  %x1 = sext <8 x i32> %i1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %x1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s = fadd <8 x float> %g0, %g1
  ret <8 x float> %s
}

define float @read_between(ptr addrspace(1) %a, ptr addrspace(3) %t, i32 %u, i32 %v) #0 {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %vs = insertelement <8 x i32> poison, i32 %v, i64 0
  %vv = shufflevector <8 x i32> %vs, <8 x i32> poison, <8 x i32> zeroinitializer
  %ia0 = add nsw <8 x i32> %uv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %xa0 = sext <8 x i32> %ia0 to <8 x i64>
  %pa0 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xa0
  %ga0 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %ja0 = add nsw <8 x i32> %vv, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
  %ya0 = sext <8 x i32> %ja0 to <8 x i64>
  %qa0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %ya0
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga0, <8 x ptr addrspace(3)> %qa0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %r = load float, ptr addrspace(3) %t, align 4
  %ia1 = or disjoint <8 x i32> %ia0, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %xa1 = sext <8 x i32> %ia1 to <8 x i64>
  %pa1 = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %xa1
  %ga1 = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %ja1 = add nsw <8 x i32> %vv, <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %ya1 = sext <8 x i32> %ja1 to <8 x i64>
  %qa1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %ya1
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %ga1, <8 x ptr addrspace(3)> %qa1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  ret float %r
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32 immarg, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p3(<8 x float>, <8 x ptr addrspace(3)>, i32 immarg, <8 x i1>)

attributes #0 = { "prefer-vector-width"="512" "target-features"="+avx2,+fma,+avx512f,+avx512vl" }
