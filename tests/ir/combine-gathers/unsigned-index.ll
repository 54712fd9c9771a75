; The four components of a float4 in local memory read by 8 work-items at
; a[x], x an unsigned 32-bit index (a local id's arithmetic, which
; workgroup/id_ranges.c makes unsigned; CLBlast's tile of A: `alm[k * 8 +
; lid]`), zero-extended for the address: the lanes are 16 bytes apart exactly
; when lane 0's index is at most UINT_MAX - 7, so that no later lane wraps:
; one unsigned scalar compare (vectorize/gather_groups.c, wrap_test), where
; the general test compared 8 addresses. Component 0 is used only by a
; shuffle that copies it into both halves of a 16-lane register (jam-rows'
; packed rows): the shuffle goes onto each path, so that on the fast one the
; code generator merges it into the permutation that makes the column.
;  - @signed: the same index sign-extended: the signed test, lane 0 at most
;    INT_MAX - 7.
; RUN: -passes=combine-gathers

; CHECK-LABEL: define void @unsigned(
; CHECK: %[[X0:.*]] = add i32 %u, 0
; CHECK: %gathers_whole = icmp ule i32 %[[X0]], -8
; CHECK-NEXT: br i1 %gathers_whole, label %gathers.whole, label %gathers.apart
; CHECK: gathers.whole:
; CHECK: %[[C0:.*]] = shufflevector <16 x float> %{{.*}}, <16 x float> %{{.*}}, <8 x i32> <i32 0, i32 4, i32 8,
; CHECK: %[[F:.*]] = shufflevector <8 x float> %[[C0]], <8 x float> %[[C0]], <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: br label
; CHECK: gathers.apart:
; CHECK: %[[G0:.*]] = call <8 x float> @llvm.masked.gather.v8f32.v8p3({{.*}}), !loom.gathers.apart
; CHECK: %[[S:.*]] = shufflevector <8 x float> %[[G0]], <8 x float> %[[G0]], <16 x i32> <i32 0, i32 1,
; CHECK-NEXT: br label
; CHECK: %component.shuffled = phi <16 x float> [ %[[F]], %gathers.whole ], [ %[[S]], %gathers.apart ]
; CHECK: %w = fmul <16 x float> %component.shuffled, %b
; CHECK-NOT: %d0 =
; CHECK: ret void

; CHECK-LABEL: define void @signed(
; CHECK: %gathers_whole = icmp sle i32 %{{.*}}, 2147483640
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
define void @unsigned(ptr addrspace(3) %a, i32 %u, <16 x float> %b, ptr %out) #0 {
entry:
  %u.i = insertelement <8 x i32> poison, i32 %u, i64 0
  %u.s = shufflevector <8 x i32> %u.i, <8 x i32> poison, <8 x i32> zeroinitializer
  %x = add nuw <8 x i32> %u.s, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %xi = zext nneg <8 x i32> %x to <8 x i64>
  %p = getelementptr inbounds <4 x float>, ptr addrspace(3) %a, <8 x i64> %xi
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 8
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p3 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 12
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %d0 = shufflevector <8 x float> %g0, <8 x float> %g0, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %w = fmul <16 x float> %d0, %b
  store <16 x float> %w, ptr %out, align 4
  %s1 = fadd <8 x float> %g1, %g2
  %s = fadd <8 x float> %s1, %g3
  %o2 = getelementptr i8, ptr %out, i64 64
  store <8 x float> %s, ptr %o2, align 4
  ret void
}

define void @signed(ptr addrspace(3) %a, i32 %u, <16 x float> %b, ptr %out) #0 {
entry:
  %u.i = insertelement <8 x i32> poison, i32 %u, i64 0
  %u.s = shufflevector <8 x i32> %u.i, <8 x i32> poison, <8 x i32> zeroinitializer
  %x = add nsw <8 x i32> %u.s, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %xi = sext <8 x i32> %x to <8 x i64>
  %p = getelementptr inbounds <4 x float>, ptr addrspace(3) %a, <8 x i64> %xi
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p, i32 16, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p1 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 4
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 8
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 8, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p3 = getelementptr i8, <8 x ptr addrspace(3)> %p, i64 12
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %d0 = shufflevector <8 x float> %g0, <8 x float> %g0, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %w = fmul <16 x float> %d0, %b
  store <16 x float> %w, ptr %out, align 4
  %s1 = fadd <8 x float> %g1, %g2
  %s = fadd <8 x float> %s1, %g3
  %o2 = getelementptr i8, ptr %out, i64 64
  store <8 x float> %s, ptr %o2, align 4
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32, <8 x i1>, <8 x float>)

attributes #0 = { nounwind "prefer-vector-width"="512" }
