/* Run-time tests taken out of loops (pass hoist-tests).
 *
 * combine-gathers, gather-rows, combine-scatters and the tile copies
 * (copy_groups.c) put a run-time test before each access they rewrite: lane
 * 0's 32-bit index far enough from wrapping, two rows of local memory
 * apart; LLVM's loop vectoriser guards its vector loops by a test that no
 * lane's 32-bit index wraps. In a work-item y loop's body such a test runs
 * for every row, and the path it guards against (the gathers and scatters
 * as they were, the scalar loop) stays in the loop, its vectors of lane
 * offsets holding registers across it. CLBlast's XgemmDirectTN copies four
 * 64-byte rows a row of work-items behind about 60 instructions of tests;
 * without the tests and the other paths its SGEMM 512 ran 17-22% faster
 * (AMD Zen 5, one and two cores).
 *
 * The tests are affine in the loop's trip t (0 <= t <= T - 1): a value is
 * a + b t in its width, a and b the same on every trip (add, sub, mul by
 * such a value, shl, disjoint or, trunc, lane moves of affine values, and
 * addresses through GEPs, wrapping as they do). The sign (zero) extension
 * of a 32-bit a + b t is sext(a) + sext(b) t in 64 bits when that line is
 * in the 32-bit range at t = 0 and t = T - 1, for a line between two points
 * in a range stays in it; and a compare of such a value with one the same
 * every trip holds on every trip when it holds at both ends (lane by lane
 * for vectors). So one test before the loop, from the ends of the leaves
 * of each test (an `and` of compares) and those range conditions, implies
 * every trip's test. The loop is copied: the preheader branches on that
 * test to the loop without the tests (their slow paths deleted) or to the
 * copy that still tests each trip. The hoisted test is itself marked, so an
 * enclosing loop may take it out again. Tests decided when they were built
 * (constants: a specialised kernel's) lose their slow path wherever they
 * are. Only marked branches are looked at (loom_build_test_branch, and
 * mark_vector_checks for LLVM's); a test with anything else in it (a load,
 * a phi other than the loop's counter) stays where it is. */
#include "analysis/loops.h"
#include "support/llvm_util.h"
#include "vectorize/jam_rows.h"
#include "vectorize/vectorize.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAX_DEPTH = 48,        /* operands followed from a test's leaves */
  MAX_LOOP_INSNS = 3000, /* larger loops are not copied */
  MAX_ROUNDS = 16,       /* loops copied per function */
};

static unsigned test_kind(LLVMContextRef c) {
  return LLVMGetMDKindIDInContext(c, "loom.test", 9);
}

/* !loom.test !{} on a test whose true side is the fast one, !{!"false"}
 * where its false side is */
static void mark(LLVMValueRef br, bool fast_on_false) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(br));
  LLVMMetadataRef ops[1] = {LLVMMDStringInContext2(c, "false", 5)};
  LLVMSetMetadata(br, test_kind(c), LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, ops, fast_on_false)));
}

LLVMValueRef loom_build_test_branch(LLVMBuilderRef bld, LLVMValueRef test, LLVMBasicBlockRef fast,
                                    LLVMBasicBlockRef slow) {
  LLVMValueRef br = LLVMBuildCondBr(bld, test, fast, slow);
  mark(br, false);
  return br;
}

static bool is_test_branch(LLVMValueRef in) {
  return LLVMIsABranchInst(in) && LLVMIsConditional(in) &&
         LLVMGetMetadata(in, test_kind(LLVMGetTypeContext(LLVMTypeOf(in)))) != NULL;
}

/* the successor a marked test takes when it holds: 0 (true) or 1 */
static unsigned fast_index(LLVMValueRef br) {
  LLVMValueRef md = LLVMGetMetadata(br, test_kind(LLVMGetTypeContext(LLVMTypeOf(br))));
  return md && LLVMGetMDNodeNumOperands(md) ? 1 : 0;
}

static void unmark(LLVMValueRef br) {
  LLVMSetMetadata(br, test_kind(LLVMGetTypeContext(LLVMTypeOf(br))), NULL);
}

/* ---- affine values ---- */

struct lin {
  LLVMValueRef a, b; /* value(t) = a + b t, wrapping in the value's width */
};

struct hoist {
  const struct loom_domtree *d;
  const struct loom_loops *l;
  size_t loop;
  LLVMBuilderRef bld;  /* before the preheader's branch */
  LLVMValueRef iv;     /* the counter: start + step t */
  struct lin iv_lin;
  LLVMValueRef last;   /* T - 1, i64 */
  LLVMValueRef pre;    /* what the forms found so far assume (NULL: nothing) */
  struct loom_ptrmap memo; /* value -> 1 + index into lins */
  struct lin *lins;
  size_t nlins, cap;
  int depth;
};

static bool in_loop(const struct hoist *h, LLVMValueRef v) {
  size_t b;
  return LLVMIsAInstruction(v) && loom_ptrmap_get(&h->d->index, LLVMGetInstructionParent(v), &b) &&
         loom_loop_contains(h->l, h->loop, b);
}

/* integers and vectors of them, the same way */
static bool int_like(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64;
}

static unsigned int_width(LLVMTypeRef t) {
  return LLVMGetIntTypeWidth(LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t);
}

/* t with its (element) integers w bits wide */
static LLVMTypeRef with_width(LLVMTypeRef t, unsigned w) {
  LLVMTypeRef e = LLVMIntTypeInContext(LLVMGetTypeContext(t), w);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(e, LLVMGetVectorSize(t)) : e;
}

/* the constant v of type t (in every lane of a vector) */
static LLVMValueRef const_of(LLVMTypeRef t, long long v) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return LLVMConstInt(t, (unsigned long long)v, 1);
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef lane = LLVMConstInt(LLVMGetElementType(t), (unsigned long long)v, 1), lanes[64];
  for (unsigned k = 0; k < n && k < 64; k++)
    lanes[k] = lane;
  return LLVMConstVector(lanes, n);
}

/* scalar x in every lane of type t (x itself when t is scalar) */
static LLVMValueRef splat_as(LLVMBuilderRef bld, LLVMTypeRef t, LLVMValueRef x) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return x;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(t));
  LLVMValueRef one = LLVMBuildInsertElement(bld, LLVMGetPoison(t), x, LLVMConstInt(i32, 0, 0), "");
  return LLVMBuildShuffleVector(bld, one, LLVMGetPoison(t),
                                LLVMConstNull(LLVMVectorType(i32, LLVMGetVectorSize(t))), "");
}

static bool is_zero(LLVMValueRef v) {
  return LLVMIsConstant(v) && LLVMIsNull(v);
}

static bool is_true(LLVMValueRef v) {
  return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 1;
}

/* x and y, folded where one is a constant */
static LLVMValueRef and1(LLVMBuilderRef bld, LLVMValueRef x, LLVMValueRef y) {
  if (!x || is_true(x))
    return y;
  if (!y || is_true(y))
    return x;
  return LLVMBuildAnd(bld, x, y, "");
}

/* an i1 or a vector of them: every lane true */
static LLVMValueRef all_lanes(LLVMBuilderRef bld, LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return c;
  LLVMTypeRef in = LLVMIntTypeInContext(LLVMGetTypeContext(t), LLVMGetVectorSize(t));
  return LLVMBuildICmp(bld, LLVMIntEQ, LLVMBuildBitCast(bld, c, in, ""), LLVMConstAllOnes(in), "");
}

static void assume(struct hoist *h, LLVMValueRef cond) {
  h->pre = and1(h->bld, h->pre, all_lanes(h->bld, cond));
}

/* x as v + k, k a scalar constant (v = x, k = 0 when it is not an add of one) */
static LLVMValueRef split_const(LLVMValueRef x, long long *k) {
  *k = 0;
  if (LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMIntegerTypeKind && LLVMIsAInstruction(x) &&
      LLVMGetInstructionOpcode(x) == LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(x, 1))) {
    *k = LLVMConstIntGetSExtValue(LLVMGetOperand(x, 1));
    return LLVMGetOperand(x, 0);
  }
  return x;
}

/* folding the common constants, and sums of one value and constants (two
 * addresses in one local array): IRBuilder folds only constant operands */
static LLVMValueRef add(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  if (is_zero(x) || is_zero(y))
    return is_zero(x) ? y : x;
  long long k;
  LLVMValueRef v = split_const(x, &k);
  if (k && LLVMIsAConstantInt(y) && LLVMGetTypeKind(LLVMTypeOf(y)) == LLVMIntegerTypeKind)
    return add(b, v, LLVMConstInt(LLVMTypeOf(y), (unsigned long long)(k + LLVMConstIntGetSExtValue(y)), 1));
  return LLVMBuildAdd(b, x, y, "");
}

static LLVMValueRef sub(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  if (is_zero(y))
    return x;
  long long kx, ky;
  LLVMValueRef vx = split_const(x, &kx), vy = split_const(y, &ky);
  if (vx == vy && LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMIntegerTypeKind)
    return LLVMConstInt(LLVMTypeOf(x), (unsigned long long)(kx - ky), 1);
  return LLVMBuildSub(b, x, y, "");
}

static LLVMValueRef mul(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  if (is_zero(x) || is_zero(y))
    return LLVMConstNull(LLVMTypeOf(x));
  return LLVMBuildMul(b, x, y, "");
}

/* the end of a line at t = T - 1, in 64 bits: a + b (T - 1) */
static LLVMValueRef line_end(struct hoist *h, LLVMValueRef a64, LLVMValueRef b64) {
  return add(h->bld, a64, mul(h->bld, b64, splat_as(h->bld, LLVMTypeOf(b64), h->last)));
}

/* a w-bit a + b t (w <= 32) as the 64-bit line its sign (zero) extension
 * is, assuming that line stays in w bits' range at both ends */
static struct lin widen(struct hoist *h, struct lin x, bool sign) {
  LLVMTypeRef t64 = with_width(LLVMTypeOf(x.a), 64);
  unsigned w = int_width(LLVMTypeOf(x.a));
  struct lin r = {sign ? LLVMBuildSExt(h->bld, x.a, t64, "") : LLVMBuildZExt(h->bld, x.a, t64, ""),
                  LLVMBuildSExt(h->bld, x.b, t64, "")};
  if (is_zero(r.b)) /* the same on every trip */
    return r;
  /* the line's start, an extended w-bit value, is in range */
  LLVMValueRef e = line_end(h, r.a, r.b);
  long long lo = sign ? -(1ll << (w - 1)) : 0, hi = sign ? (1ll << (w - 1)) - 1 : (long long)((1ull << w) - 1);
  assume(h, LLVMBuildICmp(h->bld, LLVMIntSGE, e, const_of(t64, lo), ""));
  assume(h, LLVMBuildICmp(h->bld, LLVMIntSLE, e, const_of(t64, hi), ""));
  return r;
}

static bool lin_of(struct hoist *h, LLVMValueRef v, struct lin *out);

/* a pointer's (a vector of pointers') address as a 64-bit line: through
 * GEPs of one index (out of the loop too, so that two addresses in one
 * array differ by a constant), a scalar base or index in every lane of a
 * vector GEP, and a lane taken out of a vector of pointers */
static bool lin_address(struct hoist *h, LLVMValueRef p, struct lin *out) {
  LLVMTypeRef pt = LLVMTypeOf(p), i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(pt));
  LLVMTypeRef it = LLVMGetTypeKind(pt) == LLVMVectorTypeKind ? LLVMVectorType(i64, LLVMGetVectorSize(pt)) : i64;
  if (LLVMIsAExtractElementInst(p) && in_loop(h, p)) {
    struct lin x;
    LLVMValueRef lane = LLVMGetOperand(p, 1);
    if (in_loop(h, lane) || !lin_of(h, LLVMGetOperand(p, 0), &x))
      return false;
    *out = (struct lin){LLVMBuildExtractElement(h->bld, x.a, lane, ""),
                        LLVMBuildExtractElement(h->bld, x.b, lane, "")};
    return true;
  }
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 ||
      !LLVMTypeIsSized(LLVMGetGEPSourceElementType(p))) {
    if (in_loop(h, p))
      return false;
    *out = (struct lin){LLVMBuildPtrToInt(h->bld, p, it, ""), LLVMConstNull(it)};
    return true;
  }
  LLVMValueRef idx = LLVMGetOperand(p, 1);
  unsigned w = int_width(LLVMTypeOf(idx));
  struct lin base, i;
  if (w > 64 || (w < 64 && w > 32) || !lin_of(h, LLVMGetOperand(p, 0), &base) || !lin_of(h, idx, &i)) {
    return false;
  }
  if (w < 64) /* a GEP sign-extends its index */
    i = widen(h, i, true);
  if (it != LLVMTypeOf(base.a))
    base = (struct lin){splat_as(h->bld, it, base.a), splat_as(h->bld, it, base.b)};
  if (it != LLVMTypeOf(i.a))
    i = (struct lin){splat_as(h->bld, it, i.a), splat_as(h->bld, it, i.b)};
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(p))));
  LLVMValueRef size = const_of(it, (long long)LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(p)));
  out->a = add(h->bld, base.a, mul(h->bld, i.a, size));
  out->b = add(h->bld, base.b, mul(h->bld, i.b, size));
  return true;
}

/* a shuffle's constant mask as a value, for the same shuffle of a's and b's */
static LLVMValueRef mask_of(LLVMValueRef sh) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(sh));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  unsigned n = LLVMGetNumMaskElements(sh);
  LLVMValueRef *m = malloc(n * sizeof *m);
  if (!m)
    return NULL;
  for (unsigned k = 0; k < n; k++) {
    int e = LLVMGetMaskValue(sh, k);
    m[k] = e < 0 ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)e, 0);
  }
  LLVMValueRef r = LLVMConstVector(m, n);
  free(m);
  return r;
}

/* a constant integer, or a vector of one value in every lane: *k */
static bool same_every_lane(LLVMValueRef v, long long *k) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) {
    uint64_t u;
    if (!loom_splat_int(v, &u))
      return false;
    *k = (long long)u;
    return true;
  }
  return loom_rows_const_int(v, k);
}

static bool lin_compute(struct hoist *h, LLVMValueRef v, struct lin *out) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  if (LLVMGetTypeKind(et) == LLVMPointerTypeKind)
    return lin_address(h, v, out);
  if (!int_like(t))
    return false;
  if (!in_loop(h, v)) {
    *out = (struct lin){v, LLVMConstNull(t)};
    return true;
  }
  if (v == h->iv) {
    *out = h->iv_lin;
    return true;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  struct lin x, y;
  LLVMBuilderRef b = h->bld;
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMOr:
    if (op == LLVMOr && !LLVMGetIsDisjoint(v)) /* a disjoint or is a sum */
      return false;
    if (!lin_of(h, LLVMGetOperand(v, 0), &x) || !lin_of(h, LLVMGetOperand(v, 1), &y))
      return false;
    if (op == LLVMSub)
      *out = (struct lin){sub(b, x.a, y.a), sub(b, x.b, y.b)};
    else
      *out = (struct lin){add(b, x.a, y.a), add(b, x.b, y.b)};
    return true;
  case LLVMMul:
  case LLVMShl:
    if (!lin_of(h, LLVMGetOperand(v, 0), &x) || !lin_of(h, LLVMGetOperand(v, 1), &y))
      return false;
    if (op == LLVMMul && !is_zero(y.b)) { /* the factor the same every trip second */
      struct lin s = x;
      x = y, y = s;
    }
    if (!is_zero(y.b))
      return false;
    if (op == LLVMShl) /* poison past the width, whatever t */
      *out = (struct lin){LLVMBuildShl(b, x.a, y.a, ""),
                          is_zero(x.b) ? x.b : LLVMBuildShl(b, x.b, y.a, "")};
    else
      *out = (struct lin){mul(b, x.a, y.a), mul(b, x.b, y.a)};
    return true;
  case LLVMTrunc:
    if (!lin_of(h, LLVMGetOperand(v, 0), &x))
      return false;
    *out = (struct lin){LLVMBuildTrunc(b, x.a, t, ""), LLVMBuildTrunc(b, x.b, t, "")};
    return true;
  case LLVMSExt:
  case LLVMZExt:
    if (int_width(LLVMTypeOf(LLVMGetOperand(v, 0))) > 32 || int_width(t) != 64 ||
        !lin_of(h, LLVMGetOperand(v, 0), &x))
      return false;
    *out = widen(h, x, op == LLVMSExt);
    return true;
  case LLVMPtrToInt:
    if (int_width(t) != 64)
      return false;
    return lin_of(h, LLVMGetOperand(v, 0), out);
  /* lanes move: a's and b's the same way */
  case LLVMExtractElement:
    if (in_loop(h, LLVMGetOperand(v, 1)) || !lin_of(h, LLVMGetOperand(v, 0), &x))
      return false;
    *out = (struct lin){LLVMBuildExtractElement(b, x.a, LLVMGetOperand(v, 1), ""),
                        LLVMBuildExtractElement(b, x.b, LLVMGetOperand(v, 1), "")};
    return true;
  case LLVMInsertElement:
    if (in_loop(h, LLVMGetOperand(v, 2)) || !lin_of(h, LLVMGetOperand(v, 0), &x) ||
        !lin_of(h, LLVMGetOperand(v, 1), &y))
      return false;
    *out = (struct lin){LLVMBuildInsertElement(b, x.a, y.a, LLVMGetOperand(v, 2), ""),
                        LLVMBuildInsertElement(b, x.b, y.b, LLVMGetOperand(v, 2), "")};
    return true;
  case LLVMShuffleVector: {
    LLVMValueRef m = mask_of(v);
    if (!m || !lin_of(h, LLVMGetOperand(v, 0), &x) || !lin_of(h, LLVMGetOperand(v, 1), &y))
      return false;
    *out = (struct lin){LLVMBuildShuffleVector(b, x.a, y.a, m, ""), LLVMBuildShuffleVector(b, x.b, y.b, m, "")};
    return true;
  }
  case LLVMPHI: {
    /* an induction beside the counter (the loop vectoriser's vector of lane
     * indices): from outside the loop its start, from inside itself plus a
     * value the same on every trip */
    if (LLVMGetInstructionParent(v) != LLVMGetInstructionParent(h->iv) || LLVMCountIncoming(v) != 2)
      return false;
    LLVMValueRef start = NULL, step = NULL;
    for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef in = LLVMGetIncomingValue(v, k);
      if (!in_loop(h, in)) {
        start = in;
        continue;
      }
      if (LLVMGetInstructionOpcode(in) != LLVMAdd)
        return false;
      unsigned other = LLVMGetOperand(in, 0) == v ? 1 : 0;
      if (LLVMGetOperand(in, 1 - other) != v || in_loop(h, LLVMGetOperand(in, other)))
        return false;
      step = LLVMGetOperand(in, other);
    }
    if (!start || !step)
      return false;
    *out = (struct lin){start, step};
    return true;
  }
  case LLVMAShr: {
    /* (x << 32) >> (32 - k): InstCombine's form of sext(trunc32(x)) << k, a
     * 32-bit index scaled to a 64-bit offset */
    LLVMValueRef shl = LLVMGetOperand(v, 0);
    long long s1, s2;
    if (int_width(t) != 64 || !LLVMIsAInstruction(shl) || LLVMGetInstructionOpcode(shl) != LLVMShl ||
        !same_every_lane(LLVMGetOperand(shl, 1), &s1) || s1 != 32 ||
        !same_every_lane(LLVMGetOperand(v, 1), &s2) || s2 < 0 || s2 > 32 ||
        !lin_of(h, LLVMGetOperand(shl, 0), &x))
      return false;
    LLVMTypeRef t32 = with_width(t, 32);
    struct lin w = widen(h, (struct lin){LLVMBuildTrunc(b, x.a, t32, ""), LLVMBuildTrunc(b, x.b, t32, "")},
                         true);
    if (s2 < 32)
      w = (struct lin){LLVMBuildShl(b, w.a, const_of(t, 32 - s2), ""),
                       is_zero(w.b) ? w.b : LLVMBuildShl(b, w.b, const_of(t, 32 - s2), "")};
    *out = w;
    return true;
  }
  default:
    return false;
  }
}

static bool lin_of(struct hoist *h, LLVMValueRef v, struct lin *out) {
  size_t k;
  if (loom_ptrmap_get(&h->memo, v, &k)) {
    if (!k)
      return false;
    *out = h->lins[k - 1];
    return true;
  }
  if (++h->depth > MAX_DEPTH) {
    h->depth--;
    return false;
  }
  bool ok = lin_compute(h, v, out);
  h->depth--;
  if (ok && h->nlins == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 32;
    struct lin *n = realloc(h->lins, cap * sizeof *n);
    if (!n)
      return false;
    h->lins = n, h->cap = cap;
  }
  if (ok)
    h->lins[h->nlins++] = *out;
  loom_ptrmap_put(&h->memo, v, ok ? h->nlins : 0);
  return ok;
}

/* an i1 before the loop implying `x p y` (in every lane) on every trip, or NULL */
static LLVMValueRef sufficient_cmp(struct hoist *h, LLVMIntPredicate p, LLVMValueRef xv, LLVMValueRef yv) {
  struct lin x, y;
  if (!int_like(LLVMTypeOf(xv)) || !lin_of(h, xv, &x) || !lin_of(h, yv, &y))
    return NULL;
  if (is_zero(x.b) && is_zero(y.b)) /* the same every trip */
    return all_lanes(h->bld, LLVMBuildICmp(h->bld, p, x.a, y.a, ""));
  /* a line against a value the same every trip: true at both ends, true
   * between them (in 64 bits, where the line does not wrap) */
  if ((!is_zero(x.b) && !is_zero(y.b)) || p == LLVMIntEQ || p == LLVMIntNE || int_width(LLVMTypeOf(x.a)) > 32)
    return NULL;
  if (!is_zero(y.b)) { /* the line on the left */
    struct lin t = x;
    x = y, y = t;
    p = loom_swapped_predicate(p);
  }
  bool sign = loom_signed_predicate(p);
  struct lin x64 = widen(h, x, sign), y64 = widen(h, y, sign);
  LLVMValueRef first = LLVMBuildICmp(h->bld, p, x64.a, y64.a, "");
  LLVMValueRef last = LLVMBuildICmp(h->bld, p, line_end(h, x64.a, x64.b), y64.a, "");
  return all_lanes(h->bld, LLVMBuildAnd(h->bld, first, last, ""));
}

/* an i1 before the loop that implies test c (every lane of c) on every
 * trip, or NULL */
static LLVMValueRef sufficient(struct hoist *h, LLVMValueRef c) {
  if (!in_loop(h, c))
    return all_lanes(h->bld, c);
  if (++h->depth > MAX_DEPTH) {
    h->depth--;
    return NULL;
  }
  LLVMValueRef r = NULL;
  if (LLVMIsABinaryOperator(c) && LLVMGetInstructionOpcode(c) == LLVMAnd) {
    LLVMValueRef x = sufficient(h, LLVMGetOperand(c, 0));
    LLVMValueRef y = x ? sufficient(h, LLVMGetOperand(c, 1)) : NULL;
    r = x && y ? and1(h->bld, x, y) : NULL;
  } else if (LLVMIsAICmpInst(c)) {
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    LLVMValueRef x = LLVMGetOperand(c, 0), y = LLVMGetOperand(c, 1);
    LLVMValueRef lanes = LLVMIsABitCastInst(x) ? LLVMGetOperand(x, 0) : NULL;
    /* a vector compare's lanes as bits: none set (LLVM's wrap tests), all set */
    if (lanes && LLVMIsAICmpInst(lanes) && LLVMGetTypeKind(LLVMTypeOf(lanes)) == LLVMVectorTypeKind &&
        p == LLVMIntEQ && LLVMIsAConstantInt(y) && (is_zero(y) || LLVMIsNull(LLVMConstNot(y))))
      r = sufficient_cmp(h, is_zero(y) ? loom_inverse_predicate(LLVMGetICmpPredicate(lanes)) : LLVMGetICmpPredicate(lanes),
                         LLVMGetOperand(lanes, 0), LLVMGetOperand(lanes, 1));
    else
      r = sufficient_cmp(h, p, x, y);
  }
  h->depth--;
  return r;
}

/* ---- the loop's counter ---- */

/* iv = start + step t on trip t < T, T from the latch's exit test; false
 * for other shapes */
static bool find_counter(struct hoist *h, LLVMBasicBlockRef header, LLVMBasicBlockRef pre,
                         LLVMBasicBlockRef latch) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(latch);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return false;
  LLVMValueRef cmp = LLVMGetCondition(br);
  bool stay_on_true = LLVMGetSuccessor(br, 0) == header;
  if (!LLVMIsAICmpInst(cmp) || (LLVMGetSuccessor(br, stay_on_true ? 1 : 0) == header))
    return false;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
  /* stays while next != end (or next < end) */
  bool ok = stay_on_true ? (p == LLVMIntNE || p == LLVMIntULT || p == LLVMIntSLT) : p == LLVMIntEQ;
  LLVMValueRef next = LLVMGetOperand(cmp, 0), end = LLVMGetOperand(cmp, 1);
  if (!ok || in_loop(h, end) || !LLVMIsABinaryOperator(next) || LLVMGetInstructionOpcode(next) != LLVMAdd)
    return false;
  LLVMValueRef iv = LLVMGetOperand(next, 0), step = LLVMGetOperand(next, 1);
  if (!LLVMIsAPHINode(iv) || LLVMGetInstructionParent(iv) != header || LLVMCountIncoming(iv) != 2 ||
      !LLVMIsAConstantInt(step) || LLVMConstIntGetSExtValue(step) <= 0 ||
      LLVMGetTypeKind(LLVMTypeOf(iv)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(iv)) > 64)
    return false;
  LLVMValueRef start = NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(iv, k);
    LLVMValueRef val = LLVMGetIncomingValue(iv, k);
    if (from == pre)
      start = val;
    else if (from != latch || val != next)
      return false;
  }
  if (!start)
    return false;
  LLVMBuilderRef b = h->bld;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(iv)));
  /* end above start (as the exit test compares; an equality as unsigned) */
  h->pre = and1(b, h->pre, LLVMBuildICmp(b, p == LLVMIntSLT ? LLVMIntSGT : LLVMIntUGT, end, start, ""));
  LLVMValueRef span = LLVMBuildSub(b, end, start, ""); /* positive, so its zero extension */
  if (LLVMGetIntTypeWidth(LLVMTypeOf(iv)) < 64)
    span = LLVMBuildZExt(b, span, i64, "");
  LLVMValueRef s64 = LLVMConstInt(i64, (unsigned long long)LLVMConstIntGetSExtValue(step), 0);
  if (!stay_on_true || p == LLVMIntNE) { /* next reaches end exactly */
    h->pre = and1(b, h->pre, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildURem(b, span, s64, ""),
                                           LLVMConstInt(i64, 0, 0), ""));
  } else { /* next < end: the last next does not wrap past the top */
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(iv));
    unsigned long long top = (w == 64 ? ~0ull : (1ull << w) - 1) >> (p == LLVMIntSLT);
    h->pre = and1(b, h->pre, LLVMBuildICmp(b, p == LLVMIntSLT ? LLVMIntSLE : LLVMIntULE, end,
                                           LLVMConstInt(LLVMTypeOf(iv), top - (unsigned long long)LLVMConstIntGetSExtValue(step) + 1, 0), ""));
  }
  /* the last trip t = ceil(span / step) - 1 = (span - 1) / step */
  h->last = LLVMBuildUDiv(b, LLVMBuildSub(b, span, LLVMConstInt(i64, 1, 0), ""), s64, "");
  /* keeps b * last of a 32-bit b within 64 bits */
  h->pre = and1(b, h->pre, LLVMBuildICmp(b, LLVMIntULT, h->last, LLVMConstInt(i64, 1ull << 32, 0), ""));
  h->iv = iv;
  h->iv_lin = (struct lin){start, step};
  return true;
}

/* ---- copying the loop ---- */

struct loop_blocks {
  LLVMBasicBlockRef *b;
  size_t n;
};

static bool block_in(const struct loop_blocks *lb, LLVMBasicBlockRef bb) {
  for (size_t i = 0; i < lb->n; i++)
    if (lb->b[i] == bb)
      return true;
  return false;
}

/* every use of the loop's values inside it, or a phi's incoming value from
 * inside it: then a copy's values reach all their uses by adding incoming
 * values to the exits' phis */
static bool closed(const struct loop_blocks *lb, size_t *insns) {
  *insns = 0;
  for (size_t i = 0; i < lb->n; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(lb->b[i]); in; in = LLVMGetNextInstruction(in)) {
      ++*insns;
      for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
          return false;
        if (block_in(lb, LLVMGetInstructionParent(user)))
          continue;
        if (!LLVMIsAPHINode(user))
          return false;
        for (unsigned k = 0; k < LLVMCountIncoming(user); k++)
          if (LLVMGetIncomingValue(user, k) == in && !block_in(lb, LLVMGetIncomingBlock(user, k)))
            return false;
      }
    }
  return true;
}

static LLVMValueRef mapped(const struct loom_ptrmap *m, LLVMValueRef v) {
  size_t k;
  return loom_ptrmap_get(m, v, &k) ? (LLVMValueRef)(uintptr_t)k : v;
}

static LLVMBasicBlockRef mapped_block(const struct loom_ptrmap *m, LLVMBasicBlockRef bb) {
  size_t k;
  return loom_ptrmap_get(m, bb, &k) ? (LLVMBasicBlockRef)(uintptr_t)k : bb;
}

/* a copy of the loop's blocks after the function's last; *copies maps
 * blocks and instructions to theirs; the exits' phis take the copy's values */
static void copy_loop(const struct loop_blocks *lb, struct loom_ptrmap *copies) {
  LLVMValueRef f = LLVMGetBasicBlockParent(lb->b[0]);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef *nb = calloc(lb->n, sizeof *nb);
  for (size_t i = 0; i < lb->n; i++) {
    char name[96];
    snprintf(name, sizeof name, "%.80s.tested", LLVMGetBasicBlockName(lb->b[i]));
    nb[i] = LLVMAppendBasicBlockInContext(c, f, name);
    loom_ptrmap_put(copies, lb->b[i], (size_t)(uintptr_t)nb[i]);
  }
  for (size_t i = 0; i < lb->n; i++) {
    LLVMPositionBuilderAtEnd(bld, nb[i]);
    for (LLVMValueRef in = LLVMGetFirstInstruction(lb->b[i]); in; in = LLVMGetNextInstruction(in)) {
      size_t len;
      const char *name = LLVMGetValueName2(in, &len);
      LLVMValueRef cl;
      if (LLVMIsAPHINode(in)) { /* incoming values once every copy exists */
        cl = LLVMBuildPhi(bld, LLVMTypeOf(in), name);
      } else {
        cl = LLVMInstructionClone(in);
        LLVMInsertIntoBuilderWithName(bld, cl, name);
      }
      loom_ptrmap_put(copies, in, (size_t)(uintptr_t)cl);
    }
  }
  for (size_t i = 0; i < lb->n; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(lb->b[i]); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef cl = mapped(copies, in);
      if (LLVMIsAPHINode(in)) {
        for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
          LLVMValueRef v = mapped(copies, LLVMGetIncomingValue(in, k));
          LLVMBasicBlockRef from = mapped_block(copies, LLVMGetIncomingBlock(in, k));
          LLVMAddIncoming(cl, &v, &from, 1);
        }
        continue;
      }
      for (int k = 0; k < LLVMGetNumOperands(cl); k++) {
        LLVMValueRef op = LLVMGetOperand(cl, k);
        if (op && LLVMValueIsBasicBlock(op))
          LLVMSetOperand(cl, k, LLVMBasicBlockAsValue(mapped_block(copies, LLVMValueAsBasicBlock(op))));
        else if (op)
          LLVMSetOperand(cl, k, mapped(copies, op));
      }
    }
  /* the exits' phis: for each edge from the loop, the same from its copy */
  for (size_t i = 0; i < lb->n; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(lb->b[i]);
    unsigned ns = LLVMGetNumSuccessors(term);
    for (unsigned s = 0; s < ns; s++) {
      LLVMBasicBlockRef exit = LLVMGetSuccessor(term, s);
      bool seen = block_in(lb, exit);
      for (unsigned r = 0; r < s && !seen; r++)
        seen = LLVMGetSuccessor(term, r) == exit;
      if (seen)
        continue;
      for (LLVMValueRef phi = LLVMGetFirstInstruction(exit); phi && LLVMIsAPHINode(phi);
           phi = LLVMGetNextInstruction(phi)) {
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < n; k++)
          if (LLVMGetIncomingBlock(phi, k) == lb->b[i]) {
            LLVMValueRef v = mapped(copies, LLVMGetIncomingValue(phi, k));
            LLVMAddIncoming(phi, &v, &nb[i], 1);
          }
      }
    }
  }
  free(nb);
  LLVMDisposeBuilder(bld);
}

/* deletes the blocks no path from the entry reaches (a test's slow path, a
 * scalar loop only it entered) */
static void delete_unreachable(LLVMValueRef f) {
  struct loom_ptrmap seen = {0};
  size_t n = LLVMCountBasicBlocks(f), top = 0;
  LLVMBasicBlockRef *stack = malloc((n + 1) * sizeof *stack);
  if (!stack)
    return;
  stack[top++] = LLVMGetEntryBasicBlock(f);
  loom_ptrmap_put(&seen, stack[0], 1);
  while (top) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--top]);
    for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
      LLVMBasicBlockRef t = LLVMGetSuccessor(term, s);
      if (!loom_ptrmap_get(&seen, t, NULL)) {
        loom_ptrmap_put(&seen, t, 1);
        stack[top++] = t;
      }
    }
  }
  size_t dead = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    if (!loom_ptrmap_get(&seen, bb, NULL))
      stack[dead++] = bb;
  for (size_t i = 0; i < dead; i++) { /* the phis of reached blocks first */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[i]);
    for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
      LLVMBasicBlockRef t = LLVMGetSuccessor(term, s);
      bool again = false;
      for (unsigned r = 0; r < s; r++)
        again |= LLVMGetSuccessor(term, r) == t;
      if (!again && loom_ptrmap_get(&seen, t, NULL))
        loom_phi_replace_block(t, stack[i], NULL);
    }
  }
  for (size_t i = 0; i < dead; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(stack[i]); in; in = LLVMGetNextInstruction(in))
      LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
  for (size_t i = 0; i < dead; i++)
    LLVMDeleteBasicBlock(stack[i]);
  free(stack);
  loom_ptrmap_free(&seen);
}

/* bb's branch to `fast` only, where it was a test going to `slow` too */
static void take_fast(LLVMValueRef br, LLVMBasicBlockRef fast, LLVMBasicBlockRef slow) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(br);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(br)));
  LLVMPositionBuilderBefore(b, br);
  LLVMBuildBr(b, fast);
  LLVMDisposeBuilder(b);
  LLVMInstructionEraseFromParent(br);
  if (slow != fast)
    loom_phi_replace_block(slow, bb, NULL);
}

/* could `in` go without changing anything when nothing uses it? */
static bool pure(LLVMValueRef in) {
  if (LLVMIsATerminatorInst(in) || LLVMIsAStoreInst(in) || LLVMIsACallInst(in) ||
      LLVMIsAFenceInst(in) || LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in))
    return false;
  return !LLVMIsALoadInst(in) || (!LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic);
}

/* erases what nothing uses in the blocks, until nothing changes */
static void erase_unused(const struct loop_blocks *lb) {
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < lb->n; i++)
      for (LLVMValueRef in = LLVMGetLastInstruction(lb->b[i]); in;) {
        LLVMValueRef prev = LLVMGetPreviousInstruction(in);
        if (!LLVMGetFirstUse(in) && pure(in)) {
          LLVMInstructionEraseFromParent(in);
          again = true;
        }
        in = prev;
      }
  }
}

/* ---- the pass ---- */

/* erases what was built before `term` after `mark` (NULL: from the block's start) */
static void erase_built(LLVMValueRef mark, LLVMValueRef term) {
  for (LLVMValueRef in = LLVMGetPreviousInstruction(term); in && in != mark;) {
    LLVMValueRef prev = LLVMGetPreviousInstruction(in);
    if (!LLVMGetFirstUse(in))
      LLVMInstructionEraseFromParent(in);
    in = prev;
  }
}

enum hoisted { NOTHING, DECIDED, COPIED };

/* takes the marked tests of the loop holding `first` out of it (of an inner
 * loop's first); NOTHING when nothing changed (the tests looked at are then
 * unmarked), COPIED when a copy of a loop was made */
static enum hoisted hoist_loop(LLVMValueRef f, LLVMValueRef first) {
  if (LLVMIsAConstantInt(LLVMGetCondition(first))) { /* decided when it was built */
    unsigned taken = is_true(LLVMGetCondition(first)) ? 0 : 1;
    take_fast(first, LLVMGetSuccessor(first, taken), LLVMGetSuccessor(first, 1 - taken));
    delete_unreachable(f);
    return DECIDED;
  }
  struct loom_domtree d;
  struct loom_loops l;
  enum hoisted changed = NOTHING;
  if (!loom_function_loops(&d, &l, f)) {
    unmark(first);
    return NOTHING;
  }
  size_t blk, loop = SIZE_MAX;
  if (loom_ptrmap_get(&d.index, LLVMGetInstructionParent(first), &blk))
    loop = loom_innermost_loop(&l, blk);
  /* inner loops first: a copy of this loop would copy their tests too. The
   * test that led to a loop is unmarked if nothing changes, so that every
   * call makes progress */
  LLVMValueRef subject = first;
  for (bool inner = loop != SIZE_MAX; inner;) {
    inner = false;
    for (size_t b = 0; b < d.n && !inner; b++) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(d.blocks[b]);
      size_t in = loom_loop_contains(&l, loop, b) && term && is_test_branch(term)
                      ? loom_innermost_loop(&l, b) : loop;
      if (in != loop && l.size[in] < l.size[loop]) {
        loop = in;
        subject = term;
        inner = true;
      }
    }
  }
  LLVMBasicBlockRef header = NULL, pre = NULL, latch = NULL;
  struct loop_blocks lb = {0};
  size_t insns = 0;
  LLVMValueRef tests[64];
  unsigned nt = 0;
  if (loop != SIZE_MAX && loom_loop_shape(&d, &l, loop, &header, &pre, &latch) &&
      (lb.b = calloc(l.size[loop], sizeof *lb.b)) != NULL) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      size_t k;
      if (loom_ptrmap_get(&d.index, bb, &k) && loom_loop_contains(&l, loop, k))
        lb.b[lb.n++] = bb;
    }
    /* the marked tests whose innermost loop this is */
    for (size_t i = 0; i < lb.n; i++) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(lb.b[i]);
      size_t k;
      if (term && is_test_branch(term) && nt < 64 && loom_ptrmap_get(&d.index, lb.b[i], &k) &&
          loom_innermost_loop(&l, k) == loop)
        tests[nt++] = term;
    }
  }
  LLVMValueRef pre_term = pre ? LLVMGetBasicBlockTerminator(pre) : NULL;
  if (nt && pre_term && LLVMIsABranchInst(pre_term) && LLVMIsConditional(pre_term)) {
    /* the loop vectoriser's vector loop is entered from a test of the trip
     * count: a preheader of its own for the hoisted test */
    LLVMBasicBlockRef own = LLVMInsertBasicBlockInContext(LLVMGetTypeContext(LLVMTypeOf(f)), header,
                                                          "tests.pre");
    LLVMBuilderRef bb = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
    LLVMPositionBuilderAtEnd(bb, own);
    LLVMBuildBr(bb, header);
    LLVMDisposeBuilder(bb);
    for (unsigned k = 0; k < LLVMGetNumSuccessors(pre_term); k++)
      if (LLVMGetSuccessor(pre_term, k) == header)
        LLVMSetSuccessor(pre_term, k, own);
    loom_phi_replace_block(header, pre, own);
    pre = own;
    pre_term = LLVMGetBasicBlockTerminator(own);
  }
  if (nt && pre_term && LLVMIsABranchInst(pre_term) && !LLVMIsConditional(pre_term) &&
      closed(&lb, &insns) && insns <= MAX_LOOP_INSNS) {
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
    struct hoist h = {.d = &d, .l = &l, .loop = loop, .bld = LLVMCreateBuilderInContext(c)};
    LLVMValueRef mark = LLVMGetPreviousInstruction(pre_term);
    LLVMPositionBuilderBefore(h.bld, pre_term);
    LLVMValueRef all = NULL;
    bool hoisted[64] = {false};
    unsigned nh = 0;
    if (find_counter(&h, header, pre, latch))
      for (unsigned i = 0; i < nt; i++) {
        LLVMValueRef cond = LLVMGetCondition(tests[i]), s = NULL;
        if (!fast_index(tests[i]))
          s = sufficient(&h, cond);
        else if (LLVMIsAICmpInst(cond)) /* fast when false */
          s = sufficient_cmp(&h, loom_inverse_predicate(LLVMGetICmpPredicate(cond)), LLVMGetOperand(cond, 0),
                             LLVMGetOperand(cond, 1));
        if (s) {
          all = and1(h.bld, all, s);
          hoisted[i] = true;
          nh++;
        }
      }
    all = nh ? and1(h.bld, h.pre, all) : NULL;
    for (unsigned i = 0; i < nt; i++)
      if (!hoisted[i]) /* tested on every trip, in both copies */
        unmark(tests[i]);
    if (all && !(LLVMIsAConstantInt(all) && !is_true(all))) {
      if (!is_true(all)) { /* the loop as it was runs when the test fails */
        struct loom_ptrmap copies = {0};
        copy_loop(&lb, &copies);
        for (unsigned i = 0; i < nt; i++)
          unmark(mapped(&copies, tests[i]));
        LLVMBasicBlockRef tested = mapped_block(&copies, header);
        loom_ptrmap_free(&copies);
        LLVMPositionBuilderBefore(h.bld, pre_term);
        loom_build_test_branch(h.bld, all, header, tested);
        LLVMInstructionEraseFromParent(pre_term);
        changed = COPIED;
      }
      /* what a test that could not be taken out left before the loop */
      erase_built(mark, LLVMGetBasicBlockTerminator(pre));
      for (unsigned i = 0; i < nt; i++) {
        if (!hoisted[i])
          continue;
        unsigned fi = fast_index(tests[i]);
        take_fast(tests[i], LLVMGetSuccessor(tests[i], fi), LLVMGetSuccessor(tests[i], 1 - fi));
      }
      delete_unreachable(f);
      /* the blocks left of the loop: the deleted ones are gone from the function */
      size_t live = 0;
      for (size_t i = 0; i < lb.n; i++)
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
          if (bb == lb.b[i]) {
            lb.b[live++] = bb;
            break;
          }
      lb.n = live;
      erase_unused(&lb);
      if (changed == NOTHING)
        changed = DECIDED;
    } else {
      erase_built(mark, pre_term);
    }
    loom_ptrmap_free(&h.memo);
    free(h.lins);
    LLVMDisposeBuilder(h.bld);
  }
  if (changed == NOTHING) {
    unmark(subject);
    for (unsigned i = 0; i < nt; i++)
      unmark(tests[i]);
  }
  free(lb.b);
  loom_loops_free(&l);
  loom_domtree_free(&d);
  return changed;
}

/* LLVM's loop vectoriser guards a vector loop by run time tests (its
 * counter's 32-bit wrap, in our work-item loops) that fall back to the
 * scalar loop it leaves beside it, marked llvm.loop.isvectorized: inside an
 * outer loop those tests run on every trip of it too. Such a branch, its
 * test computed in the loop around it, is marked like ours, the side away
 * from the scalar loop fast. */
static void mark_vector_checks(LLVMValueRef f) {
  struct loom_domtree d;
  struct loom_loops l;
  if (!loom_function_loops(&d, &l, f))
    return;
  for (size_t loop = 0; loop < l.n; loop++) {
    size_t h = loom_loop_header(&d, &l, loop);
    if (h == SIZE_MAX)
      continue;
    bool scalar = false;
    for (size_t i = 0; i < d.npreds[h] && !scalar; i++)
      if (loom_loop_contains(&l, loop, d.preds[h][i]))
        scalar = loom_loop_md_names(LLVMGetBasicBlockTerminator(d.blocks[d.preds[h][i]]), "llvm.loop.isvectorized");
    if (!scalar)
      continue;
    /* the branches into it: from a block outside, or through its preheader */
    for (size_t i = 0; i < d.npreds[h]; i++) {
      size_t p = d.preds[h][i];
      if (loom_loop_contains(&l, loop, p))
        continue;
      size_t via[16], nv = 0;
      LLVMValueRef pt = LLVMGetBasicBlockTerminator(d.blocks[p]);
      if (LLVMIsConditional(pt))
        via[nv++] = p;
      else
        for (size_t k = 0; k < d.npreds[p] && nv < 16; k++)
          via[nv++] = d.preds[p][k];
      for (size_t k = 0; k < nv; k++) {
        LLVMValueRef br = LLVMGetBasicBlockTerminator(d.blocks[via[k]]);
        if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br) || is_test_branch(br))
          continue;
        LLVMBasicBlockRef into = via[k] == p ? d.blocks[h] : d.blocks[p];
        unsigned side = LLVMGetSuccessor(br, 0) == into ? 0 : 1;
        LLVMValueRef cond = LLVMGetCondition(br);
        size_t around = loom_innermost_loop(&l, via[k]), cb;
        if (LLVMGetSuccessor(br, side) != into || LLVMGetSuccessor(br, 1 - side) == into ||
            around == SIZE_MAX || !LLVMIsAInstruction(cond) ||
            !loom_ptrmap_get(&d.index, LLVMGetInstructionParent(cond), &cb) || !loom_loop_contains(&l, around, cb))
          continue;
        mark(br, side == 0);
      }
    }
  }
  loom_loops_free(&l);
  loom_domtree_free(&d);
}

static LLVMValueRef first_test(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (term && is_test_branch(term))
      return term;
  }
  return NULL;
}

unsigned loom_hoist_tests(LLVMModuleRef m) {
  unsigned loops = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    mark_vector_checks(f);
    unsigned rounds = 0;
    for (LLVMValueRef t; (t = first_test(f)) != NULL;) {
      if (rounds == MAX_ROUNDS) {
        unmark(t);
        continue;
      }
      enum hoisted r = hoist_loop(f, t);
      loops += r != NOTHING;
      rounds += r == COPIED; /* a copy doubles a loop's code: bounded */
    }
  }
  return loops;
}
