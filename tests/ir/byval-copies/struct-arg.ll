; A struct passed by value reaches the kernel as a byval pointer. The pass
; gives it an explicit private copy at the kernel's entry, which the kernel
; reads and writes from then on, and turns byval(T) into byref(T): the
; inliner must not make a second copy when wg-function inlines the kernel
; into region functions, since a region that starts at a barrier or a
; divergent loop's convergence point skips the entry where that copy was
; made (invalid IR that crashed O3: PyOpenCL's complex kernels).
; A parameter that is never used gets no copy but becomes byref too (an
; unused struct argument in a kernel with a barrier: loom-fuzz, seed 102);
; buffers are untouched.
; RUN: -passes=byval-copies

; CHECK-LABEL: define void @k(ptr addrspace(1) %out, ptr byref(%struct.params_t) align 4 %p, ptr byref(%struct.params_t) align 4 %unused)
; CHECK-NEXT: entry:
; CHECK-NEXT: %byval.copy = alloca %struct.params_t, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %byval.copy, ptr align 4 %p, i64 ptrtoint (ptr getelementptr (%struct.params_t, ptr null, i32 1) to i64), i1 false)
; CHECK-NEXT: %base = getelementptr inbounds %struct.params_t, ptr %byval.copy, i32 0, i32 0
; CHECK-NOT: %p,
; CHECK: %step = getelementptr inbounds %struct.params_t, ptr %byval.copy, i32 0, i32 1
; CHECK: ret void

; a function that is not a kernel keeps its byval parameters
; CHECK-LABEL: define internal i32 @helper(ptr byval(%struct.params_t) align 4 %q)
; CHECK-NOT: byval.copy

%struct.params_t = type { i32, i32 }

define void @k(ptr addrspace(1) %out, ptr byval(%struct.params_t) align 4 %p, ptr byval(%struct.params_t) align 4 %unused) !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %base = getelementptr inbounds %struct.params_t, ptr %p, i32 0, i32 0
  %0 = load i32, ptr %base, align 4
  %add = add i32 %0, 1
  store i32 %add, ptr %base, align 4
  %step = getelementptr inbounds %struct.params_t, ptr %p, i32 0, i32 1
  %1 = load i32, ptr %step, align 4
  %mul = mul nsw i32 %add, %1
  store i32 %mul, ptr addrspace(1) %out, align 4
  ret void
}

define internal i32 @helper(ptr byval(%struct.params_t) align 4 %q) {
  %f = load i32, ptr %q, align 4
  ret i32 %f
}

!0 = !{i32 1, i32 0, i32 0}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"int*", !"params_t", !"params_t"}
!3 = !{!"", !"", !""}
