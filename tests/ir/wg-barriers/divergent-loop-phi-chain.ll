; A divergent loop's header PHI whose value from the latch is another header
; PHI (OpenCL C: for (k = 0; k < n[gid]; k++) last = k; out[gid] = last;).
; After wg-barriers unrolls the loop, the original header's `last` must come
; from the last copy's `k` (a PHI in an unrolled block), not from the
; original header's own `k`: the header PHIs were rebuilt one at a time, and
; `k`'s replacement hid it from the copy map when `last` was rebuilt, so
; each pass over the group stored the `k` of its first iteration (fuzzer
; seed 3120218: out[3] was 2 instead of 3).
; RUN: -passes=wg-barriers

; CHECK-LABEL: define void @last(
; CHECK: for.cond:
; CHECK-NEXT: phi i32 [ 0, %entry ], [ %{{[0-9]+}}, %[[LATCH:unrolled[0-9]+]] ]
; CHECK-NEXT: phi i32 [ -1, %entry ], [ %[[K:[0-9]+]], %[[LATCH]] ]
; CHECK: %[[K]] = phi i32 [ %{{[0-9]+}}, %unrolled{{[0-9]+}} ]
; CHECK: ret void

define void @last(ptr addrspace(1) %n, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %group = call i64 @__loom_wi(i32 0, i32 0)
  %lsize = call i64 @__loom_wi(i32 2, i32 0)
  %base = mul i64 %lsize, %group
  %gid = add i64 %base, %lid
  %p.n = getelementptr inbounds i32, ptr addrspace(1) %n, i64 %gid
  %count = load i32, ptr addrspace(1) %p.n, align 4
  br label %for.cond

for.cond:
  %k = phi i32 [ 0, %entry ], [ %k.next, %for.body ]
  %last = phi i32 [ -1, %entry ], [ %k, %for.body ]
  %more = icmp slt i32 %k, %count
  br i1 %more, label %for.body, label %for.end

for.body:
  %k.next = add nuw nsw i32 %k, 1
  br label %for.cond

for.end:
  %last.lcssa = phi i32 [ %last, %for.cond ]
  %p.out = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %last.lcssa, ptr addrspace(1) %p.out, align 4
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
