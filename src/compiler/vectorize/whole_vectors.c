/* Whether a kernel keeps its OpenCL vectors whole: one work-item at a time,
 * each float4 or float16 operation one instruction on its own register,
 * instead of split into scalars and widened across work-items
 * (workgroup/wg_function.c keep_vectors_whole decides per kernel;
 * scalarize-vectors then leaves it alone).
 *
 * Split, a work-item's vector read from memory is a family of gathers, one
 * per component, that combine-gathers turns into whole loads and a
 * transposition when the lanes are contiguous: clpeak's bandwidth kernels
 * (16 reads of A[id + i * stride] a work-item) read 25-28 GB/s written with
 * float2 ... float16 against 31-32 with float. Whole, each read is one load
 * of one row of memory, and they read 28-32 GB/s. But split code runs 16
 * work-items a register, and whole code one: a kernel that computes more
 * than it reads is faster split (double4 atan: 48 Melem/s whole, 210 split).
 *
 * The choice, per region (one work-item's code, before O3):
 *  - never whole when straight-line code is one long chain of dependent
 *    operations (clpeak's compute kernels: one FMA chain a work-item, which
 *    split code runs 16 work-items side by side);
 *  - vectors that fill a register (float16 on AVX-512): whole, unless an
 *    inner loop's recurrence takes more than 1.5 times its issue cost (each
 *    vector operation counted once) and its runs in one work-item (its trip
 *    count times those of the loops around it) take too long
 *    (OVERLAP_CYCLES) for the out-of-order core to overlap the next
 *    work-items' chains;
 *  - narrower ones: whole when the estimated time a work-item takes whole
 *    is at most the split estimate, each the largest of its issue cost
 *    (whole: of its busiest port class, vector arithmetic, loads, stores or
 *    scalar integer work, which run side by side), its memory traffic at
 *    BYTES_PER_CYCLE and (whole, in a loop run too long for such overlap)
 *    its recurrence; whole code's reads and writes of vectors of at most 8
 *    bytes take WHOLE_NARROW_COST times as long; split code pays per element
 *    over the register's lanes, plus the loads and shuffles of its
 *    transpositions, and its vector reads and writes take SPLIT_STREAM_COST
 *    times as long. Straight-line code counts once, an inner loop as many
 *    times as it runs (else UNKNOWN_TRIPS times). */
#include "vectorize/loop_cost.h"
#include "vectorize/vectorize.h"
#include <stdint.h>

/* A latency-bound inner loop whose whole run (trip count times the chain's
 * cycles) takes at most this long leaves the out-of-order core the next
 * work-items' chains to overlap: clpeak's float16 bandwidth kernel (4 trips
 * of 4 dependent adds, 64 cycles) does, its float16 compute kernel (8 trips
 * of 32 dependent FMAs) does not. */
enum { OVERLAP_CYCLES = 256, UNKNOWN_TRIPS = 16 };
/* what one core reads from DRAM per cycle, about (15 GB/s at 2.6 GHz) */
static const double BYTES_PER_CYCLE = 6.0;
/* Split code reads a family of work-items' vectors a row of 16 work-items
 * at a time, one stream after the other, and memory delivers less than to
 * whole code reading each work-item's vectors in turn: clpeak's bandwidth
 * kernels split / whole, float2 26.7 / 28.3 GB/s, float4 26 / 30, float8
 * 27.5 / 29.5 (2-core Xeon, 2026-11-26): about 10% more time. */
static const double SPLIT_STREAM_COST = 1.1;
/* Whole code reading or writing vectors of at most 8 bytes that differ along
 * x (a float2 a work-item from each of several streams) touches every
 * stream's line again for each of the next work-items, and memory delivers
 * less: clpeak's bandwidth kernels whole / split on AMD Zen 5 (2026-11-28),
 * float2 26-28 / 33-39 GB/s, float4 35-37 / 35-36, float8 40-42 / 28-32
 * (float 41-45); on the Xeon float2 28.3 / 26.7. About 30% more time. */
static const double WHOLE_NARROW_COST = 1.3;
enum { NARROW_BYTES = 8 };

/* How many times the loop runs, when that is a constant: a counter from a
 * constant by a constant step, compared with a constant where the loop
 * exits (its source form, before O3: `for (int i = 0; i < 4; i++)`); 0 when
 * unknown. */
static uint64_t constant_trip_count(const struct loom_domtree *d, const struct loom_loops *l,
                                    size_t loop) {
  for (size_t b = 0; b < d->n; b++) {
    if (!loom_loop_contains(l, loop, b))
      continue;
    LLVMValueRef br = LLVMGetBasicBlockTerminator(d->blocks[b]);
    if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
      continue;
    bool exits = false;
    for (unsigned s = 0; s < 2; s++) {
      size_t t;
      exits |= !loom_ptrmap_get(&d->index, LLVMGetSuccessor(br, s), &t) || !loom_loop_contains(l, loop, t);
    }
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!exits || !LLVMIsAICmpInst(cmp) || !LLVMIsAConstantInt(LLVMGetOperand(cmp, 1)))
      continue;
    /* the compared value: the counter or its next value */
    LLVMValueRef v = LLVMGetOperand(cmp, 0), p = v;
    long long step = 0;
    if (LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAdd &&
        LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
      p = LLVMGetOperand(v, 0);
      step = LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
    }
    if (!LLVMIsAPHINode(p) || LLVMCountIncoming(p) != 2)
      continue;
    long long start = 0;
    bool have_start = false;
    for (unsigned i = 0; i < 2; i++) {
      LLVMValueRef in = LLVMGetIncomingValue(p, i);
      size_t t;
      bool inside = loom_ptrmap_get(&d->index, LLVMGetIncomingBlock(p, i), &t) && loom_loop_contains(l, loop, t);
      if (!inside && LLVMIsAConstantInt(in)) {
        start = LLVMConstIntGetSExtValue(in);
        have_start = true;
      } else if (inside && step == 0 && LLVMIsABinaryOperator(in) &&
                 LLVMGetInstructionOpcode(in) == LLVMAdd && LLVMGetOperand(in, 0) == p &&
                 LLVMIsAConstantInt(LLVMGetOperand(in, 1))) {
        step = LLVMConstIntGetSExtValue(LLVMGetOperand(in, 1));
      }
    }
    long long bound = LLVMConstIntGetSExtValue(LLVMGetOperand(cmp, 1));
    if (have_start && step > 0 && bound >= start)
      return ((uint64_t)(bound - start) + (uint64_t)step) / (uint64_t)step; /* one more at most */
  }
  return 0;
}

/* How many times the loop's body runs per work-item: its constant trip
 * count times those of the loops around it; 0 when one is unknown. */
static uint64_t total_trip_count(const struct loom_domtree *d, const struct loom_loops *l,
                                 size_t loop) {
  size_t some = 0;
  while (some < d->n && !loom_loop_contains(l, loop, some))
    some++;
  uint64_t total = 1;
  for (size_t outer = 0; outer < l->n && some < d->n; outer++) {
    if (outer != loop && (l->size[outer] < l->size[loop] || !loom_loop_contains(l, outer, some)))
      continue;
    uint64_t trips = constant_trip_count(d, l, outer);
    if (!trips || trips > UINT64_MAX / 2 / total)
      return 0;
    total *= trips;
  }
  return total;
}

/* `trips` runs of a `chain`-cycle recurrence a work-item are short enough
 * for the out-of-order core to overlap the next work-items' */
static bool short_run(uint64_t trips, long chain) {
  return trips && (double)trips * (double)chain <= OVERLAP_CYCLES;
}

/* Whether the region's code outside its loops is one long chain: its
 * critical path, each vector operation counted once, above both
 * OVERLAP_CYCLES and 1.5 times its issue cost (clpeak's double8 compute
 * kernel: 2048 dependent FMAs, no loop). */
static bool long_straight_chain(const struct loom_domtree *d, const struct loom_loops *l,
                                bool native_half) {
  struct loom_ptrmap dist = {0};
  double issue = 0;
  long chain = 0;
  for (size_t b = d->n; b-- > 0;) { /* reverse postorder: operands first */
    if (loom_innermost_loop(l, b) != SIZE_MAX) /* in a loop */
      continue;
    for (LLVMValueRef in = LLVMGetFirstInstruction(d->blocks[b]); in; in = LLVMGetNextInstruction(in)) {
      struct loom_op_cost cost = loom_op_cost(in, native_half);
      issue += cost.issue;
      size_t best = 0, v;
      for (int k = 0; k < LLVMGetNumOperands(in); k++)
        if (loom_ptrmap_get(&dist, LLVMGetOperand(in, k), &v) && v > best)
          best = v;
      best += cost.latency;
      loom_ptrmap_put(&dist, in, best);
      chain = (long)best > chain ? (long)best : chain;
    }
  }
  loom_ptrmap_free(&dist);
  return chain > OVERLAP_CYCLES && chain > 1.5 * issue;
}

/* bits of a value of type t (a vector: all its elements) */
static unsigned type_bits(LLVMTypeRef t) {
  unsigned n = 1;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    n = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return 16 * n;
  case LLVMFloatTypeKind: return 32 * n;
  case LLVMDoubleTypeKind: return 64 * n;
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) * n;
  case LLVMPointerTypeKind: return 64 * n;
  default: return 0;
  }
}

/* estimated cycles of one work-item's pass through some code; whole code's
 * per port class: vector arithmetic (2 ports), loads (3), stores (1),
 * scalar integer work (4), which run side by side, and the recurrence it
 * waits for (whole_chain) */
struct estimate {
  double whole_vector, whole_loads, whole_stores, whole_scalar, whole_chain;
  double split, bytes, split_bytes;
};

static double max2(double a, double b) { return a > b ? a : b; }

/* whole code's issue cost: its busiest port class, or its chain */
static double whole_issue(const struct estimate *e) {
  return max2(max2(max2(e->whole_vector, e->whole_loads), max2(e->whole_stores, e->whole_scalar)),
              e->whole_chain);
}

/* Whether v differs between neighbouring work-items along x: it is computed
 * from the local id x or the linear id (ids: the region's parameters), a
 * load from such an address included. A read at an
 * address that is the same along x (a row of B in a GEMM) is shared by
 * those work-items and comes from the cache, not memory. memo: value ->
 * 0 (no) or 1 (yes); a value being looked at counts as no (phi cycles). */
static bool varies_along_x(LLVMValueRef v, const LLVMValueRef ids[2], struct loom_ptrmap *memo) {
  if (!LLVMIsAInstruction(v))
    return v == ids[0] || v == ids[1];
  size_t known;
  if (loom_ptrmap_get(memo, v, &known))
    return known != 0;
  loom_ptrmap_put(memo, v, 0);
  bool varies = false; /* a phi's operands are its incoming values, a call's its arguments and callee */
  for (int i = 0; i < LLVMGetNumOperands(v) && !varies; i++)
    varies = varies_along_x(LLVMGetOperand(v, i), ids, memo);
  loom_ptrmap_put(memo, v, varies);
  return varies;
}

static void add_instruction(struct estimate *e, LLVMValueRef in, unsigned simd_bits,
                            bool native_half, const LLVMValueRef ids[2],
                            struct loom_ptrmap *memo) {
  bool store = LLVMIsAStoreInst(in);
  LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(in, 0) : in);
  bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  double issue = loom_op_cost(in, native_half).issue, bits = type_bits(t);
  LLVMTypeKind element = LLVMGetTypeKind(vector ? LLVMGetElementType(t) : t);
  bool fp = element == LLVMFloatTypeKind || element == LLVMDoubleTypeKind ||
            element == LLVMHalfTypeKind;
  if (store)
    e->whole_stores += 1;
  else if (LLVMIsALoadInst(in))
    e->whole_loads += 1.0 / 3;
  else if (vector || fp)
    e->whole_vector += issue;
  else
    e->whole_scalar += issue / 2; /* 0.5 a vector port cycle: 0.25 on 4 integer ports */
  e->split += issue * bits / simd_bits;
  if (!store && !LLVMIsALoadInst(in))
    return;
  unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, store ? 1 : 0)));
  if ((as != 1 && as != 2) || /* global and constant memory */
      !varies_along_x(LLVMGetOperand(in, store ? 1 : 0), ids, memo))
    return;
  e->bytes += (vector && bits / 8 <= NARROW_BYTES ? WHOLE_NARROW_COST : 1.0) * bits / 8;
  e->split_bytes += (vector ? SPLIT_STREAM_COST : 1.0) * bits / 8;
  if (vector) { /* split: the transposition's loads and shuffles, log2(F) rounds */
    unsigned f = LLVMGetVectorSize(t), rounds = 0;
    while ((1u << rounds) < f)
      rounds++;
    e->split += (store ? 2.0 : 1.0) * f * (1 + rounds) * 0.5 * bits / f / simd_bits;
  }
}

static double cycles(const struct estimate *e, bool whole) {
  return max2(whole ? whole_issue(e) : e->split,
              (whole ? e->bytes : e->split_bytes) / BYTES_PER_CYCLE);
}

/* whole code is estimated no slower than split code */
static bool whole_is_cheaper(const struct loom_domtree *d, const struct loom_loops *l,
                             unsigned simd_bits, bool native_half,
                             const LLVMValueRef ids[2]) {
  struct loom_ptrmap memo = {0};
  double whole = 0, split = 0;
  struct estimate straight = {0};
  for (size_t b = 0; b < d->n; b++) {
    if (loom_innermost_loop(l, b) != SIZE_MAX) /* in a loop */
      continue;
    for (LLVMValueRef in = LLVMGetFirstInstruction(d->blocks[b]); in; in = LLVMGetNextInstruction(in))
      add_instruction(&straight, in, simd_bits, native_half, ids, &memo);
  }
  whole += cycles(&straight, true);
  split += cycles(&straight, false);
  for (size_t loop = 0; loop < l->n; loop++) {
    if (!loom_innermost(d, l, loop))
      continue;
    struct estimate body = {0};
    for (size_t b = 0; b < d->n; b++)
      if (loom_loop_contains(l, loop, b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(d->blocks[b]); in; in = LLVMGetNextInstruction(in))
          add_instruction(&body, in, simd_bits, native_half, ids, &memo);
    uint64_t trips = total_trip_count(d, l, loop);
    double weight = trips ? (double)trips : UNKNOWN_TRIPS;
    /* whole code waits for its chain, unless the core overlaps work-items */
    struct loom_loop_time t = loom_loop_time(d, l, loop, simd_bits / 8, true, native_half);
    if (!short_run(trips, t.chain))
      body.whole_chain = (double)t.chain;
    whole += weight * cycles(&body, true);
    split += weight * cycles(&body, false);
  }
  loom_ptrmap_free(&memo);
  return whole <= split;
}

bool loom_region_keeps_vectors_whole(LLVMValueRef region, LLVMValueRef lid_x, LLVMValueRef lin,
                                     unsigned simd_bytes, bool native_half, bool full) {
  const LLVMValueRef ids[2] = {lid_x, lin};
  struct loom_domtree d;
  struct loom_loops l;
  loom_domtree_build(&d, region);
  if (!loom_loops_find(&l, &d)) {
    loom_domtree_free(&d);
    return false;
  }
  bool ok = !long_straight_chain(&d, &l, native_half);
  for (size_t loop = 0; loop < l.n && ok && full; loop++) {
    if (!loom_innermost(&d, &l, loop))
      continue;
    struct loom_loop_time t = loom_loop_time(&d, &l, loop, simd_bytes, true, native_half);
    if (t.chain > 1.5 * t.issue) /* latency-bound */
      ok = short_run(total_trip_count(&d, &l, loop), t.chain);
  }
  if (ok && !full)
    ok = whole_is_cheaper(&d, &l, simd_bytes * 8, native_half, ids);
  loom_loops_free(&l);
  loom_domtree_free(&d);
  return ok;
}
