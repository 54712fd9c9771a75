; The two components of a float2 read by 16 work-items at A[id], id an
; OpenCL int (clpeak's bandwidth kernel): the address is
; A + sext32(id) * 8, which O3 writes as `ashr exact (shl X, 32), 29` on
; X = the work-item loop's induction <0, ..., 15> (step 16) plus a splat.
; The lanes are 8 bytes apart exactly when lane 0's 32-bit index is at most
; INT_MAX - 15 (no later lane wraps): one scalar compare of lane 0's index
; replaces comparing 16 addresses, and lane 0's address is computed from
; that index in scalar registers (vectorize/gather_groups.c, wrap_test):
; the index itself from lane 0 of its parts (the induction's element 0
; plus the scalar behind the splat, vectorize/consecutive_lanes.c,
; loom_lane0_affine), and the vector of addresses, now used only by the
; gathers of the slow path, moves there (before: a 512-bit computation on
; every iteration, for the extract of lane 0 and the dead member address).
;  - @float2: that test, then two loads and the even/odd shuffles;
;  - @stride3: the index steps by 3 per lane (24 bytes, not 8): the general
;    test of every lane's address, which then always fails;
;  - @single: one gather each (a family of one) at A[id] and A[id + ls],
;    float id = X + v with O3's `ashr exact (shl X, 32) + (v << 32), 30`
;    and the second address a scalar step of the first (a kernel's
;    `sum += A[id + i * get_local_size(0)]`, 7.6 GB/s on AMD Zen 5, 34 now):
;    each one vector load behind the scalar test on X0 + v, the step applied
;    to lane 0's address.
; RUN: -passes=combine-gathers

; CHECK-LABEL: define void @float2(
; CHECK: loop:
; CHECK: %[[L:.*]] = extractelement <16 x i64> %vec.ind, i32 0
; CHECK-NEXT: %[[I:.*]] = add i64 %[[L]], %b
; CHECK-NOT: <16 x i64>
; CHECK: %[[T:.*]] = trunc i64 %[[I]] to i32
; CHECK: %[[E:.*]] = sext i32 %[[T]] to i64
; CHECK: %[[O:.*]] = shl i64 %[[E]], 3
; CHECK: %p0 = getelementptr i8, ptr addrspace(1) %a, i64 %[[O]]
; CHECK: %gathers_whole = icmp sle i32 %[[T]], 2147483632
; CHECK-NEXT: br i1 %gathers_whole, label %gathers.whole, label %gathers.apart
; CHECK: gathers.whole:
; CHECK-COUNT-2: load <16 x float>, ptr addrspace(1) %{{.*}}, align 4
; CHECK: gathers.apart:
; CHECK-NEXT: %x = add <16 x i64> %vec.ind, %b.s
; CHECK-NEXT: %sh = shl <16 x i64> %x
; CHECK-NEXT: %off = ashr exact <16 x i64> %sh
; CHECK-NEXT: %p = getelementptr inbounds i8, ptr addrspace(1) %a, <16 x i64> %off
; CHECK-COUNT-2: call <16 x float> @llvm.masked.gather.v16f32.v16p1({{.*}}), !loom.gathers.apart
; CHECK-NOT: %p1 =
; CHECK: ret void

; CHECK-LABEL: define void @stride3(
; CHECK-NOT: %index0
; CHECK: %gathers_whole = icmp eq i16 %{{.*}}, -1
; CHECK: ret void

; CHECK-LABEL: define void @single(
; CHECK: %[[X:.*]] = trunc i64 %lane0 to i32
; CHECK-NEXT: %[[V:.*]] = lshr i64 %hi, 32
; CHECK-NEXT: %[[VT:.*]] = trunc i64 %[[V]] to i32
; CHECK-NEXT: %[[I:.*]] = add i32 %[[X]], %[[VT]]
; CHECK: %p0 = getelementptr i8, ptr addrspace(1) %a, i64
; CHECK: %gathers_whole = icmp sle i32 %[[I]], 2147483632
; CHECK: gathers.whole:
; CHECK: load <16 x float>, ptr addrspace(1) %{{.*}}, align 4
; CHECK: %[[Q0:.*]] = getelementptr i8, ptr addrspace(1) %a, i64
; CHECK-NEXT: %[[Q:.*]] = getelementptr float, ptr addrspace(1) %[[Q0]], i64 %ls
; CHECK: gathers.whole{{[0-9]+}}:
; CHECK-NEXT: %[[R:.*]] = getelementptr i8, ptr addrspace(1) %[[Q]], i64 0
; CHECK-NEXT: load <16 x float>, ptr addrspace(1) %[[R]], align 4
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @float2(ptr addrspace(1) %a, <16 x i64> %ind, i64 %b, ptr addrspace(1) %out) {
entry:
  %b.i = insertelement <16 x i64> poison, i64 %b, i64 0
  %b.s = shufflevector <16 x i64> %b.i, <16 x i64> poison, <16 x i32> zeroinitializer
  br label %loop

loop:
  %vec.ind = phi <16 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>, %entry ], [ %vec.ind.next, %loop ]
  %x = add <16 x i64> %vec.ind, %b.s
  %sh = shl <16 x i64> %x, <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
  %off = ashr exact <16 x i64> %sh, <i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29>
  %p = getelementptr inbounds i8, ptr addrspace(1) %a, <16 x i64> %off
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p1 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 4
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p1, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s = fadd <16 x float> %g0, %g1
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  %vec.ind.next = add <16 x i64> %vec.ind, <i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16>
  %done = icmp eq i64 %b, 0
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @stride3(ptr addrspace(1) %a, i64 %b, ptr addrspace(1) %out) {
entry:
  %b.i = insertelement <16 x i64> poison, i64 %b, i64 0
  %b.s = shufflevector <16 x i64> %b.i, <16 x i64> poison, <16 x i32> zeroinitializer
  %x = add <16 x i64> <i64 0, i64 3, i64 6, i64 9, i64 12, i64 15, i64 18, i64 21, i64 24, i64 27, i64 30, i64 33, i64 36, i64 39, i64 42, i64 45>, %b.s
  %sh = shl <16 x i64> %x, <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
  %off = ashr exact <16 x i64> %sh, <i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29>
  %p = getelementptr inbounds i8, ptr addrspace(1) %a, <16 x i64> %off
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p1 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 4
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p1, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s = fadd <16 x float> %g0, %g1
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @single(ptr addrspace(1) %a, i64 %g, i64 %ls, ptr addrspace(1) %out) {
entry:
  %hi = shl i64 %g, 36
  %hi.i = insertelement <16 x i64> poison, i64 %hi, i64 0
  %hi.s = shufflevector <16 x i64> %hi.i, <16 x i64> poison, <16 x i32> zeroinitializer
  br label %loop

loop:
  %vec.ind = phi <16 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>, %entry ], [ %vec.ind.next, %loop ]
  %sh = shl <16 x i64> %vec.ind, <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
  %sum = add <16 x i64> %sh, %hi.s
  %off = ashr exact <16 x i64> %sum, <i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30>
  %p = getelementptr i8, ptr addrspace(1) %a, <16 x i64> %off
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %q = getelementptr float, <16 x ptr addrspace(1)> %p, i64 %ls
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %q, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s = fadd <16 x float> %g0, %g1
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  %vec.ind.next = add <16 x i64> %vec.ind, <i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16>
  %done = icmp eq i64 %g, 0
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
