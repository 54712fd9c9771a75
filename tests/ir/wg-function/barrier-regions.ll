; A kernel with one barrier has two regions (OpenCL C:
;   float v = io[gid]; t[l] = v; barrier(...); io[gid] = v - t[lsize - 1 - l];)
; "swap.loom_wg" dispatches on the next region to run (0, then 1); each
; region is its own work-item loop nest with its own parallel-loop
; metadata, and the first one sets the next region to 1 (the barrier's
; id), the last one to -1 (done). As each always leaves for the same later
; region (or the end), its nest branches there directly. v, kept in a per-work-item slot by
; wg-barriers ("loom-wg-slots"="1 4 ..."), is stored to and loaded from
; scratch (the fourth parameter) at the work-item's linear id * 4; the
; __local argument is an offset into the group's local memory (the third
; parameter). No placeholder (__loom_wi, __loom_slot, __loom_barrier_id)
; remains in the work-group function.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define internal void @swap(
; CHECK: define void @swap.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3)
; CHECK-NOT: __loom_
; CHECK: %arg = load ptr addrspace(1), ptr
; CHECK: %local_off = load i64, ptr
; CHECK-NEXT: %[[LOCAL:.*]] = getelementptr i8, ptr %2, i64 %local_off
; CHECK-NEXT: %local_arg = addrspacecast ptr %[[LOCAL]] to ptr addrspace(3)
; CHECK: dispatch:
; CHECK-NEXT: %[[NEXT:.*]] = load i32, ptr %next
; CHECK-NEXT: switch i32 %[[NEXT]], label %done [
; CHECK-NEXT: i32 0, label %[[R0:region[0-9]*]]
; CHECK-NEXT: i32 1, label %[[R1:region[0-9]*]]
; CHECK-NEXT: ]
; CHECK: [[R0]]:
; CHECK-NEXT: br label %wi_z
; CHECK: [[R1]]:
; CHECK-NEXT: br label %[[Z1:wi_z[0-9]+]]
; region 0: the store before the barrier, v into its slot
; CHECK: %lx = phi i64
; CHECK: %linear = add i64 %row, %lx
; CHECK: %[[V:.*]] = load float, ptr addrspace(1) {{.*}}, !llvm.access.group ![[AG0:[0-9]+]]
; CHECK: %[[AREA0:.*]] = getelementptr i8, ptr %3, i64
; CHECK-NEXT: %[[OFF0:.*]] = mul i64 %linear, 4
; CHECK-NEXT: %[[SLOT0:.*]] = getelementptr i8, ptr %[[AREA0]], i64 %[[OFF0]]
; CHECK-NEXT: store float %[[V]], ptr %[[SLOT0]], align 4, !llvm.access.group ![[AG0]]
; CHECK: store float %[[V]], ptr addrspace(3) {{.*}}, !llvm.access.group ![[AG0]]
; CHECK: store i32 1, ptr %next
; CHECK: br i1 %{{.*}}, label %wi_x, label %wi_y_latch, !llvm.loop ![[LOOP0:[0-9]+]]
; CHECK: wi_z_latch:
; CHECK: br i1 %{{.*}}, label %wi_z, label %[[R1]]
; region 1: after the barrier, v back from its slot
; CHECK: [[Z1]]:
; CHECK: %[[LINEAR1:.*]] = add i64 %row{{[0-9]+}}, %lx{{[0-9]+}}
; CHECK: %[[AREA1:.*]] = getelementptr i8, ptr %3, i64
; CHECK-NEXT: %[[OFF1:.*]] = mul i64 %[[LINEAR1]], 4
; CHECK-NEXT: %[[SLOT1:.*]] = getelementptr i8, ptr %[[AREA1]], i64 %[[OFF1]]
; CHECK-NEXT: %[[LIVE:.*]] = load float, ptr %[[SLOT1]], align 4, !llvm.access.group ![[AG1:[0-9]+]]
; CHECK-NEXT: fsub float %[[LIVE]],
; CHECK: store i32 -1, ptr %next
; CHECK: br i1 %{{.*}}, label %wi_x{{[0-9]+}}, label %wi_y_latch{{[0-9]+}}, !llvm.loop ![[LOOP1:[0-9]+]]
; CHECK: br i1 %{{.*}}, label %[[Z1]], label %done
; CHECK-NOT: __loom_
; CHECK: }
; CHECK-DAG: ![[LOOP0]] = distinct !{![[LOOP0]], ![[PA0:[0-9]+]]}
; CHECK-DAG: ![[PA0]] = !{!"llvm.loop.parallel_accesses", ![[AG0]]}
; CHECK-DAG: ![[LOOP1]] = distinct !{![[LOOP1]], ![[PA1:[0-9]+]]}
; CHECK-DAG: ![[PA1]] = !{!"llvm.loop.parallel_accesses", ![[AG1]]}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; wg-barriers' output for the kernel above
define void @swap(ptr addrspace(1) align 4 %io, ptr addrspace(3) align 4 %t) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %p.io = getelementptr float, ptr addrspace(1) %io, i64 %base
  %p.io1 = getelementptr float, ptr addrspace(1) %p.io, i64 %lid
  %v = load float, ptr addrspace(1) %p.io1, align 4
  %slot = call ptr @__loom_slot(i64 0, i64 4)
  store float %v, ptr %slot, align 4
  %p.t = getelementptr inbounds float, ptr addrspace(3) %t, i64 %lid
  store float %v, ptr addrspace(3) %p.t, align 4
  br label %barrier

barrier:
  call void @__loom_barrier_id(i32 1)
  br label %after

after:
  %lsize1 = call i64 @__loom_wi(i32 1, i32 0)
  %lid1 = call i64 @__loom_wi(i32 7, i32 0)
  %rev = xor i64 %lid1, -1
  %p.t1 = getelementptr float, ptr addrspace(3) %t, i64 %lsize1
  %p.t2 = getelementptr float, ptr addrspace(3) %p.t1, i64 %rev
  %w = load float, ptr addrspace(3) %p.t2, align 4
  %slot1 = call ptr @__loom_slot(i64 0, i64 4)
  %live = load float, ptr %slot1, align 4
  %d = fsub float %live, %w
  %lsize2 = call i64 @__loom_wi(i32 2, i32 0)
  %group2 = call i64 @__loom_wi(i32 0, i32 0)
  %base2 = mul i64 %lsize2, %group2
  %q.io = getelementptr float, ptr addrspace(1) %io, i64 %base2
  %lid2 = call i64 @__loom_wi(i32 7, i32 0)
  %q.io1 = getelementptr float, ptr addrspace(1) %q.io, i64 %lid2
  store float %d, ptr addrspace(1) %q.io1, align 4
  ret void
}

declare i64 @__loom_wi(i32, i32) #1
declare ptr @__loom_slot(i64, i64)
declare void @__loom_barrier_id(i32)

attributes #0 = { alwaysinline convergent norecurse nounwind "loom-wg-slots"="1 4 0 0 0 0" }
attributes #1 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 3}
!1 = !{!"none", !"none"}
!2 = !{!"float*", !"float*"}
!3 = !{!"", !""}
