/* Families whose members are addressed by their own 32-bit indices.
 *
 * combine-gathers and its siblings find a family as one vector of pointers
 * P and its members at P + k E. The loop vectoriser writes that form when
 * the work-item's scalar code did; where each member's address has its own
 * index instead, as in CLBlast's tile copies (`agm[(y + j) * ld + 2 * x + i
 * + k]` for i = 0, 1: after O3 `getelementptr float, a, sext32(u + <0, 2,
 * 4, ...>)` and `sext32(u + <1, 3, 5, ...>)`), member k's index is member
 * 0's plus k in every lane, but the two sign-extended sums are only k
 * elements apart when the 32-bit sum does not wrap. The family's run time
 * test (gather_groups.c, wrap_test) then also keeps the last member's last
 * lane below the wrap: lane 0's index at most INT_MAX - (n - 1) d - (F - 1).
 *
 * An index is compared as a sum: the leaves of its tree of `add`s and
 * disjoint `or`s (any other value but a constant) and the constant vector of the
 * rest, per lane, modulo 2^32. */
#include "vectorize/vectorize.h"
#include <stdlib.h>

enum { MAX_LEAVES = 8, MAX_LANES = 64 };

struct index_sum {
  LLVMValueRef b;
  LLVMTypeRef elem;
  bool zext;
  LLVMValueRef leaf[MAX_LEAVES];
  unsigned nleaves;
  uint64_t c[MAX_LANES];
  unsigned n;
};

/* adds the lanes of constant integer vector v to s->c */
static bool add_constant(LLVMValueRef v, struct index_sum *s) {
  for (unsigned i = 0; i < s->n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(v, i);
    if (!e || !LLVMIsAConstantInt(e))
      return false;
    s->c[i] += LLVMConstIntGetZExtValue(e);
  }
  return true;
}

static bool add_terms(LLVMValueRef v, struct index_sum *s, int depth) {
  if (LLVMIsAConstant(v))
    return add_constant(v, s);
  /* an `or` of operands without common bits is their sum */
  LLVMOpcode op = LLVMIsABinaryOperator(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
  if (depth < 6 && (op == LLVMAdd || (op == LLVMOr && LLVMGetIsDisjoint(v))))
    return add_terms(LLVMGetOperand(v, 0), s, depth + 1) && add_terms(LLVMGetOperand(v, 1), s, depth + 1);
  if (s->nleaves == MAX_LEAVES)
    return false;
  s->leaf[s->nleaves++] = v;
  return true;
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const LLVMValueRef *)a, y = (uintptr_t) * (const LLVMValueRef *)b;
  return x < y ? -1 : x > y;
}

/* p = getelementptr T, b, ext32(X) with b one pointer (or the same in
 * every lane), X a vector of i32: X as a sum */
static bool index_sum(LLVMValueRef p, struct index_sum *s) {
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
    return false;
  LLVMValueRef b = LLVMGetOperand(p, 0), idx = LLVMGetOperand(p, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMVectorTypeKind ||
      (!LLVMIsASExtInst(idx) && !LLVMIsAZExtInst(idx)) ||
      (LLVMGetTypeKind(LLVMTypeOf(b)) == LLVMVectorTypeKind && !loom_lane_uniform(b)))
    return false;
  LLVMValueRef x = LLVMGetOperand(idx, 0);
  LLVMTypeRef xt = LLVMTypeOf(x);
  if (LLVMGetIntTypeWidth(LLVMGetElementType(xt)) != 32 || LLVMGetVectorSize(xt) > MAX_LANES)
    return false;
  s->b = b;
  s->elem = LLVMGetGEPSourceElementType(p);
  s->zext = LLVMIsAZExtInst(idx) != NULL;
  s->nleaves = 0;
  s->n = LLVMGetVectorSize(xt);
  for (unsigned i = 0; i < s->n; i++)
    s->c[i] = 0;
  if (!add_terms(x, s, 0))
    return false;
  qsort(s->leaf, s->nleaves, sizeof *s->leaf, by_address);
  return true;
}

bool loom_family_index_delta(LLVMValueRef p, LLVMValueRef q, long long *k) {
  struct index_sum *a = malloc(2 * sizeof *a), *b = a ? a + 1 : NULL;
  bool ok = a && index_sum(p, a) && index_sum(q, b) && a->b == b->b && a->elem == b->elem &&
            a->zext == b->zext && a->n == b->n && a->nleaves == b->nleaves;
  for (unsigned i = 0; ok && i < a->nleaves; i++)
    ok = a->leaf[i] == b->leaf[i];
  uint64_t d = ok ? (b->c[0] - a->c[0]) & 0xffffffffu : 0;
  for (unsigned i = 1; ok && i < a->n; i++)
    ok = ((b->c[i] - a->c[i]) & 0xffffffffu) == d;
  if (ok)
    *k = (long long)(int32_t)(uint32_t)d;
  free(a);
  return ok;
}
