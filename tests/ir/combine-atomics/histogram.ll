; A work-group's relaxed atomic additions with unused results, into buffer
; arguments, are summed per address in a 256-slot table on the stack and
; applied when the group returns (histogram: atomic_inc(&bins[v & 255])):
;  - the table (addresses, 64-bit sums, a bit map of the slots in use, the
;    only part cleared per group) lives in the entry block;
;  - each addition looks its slot up (address / 4 mod 256): a hit adds to
;    the sum, a miss evicts the slot's old address with one relaxed atomic
;    and installs the new one;
;  - before the return, the slots in use are flushed with one relaxed
;    atomic each, in four 64-bit words of the map;
;  - the entry compares the combined buffer's pointer with those of the
;    buffers the group accesses plainly (in): when two arguments name one
;    buffer every addition goes straight to memory (guards de8a444: a
;    histogram read back through a second argument saw stale sums).
; Kept as they are: an addition whose old value is used (used_old), a
; seq_cst one, one in a function with a fence, one into a buffer also read
; plainly (read_back), and functions with two integer widths (widths).
; With -O0 nothing changes (prefix O0).
; RUN: -passes=combine-atomics
; RUN: -passes=combine-atomics -O0 | --check-prefix=O0

; CHECK-LABEL: define void @hist.loom_wg(
; CHECK-NEXT: entry:
; CHECK-NEXT: %combine.addrs = alloca [256 x i64], align 64
; CHECK-NEXT: %combine.sums = alloca [256 x i64], align 64
; CHECK-NEXT: %combine.used = alloca [4 x i64], align 32
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 32 %combine.used, i8 0, i64 32, i1 false)
; the alias test: the combined buffer (args + 8) against the one read (args + 0)
; CHECK: %lsize = load i64
; CHECK-NEXT: %[[IN:[0-9]+]] = load ptr addrspace(1), ptr %0
; CHECK-NEXT: %[[INI:.*]] = ptrtoint ptr addrspace(1) %[[IN]] to i64
; CHECK-NEXT: %[[PB:.*]] = getelementptr i8, ptr %0, i64 8
; CHECK-NEXT: %[[BINS:.*]] = load ptr addrspace(1), ptr %[[PB]]
; CHECK-NEXT: %[[BINSI:.*]] = ptrtoint ptr addrspace(1) %[[BINS]] to i64
; CHECK-NEXT: %[[SAME:.*]] = icmp eq i64 %[[BINSI]], %[[INI]]
; CHECK-NEXT: %[[ALIASED:.*]] = or i1 false, %[[SAME]]
; CHECK: wi_x:
; CHECK: %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
; CHECK-NEXT: br i1 %[[ALIASED]], label %combine.direct, label %combine.lookup
; CHECK: combine.lookup:
; CHECK: %slot = and i64 %{{.*}}, 255
; CHECK: br i1 %{{.*}}, label %combine.hit, label %combine.miss
; CHECK: combine.hit:
; CHECK: add i64 %{{.*}}, 1
; CHECK: combine.evict:
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 %{{.*}} monotonic
; CHECK: combine.install:
; CHECK: combine.direct:
; CHECK-NEXT: atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic
; CHECK: done:
; CHECK: combine.flush:
; CHECK: call i64 @llvm.cttz.i64(
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 %{{.*}} monotonic
; CHECK: combine.flush{{[0-9]+}}:
; CHECK: combine.flush{{[0-9]+}}:
; CHECK: combine.flush{{[0-9]+}}:
; CHECK: ret void

; CHECK-LABEL: define void @used_old.loom_wg(
; CHECK-NOT: combine.
; CHECK-LABEL: define void @seq_cst.loom_wg(
; CHECK-NOT: combine.
; CHECK-LABEL: define void @fenced.loom_wg(
; CHECK-NOT: combine.
; CHECK-LABEL: define void @read_back.loom_wg(
; CHECK-NOT: combine.
; CHECK-LABEL: define void @widths.loom_wg(
; CHECK-NOT: combine.
; CHECK: ret void

; O0-NOT: combine.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @hist.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic, align 4
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

define void @used_old.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic, align 4
  store i32 %old, ptr addrspace(1) %p.in, align 4
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

define void @seq_cst.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 seq_cst, align 4
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

define void @fenced.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic, align 4
  fence release
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

define void @read_back.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic, align 4
  %seen = load i32, ptr addrspace(1) %p.bin, align 4
  store i32 %seen, ptr addrspace(1) %p.in, align 4
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}

define void @widths.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %in = load ptr addrspace(1), ptr %0, align 8
  %p.bins = getelementptr i8, ptr %0, i64 8
  %bins = load ptr addrspace(1), ptr %p.bins, align 8
  %p.lsize = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %p.lsize, align 8
  br label %wi_x

wi_x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %wi_x ]
  %p.in = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %lx
  %v = load i32, ptr addrspace(1) %p.in, align 4
  %bin = and i32 %v, 255
  %bin64 = zext nneg i32 %bin to i64
  %p.bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %bin64
  %old = atomicrmw add ptr addrspace(1) %p.bin, i32 1 monotonic, align 4
  %old64 = atomicrmw add ptr addrspace(1) %p.bin, i64 1 monotonic, align 8
  %lx.next = add nuw i64 %lx, 1
  %more = icmp ult i64 %lx.next, %lsize
  br i1 %more, label %wi_x, label %done

done:
  ret void
}
