; Eight work-items each read their own row of a __local tile,
; t[lid * 34 + k] for k = 0 .. 7 (vectorize/gather_rows.c): eight gathers
; whose lanes lie 34 floats apart, the k-th at index Y + k with Y = lid * 34
; (the forms O3 leaves: Y itself, `or disjoint` Y, 1, `add` Y, k, and a
; pointer stepped by a constant). At the first, the test that lane 0's
; 32-bit index leaves no lane's Y + k wrapping (at most
; INT_MAX - (7 * 34 + 7) = 2147483402); then eight <8 x float> loads, one
; row each, and three rounds of even/odd shuffles; otherwise the gathers,
; marked so they are not looked at again. Phis join them.
;  - @store_between: a store between two members: nothing changes;
;  - @four: four members for eight lanes (a row shorter than a vector):
;    nothing changes.
; Before, CLBlast's XgemmDirectTN spent most of its time in such gathers on
; AMD Zen 5 (SGEMM 512: 13.9 GFLOP/s, now 20).
; RUN: -passes=gather-rows

; CHECK-LABEL: define void @rows(
; CHECK: %rows_whole = icmp sle i32 %{{.*}}, 2147483402
; CHECK: %row0 = getelementptr i8, ptr addrspace(3) %t, i64
; CHECK-NEXT: br i1 %rows_whole, label %rows.whole, label %rows.apart
; CHECK: rows.whole:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 0
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R0]], align 4
; CHECK: %[[R7:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 952
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R7]], align 4
; CHECK-COUNT-24: shufflevector <8 x float>
; CHECK: rows.apart:
; CHECK-COUNT-8: call <8 x float> @llvm.masked.gather.v8f32.v8p3({{.*}}), !loom.gathers.apart
; CHECK: %row.component = phi <8 x float>
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void

; CHECK-LABEL: define void @store_between(
; CHECK-NOT: rows.whole
; CHECK: ret void
; CHECK-LABEL: define void @four(
; CHECK-NOT: rows.whole
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @rows(ptr addrspace(3) %t, i32 %u, ptr addrspace(1) %out) {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %lane = add <8 x i32> %uv, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %y = mul <8 x i32> %lane, <i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34>
  %ys = sext <8 x i32> %y to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %ys
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x1 = or disjoint <8 x i32> %y, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %s1 = sext <8 x i32> %x1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a1 = fadd <8 x float> %g0, %g1
  %t2 = getelementptr float, ptr addrspace(3) %t, i64 2
  %p2 = getelementptr float, ptr addrspace(3) %t2, <8 x i64> %ys
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a2 = fadd <8 x float> %a1, %g2
  %x3 = add <8 x i32> %y, <i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3>
  %s3 = sext <8 x i32> %x3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a3 = fadd <8 x float> %a2, %g3
  %x4 = add <8 x i32> %y, <i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4>
  %s4 = sext <8 x i32> %x4 to <8 x i64>
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s4
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a4 = fadd <8 x float> %a3, %g4
  %x5 = add <8 x i32> %y, <i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5>
  %s5 = sext <8 x i32> %x5 to <8 x i64>
  %p5 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s5
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a5 = fadd <8 x float> %a4, %g5
  %x6 = add <8 x i32> %y, <i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6>
  %s6 = sext <8 x i32> %x6 to <8 x i64>
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s6
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a6 = fadd <8 x float> %a5, %g6
  %x7 = add <8 x i32> %y, <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>
  %s7 = sext <8 x i32> %x7 to <8 x i64>
  %p7 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s7
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a7 = fadd <8 x float> %a6, %g7
  store <8 x float> %a7, ptr addrspace(1) %out, align 4
  ret void
}

define void @store_between(ptr addrspace(3) %t, i32 %u, ptr addrspace(1) %out) {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %lane = add <8 x i32> %uv, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %y = mul <8 x i32> %lane, <i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34>
  %ys = sext <8 x i32> %y to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %ys
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x1 = or disjoint <8 x i32> %y, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %s1 = sext <8 x i32> %x1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a1 = fadd <8 x float> %g0, %g1
  %t2 = getelementptr float, ptr addrspace(3) %t, i64 2
  %p2 = getelementptr float, ptr addrspace(3) %t2, <8 x i64> %ys
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a2 = fadd <8 x float> %a1, %g2
  %x3 = add <8 x i32> %y, <i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3>
  %s3 = sext <8 x i32> %x3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  store <8 x float> %g0, ptr addrspace(1) %out, align 4
  %a3 = fadd <8 x float> %a2, %g3
  %x4 = add <8 x i32> %y, <i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4>
  %s4 = sext <8 x i32> %x4 to <8 x i64>
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s4
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a4 = fadd <8 x float> %a3, %g4
  %x5 = add <8 x i32> %y, <i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5>
  %s5 = sext <8 x i32> %x5 to <8 x i64>
  %p5 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s5
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a5 = fadd <8 x float> %a4, %g5
  %x6 = add <8 x i32> %y, <i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6>
  %s6 = sext <8 x i32> %x6 to <8 x i64>
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s6
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a6 = fadd <8 x float> %a5, %g6
  %x7 = add <8 x i32> %y, <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>
  %s7 = sext <8 x i32> %x7 to <8 x i64>
  %p7 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s7
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a7 = fadd <8 x float> %a6, %g7
  store <8 x float> %a7, ptr addrspace(1) %out, align 4
  ret void
}

define void @four(ptr addrspace(3) %t, i32 %u, ptr addrspace(1) %out) {
entry:
  %us = insertelement <8 x i32> poison, i32 %u, i64 0
  %uv = shufflevector <8 x i32> %us, <8 x i32> poison, <8 x i32> zeroinitializer
  %lane = add <8 x i32> %uv, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %y = mul <8 x i32> %lane, <i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34>
  %ys = sext <8 x i32> %y to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %ys
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x1 = or disjoint <8 x i32> %y, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %s1 = sext <8 x i32> %x1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a1 = fadd <8 x float> %g0, %g1
  %t2 = getelementptr float, ptr addrspace(3) %t, i64 2
  %p2 = getelementptr float, ptr addrspace(3) %t2, <8 x i64> %ys
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a2 = fadd <8 x float> %a1, %g2
  %x3 = add <8 x i32> %y, <i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3>
  %s3 = sext <8 x i32> %x3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %s3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a3 = fadd <8 x float> %a2, %g3
  store <8 x float> %a3, ptr addrspace(1) %out, align 4
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32 immarg, <8 x i1>, <8 x float>)
