/* An integer index as a sum of terms leaf * factor plus a constant per lane.
 *
 * gather-rows and scatter-rows group the memory accesses of a block whose
 * indices differ by constants: `t[lid * 34 + k]` for k = 0 .. 7, the table
 * loop of row_tables.c (`splat(trunc(i + u) << 1) + <0, 132, ...>`), the
 * stores of CLBlast's XgemmDirect (`(idm + mi) * ldc + idn + ni`, with
 * `idm` a vector of lanes times a run time ldc). Each index is taken apart,
 * modulo its width, as t1 * m1 + ... + tj * mj + c: the leaves t values
 * nothing here splits (a scalar, the same in every lane, or a vector), the
 * factors m constants, c a constant vector. Constants, splats (insertelement
 * into poison, a shuffle of lane 0), add, sub, `or disjoint`, shl and mul by
 * constants, truncations, and extensions from at least the index's width
 * each commute with reduction modulo 2^width, so two indices with the same
 * terms differ exactly by their constants. A select on a scalar condition
 * (a transposition flag) is followed to the side the caller assumes; the
 * condition is kept for the caller's run time test. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <string.h>

enum { MAX_DEPTH = 12 };

static unsigned lanes_of(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static bool constant_lanes(LLVMValueRef v, unsigned n, uint64_t mask, uint64_t *c) {
  if (LLVMIsAConstantInt(v)) {
    for (unsigned i = 0; i < n; i++)
      c[i] = LLVMConstIntGetZExtValue(v) & mask;
    return true;
  }
  if (!LLVMIsConstant(v) || LLVMIsAConstantExpr(v))
    return false;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMIsNull(v) ? NULL : LLVMGetAggregateElement(v, i);
    if (!LLVMIsNull(v) && (!e || !LLVMIsAConstantInt(e)))
      return false; /* poison or undef lanes */
    c[i] = e ? LLVMConstIntGetZExtValue(e) & mask : 0;
  }
  return true;
}

/* the constant amount of a shift or product: the same in every lane that
 * counts (lane 0 alone for a lane0_only operand) */
static bool amount(LLVMValueRef v, unsigned n, bool lane0_only, uint64_t *k) {
  uint64_t c[LOOM_LINEAR_LANES];
  if (lanes_of(LLVMTypeOf(v)) > LOOM_LINEAR_LANES || !constant_lanes(v, lanes_of(LLVMTypeOf(v)), ~0ull, c))
    return false;
  for (unsigned i = 1; i < n && !lane0_only; i++)
    if (c[i] != c[0])
      return false;
  *k = c[0];
  return true;
}

static void as_leaf(LLVMValueRef v, struct loom_linear *a) {
  memset(a, 0, sizeof *a);
  a->t[0].leaf = v;
  a->t[0].mul = 1;
  a->nt = 1;
}

static bool decompose(LLVMValueRef v, unsigned bits, uint64_t mask, int side, struct loom_linear *a,
                      int depth);

/* v decomposed, or a leaf where it cannot be */
static void linear_of(LLVMValueRef v, unsigned bits, uint64_t mask, int side, struct loom_linear *a,
                      int depth) {
  if (!decompose(v, bits, mask, side, a, depth))
    as_leaf(v, a);
}

/* a += r * sign: false if the terms or the conditions do not fit */
static bool add_into(struct loom_linear *a, const struct loom_linear *r, bool subtract, unsigned n,
                     uint64_t mask) {
  if (a->cond && r->cond && (a->cond != r->cond || a->side != r->side))
    return false;
  struct loom_linear s = *a;
  for (unsigned j = 0; j < r->nt; j++) {
    uint64_t m = subtract ? (0 - r->t[j].mul) & mask : r->t[j].mul;
    unsigned k = 0;
    while (k < s.nt && s.t[k].leaf != r->t[j].leaf)
      k++;
    if (k == s.nt) {
      if (s.nt == LOOM_LINEAR_TERMS)
        return false;
      s.t[s.nt].leaf = r->t[j].leaf;
      s.t[s.nt++].mul = 0;
    }
    s.t[k].mul = (s.t[k].mul + m) & mask;
  }
  /* terms that cancelled go */
  unsigned w = 0;
  for (unsigned k = 0; k < s.nt; k++)
    if (s.t[k].mul)
      s.t[w++] = s.t[k];
  s.nt = w;
  for (unsigned i = 0; i < n; i++)
    s.c[i] = (subtract ? s.c[i] - r->c[i] : s.c[i] + r->c[i]) & mask;
  s.lane0_only |= r->lane0_only;
  if (!s.cond)
    s.cond = r->cond, s.side = r->side;
  *a = s;
  return true;
}

static bool decompose(LLVMValueRef v, unsigned bits, uint64_t mask, int side, struct loom_linear *a,
                      int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned n = lanes_of(t);
  if (n > LOOM_LINEAR_LANES ||
      LLVMGetTypeKind(n > 1 || LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t) !=
          LLVMIntegerTypeKind)
    return false;
  memset(a, 0, sizeof *a);
  if (constant_lanes(v, n, mask, a->c))
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
    linear_of(x, bits, mask, side, a, depth + 1);
    return true;
  }
  if (LLVMIsAInsertElementInst(v)) {
    LLVMValueRef into = LLVMGetOperand(v, 0), at = LLVMGetOperand(v, 2);
    if (!(LLVMIsPoison(into) || LLVMIsUndef(into)) || !LLVMIsAConstantInt(at) ||
        LLVMConstIntGetZExtValue(at) != 0)
      return false;
    linear_of(LLVMGetOperand(v, 1), bits, mask, side, a, depth + 1);
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
    linear_of(LLVMGetOperand(v, 0), bits, mask, side, a, depth + 1);
    for (unsigned k = 0; k < a->nt; k++)
      if (LLVMGetTypeKind(LLVMTypeOf(a->t[k].leaf)) == LLVMVectorTypeKind)
        return false; /* lane 0 of an unknown vector */
    for (unsigned i = 1; i < n; i++)
      a->c[i] = a->c[0];
    a->lane0_only = false;
    return true;
  }
  if (LLVMIsASelectInst(v)) {
    LLVMValueRef cond = LLVMGetOperand(v, 0);
    if (side < 0 || LLVMGetTypeKind(LLVMTypeOf(cond)) == LLVMVectorTypeKind)
      return false;
    linear_of(LLVMGetOperand(v, side ? 1 : 2), bits, mask, side, a, depth + 1);
    if (a->cond && a->cond != cond)
      return false; /* one condition an index */
    a->cond = cond;
    a->side = side;
    return true;
  }
  if (!LLVMIsABinaryOperator(v))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  uint64_t k;
  switch (op) {
  case LLVMShl:
  case LLVMMul:
    linear_of(LLVMGetOperand(v, 0), bits, mask, side, a, depth + 1);
    if (!amount(LLVMGetOperand(v, 1), n, a->lane0_only, &k) || (op == LLVMShl && k >= bits))
      return false;
    if (op == LLVMShl)
      k = 1ull << k;
    unsigned w = 0;
    for (unsigned j = 0; j < a->nt; j++) { /* a term whose factor wraps to 0 is gone */
      a->t[w] = a->t[j];
      a->t[w].mul = (a->t[j].mul * k) & mask;
      w += a->t[w].mul != 0;
    }
    a->nt = w;
    for (unsigned i = 0; i < n; i++)
      a->c[i] = (a->c[i] * k) & mask;
    return true;
  case LLVMOr:
    if (!LLVMGetIsDisjoint(v))
      return false;
    /* fall through */
  case LLVMAdd:
  case LLVMSub: {
    struct loom_linear r;
    linear_of(LLVMGetOperand(v, 0), bits, mask, side, a, depth + 1);
    linear_of(LLVMGetOperand(v, 1), bits, mask, side, &r, depth + 1);
    return add_into(a, &r, op == LLVMSub, n, mask);
  }
  default:
    return false;
  }
}

void loom_linear_of(LLVMValueRef v, unsigned bits, int side, struct loom_linear *a) {
  assert(bits >= 1 && bits <= 64);
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  linear_of(v, bits, mask, side, a, 0);
}

bool loom_linear_same_terms(const struct loom_linear *a, const struct loom_linear *b) {
  if (a->nt != b->nt || a->cond != b->cond || (a->cond && a->side != b->side))
    return false;
  for (unsigned j = 0; j < a->nt; j++) {
    unsigned k = 0;
    while (k < b->nt && (b->t[k].leaf != a->t[j].leaf || b->t[k].mul != a->t[j].mul))
      k++;
    if (k == b->nt)
      return false;
  }
  return true;
}

bool loom_linear_lane_steps(const struct loom_linear *a, unsigned n, uint64_t *steps) {
  assert(n <= LOOM_LINEAR_LANES);
  for (unsigned i = 0; i < n; i++)
    steps[i] = a->c[i] - a->c[0];
  for (unsigned j = 0; j < a->nt; j++) {
    LLVMValueRef l = a->t[j].leaf;
    if (LLVMGetTypeKind(LLVMTypeOf(l)) != LLVMVectorTypeKind)
      continue; /* the same in every lane */
    uint64_t lc[64];
    unsigned tz;
    if (LLVMGetVectorSize(LLVMTypeOf(l)) != n || !loom_lane_affine(l, lc, &tz))
      return false;
    for (unsigned i = 0; i < n; i++)
      steps[i] += a->t[j].mul * (lc[i] - lc[0]);
  }
  return true;
}

LLVMValueRef loom_linear_lane0(LLVMBuilderRef b, const struct loom_linear *a, unsigned bits) {
  LLVMBasicBlockRef at = LLVMGetInsertBlock(b);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(at)));
  LLVMTypeRef it = LLVMIntTypeInContext(c, bits);
  LLVMValueRef sum = NULL;
  for (unsigned j = 0; j < a->nt; j++) {
    LLVMValueRef l = a->t[j].leaf;
    if (LLVMGetTypeKind(LLVMTypeOf(l)) == LLVMVectorTypeKind) {
      LLVMValueRef s = loom_lane0_affine(b, l);
      LLVMPositionBuilderAtEnd(b, at);
      l = s ? s : LLVMBuildExtractElement(b, l, LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0), "index0");
    }
    /* decompose passes only extensions from at least bits */
    assert(LLVMGetIntTypeWidth(LLVMTypeOf(l)) >= bits);
    if (LLVMGetIntTypeWidth(LLVMTypeOf(l)) > bits)
      l = LLVMBuildTrunc(b, l, it, "");
    if (a->t[j].mul != 1)
      l = LLVMBuildMul(b, l, LLVMConstInt(it, a->t[j].mul, 0), "");
    sum = sum ? LLVMBuildAdd(b, sum, l, "") : l;
  }
  LLVMValueRef k = LLVMConstInt(it, a->c[0], 0);
  if (!sum)
    return k;
  return a->c[0] ? LLVMBuildAdd(b, sum, k, "index0") : sum;
}

bool loom_row_access_of(LLVMValueRef p, int side, struct loom_row_access *x) {
  memset(x, 0, sizeof *x);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
    return false;
  LLVMValueRef root = LLVMGetOperand(p, 0), idx = LLVMGetOperand(p, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(root)) == LLVMVectorTypeKind ||
      LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMVectorTypeKind ||
      LLVMGetVectorSize(LLVMTypeOf(idx)) > LOOM_LINEAR_LANES)
    return false;
  x->idx_size = loom_family_element_bytes(LLVMGetGEPSourceElementType(p));
  if (!x->idx_size)
    return false;
  /* constant steps of R itself: getelementptr T, R0, C */
  while (LLVMIsAGetElementPtrInst(root) && LLVMGetNumOperands(root) == 2 &&
         LLVMIsAConstantInt(LLVMGetOperand(root, 1))) {
    unsigned s = loom_family_element_bytes(LLVMGetGEPSourceElementType(root));
    if (!s)
      return false;
    x->off += LLVMConstIntGetSExtValue(LLVMGetOperand(root, 1)) * (long long)s;
    root = LLVMGetOperand(root, 0);
  }
  x->root = root;
  x->ext = LOOM_EXT_NONE;
  if (LLVMIsASExtInst(idx))
    x->ext = LOOM_EXT_SEXT;
  else if (LLVMIsAZExtInst(idx) && LLVMGetNNeg(idx))
    x->ext = LOOM_EXT_ZEXT_NNEG;
  x->y = x->ext == LOOM_EXT_NONE ? idx : LLVMGetOperand(idx, 0);
  x->bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(x->y)));
  if (x->bits != (x->ext == LOOM_EXT_NONE ? 64u : 32u))
    return false;
  loom_linear_of(x->y, x->bits, side, &x->lin);
  if (x->lin.lane0_only)
    return false;
  x->elems = x->bits == 64 ? (long long)x->lin.c[0] : (long long)(int32_t)(uint32_t)x->lin.c[0];
  return true;
}

bool loom_row_access_same_rows(const struct loom_row_access *a, const struct loom_row_access *b,
                               unsigned n) {
  if (a->root != b->root || !loom_linear_same_terms(&a->lin, &b->lin) || a->ext != b->ext ||
      a->idx_size != b->idx_size || n > LOOM_LINEAR_LANES)
    return false;
  uint64_t mask = a->bits == 64 ? ~0ull : (1ull << a->bits) - 1;
  for (unsigned i = 1; i < n; i++)
    if (((a->lin.c[i] - a->lin.c[0]) & mask) != ((b->lin.c[i] - b->lin.c[0]) & mask))
      return false;
  return true;
}
