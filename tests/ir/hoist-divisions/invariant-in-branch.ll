; LLVM 19's loop vectoriser computes a division that is loop-invariant but
; sits in a conditional block for lane 0 only, and every lane then reads
; through lane 0's (poison) address: loom-fuzz seeds 1000126, 1001392,
; 1001512 faulted (tests/fuzz/bugs/). Such a division, with the pure chain
; computing its operands, moves before the loop, its divisor frozen and
; guarded again. A division of a value that changes in the loop, or of one
; loaded in the loop, stays where it is.
; RUN: -passes=hoist-divisions

; CHECK-LABEL: define void @f(
; CHECK: entry:
; the operand chain, then the division, before the loop's branch
; CHECK: %lsz = mul i32 %x, %y
; CHECK-NEXT: %d = call i32 @llvm.umax.i32(i32 %lsz, i32 1)
; CHECK-NEXT: %[[FZ:.*]] = freeze i32 %d
; CHECK-NEXT: %[[Z:.*]] = icmp eq i32 %[[FZ]], 0
; CHECK-NEXT: %[[SAFE:.*]] = select i1 %[[Z]], i32 1, i32 %[[FZ]]
; CHECK-NEXT: %r = urem i32 1014674329, %[[SAFE]]
; signed: INT_MIN / -1 checked on the frozen dividend
; CHECK: %[[FN:.*]] = freeze i32 %n
; CHECK: %[[FD:.*]] = freeze i32 %x
; CHECK: icmp eq i32 %[[FN]], -2147483648
; CHECK: %q = sdiv i32 %[[FN]], %{{.*}}
; CHECK-NEXT: br label %loop
; CHECK: then:
; CHECK-NOT: urem i32 1014674329
; CHECK: %ri = zext i32 %r to i64
; varying and loaded divisors stay in the loop
; CHECK: %vr = urem i32 %av, %d
; CHECK: %lr = udiv i32 %n, %ld

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr noalias %a, ptr noalias %la, ptr noalias %out, ptr noalias %cnt, i64 %count, i32 %x, i32 %y, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %pa = getelementptr i32, ptr %a, i64 %i
  %av = load i32, ptr %pa, align 4
  %c = and i32 %av, 1
  %t = icmp ne i32 %c, 0
  br i1 %t, label %then, label %latch

then:
  %lsz = mul i32 %x, %y
  %d = call i32 @llvm.umax.i32(i32 %lsz, i32 1)
  %r = urem i32 1014674329, %d
  %q = sdiv i32 %n, %x
  %ri = zext i32 %r to i64
  %pl = getelementptr i64, ptr %la, i64 %ri
  %lv = load i64, ptr %pl, align 8
  %lt = trunc i64 %lv to i32
  %vr = urem i32 %av, %d
  %ld = load i32, ptr %cnt, align 4
  %lr = udiv i32 %n, %ld
  %s1 = add i32 %lt, %vr
  %s2 = add i32 %s1, %lr
  %s3 = add i32 %s2, %q
  br label %latch

latch:
  %v = phi i32 [ %s3, %then ], [ 0, %loop ]
  %po = getelementptr i32, ptr %out, i64 %i
  store i32 %v, ptr %po, align 4
  %i1 = add i64 %i, 1
  %e = icmp eq i64 %i1, %count
  br i1 %e, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.umax.i32(i32, i32)
