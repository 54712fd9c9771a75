/* The cost estimates of interleave_items.c, shared with whole_vectors.c:
 * latencies and issue costs of current x86 cores (Intel since Skylake, AMD
 * Zen 4), close enough to tell a chain-bound loop from a throughput-bound
 * one and a compute-bound region from a memory-bound one. */
#ifndef LOOM_LOOP_COST_H
#define LOOM_LOOP_COST_H
#include "analysis/loops.h"

struct loom_op_cost {
  unsigned latency; /* cycles until a dependent operation can start */
  double issue;     /* cycles of the vector ports per widened operation */
};
/* native_half: the target computes on half without converting to float
 * (AVX512-FP16); else each half operation is a float one between two
 * conversions (target/x86/half_lower.c), about 16 cycles more a step */
struct loom_op_cost loom_op_cost(LLVMValueRef in, bool native_half) LOOM_HIDDEN;

/* one iteration of an innermost loop: its issue cost (an OpenCL vector
 * operation once per element, or once when `whole`) and its longest
 * recurrence, from a header phi back to the value it takes next */
struct loom_loop_time {
  double issue;
  long chain;
};
struct loom_loop_time loom_loop_time(const struct loom_domtree *d, const struct loom_loops *l,
                                     size_t loop, unsigned simd_bytes, bool whole,
                                     bool native_half) LOOM_HIDDEN;
/* no other loop's header inside it */
bool loom_innermost(const struct loom_domtree *d, const struct loom_loops *l,
                    size_t loop) LOOM_HIDDEN;
#endif
