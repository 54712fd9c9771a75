; A tile copy reshaped from a linear id (CLBlast's GlobalToLocalB with an
; 8-wide group: tid = 8 * ly + lane, lanes 0..7): the source row tid / 16 is
; the same in every lane (lshr: the lanes' <0, ..., 7> lie below the known
; zero bits of 8 * ly and shift out), the column tid % 16 is (8 * ly) % 16 +
; lane (and: every lane's constant lies below those bits), the row times the
; leading dimension (a run-time value, the same in every lane) stays the same
; in every lane: row * ld + col and row * 16 | col are consecutive, and the
; gather and the scatter become one vector load and one vector store
; (vectorize/consecutive_lanes.c). Before, each stayed a gather and a
; scatter, then a run-time test of all 8 addresses.
;  - @mask_too_wide: the column tid % 4 wraps inside the vector (the mask
;    reaches the lanes' bits): stays a gather.
; RUN: -passes=consecutive-lanes

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %[[ROW:.*]] = lshr i64 %ly, 1
; CHECK: mul nsw i64 %[[ROW]], %ld
; CHECK: %[[P:lane0.*]] = getelementptr float, ptr addrspace(1) %{{.*}}, i64 %{{.*}}
; CHECK-NEXT: %[[V:.*]] = load <8 x float>, ptr addrspace(1) %[[P]], align 4
; CHECK-NEXT: %[[Q:.*]] = getelementptr inbounds float, ptr addrspace(3) %loc, i64 %first
; CHECK-NEXT: store <8 x float> %[[V]], ptr addrspace(3) %[[Q]], align 4
; CHECK-NOT: masked.gather
; CHECK-NOT: masked.scatter
; CHECK: ret void

; CHECK-LABEL: define void @mask_too_wide.loom_wg(
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p1(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr addrspace(1) %in, ptr addrspace(3) %loc, i64 %ld) #0 {
entry:
  %ld.i = insertelement <8 x i64> poison, i64 %ld, i64 0
  %ld.s = shufflevector <8 x i64> %ld.i, <8 x i64> poison, <8 x i32> zeroinitializer
  br label %body

body:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %body ]
  %first = shl nuw nsw i64 %ly, 3
  %first.i = insertelement <8 x i64> poison, i64 %first, i64 0
  %first.s = shufflevector <8 x i64> %first.i, <8 x i64> poison, <8 x i32> zeroinitializer
  %tid = or disjoint <8 x i64> %first.s, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %row = lshr <8 x i64> %tid, <i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4>
  %col = and <8 x i64> %tid, <i64 15, i64 15, i64 15, i64 15, i64 15, i64 15, i64 15, i64 15>
  %rowoff = mul nsw <8 x i64> %row, %ld.s
  %idx = add nsw <8 x i64> %rowoff, %col
  %p = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %idx
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %lrow = shl nuw nsw <8 x i64> %row, <i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4>
  %lidx = or disjoint <8 x i64> %lrow, %col
  %q = getelementptr inbounds float, ptr addrspace(3) %loc, <8 x i64> %lidx
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v, <8 x ptr addrspace(3)> %q, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 16
  br i1 %done, label %exit, label %body

exit:
  ret void
}

define void @mask_too_wide.loom_wg(ptr addrspace(1) %in, ptr addrspace(3) %loc, i64 %ld) #0 {
entry:
  br label %body

body:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %body ]
  %first = shl nuw nsw i64 %ly, 3
  %first.i = insertelement <8 x i64> poison, i64 %first, i64 0
  %first.s = shufflevector <8 x i64> %first.i, <8 x i64> poison, <8 x i32> zeroinitializer
  %tid = or disjoint <8 x i64> %first.s, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %col = and <8 x i64> %tid, <i64 3, i64 3, i64 3, i64 3, i64 3, i64 3, i64 3, i64 3>
  %p = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %col
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q = getelementptr inbounds float, ptr addrspace(3) %loc, i64 %first
  store <8 x float> %v, ptr addrspace(3) %q, align 4
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 16
  br i1 %done, label %exit, label %body

exit:
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32 immarg, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p3(<8 x float>, <8 x ptr addrspace(3)>, i32 immarg, <8 x i1>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }
