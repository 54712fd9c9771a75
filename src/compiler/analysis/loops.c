/* Natural loops: an edge b -> h where h dominates b is a back edge, and the
 * loop of header h is h plus every block that reaches such a b without
 * passing through h. Loops are nested or disjoint, so the smallest loop
 * holding a block is its innermost one. */
#include "analysis/loops.h"
#include <stdlib.h>
#include <string.h>

static void set_bit(uint64_t *row, size_t i) { row[i / 64] |= 1ull << (i % 64); }
static bool get_bit(const uint64_t *row, size_t i) { return row[i / 64] >> (i % 64) & 1; }

/* marks the blocks that reach latch without passing header */
static void fill_loop(const struct loom_domtree *d, uint64_t *row, size_t *size, size_t header,
                      size_t latch, size_t *stack) {
  size_t depth = 0;
  if (!get_bit(row, header)) {
    set_bit(row, header);
    ++*size;
  }
  if (!get_bit(row, latch)) {
    set_bit(row, latch);
    ++*size;
    stack[depth++] = latch;
  }
  while (depth) {
    size_t b = stack[--depth];
    for (size_t k = 0; k < d->npreds[b]; k++) {
      size_t p = d->preds[b][k];
      if (!get_bit(row, p)) {
        set_bit(row, p);
        ++*size;
        stack[depth++] = p;
      }
    }
  }
}

bool loom_loops_find(struct loom_loops *l, const struct loom_domtree *d) {
  memset(l, 0, sizeof *l);
  l->words = (d->n + 63) / 64;
  size_t *loop_of = malloc((d->n ? d->n : 1) * sizeof *loop_of); /* header -> loop */
  size_t *stack = malloc((d->n ? d->n : 1) * sizeof *stack);
  bool ok = loop_of && stack;
  for (size_t i = 0; ok && i < d->n; i++)
    loop_of[i] = SIZE_MAX;
  /* every back edge p -> h (h dominates its predecessor p) adds to h's loop */
  for (size_t h = 0; ok && h < d->n; h++)
    for (size_t k = 0; ok && k < d->npreds[h]; k++) {
      size_t p = d->preds[h][k];
      if (!loom_dominates(d, d->blocks[h], d->blocks[p]))
        continue;
      if (loop_of[h] == SIZE_MAX) {
        uint64_t *m = realloc(l->member, (l->n + 1) * l->words * sizeof *m);
        size_t *s = m ? realloc(l->size, (l->n + 1) * sizeof *s) : NULL;
        if (m)
          l->member = m;
        if (!s) {
          ok = false;
          break;
        }
        l->size = s;
        memset(l->member + l->n * l->words, 0, l->words * sizeof *m);
        l->size[l->n] = 0;
        loop_of[h] = l->n++;
      }
      size_t li = loop_of[h];
      fill_loop(d, l->member + li * l->words, &l->size[li], h, p, stack);
    }
  free(loop_of);
  free(stack);
  if (!ok)
    loom_loops_free(l);
  return ok;
}

bool loom_loop_contains(const struct loom_loops *l, size_t loop, size_t block) {
  return get_bit(l->member + loop * l->words, block);
}

size_t loom_innermost_loop(const struct loom_loops *l, size_t block) {
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < l->n; i++)
    if (loom_loop_contains(l, i, block) && (best == SIZE_MAX || l->size[i] < l->size[best]))
      best = i;
  return best;
}

bool loom_function_loops(struct loom_domtree *d, struct loom_loops *l, LLVMValueRef f) {
  loom_domtree_build(d, f);
  if (loom_loops_find(l, d))
    return true;
  loom_domtree_free(d);
  return false;
}

size_t loom_loop_header(const struct loom_domtree *d, const struct loom_loops *l, size_t loop) {
  for (size_t b = 0; b < d->n; b++)
    if (loom_loop_contains(l, loop, b) &&
        (d->idom[b] == b || !loom_loop_contains(l, loop, d->idom[b])))
      return b;
  return SIZE_MAX;
}

bool loom_loop_shape(const struct loom_domtree *d, const struct loom_loops *l, size_t loop,
                     LLVMBasicBlockRef *header, LLVMBasicBlockRef *pre, LLVMBasicBlockRef *latch) {
  size_t h = loom_loop_header(d, l, loop);
  if (h == SIZE_MAX)
    return false;
  *header = d->blocks[h];
  *pre = *latch = NULL;
  for (size_t i = 0; i < d->npreds[h]; i++) {
    size_t p = d->preds[h][i];
    LLVMBasicBlockRef *slot = loom_loop_contains(l, loop, p) ? latch : pre;
    if (*slot)
      return false;
    *slot = d->blocks[p];
  }
  return *pre && *latch;
}

void loom_loops_free(struct loom_loops *l) {
  free(l->member);
  free(l->size);
  memset(l, 0, sizeof *l);
}
