; Full-width vector stores into a buffer the kernel never reads become
; non-temporal when the launch is large and the address aligned, both
; tested at run time: the launch's bytes (global size 0-2 from the context,
; bytes 120-136, times the element size) against the driver's threshold
; (context byte 192; 0 turns it off), once, at the top of the entry block;
; then per store the alignment to the vector (64 bytes), and a branch to a
; !nontemporal copy or the plain store.
;  - copy.loom_wg stores in its entry block (a specialised work-group
;    function is often one block): guards 13c186c, which had skipped the
;    entry block and put the launch test before its terminator, after the
;    store;
;  - triad.loom_wg stores in a loop;
;  - wide.loom_wg stores <32 x double>, four registers (work-items run side
;    by side: vectorize/interleave_items.c), with the element size 8 in the
;    launch test; before, only single-register stores streamed and
;    fp64_poly lost 20% with two registers;
;  - left alone: inout.loom_wg (reads the buffer it stores to),
;    fenced.loom_wg (a fence orders its stores), narrow.loom_wg (a 128-bit
;    store with 512-bit vectors preferred), sse.loom_wg (128-bit vectors:
;    nothing to gain), and any function not named *.loom_wg; with -O0
;    nothing changes (prefix O0).
; RUN: -passes=streaming-stores
; RUN: -passes=streaming-stores -O0 | --check-prefix=O0

; CHECK-LABEL: define void @copy.loom_wg(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[P0:.*]] = getelementptr i8, ptr %1, i64 120
; CHECK-NEXT: %[[G0:.*]] = load i64, ptr %[[P0]]
; CHECK: getelementptr i8, ptr %1, i64 128
; CHECK: getelementptr i8, ptr %1, i64 136
; CHECK: %[[ITEMS:.*]] = mul i64 %{{.*}}, %{{.*}}
; CHECK-NEXT: %[[PT:.*]] = getelementptr i8, ptr %1, i64 192
; CHECK-NEXT: %[[THRESHOLD:.*]] = load i64, ptr %[[PT]]
; CHECK-NEXT: %[[BYTES:.*]] = mul i64 %[[ITEMS]], 4
; CHECK-NEXT: %[[BIG:.*]] = icmp uge i64 %[[BYTES]], %[[THRESHOLD]]
; CHECK-NEXT: %[[ON:.*]] = icmp ne i64 %[[THRESHOLD]], 0
; CHECK-NEXT: %stream_launch = and i1 %[[ON]], %[[BIG]]
; CHECK: %dst = getelementptr inbounds float, ptr addrspace(1) %c, i64 %base
; CHECK-NEXT: %[[ADDR:.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT: %[[LOW:.*]] = and i64 %[[ADDR]], 63
; CHECK-NEXT: %[[ALIGNED:.*]] = icmp eq i64 %[[LOW]], 0
; CHECK-NEXT: %stream = and i1 %stream_launch, %[[ALIGNED]]
; CHECK-NEXT: br i1 %stream, label %stream.nt, label %[[PLAIN:.*]]
; CHECK: [[PLAIN]]:
; CHECK-NEXT: store <16 x float> %v, ptr addrspace(1) %dst, align 4
; CHECK-NOT: nontemporal
; CHECK: stream.nt:
; CHECK-NEXT: store <16 x float> %v, ptr addrspace(1) %dst, align 64, !nontemporal ![[NT:[0-9]+]]

; CHECK-LABEL: define void @wide.loom_wg(
; CHECK: %[[WBYTES:.*]] = mul i64 %{{.*}}, 8
; CHECK: br i1 %stream, label %stream.nt, label %[[WPLAIN:.*]]
; CHECK: [[WPLAIN]]:
; CHECK-NEXT: store <32 x double> %v, ptr addrspace(1) %dst, align 8
; CHECK: stream.nt:
; CHECK-NEXT: store <32 x double> %v, ptr addrspace(1) %dst, align 64, !nontemporal

; CHECK-LABEL: define void @triad.loom_wg(
; CHECK: %stream_launch = and i1
; CHECK: loop:
; CHECK: %[[A:.*]] = ptrtoint ptr addrspace(1) %dst to i64
; CHECK-NEXT: %[[L:.*]] = and i64 %[[A]], 63
; CHECK: br i1 %{{.*}}, label %stream.nt, label
; CHECK: stream.nt:
; CHECK-NEXT: store <16 x float> %sum, ptr addrspace(1) %dst, align 64, !nontemporal ![[NT]]

; CHECK-LABEL: define void @inout.loom_wg(
; CHECK-NOT: nontemporal
; CHECK-LABEL: define void @fenced.loom_wg(
; CHECK-NOT: nontemporal
; CHECK-LABEL: define void @narrow.loom_wg(
; CHECK-NOT: nontemporal
; CHECK-LABEL: define void @sse.loom_wg(
; CHECK-NOT: nontemporal
; CHECK-LABEL: define void @helper(
; CHECK-NOT: nontemporal
; CHECK: ![[NT]] = !{i32 1}

; O0-NOT: nontemporal
; O0-NOT: stream_launch

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; c[16 g .. 16 g + 15] = a[...]: one block
define void @copy.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %group = load i64, ptr %1, align 8
  %base = shl i64 %group, 4
  %src = getelementptr inbounds float, ptr addrspace(1) %a, i64 %base
  %v = load <16 x float>, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds float, ptr addrspace(1) %c, i64 %base
  store <16 x float> %v, ptr addrspace(1) %dst, align 4
  ret void
}

; c[i] = a[i] + b[i] over the group, 16 at a time
define void @wide.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %group = load i64, ptr %1, align 8
  %base = shl i64 %group, 5
  %src = getelementptr inbounds double, ptr addrspace(1) %a, i64 %base
  %v = load <32 x double>, ptr addrspace(1) %src, align 8
  %dst = getelementptr inbounds double, ptr addrspace(1) %c, i64 %base
  store <32 x double> %v, ptr addrspace(1) %dst, align 8
  ret void
}

define void @triad.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.b = getelementptr i8, ptr %0, i64 8
  %b = load ptr addrspace(1), ptr %p.b, align 8
  %p.c = getelementptr i8, ptr %0, i64 16
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %va = load <16 x float>, ptr addrspace(1) %pa, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %i
  %vb = load <16 x float>, ptr addrspace(1) %pb, align 4
  %sum = fadd <16 x float> %va, %vb
  %dst = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store <16 x float> %sum, ptr addrspace(1) %dst, align 4
  %i.next = add i64 %i, 16
  %more = icmp ult i64 %i.next, %lsize
  br i1 %more, label %loop, label %done

done:
  ret void
}

; c[i] += 1: c is read too
define void @inout.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %c = load ptr addrspace(1), ptr %0, align 8
  %v = load <16 x float>, ptr addrspace(1) %c, align 4
  %w = fadd <16 x float> %v, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  store <16 x float> %w, ptr addrspace(1) %c, align 4
  ret void
}

define void @fenced.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %v = load <16 x float>, ptr addrspace(1) %a, align 4
  store <16 x float> %v, ptr addrspace(1) %c, align 4
  fence release
  ret void
}

define void @narrow.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %v = load <4 x float>, ptr addrspace(1) %a, align 4
  store <4 x float> %v, ptr addrspace(1) %c, align 4
  ret void
}

define void @sse.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #1 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %v = load <4 x float>, ptr addrspace(1) %a, align 4
  store <4 x float> %v, ptr addrspace(1) %c, align 4
  ret void
}

define void @helper(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #0 {
entry:
  %a = load ptr addrspace(1), ptr %0, align 8
  %p.c = getelementptr i8, ptr %0, i64 8
  %c = load ptr addrspace(1), ptr %p.c, align 8
  %v = load <16 x float>, ptr addrspace(1) %a, align 4
  store <16 x float> %v, ptr addrspace(1) %c, align 4
  ret void
}

attributes #0 = { "prefer-vector-width"="512" }
attributes #1 = { "prefer-vector-width"="128" }
