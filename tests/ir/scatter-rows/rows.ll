; Scatters that write each lane's four consecutive elements
; (vectorize/scatter_rows.c), as CLBlast's XgemmDirect stores a work-item's
; results: c[(idm + mi) * ldc + n + ni] for C row-major, c[(n + ni) * ldc +
; idm + mi] column-major, chosen by a select on %flag, idm = m + 4 * lane.
;  - @rows: 2 x 4 results stored ni-major, so the two row-major families
;    (mi = 0, 1; ni = 0 .. 3 consecutive) interleave; taken together with
;    the select's false side: the test that %flag is false, that no lane's
;    index + 3 wraps, and that a lane's two rows do not overlap (|d| >= 4),
;    then 2 x 8 stores of <4 x float> at member 0's lane addresses; else
;    the eight scatters, in their order.
;  - @no_group: without a parallel loop's access group, lanes might write
;    one address: nothing changes.
;  - @load_between: a load between a family's members: nothing changes.
;  - @sunk: the last store, common to two paths, sunk by SimplifyCFG into
;    their join; it goes back to each path, where the family is rewritten.
; RUN: -passes=scatter-rows

; CHECK-LABEL: define void @rows(
; CHECK: %[[NOT:[0-9]+]] = xor i1 %flag, true
; CHECK: icmp sle <8 x i32> %i00, <i32 2147483644,
; CHECK: icmp sle <8 x i32> %i10, <i32 2147483644,
; CHECK: %[[D:[0-9]+]] = sub <8 x i64>
; CHECK-NEXT: icmp sge <8 x i64> %[[D]], <i64 4,
; CHECK-NEXT: icmp sle <8 x i64> %[[D]], <i64 -4,
; CHECK: %rows_whole = and i1
; CHECK-NEXT: br i1 %rows_whole, label %rows.whole, label %rows.apart
; CHECK: rows.whole:
; CHECK: %row.part = shufflevector <8 x float> %{{.*}}, <8 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
; CHECK-NEXT: %row.at = extractelement <8 x ptr addrspace(1)> %p00, i32 0
; CHECK-NEXT: store <4 x float> %row.part, ptr addrspace(1) %row.at, align 4
; CHECK-COUNT-15: store <4 x float>
; CHECK: rows.apart:
; CHECK: call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val00, {{.*}} !loom.scatters.apart
; CHECK-NEXT: call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val10, {{.*}} !loom.scatters.apart
; CHECK-NEXT: call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val01, {{.*}} !loom.scatters.apart
; CHECK: ret void

; CHECK-LABEL: define void @no_group(
; CHECK-NOT: rows.whole
; CHECK: ret void

; CHECK-LABEL: define void @load_between(
; CHECK-NOT: rows.whole
; CHECK: ret void

; CHECK-LABEL: define void @sunk(
; CHECK: one:
; CHECK: br i1 %rows_whole, label %rows.whole, label %rows.apart
; CHECK: rows.whole:
; CHECK-COUNT-8: store <4 x float>
; CHECK: two:
; CHECK: rows.whole{{[0-9]+}}:
; CHECK-COUNT-8: store <4 x float>
; CHECK: join:
; CHECK-NOT: @llvm.masked.scatter
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @rows(ptr addrspace(1) %c, i32 %ldc, i32 %m, i32 %n, i32 %t, <8 x float> %acc) {
entry:
  %flag = icmp eq i32 %t, 0
  %ms = insertelement <8 x i32> poison, i32 %m, i64 0
  %mv = shufflevector <8 x i32> %ms, <8 x i32> poison, <8 x i32> zeroinitializer
  %idm = add <8 x i32> %mv, <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %ls = insertelement <8 x i32> poison, i32 %ldc, i64 0
  %ldv = shufflevector <8 x i32> %ls, <8 x i32> poison, <8 x i32> zeroinitializer
  %r0 = add <8 x i32> %idm, <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %rl0 = mul <8 x i32> %r0, %ldv
  %r1 = add <8 x i32> %idm, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %rl1 = mul <8 x i32> %r1, %ldv
  %cn0 = add i32 %n, 0
  %cl0 = mul i32 %cn0, %ldc
  %cs0 = insertelement <8 x i32> poison, i32 %cl0, i64 0
  %cv0 = shufflevector <8 x i32> %cs0, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn1 = add i32 %n, 1
  %cl1 = mul i32 %cn1, %ldc
  %cs1 = insertelement <8 x i32> poison, i32 %cl1, i64 0
  %cv1 = shufflevector <8 x i32> %cs1, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn2 = add i32 %n, 2
  %cl2 = mul i32 %cn2, %ldc
  %cs2 = insertelement <8 x i32> poison, i32 %cl2, i64 0
  %cv2 = shufflevector <8 x i32> %cs2, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn3 = add i32 %n, 3
  %cl3 = mul i32 %cn3, %ldc
  %cs3 = insertelement <8 x i32> poison, i32 %cl3, i64 0
  %cv3 = shufflevector <8 x i32> %cs3, <8 x i32> poison, <8 x i32> zeroinitializer
  %val00 = fmul <8 x float> %acc, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %nn00 = add i32 %n, 0
  %ns00 = insertelement <8 x i32> poison, i32 %nn00, i64 0
  %nv00 = shufflevector <8 x i32> %ns00, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm00 = add nsw <8 x i32> %rl0, %nv00
  %colm00 = add <8 x i32> %cv0, %r0
  %i00 = select i1 %flag, <8 x i32> %colm00, <8 x i32> %rowm00
  %e00 = sext <8 x i32> %i00 to <8 x i64>
  %p00 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e00
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val00, <8 x ptr addrspace(1)> %p00, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val10 = fmul <8 x float> %acc, <float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0>
  %nn10 = add i32 %n, 0
  %ns10 = insertelement <8 x i32> poison, i32 %nn10, i64 0
  %nv10 = shufflevector <8 x i32> %ns10, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm10 = add nsw <8 x i32> %rl1, %nv10
  %colm10 = add <8 x i32> %cv0, %r1
  %i10 = select i1 %flag, <8 x i32> %colm10, <8 x i32> %rowm10
  %e10 = sext <8 x i32> %i10 to <8 x i64>
  %p10 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e10
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val10, <8 x ptr addrspace(1)> %p10, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val01 = fmul <8 x float> %acc, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %nn01 = add i32 %n, 1
  %ns01 = insertelement <8 x i32> poison, i32 %nn01, i64 0
  %nv01 = shufflevector <8 x i32> %ns01, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm01 = add nsw <8 x i32> %rl0, %nv01
  %colm01 = add <8 x i32> %cv1, %r0
  %i01 = select i1 %flag, <8 x i32> %colm01, <8 x i32> %rowm01
  %e01 = sext <8 x i32> %i01 to <8 x i64>
  %p01 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e01
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val01, <8 x ptr addrspace(1)> %p01, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val11 = fmul <8 x float> %acc, <float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0>
  %nn11 = add i32 %n, 1
  %ns11 = insertelement <8 x i32> poison, i32 %nn11, i64 0
  %nv11 = shufflevector <8 x i32> %ns11, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm11 = add nsw <8 x i32> %rl1, %nv11
  %colm11 = add <8 x i32> %cv1, %r1
  %i11 = select i1 %flag, <8 x i32> %colm11, <8 x i32> %rowm11
  %e11 = sext <8 x i32> %i11 to <8 x i64>
  %p11 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e11
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val11, <8 x ptr addrspace(1)> %p11, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val02 = fmul <8 x float> %acc, <float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0>
  %nn02 = add i32 %n, 2
  %ns02 = insertelement <8 x i32> poison, i32 %nn02, i64 0
  %nv02 = shufflevector <8 x i32> %ns02, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm02 = add nsw <8 x i32> %rl0, %nv02
  %colm02 = add <8 x i32> %cv2, %r0
  %i02 = select i1 %flag, <8 x i32> %colm02, <8 x i32> %rowm02
  %e02 = sext <8 x i32> %i02 to <8 x i64>
  %p02 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e02
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val02, <8 x ptr addrspace(1)> %p02, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val12 = fmul <8 x float> %acc, <float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0>
  %nn12 = add i32 %n, 2
  %ns12 = insertelement <8 x i32> poison, i32 %nn12, i64 0
  %nv12 = shufflevector <8 x i32> %ns12, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm12 = add nsw <8 x i32> %rl1, %nv12
  %colm12 = add <8 x i32> %cv2, %r1
  %i12 = select i1 %flag, <8 x i32> %colm12, <8 x i32> %rowm12
  %e12 = sext <8 x i32> %i12 to <8 x i64>
  %p12 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e12
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val12, <8 x ptr addrspace(1)> %p12, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val03 = fmul <8 x float> %acc, <float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0>
  %nn03 = add i32 %n, 3
  %ns03 = insertelement <8 x i32> poison, i32 %nn03, i64 0
  %nv03 = shufflevector <8 x i32> %ns03, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm03 = add nsw <8 x i32> %rl0, %nv03
  %colm03 = add <8 x i32> %cv3, %r0
  %i03 = select i1 %flag, <8 x i32> %colm03, <8 x i32> %rowm03
  %e03 = sext <8 x i32> %i03 to <8 x i64>
  %p03 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e03
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val03, <8 x ptr addrspace(1)> %p03, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val13 = fmul <8 x float> %acc, <float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0>
  %nn13 = add i32 %n, 3
  %ns13 = insertelement <8 x i32> poison, i32 %nn13, i64 0
  %nv13 = shufflevector <8 x i32> %ns13, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm13 = add nsw <8 x i32> %rl1, %nv13
  %colm13 = add <8 x i32> %cv3, %r1
  %i13 = select i1 %flag, <8 x i32> %colm13, <8 x i32> %rowm13
  %e13 = sext <8 x i32> %i13 to <8 x i64>
  %p13 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e13
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val13, <8 x ptr addrspace(1)> %p13, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  ret void
}

define void @no_group(ptr addrspace(1) %c, i32 %ldc, i32 %m, i32 %n, i32 %t, <8 x float> %acc) {
entry:
  %flag = icmp eq i32 %t, 0
  %ms = insertelement <8 x i32> poison, i32 %m, i64 0
  %mv = shufflevector <8 x i32> %ms, <8 x i32> poison, <8 x i32> zeroinitializer
  %idm = add <8 x i32> %mv, <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %ls = insertelement <8 x i32> poison, i32 %ldc, i64 0
  %ldv = shufflevector <8 x i32> %ls, <8 x i32> poison, <8 x i32> zeroinitializer
  %r0 = add <8 x i32> %idm, <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %rl0 = mul <8 x i32> %r0, %ldv
  %r1 = add <8 x i32> %idm, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %rl1 = mul <8 x i32> %r1, %ldv
  %cn0 = add i32 %n, 0
  %cl0 = mul i32 %cn0, %ldc
  %cs0 = insertelement <8 x i32> poison, i32 %cl0, i64 0
  %cv0 = shufflevector <8 x i32> %cs0, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn1 = add i32 %n, 1
  %cl1 = mul i32 %cn1, %ldc
  %cs1 = insertelement <8 x i32> poison, i32 %cl1, i64 0
  %cv1 = shufflevector <8 x i32> %cs1, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn2 = add i32 %n, 2
  %cl2 = mul i32 %cn2, %ldc
  %cs2 = insertelement <8 x i32> poison, i32 %cl2, i64 0
  %cv2 = shufflevector <8 x i32> %cs2, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn3 = add i32 %n, 3
  %cl3 = mul i32 %cn3, %ldc
  %cs3 = insertelement <8 x i32> poison, i32 %cl3, i64 0
  %cv3 = shufflevector <8 x i32> %cs3, <8 x i32> poison, <8 x i32> zeroinitializer
  %val00 = fmul <8 x float> %acc, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %nn00 = add i32 %n, 0
  %ns00 = insertelement <8 x i32> poison, i32 %nn00, i64 0
  %nv00 = shufflevector <8 x i32> %ns00, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm00 = add nsw <8 x i32> %rl0, %nv00
  %colm00 = add <8 x i32> %cv0, %r0
  %i00 = select i1 %flag, <8 x i32> %colm00, <8 x i32> %rowm00
  %e00 = sext <8 x i32> %i00 to <8 x i64>
  %p00 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e00
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val00, <8 x ptr addrspace(1)> %p00, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val10 = fmul <8 x float> %acc, <float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0, float 5.0>
  %nn10 = add i32 %n, 0
  %ns10 = insertelement <8 x i32> poison, i32 %nn10, i64 0
  %nv10 = shufflevector <8 x i32> %ns10, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm10 = add nsw <8 x i32> %rl1, %nv10
  %colm10 = add <8 x i32> %cv0, %r1
  %i10 = select i1 %flag, <8 x i32> %colm10, <8 x i32> %rowm10
  %e10 = sext <8 x i32> %i10 to <8 x i64>
  %p10 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e10
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val10, <8 x ptr addrspace(1)> %p10, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val01 = fmul <8 x float> %acc, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %nn01 = add i32 %n, 1
  %ns01 = insertelement <8 x i32> poison, i32 %nn01, i64 0
  %nv01 = shufflevector <8 x i32> %ns01, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm01 = add nsw <8 x i32> %rl0, %nv01
  %colm01 = add <8 x i32> %cv1, %r0
  %i01 = select i1 %flag, <8 x i32> %colm01, <8 x i32> %rowm01
  %e01 = sext <8 x i32> %i01 to <8 x i64>
  %p01 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e01
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val01, <8 x ptr addrspace(1)> %p01, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val11 = fmul <8 x float> %acc, <float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0, float 6.0>
  %nn11 = add i32 %n, 1
  %ns11 = insertelement <8 x i32> poison, i32 %nn11, i64 0
  %nv11 = shufflevector <8 x i32> %ns11, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm11 = add nsw <8 x i32> %rl1, %nv11
  %colm11 = add <8 x i32> %cv1, %r1
  %i11 = select i1 %flag, <8 x i32> %colm11, <8 x i32> %rowm11
  %e11 = sext <8 x i32> %i11 to <8 x i64>
  %p11 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e11
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val11, <8 x ptr addrspace(1)> %p11, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val02 = fmul <8 x float> %acc, <float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0>
  %nn02 = add i32 %n, 2
  %ns02 = insertelement <8 x i32> poison, i32 %nn02, i64 0
  %nv02 = shufflevector <8 x i32> %ns02, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm02 = add nsw <8 x i32> %rl0, %nv02
  %colm02 = add <8 x i32> %cv2, %r0
  %i02 = select i1 %flag, <8 x i32> %colm02, <8 x i32> %rowm02
  %e02 = sext <8 x i32> %i02 to <8 x i64>
  %p02 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e02
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val02, <8 x ptr addrspace(1)> %p02, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val12 = fmul <8 x float> %acc, <float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0, float 7.0>
  %nn12 = add i32 %n, 2
  %ns12 = insertelement <8 x i32> poison, i32 %nn12, i64 0
  %nv12 = shufflevector <8 x i32> %ns12, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm12 = add nsw <8 x i32> %rl1, %nv12
  %colm12 = add <8 x i32> %cv2, %r1
  %i12 = select i1 %flag, <8 x i32> %colm12, <8 x i32> %rowm12
  %e12 = sext <8 x i32> %i12 to <8 x i64>
  %p12 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e12
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val12, <8 x ptr addrspace(1)> %p12, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val03 = fmul <8 x float> %acc, <float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0>
  %nn03 = add i32 %n, 3
  %ns03 = insertelement <8 x i32> poison, i32 %nn03, i64 0
  %nv03 = shufflevector <8 x i32> %ns03, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm03 = add nsw <8 x i32> %rl0, %nv03
  %colm03 = add <8 x i32> %cv3, %r0
  %i03 = select i1 %flag, <8 x i32> %colm03, <8 x i32> %rowm03
  %e03 = sext <8 x i32> %i03 to <8 x i64>
  %p03 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e03
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val03, <8 x ptr addrspace(1)> %p03, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %val13 = fmul <8 x float> %acc, <float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0, float 8.0>
  %nn13 = add i32 %n, 3
  %ns13 = insertelement <8 x i32> poison, i32 %nn13, i64 0
  %nv13 = shufflevector <8 x i32> %ns13, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm13 = add nsw <8 x i32> %rl1, %nv13
  %colm13 = add <8 x i32> %cv3, %r1
  %i13 = select i1 %flag, <8 x i32> %colm13, <8 x i32> %rowm13
  %e13 = sext <8 x i32> %i13 to <8 x i64>
  %p13 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e13
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val13, <8 x ptr addrspace(1)> %p13, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  ret void
}

define void @load_between(ptr addrspace(1) %c, i32 %ldc, i32 %m, i32 %n, i32 %t, <8 x float> %acc) {
entry:
  %flag = icmp eq i32 %t, 0
  %ms = insertelement <8 x i32> poison, i32 %m, i64 0
  %mv = shufflevector <8 x i32> %ms, <8 x i32> poison, <8 x i32> zeroinitializer
  %idm = add <8 x i32> %mv, <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %ls = insertelement <8 x i32> poison, i32 %ldc, i64 0
  %ldv = shufflevector <8 x i32> %ls, <8 x i32> poison, <8 x i32> zeroinitializer
  %r0 = add <8 x i32> %idm, <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %rl0 = mul <8 x i32> %r0, %ldv
  %r1 = add <8 x i32> %idm, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %rl1 = mul <8 x i32> %r1, %ldv
  %cn0 = add i32 %n, 0
  %cl0 = mul i32 %cn0, %ldc
  %cs0 = insertelement <8 x i32> poison, i32 %cl0, i64 0
  %cv0 = shufflevector <8 x i32> %cs0, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn1 = add i32 %n, 1
  %cl1 = mul i32 %cn1, %ldc
  %cs1 = insertelement <8 x i32> poison, i32 %cl1, i64 0
  %cv1 = shufflevector <8 x i32> %cs1, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn2 = add i32 %n, 2
  %cl2 = mul i32 %cn2, %ldc
  %cs2 = insertelement <8 x i32> poison, i32 %cl2, i64 0
  %cv2 = shufflevector <8 x i32> %cs2, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn3 = add i32 %n, 3
  %cl3 = mul i32 %cn3, %ldc
  %cs3 = insertelement <8 x i32> poison, i32 %cl3, i64 0
  %cv3 = shufflevector <8 x i32> %cs3, <8 x i32> poison, <8 x i32> zeroinitializer
  %val00 = fmul <8 x float> %acc, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %nn00 = add i32 %n, 0
  %ns00 = insertelement <8 x i32> poison, i32 %nn00, i64 0
  %nv00 = shufflevector <8 x i32> %ns00, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm00 = add nsw <8 x i32> %rl0, %nv00
  %colm00 = add <8 x i32> %cv0, %r0
  %i00 = select i1 %flag, <8 x i32> %colm00, <8 x i32> %rowm00
  %e00 = sext <8 x i32> %i00 to <8 x i64>
  %p00 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e00
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val00, <8 x ptr addrspace(1)> %p00, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val01 = fmul <8 x float> %acc, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %nn01 = add i32 %n, 1
  %ns01 = insertelement <8 x i32> poison, i32 %nn01, i64 0
  %nv01 = shufflevector <8 x i32> %ns01, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm01 = add nsw <8 x i32> %rl0, %nv01
  %colm01 = add <8 x i32> %cv1, %r0
  %i01 = select i1 %flag, <8 x i32> %colm01, <8 x i32> %rowm01
  %e01 = sext <8 x i32> %i01 to <8 x i64>
  %p01 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e01
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val01, <8 x ptr addrspace(1)> %p01, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %x = load volatile float, ptr addrspace(1) %c, align 4
  %val02 = fmul <8 x float> %acc, <float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0>
  %nn02 = add i32 %n, 2
  %ns02 = insertelement <8 x i32> poison, i32 %nn02, i64 0
  %nv02 = shufflevector <8 x i32> %ns02, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm02 = add nsw <8 x i32> %rl0, %nv02
  %colm02 = add <8 x i32> %cv2, %r0
  %i02 = select i1 %flag, <8 x i32> %colm02, <8 x i32> %rowm02
  %e02 = sext <8 x i32> %i02 to <8 x i64>
  %p02 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e02
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val02, <8 x ptr addrspace(1)> %p02, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %val03 = fmul <8 x float> %acc, <float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0>
  %nn03 = add i32 %n, 3
  %ns03 = insertelement <8 x i32> poison, i32 %nn03, i64 0
  %nv03 = shufflevector <8 x i32> %ns03, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowm03 = add nsw <8 x i32> %rl0, %nv03
  %colm03 = add <8 x i32> %cv3, %r0
  %i03 = select i1 %flag, <8 x i32> %colm03, <8 x i32> %rowm03
  %e03 = sext <8 x i32> %i03 to <8 x i64>
  %p03 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %e03
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %val03, <8 x ptr addrspace(1)> %p03, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  ret void
}

define void @sunk(ptr addrspace(1) %c, i32 %ldc, i32 %m, i32 %n, i32 %t, <8 x float> %acc, i1 %b) {
entry:
  %flag = icmp eq i32 %t, 0
  %ms = insertelement <8 x i32> poison, i32 %m, i64 0
  %mv = shufflevector <8 x i32> %ms, <8 x i32> poison, <8 x i32> zeroinitializer
  %idm = add <8 x i32> %mv, <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %ls = insertelement <8 x i32> poison, i32 %ldc, i64 0
  %ldv = shufflevector <8 x i32> %ls, <8 x i32> poison, <8 x i32> zeroinitializer
  %r0 = add <8 x i32> %idm, <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %rl0 = mul <8 x i32> %r0, %ldv
  %r1 = add <8 x i32> %idm, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %rl1 = mul <8 x i32> %r1, %ldv
  %cn0 = add i32 %n, 0
  %cl0 = mul i32 %cn0, %ldc
  %cs0 = insertelement <8 x i32> poison, i32 %cl0, i64 0
  %cv0 = shufflevector <8 x i32> %cs0, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn1 = add i32 %n, 1
  %cl1 = mul i32 %cn1, %ldc
  %cs1 = insertelement <8 x i32> poison, i32 %cl1, i64 0
  %cv1 = shufflevector <8 x i32> %cs1, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn2 = add i32 %n, 2
  %cl2 = mul i32 %cn2, %ldc
  %cs2 = insertelement <8 x i32> poison, i32 %cl2, i64 0
  %cv2 = shufflevector <8 x i32> %cs2, <8 x i32> poison, <8 x i32> zeroinitializer
  %cn3 = add i32 %n, 3
  %cl3 = mul i32 %cn3, %ldc
  %cs3 = insertelement <8 x i32> poison, i32 %cl3, i64 0
  %cv3 = shufflevector <8 x i32> %cs3, <8 x i32> poison, <8 x i32> zeroinitializer
  br i1 %b, label %one, label %two

one:
  %vala00 = fmul <8 x float> %acc, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %nna00 = add i32 %n, 0
  %nsa00 = insertelement <8 x i32> poison, i32 %nna00, i64 0
  %nva00 = shufflevector <8 x i32> %nsa00, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowma00 = add nsw <8 x i32> %rl0, %nva00
  %colma00 = add <8 x i32> %cv0, %r0
  %ia00 = select i1 %flag, <8 x i32> %colma00, <8 x i32> %rowma00
  %ea00 = sext <8 x i32> %ia00 to <8 x i64>
  %pa00 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %ea00
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %vala00, <8 x ptr addrspace(1)> %pa00, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %vala01 = fmul <8 x float> %acc, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %nna01 = add i32 %n, 1
  %nsa01 = insertelement <8 x i32> poison, i32 %nna01, i64 0
  %nva01 = shufflevector <8 x i32> %nsa01, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowma01 = add nsw <8 x i32> %rl0, %nva01
  %colma01 = add <8 x i32> %cv1, %r0
  %ia01 = select i1 %flag, <8 x i32> %colma01, <8 x i32> %rowma01
  %ea01 = sext <8 x i32> %ia01 to <8 x i64>
  %pa01 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %ea01
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %vala01, <8 x ptr addrspace(1)> %pa01, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %vala02 = fmul <8 x float> %acc, <float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0>
  %nna02 = add i32 %n, 2
  %nsa02 = insertelement <8 x i32> poison, i32 %nna02, i64 0
  %nva02 = shufflevector <8 x i32> %nsa02, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowma02 = add nsw <8 x i32> %rl0, %nva02
  %colma02 = add <8 x i32> %cv2, %r0
  %ia02 = select i1 %flag, <8 x i32> %colma02, <8 x i32> %rowma02
  %ea02 = sext <8 x i32> %ia02 to <8 x i64>
  %pa02 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %ea02
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %vala02, <8 x ptr addrspace(1)> %pa02, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %vala03 = fmul <8 x float> %acc, <float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0>
  %nna03 = add i32 %n, 3
  %nsa03 = insertelement <8 x i32> poison, i32 %nna03, i64 0
  %nva03 = shufflevector <8 x i32> %nsa03, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowma03 = add nsw <8 x i32> %rl0, %nva03
  %colma03 = add <8 x i32> %cv3, %r0
  %ia03 = select i1 %flag, <8 x i32> %colma03, <8 x i32> %rowma03
  %ea03 = sext <8 x i32> %ia03 to <8 x i64>
  %pa03 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %ea03
  br label %join

two:
  %valb00 = fmul <8 x float> %acc, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  %nnb00 = add i32 %n, 0
  %nsb00 = insertelement <8 x i32> poison, i32 %nnb00, i64 0
  %nvb00 = shufflevector <8 x i32> %nsb00, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowmb00 = add nsw <8 x i32> %rl0, %nvb00
  %colmb00 = add <8 x i32> %cv0, %r0
  %ib00 = select i1 %flag, <8 x i32> %colmb00, <8 x i32> %rowmb00
  %eb00 = sext <8 x i32> %ib00 to <8 x i64>
  %pb00 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %eb00
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %valb00, <8 x ptr addrspace(1)> %pb00, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %valb01 = fmul <8 x float> %acc, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %nnb01 = add i32 %n, 1
  %nsb01 = insertelement <8 x i32> poison, i32 %nnb01, i64 0
  %nvb01 = shufflevector <8 x i32> %nsb01, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowmb01 = add nsw <8 x i32> %rl0, %nvb01
  %colmb01 = add <8 x i32> %cv1, %r0
  %ib01 = select i1 %flag, <8 x i32> %colmb01, <8 x i32> %rowmb01
  %eb01 = sext <8 x i32> %ib01 to <8 x i64>
  %pb01 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %eb01
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %valb01, <8 x ptr addrspace(1)> %pb01, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %valb02 = fmul <8 x float> %acc, <float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0, float 3.0>
  %nnb02 = add i32 %n, 2
  %nsb02 = insertelement <8 x i32> poison, i32 %nnb02, i64 0
  %nvb02 = shufflevector <8 x i32> %nsb02, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowmb02 = add nsw <8 x i32> %rl0, %nvb02
  %colmb02 = add <8 x i32> %cv2, %r0
  %ib02 = select i1 %flag, <8 x i32> %colmb02, <8 x i32> %rowmb02
  %eb02 = sext <8 x i32> %ib02 to <8 x i64>
  %pb02 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %eb02
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %valb02, <8 x ptr addrspace(1)> %pb02, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  %valb03 = fmul <8 x float> %acc, <float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0, float 4.0>
  %nnb03 = add i32 %n, 3
  %nsb03 = insertelement <8 x i32> poison, i32 %nnb03, i64 0
  %nvb03 = shufflevector <8 x i32> %nsb03, <8 x i32> poison, <8 x i32> zeroinitializer
  %rowmb03 = add nsw <8 x i32> %rl0, %nvb03
  %colmb03 = add <8 x i32> %cv3, %r0
  %ib03 = select i1 %flag, <8 x i32> %colmb03, <8 x i32> %rowmb03
  %eb03 = sext <8 x i32> %ib03 to <8 x i64>
  %pb03 = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %eb03
  br label %join

join:
  %jv = phi <8 x float> [ %vala03, %one ], [ %valb03, %two ]
  %ji = phi <8 x i32> [ %ia03, %one ], [ %ib03, %two ]
  %je = sext <8 x i32> %ji to <8 x i64>
  %jp = getelementptr inbounds float, ptr addrspace(1) %c, <8 x i64> %je
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %jv, <8 x ptr addrspace(1)> %jp, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !llvm.access.group !0
  ret void
}

declare void @llvm.masked.scatter.v8f32.v8p1(<8 x float>, <8 x ptr addrspace(1)>, i32 immarg, <8 x i1>)

!0 = distinct !{}
