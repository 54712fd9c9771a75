; Narrow integer vectors are stored as one integer (pack_store), with each
; lane frozen first: a poison lane (a uchar3's padding lane, which Clang
; stores as <4 x i8> with lane 3 poison; lanes of a vector never written)
; would make the whole integer poison, and InstCombine deleted the store,
; leaving stale bytes where the vector store wrote the defined lanes
; (loom-fuzz seeds 76, 95: a char3 / ushort3 live across a barrier in its
; private slot). Every store stays, in every address space, with the
; defined lanes in place.
; RUN: -passes=scalarize-vectors

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: [[P:%.*]] = and i32 %x.fr, 255
; CHECK: [[PV:%.*]] = or disjoint i32 [[P]], 591616
; CHECK: store i32 [[PV]], ptr %slot, align 4
; CHECK: or disjoint i64 {{%.*}}, 1407374883553280
; CHECK: store i64 {{%.*}}, ptr addrspace(3) %lp, align 8
; CHECK: store i32 {{%.*}}, ptr addrspace(1) %gp, align 4
; CHECK-NOT: store
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %out = load ptr addrspace(1), ptr %1, align 8
  %lm = addrspacecast ptr %2 to ptr addrspace(3)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pi = getelementptr i32, ptr addrspace(1) %in, i64 %i
  %x = load i32, ptr addrspace(1) %pi, align 4
  %b = trunc i32 %x to i8
  %s = trunc i32 %x to i16
  ; a uchar3 stored to a private slot: its padding lane is poison
  %v3 = insertelement <3 x i8> poison, i8 %b, i64 0
  %v3b = insertelement <3 x i8> %v3, i8 7, i64 1
  %v3c = insertelement <3 x i8> %v3b, i8 9, i64 2
  %pad = shufflevector <3 x i8> %v3c, <3 x i8> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  %slot = getelementptr <4 x i8>, ptr %3, i64 %i
  store <4 x i8> %pad, ptr %slot, align 4
  ; a ushort4 in __local memory with lanes 1 and 2 never written
  %w = insertelement <4 x i16> poison, i16 %s, i64 0
  %w3 = insertelement <4 x i16> %w, i16 5, i64 3
  %lp = getelementptr <4 x i16>, ptr addrspace(3) %lm, i64 %i
  store <4 x i16> %w3, ptr addrspace(3) %lp, align 8
  ; a uchar3 stored to a __global buffer
  %gp = getelementptr <4 x i8>, ptr addrspace(1) %out, i64 %i
  store <4 x i8> %pad, ptr addrspace(1) %gp, align 4
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 64
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

attributes #0 = { "prefer-vector-width"="512" }
