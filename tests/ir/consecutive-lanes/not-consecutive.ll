; Gathers and scatters that must stay: lanes two floats apart (index
; 2 * induction); a lane mask wider than the known zero bits of an
; induction whose lanes pass them (lanes 0..7, step 4, mask 15: in the
; fourth iteration <12, ..., 19> & 15 wraps to <12, ..., 15, 0, ..., 3>); a
; gather with lanes off (a vector load would read them); a phi that steps
; by a non-splat vector. And one that may go: the uniform index plus the
; induction, through sub of a constant.
; RUN: -passes=consecutive-lanes

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %a = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa,
; CHECK: %b = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pb,
; CHECK: %c = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pc, i32 4, <8 x i1> <i1 true, i1 false,
; CHECK: %d = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pd,
; CHECK: %[[E0:.*]] = extractelement <8 x i64> %ind, i64 0
; CHECK: getelementptr float, ptr addrspace(1) %in, i64 %[[E0]]
; CHECK: %[[PE:.*]] = getelementptr i8, ptr addrspace(1) {{.*}}, i64 -12
; CHECK: %[[E:.*]] = load <8 x float>, ptr addrspace(1) %[[PE]], align 4
; CHECK: %s = fadd <8 x float> %s3, %[[E]]
; CHECK: call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %s, <8 x ptr addrspace(1)> %pa,
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %u, i64 %n) #0 {
entry:
  %u.i = insertelement <8 x i64> poison, i64 %u, i64 0
  %u.s = shufflevector <8 x i64> %u.i, <8 x i64> poison, <8 x i32> zeroinitializer
  br label %body

body:
  %index = phi i64 [ 0, %entry ], [ %index.next, %body ]
  %ind = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %ind.next, %body ]
  %odd = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %odd.next, %body ]
  %by4 = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %by4.next, %body ]
  %ia = shl <8 x i64> %ind, <i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1>
  %pa = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %ia
  %a = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pa, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %ib = and <8 x i64> %by4, <i64 15, i64 15, i64 15, i64 15, i64 15, i64 15, i64 15, i64 15>
  %pb = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %ib
  %b = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pb, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %pc = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %ind
  %c = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pc, i32 4, <8 x i1> <i1 true, i1 false, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %pd = getelementptr inbounds float, ptr addrspace(1) %in, <8 x i64> %odd
  %d = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pd, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %iu = add <8 x i64> %u.s, %ind
  %ie = sub <8 x i64> %iu, <i64 3, i64 3, i64 3, i64 3, i64 3, i64 3, i64 3, i64 3>
  %pe = getelementptr float, ptr addrspace(1) %in, <8 x i64> %ie
  %e = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %pe, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s1 = fadd <8 x float> %a, %b
  %s2 = fadd <8 x float> %c, %d
  %s3 = fadd <8 x float> %s1, %s2
  %s = fadd <8 x float> %s3, %e
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %s, <8 x ptr addrspace(1)> %pa, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)
  %index.next = add i64 %index, 8
  %ind.next = add <8 x i64> %ind, <i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %odd.next = add <8 x i64> %odd, <i64 8, i64 9, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %by4.next = add <8 x i64> %by4, <i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4, i64 4>
  %done = icmp eq i64 %index.next, %n
  br i1 %done, label %exit, label %body

exit:
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p1(<8 x float>, <8 x ptr addrspace(1)>, i32, <8 x i1>)

attributes #0 = { "loom-outer-loops"="1" "prefer-vector-width"="256" }
