/* Dominator tree of a function's blocks reachable from its entry
 * (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder):
 * the LLVM C API offers no dominator queries. */
#include "analysis/dominators.h"
#include <stdlib.h>

static size_t succ_count(LLVMBasicBlockRef bb) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t ? LLVMGetNumSuccessors(t) : 0;
}

/* depth-first postorder of the reachable blocks */
static void postorder(struct loom_domtree *d, LLVMBasicBlockRef entry, size_t total) {
  struct frame {
    LLVMBasicBlockRef b;
    unsigned next;
  } *stack = malloc(total * sizeof *stack);
  struct loom_ptrmap visited = {0};
  size_t depth = 0;
  stack[depth++] = (struct frame){entry, 0};
  loom_ptrmap_put(&visited, entry, 0);
  while (depth) {
    struct frame *fr = &stack[depth - 1];
    if (fr->next == succ_count(fr->b)) {
      d->blocks[d->n++] = fr->b;
      depth--;
      continue;
    }
    LLVMBasicBlockRef s = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(fr->b), fr->next++);
    size_t dummy;
    if (!loom_ptrmap_get(&visited, s, &dummy)) {
      loom_ptrmap_put(&visited, s, 0);
      stack[depth++] = (struct frame){s, 0};
    }
  }
  loom_ptrmap_free(&visited);
  free(stack);
}

static size_t intersect(const size_t *idom, size_t a, size_t b) {
  /* indices are postorder numbers: a dominator has the larger one */
  while (a != b) {
    while (a < b)
      a = idom[a];
    while (b < a)
      b = idom[b];
  }
  return a;
}

void loom_domtree_build(struct loom_domtree *d, LLVMValueRef f) {
  size_t total = LLVMCountBasicBlocks(f);
  d->n = 0;
  d->blocks = malloc((total ? total : 1) * sizeof *d->blocks);
  d->idom = malloc((total ? total : 1) * sizeof *d->idom);
  d->index = (struct loom_ptrmap){0};
  d->preds = calloc(total ? total : 1, sizeof *d->preds);
  d->npreds = calloc(total ? total : 1, sizeof *d->npreds);
  if (!total)
    return;
  postorder(d, LLVMGetEntryBasicBlock(f), total);
  for (size_t i = 0; i < d->n; i++) {
    loom_ptrmap_put(&d->index, d->blocks[i], i);
    d->idom[i] = SIZE_MAX;
  }
  size_t root = d->n - 1;
  d->idom[root] = root;
  /* predecessors of each reachable block, by postorder number */
  size_t **preds = d->preds, *npreds = d->npreds;
  for (size_t i = 0; i < d->n; i++) {
    size_t ns = succ_count(d->blocks[i]);
    for (size_t k = 0; k < ns; k++) {
      size_t s;
      loom_ptrmap_get(&d->index, LLVMGetSuccessor(LLVMGetBasicBlockTerminator(d->blocks[i]), (unsigned)k), &s);
      preds[s] = realloc(preds[s], (npreds[s] + 1) * sizeof **preds);
      preds[s][npreds[s]++] = i;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = root; i-- > 0;) { /* reverse postorder, root excluded */
      size_t nd = SIZE_MAX;
      for (size_t k = 0; k < npreds[i]; k++) {
        size_t p = preds[i][k];
        if (d->idom[p] == SIZE_MAX)
          continue;
        nd = nd == SIZE_MAX ? p : intersect(d->idom, p, nd);
      }
      if (nd != d->idom[i]) {
        d->idom[i] = nd;
        changed = true;
      }
    }
  }
}

bool loom_domtree_reachable(const struct loom_domtree *d, LLVMBasicBlockRef b) {
  size_t i;
  return loom_ptrmap_get(&d->index, b, &i);
}

bool loom_dominates(const struct loom_domtree *d, LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  size_t ia, ib;
  if (!loom_ptrmap_get(&d->index, a, &ia) || !loom_ptrmap_get(&d->index, b, &ib))
    return false;
  while (ib < ia)
    ib = d->idom[ib];
  return ib == ia;
}

LLVMBasicBlockRef loom_idom(const struct loom_domtree *d, LLVMBasicBlockRef b) {
  size_t i;
  if (!loom_ptrmap_get(&d->index, b, &i) || d->idom[i] == i)
    return NULL;
  return d->blocks[d->idom[i]];
}

void loom_domtree_free(struct loom_domtree *d) {
  for (size_t i = 0; i < d->n; i++)
    free(d->preds[i]);
  free(d->preds);
  free(d->npreds);
  free(d->blocks);
  free(d->idom);
  loom_ptrmap_free(&d->index);
}
