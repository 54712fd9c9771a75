; The builtin library (builtins/*.cl, embedded in LoomCL) is linked lazily:
; only the functions the program calls, and what they call, come in
; (f2693e2) - get_global_id with the __loom_wi placeholder it is built on,
; sqrt's float version but not its double one, nothing else of the
; library's thousands of functions.
; RUN: -passes=link-builtins

; CHECK: define spir_kernel void @k(
; CHECK-DAG: define {{.*}}i64 @_Z13get_global_idj(
; CHECK-DAG: declare {{.*}}i64 @__loom_wi(i32 noundef, i32 noundef)
; CHECK-DAG: define {{.*}}float @_Z4sqrtf(
; CHECK-NOT: define {{.*}}@_Z4sqrtd(
; CHECK-NOT: define {{.*}}@_Z3sinf(
; CHECK-NOT: define {{.*}}@_Z12get_local_idj(

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %x) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @_Z4sqrtf(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func float @_Z4sqrtf(float)

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"float*"}
!3 = !{!""}
