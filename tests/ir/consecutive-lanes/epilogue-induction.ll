; An epilogue loop's widened induction (the loop vectoriser's main loop at
; 16 lanes and its epilogue at 8, as it does for a work-item loop whose
; trip count, the local size, is unknown: a generic kernel run on 8-wide
; groups runs only the epilogue). Its phi starts where the main loop
; stopped, splat(resume) + <0, ..., 7>, not at a constant: that start is
; itself u + c, so the phi's lanes are consecutive (vectorize/
; consecutive_lanes.c) and the gather of `a[i]` becomes one vector load.
; Before, only constant starts were read, and CLBlast's generic
; XgemmDirectTN kept every gather of its epilogue (19 -> 26 GFLOP/s for
; SGEMM 512 on AMD Zen 5, 2 cores, before its specialisation is ready).
;  - @phi_start: the start is another phi: not read (stays a gather).
; RUN: -passes=consecutive-lanes

; CHECK-LABEL: define void @epilogue(
; CHECK: %[[P:lane0.*]] = getelementptr inbounds float, ptr addrspace(1) %a, i64 %{{.*}}
; CHECK-NEXT: load <8 x float>, ptr addrspace(1) %[[P]], align 4
; CHECK-NOT: masked.gather
; CHECK: ret void

; CHECK-LABEL: define void @phi_start(
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p1(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @epilogue(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %resume, i64 %n) #0 {
entry:
  %r.i = insertelement <8 x i64> poison, i64 %resume, i64 0
  %r.s = shufflevector <8 x i64> %r.i, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add <8 x i64> %r.s, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  br label %body

body:
  %index = phi i64 [ %resume, %entry ], [ %index.next, %body ]
  %vec.ind = phi <8 x i64> [ %induction, %entry ], [ %vec.ind.next, %body ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %vec.ind
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %index
  store <8 x float> %v, ptr addrspace(1) %q, align 4
  %vec.ind.next = add <8 x i64> %vec.ind, <i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %index.next = add i64 %index, 8
  %done = icmp uge i64 %index.next, %n
  br i1 %done, label %exit, label %body

exit:
  ret void
}

define void @phi_start(ptr addrspace(1) %a, ptr addrspace(1) %out, <8 x i64> %s0, i64 %n, i1 %c) #0 {
entry:
  br i1 %c, label %other, label %pre

other:
  br label %pre

pre:
  %start = phi <8 x i64> [ %s0, %entry ], [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %other ]
  br label %body

body:
  %index = phi i64 [ 0, %pre ], [ %index.next, %body ]
  %vec.ind = phi <8 x i64> [ %start, %pre ], [ %vec.ind.next, %body ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, <8 x i64> %vec.ind
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %index
  store <8 x float> %v, ptr addrspace(1) %q, align 4
  %vec.ind.next = add <8 x i64> %vec.ind, <i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %index.next = add i64 %index, 8
  %done = icmp uge i64 %index.next, %n
  br i1 %done, label %exit, label %body

exit:
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32 immarg, <8 x i1>, <8 x float>)

attributes #0 = { "loom-outer-loops"="1" "prefer-vector-width"="512" }
