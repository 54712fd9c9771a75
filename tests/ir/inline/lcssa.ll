; "inline": everything inlined into the kernel, then sroa, early-cse,
; simplifycfg, instcombine, loop-simplify and lcssa. The work-group passes
; rely on the last two: a value computed in a loop and used after it goes
; through a phi in the loop's exit block (LCSSA, 6d9c082: the barrier
; analysis needs it), and the loop has a preheader and one latch
; (loop-simplify, a13abcd: the divergent-loop analysis needs them).
; The private variable (an alloca the front end made) is promoted by sroa.
; RUN: -passes=inline

; CHECK-LABEL: define void @k(
; CHECK-NOT: alloca
; CHECK-NOT: call float @f(
; CHECK: entry:
; CHECK-NEXT: br label %[[LOOP:.*]]
; CHECK: [[LOOP]]:
; CHECK-NEXT: %[[S:.*]] = phi float [ 0.000000e+00, %entry ]
; CHECK: br i1 %{{.*}}, label %[[LOOP]], label %[[EXIT:[a-z.0-9]+]]
; CHECK: [[EXIT]]:
; CHECK-NEXT: %[[LCSSA:.*]] = phi float [ %{{.*}}, %[[LOOP]] ]
; CHECK: store float %[[LCSSA]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define internal float @f(float %x) #0 {
  %y = fmul float %x, 2.0
  ret float %y
}

define void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #1 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %sum = alloca float, align 4
  store float 0.0, ptr %sum, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i64
  %v = load float, ptr addrspace(1) %p, align 4
  %fv = call float @f(float %v)
  %s = load float, ptr %sum, align 4
  %s.next = fadd float %s, %fv
  store float %s.next, ptr %sum, align 4
  %i.next = add nuw i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  %result = load float, ptr %sum, align 4
  store float %result, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { alwaysinline nounwind }
attributes #1 = { convergent nounwind }

!0 = !{i32 1, i32 1, i32 0}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"float*", !"float*", !"int"}
!3 = !{!"const", !"", !""}
