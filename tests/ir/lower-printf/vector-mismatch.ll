; A vector argument whose size differs from its specifier's is a build
; error (the runtime would read past the record): %v4hd given a short2.
; RUN-FAIL(1): -passes=lower-printf

; CHECK: error: in function 'bad': invalid printf format "%v4hd\n": "%v4hd": the vector size of the specifier does not match the argument

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [7 x i8] c"%v4hd\0A\00", align 1

define spir_kernel void @bad(<2 x i16> %s2) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %call = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, <2 x i16> %s2)
  ret void
}

declare spir_func i32 @printf(ptr addrspace(2), ...)

attributes #0 = { convergent norecurse nounwind }

!0 = !{i32 0}
!1 = !{!"none"}
!2 = !{!"short2"}
!3 = !{!""}
