; The SPIR-V translator marks calls noinline (FunctionControl DontInline,
; or a module built at -O0). Such a call site keeps its callee out of line
; whatever the function says; a kernel calling another kernel then kept the
; callee, with its work-item placeholders unresolved. The call-site
; attribute goes; the cold builtins stay noinline as functions.
; RUN: -passes=prepare-functions

; CHECK-LABEL: define void @caller(
; CHECK: call void @callee(ptr addrspace(1) %o, i32 42) #[[CS:[0-9]+]]
; CHECK: define internal float @__loom_cold_f(float %x) #[[COLD:[0-9]+]]
; CHECK-DAG: attributes #[[COLD]] = { noinline }
; CHECK-DAG: attributes #[[CS]] = { nounwind }

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @callee(ptr addrspace(1) %o, i32 %v) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

define spir_kernel void @caller(ptr addrspace(1) %o) !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 {
  call spir_func void @callee(ptr addrspace(1) %o, i32 42) #0
  %x = call float @__loom_cold_f(float 1.0)
  ret void
}

define float @__loom_cold_f(float %x) {
  ret float %x
}

attributes #0 = { noinline nounwind }

!0 = !{i32 1, i32 0}
!1 = !{!"none", !"none"}
!2 = !{!"int*", !"int"}
!3 = !{!"", !""}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
