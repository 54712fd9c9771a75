; The four components of a float4 written by 8 work-items to __local
; memory: four scatters through one vector of pointers, at byte offsets 0,
; 4, 8 and 12 (vectorize/scatter_groups.c). At the last, a run time test
; that the lanes are 16 bytes apart; then two rounds of interleaving
; shuffles and four whole <8 x float> stores from lane 0's address;
; otherwise the scatters, marked so they are not looked at again.
;  - @apart: a load between two members: nothing changes (the store to the
;    first member's address must not pass it);
;  - @three: offsets 0, 4, 8 only, no power of two: nothing changes.
; Before, CLBlast's Xgemm spent a third of its time on AMD Zen 5 in such
; scatters (its tiles of A and B copied into local memory as float4).
; RUN: -passes=combine-scatters

; CHECK-LABEL: define void @four(
; CHECK: %p0 = extractelement <8 x ptr addrspace(3)> %p, i64 0
; CHECK: %gathers_whole = icmp eq i8 %{{.*}}, -1
; CHECK-NEXT: br i1 %gathers_whole, label %scatters.whole, label %scatters.apart
; CHECK: scatters.whole:
; CHECK: %zip.lo = shufflevector <8 x float> %v0, <8 x float> %v2, <8 x i32> <i32 0, i32 8, i32 1, i32 9, i32 2, i32 10, i32 3, i32 11>
; CHECK: %zip.lo{{[0-9]+}} = shufflevector <8 x float> %v1, <8 x float> %v3, <8 x i32> <i32 0, i32 8, i32 1, i32 9, i32 2, i32 10, i32 3, i32 11>
; CHECK-COUNT-4: store <8 x float> %zip.{{.*}}, ptr addrspace(3) %{{.*}}, align 4, !tbaa
; CHECK: scatters.apart:
; CHECK-COUNT-4: call void @llvm.masked.scatter.v8f32.v8p3({{.*}}), !tbaa !{{[0-9]+}}, !loom.scatters.apart
; CHECK: ret void

; CHECK-LABEL: define void @apart(
; CHECK-NOT: scatters.whole
; CHECK: ret void
; CHECK-LABEL: define void @three(
; CHECK-NOT: scatters.whole
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @four(<8 x ptr addrspace(3)> %p, <8 x float> %v0, <8 x float> %v1, <8 x float> %v2, <8 x float> %v3, ptr addrspace(3) %q, ptr addrspace(1) %out) {
entry:
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v0, <8 x ptr addrspace(3)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p1 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 4
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v1, <8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p2 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 8
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v2, <8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p3 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 12
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v3, <8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  ret void
}

define void @apart(<8 x ptr addrspace(3)> %p, <8 x float> %v0, <8 x float> %v1, <8 x float> %v2, <8 x float> %v3, ptr addrspace(3) %q, ptr addrspace(1) %out) {
entry:
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v0, <8 x ptr addrspace(3)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p1 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 4
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v1, <8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %x = load float, ptr addrspace(3) %q, align 4
  store float %x, ptr addrspace(1) %out, align 4
  %p2 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 8
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v2, <8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p3 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 12
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v3, <8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  ret void
}

define void @three(<8 x ptr addrspace(3)> %p, <8 x float> %v0, <8 x float> %v1, <8 x float> %v2, <8 x float> %v3, ptr addrspace(3) %q, ptr addrspace(1) %out) {
entry:
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v0, <8 x ptr addrspace(3)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p1 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 4
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v1, <8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  %p2 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 8
  call void @llvm.masked.scatter.v8f32.v8p3(<8 x float> %v2, <8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  ret void
}

declare void @llvm.masked.scatter.v8f32.v8p3(<8 x float>, <8 x ptr addrspace(3)>, i32 immarg, <8 x i1>)

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
