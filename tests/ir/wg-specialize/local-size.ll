; A kernel's work-group function specialised for one local size (-spec,
; the runtime's second launch with that size): the loads of the local size
; (context slots 3-5, bytes 24-40) and of the enqueued local size (slots
; 6-8, bytes 48-64) from the context become constants; other context
; fields (the group id) stay loads; the function is renamed
; "<kernel>.l<x>x<y>x<z>.loom_wg" and every other work-group function
; becomes internal, so the object can be loaded beside the generic code.
; Without -spec the pass changes nothing (prefix NOSPEC).
; RUN: -passes=wg-specialize -spec=tile:16,4,1
; RUN: -passes=wg-specialize | --check-prefix=NOSPEC

; CHECK: define internal void @other.loom_wg(
; CHECK: define void @tile.l16x4x1.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
; CHECK: %group = load i64, ptr %p.group
; CHECK-NOT: load i64, ptr %p.lsize
; CHECK-NOT: load i64, ptr %p.enq
; CHECK: %items = mul i64 16, 4
; CHECK-NEXT: %items3 = mul i64 %items, 1
; CHECK-NEXT: %first = mul i64 %group, 16
; CHECK-NEXT: %rows = add i64 %first, 4
; CHECK-NOT: @tile.loom_wg

; NOSPEC: define void @other.loom_wg(
; NOSPEC: define void @tile.loom_wg(
; NOSPEC: %lsize = load i64, ptr %p.lsize

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define internal void @tile(ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  ret void
}

define internal void @other(ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  ret void
}

define void @other.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %out = load ptr addrspace(1), ptr %0, align 8
  %p.group = getelementptr i8, ptr %1, i64 0
  %group = load i64, ptr %p.group, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  %p.lsize1 = getelementptr i8, ptr %1, i64 32
  %lsize1 = load i64, ptr %p.lsize1, align 8
  %p.lsize2 = getelementptr i8, ptr %1, i64 40
  %lsize2 = load i64, ptr %p.lsize2, align 8
  %p.enq = getelementptr i8, ptr %1, i64 48
  %enq = load i64, ptr %p.enq, align 8
  %p.enq1 = getelementptr i8, ptr %1, i64 56
  %enq1 = load i64, ptr %p.enq1, align 8
  %items = mul i64 %lsize, %lsize1
  %items3 = mul i64 %items, %lsize2
  %first = mul i64 %group, %enq
  %rows = add i64 %first, %enq1
  %sum = add i64 %items3, %rows
  store i64 %sum, ptr addrspace(1) %out, align 8
  ret void
}

define void @tile.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %out = load ptr addrspace(1), ptr %0, align 8
  %p.group = getelementptr i8, ptr %1, i64 0
  %group = load i64, ptr %p.group, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  %p.lsize1 = getelementptr i8, ptr %1, i64 32
  %lsize1 = load i64, ptr %p.lsize1, align 8
  %p.lsize2 = getelementptr i8, ptr %1, i64 40
  %lsize2 = load i64, ptr %p.lsize2, align 8
  %p.enq = getelementptr i8, ptr %1, i64 48
  %enq = load i64, ptr %p.enq, align 8
  %p.enq1 = getelementptr i8, ptr %1, i64 56
  %enq1 = load i64, ptr %p.enq1, align 8
  %items = mul i64 %lsize, %lsize1
  %items3 = mul i64 %items, %lsize2
  %first = mul i64 %group, %enq
  %rows = add i64 %first, %enq1
  %sum = add i64 %items3, %rows
  store i64 %sum, ptr addrspace(1) %out, align 8
  ret void
}

attributes #0 = { alwaysinline convergent norecurse nounwind }

!0 = !{i32 1}
!1 = !{!"none"}
!2 = !{!"long*"}
!3 = !{!""}
