; What VPlan's native path made of CLBlast's Xgemm (two nested inner loops,
; the B operand the same for every work-item of a row): the outer inner
; loop's counter is a <4 x i32> phi whose next value is a splat of lane 0
; of a vector computation (shufflevector %t, poison, zeroinitializer, not
; of an insertelement), and B's address is arithmetic on it: (k + kk) * ldb
; + col, sign-extended, through a GEP. The phi becomes a scalar phi (the
; splat's scalar is an extractelement of lane 0), and the gather, whose
; addresses are then all equal through mul, add, sext and the GEP, becomes
; one scalar load and a broadcast. A's gather, whose address has the lane
; offsets in it, stays.
; RUN: -passes=uniform-phis

; CHECK-LABEL: define void @tile.loom_wg(
; CHECK: outerk:
; CHECK-NEXT: %[[K:.*]] = phi i32 [ 0, %outer ], [ %[[KN:.*]], %outerk.latch ]
; CHECK-NOT: phi <4 x i32>
; CHECK: inner:
; CHECK: %[[ADD:.*]] = add i32 %[[K]], %kk
; CHECK: %[[MUL:.*]] = mul i32 %[[ADD]], %ldb
; CHECK: %[[COL:.*]] = add i32 %[[MUL]], %col
; CHECK: %[[EXT:.*]] = sext i32 %[[COL]] to i64
; CHECK: %[[P:.*]] = getelementptr inbounds float, ptr addrspace(1) %b, i64 %[[EXT]]
; CHECK: %[[L:.*]] = load float, ptr addrspace(1) %[[P]], align 4
; CHECK: %[[I:.*]] = insertelement <4 x float> poison, float %[[L]], i64 0
; CHECK: %[[S:.*]] = shufflevector <4 x float> %[[I]], <4 x float> poison, <4 x i32> zeroinitializer
; CHECK: %va = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %pa,
; CHECK: call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %va, <4 x float> %[[S]],
; CHECK: outerk.latch:
; CHECK: %[[KN]] = extractelement <4 x i32> %{{.*}}, i64 0
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @tile.loom_wg(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out, i32 %ldb, i32 %col, i32 %nk) #0 {
entry:
  %ldb.i = insertelement <4 x i32> poison, i32 %ldb, i64 0
  %ldb.s = shufflevector <4 x i32> %ldb.i, <4 x i32> poison, <4 x i32> zeroinitializer
  %col.i = insertelement <4 x i32> poison, i32 %col, i64 0
  %col.s = shufflevector <4 x i32> %col.i, <4 x i32> poison, <4 x i32> zeroinitializer
  br label %outer

outer:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %outer.latch ]
  %lanes = phi <4 x i32> [ <i32 0, i32 1, i32 2, i32 3>, %entry ], [ %lanes.next, %outer.latch ]
  br label %outerk

outerk:
  %k = phi <4 x i32> [ zeroinitializer, %outer ], [ %k.next, %outerk.latch ]
  %acc = phi <4 x float> [ zeroinitializer, %outer ], [ %acc.next, %outerk.latch ]
  br label %inner

inner:
  %kk = phi i32 [ 0, %outerk ], [ %kk.next, %inner ]
  %acc.in = phi <4 x float> [ %acc, %outerk ], [ %acc.next, %inner ]
  %kk.i = insertelement <4 x i32> poison, i32 %kk, i64 0
  %kk.s = shufflevector <4 x i32> %kk.i, <4 x i32> poison, <4 x i32> zeroinitializer
  %row = add nsw <4 x i32> %k, %kk.s
  %mb = mul nsw <4 x i32> %row, %ldb.s
  %ib = add nsw <4 x i32> %mb, %col.s
  %ib64 = sext <4 x i32> %ib to <4 x i64>
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, <4 x i64> %ib64
  %vb = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %pb, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %ia = add nsw <4 x i32> %mb, %lanes
  %ia64 = sext <4 x i32> %ia to <4 x i64>
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, <4 x i64> %ia64
  %va = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %pa, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %acc.next = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %va, <4 x float> %vb, <4 x float> %acc.in)
  %kk.next = add nuw nsw i32 %kk, 1
  %kk.done = icmp eq i32 %kk.next, 2
  br i1 %kk.done, label %outerk.latch, label %inner

outerk.latch:
  %kwide = zext <4 x i32> %k to <4 x i64>
  %knext.w = add nuw nsw <4 x i64> %kwide, <i64 1, i64 poison, i64 poison, i64 poison>
  %knext.t = trunc <4 x i64> %knext.w to <4 x i32>
  %t = shl nsw <4 x i32> %knext.t, <i32 1, i32 0, i32 0, i32 0>
  %k.next = shufflevector <4 x i32> %t, <4 x i32> poison, <4 x i32> zeroinitializer
  %k0 = extractelement <4 x i32> %k.next, i64 0
  %more.k = icmp slt i32 %k0, %nk
  br i1 %more.k, label %outerk, label %outer.latch

outer.latch:
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %lx
  store <4 x float> %acc.next, ptr addrspace(1) %dst, align 4
  %lx.next = add i64 %lx, 4
  %lanes.next = add <4 x i32> %lanes, <i32 4, i32 4, i32 4, i32 4>
  %more = icmp ult i64 %lx.next, 64
  br i1 %more, label %outer, label %done

done:
  ret void
}

declare <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)>, i32, <4 x i1>, <4 x float>)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)

attributes #0 = { "loom-outer-loops"="1" "prefer-vector-width"="128" }
