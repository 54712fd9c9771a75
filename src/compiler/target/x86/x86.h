/* Rewrites that only make sense on x86: integer division never trapping,
 * and after O3 the fp16 lowering (half_lower.h), non-temporal stores,
 * the AVX-512 reciprocal square root, combined atomic additions and vector
 * shift amounts in range. */
#ifndef LOOM_TARGET_X86_H
#define LOOM_TARGET_X86_H
#include "support/llvm_util.h"

/* safe_division.c: integer divisions never trap */
void loom_guard_divisions(LLVMModuleRef m) LOOM_HIDDEN;
/* an sdiv, udiv, srem or urem */
bool loom_is_int_division(LLVMValueRef i) LOOM_HIDDEN;
/* the division's divisor is a constant that traps in no lane */
bool loom_division_cannot_trap(LLVMValueRef div) LOOM_HIDDEN;
/* d, or 1 where op (sdiv, udiv, srem, urem) of n by d would trap; built at b */
LLVMValueRef loom_safe_divisor(LLVMBuilderRef b, LLVMOpcode op, LLVMValueRef n,
                               LLVMValueRef d) LOOM_HIDDEN;


/* streaming_stores.c: after O3, full-width vector stores into buffers the
 * kernel never reads become non-temporal when the launch is large and the
 * address aligned (tested at run time) */
void loom_stream_large_stores(LLVMModuleRef m) LOOM_HIDDEN;

/* fast_rsqrt.c: after O3, with AVX-512 (features: the target's), float
 * and float-vector divisions 1 / sqrt(x) that may be inexact become
 * VRSQRT14PS and a Newton step */
void loom_fast_rsqrt(LLVMModuleRef m, const char *features) LOOM_HIDDEN;
void loom_mark_rsqrt_divisions(LLVMModuleRef m, const char *features) LOOM_HIDDEN;

/* atomic_combining.c: after O3, a work-group's relaxed atomic additions
 * with unused results are summed per address and applied when it ends, in
 * functions where nothing could observe the pending sums */
void loom_combine_atomic_adds(LLVMModuleRef m) LOOM_HIDDEN;

/* stride_prefetch.c: after O3, loads in inner loops whose pointer moves by
 * 2 KB to 16 MB an iteration (measured at run time) are prefetched a few
 * iterations ahead */
void loom_prefetch_strides(LLVMModuleRef m) LOOM_HIDDEN;

/* shift_lanes.c: just before code generation, vector shifts by constants
 * get amount 0 in their out-of-range and poison lanes (LLVM 19's x86 code
 * generator takes such lanes for zero, the instructions do not) */
void loom_fix_shift_lanes(LLVMModuleRef m) LOOM_HIDDEN;

#endif
