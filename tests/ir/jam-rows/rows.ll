; The y work-item loop of an outer-vectorised region around one vector of
; work-items (an 8-wide group on AVX-512), marked by its "loom.rows" loop ID:
; the inner loop reads a row-invariant vector (%a, %a2: the same for every
; row) and a row-varying scalar (%b). jam-rows runs 4 rows at once: the
; header loads the four rows' accumulators, the inner loop carries four of
; them and computes %a and %a2 once, the tail stores four, and y steps by 4
; (vectorize/jam_rows.c).
;  - @odd: 3 rows, which neither 2 nor 4 divides: nothing changes;
;  - @private: the inner loop reads a private array (one object for every
;    row): nothing changes;
;  - @unmarked: no loom.rows loop ID: nothing changes;
;  - @flat: the y loop is innermost (its inner loop fully unrolled): 8 rows
;    at once (no row-varying values are carried around an inner loop), the
;    block's row-varying instructions are copied, each copy right after its
;    original, the invariant load and products once; its 8 rows are all of
;    them, so the loop runs once: no loop is left, y is 0 and the rows'
;    addresses constant offsets;
;  - @flat_long: the same with 16 rows: 8 at once, y steps by 8;
;  - @once: 4 rows around an inner loop, all of them at once: the y loop
;    runs once and its latch leaves;
;  - @flat_wide: the same shape with four accumulators of a whole register
;    a row (<8 x double>): 8 rows would take 32 registers, 4 rows at once.
; Each copy follows its original, so a value the rows share is used by all of
; them close together.
; RUN: -passes=jam-rows

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: head:
; CHECK-NEXT: %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
; CHECK-COUNT-4: load <8 x float>, ptr %{{.*}}, align 4
; CHECK: body:
; CHECK-COUNT-4: phi <8 x float>
; CHECK-NOT: phi
; CHECK: %a = load <8 x float>, ptr %a.p, align 4
; CHECK-NOT: load <8 x float>
; CHECK-COUNT-4: call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2,
; CHECK-NOT: fmuladd
; CHECK: tail:
; CHECK-NEXT: store <8 x float> %acc.next, ptr %slot, align 4
; CHECK-COUNT-3: store <8 x float>
; CHECK-NEXT: %y.next = add nuw nsw i64 %y, 4
; CHECK-NEXT: %y.done = icmp eq i64 %y.next, 16

; CHECK-LABEL: define void @odd.loom_wg(
; CHECK-COUNT-1: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: fmuladd
; CHECK: %y.next = add nuw nsw i64 %y, 1

; CHECK-LABEL: define void @private.loom_wg(
; CHECK-COUNT-1: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: fmuladd
; CHECK: %y.next = add nuw nsw i64 %y, 1

; CHECK-LABEL: define void @unmarked.loom_wg(
; CHECK-COUNT-1: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: fmuladd
; CHECK: %y.next = add nuw nsw i64 %y, 1

; CHECK-LABEL: define void @flat.loom_wg(
; CHECK: %a = load <8 x float>, ptr %local, align 4
; CHECK-NEXT: %a2 = fmul <8 x float> %a, %a
; CHECK-NEXT: %a3 = fmul <8 x float> %a2, %a
; CHECK-NOT: load <8 x float>
; CHECK-NOT: phi
; CHECK: %b = load float, ptr %args, align 4
; CHECK-COUNT-7: load float
; CHECK: %r = fmul <8 x float> %a3, %b.v
; CHECK-COUNT-7: fmul <8 x float> %a3,
; CHECK: store <8 x float> %r, ptr %scratch, align 4
; CHECK-COUNT-7: store <8 x float>
; CHECK-NEXT: br label %exit

; CHECK-LABEL: define void @flat_long.loom_wg(
; CHECK: %b = load float, ptr %b.p, align 4
; CHECK-COUNT-7: load float
; CHECK: store <8 x float> %r, ptr %slot, align 4
; CHECK-COUNT-7: store <8 x float>
; CHECK-NEXT: %y.next = add nuw nsw i64 %y, 8
; CHECK-NEXT: %y.done = icmp eq i64 %y.next, 16

; CHECK-LABEL: define void @once.loom_wg(
; CHECK: head:
; CHECK-NOT: phi i64
; CHECK: %acc.in = load <8 x float>, ptr %scratch, align 4
; CHECK-COUNT-4: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: fmuladd
; CHECK: tail:
; CHECK-NOT: %y.next
; CHECK: br label %exit

; CHECK-LABEL: define void @flat_wide.loom_wg(
; CHECK-COUNT-16: call <8 x double> @llvm.fmuladd.v8f64(
; CHECK-NOT: fmuladd
; CHECK: %y.next = add nuw nsw i64 %y, 4

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a = load <8 x float>, ptr %a.p, align 4
  %a2 = fmul <8 x float> %a, %a
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !0

exit:
  ret void
}

define void @odd.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a = load <8 x float>, ptr %a.p, align 4
  %a2 = fmul <8 x float> %a, %a
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 3
  br i1 %y.done, label %exit, label %head, !llvm.loop !2

exit:
  ret void
}

define void @private.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  %priv = alloca [64 x <8 x float>], align 64
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %priv, i64 %k
  %a = load <8 x float>, ptr %a.p, align 4
  %a2 = fmul <8 x float> %a, %a
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !3

exit:
  ret void
}

define void @unmarked.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a = load <8 x float>, ptr %a.p, align 4
  %a2 = fmul <8 x float> %a, %a
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head

exit:
  ret void
}

define void @flat.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %row

row:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row ]
  %a = load <8 x float>, ptr %local, align 4
  %a2 = fmul <8 x float> %a, %a
  %a3 = fmul <8 x float> %a2, %a
  %b.p = getelementptr float, ptr %args, i64 %y
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %r = fmul <8 x float> %a3, %b.v
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  store <8 x float> %r, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 8
  br i1 %y.done, label %exit, label %row, !llvm.loop !4

exit:
  ret void
}

define void @flat_long.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %row

row:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row ]
  %a = load <8 x float>, ptr %local, align 4
  %a2 = fmul <8 x float> %a, %a
  %a3 = fmul <8 x float> %a2, %a
  %b.p = getelementptr float, ptr %args, i64 %y
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %r = fmul <8 x float> %a3, %b.v
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  store <8 x float> %r, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %row, !llvm.loop !5

exit:
  ret void
}

define void @once.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a = load <8 x float>, ptr %a.p, align 4
  %a2 = fmul <8 x float> %a, %a
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 4
  br i1 %y.done, label %exit, label %head, !llvm.loop !6

exit:
  ret void
}

define void @flat_wide.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %row

row:
  %y = phi i64 [ 0, %entry ], [ %y.next, %row ]
  %a = load <8 x double>, ptr %local, align 8
  %a2 = fmul <8 x double> %a, %a
  %a3 = fmul <8 x double> %a2, %a
  %a4 = fmul <8 x double> %a3, %a
  %a5 = fmul <8 x double> %a4, %a
  %a6 = fmul <8 x double> %a5, %a
  %a7 = fmul <8 x double> %a6, %a
  %a8 = fmul <8 x double> %a7, %a
  %a9 = fmul <8 x double> %a8, %a
  %b.p = getelementptr double, ptr %args, i64 %y
  %b = load double, ptr %b.p, align 8
  %b.s = insertelement <8 x double> poison, double %b, i64 0
  %b.v = shufflevector <8 x double> %b.s, <8 x double> poison, <8 x i32> zeroinitializer
  %slot.off = shl i64 %y, 8
  %s0 = getelementptr i8, ptr %scratch, i64 %slot.off
  %s1 = getelementptr i8, ptr %s0, i64 64
  %s2 = getelementptr i8, ptr %s0, i64 128
  %s3 = getelementptr i8, ptr %s0, i64 192
  %c0 = load <8 x double>, ptr %s0, align 8
  %c1 = load <8 x double>, ptr %s1, align 8
  %c2 = load <8 x double>, ptr %s2, align 8
  %c3 = load <8 x double>, ptr %s3, align 8
  %r0 = call <8 x double> @llvm.fmuladd.v8f64(<8 x double> %a6, <8 x double> %b.v, <8 x double> %c0)
  %r1 = call <8 x double> @llvm.fmuladd.v8f64(<8 x double> %a7, <8 x double> %b.v, <8 x double> %c1)
  %r2 = call <8 x double> @llvm.fmuladd.v8f64(<8 x double> %a8, <8 x double> %b.v, <8 x double> %c2)
  %r3 = call <8 x double> @llvm.fmuladd.v8f64(<8 x double> %a9, <8 x double> %b.v, <8 x double> %c3)
  store <8 x double> %r0, ptr %s0, align 8
  store <8 x double> %r1, ptr %s1, align 8
  store <8 x double> %r2, ptr %s2, align 8
  store <8 x double> %r3, ptr %s3, align 8
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 8
  br i1 %y.done, label %exit, label %row, !llvm.loop !4

exit:
  ret void
}

declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }

!0 = distinct !{!0, !1}
!1 = !{!"loom.rows"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}

declare <8 x double> @llvm.fmuladd.v8f64(<8 x double>, <8 x double>, <8 x double>)
