/* Natural loops of a function, found on its dominator tree (the LLVM C API
 * offers no loop queries). */
#ifndef LOOM_LOOPS_H
#define LOOM_LOOPS_H
#include "analysis/dominators.h"
#include <stdint.h>

struct loom_loops {
  size_t n;         /* loops (back edges to one header make one loop) */
  size_t words;     /* 64-bit words per membership row */
  uint64_t *member; /* n rows of d->n bits: block (postorder number) in loop */
  size_t *size;     /* blocks in each loop */
};

/* false when out of memory (l is then empty) */
bool loom_loops_find(struct loom_loops *l, const struct loom_domtree *d) LOOM_HIDDEN;
bool loom_loop_contains(const struct loom_loops *l, size_t loop, size_t block) LOOM_HIDDEN;
/* the smallest loop holding block (a postorder number), or SIZE_MAX */
size_t loom_innermost_loop(const struct loom_loops *l, size_t block) LOOM_HIDDEN;
/* d and l for f; false (both freed) when out of memory */
bool loom_function_loops(struct loom_domtree *d, struct loom_loops *l, LLVMValueRef f) LOOM_HIDDEN;
/* the loop's header (the block whose immediate dominator lies outside it),
 * a postorder number; SIZE_MAX if none */
size_t loom_loop_header(const struct loom_domtree *d, const struct loom_loops *l, size_t loop) LOOM_HIDDEN;
/* the loop's header (the block whose immediate dominator lies outside it),
 * its one predecessor outside and its one latch; false when it has others */
bool loom_loop_shape(const struct loom_domtree *d, const struct loom_loops *l, size_t loop,
                     LLVMBasicBlockRef *header, LLVMBasicBlockRef *pre,
                     LLVMBasicBlockRef *latch) LOOM_HIDDEN;
void loom_loops_free(struct loom_loops *l) LOOM_HIDDEN;

#endif
