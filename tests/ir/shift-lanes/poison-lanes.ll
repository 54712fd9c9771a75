; The SLP vectoriser's "alternate" bundles compute both operations on every
; lane and shuffle; the discarded lane of a shift gets the other operation's
; constant (65535), a shift past the width: poison. LLVM 19's x86 code
; generator took that lane for zero and merged the shuffle into an OR while
; VPSRAVD fills it with sign bits (loom-fuzz seed 1004659). Out-of-range and
; poison lanes of constant vector shift amounts become 0; in-range amounts,
; scalar shifts and shifts by variables stay.
; RUN: -passes=shift-lanes

; CHECK-LABEL: define <2 x i32> @alt(
; CHECK: %s = ashr exact <2 x i32> %v, <i32 24, i32 0>
; CHECK: %l = lshr <4 x i32> %w, <i32 1, i32 0, i32 31, i32 0>
; CHECK: %h = shl <2 x i64> %x, <i64 63, i64 0>
; CHECK: %ok = ashr <2 x i32> %v, <i32 3, i32 31>
; CHECK: %var = shl <2 x i32> %v, %v
; CHECK: %sc = shl i32 %a, 7

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define <2 x i32> @alt(<2 x i32> %v, <4 x i32> %w, <2 x i64> %x, i32 %a, ptr %p) {
  %s = ashr exact <2 x i32> %v, <i32 24, i32 65535>
  %n = and <2 x i32> %v, <i32 poison, i32 65535>
  %r = shufflevector <2 x i32> %s, <2 x i32> %n, <2 x i32> <i32 0, i32 3>
  %l = lshr <4 x i32> %w, <i32 1, i32 32, i32 31, i32 poison>
  store <4 x i32> %l, ptr %p, align 16
  %h = shl <2 x i64> %x, <i64 63, i64 64>
  store <2 x i64> %h, ptr %p, align 16
  %ok = ashr <2 x i32> %v, <i32 3, i32 31>
  store <2 x i32> %ok, ptr %p, align 8
  %var = shl <2 x i32> %v, %v
  store <2 x i32> %var, ptr %p, align 8
  %sc = shl i32 %a, 7
  store i32 %sc, ptr %p, align 4
  ret <2 x i32> %r
}
