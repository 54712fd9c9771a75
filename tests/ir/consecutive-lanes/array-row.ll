; A row of a two-dimensional local array read and written by the lanes
; (PyOpenCL's scan adds along a work-item's column: `ldata[k][lid]`, the
; outer-vectorised GEP [257 x [17 x i32]], 0, splat(k), <0, 1, ..., 7>): the
; indices are each the same in every lane or lane-affine, their byte
; offsets add up to consecutive elements, and the gather and the scatter
; become one vector load and one vector store at lane 0's element
; (vectorize/consecutive_lanes.c). Before, only one-index GEPs were looked
; at, and both stayed a gather and a scatter.
;  - @column: the lanes walk down a column (<0, ..., 7> as the row index,
;    68 bytes apart): stays a gather.
; RUN: -passes=consecutive-lanes

; CHECK-LABEL: define void @row.loom_wg(
; CHECK: %[[P:lane0.*]] = getelementptr inbounds [257 x [17 x i32]], ptr addrspace(3) %loc, i64 0, i64 %{{.*}}, i64 0
; CHECK-NEXT: %[[V:.*]] = load <8 x i32>, ptr addrspace(3) %[[P]], align 4
; CHECK: store <8 x i32> %{{.*}}, ptr addrspace(3) %{{lane0.*}}, align 4
; CHECK-NOT: masked.gather
; CHECK-NOT: masked.scatter
; CHECK: ret void

; CHECK-LABEL: define void @column.loom_wg(
; CHECK: call <8 x i32> @llvm.masked.gather.v8i32.v8p3(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @row.loom_wg(ptr addrspace(3) %loc) #0 {
entry:
  br label %body

body:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %s = phi <8 x i32> [ zeroinitializer, %entry ], [ %sum, %body ]
  %k.i = insertelement <8 x i64> poison, i64 %k, i64 0
  %k.s = shufflevector <8 x i64> %k.i, <8 x i64> poison, <8 x i32> zeroinitializer
  %p = getelementptr inbounds [257 x [17 x i32]], ptr addrspace(3) %loc, i64 0, <8 x i64> %k.s, <8 x i64> <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p3(<8 x ptr addrspace(3)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  %sum = add <8 x i32> %v, %s
  call void @llvm.masked.scatter.v8i32.v8p3(<8 x i32> %sum, <8 x ptr addrspace(3)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 256
  br i1 %done, label %exit, label %body

exit:
  ret void
}

define void @column.loom_wg(ptr addrspace(3) %loc) #0 {
entry:
  br label %body

body:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %k.i = insertelement <8 x i64> poison, i64 %k, i64 0
  %k.s = shufflevector <8 x i64> %k.i, <8 x i64> poison, <8 x i32> zeroinitializer
  %p = getelementptr inbounds [257 x [17 x i32]], ptr addrspace(3) %loc, i64 0, <8 x i64> <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, <8 x i64> %k.s
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p3(<8 x ptr addrspace(3)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  %q = getelementptr inbounds i32, ptr addrspace(3) %loc, i64 %k
  store <8 x i32> %v, ptr addrspace(3) %q, align 4
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 16
  br i1 %done, label %exit, label %body

exit:
  ret void
}

declare <8 x i32> @llvm.masked.gather.v8i32.v8p3(<8 x ptr addrspace(3)>, i32 immarg, <8 x i1>, <8 x i32>)
declare void @llvm.masked.scatter.v8i32.v8p3(<8 x i32>, <8 x ptr addrspace(3)>, i32 immarg, <8 x i1>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }
