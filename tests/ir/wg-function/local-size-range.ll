; Local sizes read from the context carry !range [1, LOOM_MAX_GROUP_ITEMS]
; (workgroup/wg_function.c): the work-item loops' counters then fit 32 bits,
; and `int l = get_local_id(0)` indexes consecutive elements in the generic
; code too. Without it the tutorial tree sum's first region (s[l] = in[gid])
; was a scatter into local memory: generic code at 7-9 GB/s against 28-30
; specialised; with it 28-29. Both x sizes, the loop's and the builtin's.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: = load i64, ptr %{{[0-9]+}}, align 8, !range ![[R:[0-9]+]]
; CHECK: ![[R]] = !{i64 1, i64 4097}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k(ptr addrspace(1) align 4 %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %0 = call i64 @__loom_wi(i32 7, i32 0)
  %conv = trunc i64 %0 to i32
  %1 = call i64 @__loom_wi(i32 7, i32 1)
  %conv2 = trunc i64 %1 to i32
  %mul = shl nsw i32 %conv2, 3
  %add = add nsw i32 %mul, %conv
  %rem = srem i32 %add, 8
  %div = sdiv i32 %add, 8
  %mul3 = shl nsw i32 %div, 4
  %add4 = add nsw i32 %rem, %mul3
  %sub = add nsw i32 %conv, -3
  %rem5 = srem i32 %sub, 4
  %mul6 = shl nsw i32 %rem5, 8
  %add7 = add nsw i32 %add4, %mul6
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idxprom
  store i32 %add7, ptr addrspace(1) %arrayidx, align 4
  ret void
}

declare i64 @__loom_wi(i32, i32) #1

; "loom-wg-slots": what wg-barriers decided (no barrier, no slots)
attributes #0 = { alwaysinline convergent norecurse nounwind "loom-wg-slots"="0 0 0 0 0 0 0" }
attributes #1 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"int*"}
!3 = !{!""}
