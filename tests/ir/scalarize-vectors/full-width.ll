; A work-group function that wg-function marked to keep its OpenCL vectors
; whole ("loom-whole-vectors": float16 with 512-bit registers, in a memory-
; bound region; vectorize/whole_vectors.c) is left as it is; the program's
; other kernels are split as usual. (Before, one such kernel kept every
; kernel of its program whole.)
; RUN: -passes=scalarize-vectors

; CHECK-LABEL: define void @axpy4.loom_wg(
; CHECK-NOT: fmul <4 x float>
; CHECK: fmul float
; CHECK-LABEL: define void @scale16.loom_wg(
; CHECK: fmul <16 x float>
; CHECK-NOT: optnone
; CHECK-LABEL: attributes #0
; CHECK-NOT: optnone

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; y[i] = a * x[i] + y[i] on float4
define void @axpy4.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %x = load ptr addrspace(1), ptr %0, align 8
  %p.y = getelementptr i8, ptr %0, i64 8
  %y = load ptr addrspace(1), ptr %p.y, align 8
  %p.a = getelementptr i8, ptr %0, i64 16
  %a = load float, ptr %p.a, align 4
  %a.v = insertelement <4 x float> poison, float %a, i64 0
  %a4 = shufflevector <4 x float> %a.v, <4 x float> poison, <4 x i32> zeroinitializer
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %px = getelementptr inbounds <4 x float>, ptr addrspace(1) %x, i64 %lx
  %vx = load <4 x float>, ptr addrspace(1) %px, align 16
  %py = getelementptr inbounds <4 x float>, ptr addrspace(1) %y, i64 %lx
  %vy = load <4 x float>, ptr addrspace(1) %py, align 16
  %ax = fmul <4 x float> %a4, %vx
  %r = fadd <4 x float> %ax, %vy
  store <4 x float> %r, ptr addrspace(1) %py, align 16
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}


; a kernel on float16 already fills a 512-bit register
define void @scale16.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #1 {
entry:
  %x = load ptr addrspace(1), ptr %0, align 8
  %v = load <16 x float>, ptr addrspace(1) %x, align 64
  %w = fmul <16 x float> %v, %v
  store <16 x float> %w, ptr addrspace(1) %x, align 64
  ret void
}

attributes #0 = { "prefer-vector-width"="512" }
attributes #1 = { "loom-whole-vectors"="1" "prefer-vector-width"="512" }
