; A kernel specialised for its local size reads its rows with constant
; indices (vectorize/gather_rows.c: a constant index has no leaf): lane i's
; element k of the row at t + 34 i is t[<k, 34 + k, 68 + k, ...>] for some
; members and (t + k)[<0, 34, 68, ...>] for others, as O3 leaves them.
; Keyed by their steps (<0, 34, ...>), lane 0's element in the offset, the
; eight are one family: eight row loads and the transposition. CLBlast's
; XgemmDirectTN specialised for 8x8 groups kept 32 gathers a tile of its k
; loop this way (SGEMM 512 on AMD Zen 5: 59 -> 74 GFLOP/s).
;  - @other_step: the odd members' lanes 35 floats apart: not one family.
; RUN: -passes=gather-rows

; CHECK-LABEL: define void @constant_rows(
; CHECK: %row0 = getelementptr i8, ptr addrspace(3) %t, i64 0
; CHECK: rows.whole:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 0
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R0]], align 4
; CHECK: %[[R7:.*]] = getelementptr i8, ptr addrspace(3) %row0, i64 952
; CHECK-NEXT: load <8 x float>, ptr addrspace(3) %[[R7]], align 4
; CHECK-COUNT-24: shufflevector <8 x float>
; CHECK: rows.apart:
; CHECK-COUNT-8: call <8 x float> @llvm.masked.gather.v8f32.v8p3({{.*}}), !loom.gathers.apart
; CHECK: %row.component = phi <8 x float>
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void

; CHECK-LABEL: define void @other_step(
; CHECK-NOT: rows.whole
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @constant_rows(ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q1 = getelementptr float, ptr addrspace(3) %t, i64 1
  %p1 = getelementptr float, ptr addrspace(3) %q1, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 2, i64 36, i64 70, i64 104, i64 138, i64 172, i64 206, i64 240>
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q3 = getelementptr float, ptr addrspace(3) %t, i64 3
  %p3 = getelementptr float, ptr addrspace(3) %q3, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 4, i64 38, i64 72, i64 106, i64 140, i64 174, i64 208, i64 242>
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q5 = getelementptr float, ptr addrspace(3) %t, i64 5
  %p5 = getelementptr float, ptr addrspace(3) %q5, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 6, i64 40, i64 74, i64 108, i64 142, i64 176, i64 210, i64 244>
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q7 = getelementptr float, ptr addrspace(3) %t, i64 7
  %p7 = getelementptr float, ptr addrspace(3) %q7, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s1 = fadd <8 x float> %g0, %g1
  %s2 = fadd <8 x float> %s1, %g2
  %s3 = fadd <8 x float> %s2, %g3
  %s4 = fadd <8 x float> %s3, %g4
  %s5 = fadd <8 x float> %s4, %g5
  %s6 = fadd <8 x float> %s5, %g6
  %s7 = fadd <8 x float> %s6, %g7
  store <8 x float> %s7, ptr addrspace(1) %out, align 4
  ret void
}

define void @other_step(ptr addrspace(3) %t, ptr addrspace(1) %out) {
entry:
  %p0 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 0, i64 34, i64 68, i64 102, i64 136, i64 170, i64 204, i64 238>
  %g0 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p0, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q1 = getelementptr float, ptr addrspace(3) %t, i64 1
  %p1 = getelementptr float, ptr addrspace(3) %q1, <8 x i64> <i64 0, i64 35, i64 70, i64 105, i64 140, i64 175, i64 210, i64 245>
  %g1 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p1, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p2 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 2, i64 36, i64 70, i64 104, i64 138, i64 172, i64 206, i64 240>
  %g2 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p2, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q3 = getelementptr float, ptr addrspace(3) %t, i64 3
  %p3 = getelementptr float, ptr addrspace(3) %q3, <8 x i64> <i64 0, i64 35, i64 70, i64 105, i64 140, i64 175, i64 210, i64 245>
  %g3 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p3, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p4 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 4, i64 38, i64 72, i64 106, i64 140, i64 174, i64 208, i64 242>
  %g4 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p4, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q5 = getelementptr float, ptr addrspace(3) %t, i64 5
  %p5 = getelementptr float, ptr addrspace(3) %q5, <8 x i64> <i64 0, i64 35, i64 70, i64 105, i64 140, i64 175, i64 210, i64 245>
  %g5 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p5, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %p6 = getelementptr inbounds float, ptr addrspace(3) %t, <8 x i64> <i64 6, i64 40, i64 74, i64 108, i64 142, i64 176, i64 210, i64 244>
  %g6 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p6, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %q7 = getelementptr float, ptr addrspace(3) %t, i64 7
  %p7 = getelementptr float, ptr addrspace(3) %q7, <8 x i64> <i64 0, i64 35, i64 70, i64 105, i64 140, i64 175, i64 210, i64 245>
  %g7 = call <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)> %p7, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s1 = fadd <8 x float> %g0, %g1
  %s2 = fadd <8 x float> %s1, %g2
  %s3 = fadd <8 x float> %s2, %g3
  %s4 = fadd <8 x float> %s3, %g4
  %s5 = fadd <8 x float> %s4, %g5
  %s6 = fadd <8 x float> %s5, %g6
  %s7 = fadd <8 x float> %s6, %g7
  store <8 x float> %s7, ptr addrspace(1) %out, align 4
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p3(<8 x ptr addrspace(3)>, i32 immarg, <8 x i1>, <8 x float>)
