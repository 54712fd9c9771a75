; A module LLVM's verifier rejects is reported, never handed to a pass:
; loom-opt verifies its input first (prefix INPUT), and without that check
; the pipeline's own verifier, run after every pass, names the pass after
; which the module was invalid (prefix AFTER; LOOMCL_VERIFY=1 does that in a
; build).
; The invalid IR is what vector-variants made before 3b81ad4: an empty
; "vector-function-abi-variant" mapping on the calls inside a variant.
; -no-verify turns both checks off (prefix NOVERIFY).
; RUN-FAIL(1): -passes=internalize | --check-prefix=INPUT
; RUN-FAIL(1): -no-verify-input -passes=internalize | --check-prefix=AFTER
; RUN: -no-verify -passes=internalize | --check-prefix=NOVERIFY

; INPUT: loom-opt: error: {{.*}}: the input module is invalid (LLVM's verifier):
; INPUT-NEXT: invalid name for a VFABI variant
; INPUT-NOT: after pass

; AFTER: error: LoomCL made invalid IR after pass internalize:
; AFTER-NEXT: invalid name for a VFABI variant
; AFTER-NEXT: %r = call float @fmodf(float %a, float %b) #0
; AFTER: loom-opt: error: pass internalize failed

; NOVERIFY: call float @fmodf(float %a, float %b) #0
; NOVERIFY: attributes #0 = { "vector-function-abi-variant" }

define <2 x float> @__loom_vec2_fmodf(<2 x float> %0, <2 x float> %1) {
  %a = extractelement <2 x float> %0, i32 0
  %b = extractelement <2 x float> %1, i32 0
  %r = call float @fmodf(float %a, float %b) #0
  %v = insertelement <2 x float> poison, float %r, i32 0
  ret <2 x float> %v
}

declare float @fmodf(float, float)

attributes #0 = { "vector-function-abi-variant"="" }
