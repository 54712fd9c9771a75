; Specialising fails with a message, and the build keeps the generic
; code: for a kernel the module does not have (prefix MISSING), and for a
; program with writable program-scope variables (each loaded object would
; have its own copy; prefix GLOBALS).
; RUN-FAIL(1): -passes=wg-specialize -spec=nosuch:16,1,1 | --check-prefix=MISSING
; RUN-FAIL(1): -passes=wg-specialize -spec=tile:16,1,1 | --check-prefix=GLOBALS

; MISSING: error: no such kernel to specialise
; GLOBALS: error: a program with writable global variables is not specialised

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@counter = addrspace(1) global i32 0, align 4

define internal void @tile(ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
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
