; Tests decided when they were built: a specialised kernel's constant
; indices fold gather-rows' test to true (XgemmDirectTN's k loop: `br i1
; true, label %rows.whole, label %rows.apart`), and a loop's test whose
; every leaf folds before the loop (local rows at 34 y and 34 y + 17, y < 8:
; far from wrapping, 68 bytes apart). Each loses its slow path; nothing is
; copied. A false constant keeps the slow side.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @constant(
; CHECK: br label %whole
; CHECK-NOT: apart:
; CHECK: ret void

; CHECK-LABEL: define void @constant_false(
; CHECK: br label %apart
; CHECK-NOT: whole:
; CHECK: ret void

; CHECK-LABEL: define void @folds(
; CHECK: entry:
; CHECK-NEXT: br label %y
; CHECK: y:
; CHECK-NOT: icmp sle
; CHECK: br label %fast
; CHECK-NOT: slow:
; CHECK-NOT: .tested
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @constant(ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  br i1 true, label %whole, label %apart, !loom.test !0

whole:
  %a = load <8 x float>, ptr addrspace(3) %t, align 4
  br label %join

apart:
  %b = load <8 x float>, ptr addrspace(3) %t, align 16
  br label %join

join:
  %v = phi <8 x float> [ %a, %whole ], [ %b, %apart ]
  store <8 x float> %v, ptr addrspace(1) %out, align 4
  ret void
}

define void @constant_false(ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  br i1 false, label %whole, label %apart, !loom.test !0

whole:
  %a = load <8 x float>, ptr addrspace(3) %t, align 4
  br label %join

apart:
  %b = load <8 x float>, ptr addrspace(3) %t, align 16
  br label %join

join:
  %v = phi <8 x float> [ %a, %whole ], [ %b, %apart ]
  store <8 x float> %v, ptr addrspace(1) %out, align 4
  ret void
}

define void @folds(ptr addrspace(3) %l, <16 x float> %v) {
entry:
  br label %y

y:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %latch ]
  %ly32 = trunc i64 %ly to i32
  %lidx = mul nsw i32 %ly32, 34
  %row2 = shl nsw i32 %ly32, 1
  %lrow1 = or disjoint i32 %row2, 1
  %lidx1 = mul nsw i32 %lrow1, 17
  %whole.l = icmp sle i32 %lidx, 2147483632
  %ls = sext i32 %lidx to i64
  %lp = getelementptr float, ptr addrspace(3) %l, i64 %ls
  %ls1 = sext i32 %lidx1 to i64
  %lp1 = getelementptr float, ptr addrspace(3) %l, i64 %ls1
  %x = ptrtoint ptr addrspace(3) %lp1 to i64
  %z = ptrtoint ptr addrspace(3) %lp to i64
  %d = sub i64 %x, %z
  %d63 = add i64 %d, 63
  %apart = icmp uge i64 %d63, 127
  %t = and i1 %whole.l, %apart
  br i1 %t, label %fast, label %slow, !loom.test !0

fast:
  store <16 x float> %v, ptr addrspace(3) %lp, align 4
  store <16 x float> %v, ptr addrspace(3) %lp1, align 4
  br label %latch

slow:
  store <16 x float> %v, ptr addrspace(3) %lp1, align 4
  store <16 x float> %v, ptr addrspace(3) %lp, align 4
  br label %latch

latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %done = icmp eq i64 %ly.next, 8
  br i1 %done, label %exit, label %y

exit:
  ret void
}

!0 = !{}
