; Before inlining: every function and call gets the C calling convention
; (no spir_kernel / spir_func left); the kernel stays external, everything
; else becomes internal and always-inline, so that each kernel becomes one
; function; the builtins' rarely taken paths (__loom_cold_*) stay out of
; line (noinline, never always-inline): they get vector variants later, so
; that a vectorised loop calls them only for the lanes that need them
; (db9b4bf).
; RUN: -passes=prepare-functions

; CHECK-NOT: spir_func
; CHECK-NOT: spir_kernel
; CHECK: define internal double @f(double %x) #[[INL:[0-9]+]] {
; CHECK: call double @_Z3sind(double %x)
; CHECK: define void @k(ptr addrspace(1) %x) #{{[0-9]+}} !kernel_arg_addr_space
; CHECK: call double @f(
; CHECK: define internal double @_Z3sind(double %0) #[[INL]] {
; CHECK: call double @__loom_cold_sin(double %0)
; CHECK: define internal double @__loom_cold_sin(double %0) #[[COLD:[0-9]+]] {
; CHECK-NOT: spir_func
; CHECK-DAG: attributes #[[INL]] = { alwaysinline }
; CHECK-DAG: attributes #[[COLD]] = { noinline }

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_func double @f(double %x) {
  %r = call spir_func double @_Z3sind(double %x)
  ret double %r
}

define spir_kernel void @k(ptr addrspace(1) %x) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %v = load double, ptr addrspace(1) %x, align 8
  %r = call spir_func double @f(double %v)
  store double %r, ptr addrspace(1) %x, align 8
  ret void
}

; a builtin from the library, with its cold path
define linkonce_odr spir_func double @_Z3sind(double %0) {
  %big = fcmp ogt double %0, 1.0e+10
  br i1 %big, label %cold, label %done
cold:
  %c = call spir_func double @__loom_cold_sin(double %0)
  br label %done
done:
  %r = phi double [ %0, %1 ], [ %c, %cold ]
  ret double %r
}

define linkonce_odr spir_func double @__loom_cold_sin(double %0) noinline {
  %r = fmul double %0, 2.0
  ret double %r
}

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"double*"}
!3 = !{!""}
