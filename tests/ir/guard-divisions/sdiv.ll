; Integer division by 0 and INT_MIN / -1 are undefined in OpenCL C but trap
; on x86: the divisor becomes 1 where the division could trap (21f7208).
; A signed division by a variable checks both cases, an unsigned one only
; 0, a vector one lane by lane; a constant divisor other than 0 and -1 is
; left alone, and -1 still needs the INT_MIN check.
; RUN: -passes=guard-divisions

; CHECK-LABEL: define void @divide(
; (the order of the two comparisons follows the C compiler's order of
; evaluating arguments: CHECK-DAG)
; a / b (int)
; CHECK-DAG: %[[Z:.*]] = icmp eq i32 %b, 0
; CHECK-DAG: %[[M1:.*]] = icmp eq i32 %b, -1
; CHECK-DAG: %[[MIN:.*]] = icmp eq i32 %a, -2147483648
; CHECK: %[[OV:.*]] = and i1 %[[M1]], %[[MIN]]
; CHECK-NEXT: %[[BAD:.*]] = or i1 %[[Z]], %[[OV]]
; CHECK-NEXT: %[[SAFE:.*]] = select i1 %[[BAD]], i32 1, i32 %b
; CHECK-NEXT: %q = sdiv i32 %a, %[[SAFE]]
; a % b (uint): only 0
; CHECK-NEXT: %[[UZ:.*]] = icmp eq i32 %b, 0
; CHECK-NEXT: %[[USAFE:.*]] = select i1 %[[UZ]], i32 1, i32 %b
; CHECK-NEXT: %r = urem i32 %a, %[[USAFE]]
; a / 7: nothing to guard
; CHECK-NEXT: %c7 = sdiv i32 %a, 7
; l / -1 (long): LONG_MIN / -1 traps
; CHECK-NEXT: icmp eq i64 %l, -9223372036854775808
; CHECK: %[[CSAFE:.*]] = select i1 %{{.*}}, i64 1, i64 -1
; CHECK-NEXT: %cm1 = sdiv i64 %l, %[[CSAFE]]
; int4 / int4, lane by lane
; CHECK-DAG: icmp eq <4 x i32> %vb, zeroinitializer
; CHECK-DAG: icmp eq <4 x i32> %vb, <i32 -1, i32 -1, i32 -1, i32 -1>
; CHECK-DAG: icmp eq <4 x i32> %va, <i32 -2147483648, i32 -2147483648, i32 -2147483648, i32 -2147483648>
; CHECK: %[[VSAFE:.*]] = select <4 x i1> %{{.*}}, <4 x i32> <i32 1, i32 1, i32 1, i32 1>, <4 x i32> %vb
; CHECK-NEXT: %vq = sdiv <4 x i32> %va, %[[VSAFE]]
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @divide(i32 %a, i32 %b, i64 %l, <4 x i32> %va, <4 x i32> %vb, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %q = sdiv i32 %a, %b
  %r = urem i32 %a, %b
  %c7 = sdiv i32 %a, 7
  %cm1 = sdiv i64 %l, -1
  %vq = sdiv <4 x i32> %va, %vb
  %s1 = add i32 %q, %r
  %s2 = add i32 %s1, %c7
  store i32 %s2, ptr addrspace(1) %out, align 4
  %p.l = getelementptr i8, ptr addrspace(1) %out, i64 8
  store i64 %cm1, ptr addrspace(1) %p.l, align 8
  %p.v = getelementptr i8, ptr addrspace(1) %out, i64 16
  store <4 x i32> %vq, ptr addrspace(1) %p.v, align 16
  ret void
}

attributes #0 = { convergent norecurse nounwind }

!0 = !{i32 0, i32 0, i32 0, i32 0, i32 0, i32 1}
!1 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!2 = !{!"int", !"int", !"long", !"int4", !"int4", !"int*"}
!3 = !{!"", !"", !"", !"", !"", !""}
