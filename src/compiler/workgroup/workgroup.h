/* The work-group compiler (CPU-style targets): a kernel becomes a function
 * that runs every work-item of one work-group, with its work-item loops,
 * barrier regions, __local memory and specialisation for a local size. */
#ifndef LOOM_WORKGROUP_H
#define LOOM_WORKGROUP_H
#include "support/llvm_util.h"

/* A loop run one block of iterations per pass over the work-group
 * (divergent_loops.c): the ids of its two convergence points. */
struct loom_divergent_loop {
  unsigned header_id, exit_id;
};

/* A sub-group barrier (sg_collectives.c): barrier `id`, and for a
 * collective its combine operation (LOOM_SG_OP in loom_abi.h; 0: a plain
 * sub_group_barrier) and the per-work-item slots of its value, its result
 * and its auxiliary operand. */
struct loom_sg_point {
  unsigned id, op;
  uint64_t x_off, x_size, res_off, res_size, aux_off;
};

/* per-work-item storage layout for values that live across barriers */
struct loom_slots {
  uint64_t bytes_per_item;
  uint64_t uniform_bytes; /* one copy per group: values equal for all items */
  unsigned num_divergent;  /* loops with convergence points (malloc'd list) */
  struct loom_divergent_loop *divergent;
  bool masked;         /* every region runs only the work-items that reached it */
  uint64_t where_slot; /* per work-item: the region it reached (i32) */
  unsigned num_sg;     /* sub-group barriers (malloc'd list; none: 0) */
  struct loom_sg_point *sg;
};

/* sg_collectives.c: the sub-group function calls of kernel k, each made a
 * __loom_barrier call with its values in slots of s; out->barrier[i] is the
 * barrier of out->point[i] (id not yet known). Returns their number. */
struct loom_sg_lowered {
  size_t n;
  LLVMValueRef *barrier;
  struct loom_sg_point *point;
};
size_t loom_lower_sub_group_calls(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td,
                                  struct loom_slots *s, struct loom_sg_lowered *out) LOOM_HIDDEN;
void loom_sg_lowered_free(struct loom_sg_lowered *s) LOOM_HIDDEN;
/* wg_barriers.c: a per-work-item slot of s (its offset), and the address of
 * this work-item's copy (a __loom_slot call at b) */
uint64_t loom_wg_slot_alloc(struct loom_slots *s, uint64_t size, uint64_t align) LOOM_HIDDEN;
LLVMValueRef loom_wg_slot_addr(LLVMModuleRef m, LLVMBuilderRef b, uint64_t off,
                               uint64_t size) LOOM_HIDDEN;

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

/* private_arrays.c: when a private array survived SROA, fully unrolls the
 * loops with a constant trip count and runs SROA again. 0 or -1 (an LLVM
 * pass pipeline failed). */
int loom_unroll_for_private_arrays(LLVMModuleRef m, LLVMTargetMachineRef tm) LOOM_HIDDEN;

/* wg_barriers.c: numbers the barriers of kernel k (fully inlined), moves
 * private allocas and values live across barriers to per-work-item slots.
 * Returns the number of barriers. */
unsigned loom_wg_prepare_barriers(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td,
                                  struct loom_slots *slots) LOOM_HIDDEN;

/* local_mem.c: replaces the kernel's __local variables by offsets into the
 * work-group's local memory; returns the bytes they need. */
uint64_t loom_wg_lower_local_vars(LLVMModuleRef m, LLVMValueRef k,
                                  LLVMTargetDataRef td) LOOM_HIDDEN;

/* wg_function.c: builds "<kernel>.loom_wg" from k in three steps around two
 * always-inline runs (pass "wg-function" in pipeline.c; docs/COMPILER.md). */
/* a barrier region and at most two versions of it (region_versions.c) */
enum { LOOM_REGION_COPIES = 3 };

struct loom_wg_build {
  LLVMValueRef kernel;
  const struct loom_kernel_meta *meta;
  unsigned num_barriers;
  LLVMValueRef *regions; /* num_barriers + 1 region functions, then the versions */
  unsigned num_regions;   /* num_barriers + 1 + the versions added */
  unsigned *version;      /* per region: its version for a false test, 0: none */
  /* per region: the tests, in regions[r], all true (false where negated)
   * for it */
  struct loom_version_tests {
    LLVMValueRef test[4];
    bool negate[4];
    unsigned n;
  } *version_tests;
  LLVMValueRef *loop_ids; /* parallel loop metadata per region (may be NULL) */
  LLVMValueRef *outer_loop_ids; /* the same, asking for outer-loop vectorisation */
  bool *region_has_loop;  /* the region's body contains a loop */
  unsigned *outer_width;  /* per region: width of its wide work-item loop, 0: none */
  unsigned *outer_jam;    /* per region: its unroll-and-jam count (1: none) */
  LLVMValueRef *wide_loop_ids; /* per region: outer loop IDs with that width */
  LLVMValueRef *twin_loop_ids; /* per region: a second ID like loop_ids (sg_driver.c) */
  unsigned simd_bytes;    /* the target's vector register size */
  bool native_half;       /* it computes on half without conversions (AVX512-FP16) */
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
  uint64_t local_x;      /* the local size along x when known (specialised, or
                          * reqd_work_group_size), else 0 */
  unsigned *outer_lanes;  /* per region: the width its outer loop ID pins, 0: VPlan's choice */
  unsigned num_wide;      /* private arrays kept per lane (wide_private.c) */
  unsigned num_sg;        /* sub-group barriers (struct loom_slots) */
  struct loom_sg_point *sg;
  unsigned sg_size;       /* the kernel's sub-group size */
  bool whole_vectors;     /* OpenCL vectors kept whole (loom_wg_mark_whole_vectors) */
};
void loom_wg_make_regions(LLVMModuleRef m, struct loom_wg_build *b) LOOM_HIDDEN;
void loom_wg_finish_regions(LLVMModuleRef m, struct loom_wg_build *b,
                            LLVMTargetDataRef td) LOOM_HIDDEN;
void loom_wg_make_function(LLVMModuleRef m, struct loom_wg_build *b,
                           LLVMTargetDataRef td, unsigned simd_bytes) LOOM_HIDDEN;
void loom_wg_resolve(LLVMModuleRef m, struct loom_wg_build *b) LOOM_HIDDEN;
/* sg_driver.c: the dispatch of a kernel with sub-group barriers, at bld
 * (in w's entry block, after the arguments: kargs, np of them, then the
 * four region parameters) */
void loom_wg_sg_dispatch(LLVMModuleRef m, struct loom_wg_build *b, LLVMBuilderRef bld,
                         LLVMValueRef *kargs, unsigned np, LLVMValueRef lsize[3]) LOOM_HIDDEN;
/* wide_private.c: the private arrays of region function f that can be kept
 * per vector lane for `lanes` lanes (at most max, into out; their count) */
unsigned loom_wide_private_candidates(LLVMValueRef f, LLVMTargetDataRef td, unsigned lanes,
                                      LLVMValueRef *out, unsigned max) LOOM_HIDDEN;
/* the lanes of f's work-item loop at the width of its widest loaded or
 * stored scalar (1 to 64) */
unsigned loom_natural_lanes(LLVMValueRef f, LLVMTargetDataRef td, unsigned simd_bytes) LOOM_HIDDEN;
/* keeps those n arrays per lane: W = lanes (a power of two) columns, the
 * work-item with local id x in column x mod W; buffer ids from *next_id on */
void loom_widen_private_arrays(LLVMValueRef f, LLVMTargetDataRef td, LLVMValueRef *arrays,
                               unsigned n, LLVMValueRef x, unsigned lanes,
                               unsigned *next_id) LOOM_HIDDEN;
/* vector_slots.c: the slots of these regions (one kernel's) that only
 * whole loads and stores of one OpenCL vector type use, component-major */
void loom_wg_split_vector_slots(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *regions,
                                unsigned nregions) LOOM_HIDDEN;
/* wg_state.c: the slot layout of kernel k as "wg-barriers" decided it,
 * kept in the IR for "wg-function" (loom_wg_read_slots: 0, or -1 when k
 * carries none; free s->divergent) */
void loom_wg_record_slots(LLVMValueRef k, unsigned num_barriers,
                         const struct loom_slots *s) LOOM_HIDDEN;
int loom_wg_read_slots(LLVMValueRef k, unsigned *num_barriers, struct loom_slots *s) LOOM_HIDDEN;
/* marks a work-group function with a work-item loop to unroll and jam
 * (vectorize/interleave_items.c); whether m has one */
void loom_wg_mark_jammed_loops(LLVMValueRef wg) LOOM_HIDDEN;
bool loom_module_has_jammed_loops(LLVMModuleRef m) LOOM_HIDDEN;
bool loom_wg_has_jammed_loops(LLVMValueRef wg) LOOM_HIDDEN;
/* marks a work-group function whose OpenCL vectors fill a register and stay
 * whole: not split into scalars, one work-item at a time (wg_function.c);
 * whether wg is marked */
void loom_wg_mark_whole_vectors(LLVMValueRef wg) LOOM_HIDDEN;
bool loom_wg_keeps_vectors_whole(LLVMValueRef wg) LOOM_HIDDEN;
/* marks a work-group function with an outer work-item loop; whether m has one */
void loom_wg_mark_outer_loops(LLVMValueRef wg) LOOM_HIDDEN;
bool loom_module_has_outer_loops(LLVMModuleRef m) LOOM_HIDDEN;
/* the work-group function "<kernel>.loom_wg" of m, or NULL */
LLVMValueRef loom_wg_function_of(LLVMModuleRef m, const char *kernel) LOOM_HIDDEN;

/* frees the lists of n builds and the array itself (NULL-safe) */
void loom_wg_builds_free(struct loom_wg_build *builds, uint32_t n) LOOM_HIDDEN;

/* wg_specialize.c: m defines writable program-scope variables (not __local
 * ones), which a copy of the program's code would duplicate: programs with
 * them are neither specialised nor compiled in parts */
bool loom_has_writable_globals(LLVMModuleRef m) LOOM_HIDDEN;
/* wg_specialize.c: the work-group function of one kernel for one local size */
struct loom_wg_spec {
  const char *kernel;
  uint64_t local[3];
  struct loom_spec_args args; /* image and sampler arguments made constants */
};
/* keeps only spec's kernel's work-group function visible, with the local
 * size and spec->args as constants, renamed to its specialised symbol; -1
 * (message in *log) when the module cannot be specialised */
int loom_wg_specialize(LLVMModuleRef m, const struct loom_kernel_meta *kernels, uint32_t n,
                       const struct loom_wg_spec *spec, char **log) LOOM_HIDDEN;

/* spec_unroll.c: in kernel `kernel` of a build for local size `local`, the
 * local size queries become constants; when a loop holds a barrier, loops
 * with a constant trip count are then fully unrolled. 0, or -1 when the
 * passes fail */
int loom_spec_unroll(LLVMModuleRef m, const char *kernel, const uint64_t local[3],
                     LLVMTargetMachineRef tm) LOOM_HIDDEN;

/* wi_range.c: when every side effect of region function `region` is
 * guarded by an upper bound on the local id x, emits at bld (in the
 * work-group function, before the region's loop) how many work-items in x
 * need to run (at least 1, at most lsize0); otherwise returns NULL. kargs are
 * the region call's arguments that are defined before the loop. */
LLVMValueRef loom_region_x_limit(LLVMValueRef region, unsigned np, LLVMBuilderRef bld,
                                 LLVMValueRef *kargs, LLVMValueRef lsize0) LOOM_HIDDEN;
/* wi_range.c: whether value v of region function `region` is a group-uniform
 * expression the work-group function can compute before the region's loop
 * (of kernel arguments, work-item queries other than the local id,
 * constants and the region's unwritten views of the uniform slots); and
 * that expression built at bld from kargs (NULL when it is none). */
bool loom_region_uniform_expr(LLVMValueRef region, unsigned np, LLVMValueRef v) LOOM_HIDDEN;
LLVMValueRef loom_region_emit_uniform(LLVMValueRef region, unsigned np, LLVMValueRef v,
                                      LLVMBuilderRef bld, LLVMValueRef *kargs) LOOM_HIDDEN;
/* region_versions.c: when region r's work-items stop at different barriers
 * depending on one group-uniform test (a tile loop around barriers: back to
 * its top, or past its end into the epilogue), region r becomes the copy
 * for the test being true and a second region function, the copy for false,
 * is added to b->regions; returns the number of versions added. Each copy
 * then stops at one barrier, so each can be vectorised on its own. A region
 * that stops at one barrier already but branches on group-uniform tests
 * inside (CLBlast's `if (a_ld % VWMD == 0)` around its float4 tile copy)
 * becomes the copy for all of them true, and the region as it was is the
 * version for any false: the copy's work-item loop has no branch left (the
 * copy of a tile loop's region for its test true gets such a version too:
 * three copies). The versions added are b->regions[first .. num_regions). */
unsigned loom_wg_version_region(LLVMModuleRef m, struct loom_wg_build *b, unsigned r) LOOM_HIDDEN;


/* byval_copies.c: each kernel's by-value aggregate arguments get an
 * explicit private copy at the kernel's entry (the byval pointer is only
 * read from then on) */
void loom_copy_byval_arguments(LLVMModuleRef m) LOOM_HIDDEN;

/* local_atomics.c: atomic read-modify-writes on __local memory become plain
 * (volatile) load/operate/store sequences: one thread runs the whole group */
void loom_lower_local_atomics(LLVMValueRef k) LOOM_HIDDEN;


/* wg_function.c: loads 8-byte slot `slot` (LOOM_CTX_*) of the work-group
 * context `ctx` as `ty` */
LLVMValueRef loom_wg_ctx_field(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef ctx,
                               unsigned slot, LLVMTypeRef ty, const char *name) LOOM_HIDDEN;


/* a defined work-group function (LOOM_WG_SUFFIX) */
bool loom_is_wg_function(LLVMValueRef f) LOOM_HIDDEN;


#define LOOM_WG_SUFFIX ".loom_wg"

/* id_ranges.c: srem, sdiv and ashr of provably non-negative local-id
 * arithmetic in a region (np kernel parameters, then the ids) become
 * urem, udiv and lshr */
void loom_wg_unsigned_id_math(LLVMValueRef region, unsigned np) LOOM_HIDDEN;

#endif
