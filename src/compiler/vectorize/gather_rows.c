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
 * each R[Y] with Y (32 bits, sign-extended or `zext nneg`, or 64) written
 * as leaf * m + c: the leaf one unknown value (a scalar in every lane, or a
 * vector), m a constant factor and c a constant vector, through splats and
 * additions, shifts and products by constants, truncations and
 * extensions (decompose: both `Y + k` for an unrolled k and the table
 * loop of row_tables.c, `splat(trunc(i + 1) << 1) + <33, 165, ...>`, are
 * such). Members with one R, leaf, factor and steps between lanes whose
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
#include <string.h>

enum { MAX_FACTOR = 16, MAX_MEMBERS = 64, MAX_LANES = 16, MAX_DEPTH = 12 };

/* how a member's index Y becomes 64 bits: it is already, sext (Y + k can
 * wrap where the address would not: tested at run time), or `zext nneg`
 * (every member's Y + k is in [0, 2^31): consecutive k stay consecutive) */
enum extension { EXT_NONE, EXT_SEXT, EXT_ZEXT_NNEG };

/* an integer (scalar or vector) as leaf * mul + c, lane i's c[i], modulo
 * the index's width: leaf NULL (a constant), a scalar (the same in every
 * lane) or a vector nothing here takes apart */
struct linear {
  LLVMValueRef leaf;
  uint64_t mul;
  uint64_t c[MAX_LANES];
  bool lane0_only; /* an insertelement into poison: lanes above 0 unknown */
};

struct member {
  LLVMValueRef gather, root, y; /* R, and Y before its extension */
  struct linear lin;
  long long off;     /* bytes from R (its constant steps) */
  long long elems;   /* lane 0's constant, signed */
  unsigned idx_size; /* bytes of R's element */
  unsigned bits;     /* Y's width */
  enum extension ext;
};

static unsigned lanes_of(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static bool constant_lanes(LLVMValueRef v, unsigned n, uint64_t mask, struct linear *a) {
  if (LLVMIsAConstantInt(v)) {
    for (unsigned i = 0; i < n; i++)
      a->c[i] = LLVMConstIntGetZExtValue(v) & mask;
    return true;
  }
  if (!LLVMIsConstant(v) || LLVMIsAConstantExpr(v))
    return false;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMIsNull(v) ? NULL : LLVMGetAggregateElement(v, i);
    if (!LLVMIsNull(v) && (!e || !LLVMIsAConstantInt(e)))
      return false; /* poison or undef lanes */
    a->c[i] = e ? LLVMConstIntGetZExtValue(e) & mask : 0;
  }
  return true;
}

/* the constant amount of a shift or product: the same in every lane that
 * counts (lane 0 alone for a lane0_only operand) */
static bool amount(LLVMValueRef v, unsigned n, bool lane0_only, uint64_t *k) {
  struct linear a;
  if (!constant_lanes(v, lanes_of(LLVMTypeOf(v)), ~0ull, &a))
    return false;
  for (unsigned i = 1; i < n && !lane0_only; i++)
    if (a.c[i] != a.c[0])
      return false;
  *k = a.c[0];
  return true;
}

static bool decompose(LLVMValueRef v, unsigned bits, uint64_t mask, struct linear *a, int depth);

/* v as a leaf of its own */
static void leaf(LLVMValueRef v, struct linear *a) {
  memset(a, 0, sizeof *a);
  a->leaf = v;
  a->mul = 1;
}

/* v decomposed, or a leaf where it cannot be */
static void linear_of(LLVMValueRef v, unsigned bits, uint64_t mask, struct linear *a, int depth) {
  if (!decompose(v, bits, mask, a, depth))
    leaf(v, a);
}

/* Takes apart constants, splats (insertelement into poison, then a
 * shufflevector of lane 0), add, sub, `or disjoint`, shl and mul by
 * constants, and truncations and extensions from at least `bits` bits:
 * each commutes with reduction modulo 2^bits. Two leaves do not combine. */
static bool decompose(LLVMValueRef v, unsigned bits, uint64_t mask, struct linear *a, int depth) {
  unsigned n = lanes_of(LLVMTypeOf(v));
  if (n > MAX_LANES || LLVMGetTypeKind(LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind
                                           ? LLVMGetElementType(LLVMTypeOf(v))
                                           : LLVMTypeOf(v)) != LLVMIntegerTypeKind)
    return false;
  memset(a, 0, sizeof *a);
  if (constant_lanes(v, n, mask, a))
    return true;
  if (depth >= MAX_DEPTH || !LLVMIsAInstruction(v))
    return false;
  if (LLVMIsATruncInst(v) || LLVMIsAZExtInst(v) || LLVMIsASExtInst(v)) {
    LLVMValueRef x = LLVMGetOperand(v, 0);
    LLVMTypeRef xt = LLVMTypeOf(x);
    if (LLVMGetTypeKind(xt) == LLVMVectorTypeKind)
      xt = LLVMGetElementType(xt);
    if (LLVMGetIntTypeWidth(xt) < bits)
      return false; /* an extension that changes the low bits' meaning */
    linear_of(x, bits, mask, a, depth + 1);
    return true;
  }
  if (LLVMIsAInsertElementInst(v)) {
    LLVMValueRef into = LLVMGetOperand(v, 0), at = LLVMGetOperand(v, 2);
    if (!(LLVMIsPoison(into) || LLVMIsUndef(into)) || !LLVMIsAConstantInt(at) ||
        LLVMConstIntGetZExtValue(at) != 0)
      return false;
    linear_of(LLVMGetOperand(v, 1), bits, mask, a, depth + 1);
    a->lane0_only = true;
    return true;
  }
  if (LLVMIsAShuffleVectorInst(v)) {
    unsigned m = LLVMGetNumMaskElements(v);
    for (unsigned i = 0; i < m; i++) {
      int e = LLVMGetMaskValue(v, i);
      if (e != 0 && e != LLVMGetUndefMaskElem())
        return false;
    }
    linear_of(LLVMGetOperand(v, 0), bits, mask, a, depth + 1);
    if (a->leaf && LLVMGetTypeKind(LLVMTypeOf(a->leaf)) == LLVMVectorTypeKind)
      return false; /* lane 0 of an unknown vector */
    for (unsigned i = 1; i < n; i++)
      a->c[i] = a->c[0];
    a->lane0_only = false;
    return true;
  }
  if (!LLVMIsABinaryOperator(v))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  uint64_t k;
  switch (op) {
  case LLVMShl:
  case LLVMMul:
    linear_of(LLVMGetOperand(v, 0), bits, mask, a, depth + 1);
    if (!amount(LLVMGetOperand(v, 1), n, a->lane0_only, &k) || (op == LLVMShl && k >= bits))
      return false;
    if (op == LLVMShl)
      k = 1ull << k;
    a->mul = (a->mul * k) & mask;
    for (unsigned i = 0; i < n; i++)
      a->c[i] = (a->c[i] * k) & mask;
    return true;
  case LLVMOr:
    if (!LLVMGetIsDisjoint(v))
      return false;
    /* fall through */
  case LLVMAdd:
  case LLVMSub: {
    struct linear r;
    linear_of(LLVMGetOperand(v, 0), bits, mask, a, depth + 1);
    linear_of(LLVMGetOperand(v, 1), bits, mask, &r, depth + 1);
    uint64_t rmul = op == LLVMSub ? (0 - r.mul) & mask : r.mul;
    if (a->leaf && r.leaf && a->leaf != r.leaf)
      return false;
    if (!a->leaf)
      a->leaf = r.leaf, a->mul = rmul;
    else if (r.leaf)
      a->mul = (a->mul + rmul) & mask;
    for (unsigned i = 0; i < n; i++)
      a->c[i] = (op == LLVMSub ? a->c[i] - r.c[i] : a->c[i] + r.c[i]) & mask;
    a->lane0_only |= r.lane0_only;
    return true;
  }
  default:
    return false;
  }
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
      LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMVectorTypeKind || LLVMGetVectorSize(LLVMTypeOf(idx)) > MAX_LANES)
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
  m->ext = EXT_NONE;
  if (LLVMIsASExtInst(idx))
    m->ext = EXT_SEXT;
  else if (LLVMIsAZExtInst(idx) && LLVMGetNNeg(idx))
    m->ext = EXT_ZEXT_NNEG;
  m->y = m->ext == EXT_NONE ? idx : LLVMGetOperand(idx, 0);
  m->bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(m->y)));
  if (m->bits != (m->ext == EXT_NONE ? 64u : 32u))
    return false;
  uint64_t mask = m->bits == 64 ? ~0ull : (1ull << m->bits) - 1;
  linear_of(m->y, m->bits, mask, &m->lin, 0);
  if (m->lin.lane0_only)
    return false;
  m->elems = m->bits == 64 ? (long long)m->lin.c[0] : (long long)(int32_t)(uint32_t)m->lin.c[0];
  return true;
}

/* a and b read rows of the same lanes at element offsets that differ by
 * a constant: one root, one leaf and factor, the same steps across lanes */
static bool same_rows(const struct member *a, const struct member *b) {
  if (a->root != b->root || a->lin.leaf != b->lin.leaf || a->lin.mul != b->lin.mul || a->ext != b->ext ||
      a->idx_size != b->idx_size || LLVMTypeOf(a->gather) != LLVMTypeOf(b->gather))
    return false;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(a->gather));
  uint64_t mask = a->bits == 64 ? ~0ull : (1ull << a->bits) - 1;
  for (unsigned i = 1; i < n; i++)
    if (((a->lin.c[i] - a->lin.c[0]) & mask) != ((b->lin.c[i] - b->lin.c[0]) & mask))
      return false;
  return true;
}

/* lane i's index minus lane 0's, in c[i]; false if the leaf's lanes are
 * not known apart */
static bool lane_steps(const struct member *m, unsigned n, uint64_t *c) {
  uint64_t lc[64] = {0};
  unsigned tz;
  LLVMValueRef l = m->lin.leaf;
  if (l && LLVMGetTypeKind(LLVMTypeOf(l)) == LLVMVectorTypeKind && !loom_lane_affine(l, lc, &tz))
    return false;
  for (unsigned i = 0; i < n; i++)
    c[i] = m->lin.mul * (lc[i] - lc[0]) + (m->lin.c[i] - m->lin.c[0]);
  return true;
}

/* lane 0 of m's Y, built at the end of the block b is in: the leaf's lane
 * 0 (a scalar leaf itself, narrowed) times the factor plus the constant */
static LLVMValueRef lane0_index(LLVMBuilderRef b, const struct member *m) {
  LLVMBasicBlockRef at = LLVMGetInsertBlock(b);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(m->y));
  LLVMTypeRef it = LLVMIntTypeInContext(c, m->bits);
  LLVMValueRef l = m->lin.leaf, v = LLVMConstInt(it, 0, 0);
  if (l) {
    if (LLVMGetTypeKind(LLVMTypeOf(l)) == LLVMVectorTypeKind) {
      LLVMValueRef s = loom_lane0_affine(b, l);
      LLVMPositionBuilderAtEnd(b, at);
      l = s ? s : LLVMBuildExtractElement(b, l, LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0), "index0");
    }
    /* decompose passes only extensions from at least bits */
    assert(LLVMGetIntTypeWidth(LLVMTypeOf(l)) >= m->bits);
    if (LLVMGetIntTypeWidth(LLVMTypeOf(l)) > m->bits)
      l = LLVMBuildTrunc(b, l, it, "");
    v = LLVMBuildMul(b, l, LLVMConstInt(it, m->lin.mul, 0), "");
  }
  return m->lin.c[0] ? LLVMBuildAdd(b, v, LLVMConstInt(it, m->lin.c[0], 0), "index0") : v;
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
  struct member fresh, *m0 = &fresh;
  bool still = as_member(g[0], m0);
  assert(still);
  (void)still;

  /* lane 0's index and the address of its row */
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef y0 = lane0_index(bld, m0);
  LLVMValueRef whole = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
  if (m0->ext == EXT_SEXT) {
    whole = LLVMBuildICmp(bld, LLVMIntSLE, y0,
                          LLVMConstInt(i32, 0x7fffffffu - ((uint64_t)(n - 1) * d + (uint64_t)kmax), 0),
                          "rows_whole");
    y0 = LLVMBuildSExt(bld, y0, i64, "");
  } else if (m0->ext == EXT_ZEXT_NNEG) {
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
    long long base = m[a].off + m[a].elems * (long long)m[a].idx_size;
    /* a family starts at the member with no other one just before it */
    LLVMValueRef g[MAX_FACTOR] = {0};
    long long kmax = 0; /* the largest element past m[a]'s */
    bool earlier = false, neg = false;
    for (unsigned b = 0; b < nm; b++) {
      if (!same_rows(&m[a], &m[b]))
        continue;
      long long at = m[b].off + m[b].elems * (long long)m[b].idx_size - base;
      earlier |= at < 0 && at % e == 0 && at / e >= -1;
      if (at < 0 || at % e || at / e >= MAX_FACTOR || g[at / e])
        continue;
      g[at / e] = m[b].gather;
      long long rel = m[b].elems - m[a].elems;
      kmax = rel > kmax ? rel : kmax;
      neg |= rel < 0; /* a member of the rows through R's steps instead: Y - k may wrap */
    }
    unsigned f = 1;
    while (f < MAX_FACTOR && g[f])
      f++;
    while (f & (f - 1)) /* the largest power of two of consecutive members */
      f &= f - 1;
    uint64_t c[MAX_LANES];
    if (earlier || neg || f < 4 || f < n || !lane_steps(&m[a], n, c))
      continue;
    uint64_t mask = m[a].bits == 64 ? ~0ull : (1ull << m[a].bits) - 1;
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
