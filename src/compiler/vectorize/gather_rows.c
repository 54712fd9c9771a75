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
 * unmasked gathers (F at least the lanes n) through one scalar pointer R,
 * each R[Y] with Y (32 bits, sign-extended or `zext nneg`, or 64) taken
 * apart as terms leaf * factor plus constant lanes (linear_index.c: both
 * `Y + k` for an unrolled k and row_tables.c's table loop,
 * `splat(trunc(i + u) << 1) + <33, 165, ...>`, are such). Members with one
 * R, the same terms and the same steps between lanes whose
 * lane 0 constants are F consecutive elements are a family, when nothing
 * between the first and the last may write memory and the lanes step by a
 * constant d: lane i's elements k0 .. k0 + F - 1 are then one row of F * E
 * bytes at R + (Y0 + i d + k0) E. At the first gather, the rows' n * F
 * elements are read as F vectors of n (a row is F / n of them) and the
 * family's columns separated by gather_groups.c's even/odd shuffles. With
 * a sign-extended 32-bit index, Y + k could wrap where the address does
 * not: a run time test that lane 0's index is at most INT_MAX - ((n - 1) d
 * + kmax) keeps the gathers for that case; `zext nneg` promises no member
 * wraps. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>

enum { MAX_FACTOR = 16, MAX_MEMBERS = 64, MAX_LANES = LOOM_LINEAR_LANES };

struct member {
  LLVMValueRef gather;
  struct loom_row_access at;
};

static bool as_member(LLVMValueRef in, struct member *m) {
  if (!loom_is_call_to_prefix(in, "llvm.masked.gather.") || !loom_all_ones_mask(LLVMGetOperand(in, 2)) ||
      loom_family_is_apart(in, false) || !loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(in))))
    return false;
  m->gather = in;
  return loom_row_access_of(LLVMGetOperand(in, 0), -1, &m->at);
}

/* a and b read rows of the same lanes at element offsets that differ by
 * a constant */
static bool same_rows(const struct member *a, const struct member *b) {
  return LLVMTypeOf(a->gather) == LLVMTypeOf(b->gather) &&
         loom_row_access_same_rows(&a->at, &b->at, LLVMGetVectorSize(LLVMTypeOf(a->gather)));
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
 * earliest member, d the lanes' step of Y, kmax the largest element past
 * g[0]'s. */
static void rewrite(LLVMValueRef *g, unsigned f, LLVMValueRef first, uint64_t d, long long kmax) {
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
  /* g[0] taken apart again: the split renewed the block's phis (its leaf
   * or R may be one), the gathers stayed */
  struct member fresh;
  bool still = as_member(g[0], &fresh);
  assert(still);
  (void)still;
  const struct loom_row_access *m0 = &fresh.at;

  /* lane 0's index and the address of its row */
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef y0 = loom_linear_lane0(bld, &m0->lin, m0->bits);
  LLVMValueRef whole = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
  if (m0->ext == LOOM_EXT_SEXT) {
    whole = LLVMBuildICmp(bld, LLVMIntSLE, y0,
                          LLVMConstInt(i32, 0x7fffffffu - ((uint64_t)(n - 1) * d + (uint64_t)kmax), 0),
                          "rows_whole");
    y0 = LLVMBuildSExt(bld, y0, i64, "");
  } else if (m0->ext == LOOM_EXT_ZEXT_NNEG) {
    y0 = LLVMBuildZExt(bld, y0, i64, "");
  }
  LLVMValueRef at = LLVMBuildMul(bld, y0, LLVMConstInt(i64, m0->idx_size, 0), "");
  if (m0->off)
    at = LLVMBuildAdd(bld, at, LLVMConstInt(i64, (unsigned long long)m0->off, 1), "");
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
    long long base = m[a].at.off + m[a].at.elems * (long long)m[a].at.idx_size;
    /* a family starts at the member with no other one just before it */
    LLVMValueRef g[MAX_FACTOR] = {0};
    long long kmax = 0; /* the largest element past m[a]'s */
    bool earlier = false, neg = false;
    for (unsigned b = 0; b < nm; b++) {
      if (!same_rows(&m[a], &m[b]))
        continue;
      long long at = m[b].at.off + m[b].at.elems * (long long)m[b].at.idx_size - base;
      earlier |= at < 0 && at % e == 0 && at / e >= -1;
      if (at < 0 || at % e || at / e >= MAX_FACTOR || g[at / e])
        continue;
      g[at / e] = m[b].gather;
      long long rel = m[b].at.elems - m[a].at.elems;
      kmax = rel > kmax ? rel : kmax;
      neg |= rel < 0; /* a member of the rows through R's steps instead: Y - k may wrap */
    }
    unsigned f = 1;
    while (f < MAX_FACTOR && g[f])
      f++;
    while (f & (f - 1)) /* the largest power of two of consecutive members */
      f &= f - 1;
    uint64_t c[MAX_LANES];
    if (earlier || neg || f < 4 || f < n || !loom_linear_lane_steps(&m[a].at.lin, n, c))
      continue;
    uint64_t mask = m[a].at.bits == 64 ? ~0ull : (1ull << m[a].at.bits) - 1;
    uint64_t d = c[1] & mask;
    bool affine = d > 0 && d < (1u << 20);
    for (unsigned i = 2; i < n && affine; i++)
      affine = (c[i] & mask) == i * d;
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
    rewrite(g, f, first, d, kmax);
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
