/* Internal interface between the steps of the kernel compiler. */
#ifndef LOOM_WG_INTERNAL_H
#define LOOM_WG_INTERNAL_H
#include "llvm_util.h"

/* A loop run one block of iterations per pass over the work-group
 * (divergent_loops.c): the ids of its two convergence points. */
struct loom_divergent_loop {
  unsigned header_id, exit_id;
};

/* per-work-item storage layout for values that live across barriers */
struct loom_slots {
  uint64_t bytes_per_item;
  uint64_t uniform_bytes; /* one copy per group: values equal for all items */
  unsigned num_divergent;  /* loops with convergence points (malloc'd list) */
  struct loom_divergent_loop *divergent;
  bool masked;         /* every region runs only the work-items that reached it */
  uint64_t where_slot; /* per work-item: the region it reached (i32) */
};

/* divergent_loops.c: puts convergence points (barrier calls) into the
 * loops of k that qualify; loop_insts holds their instructions. */
struct loom_divergent_marks {
  size_t n;
  LLVMValueRef *header_barrier, *exit_barrier;
  struct loom_ptrmap loop_insts;
  bool masked; /* some work-items skip the loop (then n == 1) */
};
void loom_mark_divergent_loops(LLVMModuleRef m, LLVMValueRef k,
                               struct loom_divergent_marks *out) LOOM_HIDDEN;
void loom_divergent_marks_free(struct loom_divergent_marks *d) LOOM_HIDDEN;

/* loop_unroll.c: unrolls the loop made of `loop` (reverse postorder, header
 * first, no inner loop; every exit edge leads to `exit`) `count` times,
 * keeping every exit test. *added receives the new blocks (free it);
 * returns their number. */
size_t loom_unroll_loop(LLVMValueRef f, LLVMBasicBlockRef *loop, size_t n, LLVMBasicBlockRef exit,
                        unsigned count, LLVMBasicBlockRef **added) LOOM_HIDDEN;

/* wg_barriers.c: numbers the barriers of kernel k (fully inlined), moves
 * private allocas and values live across barriers to per-work-item slots.
 * Returns the number of barriers. */
unsigned loom_wg_prepare_barriers(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td,
                                  struct loom_slots *slots) LOOM_HIDDEN;

/* local_mem.c: replaces the kernel's __local variables by offsets into the
 * work-group's local memory; returns the bytes they need. */
uint64_t loom_wg_lower_local_vars(LLVMModuleRef m, LLVMValueRef k,
                                  LLVMTargetDataRef td) LOOM_HIDDEN;

/* wg_function.c: builds "<kernel>.loom_wg" from k in two phases around the
 * always-inline runs (see docs/COMPILER.md). */
struct loom_wg_build {
  LLVMValueRef kernel;
  const struct loom_kernel_meta *meta;
  unsigned num_barriers;
  LLVMValueRef *regions; /* num_barriers + 1 region functions */
  LLVMValueRef *loop_ids; /* parallel loop metadata per region (may be NULL) */
  LLVMValueRef *outer_loop_ids; /* the same, asking for outer-loop vectorisation */
  bool *region_has_loop;  /* the region's body contains a loop */
  LLVMValueRef *access_groups; /* per region, for its parallel accesses */
  unsigned num_divergent;  /* from struct loom_slots */
  struct loom_divergent_loop *divergent;
  bool masked;
  uint64_t where_slot;
  bool any_outer;         /* some work-item loop uses an outer loop ID */
  uint64_t uniform_bytes;  /* size of the group-uniform slot area */
  LLVMValueRef uniform_base; /* in the work-group function */
  LLVMValueRef wg;       /* the work-group function */
  bool specialised;      /* for a constant local size (wg_specialize.c) */
};
void loom_wg_make_regions(LLVMModuleRef m, struct loom_wg_build *b) LOOM_HIDDEN;
void loom_wg_finish_regions(LLVMModuleRef m, struct loom_wg_build *b) LOOM_HIDDEN;
void loom_wg_make_function(LLVMModuleRef m, struct loom_wg_build *b,
                           LLVMTargetDataRef td, unsigned simd_bytes) LOOM_HIDDEN;
void loom_wg_resolve(LLVMModuleRef m, struct loom_wg_build *b) LOOM_HIDDEN;

/* wg_specialize.c: the work-group function of one kernel for one local size */
struct loom_wg_spec {
  const char *kernel;
  uint64_t local[3];
};
/* keeps only spec's kernel's work-group function visible, with the local
 * size as constants, renamed to its specialised symbol; -1 (message in
 * *log) when the module cannot be specialised */
int loom_wg_specialize(LLVMModuleRef m, struct loom_wg_build *builds, uint32_t n,
                       const struct loom_wg_spec *spec, char **log) LOOM_HIDDEN;

/* wi_range.c: when every side effect of region function `region` is
 * guarded by an upper bound on the local id x, emits at bld (in the
 * work-group function, before the region's loop) how many work-items in x
 * need to run (at least 1, at most lsize0); otherwise returns NULL. kargs are
 * the region call's arguments that are defined before the loop. */
LLVMValueRef loom_region_x_limit(LLVMValueRef region, unsigned np, LLVMBuilderRef bld,
                                 LLVMValueRef *kargs, LLVMValueRef lsize0) LOOM_HIDDEN;

/* uniformity.c: which values are equal across the work-group */
struct loom_uniformity;
struct loom_uniformity *loom_uniformity_compute(LLVMValueRef k) LOOM_HIDDEN;
bool loom_is_uniform(struct loom_uniformity *u, LLVMValueRef v) LOOM_HIDDEN;
void loom_uniformity_free(struct loom_uniformity *u) LOOM_HIDDEN;

/* parallel_md.c: n access groups and matching parallel loop IDs (which
 * forbid unrolling before vectorisation if keep_rolled) */
int loom_parallel_md(LLVMContextRef c, unsigned n, LLVMValueRef *groups,
                     LLVMValueRef *loop_ids, LLVMValueRef *outer_loop_ids,
                     bool keep_rolled) LOOM_HIDDEN;
/* puts every load/store of f that is not on a private variable in group */
void loom_tag_parallel_accesses(LLVMValueRef f, LLVMValueRef group) LOOM_HIDDEN;

/* outer_loop.c: region r's work-item loop should be vectorised as an outer
 * loop (its body holds a loop and only widenable instructions) */
bool loom_region_wants_outer_vectorisation(LLVMValueRef region) LOOM_HIDDEN;
/* an instruction the scalarizer splits and the vectorisers widen */
bool loom_widenable_instruction(LLVMValueRef in) LOOM_HIDDEN;
/* an element-wise intrinsic (by name: "llvm.fma.f64", ...) they widen */
bool loom_widenable_intrinsic(const char *name) LOOM_HIDDEN;

/* uniform_phi.c: lane-uniform vector phis (widened inner-loop inductions)
 * become scalar phis plus a splat; true when something changed */
bool loom_scalarize_uniform_vector_phis(LLVMModuleRef m) LOOM_HIDDEN;

/* local_atomics.c: atomic read-modify-writes on __local memory become plain
 * (volatile) load/operate/store sequences: one thread runs the whole group */
void loom_lower_local_atomics(LLVMValueRef k) LOOM_HIDDEN;

/* safe_division.c: integer divisions never trap */
void loom_guard_divisions(LLVMModuleRef m) LOOM_HIDDEN;

/* Gives every remaining scalar math call (C library or an intrinsic the
 * vectoriser cannot widen) vector variants that call it lane by lane, so
 * that work-item loops holding such calls still vectorise
 * (vector_variants.c). Run before O3. */
void loom_add_vector_variants(LLVMModuleRef m) LOOM_HIDDEN;
/* After O3: the variants the vectoriser did not call are deleted, so that
 * they cost no code generation. */
void loom_drop_unused_vector_variants(LLVMModuleRef m) LOOM_HIDDEN;
/* a builtin's rarely taken path (__loom_cold_*), kept out of line */
bool loom_is_cold_builtin(LLVMValueRef f) LOOM_HIDDEN;

/* wg_function.c: loads 8-byte slot `slot` (LOOM_CTX_*) of the work-group
 * context `ctx` as `ty` */
LLVMValueRef loom_wg_ctx_field(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef ctx,
                               unsigned slot, LLVMTypeRef ty, const char *name) LOOM_HIDDEN;

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
/* a defined work-group function (LOOM_WG_SUFFIX) */
bool loom_is_wg_function(LLVMValueRef f) LOOM_HIDDEN;

/* scalarize_choice.c: whether the kernels' vector values should be split
 * into scalars for the loop vectoriser (not where a kernel already uses
 * full-register vectors); the vector width a work-group function was made
 * for, in bits */
bool loom_scalarize_kernel_vectors(LLVMModuleRef m) LOOM_HIDDEN;
unsigned loom_preferred_vector_bits(LLVMValueRef f) LOOM_HIDDEN;

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

/* kernel_meta.c */
int loom_kernel_meta_from_module(LLVMModuleRef m, LLVMTargetDataRef td, bool arg_names,
                                 struct loom_program_binary *out) LOOM_HIDDEN;
bool loom_is_kernel(LLVMValueRef f) LOOM_HIDDEN;

#define LOOM_WG_SUFFIX ".loom_wg"

#endif
