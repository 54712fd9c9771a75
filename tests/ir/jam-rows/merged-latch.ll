; LLVM's loop-simplify gives the y loop's header one latch: where the
; region is entered again from another region's end (%next, the loop over
; the regions: wg_function.c branches there directly), the y loop's latch
; %tail and that entry both go through %be, a block of phis carrying the
; "loom.rows" loop ID. jam-rows first gives the y loop its own latch
; again: %tail branches to %head (with the loop ID), %next's entry and the
; entry from before the loop reach %head through a new preheader %rows.pre;
; then it runs 4 rows at once and tables the inner loop's gather
; (vectorize/jam_rows.c: split_merged_latch).
; RUN: -passes=jam-rows

; CHECK-LABEL: define void @merged.loom_wg(
; CHECK: rows.pre:
; CHECK-NEXT: br label %row.table.pre
; CHECK: row.table.loop:
; CHECK: br i1 %{{[0-9]+}}, label %head, label %row.table.loop
; CHECK: head:
; CHECK-NEXT: %y = phi i64 [ 0, %row.table.loop ], [ %y.next, %tail ]
; CHECK: body:
; CHECK: %row.tabled = load <8 x float>
; CHECK-NOT: gather
; CHECK: tail:
; CHECK: %y.next = add nuw nsw i64 %y, 4
; CHECK-NEXT: %y.done = icmp eq i64 %y.next, 16
; CHECK-NEXT: br i1 %y.done, label %next, label %head, !llvm.loop ![[ID:[0-9]+]]
; CHECK: be:
; CHECK-NEXT: br label %rows.pre
; CHECK-NOT: !llvm.loop
; CHECK: ![[ID]] = distinct !{![[ID]], ![[ROWS:[0-9]+]]}
; CHECK: ![[ROWS]] = !{!"loom.rows"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @merged.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr addrspace(3) noalias %local, ptr noalias %scratch) #0 {
entry:
  br label %head

head:
  %y = phi i64 [ 0, %entry ], [ %y.be, %be ]
  %slot.off = shl i64 %y, 5
  %slot = getelementptr i8, ptr %scratch, i64 %slot.off
  %acc.in = load <8 x float>, ptr %slot, align 4
  br label %body

body:
  %k = phi i64 [ 0, %head ], [ %k.next, %body ]
  %acc = phi <8 x float> [ %acc.in, %head ], [ %acc.next, %body ]
  %k.s = insertelement <8 x i64> poison, i64 %k, i64 0
  %k.v = shufflevector <8 x i64> %k.s, <8 x i64> poison, <8 x i32> zeroinitializer
  %col = add <8 x i64> %k.v, <i64 0, i64 33, i64 66, i64 99, i64 132, i64 165, i64 198, i64 231>
  %a.p = getelementptr float, ptr addrspace(3) %local, <8 x i64> %col
  %a = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %a.p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %b.i = add i64 %k, %y
  %b.p = getelementptr float, ptr %args, i64 %b.i
  %b = load float, ptr %b.p, align 4
  %b.s = insertelement <8 x float> poison, float %b, i64 0
  %b.v = shufflevector <8 x float> %b.s, <8 x float> poison, <8 x i32> zeroinitializer
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a, <8 x float> %b.v, <8 x float> %acc)
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 32
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %next, label %be

next:
  %again = load volatile i1, ptr %ctx, align 1
  br i1 %again, label %be, label %exit

be:
  %y.be = phi i64 [ %y.next, %tail ], [ 0, %next ]
  br label %head, !llvm.loop !0

exit:
  ret void
}


declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32, <8 x i1>, <8 x float>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }

!0 = distinct !{!0, !1}
!1 = !{!"loom.rows"}
