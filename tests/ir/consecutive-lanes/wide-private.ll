; What VPlan's native path makes of a work-item loop over 16 lanes whose
; body fills a private array kept per lane (workgroup/wide_private.c) and
; reads in[g]: every access is a gather or a scatter. The index of in[g] is
; splat(base) + the widened induction (start <0, ..., 15>, step 16): 16
; consecutive floats, one vector load. The array's lane offset is
; (x << 2) & 60 with x the same induction: the step's 6 zero bits cover the
; mask, so it is the constant <0, 4, ..., 60>; or'ed (disjoint) with the
; element's uniform offset e << 6, the scatter is one vector store at
; lane 0's address. The gather at a per-lane index (idx << 6 | lane) stays.
; RUN: -passes=consecutive-lanes

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: vector.body:
; CHECK: %[[I0:.*]] = extractelement <16 x i64> %gi, i64 0
; CHECK: %[[P:.*]] = getelementptr inbounds float, ptr addrspace(1) %in, i64 %[[I0]]
; CHECK: %[[X:.*]] = load <16 x float>, ptr addrspace(1) %[[P]], align 4, !tbaa
; CHECK: fill:
; CHECK: %[[V:.*]] = fadd <16 x float> %[[X]],
; CHECK: %[[O:.*]] = shl nuw nsw i64 %e, 6
; CHECK: %[[Q:.*]] = getelementptr i8, ptr %wide, i64 %[[O]]
; CHECK: store <16 x float> %[[V]], ptr %[[Q]], align 4, !tbaa
; CHECK: rounds:
; CHECK: %r = call <16 x float> @llvm.masked.gather.v16f32.v16p0(<16 x ptr> %pr,
; CHECK: %[[PO:.*]] = getelementptr inbounds float, ptr addrspace(1) %out, i64 %[[I0]]
; CHECK: store <16 x float> %r, ptr addrspace(1) %[[PO]], align 4
; CHECK-NOT: @llvm.masked.scatter.v16f32.v16p1(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %base, i64 %n) #0 {
entry:
  %wide = alloca [8192 x i8], align 64
  %b.i = insertelement <16 x i64> poison, i64 %base, i64 0
  %b.s = shufflevector <16 x i64> %b.i, <16 x i64> poison, <16 x i32> zeroinitializer
  br label %vector.body

vector.body:
  %index = phi i64 [ 0, %entry ], [ %index.next, %latch ]
  %vec.ind = phi <16 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>, %entry ], [ %vec.ind.next, %latch ]
  %gi = add <16 x i64> %b.s, %vec.ind
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, <16 x i64> %gi
  %x = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %pin, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison), !tbaa !0
  %sh = shl <16 x i64> %vec.ind, <i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2>
  %lane = and <16 x i64> %sh, <i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60, i64 60>
  br label %fill

fill:
  %e = phi i64 [ 0, %vector.body ], [ %e.next, %fill ]
  %e.i = insertelement <16 x i64> poison, i64 %e, i64 0
  %e.s = shufflevector <16 x i64> %e.i, <16 x i64> poison, <16 x i32> zeroinitializer
  %ef = sitofp i64 %e to float
  %ef.i = insertelement <16 x float> poison, float %ef, i64 0
  %ef.s = shufflevector <16 x float> %ef.i, <16 x float> poison, <16 x i32> zeroinitializer
  %v = fadd <16 x float> %x, %ef.s
  %eo = shl nuw nsw <16 x i64> %e.s, <i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6>
  %off = or disjoint <16 x i64> %lane, %eo
  %pw = getelementptr i8, ptr %wide, <16 x i64> %off
  call void @llvm.masked.scatter.v16f32.v16p0(<16 x float> %v, <16 x ptr> %pw, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %e.next = add i64 %e, 1
  %e.done = icmp eq i64 %e.next, 128
  br i1 %e.done, label %rounds, label %fill

rounds:
  %idx = fptoui <16 x float> %x to <16 x i64>
  %idxm = and <16 x i64> %idx, <i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127, i64 127>
  %io = shl <16 x i64> %idxm, <i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6, i64 6>
  %ro = or disjoint <16 x i64> %io, %lane
  %pr = getelementptr i8, ptr %wide, <16 x i64> %ro
  %r = call <16 x float> @llvm.masked.gather.v16f32.v16p0(<16 x ptr> %pr, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %po = getelementptr inbounds float, ptr addrspace(1) %out, <16 x i64> %gi
  call void @llvm.masked.scatter.v16f32.v16p1(<16 x float> %r, <16 x ptr addrspace(1)> %po, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  br label %latch

latch:
  %index.next = add i64 %index, 16
  %vec.ind.next = add <16 x i64> %vec.ind, <i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16>
  %done = icmp eq i64 %index.next, %n
  br i1 %done, label %exit, label %vector.body

exit:
  ret void
}

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
declare <16 x float> @llvm.masked.gather.v16f32.v16p0(<16 x ptr>, i32, <16 x i1>, <16 x float>)
declare void @llvm.masked.scatter.v16f32.v16p0(<16 x float>, <16 x ptr>, i32, <16 x i1>)
declare void @llvm.masked.scatter.v16f32.v16p1(<16 x float>, <16 x ptr addrspace(1)>, i32, <16 x i1>)

attributes #0 = { "loom-outer-loops"="1" "prefer-vector-width"="512" }

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
