/* How many vectors of work-items an outer-vectorised work-item loop should
 * run side by side.
 *
 * VPlan's native path widens a work-item loop around an inner loop to one
 * register of work-items (16 floats with AVX-512) and interleaves nothing.
 * When each work-item's inner loop carries a chain of dependent operations
 * (clpeak's `x = mad(y, x, y); y = mad(x, y, x); ...`, a dot product's
 * `acc = fma(a, b, acc)`), the widened loop waits on that chain: one FMA
 * every 4 cycles where the core could start two per cycle. Work-items are
 * independent, so running k registers of them together (a vectorisation
 * width k times the register's) gives the core k chains to overlap.
 *
 * The estimate, per innermost loop of the region (the region is one
 * work-item's code, before O3):
 *   R: the longest latency around a recurrence, from a header phi through
 *      this iteration's instructions back to the value it takes next;
 *   T: the issue cost of one iteration on two vector ports (an OpenCL
 *      vector operation counts once per element: it is scalarised and each
 *      element widened across work-items).
 * A loop with R > 1.5 T is latency-bound; k is the power of two that covers
 * R / T, at most 8, and at most what keeps the recurrences' values within
 * three quarters of the vector registers (24 of AVX-512's 32, 12 of AVX2's
 * 16: a latency-bound loop has few other values live).
 * The latencies are those of current x86 cores (Intel since Skylake, AMD
 * Zen 4), close enough to tell a chain-bound loop from a throughput-bound one.
 *
 * LLVM takes widths up to 64 work-items; where k needs more (clpeak's float
 * chain wants 8 registers of 16 floats), the wide loop is also unrolled and
 * jammed (pass jam-items, before O3): each iteration runs the inner loop for
 * two sets of work-items at once, and VPlan then widens that loop. LLVM 19's
 * unroll-and-jam takes only an unguarded inner loop (a constant trip count);
 * a loop run a run-time number of times keeps the 64 work-items.
 *
 * workgroup/wg_function.c runs the wide loop over the largest multiple of
 * the width (times the jam count) and the ordinary one over the rest, so a
 * group smaller than that or not a multiple of it loses nothing. */
#include "analysis/loops.h"
#include "vectorize/loop_cost.h"
#include "workgroup/workgroup.h"
#include "vectorize/vectorize.h"
#include <stdlib.h>
#include <string.h>

/* an operation on half values: a conversion is not, a load or store is not */
static bool half_arithmetic(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    break;
  case LLVMCall:
    if (loom_is_call_to_prefix(in, "llvm.fmuladd.") || loom_is_call_to_prefix(in, "llvm.fma.") ||
        loom_is_call_to_prefix(in, "llvm.minnum.") || loom_is_call_to_prefix(in, "llvm.maxnum.") ||
        loom_is_call_to_prefix(in, "llvm.sqrt."))
      break;
    return false;
  default:
    return false;
  }
  LLVMTypeRef t = LLVMTypeOf(in);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMHalfTypeKind;
}

static bool has_half_arithmetic(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      if (half_arithmetic(in))
        return true;
  return false;
}

static struct loom_op_cost base_cost(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFCmp:
  case LLVMSIToFP: case LLVMUIToFP: case LLVMFPToSI: case LLVMFPToUI:
  case LLVMFPExt: case LLVMFPTrunc:
    return (struct loom_op_cost){4, 0.5};
  case LLVMFNeg:
    return (struct loom_op_cost){1, 0.5};
  case LLVMFDiv: case LLVMFRem:
    return (struct loom_op_cost){14, 5};
  case LLVMMul:
    return (struct loom_op_cost){10, 1};
  case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    return (struct loom_op_cost){20, 10};
  case LLVMAdd: case LLVMSub: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMShl:
  case LLVMLShr: case LLVMAShr: case LLVMICmp: case LLVMSelect: case LLVMZExt:
  case LLVMSExt: case LLVMTrunc:
    return (struct loom_op_cost){1, 0.5};
  case LLVMLoad:
    return (struct loom_op_cost){5, 0.5};
  case LLVMStore:
    return (struct loom_op_cost){0, 1};
  case LLVMCall:
    if (loom_is_call_to_prefix(in, "llvm.sqrt."))
      return (struct loom_op_cost){15, 6};
    if (loom_is_call_to_prefix(in, "llvm.fmuladd.") || loom_is_call_to_prefix(in, "llvm.fma.") ||
        loom_is_call_to_prefix(in, "llvm.minnum.") || loom_is_call_to_prefix(in, "llvm.maxnum."))
      return (struct loom_op_cost){4, 0.5};
    return (struct loom_op_cost){1, 0.5};
  default: /* phis, address arithmetic, branches, bit casts, element moves */
    return (struct loom_op_cost){0, 0};
  }
}

/* Without AVX512-FP16 a register of half values is two of floats, each
 * operation a float one whose result VCVTPS2PH rounds and VCVTPH2PS widens
 * again: on AMD Zen 5 the pair adds about 16 cycles of latency and issues at
 * about a third of the FMA rate (a C loop of FMA + round trip: 58 GFLOP/s a
 * core against 215 for FMAs alone). */
struct loom_op_cost loom_op_cost(LLVMValueRef in, bool native_half) {
  struct loom_op_cost c = base_cost(in);
  if (!native_half && half_arithmetic(in))
    c = (struct loom_op_cost){c.latency + 16, c.issue + 1.0};
  return c;
}

static unsigned lanes_of(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static unsigned scalar_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return 16;
  case LLVMFloatTypeKind: return 32;
  case LLVMDoubleTypeKind: return 64;
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) > 1 ? LLVMGetIntTypeWidth(t) : 0;
  case LLVMPointerTypeKind: return 64;
  default: return 0;
  }
}

/* the value phi p takes from inside the loop (its latch's incoming value) */
static LLVMValueRef next_value(LLVMValueRef p, const struct loom_domtree *d,
                               const struct loom_loops *l, size_t loop) {
  for (unsigned i = 0; i < LLVMCountIncoming(p); i++) {
    size_t b;
    if (loom_ptrmap_get(&d->index, LLVMGetIncomingBlock(p, i), &b) && loom_loop_contains(l, loop, b))
      return LLVMGetIncomingValue(p, i);
  }
  return NULL;
}

/* a counter: next = p + (or -) something defined outside this iteration's chain */
static bool is_induction(LLVMValueRef p, LLVMValueRef next) {
  if (!next || !LLVMIsAInstruction(next))
    return true;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  return (op == LLVMAdd || op == LLVMSub) &&
         (LLVMGetOperand(next, 0) == p || LLVMGetOperand(next, 1) == p) &&
         LLVMIsAConstant(LLVMGetOperand(next, op == LLVMAdd && LLVMGetOperand(next, 0) != p ? 0 : 1));
}

struct loop_walk {
  LLVMValueRef *insts; /* the loop's instructions in reverse postorder */
  size_t n;
  struct loom_ptrmap at; /* instruction -> index in insts */
  long *dist;            /* longest latency from the current phi, -1: independent */
};

/* the longest latency from phi p through this iteration to next */
static long recurrence_latency(struct loop_walk *w, LLVMValueRef p, LLVMValueRef next,
                               bool native_half) {
  for (size_t i = 0; i < w->n; i++)
    w->dist[i] = w->insts[i] == p ? 0 : -1;
  for (size_t i = 0; i < w->n; i++) {
    LLVMValueRef in = w->insts[i];
    if (in == p)
      continue;
    if (LLVMIsAPHINode(in)) {
      /* a phi inside the body merges this iteration's values (inner
       * headers' back edges come later in the order and count as absent) */
      long best = -1;
      for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
        size_t j;
        if (loom_ptrmap_get(&w->at, LLVMGetIncomingValue(in, k), &j) && j < i && w->dist[j] > best)
          best = w->dist[j];
      }
      w->dist[i] = best;
      continue;
    }
    long best = -1;
    int nops = LLVMGetNumOperands(in);
    for (int k = 0; k < nops; k++) {
      size_t j;
      if (loom_ptrmap_get(&w->at, LLVMGetOperand(in, k), &j) && j < i && w->dist[j] > best)
        best = w->dist[j];
    }
    if (best >= 0)
      w->dist[i] = best + loom_op_cost(in, native_half).latency;
  }
  size_t j;
  return loom_ptrmap_get(&w->at, next, &j) ? w->dist[j] : 0;
}

/* k for one innermost loop; *widest is raised to its widest scalar type;
 * whole: an OpenCL vector operation costs one operation, not one per
 * element; *time: the estimate behind k */
static unsigned loop_interleave(const struct loom_domtree *d, const struct loom_loops *l,
                                size_t loop, unsigned reg_budget, unsigned max_k, unsigned *widest,
                                bool whole, bool native_half, struct loom_loop_time *time) {
  struct loop_walk w = {0};
  size_t cap = 0;
  double issue = 0;
  LLVMBasicBlockRef header = NULL;
  for (size_t b = d->n; b-- > 0;) { /* reverse postorder: the header comes first */
    if (!loom_loop_contains(l, loop, b))
      continue;
    if (!header)
      header = d->blocks[b];
    for (LLVMValueRef in = LLVMGetFirstInstruction(d->blocks[b]); in; in = LLVMGetNextInstruction(in)) {
      if (w.n == cap) {
        cap = cap ? 2 * cap : 64;
        LLVMValueRef *grown = realloc(w.insts, cap * sizeof *grown);
        if (!grown) {
          free(w.insts);
          loom_ptrmap_free(&w.at);
          return 1;
        }
        w.insts = grown;
      }
      loom_ptrmap_put(&w.at, in, w.n);
      w.insts[w.n++] = in;
      LLVMTypeRef t = LLVMTypeOf(LLVMIsAStoreInst(in) ? LLVMGetOperand(in, 0) : in);
      issue += loom_op_cost(in, native_half).issue * (whole ? 1 : lanes_of(t));
      if (LLVMIsALoadInst(in) || LLVMIsAStoreInst(in)) { /* phis: below, not the counters */
        unsigned bits = scalar_bits(t);
        if (bits > *widest)
          *widest = bits;
      }
    }
  }
  w.dist = malloc((w.n ? w.n : 1) * sizeof *w.dist);
  long chain = 0;
  unsigned live = 0;
  for (LLVMValueRef p = header ? LLVMGetFirstInstruction(header) : NULL; w.dist && p && LLVMIsAPHINode(p);
       p = LLVMGetNextInstruction(p)) {
    LLVMValueRef next = next_value(p, d, l, loop);
    if (is_induction(p, next) || !scalar_bits(LLVMTypeOf(p)))
      continue;
    if (scalar_bits(LLVMTypeOf(p)) > *widest)
      *widest = scalar_bits(LLVMTypeOf(p));
    live += lanes_of(LLVMTypeOf(p));
    long r = recurrence_latency(&w, p, next, native_half);
    if (r > chain)
      chain = r;
  }
  free(w.dist);
  free(w.insts);
  loom_ptrmap_free(&w.at);
  if (time)
    *time = (struct loom_loop_time){issue, chain};
  if (issue <= 0 || chain <= 1.5 * issue)
    return 1;
  unsigned k = 1;
  while (k < max_k && k * issue < chain && 2 * k * (live ? live : 1) <= reg_budget)
    k *= 2;
  return k;
}

bool loom_innermost(const struct loom_domtree *d, const struct loom_loops *l, size_t loop) {
  for (size_t other = 0; other < l->n; other++) {
    if (other == loop || l->size[other] >= l->size[loop])
      continue;
    for (size_t b = 0; b < d->n; b++)
      if (loom_loop_contains(l, other, b) && loom_loop_contains(l, loop, b))
        return false;
  }
  return true;
}

struct loom_loop_time loom_loop_time(const struct loom_domtree *d, const struct loom_loops *l,
                                     size_t loop, unsigned simd_bytes, bool whole,
                                     bool native_half) {
  struct loom_loop_time t = {0, 0};
  unsigned widest = 0;
  loop_interleave(d, l, loop, simd_bytes >= 64 ? 24 : 12, 8, &widest, whole, native_half, &t);
  return t;
}

unsigned loom_outer_loop_width(LLVMValueRef region, unsigned simd_bytes, bool native_half,
                               unsigned *jam) {
  *jam = 1;
  struct loom_domtree d;
  struct loom_loops l;
  loom_domtree_build(&d, region);
  if (!loom_loops_find(&l, &d)) {
    loom_domtree_free(&d);
    return 0;
  }
  /* Without AVX512-FP16 a half chain waits about 20 cycles a step, on
   * conversions that issue slowly: it takes twice the chains, and spilling
   * some of their values (loads and stores, other ports) costs less than the
   * wait (clpeak's half kernel: 16 registers of chains, some spilled, 120
   * GFLOP/s; 8, none spilled, 83) */
  bool half_regs = !native_half && has_half_arithmetic(region);
  unsigned reg_budget = (simd_bytes >= 64 ? 24 : 12) * (half_regs ? 4 : 3) / 3, widest = 0, k = 0;
  for (size_t loop = 0; loop < l.n; loop++) {
    if (!loom_innermost(&d, &l, loop))
      continue;
    unsigned lk = loop_interleave(&d, &l, loop, reg_budget, half_regs ? 16 : 8, &widest, false,
                                  native_half, NULL);
    /* the loop that needs the least decides: the others' values share the registers */
    if (k == 0 || lk < k)
      k = lk;
  }
  loom_loops_free(&l);
  loom_domtree_free(&d);
  /* without AVX512-FP16 half is computed on registers of floats: a register
   * of work-items is as many as of floats (VPlan's own choice would be twice
   * that, each value two registers: clpeak's half16 chains spilled) */
  bool half_as_float = half_regs && widest == 16;
  if (half_as_float)
    widest = 32;
  if ((k <= 1 && !half_as_float) || widest == 0)
    return 0;
  unsigned lanes = simd_bytes * 8 / widest;
  if (lanes < 2)
    return 0;
  /* LLVM ignores a requested width above 64 (VectorizerParams::MaxVectorWidth):
   * the rest of k comes from unroll-and-jam of the work-item loop (pass
   * jam-items), each copy of the inner loop one more set of chains */
  while (k > 1 && lanes * k > 64) {
    k /= 2;
    *jam *= 2;
  }
  return k > 1 || *jam > 1 || half_as_float ? lanes * k : 0;
}

int loom_jam_work_items(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  if (!loom_module_has_jammed_loops(m))
    return 0;
  /* the loops in the simplified, rotated form LLVM's unroll-and-jam needs;
   * it acts only on the loops whose ID asks for it (a count) */
  int rc = loom_run_passes(m,
                           "function(sroa,instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,"
                           "lcssa,loop(loop-rotate,indvars),loop(loop-unroll-and-jam))",
                           tm);
  /* the copies laid one after the other: interleaved (chain_order.c) */
  for (LLVMValueRef f = LLVMGetFirstFunction(m); rc == 0 && f; f = LLVMGetNextFunction(f))
    if (loom_wg_has_jammed_loops(f))
      loom_interleave_jammed_chains(f);
  return rc;
}
