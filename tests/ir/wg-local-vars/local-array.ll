; __local variables declared in a kernel (OpenCL C: __local int count;
; __local float buf[64];) are addrspace(3) globals after the front end.
; Every use becomes __loom_local_base() + the variable's offset in the
; group's local memory, also a use inside a constant expression (the
; constant GEP into buf); the variables are laid out in order, each aligned
; to 16 bytes: count at 0, buf at 16, 272 bytes in all (the kernel's
; static local size). A private array left in memory is counted as the
; kernel's private size (CL_KERNEL_PRIVATE_MEM_SIZE; e9e2534 fixed it).
; RUN: -passes=wg-local-vars -print-meta

; CHECK: ; loom-meta: kernel rev {{.*}} local_static=272 private=32
; CHECK-LABEL: define void @rev(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[BASE:.*]] = call ptr addrspace(3) @__loom_local_base()
; CHECK-NOT: @rev.
; CHECK: if.then:
; CHECK-NEXT: %[[COUNT:.*]] = getelementptr i8, ptr addrspace(3) %[[BASE]], i64 0
; CHECK-NEXT: store i32 0, ptr addrspace(3) %[[COUNT]]
; CHECK: if.end:
; CHECK: %[[BUF:.*]] = getelementptr i8, ptr addrspace(3) %[[BASE]], i64 16
; CHECK-NEXT: %[[ELEM:.*]] = getelementptr inbounds [64 x float], ptr addrspace(3) %[[BUF]], i64 0, i64 %lid
; CHECK-NEXT: store float %x, ptr addrspace(3) %[[ELEM]]
; the constant expression, rebuilt as instructions
; CHECK: %[[BUF2:.*]] = getelementptr i8, ptr addrspace(3) %[[BASE]], i64 16
; CHECK-NEXT: %[[FIFTH:.*]] = getelementptr {{(inbounds )?}}[64 x float], ptr addrspace(3) %[[BUF2]], i64 0, i64 5
; CHECK-NEXT: load float, ptr addrspace(3) %[[FIFTH]]
; CHECK: %[[COUNT2:.*]] = getelementptr i8, ptr addrspace(3) %[[BASE]], i64 0
; CHECK-NEXT: load i32, ptr addrspace(3) %[[COUNT2]]
; the globals are no longer used in the kernel
; CHECK-NOT: @rev.
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@rev.count = internal addrspace(3) global i32 undef, align 4
@rev.buf = internal addrspace(3) global [64 x float] undef, align 4

define void @rev(ptr addrspace(1) align 4 %io, i32 %k) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %priv = alloca [8 x float], align 4
  %lid = call i64 @__loom_wi(i32 7, i32 0)
  %first = icmp eq i64 %lid, 0
  br i1 %first, label %if.then, label %if.end

if.then:
  store i32 0, ptr addrspace(3) @rev.count, align 4
  br label %if.end

if.end:
  %p.io = getelementptr inbounds float, ptr addrspace(1) %io, i64 %lid
  %x = load float, ptr addrspace(1) %p.io, align 4
  %p.buf = getelementptr inbounds [64 x float], ptr addrspace(3) @rev.buf, i64 0, i64 %lid
  store float %x, ptr addrspace(3) %p.buf, align 4
  call void @__loom_barrier()
  %y = load float, ptr addrspace(3) getelementptr inbounds ([64 x float], ptr addrspace(3) @rev.buf, i64 0, i64 5), align 4
  %n = load i32, ptr addrspace(3) @rev.count, align 4
  %nf = sitofp i32 %n to float
  %p.priv = getelementptr inbounds [8 x float], ptr %priv, i64 0, i32 %k
  store float %y, ptr %p.priv, align 4
  %p.priv2 = getelementptr inbounds [8 x float], ptr %priv, i64 0, i64 %lid
  %z = load float, ptr %p.priv2, align 4
  %sum = fadd float %z, %nf
  store float %sum, ptr addrspace(1) %p.io, align 4
  ret void
}

declare void @__loom_barrier() #1
declare i64 @__loom_wi(i32, i32) #2

attributes #0 = { convergent norecurse nounwind }
attributes #1 = { convergent noduplicate nounwind }
attributes #2 = { convergent nounwind willreturn memory(none) }

!0 = !{i32 1, i32 0}
!1 = !{!"none", !"none"}
!2 = !{!"float*", !"int"}
!3 = !{!"", !""}
