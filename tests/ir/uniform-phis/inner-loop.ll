; VPlan's outer-loop path widens everything inside the outer (work-item)
; loop, also the inner loop's induction variable, the same in every lane:
; a <4 x i64> phi stepping by splat(1), whose users address memory through
; 4 equal pointers (a gather). In a program with outer work-item loops
; (the "loom-outer-loops" attribute wg-function sets, read back from the
; IR) the phi becomes a scalar i64 phi, and the gather whose addresses are
; then provably equal becomes one scalar load and a broadcast; the
; accumulator, different per lane, stays a vector.
; RUN: -passes=uniform-phis

; CHECK-LABEL: define void @sum.loom_wg(
; CHECK: inner:
; CHECK-NEXT: %[[K:.*]] = phi i64 [ 0, %outer ], [ %[[KN:.*]], %inner ]
; CHECK-NEXT: %acc = phi <4 x float>
; CHECK-NEXT: %[[P:.*]] = getelementptr inbounds float, ptr addrspace(1) %a, i64 %[[K]]
; CHECK-NEXT: %[[L:.*]] = load float, ptr addrspace(1) %[[P]], align 4
; CHECK-NEXT: %[[I:.*]] = insertelement <4 x float> poison, float %[[L]], i64 0
; CHECK-NEXT: %[[S:.*]] = shufflevector <4 x float> %[[I]], <4 x float> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: %acc.next = fadd <4 x float> %acc, %[[S]]
; CHECK-NEXT: %[[KN]] = add i64 %[[K]], 1
; CHECK-NEXT: icmp ult i64 %[[KN]], %n
; CHECK-NOT: masked.gather(
; CHECK-NOT: phi <4 x i64>
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @sum.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.out = getelementptr i8, ptr %0, i64 8
  %out = load ptr addrspace(1), ptr %p.out, align 8
  %p.n = getelementptr i8, ptr %0, i64 16
  %n = load i64, ptr %p.n, align 8
  br label %outer

outer:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %outer.latch ]
  %lanes = phi <4 x i64> [ <i64 0, i64 1, i64 2, i64 3>, %entry ], [ %lanes.next, %outer.latch ]
  br label %inner

inner:
  %k = phi <4 x i64> [ zeroinitializer, %outer ], [ %k.next, %inner ]
  %acc = phi <4 x float> [ zeroinitializer, %outer ], [ %acc.next, %inner ]
  %ptrs = getelementptr inbounds float, ptr addrspace(1) %a, <4 x i64> %k
  %v = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %ptrs, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %acc.next = fadd <4 x float> %acc, %v
  %k.next = add <4 x i64> %k, <i64 1, i64 1, i64 1, i64 1>
  %k0 = extractelement <4 x i64> %k.next, i64 0
  %again = icmp ult i64 %k0, %n
  br i1 %again, label %inner, label %outer.latch

outer.latch:
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %lx
  store <4 x float> %acc.next, ptr addrspace(1) %dst, align 4
  %lx.next = add i64 %lx, 4
  %lanes.next = add <4 x i64> %lanes, <i64 4, i64 4, i64 4, i64 4>
  %more = icmp ult i64 %lx.next, 64
  br i1 %more, label %outer, label %done

done:
  ret void
}

declare <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)>, i32, <4 x i1>, <4 x float>)

attributes #0 = { "loom-outer-loops"="1" "prefer-vector-width"="128" }
