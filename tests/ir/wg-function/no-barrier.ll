; The work-group function of a kernel without barriers (OpenCL C:
; y[gid] = a * x[gid]): "scale.loom_wg"(args, ctx, local memory, scratch)
; loads the kernel's arguments from the argument block and the sizes from
; the context, and runs one region, the kernel's body inlined into three
; nested work-item loops (wi_z, wi_y, wi_x); the innermost loop carries
; llvm.loop.parallel_accesses naming the access group of every memory
; access in it, so that the loop vectoriser widens it across work-items.
; The work-item queries are resolved (the local id is the loop variable) and
; the kernel itself becomes internal. The preferred vector width is the
; target's widest vector (-mattr pins it: 512 bits with AVX-512, 256 with
; AVX2).
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl
; RUN: -passes=wg-function -mattr=+avx2,+fma | --check-prefix=AVX2

; CHECK-LABEL: define internal void @scale(
; CHECK: define void @scale.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #[[WG:[0-9]+]] {
; CHECK-NOT: __loom_wi
; CHECK: %lsize = load i64
; CHECK: %arg = load ptr addrspace(1), ptr
; CHECK: %arg3 = load ptr addrspace(1), ptr
; CHECK: %arg4 = load float, ptr
; CHECK: dispatch:
; CHECK-NEXT: %[[NEXT:.*]] = load i32, ptr %next
; CHECK-NEXT: switch i32 %[[NEXT]], label %done [
; CHECK-NEXT: i32 0, label %region
; CHECK-NEXT: ]
; CHECK: wi_z:
; CHECK: wi_y:
; CHECK: wi_x:
; CHECK-NEXT: %lx = phi i64 [ 0, %wi_y ], [ %[[LX1:.*]], %wi_x ]
; CHECK-NOT: __loom_wi
; CHECK: load float, ptr addrspace(1) %{{.*}}, !llvm.access.group ![[AG:[0-9]+]]
; CHECK: fmul float %{{.*}}, %arg4
; CHECK: store float %{{.*}}, ptr addrspace(1) %{{.*}}, !llvm.access.group ![[AG]]
; CHECK: %[[LX1]] = add i64 %lx, 1
; CHECK-NEXT: %[[MORE:.*]] = icmp ult i64 %[[LX1]], %lsize
; CHECK-NEXT: br i1 %[[MORE]], label %wi_x, label %wi_y_latch, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-NOT: __loom_wi
; CHECK: attributes #[[WG]] = { nounwind "prefer-vector-width"="512"
; CHECK-DAG: ![[AG]] = distinct !{}
; CHECK-DAG: ![[LOOP]] = distinct !{![[LOOP]], ![[PA:[0-9]+]]}
; CHECK-DAG: ![[PA]] = !{!"llvm.loop.parallel_accesses", ![[AG]]}

; AVX2: define void @scale.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #[[WG:[0-9]+]] {
; AVX2: attributes #[[WG]] = { nounwind "prefer-vector-width"="256"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @scale(ptr addrspace(1) align 4 %x, ptr addrspace(1) align 4 %y, float %a) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %b.l = add i64 %base, %lid
  %offset = call i64 @__loom_wi(i32 3, i32 0)
  %gid = add i64 %b.l, %offset
  %p.x = getelementptr inbounds float, ptr addrspace(1) %x, i64 %gid
  %vx = load float, ptr addrspace(1) %p.x, align 4
  %ax = fmul float %vx, %a
  %p.y = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %ax, ptr addrspace(1) %p.y, align 4
  ret void
}

declare i64 @__loom_wi(i32, i32) #1

; "loom-wg-slots": what wg-barriers decided (no barrier, no slots)
attributes #0 = { alwaysinline convergent norecurse nounwind "loom-wg-slots"="0 0 0 0 0 0" }
attributes #1 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 1, i32 0}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"float*", !"float*", !"float"}
!3 = !{!"const", !"", !""}
