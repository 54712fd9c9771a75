/* Analyses: facts about a function that transformations query. Nothing
 * here changes the IR. */
#ifndef LOOM_ANALYSIS_H
#define LOOM_ANALYSIS_H
#include "support/llvm_util.h"

/* uniformity.c: which values are equal across the work-group */
struct loom_uniformity;
struct loom_uniformity *loom_uniformity_compute(LLVMValueRef k) LOOM_HIDDEN;
bool loom_is_uniform(struct loom_uniformity *u, LLVMValueRef v) LOOM_HIDDEN;
void loom_uniformity_free(struct loom_uniformity *u) LOOM_HIDDEN;

/* buffer_access.c: for the passes after O3. The load of a buffer argument
 * from the argument block (the work-group function's first parameter) that
 * p is based on, or NULL. */
LLVMValueRef loom_wg_buffer_argument(LLVMValueRef wg, LLVMValueRef p) LOOM_HIDDEN;
struct loom_buffer_set {
  LLVMValueRef *args; /* loom_wg_buffer_argument values; free it */
  size_t n, cap;
};
/* Adds the buffer arguments wg reads with plain loads (and writes with plain
 * stores, with `stores`) to out; false when the buffer of some access cannot
 * be told (out is then incomplete). Private memory, the argument block, the
 * context, __local memory and scratch do not count, nor do atomics. */
bool loom_wg_plain_buffer_accesses(LLVMValueRef wg, bool stores, struct loom_buffer_set *out) LOOM_HIDDEN;
bool loom_buffer_set_has(const struct loom_buffer_set *s, LLVMValueRef arg) LOOM_HIDDEN;
/* adds arg to s unless it is there already */
void loom_buffer_set_add(struct loom_buffer_set *s, LLVMValueRef arg) LOOM_HIDDEN;
/* an atomic, a fence, a volatile access or a call other than an intrinsic:
 * something that constrains how other threads see this thread's memory
 * accesses */
bool loom_orders_memory(LLVMValueRef inst) LOOM_HIDDEN;

#endif
