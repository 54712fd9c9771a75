/* The rewrite of jam-rows (jam_rows.c chooses the loops and the rows).
 *
 * J rows of a y work-item loop run in one iteration. A row-varying
 * instruction is copied per row, each copy right after its original (row 0
 * is the original), except where two rows fit one register: 8 work-items
 * of float fill half an AVX-512 register, so an inner loop's FMAs on
 * <8 x float> run at half the machine's width however many rows are copied.
 * There the packed instructions (loom_rows_packable, chosen by jam_rows.c)
 * become one instruction on <16 x float> per two rows, row 2p in the low
 * half and 2p+1 in the high half, and the packed originals are deleted:
 *   - a row-invariant operand (Xgemm's column of A) is duplicated into both
 *     halves once (a shuffle the code generator merges into the one that
 *     made the column);
 *   - a row-varying operand that is not packed (a vector loaded per row) is
 *     joined from its two rows' copies;
 *   - a packed value used by an instruction that is not (a store after the
 *     inner loop) is split into its halves: in the inner loop right after
 *     its definition, in the tail at its start;
 *   - a packed phi of the inner loop joins its values from the header at the
 *     header's end.
 * Joins and duplicates of values from before the inner loop go to the end
 * of the header, so that they run once per J rows. */
#include "vectorize/jam_rows.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PAIRS = LOOM_MAX_JAM / 2 };

struct jam {
  const struct loom_rows *r;
  const struct loom_ptrmap *varying, *packed;
  unsigned jam;
  LLVMModuleRef mod;
  LLVMBuilderRef aux;                     /* joins, splits and duplicates */
  struct loom_ptrmap row[LOOM_MAX_JAM];   /* value -> its copy for row j (a packed value: its half, in the inner loop) */
  struct loom_ptrmap tail_row[LOOM_MAX_JAM]; /* packed value -> its half for row j, split in the tail */
  struct loom_ptrmap pair[MAX_PAIRS];     /* value -> rows 2p and 2p+1 in one vector */
  struct loom_ptrmap dup;                 /* row-invariant value -> in both halves */
  LLVMValueRef *vals;
  size_t n, cap;
  LLVMValueRef *dead; /* the packed originals, deleted at the end */
  size_t ndead, capdead;
};

static void put(struct jam *c, struct loom_ptrmap *m, LLVMValueRef from, LLVMValueRef to) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 256;
    c->vals = realloc(c->vals, c->cap * sizeof *c->vals);
  }
  c->vals[c->n] = to;
  loom_ptrmap_put(m, from, c->n++);
}

static LLVMValueRef find(const struct jam *c, const struct loom_ptrmap *m, LLVMValueRef v) {
  size_t i;
  return loom_ptrmap_get(m, v, &i) ? c->vals[i] : NULL;
}

static bool in_set(const struct loom_ptrmap *m, LLVMValueRef v) {
  size_t dummy;
  return loom_ptrmap_get(m, v, &dummy);
}

static void add_dead(struct jam *c, LLVMValueRef v) {
  if (c->ndead == c->capdead) {
    c->capdead = c->capdead ? 2 * c->capdead : 64;
    c->dead = realloc(c->dead, c->capdead * sizeof *c->dead);
  }
  c->dead[c->ndead++] = v;
}

static bool in_block(LLVMValueRef v, LLVMBasicBlockRef bb) {
  return bb && LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb;
}

/* the builder right after v (after the phis where v is one) */
static void position_after(LLVMBuilderRef b, LLVMValueRef v) {
  if (LLVMIsAPHINode(v))
    LLVMPositionBuilderBefore(b, loom_first_non_phi(LLVMGetInstructionParent(v)));
  else
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(v));
}

static void position_at_head_end(struct jam *c) {
  LLVMPositionBuilderBefore(c->aux, LLVMGetBasicBlockTerminator(c->r->head));
}

/* <first, first + 1, ..., first + n - 1>, twice if `twice` */
static LLVMValueRef lanes_mask(LLVMContextRef ctx, unsigned first, unsigned n, bool twice) {
  LLVMValueRef m[128];
  assert(n * (twice ? 2 : 1) <= 128);
  for (unsigned i = 0; i < n * (twice ? 2 : 1); i++)
    m[i] = LLVMConstInt(LLVMInt32TypeInContext(ctx), first + i % n, 0);
  return LLVMConstVector(m, n * (twice ? 2 : 1));
}

static LLVMContextRef ctx_of(LLVMValueRef v) { return LLVMGetTypeContext(LLVMTypeOf(v)); }
static unsigned lanes_of(LLVMValueRef v) { return LLVMGetVectorSize(LLVMTypeOf(v)); }

static LLVMValueRef wide(struct jam *c, LLVMValueRef v, unsigned p, LLVMValueRef before);

/* row j's value of v, used in the tail (in_tail) or in the loop before it */
static LLVMValueRef narrow(struct jam *c, LLVMValueRef v, unsigned j, bool in_tail) {
  if (!in_set(c->varying, v))
    return v;
  if (!in_set(c->packed, v)) {
    LLVMValueRef x = j ? find(c, &c->row[j], v) : v;
    return x ? x : v; /* the loop's counting: one for all rows */
  }
  struct loom_ptrmap *cache = in_tail ? &c->tail_row[j] : &c->row[j];
  LLVMValueRef x = find(c, cache, v);
  if (x)
    return x;
  LLVMValueRef w = find(c, &c->pair[j / 2], v);
  assert(w);
  if (in_tail)
    LLVMPositionBuilderBefore(c->aux, loom_first_non_phi(c->r->tail));
  else
    position_after(c->aux, w);
  unsigned n = lanes_of(v);
  x = LLVMBuildShuffleVector(c->aux, w, LLVMGetPoison(LLVMTypeOf(w)),
                             lanes_mask(ctx_of(v), (j % 2) * n, n, false), j % 2 ? "row.hi" : "row.lo");
  put(c, cache, v, x);
  return x;
}

/* v's value for rows 2p and 2p+1 in one vector, for an instruction of the
 * inner loop placed before `before` (NULL: on the edge from the header) */
static LLVMValueRef wide(struct jam *c, LLVMValueRef v, unsigned p, LLVMValueRef before) {
  LLVMValueRef x;
  if (in_set(c->packed, v)) {
    x = find(c, &c->pair[p], v);
    assert(x);
    return x;
  }
  bool varying = in_set(c->varying, v);
  struct loom_ptrmap *cache = varying ? &c->pair[p] : &c->dup;
  if ((x = find(c, cache, v)))
    return x;
  unsigned n = lanes_of(v);
  if (!varying) { /* the same in both halves */
    if (in_block(v, c->r->body))
      position_after(c->aux, v);
    else
      position_at_head_end(c);
    x = LLVMBuildShuffleVector(c->aux, v, v, lanes_mask(ctx_of(v), 0, n, true), "rows.dup");
  } else { /* its two rows' copies joined */
    if (in_block(v, c->r->body) && before)
      LLVMPositionBuilderBefore(c->aux, before);
    else
      position_at_head_end(c);
    LLVMValueRef lo = narrow(c, v, 2 * p, false), hi = narrow(c, v, 2 * p + 1, false);
    x = LLVMBuildShuffleVector(c->aux, lo, hi, lanes_mask(ctx_of(v), 0, 2 * n, false), "rows.join");
  }
  put(c, cache, v, x);
  return x;
}

static LLVMTypeRef doubled(LLVMTypeRef t) {
  return LLVMVectorType(LLVMGetElementType(t), 2 * LLVMGetVectorSize(t));
}

/* the flags of `from` (wrapping, exactness, fast-math) on its wide twin */
static void copy_flags(LLVMValueRef from, LLVMValueRef to) {
  if (!LLVMIsAInstruction(to))
    return;
  switch (LLVMGetInstructionOpcode(from)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
    LLVMSetNUW(to, LLVMGetNUW(from));
    LLVMSetNSW(to, LLVMGetNSW(from));
    break;
  case LLVMUDiv: case LLVMSDiv: case LLVMLShr: case LLVMAShr:
    LLVMSetExact(to, LLVMGetExact(from));
    break;
  case LLVMOr:
    LLVMSetIsDisjoint(to, LLVMGetIsDisjoint(from));
    break;
  case LLVMZExt: case LLVMUIToFP:
    LLVMSetNNeg(to, LLVMGetNNeg(from));
    break;
  default:
    break;
  }
  if (LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to))
    LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
}

/* the shuffle `in` for rows 2p and 2p+1 */
static LLVMValueRef wide_shuffle(struct jam *c, LLVMBuilderRef b, LLVMValueRef in, unsigned p,
                                 LLVMValueRef before) {
  LLVMValueRef a = LLVMGetOperand(in, 0), bv = LLVMGetOperand(in, 1);
  unsigned m = lanes_of(a), n = lanes_of(in);
  LLVMValueRef mask[128];
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx_of(in));
  assert(2 * n <= 128);
  if (!in_set(c->packed, a) && !in_set(c->packed, bv)) {
    /* each row's shuffle, joined: a splat of a scalar loaded per row is then
     * a broadcast from memory per row and one join, not a shuffle per half */
    LLVMValueRef half[2];
    for (unsigned h = 0; h < 2; h++) {
      LLVMValueRef ra = narrow(c, a, 2 * p + h, false), rb = narrow(c, bv, 2 * p + h, false);
      half[h] = LLVMBuildShuffleVector(b, ra, rb, loom_shuffle_mask(in), "");
    }
    return LLVMBuildShuffleVector(b, half[0], half[1], lanes_mask(ctx_of(in), 0, 2 * n, false), "rows.join");
  }
  /* each half picks from its own halves of the (doubled) operands */
  for (unsigned h = 0; h < 2; h++)
    for (unsigned i = 0; i < n; i++) {
      int e = LLVMGetMaskValue(in, i);
      if (e == LLVMGetUndefMaskElem())
        mask[h * n + i] = LLVMGetPoison(i32);
      else if ((unsigned)e < m) /* first operand: its row's half */
        mask[h * n + i] = LLVMConstInt(i32, h * m + (unsigned)e, 0);
      else
        mask[h * n + i] = LLVMConstInt(i32, 2 * m + h * m + ((unsigned)e - m), 0);
    }
  LLVMValueRef wa = wide(c, a, p, before), wb = wide(c, bv, p, before);
  return LLVMBuildShuffleVector(b, wa, wb, LLVMConstVector(mask, 2 * n), "");
}

/* the instruction `in` for rows 2p and 2p+1, at the builder */
static LLVMValueRef build_wide(struct jam *c, LLVMBuilderRef b, LLVMValueRef in, unsigned p,
                               LLVMValueRef before) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMTypeRef wt = doubled(LLVMTypeOf(in));
#define W(k) wide(c, LLVMGetOperand(in, k), p, before)
  LLVMValueRef x;
  switch (op) {
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
  case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
  case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: {
    LLVMValueRef l = W(0), r = W(1);
    x = LLVMBuildBinOp(b, op, l, r, "");
    break;
  }
  case LLVMFNeg:
    x = LLVMBuildFNeg(b, W(0), "");
    break;
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
  case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
    x = LLVMBuildCast(b, op, W(0), wt, "");
    break;
  case LLVMICmp: {
    LLVMValueRef l = W(0), r = W(1);
    x = LLVMBuildICmp(b, LLVMGetICmpPredicate(in), l, r, "");
    break;
  }
  case LLVMFCmp: {
    LLVMValueRef l = W(0), r = W(1);
    x = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(in), l, r, "");
    break;
  }
  case LLVMSelect: {
    LLVMValueRef s = W(0), t = W(1), f = W(2);
    x = LLVMBuildSelect(b, s, t, f, "");
    break;
  }
  case LLVMFreeze:
    x = LLVMBuildFreeze(b, W(0), "");
    break;
  case LLVMShuffleVector:
    x = wide_shuffle(c, b, in, p, before);
    break;
  case LLVMInsertElement: { /* the element into both halves */
    unsigned n = lanes_of(in);
    unsigned long long idx = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 2));
    LLVMValueRef s = LLVMGetOperand(in, 1), v = W(0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx_of(in));
    v = LLVMBuildInsertElement(b, v, narrow(c, s, 2 * p, false), LLVMConstInt(i64, idx, 0), "");
    x = LLVMBuildInsertElement(b, v, narrow(c, s, 2 * p + 1, false), LLVMConstInt(i64, idx + n, 0), "");
    break;
  }
  case LLVMCall: { /* an element-wise intrinsic overloaded on its vector type */
    LLVMValueRef callee = LLVMGetCalledValue(in);
    unsigned na = (unsigned)LLVMGetNumArgOperands(in);
    LLVMValueRef args[8];
    assert(na <= 8);
    for (unsigned k = 0; k < na; k++) {
      LLVMValueRef a = LLVMGetOperand(in, k);
      args[k] = LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMVectorTypeKind ? wide(c, a, p, before) : a;
    }
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(c->mod, LLVMGetIntrinsicID(callee), &wt, 1);
    x = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, na, "");
    break;
  }
  default:
    assert(!"not packable");
    return NULL;
  }
#undef W
  copy_flags(in, x);
  return x;
}

/* the copies of bb's row-varying instructions (neither phis nor the loop's
 * counting): per row right after the original, or per pair where packed */
static void copy_code(struct jam *c, LLVMBuilderRef bld, LLVMBasicBlockRef bb) {
  const struct loom_rows *r = c->r;
  bool in_tail = bb == r->tail && r->body;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (LLVMValueRef in = loom_first_non_phi(bb), next; in && in != term; in = next) {
    next = LLVMGetNextInstruction(in);
    if (loom_rows_counting(r, in) || !in_set(c->varying, in))
      continue;
    if (in_set(c->packed, in)) {
      for (unsigned p = 0; p < c->jam / 2; p++) {
        LLVMPositionBuilderBefore(bld, next);
        put(c, &c->pair[p], in, build_wide(c, bld, in, p, next));
      }
      add_dead(c, in);
      continue;
    }
    unsigned nops = (unsigned)LLVMGetNumOperands(in);
    for (unsigned j = 1; j < c->jam; j++) {
      LLVMValueRef cl = LLVMInstructionClone(in);
      for (unsigned k = 0; k < nops; k++) {
        LLVMValueRef op = LLVMGetOperand(in, k);
        if (!LLVMValueIsBasicBlock(op))
          LLVMSetOperand(cl, k, narrow(c, op, j, in_tail));
      }
      LLVMPositionBuilderBefore(bld, next);
      LLVMInsertIntoBuilder(bld, cl);
      put(c, &c->row[j], in, cl);
    }
    for (unsigned k = 0; k < nops; k++) { /* row 0, the original: on row 0's halves */
      LLVMValueRef op = LLVMGetOperand(in, k);
      if (in_set(c->packed, op))
        LLVMSetOperand(in, k, narrow(c, op, 0, in_tail));
    }
  }
}

/* bb's row-varying phis: copies per row, or per pair where packed; their
 * incoming values once the code exists (fill_phis) */
static void copy_phis(struct jam *c, LLVMBuilderRef bld, LLVMBasicBlockRef bb) {
  LLVMValueRef first = loom_first_non_phi(bb);
  for (LLVMValueRef ph = LLVMGetFirstInstruction(bb); ph != first; ph = LLVMGetNextInstruction(ph)) {
    if (!LLVMIsAPHINode(ph) || !in_set(c->varying, ph))
      continue;
    bool packed = in_set(c->packed, ph);
    for (unsigned j = 1; j < (packed ? c->jam / 2 + 1 : c->jam); j++) {
      LLVMPositionBuilderBefore(bld, first);
      if (packed)
        put(c, &c->pair[j - 1], ph, LLVMBuildPhi(bld, doubled(LLVMTypeOf(ph)), "rows.phi"));
      else
        put(c, &c->row[j], ph, LLVMBuildPhi(bld, LLVMTypeOf(ph), ""));
    }
    if (packed)
      add_dead(c, ph);
  }
}

static void fill_phis(struct jam *c, LLVMBasicBlockRef bb) {
  LLVMValueRef first = loom_first_non_phi(bb);
  bool in_tail = bb == c->r->tail && c->r->body;
  for (LLVMValueRef ph = LLVMGetFirstInstruction(bb); ph != first; ph = LLVMGetNextInstruction(ph)) {
    if (!in_set(c->varying, ph))
      continue; /* a copy, or one for all rows */
    unsigned ni = LLVMCountIncoming(ph);
    if (in_set(c->packed, ph)) {
      for (unsigned p = 0; p < c->jam / 2; p++) {
        LLVMValueRef np = find(c, &c->pair[p], ph);
        for (unsigned i = 0; i < ni; i++) {
          LLVMBasicBlockRef from = LLVMGetIncomingBlock(ph, i);
          LLVMValueRef before = from == bb ? LLVMGetBasicBlockTerminator(bb) : NULL;
          LLVMValueRef v = wide(c, LLVMGetIncomingValue(ph, i), p, before);
          LLVMAddIncoming(np, &v, &from, 1);
        }
      }
      continue;
    }
    for (unsigned j = 1; j < c->jam; j++) {
      LLVMValueRef np = find(c, &c->row[j], ph);
      if (!np || LLVMCountIncoming(np))
        continue;
      for (unsigned i = 0; i < ni; i++) {
        LLVMValueRef v = narrow(c, LLVMGetIncomingValue(ph, i), j, in_tail);
        LLVMBasicBlockRef b = LLVMGetIncomingBlock(ph, i);
        LLVMAddIncoming(np, &v, &b, 1);
      }
    }
    for (unsigned i = 0; i < ni; i++) /* row 0: the original */
      if (in_set(c->packed, LLVMGetIncomingValue(ph, i)))
        LLVMSetOperand(ph, i, narrow(c, LLVMGetIncomingValue(ph, i), 0, in_tail));
  }
}

/* the packed originals, which only one another still use */
static void delete_packed(struct jam *c) {
  for (size_t i = 0; i < c->ndead; i++) {
#ifndef NDEBUG
    for (LLVMUseRef u = LLVMGetFirstUse(c->dead[i]); u; u = LLVMGetNextUse(u))
      assert(in_set(c->packed, LLVMGetUser(u)));
#endif
    LLVMReplaceAllUsesWith(c->dead[i], LLVMGetPoison(LLVMTypeOf(c->dead[i])));
  }
  for (size_t i = 0; i < c->ndead; i++)
    LLVMInstructionEraseFromParent(c->dead[i]);
}

void loom_rows_rewrite(const struct loom_rows *r, const struct loom_ptrmap *varying,
                       const struct loom_ptrmap *packed, unsigned jam) {
  assert(jam >= 2 && jam <= LOOM_MAX_JAM);
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(r->iv));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(ctx);
  struct jam c = {.r = r, .varying = varying, .packed = packed, .jam = jam};
  c.mod = LLVMGetGlobalParent(LLVMGetBasicBlockParent(r->head));
  c.aux = LLVMCreateBuilderInContext(ctx);
  /* the header: each row's inductions j rows further, then its code */
  LLVMPositionBuilderBefore(bld, loom_first_non_phi(r->head));
  for (unsigned j = 1; j < jam; j++)
    for (unsigned i = 0; i < r->nphi; i++) {
      LLVMTypeRef t = LLVMTypeOf(r->phi[i]);
      put(&c, &c.row[j], r->phi[i],
          LLVMBuildAdd(bld, r->phi[i], LLVMConstInt(t, (unsigned long long)(r->step[i] * j), 1), "row"));
    }
  copy_code(&c, bld, r->head);
  if (r->body) { /* the inner loop: phis, code, then the phis' values */
    copy_phis(&c, bld, r->body);
    copy_code(&c, bld, r->body);
    fill_phis(&c, r->body);
  }
  if (r->tail != r->head) { /* the values leaving the inner loop, then the code */
    copy_phis(&c, bld, r->tail);
    fill_phis(&c, r->tail);
    copy_code(&c, bld, r->tail);
  }
  /* the inductions step over all the rows */
  for (unsigned i = 0; i < r->nphi; i++) {
    LLVMTypeRef t = LLVMTypeOf(r->phi[i]);
    LLVMSetOperand(r->step_add[i], 1, LLVMConstInt(t, (unsigned long long)(r->step[i] * jam), 1));
  }
  delete_packed(&c);
  for (unsigned j = 0; j < LOOM_MAX_JAM; j++) {
    loom_ptrmap_free(&c.row[j]);
    loom_ptrmap_free(&c.tail_row[j]);
  }
  for (unsigned p = 0; p < MAX_PAIRS; p++)
    loom_ptrmap_free(&c.pair[p]);
  loom_ptrmap_free(&c.dup);
  free(c.vals);
  free(c.dead);
  LLVMDisposeBuilder(c.aux);
  LLVMDisposeBuilder(bld);
}

/* a vector of non-pointer elements whose doubled lanes fit a register */
static bool half_register(LLVMTypeRef t, unsigned simd_bytes) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return false;
  LLVMTypeRef e = LLVMGetElementType(t);
  unsigned eb = LLVMGetTypeKind(e) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(e) == 1
                    ? 1
                    : loom_family_element_bytes(e);
  return eb && 2 * LLVMGetVectorSize(t) * eb <= simd_bytes;
}

bool loom_rows_packable(LLVMValueRef in, unsigned simd_bytes) {
  LLVMTypeRef t = LLVMTypeOf(in);
  if (!half_register(t, simd_bytes))
    return false;
  unsigned n = LLVMGetVectorSize(t);
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  switch (op) {
  case LLVMPHI:
    return true;
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
  case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
  case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMFNeg: case LLVMFreeze:
    return true;
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
  case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
  case LLVMICmp: case LLVMFCmp:
    return half_register(LLVMTypeOf(LLVMGetOperand(in, 0)), simd_bytes);
  case LLVMSelect:
    return LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) == LLVMVectorTypeKind;
  case LLVMShuffleVector:
    return half_register(LLVMTypeOf(LLVMGetOperand(in, 0)), simd_bytes) &&
           2 * n <= 128 && 2 * LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(in, 0))) <= 128;
  case LLVMInsertElement: { /* into a vector, not into nothing (a scalar's splat: per row) */
    LLVMValueRef idx = LLVMGetOperand(in, 2);
    return LLVMIsAInstruction(LLVMGetOperand(in, 0)) && LLVMIsAConstantInt(idx) &&
           LLVMConstIntGetZExtValue(idx) < n;
  }
  case LLVMCall: {
    LLVMValueRef callee = LLVMGetCalledValue(in);
    size_t len;
    if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee) ||
        !loom_widenable_intrinsic(LLVMGetValueName2(callee, &len)) || LLVMGetNumArgOperands(in) > 8)
      return false;
    unsigned na = (unsigned)LLVMGetNumArgOperands(in);
    for (unsigned k = 0; k < na; k++) {
      LLVMTypeRef at = LLVMTypeOf(LLVMGetOperand(in, k));
      if (LLVMGetTypeKind(at) == LLVMVectorTypeKind && at != t)
        return false; /* overloaded on the result's type alone */
    }
    return true;
  }
  default:
    return false;
  }
}
