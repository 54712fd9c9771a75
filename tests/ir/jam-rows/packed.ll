; Two rows of work-items in one register: an 8-wide group's row of floats is
; half an AVX-512 register, so the inner loop's FMAs run at half width
; however many rows are copied. jam-rows (vectorize/jam_rows.c, the rewrite
; in jam_build.c) runs 4 rows with each pair packed into <16 x float>, row
; 2p in the low half and 2p+1 in the high one (Xgemm's k loop: 4 columns
; of A shared by every row, one element of B per row; CLBlast SGEMM 2048 on
; AMD Zen 5, 2 cores: 90 -> 128 GFLOP/s with this and the copies' affine
; lanes):
;  - @k: the header joins each pair's accumulators (a zero start needs no
;    join), the inner loop carries 4 x 2 packed phis, duplicates each column
;    of A once into both halves, broadcasts B per row and joins the two
;    rows; no <8 x float> FMA is left; the tail splits each packed value
;    into its rows (an LCSSA phi of the tail goes first) before the stores;
;  - @split: the inner loop also sums one packed value's lane 0 per row (a
;    scalar phi, copied per row): its rows are split right after it;
;  - @avx2: 8 floats fill a 256-bit register: rows are copied, not packed
;    (2 rows: 4 accumulators each within the 12 registers kept for them).
; RUN: -passes=jam-rows

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: head:
; CHECK-COUNT-4: shufflevector <8 x float> %{{.*}}, <8 x float> %{{.*}}, <16 x i32> <i32 0, i32 1,
; CHECK: body:
; CHECK-COUNT-8: phi <16 x float>
; CHECK-NOT: phi
; CHECK: %a0 = load <8 x float>
; CHECK-NEXT: %rows.dup = shufflevector <8 x float> %a0, <8 x float> %a0, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 0, i32 1,
; CHECK: %b = load float
; CHECK-COUNT-3: load float
; CHECK: %[[B0:.*]] = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: %[[B1:.*]] = shufflevector <8 x float> %{{.*}}, <8 x float> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: %[[J:.*]] = shufflevector <8 x float> %[[B0]], <8 x float> %[[B1]], <16 x i32>
; CHECK: call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %rows.dup, <16 x float> %[[J]], <16 x float> %rows.phi
; CHECK-COUNT-7: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: fmuladd.v8f32
; CHECK: tail:
; CHECK-NOT: phi
; CHECK: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <8 x i32> <i32 0, i32 1,
; CHECK: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <8 x i32> <i32 8, i32 9,
; CHECK-COUNT-16: store <8 x float>
; CHECK-NEXT: %y.next = add nuw nsw i64 %y, 4

; CHECK-LABEL: define void @split.loom_wg(
; CHECK: %[[W:.*]] = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %rows.dup
; CHECK-DAG: %[[HI:.*]] = shufflevector <16 x float> %[[W]], <16 x float> poison, <8 x i32> <i32 8,
; CHECK-DAG: %[[LO:.*]] = shufflevector <16 x float> %[[W]], <16 x float> poison, <8 x i32> <i32 0,
; CHECK: %e = extractelement <8 x float> %[[LO]], i64 0
; CHECK-NEXT: extractelement <8 x float> %[[HI]], i64 0
; CHECK: store float %t.next, ptr %ctx, align 4
; CHECK-COUNT-3: store float
; CHECK: %y.next = add nuw nsw i64 %y, 4

; CHECK-LABEL: define void @avx2.loom_wg(
; CHECK: body:
; CHECK-COUNT-8: phi <8 x float>
; CHECK-NOT: <16 x float>
; CHECK: %y.next = add nuw nsw i64 %y, 2

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 7
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %s1 = getelementptr i8, ptr %slot, i64 32
  %s2 = getelementptr i8, ptr %slot, i64 64
  %s3 = getelementptr i8, ptr %slot, i64 96
  %in0 = load <8 x float>, ptr %slot, align 4
  %in1 = load <8 x float>, ptr %s1, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %c0 = phi <8 x float> [ %in0, %head ], [ %n0, %body ]
  %c1 = phi <8 x float> [ %in1, %head ], [ %n1, %body ]
  %c2 = phi <8 x float> [ zeroinitializer, %head ], [ %n2, %body ]
  %c3 = phi <8 x float> [ zeroinitializer, %head ], [ %n3, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a0 = load <8 x float>, ptr %a.p, align 4
  %a.p1 = getelementptr <8 x float>, ptr %a.p, i64 64
  %a1 = load <8 x float>, ptr %a.p1, align 4
  %a.p2 = getelementptr <8 x float>, ptr %a.p, i64 128
  %a2 = load <8 x float>, ptr %a.p2, align 4
  %a.p3 = getelementptr <8 x float>, ptr %a.p, i64 192
  %a3 = load <8 x float>, ptr %a.p3, align 4
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %n0 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a0, <8 x float> %b.v, <8 x float> %c0)
  %n1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a1, <8 x float> %b.v, <8 x float> %c1)
  %n2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %c2)
  %n3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a3, <8 x float> %b.v, <8 x float> %c3)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  %l2 = phi <8 x float> [ %n2, %body ]
  store <8 x float> %n0, ptr %slot, align 4
  store <8 x float> %n1, ptr %s1, align 4
  store <8 x float> %l2, ptr %s2, align 4
  store <8 x float> %n3, ptr %s3, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !0

exit:
  ret void
}

define void @split.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 7
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %s1 = getelementptr i8, ptr %slot, i64 32
  %s2 = getelementptr i8, ptr %slot, i64 64
  %s3 = getelementptr i8, ptr %slot, i64 96
  %in0 = load <8 x float>, ptr %slot, align 4
  %in1 = load <8 x float>, ptr %s1, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %c0 = phi <8 x float> [ %in0, %head ], [ %n0, %body ]
  %c1 = phi <8 x float> [ %in1, %head ], [ %n1, %body ]
  %c2 = phi <8 x float> [ zeroinitializer, %head ], [ %n2, %body ]
  %c3 = phi <8 x float> [ zeroinitializer, %head ], [ %n3, %body ]
  %t = phi float [ 0.0, %head ], [ %t.next, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a0 = load <8 x float>, ptr %a.p, align 4
  %a.p1 = getelementptr <8 x float>, ptr %a.p, i64 64
  %a1 = load <8 x float>, ptr %a.p1, align 4
  %a.p2 = getelementptr <8 x float>, ptr %a.p, i64 128
  %a2 = load <8 x float>, ptr %a.p2, align 4
  %a.p3 = getelementptr <8 x float>, ptr %a.p, i64 192
  %a3 = load <8 x float>, ptr %a.p3, align 4
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %n0 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a0, <8 x float> %b.v, <8 x float> %c0)
  %n1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a1, <8 x float> %b.v, <8 x float> %c1)
  %n2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %c2)
  %n3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a3, <8 x float> %b.v, <8 x float> %c3)
  %e = extractelement <8 x float> %n0, i64 0
  %t.next = fadd float %t, %e
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  %l2 = phi <8 x float> [ %n2, %body ]
  store <8 x float> %n0, ptr %slot, align 4
  store <8 x float> %n1, ptr %s1, align 4
  store <8 x float> %l2, ptr %s2, align 4
  store <8 x float> %n3, ptr %s3, align 4
  store float %t.next, ptr %ctx, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !2

exit:
  ret void
}

define void @avx2.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr noalias %local, ptr noalias %scratch) #1 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.next, %tail ]
  %slot.off = shl i64 %y, 7
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %s1 = getelementptr i8, ptr %slot, i64 32
  %s2 = getelementptr i8, ptr %slot, i64 64
  %s3 = getelementptr i8, ptr %slot, i64 96
  %in0 = load <8 x float>, ptr %slot, align 4
  %in1 = load <8 x float>, ptr %s1, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %c0 = phi <8 x float> [ %in0, %head ], [ %n0, %body ]
  %c1 = phi <8 x float> [ %in1, %head ], [ %n1, %body ]
  %c2 = phi <8 x float> [ zeroinitializer, %head ], [ %n2, %body ]
  %c3 = phi <8 x float> [ zeroinitializer, %head ], [ %n3, %body ]
  %a.p = getelementptr <8 x float>, ptr %local, i64 %k
  %a0 = load <8 x float>, ptr %a.p, align 4
  %a.p1 = getelementptr <8 x float>, ptr %a.p, i64 64
  %a1 = load <8 x float>, ptr %a.p1, align 4
  %a.p2 = getelementptr <8 x float>, ptr %a.p, i64 128
  %a2 = load <8 x float>, ptr %a.p2, align 4
  %a.p3 = getelementptr <8 x float>, ptr %a.p, i64 192
  %a3 = load <8 x float>, ptr %a.p3, align 4
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %n0 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a0, <8 x float> %b.v, <8 x float> %c0)
  %n1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a1, <8 x float> %b.v, <8 x float> %c1)
  %n2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.v, <8 x float> %c2)
  %n3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a3, <8 x float> %b.v, <8 x float> %c3)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 64
  br i1 %k.done, label %tail, label %body

tail:
  %l2 = phi <8 x float> [ %n2, %body ]
  store <8 x float> %n0, ptr %slot, align 4
  store <8 x float> %n1, ptr %s1, align 4
  store <8 x float> %l2, ptr %s2, align 4
  store <8 x float> %n3, ptr %s3, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !3

exit:
  ret void
}

declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }
attributes #1 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="256" }

!0 = distinct !{!0, !1}
!1 = !{!"loom.rows"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
