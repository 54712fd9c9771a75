; An `or` whose operand may be 2^62 (the largest bound a range keeps; here
; a constant) feeding a signed division: the range of `or` rounds its
; largest operand up to a power of two less one, and that loop overflowed
; past 2^62 and never ended (a fuzzer's kernel hung its build). The range
; is unknown now and that sdiv stays; an `or` with 1024 still has its range
; (1024 to 4095 beside a local id), so its sdiv by 3 becomes a udiv; the
; sdiv of the local id less 5 (maybe negative) stays.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %[[OR:.*]] = or i64 4611686018427387904, %
; CHECK-NEXT: sdiv i64 %[[OR]], 3
; CHECK: %[[OR2:.*]] = or i64 1024, %
; CHECK-NEXT: udiv i64 %[[OR2]], 3
; CHECK: sdiv i64 %sub{{.*}}, 3

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k(ptr addrspace(1) align 8 %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %or = or i64 4611686018427387904, %lid
  %div = sdiv i64 %or, 3
  %or2 = or i64 1024, %lid
  %div1 = sdiv i64 %or2, 3
  %div.1 = add i64 %div, %div1
  %sub = add nsw i64 %lid, -5
  %div2 = sdiv i64 %sub, 3
  %sum = add i64 %div.1, %div2
  %p = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %lid
  store i64 %sum, ptr addrspace(1) %p, align 8
  ret void
}

declare i64 @__loom_wi(i32, i32) #1

; "loom-wg-slots": what wg-barriers decided (no barrier, no slots)
attributes #0 = { alwaysinline convergent norecurse nounwind "loom-wg-slots"="0 0 0 0 0 0 0" }
attributes #1 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"long*"}
!3 = !{!""}
