; Loads in an inner loop whose pointer moves by a run time stride (a column
; walk: p = a + k * ld + x) get a software prefetch a few iterations ahead
; (target/x86/stride_prefetch.c): a phi keeps the pointer of the previous
; iteration (0 on entry), d = p - prev, and where 2048 <= |d| <= 16 MB the
; lines the loads cover are prefetched at p + D * d, else at p itself.
;  - walk.loom_wg: two loads at byte offsets 0 and 64 from one pointer: two
;    lines, one phi; the loop has 44 instructions, 11 cycles: D = 24, at
;    most 16;
;  - left alone: small.loom_wg (a loop of 8 instructions: the phi, the
;    test and the prefetch would cost more than a quarter of it),
;    x.loom_wg (its only loop is a work-item loop, with
;    llvm.loop.parallel_accesses: it streams along x), flat.loom_wg (a
;    loop inside no other loop), local.loom_wg (local memory, addrspace 3:
;    in L1), not_wg (not a work-group function); with -O0 nothing changes.
; RUN: -passes=prefetch-strides
; RUN: -passes=prefetch-strides -O0 | --check-prefix=O0

; CHECK-LABEL: define void @walk.loom_wg(
; CHECK: inner:
; CHECK-NEXT: %stride.prev = phi i64 [ 0, %outer ], [ %stride.at, %inner ]
; CHECK: %p = getelementptr float, ptr addrspace(1) %a, i64 %idx
; CHECK-NEXT: %stride.at = ptrtoint ptr addrspace(1) %p to i64
; CHECK-NEXT: %stride = sub i64 %stride.at, %stride.prev
; CHECK: icmp uge i64 %{{.*}}, 2048
; CHECK: icmp ule i64 %{{.*}}, 16777216
; CHECK: %stride.ahead = mul i64 %{{.*}}, 16
; CHECK: %stride.next = getelementptr i8, ptr addrspace(1) %p, i64 %{{.*}}
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %stride.next, i32 0, i32 3, i32 1)
; CHECK: %[[O:.*]] = add i64 %stride.ahead, 64
; CHECK-NEXT: %{{.*}} = getelementptr i8, ptr addrspace(1) %p, i64 %[[O]]
; CHECK-NEXT: call void @llvm.prefetch.p1(
; CHECK-NOT: llvm.prefetch
; CHECK: ret void

; CHECK-LABEL: define void @small.loom_wg(
; CHECK-NOT: prefetch
; CHECK-LABEL: define void @x.loom_wg(
; CHECK-NOT: prefetch
; CHECK-LABEL: define void @flat.loom_wg(
; CHECK-NOT: prefetch
; CHECK-LABEL: define void @local.loom_wg(
; CHECK-NOT: prefetch
; CHECK-LABEL: define void @not_wg(
; CHECK-NOT: prefetch
; CHECK: ret void

; O0-NOT: prefetch

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @walk.loom_wg(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %ld, i64 %n) {
entry:
  br label %outer

outer:
  %x = phi i64 [ 0, %entry ], [ %x.next, %outer.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]
  %row = mul i64 %k, %ld
  %idx = add i64 %row, %x
  %p = getelementptr float, ptr addrspace(1) %a, i64 %idx
  %v0 = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr i8, ptr addrspace(1) %p, i64 64
  %v1 = load float, ptr addrspace(1) %q, align 4
  %t = fadd float %v0, %v1
  %c0 = fmul float %t, 1.5
  %c1 = fmul float %c0, 1.5
  %c2 = fmul float %c1, 1.5
  %c3 = fmul float %c2, 1.5
  %c4 = fmul float %c3, 1.5
  %c5 = fmul float %c4, 1.5
  %c6 = fmul float %c5, 1.5
  %c7 = fmul float %c6, 1.5
  %c8 = fmul float %c7, 1.5
  %c9 = fmul float %c8, 1.5
  %c10 = fmul float %c9, 1.5
  %c11 = fmul float %c10, 1.5
  %c12 = fmul float %c11, 1.5
  %c13 = fmul float %c12, 1.5
  %c14 = fmul float %c13, 1.5
  %c15 = fmul float %c14, 1.5
  %c16 = fmul float %c15, 1.5
  %c17 = fmul float %c16, 1.5
  %c18 = fmul float %c17, 1.5
  %c19 = fmul float %c18, 1.5
  %c20 = fmul float %c19, 1.5
  %c21 = fmul float %c20, 1.5
  %c22 = fmul float %c21, 1.5
  %c23 = fmul float %c22, 1.5
  %c24 = fmul float %c23, 1.5
  %c25 = fmul float %c24, 1.5
  %c26 = fmul float %c25, 1.5
  %c27 = fmul float %c26, 1.5
  %c28 = fmul float %c27, 1.5
  %c29 = fmul float %c28, 1.5
  %c30 = fmul float %c29, 1.5
  %c31 = fmul float %c30, 1.5
  %s.next = fadd float %s, %c31
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %s.next, ptr addrspace(1) %o, align 4
  %x.next = add i64 %x, 1
  %again = icmp ult i64 %x.next, 16
  br i1 %again, label %outer, label %done

done:
  ret void
}

define void @small.loom_wg(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %ld, i64 %n) {
entry:
  br label %outer

outer:
  %x = phi i64 [ 0, %entry ], [ %x.next, %outer.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]
  %row = mul i64 %k, %ld
  %idx = add i64 %row, %x
  %p = getelementptr float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %s.next, ptr addrspace(1) %o, align 4
  %x.next = add i64 %x, 1
  %again = icmp ult i64 %x.next, 16
  br i1 %again, label %outer, label %done

done:
  ret void
}

define void @x.loom_wg(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %ld) {
entry:
  br label %wi_y

wi_y:
  %y = phi i64 [ 0, %entry ], [ %y.next, %wi_y_latch ]
  br label %wi_x

wi_x:
  %x = phi i64 [ 0, %wi_y ], [ %x.next, %wi_x ]
  %row = mul i64 %x, %ld
  %p = getelementptr float, ptr addrspace(1) %a, i64 %row
  %v = load float, ptr addrspace(1) %p, align 4
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %o, align 4
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %wi_x, label %wi_y_latch, !llvm.loop !0

wi_y_latch:
  %y.next = add i64 %y, 1
  %again = icmp ult i64 %y.next, 4
  br i1 %again, label %wi_y, label %done

done:
  ret void
}

define void @flat.loom_wg(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %ld, i64 %n) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %row = mul i64 %k, %ld
  %p = getelementptr float, ptr addrspace(1) %a, i64 %row
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %done

done:
  store float %s.next, ptr addrspace(1) %out, align 4
  ret void
}

define void @local.loom_wg(ptr addrspace(3) %a, ptr addrspace(1) %out, i64 %ld, i64 %n) {
entry:
  br label %outer

outer:
  %x = phi i64 [ 0, %entry ], [ %x.next, %outer.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]
  %row = mul i64 %k, %ld
  %idx = add i64 %row, %x
  %p = getelementptr float, ptr addrspace(3) %a, i64 %idx
  %v = load float, ptr addrspace(3) %p, align 4
  %s.next = fadd float %s, %v
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %s.next, ptr addrspace(1) %o, align 4
  %x.next = add i64 %x, 1
  %again = icmp ult i64 %x.next, 16
  br i1 %again, label %outer, label %done

done:
  ret void
}

define void @not_wg(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %ld, i64 %n) {
entry:
  br label %outer

outer:
  %x = phi i64 [ 0, %entry ], [ %x.next, %outer.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]
  %row = mul i64 %k, %ld
  %idx = add i64 %row, %x
  %p = getelementptr float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %s.next, ptr addrspace(1) %o, align 4
  %x.next = add i64 %x, 1
  %again = icmp ult i64 %x.next, 16
  br i1 %again, label %outer, label %done

done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.parallel_accesses", !2}
!2 = distinct !{}
