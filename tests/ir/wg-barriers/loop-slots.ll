; Barriers inside a loop, values live across them. OpenCL C:
;   float v = in[gid];
;   for (int i = 0; i < 4; i++) {
;     tmp[lid] = v; barrier(...); v += tmp[(lid + 1) % lsize]; barrier(...);
;   }
;   out[gid] = v;
; Checks: each barrier becomes a block of its own holding
; __loom_barrier_id(1) and (2); v, different in every work-item, goes
; through per-work-item slots (__loom_slot) across both barriers; the loop
; counter, the same in every work-item, goes to the group-uniform area
; (__loom_uslot, read back through __loom_uvar); the layout is recorded in
; the kernel's "loom-wg-slots" attribute (2 barriers, 8 bytes per item,
; 4 uniform bytes) and in the kernel metadata; the global id, an
; expression of work-item queries, is recomputed after the barriers.
; RUN: -passes=wg-barriers -print-meta

; CHECK: ; loom-meta: kernel slots {{.*}} barriers=2 scratch_per_item=8
; CHECK-LABEL: define void @slots(
; CHECK: for.cond:
; CHECK: %v = phi float
; CHECK: %i = phi i32
; CHECK: call ptr @__loom_uslot(i64 0, i64 4)
; CHECK: store i32 %i
; CHECK: %[[S0:.*]] = call ptr @__loom_slot(i64 0, i64 4)
; CHECK-NEXT: store float %v, ptr %[[S0]]
; CHECK: call void @__loom_barrier_id(i32 1)
; CHECK-NEXT: br label
; CHECK: %[[S1:.*]] = call ptr @__loom_slot(i64 0, i64 4)
; CHECK-NEXT: %[[LIVE:.*]] = load float, ptr %[[S1]]
; CHECK-NEXT: fadd float %[[LIVE]],
; CHECK: call void @__loom_barrier_id(i32 2)
; CHECK-NEXT: br label
; CHECK: call ptr @__loom_uvar(i64 0, i64 4)
; gid, made of work-item queries, is recomputed after the barriers
; CHECK: for.end:
; CHECK-NOT: __loom_slot
; CHECK: call i64 @__loom_wi(i32 7, i32 0)
; CHECK-NOT: __loom_slot
; CHECK: store float %v.lcssa
; CHECK-NEXT: ret void
; CHECK-NOT: call void @__loom_barrier()
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"loom-wg-slots"="2 8 4 0 0 0 0"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @slots(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(3) %tmp) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %gid = add i64 %base, %lid
  %p.in = getelementptr float, ptr addrspace(1) %in, i64 %gid
  %x = load float, ptr addrspace(1) %p.in, align 4
  br label %for.cond

for.cond:
  %v = phi float [ %x, %entry ], [ %v.next, %for.body ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
  %more = icmp ult i32 %i, 4
  br i1 %more, label %for.body, label %for.end

for.body:
  %lid1 = call i64 @__loom_wi(i32 7, i32 0)
  %p.tmp = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %lid1
  store float %v, ptr addrspace(3) %p.tmp, align 4
  call void @__loom_barrier()
  %lid2 = call i64 @__loom_wi(i32 7, i32 0)
  %next = add i64 %lid2, 1
  %lsize2 = call i64 @__loom_wi(i32 1, i32 0)
  %nb = urem i64 %next, %lsize2
  %p.nb = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %nb
  %y = load float, ptr addrspace(3) %p.nb, align 4
  %v.next = fadd float %v, %y
  call void @__loom_barrier()
  %i.next = add nuw nsw i32 %i, 1
  br label %for.cond

for.end:
  %v.lcssa = phi float [ %v, %for.cond ]
  %p.out = getelementptr float, ptr addrspace(1) %out, i64 %gid
  store float %v.lcssa, ptr addrspace(1) %p.out, align 4
  ret void
}

declare void @__loom_barrier() #1
declare i64 @__loom_wi(i32, i32) #2

attributes #0 = { convergent norecurse nounwind }
attributes #1 = { convergent noduplicate nounwind }
attributes #2 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 1, i32 3}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"float*", !"float*", !"float*"}
!3 = !{!"const", !"", !""}
