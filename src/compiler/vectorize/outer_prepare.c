/* A region chosen for outer-loop vectorisation, made into the shape VPlan's
 * native path accepts.
 *
 * That path takes an inner loop as uniform (the same iterations for every
 * work-item) only when its latch tests the update of a canonical counter
 * (from 0, step 1) against a value defined outside the work-item loop
 * (LLVM 19's isUniformLoop). Kernels count otherwise: CLBlast's GEMM steps
 * `kwg += KWG` and `pwi += KWI`, others count down or start at an offset.
 * Such a loop gets a canonical counter j that runs the trip count n,
 * computed before the loop from the start, bound and step, and the old
 * counter becomes start + j * step; O3 then keeps the counter and hoists n
 * out of the work-item loop. Only counters narrower than 64 bits whose
 * update cannot wrap (nsw with a signed test, nuw with an unsigned one) are
 * rewritten: the trip count formula holds exactly for them.
 *
 * Calls of llvm.experimental.noalias.scope.decl (left where a function with
 * restrict parameters was inlined) are deleted with the scope metadata that
 * refers to them: VPlan would widen the call, and without the call the
 * scopes would claim no aliasing across work-items too. */
#include "analysis/loops.h"
#include "vectorize/vectorize.h"
#include <limits.h>
#include <stdlib.h>

bool loom_is_scope_decl(LLVMValueRef in) {
  return loom_is_call_to(in, "llvm.experimental.noalias.scope.decl");
}

static void drop_alias_scopes(LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
  unsigned noalias = LLVMGetMDKindIDInContext(c, "noalias", 7);
  unsigned scope = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
      next = LLVMGetNextInstruction(in);
      if (loom_is_scope_decl(in)) {
        LLVMInstructionEraseFromParent(in);
        continue;
      }
      LLVMSetMetadata(in, noalias, NULL);
      LLVMSetMetadata(in, scope, NULL);
    }
}

struct loop_view {
  const struct loom_domtree *d;
  const struct loom_loops *l;
  size_t loop;
};

/* v is computed inside the loop (unreachable blocks count as inside) */
static bool inside(const struct loop_view *v, LLVMValueRef val) {
  if (!LLVMIsAInstruction(val))
    return false;
  size_t b;
  if (!loom_ptrmap_get(&v->d->index, LLVMGetInstructionParent(val), &b))
    return true;
  return loom_loop_contains(v->l, v->loop, b);
}

static bool block_inside(const struct loop_view *v, LLVMBasicBlockRef bb) {
  size_t b;
  return loom_ptrmap_get(&v->d->index, bb, &b) && loom_loop_contains(v->l, v->loop, b);
}

static bool is_strict(LLVMIntPredicate p) {
  return p == LLVMIntSLT || p == LLVMIntULT || p == LLVMIntSGT || p == LLVMIntUGT;
}

static bool counts_up(LLVMIntPredicate p) {
  return p == LLVMIntSLT || p == LLVMIntULT || p == LLVMIntSLE || p == LLVMIntULE;
}

/* A counted loop: header `p = phi [s, preheader], [p + step, latch]`,
 * `br (p pred e), body, exit` with s and e from outside the loop. */
struct counted {
  LLVMBasicBlockRef header, preheader, latch;
  LLVMValueRef br, cmp, phi, start, bound, next;
  LLVMIntPredicate pred; /* holds while the loop goes on */
  long long step;
  bool body_on_true;
};

static bool find_counted(const struct loop_view *v, struct counted *k) {
  const struct loom_domtree *d = v->d;
  size_t h = SIZE_MAX;
  for (size_t b = d->n; b-- > 0;) /* reverse postorder: the header comes first */
    if (loom_loop_contains(v->l, v->loop, b)) {
      h = b;
      break;
    }
  if (h == SIZE_MAX)
    return false;
  k->header = d->blocks[h];
  k->preheader = k->latch = NULL;
  for (size_t i = 0; i < d->npreds[h]; i++) {
    LLVMBasicBlockRef pb = d->blocks[d->preds[h][i]];
    LLVMBasicBlockRef *slot = block_inside(v, pb) ? &k->latch : &k->preheader;
    if (*slot)
      return false;
    *slot = pb;
  }
  if (!k->preheader || !k->latch)
    return false;
  k->br = LLVMGetBasicBlockTerminator(k->header);
  if (!k->br || !LLVMIsABranchInst(k->br) || !LLVMIsConditional(k->br))
    return false;
  bool in0 = block_inside(v, LLVMGetSuccessor(k->br, 0));
  bool in1 = block_inside(v, LLVMGetSuccessor(k->br, 1));
  if (in0 == in1)
    return false;
  k->body_on_true = in0;
  k->cmp = LLVMGetCondition(k->br);
  if (!LLVMIsAICmpInst(k->cmp) || LLVMGetInstructionParent(k->cmp) != k->header)
    return false;
  LLVMValueRef a = LLVMGetOperand(k->cmp, 0), b = LLVMGetOperand(k->cmp, 1);
  k->pred = LLVMGetICmpPredicate(k->cmp);
  if (LLVMIsAPHINode(b) && LLVMGetInstructionParent(b) == k->header && !inside(v, a)) {
    LLVMValueRef t = a;
    a = b;
    b = t;
    k->pred = loom_swapped_predicate(k->pred);
  }
  if (!LLVMIsAPHINode(a) || LLVMGetInstructionParent(a) != k->header || inside(v, b) ||
      LLVMCountIncoming(a) != 2)
    return false;
  if (!k->body_on_true)
    k->pred = loom_inverse_predicate(k->pred);
  k->phi = a;
  k->bound = b;
  k->start = k->next = NULL;
  for (unsigned i = 0; i < 2; i++) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(a, i);
    if (from == k->preheader)
      k->start = LLVMGetIncomingValue(a, i);
    else if (from == k->latch)
      k->next = LLVMGetIncomingValue(a, i);
  }
  if (!k->start || !k->next || inside(v, k->start) || !LLVMIsAInstruction(k->next) ||
      LLVMGetInstructionOpcode(k->next) != LLVMAdd)
    return false;
  LLVMValueRef x = LLVMGetOperand(k->next, 0), c = LLVMGetOperand(k->next, 1);
  if (c == a) {
    c = x;
    x = a;
  }
  /* narrower than 64 bits: the trip count below is then exact in 64 (a
   * 64-bit unsigned range can exceed 2^63, which the signed difference
   * there would take for a loop that does not run) */
  if (x != a || !LLVMIsAConstantInt(c) || LLVMGetIntTypeWidth(LLVMTypeOf(a)) >= 64)
    return false;
  k->step = LLVMConstIntGetSExtValue(c);
  if (k->step == 0 || k->step == LLONG_MIN)
    return false;
  /* the test must move toward its end, and the update must not wrap */
  bool up = counts_up(k->pred);
  if (k->pred == LLVMIntEQ || k->pred == LLVMIntNE || up != (k->step > 0))
    return false;
  if (loom_signed_predicate(k->pred) ? !LLVMGetNSW(k->next) : !(up && LLVMGetNUW(k->next)))
    return false;
  return !(LLVMIsAConstantInt(k->start) && LLVMConstIntGetZExtValue(k->start) == 0 && k->step == 1);
}

/* gives the loop a canonical counter and derives the old one from it */
static void make_canonical(LLVMBuilderRef bld, const struct counted *k) {
  LLVMTypeRef ty = LLVMTypeOf(k->phi);
  bool up = k->step > 0, sgn = loom_signed_predicate(k->pred);
  unsigned long long mag = up ? (unsigned long long)k->step : (unsigned long long)-k->step;

  /* n = max(|e - s| + |step| - strict, 0) / |step|, the difference signed
   * (it is negative when the loop does not run), in 64 bits: exact for the
   * narrower counters this takes.
   * Two equal forms are worse: `(s pred e) ? ... : 0` hides the count from
   * SCEV, which then leaves the latch testing `j + 1 < n` with its true edge
   * staying in the loop, and LLVM 19's native VPlan path swaps the edges of
   * such a latch (the inner loop ran once); and `(|e - s| - strict) / |step|
   * + 1` lets InstCombine cancel the + 1 against the latch's, which leaves a
   * test of the counter itself, not of its update: not uniform for VPlan.
   * With this n the latch becomes `j + 1 == n`, exiting on true. */
  LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(k->preheader));
  LLVMTypeRef wide = LLVMInt64TypeInContext(LLVMGetTypeContext(ty));
  LLVMValueRef s64 = k->start, e64 = k->bound;
  if (LLVMGetIntTypeWidth(ty) < 64) {
    s64 = sgn ? LLVMBuildSExt(bld, s64, wide, "") : LLVMBuildZExt(bld, s64, wide, "");
    e64 = sgn ? LLVMBuildSExt(bld, e64, wide, "") : LLVMBuildZExt(bld, e64, wide, "");
  }
  LLVMValueRef diff = up ? LLVMBuildSub(bld, e64, s64, "") : LLVMBuildSub(bld, s64, e64, "");
  unsigned long long round = is_strict(k->pred) ? mag - 1 : mag;
  diff = LLVMBuildAdd(bld, diff, LLVMConstInt(wide, round, 0), "");
  LLVMValueRef zero64 = LLVMConstInt(wide, 0, 0);
  LLVMValueRef pos = LLVMBuildICmp(bld, LLVMIntSGT, diff, zero64, "");
  diff = LLVMBuildSelect(bld, pos, diff, zero64, "");
  LLVMValueRef n = LLVMBuildUDiv(bld, diff, LLVMConstInt(wide, mag, 0), "trips");

  LLVMValueRef first = LLVMGetFirstInstruction(k->header);
  while (first && LLVMIsAPHINode(first))
    first = LLVMGetNextInstruction(first);
  LLVMPositionBuilderBefore(bld, LLVMGetFirstInstruction(k->header));
  LLVMValueRef j = LLVMBuildPhi(bld, wide, "count");
  LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(k->latch));
  LLVMValueRef jn = LLVMBuildNUWAdd(bld, j, LLVMConstInt(wide, 1, 0), "count.next");
  LLVMSetNSW(jn, 1);
  LLVMValueRef vals[2] = {LLVMConstInt(wide, 0, 0), jn};
  LLVMBasicBlockRef from[2] = {k->preheader, k->latch};
  LLVMAddIncoming(j, vals, from, 2);

  LLVMPositionBuilderBefore(bld, first);
  LLVMValueRef stepv = LLVMConstInt(ty, (unsigned long long)k->step, 1);
  LLVMValueRef jt = LLVMBuildTrunc(bld, j, ty, "");
  LLVMValueRef p = sgn ? LLVMBuildNSWAdd(bld, k->start, LLVMBuildNSWMul(bld, jt, stepv, ""), "")
                       : LLVMBuildNUWAdd(bld, k->start, LLVMBuildNUWMul(bld, jt, stepv, ""), "");
  /* leaving on true, as the latch LLVM derives from it will */
  LLVMValueRef done = LLVMBuildICmp(bld, LLVMIntUGE, j, n, "done");
  LLVMReplaceAllUsesWith(k->phi, p);
  LLVMInstructionEraseFromParent(k->phi);
  if (k->body_on_true) {
    LLVMBasicBlockRef body = LLVMGetSuccessor(k->br, 0);
    LLVMSetSuccessor(k->br, 0, LLVMGetSuccessor(k->br, 1));
    LLVMSetSuccessor(k->br, 1, body);
  }
  LLVMSetCondition(k->br, done);
  if (!LLVMGetFirstUse(k->cmp))
    LLVMInstructionEraseFromParent(k->cmp);
}

static void canonicalize_loops(LLVMValueRef f) {
  /* a rewrite changes instructions, never the CFG: one analysis serves
   * every loop */
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(f)));
  struct loom_domtree d;
  struct loom_loops l;
  loom_domtree_build(&d, f);
  if (loom_loops_find(&l, &d)) {
    for (size_t i = 0; i < l.n; i++) {
      struct loop_view v = {&d, &l, i};
      struct counted k;
      if (find_counted(&v, &k))
        make_canonical(bld, &k);
    }
    loom_loops_free(&l);
  }
  loom_domtree_free(&d);
  LLVMDisposeBuilder(bld);
}

void loom_prepare_outer_region(LLVMValueRef region) {
  drop_alias_scopes(region);
  canonicalize_loops(region);
}
