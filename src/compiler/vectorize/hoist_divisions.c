/* Integer divisions whose operands do not change in their loop leave the
 * loop, before LLVM's loop vectoriser sees them.
 *
 * Why: LLVM 19's loop vectoriser mis-compiles a division that is
 * loop-invariant (to scalar evolution) but sits in a conditional block. It
 * predicates the division lane by lane, then takes the address built from it
 * as uniform and reads lane 0's copy, which is poison when lane 0 does not
 * take the branch: `if (x & 1) v = la[n % lsz];` across work-items read from
 * a garbage address and faulted (loom-fuzz seeds 1000126, 1001392, 1001512;
 * tests/fuzz/bugs/). Computed once before the loop, the division is uniform
 * and unconditional, and the vectoriser has nothing to predicate.
 *
 * Moving a division out of a condition executes it where the program may not
 * have, so its divisor is frozen and guarded again (target/x86/safe_division.c:
 * 1 where it would trap); whatever value a skipped branch's operands hold,
 * nothing traps. A division moves with the chain of pure instructions that
 * computes its operands inside the loop; loads, calls and PHIs in the loop
 * keep it there.
 *
 * The uniform values a work-group function reloads after a barrier are loads
 * from per-region copies until SROA turns them into values defined before the
 * work-item loop, so SROA and early CSE run first (only in modules with a
 * division by a variable). */
#include "analysis/loops.h"
#include "target/x86/x86.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>

enum { MAX_CHAIN = 64 };

static bool module_has_variable_division(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (loom_is_int_division(i) && !loom_division_cannot_trap(i))
          return true;
  return false;
}

/* an instruction without side effects or undefined behaviour, whatever its
 * operands: it may run where the program would not have run it */
static bool pure(LLVMValueRef i) {
  if (LLVMIsABinaryOperator(i))
    return !loom_is_int_division(i);
  if (LLVMIsACastInst(i) || LLVMIsACmpInst(i) || LLVMIsASelectInst(i) ||
      LLVMIsAGetElementPtrInst(i) || LLVMIsAExtractElementInst(i) ||
      LLVMIsAInsertElementInst(i) || LLVMIsAShuffleVectorInst(i))
    return true;
  if (LLVMGetInstructionOpcode(i) == LLVMFreeze)
    return true;
  if (LLVMIsACallInst(i)) { /* min, max, fma, sqrt, ...: no side effects, no trap */
    LLVMValueRef callee = LLVMGetCalledValue(i);
    size_t len;
    return callee && LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) &&
           loom_widenable_intrinsic(LLVMGetValueName2(callee, &len));
  }
  return false;
}

struct hoist {
  const struct loom_domtree *d;
  const struct loom_loops *loops;
  size_t loop;            /* the division's innermost loop */
  LLVMBasicBlockRef to;   /* the deepest block defining an operand outside the loop */
  LLVMValueRef chain[MAX_CHAIN];
  size_t n;
};

/* v can be computed before the loop: records the instructions inside the
 * loop to move (operands first) and the deepest definition outside it */
static bool collect(struct hoist *h, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return true; /* a constant, argument or global */
  size_t b;
  if (!loom_ptrmap_get(&h->d->index, LLVMGetInstructionParent(v), &b))
    return false;
  if (!loom_loop_contains(h->loops, h->loop, b)) {
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    if (loom_dominates(h->d, h->to, bb))
      h->to = bb;
    return true;
  }
  for (size_t k = 0; k < h->n; k++)
    if (h->chain[k] == v)
      return true;
  if (!pure(v) || h->n == MAX_CHAIN)
    return false;
  int ops = LLVMGetNumOperands(v);
  if (LLVMIsACallInst(v))
    ops--; /* the callee */
  for (int k = 0; k < ops; k++)
    if (!collect(h, LLVMGetOperand(v, (unsigned)k)))
      return false;
  if (h->n == MAX_CHAIN)
    return false;
  h->chain[h->n++] = v;
  return true;
}

static bool hoist_division(LLVMBuilderRef b, const struct loom_domtree *d,
                           const struct loom_loops *loops, LLVMValueRef div) {
  size_t blk;
  if (!loom_ptrmap_get(&d->index, LLVMGetInstructionParent(div), &blk))
    return false;
  struct hoist h = {.d = d, .loops = loops, .loop = loom_innermost_loop(loops, blk)};
  if (h.loop == SIZE_MAX)
    return false;
  h.to = d->blocks[d->n - 1]; /* the entry */
  if (!collect(&h, LLVMGetOperand(div, 0)) || !collect(&h, LLVMGetOperand(div, 1)))
    return false;
  /* every operand's definition dominates the division, so they lie on one
   * dominator chain and the deepest one, outside the loop, dominates the
   * loop's header */
  assert(loom_dominates(d, h.to, LLVMGetInstructionParent(div)));
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(h.to));
  for (size_t k = 0; k < h.n; k++)
    loom_move_instruction(b, h.chain[k]);
  loom_move_instruction(b, div);
  LLVMPositionBuilderBefore(b, div);
  LLVMOpcode op = LLVMGetInstructionOpcode(div);
  LLVMValueRef n = LLVMGetOperand(div, 0);
  if (op == LLVMSDiv || op == LLVMSRem) { /* INT_MIN / -1 depends on n too */
    n = LLVMBuildFreeze(b, n, "");
    LLVMSetOperand(div, 0, n);
  }
  LLVMValueRef dv = LLVMBuildFreeze(b, LLVMGetOperand(div, 1), "");
  LLVMSetOperand(div, 1, loom_safe_divisor(b, op, n, dv));
  return true;
}

static unsigned hoist_in_function(LLVMBuilderRef b, LLVMValueRef f) {
  size_t cap = 0, n = 0;
  LLVMValueRef *divs = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!loom_is_int_division(i) || loom_division_cannot_trap(i))
        continue;
      if (n == cap) {
        size_t nc = cap ? 2 * cap : 16;
        LLVMValueRef *g = realloc(divs, nc * sizeof *g);
        if (!g)
          break;
        divs = g;
        cap = nc;
      }
      divs[n++] = i;
    }
  unsigned moved = 0;
  if (n) {
    struct loom_domtree d;
    struct loom_loops loops;
    loom_domtree_build(&d, f);
    if (loom_loops_find(&loops, &d)) {
      /* in block order: a division computing another's operand moves first */
      for (size_t k = 0; k < n; k++)
        moved += hoist_division(b, &d, &loops, divs[k]);
      loom_loops_free(&loops);
    }
    loom_domtree_free(&d);
  }
  free(divs);
  return moved;
}

int loom_hoist_invariant_divisions(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  if (!module_has_variable_division(m))
    return 0;
  if (loom_run_passes(m, "function(sroa,early-cse)", tm))
    return -1;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      hoist_in_function(b, f);
  LLVMDisposeBuilder(b);
  return 0;
}
