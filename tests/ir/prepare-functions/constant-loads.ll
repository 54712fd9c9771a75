; "The constant address space is a region of global memory that remains
; constant during the execution of a kernel": loads from address space 2
; (__constant arguments and variables, image descriptors) are marked
; !invariant.load, so that LLVM hoists them out of work-item loops even
; past stores; loads from global memory (1) are not.
; RUN: -passes=prepare-functions

; CHECK-LABEL: define void @k(
; CHECK: load i32, ptr addrspace(2) %w, align 4, !invariant.load ![[E:[0-9]+]]
; CHECK: load float, ptr addrspace(1) %g, align 4{{$}}
; CHECK: load volatile i32, ptr addrspace(2) %w, align 4{{$}}
; CHECK: ![[E]] = !{}

target triple = "spir64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(2) %w, ptr addrspace(1) %g) !kernel_arg_addr_space !0 {
entry:
  %a = load i32, ptr addrspace(2) %w, align 4
  %b = load float, ptr addrspace(1) %g, align 4
  %c = load volatile i32, ptr addrspace(2) %w, align 4
  %f = sitofp i32 %a to float
  %s = fadd float %f, %b
  store float %s, ptr addrspace(1) %g, align 4
  ret void
}

!0 = !{i32 2, i32 1}
