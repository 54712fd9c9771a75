/* Dominator tree over the blocks reachable from a function's entry. */
#ifndef LOOM_DOMINATORS_H
#define LOOM_DOMINATORS_H
#include "support/llvm_util.h"

struct loom_domtree {
  size_t n;                  /* reachable blocks */
  LLVMBasicBlockRef *blocks; /* in postorder: the entry is last */
  size_t *idom;              /* postorder number of each block's immediate dominator */
  struct loom_ptrmap index;  /* block -> postorder number */
  size_t **preds;            /* reachable predecessors, by postorder number */
  size_t *npreds;
};

void loom_domtree_build(struct loom_domtree *d, LLVMValueRef f) LOOM_HIDDEN;
void loom_domtree_free(struct loom_domtree *d) LOOM_HIDDEN;
bool loom_domtree_reachable(const struct loom_domtree *d, LLVMBasicBlockRef b) LOOM_HIDDEN;
/* a dominates b (every block dominates itself); false for unreachable blocks */
bool loom_dominates(const struct loom_domtree *d, LLVMBasicBlockRef a,
                    LLVMBasicBlockRef b) LOOM_HIDDEN;
/* b's immediate dominator; NULL for the entry and unreachable blocks */
LLVMBasicBlockRef loom_idom(const struct loom_domtree *d, LLVMBasicBlockRef b) LOOM_HIDDEN;

#endif
