; Row tables (vectorize/row_tables.c, part of jam-rows): the y loop of 16
; rows runs 4 at once (its 4 iterations still loop), and each iteration's
; inner loop gathered the same column of a tile in local memory (%a: the
; same for every row). A loop before the y loop gathers the 32 columns once
; into a table (an alloca of 32 <8 x float>); the inner loop loads them from
; there, and its gathers and their addresses are gone. The table loop runs
; 8 trips of the inner loop a trip (32 is a multiple of 8; 8 gathers a
; trip): each lane's 8 consecutive elements, which gather-rows loads as
; rows (the second RUN), its 8 stores after the gathers.
;  - @written: the inner loop writes local memory, so its reads may see its
;    own row's writes (row-varying): no table, the gathers copied per row;
;  - @unknown: the inner loop's trip count is not a constant (no table size):
;    no table;
;  - @once: 4 rows, all run at once (the y loop no longer loops): no table.
; RUN: -passes=jam-rows
; RUN: -passes=jam-rows,gather-rows | --check-prefix=ROWS

; ROWS-LABEL: define void @table.loom_wg(
; ROWS: row.table.loop:
; ROWS: br i1 true, label %rows.whole, label %rows.apart
; ROWS: rows.whole:
; ROWS-COUNT-8: load <8 x float>
; ROWS: rows.apart:
; ROWS-LABEL: head:

; CHECK-LABEL: define void @table.loom_wg(
; CHECK: entry:
; CHECK-NEXT: %row.table = alloca [32 x <8 x float>], align 64
; CHECK: row.table.loop:
; CHECK: %[[G:[0-9]+]] = call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK-COUNT-6: call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK: %[[G7:[0-9]+]] = call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK-NOT: store
; CHECK: icmp eq i64 %{{[0-9]+}}, 32
; CHECK: %[[AT:[0-9]+]] = getelementptr inbounds [32 x <8 x float>], ptr %row.table, i64 0, i64 %row.table.trip
; CHECK-NEXT: store <8 x float> %[[G]], ptr %[[AT]]
; CHECK: %[[T7:[0-9]+]] = add i64 %row.table.trip, 7
; CHECK-NEXT: %[[AT7:[0-9]+]] = getelementptr inbounds [32 x <8 x float>], ptr %row.table, i64 0, i64 %[[T7]]
; CHECK-NEXT: store <8 x float> %[[G7]], ptr %[[AT7]]
; CHECK-NEXT: add i64 %row.table.trip, 8
; CHECK: br i1 %{{[0-9]+}}, label %head, label %row.table.loop
; CHECK: head:
; CHECK-NEXT: %y = phi i64 [ 0, %row.table.loop ], [ %y.next, %tail ]
; CHECK: body:
; CHECK: %row.trip = phi i64 [ 0, %head ], [ %[[NEXT:[0-9]+]], %body ]
; CHECK: %[[T:[0-9]+]] = getelementptr inbounds [32 x <8 x float>], ptr %row.table, i64 0, i64 %row.trip
; CHECK-NEXT: %row.tabled = load <8 x float>, ptr %[[T]]
; CHECK-NOT: gather
; CHECK-COUNT-4: call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %row.tabled,
; CHECK: %[[NEXT]] = add i64 %row.trip, 1
; CHECK: tail:
; CHECK: %y.next = add nuw nsw i64 %y, 4

; CHECK-LABEL: define void @written.loom_wg(
; CHECK-NOT: row.table
; CHECK-COUNT-4: call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK: %y.next = add nuw nsw i64 %y, 4

; CHECK-LABEL: define void @unknown.loom_wg(
; CHECK-NOT: row.table
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK: %y.next = add nuw nsw i64 %y, 4

; CHECK-LABEL: define void @once.loom_wg(
; CHECK-NOT: row.table
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p3(
; CHECK-NOT: %y.next

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @table.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr addrspace(3) noalias %local, ptr noalias %scratch) #0 {
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
  br i1 %y.done, label %exit, label %head, !llvm.loop !0

exit:
  ret void
}


define void @written.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr addrspace(3) noalias %local, ptr noalias %scratch) #0 {
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
  %w.p = getelementptr float, ptr addrspace(3) %local, i64 %b.i
  store float %b, ptr addrspace(3) %w.p, align 4
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 32
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !2

exit:
  ret void
}


define void @unknown.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr addrspace(3) noalias %local, ptr noalias %scratch) #0 {
entry:
  %n = load i64, ptr %args, align 8
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
  %k.done = icmp eq i64 %k.next, %n
  br i1 %k.done, label %tail, label %body

tail:
  store <8 x float> %acc.next, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 16
  br i1 %y.done, label %exit, label %head, !llvm.loop !3

exit:
  ret void
}


define void @once.loom_wg(ptr noalias %args, ptr noalias %ctx, ptr addrspace(3) noalias %local, ptr noalias %scratch) #0 {
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
  %y.done = icmp eq i64 %y.next, 4
  br i1 %y.done, label %exit, label %head, !llvm.loop !4

exit:
  ret void
}


declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32, <8 x i1>, <8 x float>)

attributes #0 = { nounwind "loom-outer-loops"="1" "prefer-vector-width"="512" }

!0 = distinct !{!0, !1}
!1 = !{!"loom.rows"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1}
