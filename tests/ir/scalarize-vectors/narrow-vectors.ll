; A uchar4 read from global memory at a computed address: the scalarizer
; would make it four byte loads, and the vectorised work-item loop four
; byte gathers, which x86 does not have. It becomes one i32 load (its
; access group kept: the loop stays parallel) and shifts; the uchar4 store
; one i32 store of or-ed (frozen) zero extensions; a __local one too.
; RUN: -passes=scalarize-vectors

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %packed = load i32, ptr addrspace(1) %p, align 4, !llvm.access.group ![[G:[0-9]+]]
; CHECK: lshr i32 %packed, 8
; CHECK: load i32, ptr addrspace(3)
; CHECK: store i32 {{.*}}, ptr addrspace(1) %q, align 4, !llvm.access.group ![[G]]
; CHECK-NOT: <4 x i8>
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %o.p = getelementptr i8, ptr %0, i64 8
  %out = load ptr addrspace(1), ptr %o.p, align 8
  %l.p = getelementptr i8, ptr %0, i64 16
  %loc = load ptr addrspace(3), ptr %l.p, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %j = mul i64 %i, 7
  %p = getelementptr <4 x i8>, ptr addrspace(1) %in, i64 %j
  %v = load <4 x i8>, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %lp = getelementptr <4 x i8>, ptr addrspace(3) %loc, i64 %i
  %lv = load <4 x i8>, ptr addrspace(3) %lp, align 4, !llvm.access.group !0
  %s = add <4 x i8> %v, %lv
  %q = getelementptr <4 x i8>, ptr addrspace(1) %out, i64 %i
  store <4 x i8> %s, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 64
  br i1 %done, label %exit, label %loop, !llvm.loop !1
exit:
  ret void
}

attributes #0 = { "prefer-vector-width"="512" }
!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
