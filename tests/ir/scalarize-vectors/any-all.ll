; any() and all() of a vector comparison reach the pass as
; `icmp ne/eq (bitcast <N x i1> to iN), 0 or -1` (InstCombine's form of
; __builtin_reduce_or/and); the scalarizer leaves that bitcast whole, a
; vector instruction the loop vectoriser refuses, which kept image loops
; (the image builtins' bounds tests) scalar. It becomes an or (any) or an
; and (all) of the lanes: no <2 x i1> or i2 is left (InstCombine then tests
; the sign bit of an or / and of the two ints).
; RUN: -passes=scalarize-vectors

; CHECK-LABEL: define void @k.loom_wg(
; CHECK-NOT: <2 x i1>
; CHECK-NOT: bitcast
; CHECK-NOT: i2
; CHECK: or i32 %v.i0, %v.i1
; CHECK: and i32 %v.i0, %v.i1
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %out = load ptr addrspace(1), ptr %0, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr <2 x i32>, ptr addrspace(1) %out, i64 %i
  %v = load <2 x i32>, ptr addrspace(1) %p, align 8
  %neg = icmp slt <2 x i32> %v, zeroinitializer
  %bits = bitcast <2 x i1> %neg to i2
  %any = icmp ne i2 %bits, 0
  %all = icmp eq i2 %bits, -1
  %notall = icmp ne i2 %bits, -1
  %a = zext i1 %any to i32
  %b = zext i1 %all to i32
  %c = zext i1 %notall to i32
  %ab = add i32 %a, %b
  %abc = add i32 %ab, %c
  %q = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %abc, ptr addrspace(1) %q, align 4
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 64
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

attributes #0 = { "prefer-vector-width"="512" }
