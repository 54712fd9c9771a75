/* Software prefetches for loads that stride through memory faster than the
 * hardware prefetchers follow.
 *
 * x86's prefetchers follow a load within a 4 KB page (the L2 streamer) or at
 * strides up to 2 KB (the L1 IP-stride prefetcher). An inner loop that walks
 * down a matrix's columns, `for (k ...) a = A[k * ld + x]`, starts a new page
 * on every iteration once ld passes 1024 floats, and each load waits for L2
 * or L3. CLBlast's Xgemm does this for A and B; at n = 1024 the rows (4 KB
 * apart) also share a few L2 sets, so a group's eight rows of work-items
 * find a tile's A in L3 each time: 80 GFLOP/s, against 125 at n = 1088.
 *
 * After O3, in each innermost loop that sits inside another and is not a
 * work-item loop, every loop-variant pointer R that loads of global or
 * constant memory read from (at constant offsets) gets a phi holding its
 * previous iteration's value, and
 *
 *     d = R - prev;  s = (2 KB <= |d| <= 16 MB) ? d : 0
 *     prefetch each 64-byte line the loads cover, at R + D * s
 *
 * D, the distance in iterations, is about 256 cycles at the loop's
 * estimated cost. The first iteration's prev is 0, so its d is an address,
 * far above the range: nothing is prefetched ahead there, and a stride the
 * hardware follows (or none) prefetches R's own lines, which the loads
 * bring in anyway. A prefetch never faults and changes no result. */
#include "analysis/analysis.h"
#include "analysis/loops.h"
#include "support/llvm_util.h"
#include "target/x86/x86.h"
#include "vectorize/loop_cost.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

enum {
  MAX_ROOTS = 8,           /* pointers prefetched per loop */
  MAX_LINES = 8,           /* lines per pointer */
  LINE = 64,
  MIN_STRIDE = 2048,       /* what the L1 IP-stride prefetcher follows */
  MAX_STRIDE = 16 << 20,   /* beyond: not a stride (the first iteration) */
  AHEAD_CYCLES = 256,
  MAX_AHEAD = 16,
  ROOT_COST = 8,           /* instructions a root adds besides its prefetches */
};

struct root {
  LLVMValueRef ptr;
  long long lo, hi; /* bytes [lo, hi) its loads read, relative to ptr */
};

/* global (1), constant (2) or generic (4) memory: what a kernel streams */
static bool streamed_space(LLVMValueRef ptr) {
  unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
  return as == 1 || as == 2 || as == 4;
}

static bool in_loop(const struct loom_domtree *d, const struct loom_loops *l, size_t loop,
                    LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return false;
  size_t b;
  return loom_ptrmap_get(&d->index, LLVMGetInstructionParent(v), &b) &&
         loom_loop_contains(l, loop, b);
}

/* p as (root, constant byte offset): through one GEP with a constant index */
static LLVMValueRef split_offset(LLVMTargetDataRef td, LLVMValueRef p, long long *off) {
  *off = 0;
  if (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 &&
      LLVMIsAConstantInt(LLVMGetOperand(p, 1))) {
    LLVMTypeRef et = LLVMGetGEPSourceElementType(p);
    if (LLVMTypeIsSized(et)) {
      *off = LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1)) *
             (long long)LLVMABISizeOfType(td, et);
      return LLVMGetOperand(p, 0);
    }
  }
  return p;
}

static unsigned collect_roots(const struct loom_domtree *d, const struct loom_loops *l,
                              size_t loop, LLVMBasicBlockRef latch, LLVMTargetDataRef td,
                              struct root *roots, unsigned *cost) {
  unsigned n = 0;
  *cost = 0;
  for (size_t b = 0; b < d->n; b++) {
    if (!loom_loop_contains(l, loop, b))
      continue;
    for (LLVMValueRef in = LLVMGetFirstInstruction(d->blocks[b]); in;
         in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsAPHINode(in))
        (*cost)++;
      if (!LLVMIsALoadInst(in) || LLVMGetVolatile(in) ||
          LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
        continue;
      LLVMValueRef p = LLVMGetOperand(in, 0);
      if (!streamed_space(p))
        continue;
      long long off;
      LLVMValueRef r = split_offset(td, p, &off);
      /* loop-variant, and computed on every iteration (dominating the latch) */
      if (!in_loop(d, l, loop, r) || !loom_dominates(d, LLVMGetInstructionParent(r), latch))
        continue;
      long long end = off + (long long)LLVMABISizeOfType(td, LLVMTypeOf(in));
      unsigned i = 0;
      while (i < n && roots[i].ptr != r)
        i++;
      if (i == n) {
        if (n == MAX_ROOTS)
          continue;
        roots[n++] = (struct root){r, off, end};
      } else {
        roots[i].lo = off < roots[i].lo ? off : roots[i].lo;
        roots[i].hi = end > roots[i].hi ? end : roots[i].hi;
      }
    }
  }
  return n;
}

/* the first 64-byte line a root's loads cover */
static long long first_line(const struct root *r) {
  return r->lo >= 0 ? r->lo / LINE * LINE : -((-r->lo + LINE - 1) / LINE) * LINE;
}

/* the 64-byte lines prefetched for r (at most MAX_LINES) */
static unsigned root_lines(const struct root *r) {
  long long n = (r->hi - first_line(r) + LINE - 1) / LINE;
  return n < 1 ? 1 : n > MAX_LINES ? MAX_LINES : (unsigned)n;
}

static LLVMValueRef prefetch_fn(LLVMModuleRef m, LLVMTypeRef ptr_type) {
  unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
  return LLVMGetIntrinsicDeclaration(m, id, &ptr_type, 1);
}

static void prefetch_root(LLVMModuleRef m, const struct root *r, LLVMBasicBlockRef header,
                          LLVMBasicBlockRef preheader, LLVMBasicBlockRef latch,
                          unsigned ahead) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef pt = LLVMTypeOf(r->ptr);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(header));
  LLVMValueRef prev = LLVMBuildPhi(b, i64, "stride.prev");
  /* right after the root (after the phis of its block when it is one) */
  LLVMValueRef at = LLVMIsAPHINode(r->ptr)
                        ? loom_first_non_phi(LLVMGetInstructionParent(r->ptr))
                        : LLVMGetNextInstruction(r->ptr);
  LLVMPositionBuilderBefore(b, at);
  LLVMValueRef now = LLVMBuildPtrToInt(b, r->ptr, i64, "stride.at");
  LLVMValueRef dlt = LLVMBuildSub(b, now, prev, "stride");
  LLVMValueRef neg = LLVMBuildSub(b, LLVMConstInt(i64, 0, 0), dlt, "");
  LLVMValueRef back = LLVMBuildICmp(b, LLVMIntSLT, dlt, LLVMConstInt(i64, 0, 0), "");
  LLVMValueRef mag = LLVMBuildSelect(b, back, neg, dlt, "");
  LLVMValueRef above = LLVMBuildICmp(b, LLVMIntUGE, mag, LLVMConstInt(i64, MIN_STRIDE, 0), "");
  LLVMValueRef below = LLVMBuildICmp(b, LLVMIntULE, mag, LLVMConstInt(i64, MAX_STRIDE, 0), "");
  LLVMValueRef big = LLVMBuildAnd(b, above, below, "");
  LLVMValueRef step = LLVMBuildSelect(b, big, dlt, LLVMConstInt(i64, 0, 0), "");
  LLVMValueRef ahead_bytes = LLVMBuildMul(b, step, LLVMConstInt(i64, ahead, 0), "stride.ahead");
  LLVMValueRef fn = prefetch_fn(m, pt);
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  long long first = first_line(r);
  unsigned lines = 0;
  for (long long off = first; off < r->hi && lines < MAX_LINES; off += LINE, lines++) {
    LLVMValueRef o = off ? LLVMBuildAdd(b, ahead_bytes, LLVMConstInt(i64, (unsigned long long)off, 1), "")
                         : ahead_bytes;
    LLVMValueRef addr = LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), r->ptr, &o, 1, "stride.next");
    /* read, high locality (into L1), data */
    LLVMValueRef args[4] = {addr, LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 3, 0),
                            LLVMConstInt(i32, 1, 0)};
    LLVMBuildCall2(b, fty, fn, args, 4, "");
  }
  LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
  LLVMAddIncoming(prev, &zero, &preheader, 1);
  LLVMAddIncoming(prev, &now, &latch, 1);
  LLVMDisposeBuilder(b);
}

/* does another loop hold every block of this one? (an inner loop: a work-item
 * loop's body loop, not a loop of its own) */
static bool nested(const struct loom_loops *l, size_t loop) {
  for (size_t o = 0; o < l->n; o++) {
    if (o == loop || l->size[o] <= l->size[loop])
      continue;
    bool all = true;
    for (size_t w = 0; w < l->words && all; w++)
      all = (l->member[loop * l->words + w] & ~l->member[o * l->words + w]) == 0;
    if (all)
      return true;
  }
  return false;
}

static void prefetch_function(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef f) {
  struct loom_domtree d;
  struct loom_loops l;
  if (!loom_function_loops(&d, &l, f))
    return;
  for (size_t loop = 0; loop < l.n; loop++) {
    LLVMBasicBlockRef header, pre, latch;
    if (!loom_innermost(&d, &l, loop) || !nested(&l, loop) ||
        !loom_loop_shape(&d, &l, loop, &header, &pre, &latch))
      continue;
    /* work-item loops stream along x: the hardware follows them */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(latch);
    if (loom_loop_md_names(term, "llvm.loop.isvectorized") ||
        loom_loop_md_names(term, "llvm.loop.parallel_accesses"))
      continue;
    struct root roots[MAX_ROOTS];
    unsigned cost;
    unsigned n = collect_roots(&d, &l, loop, latch, td, roots, &cost);
    /* about 4 instructions a cycle */
    unsigned cycles = cost / 4 ? cost / 4 : 1;
    unsigned ahead = (AHEAD_CYCLES + cycles - 1) / cycles;
    ahead = ahead < 1 ? 1 : ahead > MAX_AHEAD ? MAX_AHEAD : ahead;
    /* A root costs about 8 instructions and one per line, on every
     * iteration, stride or not: in a loop of a dozen (naive DGEMM's k loop,
     * whose column of B stays in L2 for the next row) that was 20% slower.
     * The widest roots first, while the additions stay within a quarter of
     * the loop. */
    for (unsigned i = 1; i < n; i++) /* stable: equal widths keep their order */
      for (unsigned j = i; j > 0 && root_lines(&roots[j]) > root_lines(&roots[j - 1]); j--) {
        struct root t = roots[j];
        roots[j] = roots[j - 1];
        roots[j - 1] = t;
      }
    unsigned budget = cost / 4, spent = 0;
    for (unsigned i = 0; i < n; i++) {
      unsigned extra = ROOT_COST + root_lines(&roots[i]);
      if (spent + extra > budget)
        continue;
      spent += extra;
      prefetch_root(m, &roots[i], header, pre, latch, ahead);
    }
  }
  loom_loops_free(&l);
  loom_domtree_free(&d);
}

void loom_prefetch_strides(LLVMModuleRef m) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (loom_is_wg_function(f))
      prefetch_function(m, td, f);
}
