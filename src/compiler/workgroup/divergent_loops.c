/* Loops whose trip count differs between work-items (Mandelbrot's escape
 * loop) run one iteration per pass over the work-group.
 *
 * Neither of LLVM's vectorisers handles a work-item loop around an inner
 * loop with a data-dependent exit, so such a kernel ran one work-item at a
 * time. Here the inner loop gets two convergence points, handled like
 * barriers by the rest of the work-group compiler: one at the top of its
 * header (after the PHIs), one at the top of its exit block. The region that
 * starts at the header's point then holds exactly one iteration of the loop
 * and no loop of its own, so its work-item loop vectorises like any other:
 * each pass runs one iteration for every work-item still in the loop (a
 * per-work-item "where am I" slot masks out those that have left; see
 * wg_function.c), and passes repeat while any work-item returned to the
 * header. The loop's state lives in per-work-item slots between passes.
 *
 * A loop qualifies when:
 * - its kernel has no barrier (see loom_mark_divergent_loops);
 * - every work-item reaches it at most once: its preheader lies in no loop,
 *   so the loop is outermost. Work-items that do not reach it (an early
 *   `if (x >= w) return;`) must end the kernel without meeting a barrier or
 *   another loop; the kernel's regions are then "masked": each runs only
 *   the work-items whose slot says they reached it (wg_tracking.c);
 * - it holds no other loop and no barrier, and leaves through one exit block
 *   entered only from the loop;
 * - some exit branch is varying (a uniform loop is left to the outer-loop
 *   vectoriser);
 * - its instructions are all ones the vectoriser widens (outer_loop.c):
 *   otherwise the passes would only add slot traffic to scalar code. */
#include "analysis/analysis.h"
#include "vectorize/vectorize.h"
#include "loom_abi.h"
#include "analysis/dominators.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

struct loops_ctx {
  struct loom_domtree dt;
  unsigned char *in_any_loop;
};

/* b's postorder number, or SIZE_MAX for a block the analysis does not know:
 * one made by unrolling an earlier loop of the same kernel (the analysis is
 * not redone between loops) */
static size_t block_index(const struct loops_ctx *x, LLVMBasicBlockRef b) {
  size_t i = SIZE_MAX;
  loom_ptrmap_get(&x->dt.index, b, &i);
  return i;
}

/* The natural loop of header h: h and every block that reaches one of its
 * back edges without passing h (body[i] set). False if h heads no loop. */
static bool natural_loop(struct loops_ctx *x, size_t h, unsigned char *body) {
  size_t n = x->dt.n, *stack = malloc(n * sizeof *stack), depth = 0;
  memset(body, 0, n);
  body[h] = 1;
  bool any = false;
  for (size_t k = 0; k < x->dt.npreds[h]; k++) {
    size_t p = x->dt.preds[h][k];
    if (!loom_dominates(&x->dt, x->dt.blocks[h], x->dt.blocks[p]))
      continue;
    any = true;
    if (!body[p]) {
      body[p] = 1;
      stack[depth++] = p;
    }
  }
  while (depth) {
    size_t b = stack[--depth];
    for (size_t k = 0; k < x->dt.npreds[b]; k++) {
      size_t p = x->dt.preds[b][k];
      if (!body[p]) {
        body[p] = 1;
        stack[depth++] = p;
      }
    }
  }
  free(stack);
  return any;
}

static bool is_return_block(LLVMBasicBlockRef b) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
  return t && LLVMGetInstructionOpcode(t) == LLVMRet;
}

/* Work-items that never reach block `pre` must finish the kernel without
 * meeting a barrier or a loop: the blocks reachable from the entry without
 * passing `pre` hold neither. (The kernel has no barrier at all when this
 * is asked; see loom_mark_divergent_loops.) */
static bool finish_without_loop(struct loops_ctx *x, size_t pre) {
  size_t n = x->dt.n, *stack = malloc(n * sizeof *stack), depth = 0;
  unsigned char *seen = calloc(n, 1);
  size_t entry = n - 1;
  bool ok = true;
  stack[depth++] = entry;
  seen[entry] = 1;
  while (depth && ok) {
    size_t b = stack[--depth];
    if (b == pre)
      continue;
    ok = !x->in_any_loop[b];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(x->dt.blocks[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned k = 0; k < ns && ok; k++) {
      size_t s = block_index(x, LLVMGetSuccessor(t, k));
      if (s == SIZE_MAX)
        ok = false; /* a block an earlier loop's unrolling made: in a loop */
      else if (!seen[s]) {
        seen[s] = 1;
        stack[depth++] = s;
      }
    }
  }
  free(stack);
  free(seen);
  return ok;
}

/* Checks loop `body` (header h) against the rules above; *exit gets its exit
 * block, *masked whether some work-items skip the loop. */
static bool qualifies(struct loops_ctx *x, struct loom_uniformity *uni, size_t h,
                      const unsigned char *body, LLVMBasicBlockRef *exit, bool *masked) {
  size_t n = x->dt.n, e = SIZE_MAX, pre = SIZE_MAX;
  bool varying_exit = false;
  for (size_t b = 0; b < n; b++) {
    if (!body[b])
      continue;
    if (x->in_any_loop[b] != 1)
      return false; /* a loop nested inside, or this one inside another */
    for (LLVMValueRef in = LLVMGetFirstInstruction(x->dt.blocks[b]); in;
         in = LLVMGetNextInstruction(in))
      if (loom_is_call_to(in, LOOM_SYM_BARRIER) || !loom_widenable_instruction(in))
        return false;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(x->dt.blocks[b]);
    unsigned ns = LLVMGetNumSuccessors(t);
    for (unsigned k = 0; k < ns; k++) {
      size_t s = block_index(x, LLVMGetSuccessor(t, k));
      if (s == SIZE_MAX)
        return false; /* leads into blocks an earlier loop's unrolling made */
      if (body[s])
        continue;
      if (e != SIZE_MAX && e != s)
        return false; /* two exit blocks */
      e = s;
      if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
          !loom_is_uniform(uni, LLVMGetCondition(t)))
        varying_exit = true;
    }
  }
  if (e == SIZE_MAX || !varying_exit)
    return false;
  for (size_t k = 0; k < x->dt.npreds[e]; k++)
    if (!body[x->dt.preds[e][k]])
      return false; /* the exit block is shared with other paths */
  for (size_t k = 0; k < x->dt.npreds[h]; k++) {
    size_t p = x->dt.preds[h][k];
    if (body[p])
      continue;
    if (pre != SIZE_MAX)
      return false;
    pre = p;
  }
  if (pre == SIZE_MAX || x->in_any_loop[pre])
    return false;
  *masked = false;
  for (size_t b = 0; b < n; b++)
    if (is_return_block(x->dt.blocks[b]) &&
        !loom_dominates(&x->dt, x->dt.blocks[pre], x->dt.blocks[b]))
      *masked = true; /* some work-items may never reach the loop */
  if (*masked && !finish_without_loop(x, pre))
    return false;
  *exit = x->dt.blocks[e];
  return true;
}

/* a convergence point: a barrier call after bb's PHIs */
static LLVMValueRef insert_point(LLVMModuleRef m, LLVMBasicBlockRef bb) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef fn = loom_get_fn(m, LOOM_SYM_BARRIER, LLVMVoidTypeInContext(c), NULL, 0);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(bld, loom_first_non_phi(bb));
  LLVMValueRef call = LLVMBuildCall2(bld, LLVMGlobalGetValueType(fn), fn, NULL, 0, "");
  LLVMDisposeBuilder(bld);
  return call;
}

/* Iterations per pass: enough arithmetic to outweigh moving the loop's
 * state through its slots, without growing large loops. */
static unsigned unroll_count(size_t instructions) {
  return instructions <= 24 ? 8 : instructions <= 48 ? 4 : instructions <= 96 ? 2 : 1;
}

void loom_mark_divergent_loops(LLVMModuleRef m, LLVMValueRef k, struct loom_divergent_marks *out) {
  memset(out, 0, sizeof *out);
  /* Only in kernels without barriers: every region is a copy of the kernel
   * that O3 optimises on its own, and convergence points among barriers
   * multiplied the code and the compile time (a kernel with two barriers and
   * two short copy loops took 10-20 times longer to compile). */
  size_t nbarriers;
  free(loom_calls_in(k, LOOM_SYM_BARRIER, &nbarriers));
  if (nbarriers)
    return;
  struct loops_ctx x = {0};
  loom_domtree_build(&x.dt, k);
  size_t n = x.dt.n;
  if (n < 2) {
    loom_domtree_free(&x.dt);
    return;
  }
  x.in_any_loop = calloc(n, 1);
  unsigned char **bodies = calloc(n, sizeof *bodies);
  for (size_t h = 0; h < n; h++) {
    bodies[h] = malloc(n);
    if (!natural_loop(&x, h, bodies[h])) {
      free(bodies[h]);
      bodies[h] = NULL;
      continue;
    }
    for (size_t b = 0; b < n; b++)
      x.in_any_loop[b] += bodies[h][b] && x.in_any_loop[b] < 255;
  }
  struct loom_uniformity *uni = loom_uniformity_compute(k);
  size_t cap = 0;
  for (size_t h = 0; h < n; h++) {
    LLVMBasicBlockRef exit;
    bool masked;
    if (!bodies[h] || x.in_any_loop[h] != 1 || !qualifies(&x, uni, h, bodies[h], &exit, &masked))
      continue;
    /* work-items that skip a loop are masked out of every later region,
     * which is only sound when no barrier waits for them; and one such
     * loop per kernel keeps the order of the regions simple */
    if (masked && (out->masked || out->n))
      continue;
    if (out->masked)
      continue;
    out->masked = masked;
    if (out->n == cap) {
      cap = cap ? 2 * cap : 4;
      out->header_barrier = realloc(out->header_barrier, cap * sizeof *out->header_barrier);
      out->exit_barrier = realloc(out->exit_barrier, cap * sizeof *out->exit_barrier);
    }
    /* the loop's blocks in reverse postorder (the header first) */
    LLVMBasicBlockRef *blocks = malloc(n * sizeof *blocks);
    size_t nb = 0, ninsts = 0;
    for (size_t b = n; b-- > 0;)
      if (bodies[h][b]) {
        blocks[nb++] = x.dt.blocks[b];
        for (LLVMValueRef in = LLVMGetFirstInstruction(x.dt.blocks[b]); in;
             in = LLVMGetNextInstruction(in))
          ninsts++;
      }
    LLVMBasicBlockRef *added;
    size_t nadded = loom_unroll_loop(k, blocks, nb, exit, unroll_count(ninsts), &added);
    /* every instruction of the loop: its values are per-work-item even when
     * the same for all work-items still looping */
    for (size_t b = 0; b < nb + nadded; b++)
      for (LLVMValueRef in = LLVMGetFirstInstruction(b < nb ? blocks[b] : added[b - nb]); in;
           in = LLVMGetNextInstruction(in))
        loom_ptrmap_put(&out->loop_insts, in, 1);
    free(blocks);
    free(added);
    out->header_barrier[out->n] = insert_point(m, x.dt.blocks[h]);
    out->exit_barrier[out->n++] = insert_point(m, exit);
  }
  loom_uniformity_free(uni);
  for (size_t b = 0; b < n; b++)
    free(bodies[b]);
  free(bodies);
  free(x.in_any_loop);
  loom_domtree_free(&x.dt);
}

void loom_divergent_marks_free(struct loom_divergent_marks *d) {
  free(d->header_barrier);
  free(d->exit_barrier);
  loom_ptrmap_free(&d->loop_insts);
}
