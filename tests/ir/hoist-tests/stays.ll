; NEGATIVE: tests that stay in their loop, unmarked, nothing copied:
;  - @loaded: the test compares a value loaded in the loop;
;  - @used_after: a value of the loop is used after it (not through a phi
;    of its exit), which a copy could not reach;
;  - @uncounted: the loop's exit test is not its counter against a bound.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @loaded(
; CHECK: br i1 %t, label %fast, label %slow{{$}}
; CHECK-NOT: .tested
; CHECK-LABEL: define i32 @used_after(
; CHECK: br i1 %t, label %fast, label %slow{{$}}
; CHECK-NOT: .tested
; CHECK-LABEL: define void @uncounted(
; CHECK: br i1 %t, label %fast, label %slow{{$}}
; CHECK-NOT: .tested
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @loaded(ptr addrspace(1) %g, ptr addrspace(1) %o) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %p = getelementptr i32, ptr addrspace(1) %g, i64 %ly
  %v = load i32, ptr addrspace(1) %p, align 4
  %t = icmp sle i32 %v, 2147483632
  br i1 %t, label %fast, label %slow, !loom.test !0

fast:
  store i32 1, ptr addrspace(1) %o, align 4
  br label %latch

slow:
  store i32 2, ptr addrspace(1) %o, align 4
  br label %latch

latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  ret void
}

define i32 @used_after(ptr addrspace(1) %o, i32 %off) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %ly32 = trunc i64 %ly to i32
  %i = add i32 %ly32, %off
  %t = icmp sle i32 %i, 2147483632
  br i1 %t, label %fast, label %slow, !loom.test !0

fast:
  store i32 1, ptr addrspace(1) %o, align 4
  br label %latch

slow:
  store i32 2, ptr addrspace(1) %o, align 4
  br label %latch

latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  br label %after

after:
  ret i32 %i
}

define void @uncounted(ptr addrspace(1) %o, i32 %off, i64 %n) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %ly32 = trunc i64 %ly to i32
  %i = add i32 %ly32, %off
  %t = icmp sle i32 %i, 2147483632
  br i1 %t, label %fast, label %slow, !loom.test !0

fast:
  store i32 1, ptr addrspace(1) %o, align 4
  br label %latch

slow:
  store i32 2, ptr addrspace(1) %o, align 4
  br label %latch

latch:
  %ly.next = mul nuw nsw i64 %ly, 3
  %done = icmp ugt i64 %ly.next, %n
  br i1 %done, label %exit, label %y

exit:
  ret void
}

!0 = !{}
