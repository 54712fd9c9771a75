; LLVM's loop vectoriser guards its vector code by a test that the 32-bit
; index of each lane does not wrap, falling back to the scalar loop it
; marks llvm.loop.isvectorized. Inside a work-item y loop the test (lanes of
; 2 y ld + c, as bits, none above the bound) runs on every row. Marked like
; our tests (its fast side the one away from the scalar loop), it is taken
; out of the y loop lane by lane: the loop then runs without it and without
; the scalar loop; the `.tested` copy keeps both.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @rows(
; CHECK: entry:
; CHECK: sext <4 x i32> %{{.*}} to <4 x i64>
; CHECK: icmp sle <4 x i64>
; CHECK: bitcast <4 x i1> %{{.*}} to i4
; CHECK: br i1 %{{.*}}, label %y, label %y.tested
; CHECK: y:
; CHECK-NOT: icmp sgt <4 x i32>
; CHECK: br label %vec
; CHECK-NOT: scalar:
; CHECK: y.tested:
; CHECK: icmp sgt <4 x i32>
; CHECK: scalar.tested:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @rows(ptr addrspace(1) %g, i32 %ld, <4 x i32> %c) {
entry:
  %ldv0 = insertelement <2 x i64> poison, i64 2, i64 0
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %s0 = insertelement <2 x i64> poison, i64 %ly, i64 0
  %s = shufflevector <2 x i64> %s0, <2 x i64> poison, <2 x i32> zeroinitializer
  %m = mul <2 x i64> %s, <i64 2, i64 2>
  %w = shufflevector <2 x i64> %m, <2 x i64> poison, <4 x i32> <i32 0, i32 0, i32 1, i32 1>
  %t = trunc <4 x i64> %w to <4 x i32>
  %idx = add <4 x i32> %c, %t
  %over = icmp sgt <4 x i32> %idx, <i32 2147483633, i32 2147483633, i32 2147483633, i32 2147483633>
  %bits = bitcast <4 x i1> %over to i4
  %none = icmp eq i4 %bits, 0
  br i1 %none, label %vec, label %scalar

vec:
  %i0 = extractelement <4 x i32> %idx, i64 0
  %e = sext i32 %i0 to i64
  %p = getelementptr float, ptr addrspace(1) %g, i64 %e
  store <4 x float> zeroinitializer, ptr addrspace(1) %p, align 4
  br label %latch

scalar:
  %lx = phi i64 [ 0, %y ], [ %lx.next, %scalar ]
  %q = getelementptr float, ptr addrspace(1) %g, i64 %lx
  store float 0.0, ptr addrspace(1) %q, align 4
  %lx.next = add nuw nsw i64 %lx, 1
  %xdone = icmp eq i64 %lx.next, 4
  br i1 %xdone, label %latch, label %scalar, !llvm.loop !0

latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.isvectorized", i32 1}
