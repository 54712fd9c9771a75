; Image and sampler types (Clang's target("spirv.Image"), target("spirv.Sampler"))
; become a descriptor pointer in the constant address space and the CLK_*
; bit field (builtins/loom_image.h): in kernel and function signatures, in
; loads, stores, allocas, selects and phis, and in calls, which keep their
; mangled names so that the builtin library's definitions link to them.
; __translate_sampler_initializer(bits) becomes bits.
; RUN: -passes=lower-opaque-types

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(2) %img, i32 %smp, ptr addrspace(1) noundef %out, i1 %c) {{.*}}!kernel_arg_type
; CHECK: %[[A:.*]] = alloca ptr addrspace(2)
; CHECK: store ptr addrspace(2) %img, ptr %[[A]]
; CHECK: %[[L:.*]] = load ptr addrspace(2), ptr %[[A]]
; CHECK: %[[S:.*]] = select i1 %c, ptr addrspace(2) %[[L]], ptr addrspace(2) %img
; CHECK: call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(2) %[[S]], i32 %smp, <2 x i32> zeroinitializer)
; CHECK: call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(2) %img, i32 39,
; CHECK: call spir_func i32 @helper(ptr addrspace(2) %img)
; CHECK-LABEL: define internal spir_func i32 @helper(ptr addrspace(2) %im)
; CHECK: phi ptr addrspace(2) [ %im, %entry ], [ %{{.*}}, %loop ]
; CHECK: call spir_func i32 @_Z15get_image_width14ocl_image2d_ro(ptr addrspace(2)
; CHECK-DAG: declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(2), i32, <2 x i32>)
; CHECK-DAG: declare spir_func i32 @_Z15get_image_width14ocl_image2d_ro(ptr addrspace(2))
; CHECK-NOT: spirv.
; CHECK-NOT: __translate_sampler_initializer

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, target("spirv.Sampler") %smp, ptr addrspace(1) noundef %out, i1 %c) !kernel_arg_type !0 {
entry:
  %a = alloca target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), align 8
  store target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, ptr %a, align 8
  %l = load target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), ptr %a, align 8
  %s = select i1 %c, target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %l, target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img
  %v = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %s, target("spirv.Sampler") %smp, <2 x i32> zeroinitializer)
  %cs = call spir_func target("spirv.Sampler") @__translate_sampler_initializer(i32 39)
  %w = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, target("spirv.Sampler") %cs, <2 x float> zeroinitializer)
  %sum = fadd <4 x float> %v, %w
  store <4 x float> %sum, ptr addrspace(1) %out, align 16
  %n = call spir_func i32 @helper(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img)
  ret void
}

define internal spir_func i32 @helper(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %im) {
entry:
  br label %loop
loop:
  %p = phi target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) [ %im, %entry ], [ %q, %loop ]
  %q = freeze target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %p
  %wd = call spir_func i32 @_Z15get_image_width14ocl_image2d_ro(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %p)
  %done = icmp sgt i32 %wd, 0
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %wd
}

declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), target("spirv.Sampler"), <2 x i32>)
declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), target("spirv.Sampler"), <2 x float>)
declare spir_func i32 @_Z15get_image_width14ocl_image2d_ro(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0))
declare spir_func target("spirv.Sampler") @__translate_sampler_initializer(i32)

!0 = !{!"image2d_t", !"sampler_t", !"float4*", !"bool"}
