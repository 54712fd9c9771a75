/* Jammed copies of a chain, issued side by side.
 *
 * LLVM's unroll-and-jam lays the copies of the inner loop body one after
 * the other: copy 0's whole chain of dependent operations, then copy 1's.
 * The vectoriser keeps that order and so does the code generator, and an
 * out-of-order core only overlaps what fits in its schedulers: clpeak's half
 * kernel, its <64 x half> chain split into four registers of floats and each
 * operation a float FMA between two conversions (about 20 cycles a step),
 * reached 61 GFLOP/s with four jammed copies in a row where its half4
 * kernel, whose scalarised elements come interleaved, reached 120 with the
 * same number of chains.
 *
 * So, in the loops unroll-and-jam produced, the body of an innermost loop
 * that is one block is reordered by depth: each instruction after every
 * operand it has in the block (depth one more than the deepest), stably,
 * so the copies' steps alternate: step 1 of every copy, then step 2, ...
 * Instructions that may touch memory keep their order among themselves
 * (each one deeper than the one before); phis stay first, the terminator
 * last. Values are defined before their uses in the same order the copies
 * had, so the block computes exactly what it did. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>

/* a call that neither reads nor writes memory: an element-wise intrinsic */
static bool pure_call(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
    return false;
  size_t len;
  return loom_widenable_intrinsic(LLVMGetValueName2(callee, &len));
}

static bool touches_memory(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMLoad: case LLVMStore: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence:
  case LLVMVAArg:
    return true;
  case LLVMCall:
    return !pure_call(in);
  default:
    return false;
  }
}

struct ranked {
  LLVMValueRef in;
  unsigned depth;
  size_t at; /* original position: keeps the sort stable */
};

static int by_depth(const void *a, const void *b) {
  const struct ranked *x = a, *y = b;
  if (x->depth != y->depth)
    return x->depth < y->depth ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* true when the block was reordered (it had anything to reorder) */
bool loom_interleave_chains(LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (!term)
    return false;
  size_t n = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != term; in = LLVMGetNextInstruction(in))
    n += !LLVMIsAPHINode(in);
  if (n < 2)
    return false;
  struct ranked *r = malloc(n * sizeof *r);
  if (!r)
    return false;
  struct loom_ptrmap at = {0}; /* instruction -> index in r */
  size_t k = 0;
  unsigned memory_depth = 0;
  bool moved = false;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != term; in = LLVMGetNextInstruction(in)) {
    if (LLVMIsAPHINode(in))
      continue;
    unsigned depth = 0;
    int nops = LLVMGetNumOperands(in);
    for (int o = 0; o < nops; o++) {
      size_t j;
      if (loom_ptrmap_get(&at, LLVMGetOperand(in, o), &j) && r[j].depth + 1 > depth)
        depth = r[j].depth + 1;
    }
    if (touches_memory(in)) {
      if (memory_depth + 1 > depth)
        depth = memory_depth + 1;
      memory_depth = depth;
    }
    loom_ptrmap_put(&at, in, k);
    r[k] = (struct ranked){in, depth, k};
    k++;
  }
  assert(k == n);
  qsort(r, n, sizeof *r, by_depth);
  for (size_t i = 0; i < n; i++)
    moved |= r[i].at != i;
  if (moved) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(term)));
    LLVMPositionBuilderBefore(b, term);
    for (size_t i = 0; i < n; i++) {
      LLVMInstructionRemoveFromParent(r[i].in);
      size_t len;
      LLVMInsertIntoBuilderWithName(b, r[i].in, LLVMGetValueName2(r[i].in, &len));
    }
    LLVMDisposeBuilder(b);
  }
  loom_ptrmap_free(&at);
  free(r);
  return moved;
}

/* every innermost loop of f that is one block: a block that branches to itself */
unsigned loom_interleave_jammed_chains(LLVMValueRef f) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (!term || LLVMGetInstructionOpcode(term) != LLVMBr)
      continue;
    bool self = false;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++)
      self |= LLVMGetSuccessor(term, s) == bb;
    if (self)
      n += loom_interleave_chains(bb);
  }
  return n;
}
