; Without -passes or -until, loom-opt runs the whole build stage (what
; clBuildProgram does before handing the module to a compile thread) on
; the front end's output (OpenCL C: x[get_global_id(0)] += 1.0f): the
; builtin library is linked (get_global_id), the module retargeted to the
; host, the kernel inlined into its work-group function "add1.loom_wg",
; whose work-item loop carries parallel-loop metadata; the kernel itself
; is internal and no placeholder or SPIR calling convention remains.
; -until=NAME runs the pipeline's prefix through NAME (prefix UNTIL, through
; the retargeting: the builtins linked, no work-group pass yet).
; RUN:
; RUN: -until=retarget | --check-prefix=UNTIL

; CHECK: target triple = "x86_64-
; CHECK-NOT: spir_func
; CHECK-NOT: spir_kernel
; CHECK: define internal void @add1(
; CHECK: define void @add1.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3)
; CHECK-NOT: call {{.*}}@__loom_wi
; CHECK-NOT: call {{.*}}@_Z13get_global_idj
; CHECK: fadd float %{{.*}}, 1.000000e+00
; CHECK: br i1 %{{.*}}, label %wi_x, label %wi_y_latch, !llvm.loop
; CHECK: llvm.loop.parallel_accesses

; UNTIL: target triple = "x86_64-
; UNTIL: define {{.*}}spir_kernel void @add1(
; UNTIL: call spir_func i64 @_Z13get_global_idj(i32 noundef 0)
; UNTIL: define {{.*}}i64 @_Z13get_global_idj(i32 {{.*}}%0)
; UNTIL: @__loom_wi(
; UNTIL-NOT: .loom_wg

; the front end's output, less TBAA and attributes
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define dso_local spir_kernel void @add1(ptr addrspace(1) noundef align 4 %x) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 {
entry:
  %x.addr = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %x, ptr %x.addr, align 8
  %0 = load ptr addrspace(1), ptr %x.addr, align 8
  %call = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %0, i64 %call
  %1 = load float, ptr addrspace(1) %arrayidx, align 4
  %add = fadd float %1, 1.000000e+00
  store float %add, ptr addrspace(1) %arrayidx, align 4
  ret void
}

declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

attributes #0 = { convergent norecurse nounwind "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind willreturn memory(none) }
attributes #2 = { convergent nounwind willreturn memory(none) }

!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}

!2 = !{i32 1, i32 2}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"float*"}
!7 = !{!""}
