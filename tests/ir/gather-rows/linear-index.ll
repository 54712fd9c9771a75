; Rows whose index is leaf * m + c (vectorize/gather_rows.c, decompose).
;  - @table: row_tables.c's table loop for CLBlast's XgemmDirectTN with
;    its Intel parameters, unrolled 4 times (two k a trip of the inner
;    loop): lane i reads t[2 (i + u) + p + 132 i], as
;    `zext nneg (splat(trunc(i + u) << 1) [| 1] + <0, 132, ...>)`. One leaf
;    (%i), factor 2, steps 132: the eight are one family of eight rows,
;    lane 0's index trunc(%i) * 2. `zext nneg` promises that no member's
;    index is negative, so consecutive k stay consecutive: no run time test.
;    Before, only `Y + k` with one Y vector matched, and the table loop kept
;    its 128 gathers a tile (a quarter of the kernel's time on AMD Zen 4).
;  - @no_nneg: a plain zext of a 32-bit index that may wrap: nothing changes.
;  - @phi_leaf: the leaf a vector phi of the gathers' own block (VPlan's
;    widened induction, %vec.ind * 34 + k): splitting the block renews its
;    phis, so lane 0 comes from the member taken apart again after the split
;    (it read the erased phi before: a crash in CLBlast's XgemmDirectTN with
;    its AMD parameters).
; RUN: -passes=gather-rows

; CHECK-LABEL: define void @table(
; CHECK: %[[N:[0-9]+]] = trunc i64 %i to i32
; CHECK-NEXT: %[[Y:[0-9]+]] = mul i32 %[[N]], 2
; CHECK-NEXT: %[[Z:[0-9]+]] = zext i32 %[[Y]] to i64
; CHECK: %row0 = getelementptr i8, ptr addrspace(3) %t, i64
; CHECK-NEXT: br i1 true, label %rows.whole, label %rows.apart
; CHECK: rows.whole:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 0
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R0]], align 4
; CHECK: %[[R7:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 3696
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R7]], align 4
; CHECK-COUNT-24: shufflevector <8 x float>
; CHECK: rows.apart:
; CHECK-COUNT-8: call <8 x float> @llvm.masked.gather.v8f32.v8p3({{.*}}), !loom.gathers.apart
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void

; CHECK-LABEL: define void @no_nneg(
; CHECK-NOT: rows.whole
; CHECK: ret void

; CHECK-LABEL: define void @phi_leaf(
; CHECK: %lane0 = extractelement <8 x i32> %vec.ind, i32 0
; CHECK-NEXT: %[[Y:[0-9]+]] = mul i32 %lane0, 34
; CHECK-NEXT: %rows_whole = icmp sle i32 %[[Y]], 2147483402
; CHECK: rows.whole:
; CHECK-COUNT-8: load <8 x float>
; CHECK: rows.apart:
; CHECK-COUNT-8: call <8 x float> @llvm.masked.gather.v8f32.v8p3({{.*}}), !loom.gathers.apart
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @table(ptr addrspace(3) %t, ptr %out) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %n0 = trunc i64 %i to i32
  %s0 = insertelement <8 x i32> poison, i32 %n0, i64 0
  %h0 = shl nuw nsw <8 x i32> %s0, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v0 = shufflevector <8 x i32> %h0, <8 x i32> poison, <8 x i32> zeroinitializer
  %o0 = or disjoint <8 x i32> %v0, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x0 = add nuw nsw <8 x i32> %v0, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z0 = zext nneg <8 x i32> %x0 to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z0
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x1 = add nuw nsw <8 x i32> %o0, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z1 = zext nneg <8 x i32> %x1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.1 = add i64 %i, 1
  %n1 = trunc i64 %i.1 to i32
  %s1 = insertelement <8 x i32> poison, i32 %n1, i64 0
  %h1 = shl nuw nsw <8 x i32> %s1, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v1 = shufflevector <8 x i32> %h1, <8 x i32> poison, <8 x i32> zeroinitializer
  %o1 = or disjoint <8 x i32> %v1, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x2 = add nuw nsw <8 x i32> %v1, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z2 = zext nneg <8 x i32> %x2 to <8 x i64>
  %p2 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z2
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x3 = add nuw nsw <8 x i32> %o1, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z3 = zext nneg <8 x i32> %x3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.2 = add i64 %i, 2
  %n2 = trunc i64 %i.2 to i32
  %s2 = insertelement <8 x i32> poison, i32 %n2, i64 0
  %h2 = shl nuw nsw <8 x i32> %s2, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v2 = shufflevector <8 x i32> %h2, <8 x i32> poison, <8 x i32> zeroinitializer
  %o2 = or disjoint <8 x i32> %v2, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x4 = add nuw nsw <8 x i32> %v2, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z4 = zext nneg <8 x i32> %x4 to <8 x i64>
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z4
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x5 = add nuw nsw <8 x i32> %o2, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z5 = zext nneg <8 x i32> %x5 to <8 x i64>
  %p5 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z5
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.3 = add i64 %i, 3
  %n3 = trunc i64 %i.3 to i32
  %s3 = insertelement <8 x i32> poison, i32 %n3, i64 0
  %h3 = shl nuw nsw <8 x i32> %s3, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v3 = shufflevector <8 x i32> %h3, <8 x i32> poison, <8 x i32> zeroinitializer
  %o3 = or disjoint <8 x i32> %v3, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x6 = add nuw nsw <8 x i32> %v3, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z6 = zext nneg <8 x i32> %x6 to <8 x i64>
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z6
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x7 = add nuw nsw <8 x i32> %o3, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z7 = zext nneg <8 x i32> %x7 to <8 x i64>
  %p7 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z7
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %at0 = getelementptr <8 x float>, ptr %out, i64 0
  store <8 x float> %g0, ptr %at0, align 32
  %at1 = getelementptr <8 x float>, ptr %out, i64 1
  store <8 x float> %g1, ptr %at1, align 32
  %at2 = getelementptr <8 x float>, ptr %out, i64 2
  store <8 x float> %g2, ptr %at2, align 32
  %at3 = getelementptr <8 x float>, ptr %out, i64 3
  store <8 x float> %g3, ptr %at3, align 32
  %at4 = getelementptr <8 x float>, ptr %out, i64 4
  store <8 x float> %g4, ptr %at4, align 32
  %at5 = getelementptr <8 x float>, ptr %out, i64 5
  store <8 x float> %g5, ptr %at5, align 32
  %at6 = getelementptr <8 x float>, ptr %out, i64 6
  store <8 x float> %g6, ptr %at6, align 32
  %at7 = getelementptr <8 x float>, ptr %out, i64 7
  store <8 x float> %g7, ptr %at7, align 32
  %i.next = add i64 %i, 4
  %done = icmp eq i64 %i.next, 16
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @no_nneg(ptr addrspace(3) %t, ptr %out) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %n0 = trunc i64 %i to i32
  %s0 = insertelement <8 x i32> poison, i32 %n0, i64 0
  %h0 = shl nuw nsw <8 x i32> %s0, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v0 = shufflevector <8 x i32> %h0, <8 x i32> poison, <8 x i32> zeroinitializer
  %o0 = or disjoint <8 x i32> %v0, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x0 = add nuw nsw <8 x i32> %v0, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z0 = zext <8 x i32> %x0 to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z0
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x1 = add nuw nsw <8 x i32> %o0, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z1 = zext <8 x i32> %x1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.1 = add i64 %i, 1
  %n1 = trunc i64 %i.1 to i32
  %s1 = insertelement <8 x i32> poison, i32 %n1, i64 0
  %h1 = shl nuw nsw <8 x i32> %s1, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v1 = shufflevector <8 x i32> %h1, <8 x i32> poison, <8 x i32> zeroinitializer
  %o1 = or disjoint <8 x i32> %v1, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x2 = add nuw nsw <8 x i32> %v1, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z2 = zext <8 x i32> %x2 to <8 x i64>
  %p2 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z2
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x3 = add nuw nsw <8 x i32> %o1, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z3 = zext <8 x i32> %x3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.2 = add i64 %i, 2
  %n2 = trunc i64 %i.2 to i32
  %s2 = insertelement <8 x i32> poison, i32 %n2, i64 0
  %h2 = shl nuw nsw <8 x i32> %s2, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v2 = shufflevector <8 x i32> %h2, <8 x i32> poison, <8 x i32> zeroinitializer
  %o2 = or disjoint <8 x i32> %v2, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x4 = add nuw nsw <8 x i32> %v2, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z4 = zext <8 x i32> %x4 to <8 x i64>
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z4
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x5 = add nuw nsw <8 x i32> %o2, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z5 = zext <8 x i32> %x5 to <8 x i64>
  %p5 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z5
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %i.3 = add i64 %i, 3
  %n3 = trunc i64 %i.3 to i32
  %s3 = insertelement <8 x i32> poison, i32 %n3, i64 0
  %h3 = shl nuw nsw <8 x i32> %s3, <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %v3 = shufflevector <8 x i32> %h3, <8 x i32> poison, <8 x i32> zeroinitializer
  %o3 = or disjoint <8 x i32> %v3, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %x6 = add nuw nsw <8 x i32> %v3, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z6 = zext <8 x i32> %x6 to <8 x i64>
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z6
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %x7 = add nuw nsw <8 x i32> %o3, <i32 0, i32 132, i32 264, i32 396, i32 528, i32 660, i32 792, i32 924>
  %z7 = zext <8 x i32> %x7 to <8 x i64>
  %p7 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %z7
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %at0 = getelementptr <8 x float>, ptr %out, i64 0
  store <8 x float> %g0, ptr %at0, align 32
  %at1 = getelementptr <8 x float>, ptr %out, i64 1
  store <8 x float> %g1, ptr %at1, align 32
  %at2 = getelementptr <8 x float>, ptr %out, i64 2
  store <8 x float> %g2, ptr %at2, align 32
  %at3 = getelementptr <8 x float>, ptr %out, i64 3
  store <8 x float> %g3, ptr %at3, align 32
  %at4 = getelementptr <8 x float>, ptr %out, i64 4
  store <8 x float> %g4, ptr %at4, align 32
  %at5 = getelementptr <8 x float>, ptr %out, i64 5
  store <8 x float> %g5, ptr %at5, align 32
  %at6 = getelementptr <8 x float>, ptr %out, i64 6
  store <8 x float> %g6, ptr %at6, align 32
  %at7 = getelementptr <8 x float>, ptr %out, i64 7
  store <8 x float> %g7, ptr %at7, align 32
  %i.next = add i64 %i, 4
  %done = icmp eq i64 %i.next, 16
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @phi_leaf(ptr addrspace(3) %t, ptr %out) {
entry:
  br label %loop

loop:
  %vec.ind = phi <8 x i32> [ <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %entry ], [ %vec.ind.next, %loop ]
  %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %a7, %loop ]
  %y = mul <8 x i32> %vec.ind, <i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34, i32 34>
  %e0 = sext <8 x i32> %y to <8 x i64>
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e0
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a0 = fadd <8 x float> %acc, %g0
  %y1 = add <8 x i32> %y, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %e1 = sext <8 x i32> %y1 to <8 x i64>
  %p1 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e1
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a1 = fadd <8 x float> %a0, %g1
  %y2 = add <8 x i32> %y, <i32 2, i32 2, i32 2, i32 2, i32 2, i32 2, i32 2, i32 2>
  %e2 = sext <8 x i32> %y2 to <8 x i64>
  %p2 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e2
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a2 = fadd <8 x float> %a1, %g2
  %y3 = add <8 x i32> %y, <i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3>
  %e3 = sext <8 x i32> %y3 to <8 x i64>
  %p3 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e3
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a3 = fadd <8 x float> %a2, %g3
  %y4 = add <8 x i32> %y, <i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4>
  %e4 = sext <8 x i32> %y4 to <8 x i64>
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e4
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a4 = fadd <8 x float> %a3, %g4
  %y5 = add <8 x i32> %y, <i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5, i32 5>
  %e5 = sext <8 x i32> %y5 to <8 x i64>
  %p5 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e5
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a5 = fadd <8 x float> %a4, %g5
  %y6 = add <8 x i32> %y, <i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6, i32 6>
  %e6 = sext <8 x i32> %y6 to <8 x i64>
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e6
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a6 = fadd <8 x float> %a5, %g6
  %y7 = add <8 x i32> %y, <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>
  %e7 = sext <8 x i32> %y7 to <8 x i64>
  %p7 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> %e7
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %a7 = fadd <8 x float> %a6, %g7
  %vec.ind.next = add <8 x i32> %vec.ind, <i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8>
  %first = extractelement <8 x i32> %vec.ind, i64 0
  %done = icmp sgt i32 %first, 64
  br i1 %done, label %exit, label %loop

exit:
  store <8 x float> %a7, ptr %out, align 32
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32 immarg, <8 x i1>, <8 x float>)
