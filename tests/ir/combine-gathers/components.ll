; The four components of a float4 read by 16 work-items: four gathers from
; one vector of pointers, at byte offsets 0, 4, 8 and 12 (vectorize/gather_groups.c).
; At the first, a run time test that the lanes are 16 bytes apart; then four
; whole <16 x float> loads from lane 0's address and two rounds of even/odd
; shuffles; otherwise the gathers, marked so they are not looked at again;
; phis join them and replace the originals.
;  - @apart: a store between two members: nothing changes (a load must not
;    pass it);
;  - @three: offsets 0, 4, 8 only, no power of two: nothing changes.
; Before, clpeak's float16 kernel read memory at 60% of the float kernel's speed.
; RUN: -passes=combine-gathers

; CHECK-LABEL: define void @four(
; CHECK: %p0 = extractelement <16 x ptr addrspace(1)> %p, i64 0
; CHECK: %gathers_whole = icmp eq i16 %{{.*}}, -1
; CHECK-NEXT: br i1 %gathers_whole, label %gathers.whole, label %gathers.apart
; CHECK: gathers.whole:
; CHECK-COUNT-4: load <16 x float>, ptr addrspace(1) %{{.*}}, align 4
; CHECK-COUNT-4: shufflevector <16 x float>
; CHECK: gathers.apart:
; CHECK-COUNT-4: call <16 x float> @llvm.masked.gather.v16f32.v16p1({{.*}}), !loom.gathers.apart
; CHECK: %component = phi <16 x float>
; CHECK: %s01 = fadd <16 x float> %component, %component{{[0-9]+}}
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void

; CHECK-LABEL: define void @apart(
; CHECK-NOT: gathers.whole
; CHECK: ret void
; CHECK-LABEL: define void @three(
; CHECK-NOT: gathers.whole
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @four(<16 x ptr addrspace(1)> %p, ptr addrspace(1) %out) {
entry:
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 16, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p1 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 4
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p1, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p2 = getelementptr float, <16 x ptr addrspace(1)> %p, i64 2
  %g2 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p2, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p3 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 12
  %g3 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p3, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s01 = fadd <16 x float> %g0, %g1
  %s23 = fadd <16 x float> %g2, %g3
  %s = fadd <16 x float> %s01, %s23
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @apart(<16 x ptr addrspace(1)> %p, ptr addrspace(1) %out) {
entry:
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  store <16 x float> %g0, ptr addrspace(1) %out, align 4
  %p1 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 4
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p1, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s = fadd <16 x float> %g0, %g1
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @three(<16 x ptr addrspace(1)> %p, ptr addrspace(1) %out) {
entry:
  %g0 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 16, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p1 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 4
  %g1 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p1, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %p2 = getelementptr i8, <16 x ptr addrspace(1)> %p, i64 8
  %g2 = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p2, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  %s01 = fadd <16 x float> %g0, %g1
  %s = fadd <16 x float> %s01, %g2
  store <16 x float> %s, ptr addrspace(1) %out, align 4
  ret void
}

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
