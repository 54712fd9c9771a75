; Tests in nested loops: the inner loop's are looked at first (a copy of the
; outer loop would copy them too). Here the inner loop's test reads a load
; and stays; the outer loop's test (affine in y) must still be taken out of
; the outer loop afterwards: the first version unmarked the outer test when
; the inner one failed, and the outer loop kept testing every row.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @nested(
; CHECK: entry:
; CHECK: icmp sle i64
; CHECK: br i1 %{{.*}}, label %y, label %y.tested
; CHECK: y:
; CHECK-NOT: %t = icmp
; CHECK: br label %fast
; CHECK: x:
; CHECK: br i1 %u, label %xfast, label %xslow{{$}}
; CHECK: y.tested:
; CHECK: br i1 %t{{[0-9]+}}, label %fast.tested, label %slow.tested

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @nested(ptr addrspace(1) %g, ptr addrspace(1) %o, i32 %off) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %ylatch ]
  %ly32 = trunc i64 %ly to i32
  %i = add i32 %ly32, %off
  %t = icmp sle i32 %i, 2147483632
  br i1 %t, label %fast, label %slow, !loom.test !0

fast:
  store i32 1, ptr addrspace(1) %o, align 4
  br label %xpre

slow:
  store i32 2, ptr addrspace(1) %o, align 4
  br label %xpre

xpre:
  br label %x

x:
  %lx = phi i64 [ 0, %xpre ], [ %lx.next, %xlatch ]
  %p = getelementptr i32, ptr addrspace(1) %g, i64 %lx
  %v = load i32, ptr addrspace(1) %p, align 4
  %u = icmp sle i32 %v, 7
  br i1 %u, label %xfast, label %xslow, !loom.test !0

xfast:
  store i32 3, ptr addrspace(1) %o, align 4
  br label %xlatch

xslow:
  store i32 4, ptr addrspace(1) %o, align 4
  br label %xlatch

xlatch:
  %lx.next = add nuw nsw i64 %lx, 1
  %xdone = icmp eq i64 %lx.next, 4
  br i1 %xdone, label %ylatch, label %x

ylatch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  ret void
}

!0 = !{}
