; A call to a function nobody defines is a link error naming it (after
; the builtins are linked): a mangled builtin LoomCL lacks and a user
; function declared but never defined both are. LoomCL's placeholders
; (__loom_*), intrinsics, what LLVM's code generation may call (fmodf,
; memcpy) and unused declarations are not.
; RUN-FAIL(1): -passes=check-undefined

; CHECK-DAG: error: undefined function '_Z8no_such_fj'
; CHECK-DAG: error: undefined function 'helper'
; CHECK-NOT: error: undefined function '__loom_wi'
; CHECK-NOT: error: undefined function 'fmodf'
; CHECK-NOT: error: undefined function 'unused'
; CHECK: loom-opt: error: pass check-undefined failed

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %out, float %x) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %a = call spir_func float @_Z8no_such_fj(i32 1)
  %b = call spir_func float @helper(float %a)
  %c = call float @fmodf(float %b, float %x)
  %d = call float @llvm.fabs.f32(float %c)
  %i = call i64 @__loom_wi(i32 7, i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %d, ptr addrspace(1) %p, align 4
  ret void
}

declare spir_func float @_Z8no_such_fj(i32)
declare spir_func float @helper(float)
declare spir_func float @unused(float)
declare float @fmodf(float, float)
declare float @llvm.fabs.f32(float)
declare i64 @__loom_wi(i32, i32)

!0 = !{i32 1, i32 0}
!1 = !{!"none", !"none"}
!2 = !{!"float*", !"float"}
!3 = !{!"", !""}
