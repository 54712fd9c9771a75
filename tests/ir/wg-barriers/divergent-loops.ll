; A loop whose trip count differs between work-items (OpenCL C:
;   for (int k = 0; k < n[gid]; k++) x = x * 0.5f + 1.0f;)
; runs a block of iterations per pass over the work-group in a kernel
; without barriers: wg-barriers puts convergence points at its header and
; exit (barrier ids 1 and 2), unrolls its body and records the loop in
; "loom-wg-slots" (1 loop, header 1, exit 2). In a kernel with a barrier of
; its own the same loop stays as it is: guards e856925 (convergence points
; among barriers multiplied the code and the compile time).
; RUN: -passes=wg-barriers -print-meta

; CHECK: ; loom-meta: kernel walk {{.*}} barriers=2 {{.*}} divergent_loops=1
; CHECK: ; loom-meta: kernel walk_bar {{.*}} barriers=1 {{.*}} divergent_loops=0
; CHECK-LABEL: define void @walk(
; CHECK: call void @__loom_barrier_id(i32 1)
; CHECK: unrolled1:
; CHECK: call void @__loom_barrier_id(i32 2)
; CHECK: ret void
; CHECK-LABEL: define void @walk_bar(
; CHECK-NOT: unrolled
; CHECK: call void @__loom_barrier_id(i32 1)
; CHECK-NOT: __loom_barrier_id
; CHECK-NOT: unrolled
; CHECK: ret void
; CHECK-DAG: "loom-wg-slots"="2 16 0 0 0 1 1:2 0"
; CHECK-DAG: "loom-wg-slots"="1 0 0 0 0 0 0"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @walk(ptr addrspace(1) %n, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %gid = add i64 %base, %lid
  br label %for.cond

for.cond:
  %x = phi float [ 0.000000e+00, %entry ], [ %x.next, %for.body ]
  %k = phi i32 [ 0, %entry ], [ %k.next, %for.body ]
  %p.n = getelementptr inbounds i32, ptr addrspace(1) %n, i64 %gid
  %count = load i32, ptr addrspace(1) %p.n, align 4
  %more = icmp slt i32 %k, %count
  br i1 %more, label %for.body, label %for.end

for.body:
  %x.next = call float @llvm.fmuladd.f32(float %x, float 5.000000e-01, float 1.000000e+00)
  %k.next = add nuw nsw i32 %k, 1
  br label %for.cond

for.end:
  %x.lcssa = phi float [ %x, %for.cond ]
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %x.lcssa, ptr addrspace(1) %p.out, align 4
  ret void
}

define void @walk_bar(ptr addrspace(1) %n, ptr addrspace(1) %out, ptr addrspace(3) %t) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %gid = add i64 %base, %lid
  br label %for.cond

for.cond:
  %x = phi float [ 0.000000e+00, %entry ], [ %x.next, %for.body ]
  %k = phi i32 [ 0, %entry ], [ %k.next, %for.body ]
  %p.n = getelementptr inbounds i32, ptr addrspace(1) %n, i64 %gid
  %count = load i32, ptr addrspace(1) %p.n, align 4
  %more = icmp slt i32 %k, %count
  br i1 %more, label %for.body, label %for.end

for.body:
  %x.next = call float @llvm.fmuladd.f32(float %x, float 5.000000e-01, float 1.000000e+00)
  %k.next = add nuw nsw i32 %k, 1
  br label %for.cond

for.end:
  %x.lcssa = phi float [ %x, %for.cond ]
  %p.t = getelementptr inbounds float, ptr addrspace(3) %t, i64 %lid
  store float %x.lcssa, ptr addrspace(3) %p.t, align 4
  call void @__loom_barrier()
  %t0 = load float, ptr addrspace(3) %t, align 4
  %p.out = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %t0, ptr addrspace(1) %p.out, align 4
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
declare void @__loom_barrier() #1
declare i64 @__loom_wi(i32, i32) #2

attributes #0 = { convergent norecurse nounwind }
attributes #1 = { convergent noduplicate nounwind }
attributes #2 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 1}
!1 = !{!"none", !"none"}
!2 = !{!"int*", !"float*"}
!3 = !{!"const", !""}
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"int*", !"float*", !"float*"}
!7 = !{!"const", !"", !""}
