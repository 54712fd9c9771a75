; The SPIR-V translator types event_t as a pointer; the builtin library's
; async copies take and return target("spirv.Event"). After linking, such a
; call is rebuilt with the library's type: the null event passed, the result
; read as a null pointer (frontend/event_calls.c). Left alone, LLVM did not
; inline it and the x86 code generator crashed on its parameter.
; RUN: -passes=link-builtins

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3iPU3AS1Kim9ocl_event(ptr addrspace(3) %tmp, ptr addrspace(1) %src, i64 16, target("spirv.Event") zeroinitializer)
; CHECK: store ptr null, ptr %ev
; CHECK-NOT: call ptr @_Z21async_work_group_copy

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %src, ptr addrspace(3) %tmp) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %ev = alloca ptr, align 8
  %e = call spir_func ptr @_Z21async_work_group_copyPU3AS3iPU3AS1Kim9ocl_event(ptr addrspace(3) %tmp, ptr addrspace(1) %src, i64 16, ptr null)
  store ptr %e, ptr %ev, align 8
  call spir_func void @_Z17wait_group_eventsiP9ocl_event(i32 1, ptr %ev)
  ret void
}

declare spir_func ptr @_Z21async_work_group_copyPU3AS3iPU3AS1Kim9ocl_event(ptr addrspace(3), ptr addrspace(1), i64, ptr)
declare spir_func void @_Z17wait_group_eventsiP9ocl_event(i32, ptr)

!0 = !{i32 1, i32 3}
!1 = !{!"none", !"none"}
!2 = !{!"int*", !"int*"}
!3 = !{!"", !""}
