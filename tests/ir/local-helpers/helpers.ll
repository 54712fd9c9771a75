; Every function definition but the work-group functions becomes internal
; (a program compiled in parts has a copy of its helpers in each part's
; object: backend/codegen_split.c); declarations and the work-group
; functions keep their linkage.
; RUN: -passes=local-helpers

; CHECK: define void @k.loom_wg(
; CHECK: define internal <8 x float> @_ZGVdN8v_sinf(
; CHECK: define internal float @helper(
; CHECK: declare float @sinf(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @k.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) {
entry:
  %v = load <8 x float>, ptr %0, align 32
  %s = call <8 x float> @_ZGVdN8v_sinf(<8 x float> %v)
  store <8 x float> %s, ptr %0, align 32
  %x = load float, ptr %1, align 4
  %y = call float @helper(float %x)
  store float %y, ptr %1, align 4
  ret void
}

define <8 x float> @_ZGVdN8v_sinf(<8 x float> %x) {
  ret <8 x float> %x
}

define float @helper(float %x) {
  %s = call float @sinf(float %x)
  ret float %s
}

declare float @sinf(float)
