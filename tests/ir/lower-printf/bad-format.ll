; A printf format that breaks OpenCL C's grammar is a build error that
; quotes the format and names the function, not a crash or a silent
; misprint: 'hl' is only allowed with a vector specifier (%v4hlf).
; RUN-FAIL(1): -passes=lower-printf

; CHECK: error: in function 'bad': invalid printf format "%hlf\n": "%hlf": the length modifier 'hl' is only allowed with a vector specifier
; CHECK: loom-opt: error: pass lower-printf failed

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [6 x i8] c"%hlf\0A\00", align 1

define spir_kernel void @bad(i32 %v) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %call = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, i32 %v)
  ret void
}

declare spir_func i32 @printf(ptr addrspace(2), ...)

attributes #0 = { convergent norecurse nounwind }

!0 = !{i32 0}
!1 = !{!"none"}
!2 = !{!"int"}
!3 = !{!""}
