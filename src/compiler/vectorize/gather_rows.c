/* Gathers that walk each lane's own row become row loads and a transposition.
 *
 * A work-item reading a row of a matrix, `a[lid * ld + k]` for k = 0 .. 15
 * in an unrolled loop, has each read widened across work-items into a
 * gather whose lanes lie ld elements apart: sixteen gathers, each touching
 * one element of sixteen rows. CLBlast's XgemmDirectTN reads its transposed
 * tile of A in local memory this way (ld = 17, 8 work-items a vector): on
 * AMD Zen 5 the kernel spent most of its time in those gathers.
 *
 * After combine-gathers this pass finds, in one block, F = 4, 8 or 16
 * unmasked gathers (F at least the lanes n) through one scalar pointer R
 * and one vector index Y, each `R[sext32(Y + k)]` or `R[Y + k]` (k a
 * constant, the same element type), whose offsets k are F consecutive
 * elements, with nothing that may write memory between the first and the
 * last. Y must step by a constant d across the lanes (loom_lane_affine):
 * lane i's elements k0 .. k0 + F - 1 are then one row of F * E bytes at
 * R + (Y0 + i d + k0) E. At the first gather, the rows' n * F elements are
 * read as F vectors of n (a row is F / n of them) and the family's columns
 * separated by gather_groups.c's even/odd shuffles. With a 32-bit index,
 * Y + k could wrap where the address does not: a run time test that lane
 * 0's index is at most INT_MAX - ((n - 1) d + kmax) keeps the gathers for
 * that case. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>

enum { MAX_FACTOR = 16, MAX_MEMBERS = 64 };

struct member {
  LLVMValueRef gather, root, key;
  long long off;     /* bytes from R[Y] (a constant part of R, k * E) */
  long long elems;   /* k, added to Y before the sign extension (0 for a 64-bit Y) */
  unsigned idx_size; /* bytes of R's element */
  bool sext;
};

/* v = x + c with c a splat integer constant: x and c */
static bool peel_constant(LLVMValueRef v, LLVMValueRef *x, long long *c) {
  if (!LLVMIsABinaryOperator(v))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op != LLVMAdd && !(op == LLVMOr && LLVMGetIsDisjoint(v)))
    return false;
  uint64_t k;
  if (!loom_splat_int(LLVMGetOperand(v, 1), &k))
    return false;
  unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(v)));
  *c = bits == 32 ? (long long)(int32_t)k : (long long)k;
  *x = LLVMGetOperand(v, 0);
  return true;
}

/* A constant 64-bit index (a kernel specialised for its local size: lane i's
 * row at <0, 34, 68, ...> + k folded into one vector per gather) keys its
 * family by its steps: lane 0's element moves into the offset, so that
 * <17, 51, ...> and <0, 34, ...> through R + 17 are the same rows. */
static void normalise_constant_key(struct member *m, unsigned e) {
  LLVMValueRef k = m->key;
  if (!LLVMIsAConstantDataVector(k) && !LLVMIsAConstantVector(k))
    return;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(k));
  LLVMValueRef first = LLVMGetAggregateElement(k, 0);
  if (n > MAX_MEMBERS || !first || !LLVMIsAConstantInt(first))
    return;
  long long k0 = LLVMConstIntGetSExtValue(first);
  LLVMTypeRef it = LLVMTypeOf(first);
  LLVMValueRef steps[MAX_MEMBERS];
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef x = LLVMGetAggregateElement(k, i);
    if (!x || !LLVMIsAConstantInt(x))
      return;
    steps[i] = LLVMConstInt(it, (unsigned long long)(LLVMConstIntGetSExtValue(x) - k0), 1);
  }
  m->key = LLVMConstVector(steps, n);
  m->off += k0 * (long long)e;
}

static bool as_member(LLVMValueRef in, struct member *m) {
  if (!loom_is_call_to_prefix(in, "llvm.masked.gather.") || !loom_all_ones_mask(LLVMGetOperand(in, 2)) ||
      loom_family_is_apart(in, false))
    return false;
  LLVMValueRef p = LLVMGetOperand(in, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
    return false;
  LLVMValueRef root = LLVMGetOperand(p, 0), idx = LLVMGetOperand(p, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(root)) == LLVMVectorTypeKind ||
      LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMVectorTypeKind)
    return false;
  unsigned e = loom_family_element_bytes(LLVMGetGEPSourceElementType(p));
  if (!e || !loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(in))))
    return false;
  m->gather = in;
  m->off = 0;
  m->idx_size = e;
  /* constant steps of R itself: getelementptr T, R0, C */
  while (LLVMIsAGetElementPtrInst(root) && LLVMGetNumOperands(root) == 2 &&
         LLVMIsAConstantInt(LLVMGetOperand(root, 1))) {
    unsigned s = loom_family_element_bytes(LLVMGetGEPSourceElementType(root));
    if (!s)
      return false;
    m->off += LLVMConstIntGetSExtValue(LLVMGetOperand(root, 1)) * (long long)s;
    root = LLVMGetOperand(root, 0);
  }
  m->root = root;
  m->sext = LLVMIsASExtInst(idx) != NULL;
  LLVMValueRef y = m->sext ? LLVMGetOperand(idx, 0) : idx;
  if (m->sext && LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(y))) != 32)
    return false;
  if (!m->sext && LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(y))) != 64)
    return false;
  m->elems = 0;
  long long c;
  LLVMValueRef x;
  while (peel_constant(y, &x, &c))
    m->elems += c, y = x;
  if (!m->sext) /* a 64-bit sum does not wrap for an address: part of the offset */
    m->off += m->elems * (long long)e, m->elems = 0;
  m->key = y;
  if (!m->sext)
    normalise_constant_key(m, e);
  return true;
}

static bool is_pure(LLVMValueRef v) {
  if (LLVMIsABinaryOperator(v)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    return op != LLVMUDiv && op != LLVMSDiv && op != LLVMURem && op != LLVMSRem;
  }
  return LLVMIsACastInst(v) || LLVMIsAGetElementPtrInst(v) || LLVMIsAShuffleVectorInst(v) ||
         LLVMIsAInsertElementInst(v);
}

/* Moves v, a pure instruction of `from`, and the operands of it there, to
 * the end of `to` (which has no terminator yet); v's users all follow. */
static void hoist_pure(LLVMValueRef v, LLVMBasicBlockRef to, LLVMBasicBlockRef from, int depth) {
  if (depth > 16 || !LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != from)
    return;
  assert(is_pure(v));
  for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(v); i++)
    hoist_pure(LLVMGetOperand(v, i), to, from, depth + 1);
  LLVMInstructionRemoveFromParent(v);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
  LLVMPositionBuilderAtEnd(b, to);
  LLVMInsertIntoBuilder(b, v);
  LLVMDisposeBuilder(b);
}

/* Rewrites the family g[0..f) (g[j] reads row element j); first is its
 * earliest member, d the lanes' step of Y, kmax the largest k. */
static void rewrite(const struct member *m0, LLVMValueRef *g, unsigned f, LLVMValueRef first,
                    uint64_t d, long long kmax, long long off0) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(first));
  LLVMTypeRef vt = LLVMTypeOf(first), et = LLVMGetElementType(vt);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  struct loom_family_blocks blocks = loom_family_split(first, "rows.whole", "rows.apart");
  LLVMBasicBlockRef head = blocks.head, fast = blocks.fast, slow = blocks.slow, join = blocks.join;
  /* the slow path's gathers need their addresses, some computed between
   * the members: those move up to the head */
  for (unsigned k = 0; k < f; k++)
    hoist_pure(LLVMGetOperand(g[k], 0), head, join, 0);

  /* lane 0's index and the address of its row */
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef y0 = loom_lane0_affine(bld, m0->key);
  LLVMPositionBuilderAtEnd(bld, head);
  if (!y0)
    y0 = LLVMBuildExtractElement(bld, m0->key, LLVMConstInt(i32, 0, 0), "index0");
  LLVMValueRef whole = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
  if (m0->sext) {
    if (LLVMGetIntTypeWidth(LLVMTypeOf(y0)) != 32)
      y0 = LLVMBuildTrunc(bld, y0, i32, "");
    whole = LLVMBuildICmp(bld, LLVMIntSLE, y0,
                          LLVMConstInt(i32, 0x7fffffffu - ((uint64_t)(n - 1) * d + (uint64_t)kmax), 0),
                          "rows_whole");
    y0 = LLVMBuildSExt(bld, y0, i64, "");
  } else if (LLVMGetIntTypeWidth(LLVMTypeOf(y0)) != 64) {
    y0 = LLVMBuildSExt(bld, y0, i64, "");
  }
  LLVMValueRef at = LLVMBuildAdd(bld, LLVMBuildMul(bld, y0, LLVMConstInt(i64, m0->idx_size, 0), ""),
                                 LLVMConstInt(i64, (unsigned long long)off0, 1), "");
  LLVMValueRef row0 = LLVMBuildGEP2(bld, i8, m0->root, &at, 1, "row0");
  loom_build_test_branch(bld, whole, fast, slow);

  /* chunk j of the stream of rows: n elements of row j n / F */
  LLVMPositionBuilderAtEnd(bld, fast);
  LLVMValueRef chunks[MAX_FACTOR], cols[MAX_FACTOR];
  for (unsigned j = 0; j < f; j++) {
    unsigned long long lane = (unsigned long long)j * n / f, within = (unsigned long long)j * n % f;
    LLVMValueRef o = LLVMConstInt(i64, lane * d * m0->idx_size + within * e, 0);
    chunks[j] = LLVMBuildLoad2(bld, vt, LLVMBuildGEP2(bld, i8, row0, &o, 1, ""), "rows.chunk");
    LLVMSetAlignment(chunks[j], e);
  }
  loom_family_unzip(bld, chunks, f, n, loom_preferred_vector_bits(LLVMGetBasicBlockParent(fast)) / 8,
                    cols);
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderAtEnd(bld, slow);
  LLVMValueRef apart[MAX_FACTOR];
  for (unsigned k = 0; k < f; k++) {
    apart[k] = LLVMInstructionClone(g[k]);
    LLVMInsertIntoBuilder(bld, apart[k]);
    loom_family_mark_apart(apart[k], false);
  }
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderBefore(bld, LLVMGetFirstInstruction(join));
  LLVMValueRef phis[MAX_FACTOR];
  for (unsigned k = 0; k < f; k++) {
    phis[k] = LLVMBuildPhi(bld, vt, "row.component");
    LLVMValueRef vals[2] = {cols[k], apart[k]};
    LLVMBasicBlockRef from[2] = {fast, slow};
    LLVMAddIncoming(phis[k], vals, from, 2);
  }
  for (unsigned k = 0; k < f; k++) { /* after the phis: the first is the builder's place */
    LLVMReplaceAllUsesWith(g[k], phis[k]);
    LLVMInstructionEraseFromParent(g[k]);
  }
  for (unsigned k = 0; k < f; k++)
    loom_family_sink_into_slow(bld, LLVMGetOperand(apart[k], 0), head, slow, 0);
  LLVMDisposeBuilder(bld);
}

/* v can be computed before `first` (in its block bb): defined before it or
 * elsewhere, or pure with such operands (hoist_pure moves it) */
static bool hoistable(LLVMValueRef v, LLVMValueRef first, LLVMBasicBlockRef bb, int depth) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != bb)
    return true;
  for (LLVMValueRef i = first; i; i = LLVMGetPreviousInstruction(i))
    if (i == v)
      return v != first;
  if (depth > 16 || LLVMIsAPHINode(v) || !is_pure(v))
    return false;
  for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(v); i++)
    if (!hoistable(LLVMGetOperand(v, i), first, bb, depth + 1))
      return false;
  return true;
}

static bool rewrite_one(LLVMBasicBlockRef bb) {
  struct member m[MAX_MEMBERS];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && nm < MAX_MEMBERS; in = LLVMGetNextInstruction(in))
    if (as_member(in, &m[nm]))
      nm++;
  for (unsigned a = 0; a < nm; a++) {
    LLVMTypeRef vt = LLVMTypeOf(m[a].gather);
    unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(LLVMGetElementType(vt));
    long long base = m[a].off + m[a].elems * (long long)m[a].idx_size;
    /* a family starts at the member with no other one just before it */
    LLVMValueRef g[MAX_FACTOR] = {0};
    long long kmax = 0;
    bool earlier = false;
    for (unsigned b = 0; b < nm; b++) {
      if (m[b].root != m[a].root || m[b].key != m[a].key || m[b].sext != m[a].sext ||
          m[b].idx_size != m[a].idx_size || LLVMTypeOf(m[b].gather) != vt)
        continue;
      long long at = m[b].off + m[b].elems * (long long)m[b].idx_size - base;
      earlier |= at < 0 && at % e == 0 && at / e >= -1;
      if (at < 0 || at % e || at / e >= MAX_FACTOR || g[at / e])
        continue;
      g[at / e] = m[b].gather;
      kmax = m[b].elems > kmax ? m[b].elems : kmax;
    }
    unsigned f = 1;
    while (f < MAX_FACTOR && g[f])
      f++;
    while (f & (f - 1)) /* the largest power of two of consecutive members */
      f &= f - 1;
    if (earlier || f < 4 || f < n || n > 64)
      continue;
    bool neg = false;
    for (unsigned b = 0; b < nm; b++)
      for (unsigned k = 0; k < f; k++)
        neg |= m[b].gather == g[k] && m[b].elems < 0;
    uint64_t c[64];
    unsigned tz;
    if (neg || !loom_lane_affine(m[a].key, c, &tz))
      continue;
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(m[a].key)));
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t d = (c[1] - c[0]) & mask;
    bool affine = d > 0 && d < (1u << 20);
    for (unsigned i = 2; i < n && affine; i++)
      affine = ((c[i] - c[0]) & mask) == i * d;
    if (!affine || (uint64_t)(n - 1) * d + (uint64_t)kmax >= (1u << 30))
      continue;
    /* nothing between the family's first and last member may write memory */
    unsigned seen = 0;
    bool ok = true;
    LLVMValueRef first = NULL;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && seen < f && ok; in = LLVMGetNextInstruction(in)) {
      bool member = false;
      for (unsigned k = 0; k < f; k++)
        member |= g[k] == in;
      if (member && !seen++)
        first = in;
      else if (!member && seen && loom_family_may_write(in))
        ok = false;
    }
    for (unsigned k = 0; k < f && ok; k++)
      ok = hoistable(LLVMGetOperand(g[k], 0), first, bb, 0);
    if (!ok)
      continue;
    rewrite(&m[a], g, f, first, d, kmax, base);
    return true;
  }
  return false;
}

bool loom_combine_row_gathers(LLVMModuleRef m) {
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      changed |= rewrite_one(bb); /* the rest of bb moved to a block that comes up later */
  return changed;
}
