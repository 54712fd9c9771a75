/* What makes work-item loops vectorise across work-items: parallel-loop
 * metadata, the choice of outer-loop vectorisation, scalarising OpenCL
 * vectors, vector variants of scalar calls, and the fix-ups after VPlan. */
#ifndef LOOM_VECTORIZE_H
#define LOOM_VECTORIZE_H
#include "support/llvm_util.h"

/* parallel_md.c: n access groups and matching parallel loop IDs (which
 * forbid unrolling before vectorisation if keep_rolled); outer loop IDs ask
 * for outer-loop vectorisation (with width outer_lanes[i] where that is not
 * 0), wide ones (where wide_width[i] is not 0, else NULL; the arrays may be
 * NULL) for that with width wide_width[i], and unrolled and jammed
 * wide_jam[i] times when that is above 1 */
int loom_parallel_md(LLVMContextRef c, unsigned n, LLVMValueRef *groups,
                     LLVMValueRef *loop_ids, LLVMValueRef *outer_loop_ids,
                     const unsigned *wide_width, const unsigned *wide_jam,
                     const unsigned *outer_lanes, LLVMValueRef *wide_loop_ids,
                     LLVMValueRef *twin_loop_ids, bool keep_rolled) LOOM_HIDDEN;
/* puts every load/store of f that is not on a private variable in group */
void loom_tag_parallel_accesses(LLVMValueRef f, LLVMValueRef group) LOOM_HIDDEN;

/* outer_loop.c: the process-wide LLVM options vectorisation needs (NULL-terminated) */
extern const char *const loom_vectorize_llvm_options[] LOOM_HIDDEN;
/* outer_loop.c: every return among blocks[0..n) gives the same constant
 * (a region stops at one barrier) */
bool loom_blocks_one_result(LLVMBasicBlockRef const *blocks, size_t n) LOOM_HIDDEN;
/* outer_loop.c: region r's work-item loop should be vectorised as an outer
 * loop (its body holds a loop and only widenable instructions; private
 * variables are stored to only when they are among the nwide arrays that
 * will be kept per lane) */
bool loom_region_wants_outer_vectorisation(LLVMValueRef region, LLVMValueRef *wide,
                                           unsigned nwide) LOOM_HIDDEN;
/* outer_prepare.c: makes a region chosen for outer-loop vectorisation into
 * the shape VPlan accepts: inner loops counted from 0 by 1, no noalias
 * scope declarations */
void loom_prepare_outer_region(LLVMValueRef region) LOOM_HIDDEN;
/* a call of llvm.experimental.noalias.scope.decl */
bool loom_is_scope_decl(LLVMValueRef in) LOOM_HIDDEN;
/* interleave_items.c: the vectorisation width for region r's outer
 * work-item loop when its inner loops are bound by the latency of a chain of
 * dependent operations (several registers of work-items side by side), or
 * 0: one register's worth, VPlan's own choice; *jam: how many times to
 * unroll and jam that loop on top (1: not) */
unsigned loom_outer_loop_width(LLVMValueRef region, unsigned simd_bytes, bool native_half,
                               unsigned *jam) LOOM_HIDDEN;
/* whole_vectors.c: whether a region (one work-item's code; lid_x and lin
 * its local id x and linear id) may run one work-item at a time on whole
 * OpenCL vectors rather than split into scalars and widened across
 * work-items; `full`: its widest vector fills a register; native_half as
 * for loom_op_cost */
bool loom_region_keeps_vectors_whole(LLVMValueRef region, LLVMValueRef lid_x, LLVMValueRef lin,
                                     unsigned simd_bytes, bool native_half,
                                     bool full) LOOM_HIDDEN;
/* pass jam-items: before O3, LLVM's unroll-and-jam on the work-item loops
 * whose ID asks for it (functions marked by loom_wg_mark_jammed_loops) */
int loom_jam_work_items(LLVMModuleRef m, LLVMTargetMachineRef tm) LOOM_HIDDEN;
/* chain_order.c: a block's instructions reordered by their depth in it
 * (operands first, memory operations in their order), so that jammed copies
 * of a chain alternate; false when nothing moved */
bool loom_interleave_chains(LLVMBasicBlockRef bb) LOOM_HIDDEN;
/* chain_order.c: loom_interleave_chains on every one-block loop of f; how
 * many were reordered */
unsigned loom_interleave_jammed_chains(LLVMValueRef f) LOOM_HIDDEN;
/* an instruction the scalarizer splits and the vectorisers widen */
bool loom_widenable_instruction(LLVMValueRef in) LOOM_HIDDEN;
/* an element-wise intrinsic (by name: "llvm.fma.f64", ...) they widen */
bool loom_widenable_intrinsic(const char *name) LOOM_HIDDEN;

/* hoist_divisions.c: before O3, integer divisions whose operands are
 * computed without loads or calls from values defined outside their loop move
 * before the loop (divisor guarded again): LLVM 19's vectoriser
 * mis-compiles such a division in a conditional block. -1 if LLVM failed. */
int loom_hoist_invariant_divisions(LLVMModuleRef m, LLVMTargetMachineRef tm) LOOM_HIDDEN;

/* hoist_tests.c: the branch on a rewrite's run time test, marked for
 * loom_hoist_tests: `test` true goes to `fast` */
LLVMValueRef loom_build_test_branch(LLVMBuilderRef bld, LLVMValueRef test, LLVMBasicBlockRef fast,
                                    LLVMBasicBlockRef slow) LOOM_HIDDEN;
/* hoist_tests.c: marked tests affine in their loop's counter evaluated once
 * before it, for a copy of the loop without them; constant ones decided;
 * how many loops changed */
unsigned loom_hoist_tests(LLVMModuleRef m) LOOM_HIDDEN;

/* gather_groups.c: after O3, families of gathers of one vector's
 * components across work-items become whole loads and shuffles when a run
 * time test finds them contiguous; true when something changed */
bool loom_combine_component_gathers(LLVMModuleRef m) LOOM_HIDDEN;
/* gather_groups.c, shared with scatter_groups.c: the bytes of a scalar
 * element type (0: not one such); at the builder's end, the test that
 * base's n lanes are `stride` bytes apart (*p0: lane 0's address); pure
 * operations of `head` only the block `slow` uses, moved there */
unsigned loom_family_element_bytes(LLVMTypeRef t) LOOM_HIDDEN;
LLVMValueRef loom_family_contiguous_test(LLVMBuilderRef bld, LLVMValueRef base, unsigned n,
                                         uint64_t stride, unsigned extra,
                                         LLVMValueRef *p0) LOOM_HIDDEN;
/* whether that test can be one scalar compare of a 32-bit index (then it
 * also covers `extra` more elements, which members with their own indices
 * reach: index_families.c; with extra > 0 it must be) */
bool loom_family_wrap_testable(LLVMValueRef p, unsigned n, uint64_t stride) LOOM_HIDDEN;
/* index_families.c: q's lanes address the elements k further than p's,
 * each by its own 32-bit index (the same sum of values, its constants k
 * more in every lane, sign- or zero-extended alike): k */
bool loom_family_index_delta(LLVMValueRef p, LLVMValueRef q, long long *k) LOOM_HIDDEN;
void loom_family_sink_into_slow(LLVMBuilderRef bld, LLVMValueRef v, LLVMBasicBlockRef head,
                                LLVMBasicBlockRef slow, int depth) LOOM_HIDDEN;
/* p as base + a constant byte offset (a GEP by a constant index), or p + 0 */
LLVMValueRef loom_family_split_offset(LLVMValueRef p, long long *offset) LOOM_HIDDEN;
/* may `in` write memory (or order it), so that a load cannot pass it? */
bool loom_family_may_write(LLVMValueRef in) LOOM_HIDDEN;
/* the blocks of a family's rewrite: `at`'s block split before it into head
 * (its terminator gone, for the test) and join (from `at` on), with the
 * empty blocks fast (named whole) and slow (apart) between them */
struct loom_family_blocks {
  LLVMBasicBlockRef head, fast, slow, join;
};
struct loom_family_blocks loom_family_split(LLVMValueRef at, const char *whole,
                                           const char *apart) LOOM_HIDDEN;
/* the F columns (each n lanes) of the row-major stream held by rows[0..F),
 * for a function whose vectors are reg_bytes wide */
void loom_family_unzip(LLVMBuilderRef bld, LLVMValueRef *rows, unsigned f, unsigned n,
                       unsigned reg_bytes, LLVMValueRef *columns) LOOM_HIDDEN;
/* whether F rows of n elements of e bytes are better unzipped as one or two
 * whole registers of reg_bytes, each column one permutation of them
 * (loom_family_columns: lo and hi the stream's registers, hi NULL if one) */
bool loom_family_unzip_by_register(unsigned f, unsigned n, unsigned e, unsigned reg_bytes) LOOM_HIDDEN;
void loom_family_columns(LLVMBuilderRef bld, LLVMValueRef lo, LLVMValueRef hi, unsigned f,
                         unsigned n, LLVMValueRef *columns) LOOM_HIDDEN;
/* the mark of the gathers (scatters) a rewrite left on its slow path, which
 * no pass looks at again */
bool loom_family_is_apart(LLVMValueRef in, bool scatter) LOOM_HIDDEN;
void loom_family_mark_apart(LLVMValueRef in, bool scatter) LOOM_HIDDEN;
/* copy_groups.c: a gather family g[0..f) through p (p_indexed: members
 * with their own indices, index_families.c) whose values are only
 * scattered, as the family s[0..f) through q, to another address space */
struct loom_copy_family {
  LLVMValueRef g[16], s[16], p, q;
  unsigned f;
  bool p_indexed, q_indexed;
};
/* whether c (g, f, p, p_indexed filled in) is a copy: then fills the rest */
bool loom_family_copy_candidate(struct loom_copy_family *c) LOOM_HIDDEN;
/* the copies fams[0..n) of one block become loads and stores behind one
 * run time test; true if they did */
bool loom_family_copy_set(const struct loom_copy_family *fams, unsigned n) LOOM_HIDDEN;
/* linear_index.c: an integer index (scalar or vector of at most 16 lanes)
 * as t[0].leaf * t[0].mul + ... + c, modulo the width it is taken apart at:
 * the leaves values not taken apart (a scalar is the same in every lane),
 * c[i] lane i's constant; a select on the scalar cond followed to `side`
 * (1: its true operand) when the caller allows it */
enum { LOOM_LINEAR_LANES = 16, LOOM_LINEAR_TERMS = 4 };
struct loom_linear {
  struct {
    LLVMValueRef leaf;
    uint64_t mul;
  } t[LOOM_LINEAR_TERMS];
  unsigned nt;
  uint64_t c[LOOM_LINEAR_LANES];
  bool lane0_only;   /* an insertelement into poison: lanes above 0 unknown */
  LLVMValueRef cond; /* the select condition followed, or NULL */
  int side;
};
/* the low `bits` bits of v as a signed number (a linear term's factor or
 * constant taken apart modulo 2^bits) */
static inline int64_t loom_sign_extend(uint64_t v, unsigned bits) {
  return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
/* v taken apart modulo 2^bits; side -1: selects are leaves */
void loom_linear_of(LLVMValueRef v, unsigned bits, int side, struct loom_linear *a) LOOM_HIDDEN;
/* a and b have the same terms and select assumptions (they differ by constants) */
bool loom_linear_same_terms(const struct loom_linear *a, const struct loom_linear *b) LOOM_HIDDEN;
/* steps[i] = lane i's value minus lane 0's, for n lanes; false if a vector
 * leaf's lanes are not known apart (loom_lane_affine) */
bool loom_linear_lane_steps(const struct loom_linear *a, unsigned n, uint64_t *steps) LOOM_HIDDEN;
/* lane 0 of a (bits wide), built at the end of b's block */
LLVMValueRef loom_linear_lane0(LLVMBuilderRef b, const struct loom_linear *a, unsigned bits) LOOM_HIDDEN;
/* linear_index.c: a gather's or scatter's vector of pointers R[Y] with R a
 * scalar pointer (its constant GEP steps in off) and Y a 64-bit index, a
 * sign-extended or a `zext nneg` 32-bit one (y, taken apart as lin);
 * false for another shape */
enum loom_index_ext {
  LOOM_EXT_NONE,      /* 64 bits */
  LOOM_EXT_SEXT,      /* Y + k may wrap where the address would not: test it */
  LOOM_EXT_ZEXT_NNEG, /* every member's Y + k in [0, 2^31): none wraps */
};
struct loom_row_access {
  LLVMValueRef root, y;
  struct loom_linear lin;
  long long off;     /* bytes from R */
  long long elems;   /* lane 0's constant, signed */
  unsigned idx_size; /* bytes of R's element */
  unsigned bits;     /* y's width */
  enum loom_index_ext ext;
};
bool loom_row_access_of(LLVMValueRef p, int side, struct loom_row_access *x) LOOM_HIDDEN;
/* a and b (n lanes) address the same lanes' rows at element offsets that
 * differ by a constant: one R, the same terms, the same steps across lanes */
bool loom_row_access_same_rows(const struct loom_row_access *a, const struct loom_row_access *b,
                               unsigned n) LOOM_HIDDEN;
/* gather_rows.c: after combine-gathers, families of gathers that read each
 * lane's own row of consecutive elements become row loads and shuffles when
 * a run time test finds no 32-bit index wraps; true when something changed */
bool loom_combine_row_gathers(LLVMModuleRef m) LOOM_HIDDEN;
/* scatter_groups.c: after combine-gathers, families of scatters of one
 * vector's components across work-items become shuffles and whole stores
 * when a run time test finds them contiguous; true when something changed */
bool loom_combine_component_scatters(LLVMModuleRef m) LOOM_HIDDEN;

/* scatter_groups.c: rows[0..f) of the row-major stream whose columns are
 * cols[0..f) (each n lanes): log2(f) rounds of interleaving shuffles */
void loom_family_zip(LLVMBuilderRef bld, LLVMValueRef *cols, unsigned f, unsigned n,
                     LLVMValueRef *rows) LOOM_HIDDEN;
/* may `in` read or write memory, or order it? */
bool loom_family_touches_memory(LLVMValueRef in) LOOM_HIDDEN;
/* scatter_rows.c: after combine-scatters, families of scatters that write
 * each lane's few consecutive elements become a store per lane (tested at
 * run time for a select's side and a 32-bit index that wraps); true when
 * something changed */
bool loom_scatter_rows(LLVMModuleRef m) LOOM_HIDDEN;

/* uniform_phi.c: lane-uniform vector phis (widened inner-loop inductions)
 * become scalar phis plus a splat; true when something changed */
bool loom_scalarize_uniform_vector_phis(LLVMModuleRef m) LOOM_HIDDEN;
/* uniform_phi.c: v holds the same value in every lane (scalars, splats,
 * element-wise arithmetic, casts and GEPs of such); that value, built after
 * v's definition at b (b's position changes) */
bool loom_lane_uniform(LLVMValueRef v) LOOM_HIDDEN;
LLVMValueRef loom_lane0_scalar(LLVMBuilderRef b, LLVMValueRef v) LOOM_HIDDEN;

/* jam_rows.c: a loop ID that marks a y work-item loop whose rows may run
 * side by side (NULL if LLVM failed); after O3, J rows of such loops of the
 * shape VPlan leaves when x needs one vector run together, the row-invariant
 * code of their inner loop once, two rows to a register where a row's
 * vectors are half of one (jam_build.c); true when something changed */
LLVMValueRef loom_rows_loop_id(LLVMContextRef c) LOOM_HIDDEN;
bool loom_jam_rows(LLVMModuleRef m) LOOM_HIDDEN;

/* consecutive_lanes.c: after O3, unmasked gathers and scatters whose lanes
 * are provably consecutive elements become vector loads and stores; true
 * when something changed */
bool loom_consecutive_lanes_to_vectors(LLVMModuleRef m) LOOM_HIDDEN;
/* v (a vector of at most 64 integers) as u + c: u the same in every lane
 * (unknown, with at least *tz trailing zero bits; 64: u = 0), c[i] lane
 * i's constant, modulo the element width; false if it cannot tell */
bool loom_lane_affine(LLVMValueRef v, uint64_t *c, unsigned *tz) LOOM_HIDDEN;
/* lane 0 of a v loom_lane_affine has decomposed, as scalar operations
 * built after v's parts (the builder is left anywhere); NULL past the
 * size budget */
LLVMValueRef loom_lane0_affine(LLVMBuilderRef b, LLVMValueRef v) LOOM_HIDDEN;
/* v is a constant vector (at most 64 lanes) whose lanes are all the integer *k */
bool loom_splat_int(LLVMValueRef v, uint64_t *k) LOOM_HIDDEN;


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


/* scalarize_choice.c: the widest vector f computes on or moves through
 * memory, in bits */
unsigned loom_widest_vector_bits(LLVMValueRef f) LOOM_HIDDEN;
/* scalarize_choice.c: in work-group functions, `icmp eq/ne (bitcast <N x i1>
 * to iN), 0 or -1` (any/all of a vector comparison) becomes an or/and of
 * the lanes, which the scalarizer left whole */
void loom_split_mask_tests(LLVMModuleRef m) LOOM_HIDDEN;
/* scalarize_choice.c: in work-group functions, loads and stores of vectors
 * of 8- or 16-bit integers of 2 to 8 bytes become one integer access
 * (x86 has no byte gathers); stored lanes are frozen */
void loom_pack_narrow_vector_memops(LLVMModuleRef m) LOOM_HIDDEN;
unsigned loom_preferred_vector_bits(LLVMValueRef f) LOOM_HIDDEN;
/* pair_chains.c (pass pair-chains): pairs of FMA chains on half-register
 * vectors that multiply by the same broadcast at every step become one
 * chain on full registers; how many pairs */
unsigned loom_pair_fma_chains(LLVMModuleRef m) LOOM_HIDDEN;
/* uniform_phi.c: a shufflevector whose every lane is lane 0 of its first
 * operand (a splat) */
bool loom_is_splat_shuffle(LLVMValueRef v) LOOM_HIDDEN;

#endif
