; Atomics on __local memory: one thread runs the whole work-group, so an
; atomic add on __local becomes a plain (volatile) load, add and store, and
; the old value is what the load read; atomic_max becomes a compare and
; select, atomic_cmpxchg a compare and a select stored back. An atomic on
; __global memory keeps its lock (other groups run on other threads), and
; so does one through a generic pointer, which may point to __global.
; OpenCL C: atomic_add(&n, 1); atomic_max(&m, v); atomic_cmpxchg(&n, 0, v);
;           atomic_add(&g[0], 1); atomic_add(gp, 1) (generic gp)
; RUN: -passes=wg-local-atomics

; CHECK-LABEL: define void @count(
; CHECK-NOT: atomicrmw {{.*}} addrspace(3)
; CHECK: %[[OLD:.*]] = load volatile i32, ptr addrspace(3) @count.n
; CHECK-NEXT: %[[NEW:.*]] = add i32 %[[OLD]], 1
; CHECK-NEXT: store volatile i32 %[[NEW]], ptr addrspace(3) @count.n
; CHECK: %[[MOLD:.*]] = load volatile i32, ptr addrspace(3) @count.m
; CHECK-NEXT: %[[GT:.*]] = icmp sgt i32 %[[MOLD]], %v
; CHECK-NEXT: %[[MAX:.*]] = select i1 %[[GT]], i32 %[[MOLD]], i32 %v
; CHECK-NEXT: store volatile i32 %[[MAX]], ptr addrspace(3) @count.m
; CHECK-NOT: cmpxchg {{.*}} addrspace(3)
; CHECK: %[[COLD:.*]] = load volatile i32, ptr addrspace(3) @count.n
; CHECK-NEXT: %[[EQ:.*]] = icmp eq i32 %[[COLD]], 0
; CHECK-NEXT: %[[SEL:.*]] = select i1 %[[EQ]], i32 %v, i32 %[[COLD]]
; CHECK-NEXT: store volatile i32 %[[SEL]], ptr addrspace(3) @count.n
; CHECK: atomicrmw add ptr addrspace(1) %g, i32 1 monotonic
; CHECK: atomicrmw add ptr %gp, i32 1 monotonic
; CHECK-NEXT: %s1 = add i32 %[[OLD]], %[[MOLD]]
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@count.n = internal addrspace(3) global i32 undef, align 4
@count.m = internal addrspace(3) global i32 undef, align 4

define void @count(ptr addrspace(1) align 4 %g, i32 %v, ptr addrspace(1) align 4 %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %old = atomicrmw add ptr addrspace(3) @count.n, i32 1 monotonic, align 4
  %mold = atomicrmw max ptr addrspace(3) @count.m, i32 %v monotonic, align 4
  %pair = cmpxchg ptr addrspace(3) @count.n, i32 0, i32 %v monotonic monotonic, align 4
  %cold = extractvalue { i32, i1 } %pair, 0
  %gold = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic, align 4
  %gp = addrspacecast ptr addrspace(1) %out to ptr
  %pold = atomicrmw add ptr %gp, i32 1 monotonic, align 4
  %s1 = add i32 %old, %mold
  %s2 = add i32 %s1, %cold
  %s3 = add i32 %s2, %gold
  %s4 = add i32 %s3, %pold
  store i32 %s4, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { convergent norecurse nounwind }

!0 = !{i32 1, i32 0, i32 1}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"int*", !"int", !"int*"}
!3 = !{!"volatile", !"", !""}
