; After O3, the vector variants the loop vectoriser did not call are
; deleted, and those it called become internal (5e10560); scalar
; functions and other definitions stay.
; RUN: -passes=drop-vector-variants

; CHECK-NOT: @__loom_vec2_fmodf
; CHECK-NOT: @__loom_vec16_fmodf
; CHECK-LABEL: define void @k.loom_wg(
; CHECK: call <4 x float> @__loom_vec4_fmodf(
; CHECK-NOT: @__loom_vec2_fmodf
; CHECK-NOT: @__loom_vec16_fmodf
; CHECK: define internal <4 x float> @__loom_vec4_fmodf(
; CHECK-NOT: @__loom_vec2_fmodf
; CHECK-NOT: @__loom_vec16_fmodf

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %x = load ptr addrspace(1), ptr %0, align 8
  %v = load <4 x float>, ptr addrspace(1) %x, align 16
  %r = call <4 x float> @__loom_vec4_fmodf(<4 x float> %v, <4 x float> %v)
  store <4 x float> %r, ptr addrspace(1) %x, align 16
  ret void
}

define <2 x float> @__loom_vec2_fmodf(<2 x float> %0, <2 x float> %1) {
  %a = extractelement <2 x float> %0, i32 0
  %b = extractelement <2 x float> %1, i32 0
  %r = call float @fmodf(float %a, float %b)
  %v = insertelement <2 x float> poison, float %r, i32 0
  ret <2 x float> %v
}

define <4 x float> @__loom_vec4_fmodf(<4 x float> %0, <4 x float> %1) {
  %a = extractelement <4 x float> %0, i32 0
  %b = extractelement <4 x float> %1, i32 0
  %r = call float @fmodf(float %a, float %b)
  %v = insertelement <4 x float> poison, float %r, i32 0
  ret <4 x float> %v
}

define <16 x float> @__loom_vec16_fmodf(<16 x float> %0, <16 x float> %1) {
  %a = extractelement <16 x float> %0, i32 0
  %b = extractelement <16 x float> %1, i32 0
  %r = call float @fmodf(float %a, float %b)
  %v = insertelement <16 x float> poison, float %r, i32 0
  ret <16 x float> %v
}

declare float @fmodf(float, float)
