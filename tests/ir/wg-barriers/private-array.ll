; A private array (an alloca SROA could not split: it is indexed by a
; loaded value) used on both sides of a barrier becomes a per-work-item
; slot of 32 bytes: every use of the alloca goes through __loom_slot, and
; the alloca and its lifetime markers are gone. OpenCL C:
;   int a[8]; for (k < 8) a[k] = in[l * 8 + k];
;   t[l] = a[in[l] & 7]; barrier(...); out[l] = a[t[0] & 7];
; RUN: -passes=wg-barriers -print-meta

; CHECK: ; loom-meta: kernel priv {{.*}} barriers=1 scratch_per_item=32
; CHECK-LABEL: define void @priv(
; CHECK-NOT: alloca
; CHECK: for.body:
; CHECK: %[[S0:.*]] = call ptr @__loom_slot(i64 0, i64 32)
; CHECK-NEXT: getelementptr inbounds [8 x i32], ptr %[[S0]]
; CHECK: for.end:
; CHECK: %[[S1:.*]] = call ptr @__loom_slot(i64 0, i64 32)
; CHECK-NEXT: getelementptr inbounds [8 x i32], ptr %[[S1]]
; CHECK: call void @__loom_barrier_id(i32 1)
; CHECK: %[[S2:.*]] = call ptr @__loom_slot(i64 0, i64 32)
; CHECK-NEXT: getelementptr inbounds [8 x i32], ptr %[[S2]]
; CHECK-NOT: llvm.lifetime
; CHECK: ret void
; CHECK: "loom-wg-slots"="1 32 0 0 0 0 0"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @priv(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(3) %t) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %a = alloca [8 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 32, ptr nonnull %a)
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  br label %for.cond

for.cond:
  %k = phi i32 [ 0, %entry ], [ %k.next, %for.body ]
  %more = icmp ult i32 %k, 8
  br i1 %more, label %for.body, label %for.end

for.body:
  %row = shl i64 %lid, 3
  %k64 = zext nneg i32 %k to i64
  %at = or disjoint i64 %row, %k64
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %at
  %x = load i32, ptr addrspace(1) %p.in, align 4
  %p.a = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 %k64
  store i32 %x, ptr %p.a, align 4
  %k.next = add nuw nsw i32 %k, 1
  br label %for.cond

for.end:
  %p.in2 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lid
  %sel = load i32, ptr addrspace(1) %p.in2, align 4
  %sel7 = and i32 %sel, 7
  %sel64 = zext nneg i32 %sel7 to i64
  %p.a2 = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 %sel64
  %y = load i32, ptr %p.a2, align 4
  %p.t = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  store i32 %y, ptr addrspace(3) %p.t, align 4
  call void @__loom_barrier()
  %t0 = load i32, ptr addrspace(3) %t, align 4
  %t07 = and i32 %t0, 7
  %t064 = zext nneg i32 %t07 to i64
  %p.a3 = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 %t064
  %z = load i32, ptr %p.a3, align 4
  %p.out = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %z, ptr addrspace(1) %p.out, align 4
  call void @llvm.lifetime.end.p0(i64 32, ptr nonnull %a)
  ret void
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @__loom_barrier() #1
declare i64 @__loom_wi(i32, i32) #2

attributes #0 = { convergent norecurse nounwind }
attributes #1 = { convergent noduplicate nounwind }
attributes #2 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 1, i32 3}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"int*", !"int*", !"int*"}
!3 = !{!"const", !"", !""}
