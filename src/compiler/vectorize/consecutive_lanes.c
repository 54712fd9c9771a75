/* Gathers and scatters whose lanes are consecutive become vector loads and
 * stores.
 *
 * VPlan's native path (outer-loop vectorisation) widens every memory access
 * in the loop to a gather or a scatter, even `in[g]`, whose 16 lanes are 16
 * consecutive floats. This pass proves that from the index vector: it
 * writes the index as u + c, u the same in every lane (possibly unknown,
 * but with known trailing zero bits), c a constant vector, through
 *  - constants, lane-uniform values (vectorize/uniform_phi.c's test),
 *  - the widened induction `phi [C0, %preheader], [phi + splat(S), %latch]`
 *    (u = n * S: at least ctz(S) trailing zero bits), C0 a constant or
 *    itself u' + c (an epilogue loop's start, splat(resume) + <0, 1, ...>),
 *  - add, sub, `or disjoint`, shl and mul by splat constants, mul of a
 *    value the same in every lane by another, lshr where every c is below u's known
 *    zero bits, and
 *  - `and` with a splat mask below u's known zero bits, which drops u:
 *    the lane number `x mod W` of a private array kept per lane
 *    (workgroup/wide_private.c) is then the constant <0, 1, ..., W-1>;
 *    with any mask where every c is below those bits.
 * When the byte offsets of lanes 1..n-1 from lane 0 are E, 2E, ... (E the
 * element size) and every lane is active, the access is one vector load or
 * store at lane 0's address: the same bytes, in the same place. */
#include "vectorize/vectorize.h"
#include <stdint.h>
#include <stdlib.h>

enum { MAX_LANES = 64 };

/* v = u + c in every lane; u has at least tz trailing zero bits (64: u = 0) */
struct affine {
  uint64_t c[MAX_LANES];
  unsigned tz;
};

static unsigned ctz64(uint64_t v) { return v ? (unsigned)__builtin_ctzll(v) : 64; }
static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

static bool constant_lanes(LLVMValueRef v, unsigned n, struct affine *a) {
  if (!LLVMIsConstant(v) || LLVMIsAConstantExpr(v))
    return false;
  a->tz = 64;
  for (unsigned i = 0; i < n; i++) {
    if (LLVMIsNull(v)) {
      a->c[i] = 0;
      continue;
    }
    LLVMValueRef e = LLVMGetAggregateElement(v, i);
    if (!e || !LLVMIsAConstantInt(e))
      return false; /* poison or undef lanes */
    a->c[i] = LLVMConstIntGetZExtValue(e);
  }
  return true;
}

static bool splat_constant(LLVMValueRef v, unsigned n, uint64_t *k) {
  struct affine a;
  if (!constant_lanes(v, n, &a))
    return false;
  for (unsigned i = 1; i < n; i++)
    if (a.c[i] != a.c[0])
      return false;
  *k = a.c[0];
  return true;
}

/* trailing zero bits known in v (a scalar or a vector whose lanes are
 * alike in that), from constants, shifts, products and sums: a group's
 * first row `y * 8`, splatted */
static unsigned known_tz(LLVMValueRef v, int depth) {
  uint64_t k;
  if (LLVMIsAConstantInt(v))
    return ctz64(LLVMConstIntGetZExtValue(v));
  if (loom_splat_int(v, &k))
    return ctz64(k);
  if (depth > 8 || !LLVMIsAInstruction(v))
    return 0;
  if (LLVMIsAShuffleVectorInst(v) || LLVMIsAZExtInst(v) || LLVMIsASExtInst(v))
    return known_tz(LLVMGetOperand(v, 0), depth + 1); /* a splat's lanes: its source's */
  if (LLVMIsAInsertElementInst(v))
    return known_tz(LLVMGetOperand(v, 1), depth + 1);
  if (!LLVMIsABinaryOperator(v))
    return 0;
  unsigned a = known_tz(LLVMGetOperand(v, 0), depth + 1), b = known_tz(LLVMGetOperand(v, 1), depth + 1);
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMOr:
    return min_u(a, b);
  case LLVMAnd:
    return a > b ? a : b;
  case LLVMMul:
    return min_u(64, a + b);
  case LLVMShl: {
    LLVMValueRef amount = LLVMGetOperand(v, 1);
    if (LLVMIsAConstantInt(amount))
      k = LLVMConstIntGetZExtValue(amount);
    else if (!loom_splat_int(amount, &k))
      return 0;
    return k < 64 ? min_u(64, a + (unsigned)k) : 0;
  }
  default:
    return 0;
  }
}

/* *budget bounds the nodes visited: a DAG of shared operands would
 * otherwise be walked once per path */
static bool decompose(LLVMValueRef v, unsigned n, uint64_t mask, struct affine *a, int depth,
                      int *budget) {
  if (depth > 16 || --*budget < 0)
    return false;
  if (constant_lanes(v, n, a))
    goto done;
  if (loom_lane_uniform(v)) {
    for (unsigned i = 0; i < n; i++)
      a->c[i] = 0;
    a->tz = known_tz(v, 0);
    return true;
  }
  if (LLVMIsAPHINode(v)) {
    /* the widened induction: a start from outside, phi + splat(S) around;
     * the start a constant, or itself u + c (an epilogue loop's induction
     * resumes where the main loop stopped: splat(resume) + <0, 1, ...>) */
    if (LLVMCountIncoming(v) != 2)
      return false;
    for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef start = LLVMGetIncomingValue(v, k), next = LLVMGetIncomingValue(v, 1 - k);
      uint64_t step;
      if (!LLVMIsABinaryOperator(next) || LLVMGetInstructionOpcode(next) != LLVMAdd)
        continue;
      LLVMValueRef x = LLVMGetOperand(next, 0), y = LLVMGetOperand(next, 1);
      if (!(x == v && splat_constant(y, n, &step)) && !(y == v && splat_constant(x, n, &step)))
        continue;
      unsigned tz = ctz64(step & mask);
      if (!constant_lanes(start, n, a)) {
        if (LLVMIsAPHINode(start) || !decompose(start, n, mask, a, depth + 1, budget))
          continue;
        tz = a->tz < tz ? a->tz : tz;
      }
      a->tz = tz;
      goto done;
    }
    return false;
  }
  if (LLVMIsATruncInst(v)) {
    /* truncation commutes with the lanes' additions: u + c modulo the
     * narrower width (the widened induction of a 32-bit index, `trunc
     * <16 x i64> %vec.ind`) */
    LLVMValueRef x = LLVMGetOperand(v, 0);
    unsigned xbits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(x)));
    uint64_t xmask = xbits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << xbits) - 1;
    if (!decompose(x, n, xmask, a, depth + 1, budget))
      return false;
    goto done;
  }
  if (!LLVMIsABinaryOperator(v))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  struct affine *r = malloc(sizeof *r);
  if (!r)
    return false;
  bool ok = decompose(LLVMGetOperand(v, 0), n, mask, a, depth + 1, budget);
  uint64_t k;
  switch (ok ? op : LLVMRet) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMOr:
    ok = (op != LLVMOr || LLVMGetIsDisjoint(v)) &&
         decompose(LLVMGetOperand(v, 1), n, mask, r, depth + 1, budget);
    for (unsigned i = 0; ok && i < n; i++)
      a->c[i] = op == LLVMSub ? a->c[i] - r->c[i] : a->c[i] + r->c[i];
    if (ok)
      a->tz = min_u(a->tz, r->tz);
    break;
  case LLVMShl:
    ok = splat_constant(LLVMGetOperand(v, 1), n, &k) && k < 64;
    for (unsigned i = 0; ok && i < n; i++)
      a->c[i] <<= k;
    if (ok)
      a->tz = min_u(64, a->tz + (unsigned)k);
    break;
  case LLVMMul:
    if (!splat_constant(LLVMGetOperand(v, 1), n, &k)) {
      /* the same in every lane times the same unknown: still the same */
      for (unsigned i = 1; ok && i < n; i++)
        ok = ((a->c[i] - a->c[0]) & mask) == 0;
      ok = ok && loom_lane_uniform(LLVMGetOperand(v, 1));
      for (unsigned i = 0; ok && i < n; i++)
        a->c[i] = 0;
      a->tz = 0;
      break;
    }
    for (unsigned i = 0; ok && i < n; i++)
      a->c[i] *= k;
    if (ok)
      a->tz = min_u(64, a->tz + ctz64(k & mask));
    break;
  case LLVMLShr:
    /* with every c below u's known zero bits, u + c is u | c and the shift
     * moves them apart: (u >> k) + (c >> k) (the tile row of a linear id
     * `(y * 8 + x) >> 3` over lanes x = 0..7) */
    ok = splat_constant(LLVMGetOperand(v, 1), n, &k) && k < 64;
    for (unsigned i = 0; ok && i < n; i++)
      ok = a->tz >= 64 || ((a->c[i] & mask) >> a->tz) == 0;
    for (unsigned i = 0; ok && i < n; i++)
      a->c[i] = (a->c[i] & mask) >> k;
    if (ok && a->tz < 64)
      a->tz = a->tz >= k ? a->tz - (unsigned)k : 0;
    break;
  case LLVMAnd:
    /* adding u (a multiple of 2^tz) leaves the bits below tz alone: with a
     * mask below them u drops out; with every c below them too, u + c is
     * u | c and the mask takes each apart (`id % 16` of a linear id over
     * lanes 0..7 from a multiple of 8) */
    ok = splat_constant(LLVMGetOperand(v, 1), n, &k);
    if (ok && (a->tz >= 64 || (k >> a->tz) == 0)) {
      for (unsigned i = 0; i < n; i++)
        a->c[i] &= k;
      a->tz = 64;
      break;
    }
    for (unsigned i = 0; ok && i < n; i++)
      ok = ((a->c[i] & mask) >> a->tz) == 0;
    for (unsigned i = 0; ok && i < n; i++)
      a->c[i] &= k;
    break;
  default:
    ok = false;
  }
  free(r);
  if (!ok)
    return false;
done:
  for (unsigned i = 0; i < n; i++)
    a->c[i] &= mask;
  if (a->tz > 64)
    a->tz = 64;
  return true;
}

/* Lane 0 of v as scalar operations, for a v loom_lane_affine has decomposed
 * (the caller's test: a phi here is taken for the induction it checked):
 * lane-uniform parts through loom_lane0_scalar, a widened induction as its
 * element 0, the rest operation by operation (without wrap flags), each
 * built right after the vector it stands for. Extracting lane 0 from the
 * vector instead keeps the whole vector computation alive (a 512-bit
 * multiply where one scalar one does). NULL for another shape. */
/* right after v (its block may be under construction, without a terminator) */
static void after(LLVMBuilderRef b, LLVMValueRef v) {
  LLVMValueRef next = LLVMGetNextInstruction(v);
  if (next)
    LLVMPositionBuilderBefore(b, next);
  else
    LLVMPositionBuilderAtEnd(b, LLVMGetInstructionParent(v));
}

static LLVMValueRef lane0(LLVMBuilderRef b, LLVMValueRef v, int depth, int *budget) {
  if (depth > 16 || --*budget < 0)
    return NULL;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(v));
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
  LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0);
  if (LLVMIsConstant(v) && !LLVMIsAConstantExpr(v)) {
    if (LLVMIsNull(v))
      return LLVMConstNull(et);
    LLVMValueRef e = LLVMGetAggregateElement(v, 0);
    return e && LLVMIsAConstantInt(e) ? e : NULL;
  }
  if (loom_lane_uniform(v))
    return loom_lane0_scalar(b, v);
  if (!LLVMIsAInstruction(v))
    return NULL;
  if (LLVMIsAPHINode(v)) {
    LLVMPositionBuilderBefore(b, loom_first_non_phi(LLVMGetInstructionParent(v)));
    return LLVMBuildExtractElement(b, v, zero, "lane0");
  }
  LLVMValueRef a = lane0(b, LLVMGetOperand(v, 0), depth + 1, budget);
  if (!a)
    return NULL;
  if (LLVMIsATruncInst(v)) {
    after(b, v);
    return LLVMBuildTrunc(b, a, et, "lane0");
  }
  if (!LLVMIsABinaryOperator(v))
    return NULL;
  LLVMValueRef r = lane0(b, LLVMGetOperand(v, 1), depth + 1, budget);
  if (!r)
    return NULL;
  after(b, v);
  return LLVMBuildBinOp(b, LLVMGetInstructionOpcode(v), a, r, "lane0");
}

LLVMValueRef loom_lane0_affine(LLVMBuilderRef b, LLVMValueRef v) {
  int budget = 64;
  return lane0(b, v, 0, &budget);
}

bool loom_splat_int(LLVMValueRef v, uint64_t *k) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) <= MAX_LANES &&
         splat_constant(v, LLVMGetVectorSize(t), k);
}

bool loom_lane_affine(LLVMValueRef v, uint64_t *c, unsigned *tz) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind ||
      LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMIntegerTypeKind)
    return false;
  unsigned n = LLVMGetVectorSize(t), bits = LLVMGetIntTypeWidth(LLVMGetElementType(t));
  if (n > MAX_LANES || bits > 64)
    return false;
  uint64_t mask = bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
  struct affine *a = malloc(sizeof *a);
  int budget = 64;
  bool ok = a && decompose(v, n, mask, a, 0, &budget);
  if (ok) {
    for (unsigned i = 0; i < n; i++)
      c[i] = a->c[i];
    *tz = a->tz;
  }
  free(a);
  return ok;
}

/* the scalar address of lane 0 when the lanes of pointer vector p are
 * consecutive elements of elem_bytes each, else NULL (built at b). Each of
 * the GEP's indices is the same in every lane or lane-affine (a local
 * array's row `ldata[k][lid]`: [257 x [17 x i32]], 0, splat(k), <0, 1, ...>);
 * the lanes' byte offsets add up over them. */
static LLVMValueRef consecutive_base(LLVMBuilderRef b, LLVMValueRef p, unsigned n,
                                     LLVMTargetDataRef td, uint64_t elem_bytes) {
  unsigned nops = LLVMIsAGetElementPtrInst(p) ? (unsigned)LLVMGetNumOperands(p) : 0;
  if (nops < 2 || nops > 8)
    return NULL;
  LLVMValueRef base = LLVMGetOperand(p, 0);
  if (LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMVectorTypeKind && !loom_lane_uniform(base))
    return NULL;
  LLVMTypeRef src = LLVMGetGEPSourceElementType(p), ty = src;
  uint64_t off[MAX_LANES] = {0}; /* lane i's bytes past lane 0 */
  bool varies = false;
  for (unsigned k = 1; k < nops; k++) {
    LLVMValueRef idx = LLVMGetOperand(p, k);
    LLVMTypeRef it = LLVMTypeOf(idx);
    if (k > 1 && LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
      LLVMValueRef f = LLVMGetTypeKind(it) == LLVMVectorTypeKind ? LLVMGetAggregateElement(idx, 0) : idx;
      if (!f || !LLVMIsAConstantInt(f))
        return NULL;
      ty = LLVMStructGetTypeAtIndex(ty, (unsigned)LLVMConstIntGetZExtValue(f));
      continue; /* a field: the same in every lane */
    }
    if (k > 1)
      ty = LLVMGetElementType(ty);
    if (LLVMGetTypeKind(it) != LLVMVectorTypeKind || loom_lane_uniform(idx))
      continue;
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(it)), tz;
    uint64_t c0[MAX_LANES];
    if (LLVMGetVectorSize(it) != n || !loom_lane_affine(idx, c0, &tz))
      return NULL;
    uint64_t size = LLVMABISizeOfType(td, ty);
    for (unsigned i = 1; i < n; i++)
      off[i] += (uint64_t)(loom_sign_extend(c0[i], bits) - loom_sign_extend(c0[0], bits)) * size;
    varies = true;
  }
  for (unsigned i = 1; i < n; i++)
    if (off[i] != i * elem_bytes)
      return NULL;
  if (!varies)
    return NULL; /* one address in every lane */
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMValueRef scalar_base = loom_lane0_scalar(b, base);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(p));
  LLVMValueRef idx0[8];
  for (unsigned k = 1; k < nops; k++) {
    LLVMValueRef idx = LLVMGetOperand(p, k);
    idx0[k - 1] = LLVMGetTypeKind(LLVMTypeOf(idx)) == LLVMVectorTypeKind
                      ? LLVMBuildExtractElement(b, idx, LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0), "")
                      : idx;
  }
  return LLVMIsInBounds(p) ? LLVMBuildInBoundsGEP2(b, src, scalar_base, idx0, nops - 1, "lane0.ptr")
                           : LLVMBuildGEP2(b, src, scalar_base, idx0, nops - 1, "lane0.ptr");
}

bool loom_consecutive_lanes_to_vectors(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m); /* the module's own */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
        LLVMValueRef next = LLVMGetNextInstruction(in);
        bool gather = loom_is_call_to_prefix(in, "llvm.masked.gather.");
        bool scatter = loom_is_call_to_prefix(in, "llvm.masked.scatter.");
        unsigned p_op = gather ? 0 : 1, mask_op = gather ? 2 : 3;
        if ((gather || scatter) && loom_all_ones_mask(LLVMGetOperand(in, mask_op))) {
          LLVMTypeRef vt = gather ? LLVMTypeOf(in) : LLVMTypeOf(LLVMGetOperand(in, 0));
          unsigned n = LLVMGetVectorSize(vt);
          uint64_t elem = LLVMABISizeOfType(td, LLVMGetElementType(vt));
          LLVMValueRef p = LLVMGetOperand(in, p_op);
          LLVMValueRef base = n <= MAX_LANES && elem == LLVMStoreSizeOfType(td, LLVMGetElementType(vt))
                                  ? consecutive_base(b, p, n, td, elem)
                                  : NULL;
          if (base) {
            unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(in, gather ? 1 : 2));
            LLVMPositionBuilderBefore(b, in);
            LLVMValueRef mem;
            if (gather) {
              mem = LLVMBuildLoad2(b, vt, base, "lanes.load");
              LLVMReplaceAllUsesWith(in, mem);
            } else {
              mem = LLVMBuildStore(b, LLVMGetOperand(in, 0), base);
            }
            LLVMSetAlignment(mem, align);
            loom_copy_metadata(in, mem); /* TBAA, access group: still true of it */
            LLVMInstructionEraseFromParent(in);
            changed = true;
          }
        }
        in = next;
      }
  LLVMDisposeBuilder(b);
  return changed;
}
