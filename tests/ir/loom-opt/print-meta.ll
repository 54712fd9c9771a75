; -print-meta prints the kernel metadata the passes share, as comments
; before the module: kernel-meta (run alone, from the module's OpenCL
; metadata) gives each argument's kind, size and offset in the argument
; buffer (a float4 by value aligned to 16, a __local pointer passed as an
; 8-byte offset, __constant as a buffer), the names with
; -cl-kernel-arg-info, and the kernel attributes.
; RUN: -passes=kernel-meta -print-meta

; CHECK: ; loom-meta: kernel args args=7 arg_buffer=64 local_static=0
; CHECK-NEXT: ; loom-meta:   attributes reqd_work_group_size(16,4,1)
; CHECK-NEXT: ; loom-meta:   arg 0 buffer float* size=8 offset=0 name=in
; CHECK-NEXT: ; loom-meta:   arg 1 value int size=4 offset=8 name=n
; CHECK-NEXT: ; loom-meta:   arg 2 value float4 size=16 offset=16 name=v
; CHECK-NEXT: ; loom-meta:   arg 3 local int* size=8 offset=32 name=scratch
; CHECK-NEXT: ; loom-meta:   arg 4 buffer short* size=8 offset=40 name=c
; CHECK-NEXT: ; loom-meta:   arg 5 value char size=1 offset=48 name=ch
; CHECK-NEXT: ; loom-meta:   arg 6 value double size=8 offset=56 name=d
; CHECK-NEXT: ; ModuleID

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @args(ptr addrspace(1) align 4 %in, i32 %n, <4 x float> %v, ptr addrspace(3) align 4 %scratch, ptr addrspace(2) align 2 %c, i8 signext %ch, double %d) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 !kernel_arg_name !5 !reqd_work_group_size !6 {
entry:
  ret void
}

!0 = !{i32 1, i32 0, i32 0, i32 3, i32 2, i32 0, i32 0}
!1 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!2 = !{!"float*", !"int", !"float4", !"int*", !"short*", !"char", !"double"}
!3 = !{!"float*", !"int", !"float __attribute__((ext_vector_type(4)))", !"int*", !"short*", !"char", !"double"}
!4 = !{!"const", !"", !"", !"", !"const", !"", !""}
!5 = !{!"in", !"n", !"v", !"scratch", !"c", !"ch", !"d"}
!6 = !{i32 16, i32 4, i32 1}
