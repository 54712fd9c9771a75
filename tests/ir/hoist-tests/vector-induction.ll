; combine-gathers' test in LLVM's vector loop of a float2 read (clpeak's
; global bandwidth kernel: A[id + i * get_global_size(0)], 16 work-items a
; trip): the lanes' addresses contiguous. Its leaves go through forms the
; vectoriser makes: the vector of lane indices (a phi stepping by 16 beside
; the counter), a 32-bit index sign-extended and scaled as
; (x << 32) >> 29, a GEP of a scalar base and a vector index, lane 0's
; pointer taken out of the vector; the loop is entered from the
; vectoriser's trip-count test (a conditional branch: the hoisted test gets
; a preheader of its own). Before, the test stayed in the loop for every
; trip, its two paths' results spilled: clpeak's float2 bandwidth at 60-70%
; of float on Zen 4. Now the loop runs without it and its copy (.tested)
; keeps it.
; RUN: -passes=hoist-tests

; CHECK-LABEL: define void @bw2(
; CHECK: tests.pre:
; CHECK: icmp sge <16 x i64> %{{.*}}, <i64 -2147483648,
; CHECK: icmp sle <16 x i64> %{{.*}}, <i64 2147483647,
; CHECK: br i1 %{{.*}}, label %body, label %body.tested{{$}}
; CHECK: body:
; CHECK-NOT: masked.gather
; CHECK: load <16 x float>
; CHECK: br i1 %done, label %exit, label %body
; CHECK: body.tested:
; CHECK: br i1 %whole{{[0-9]+}}, label %fast.tested, label %slow.tested
; CHECK: slow.tested:
; CHECK: call <16 x float> @llvm.masked.gather

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @bw2(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %base, i64 %n) {
entry:
  %bs = insertelement <16 x i64> poison, i64 %base, i64 0
  %splat = shufflevector <16 x i64> %bs, <16 x i64> poison, <16 x i32> zeroinitializer
  %few = icmp ult i64 %n, 16
  br i1 %few, label %exit, label %body

body:
  %index = phi i64 [ 0, %entry ], [ %index.next, %join ]
  %vec.ind = phi <16 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>, %entry ], [ %vec.ind.next, %join ]
  %id = add <16 x i64> %splat, %vec.ind
  %hi = shl <16 x i64> %id, <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
  %off = ashr exact <16 x i64> %hi, <i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29, i64 29>
  %ptrs = getelementptr inbounds i8, ptr addrspace(1) %a, <16 x i64> %off
  %p0 = extractelement <16 x ptr addrspace(1)> %ptrs, i64 0
  %pv = ptrtoint <16 x ptr addrspace(1)> %ptrs to <16 x i64>
  %p0i = ptrtoint ptr addrspace(1) %p0 to i64
  %p0v = insertelement <16 x i64> poison, i64 %p0i, i64 0
  %p0s = shufflevector <16 x i64> %p0v, <16 x i64> poison, <16 x i32> zeroinitializer
  %d = sub <16 x i64> %pv, %p0s
  %eq = icmp eq <16 x i64> %d, <i64 0, i64 8, i64 16, i64 24, i64 32, i64 40, i64 48, i64 56, i64 64, i64 72, i64 80, i64 88, i64 96, i64 104, i64 112, i64 120>
  %bits = bitcast <16 x i1> %eq to i16
  %whole = icmp eq i16 %bits, -1
  br i1 %whole, label %fast, label %slow, !loom.test !0

fast:
  %row = load <16 x float>, ptr addrspace(1) %p0, align 4
  %q = getelementptr i8, ptr addrspace(1) %p0, i64 64
  %row1 = load <16 x float>, ptr addrspace(1) %q, align 4
  %even = shufflevector <16 x float> %row, <16 x float> %row1, <16 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>
  br label %join

slow:
  %g = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %ptrs, i32 8, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x float> poison)
  br label %join

join:
  %x = phi <16 x float> [ %even, %fast ], [ %g, %slow ]
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %index
  store <16 x float> %x, ptr addrspace(1) %o, align 4
  %index.next = add nuw i64 %index, 16
  %vec.ind.next = add <16 x i64> %vec.ind, <i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16, i64 16>
  %done = icmp eq i64 %index.next, %n
  br i1 %done, label %exit, label %body

exit:
  ret void
}

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)

!0 = !{}
