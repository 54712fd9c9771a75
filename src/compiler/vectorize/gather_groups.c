/* Gathers of a vector's components become whole loads and shuffles.
 *
 * A work-item that reads a float4 (float2 ... float16) from `p[id]` has its
 * vector split into scalars (scalarize-vectors), and the loop vectoriser
 * widens each component across work-items: component c of 16 work-items is
 * a gather from p + 16 * lane + 4 * c. LLVM would combine such a family
 * into wide loads and shuffles (interleaved access groups), but that is off:
 * in loops annotated parallel LLVM 19 moved such groups across a store
 * (vectorize/outer_loop.c). So the gathers stay, one per component, and a
 * kernel written with float16 read memory at 60% of the speed of the same
 * kernel written with float (clpeak: 16 against 28 GB/s).
 *
 * After O3 this pass finds, in one block, F = 2, 4, 8 or 16 unmasked
 * gathers of the same element type from one vector of pointers P, with
 * byte offsets 0, E, ..., (F - 1) E (E the element size), and nothing that
 * may write memory between the first and the last. At the first it tests at
 * run time that P's lanes are F * E bytes apart; then the family covers
 * exactly [P[0], P[0] + lanes * F * E): F consecutive vector loads, and
 * log2(F) rounds of even/odd shuffles separate the components. Otherwise
 * the gathers run as before. Loads and gathers read the same bytes, at the
 * place of the first gather: nothing moves across a store.
 *
 * When P is A + sext32(index) (an OpenCL `int` index, as O3 leaves it:
 * `ashr (shl X, 32), k`) and the index is u + <c, c + d, ...> across the
 * lanes, the test is one scalar compare instead (wrap_test): lane 0's 32-bit
 * index at most INT_MAX - (lanes - 1) d. The general test cost 16 vector
 * instructions a family on AVX-512; clpeak's float2 kernel read 26 GB/s
 * against float's 40, now 35. With that shape a lone gather (F = 1) is a
 * family too: lanes one element apart but for the 32-bit index, which the
 * loop vectoriser could not prove consecutive. */
#include "analysis/analysis.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FACTOR = 16 };

unsigned loom_family_element_bytes(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return 2;
  case LLVMFloatTypeKind: return 4;
  case LLVMDoubleTypeKind: return 8;
  case LLVMIntegerTypeKind: {
    unsigned bits = LLVMGetIntTypeWidth(t);
    return bits % 8 == 0 && bits <= 64 ? bits / 8 : 0;
  }
  default: return 0;
  }
}

/* a gather: its pointer vector as (base, constant byte offset) */
struct member {
  LLVMValueRef gather, base;
  long long offset;
};

/* the marks of the gathers and scatters left on a slow path */
static unsigned apart_kind(LLVMValueRef in, bool scatter) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(in));
  return scatter ? LLVMGetMDKindIDInContext(c, "loom.scatters.apart", 19)
                 : LLVMGetMDKindIDInContext(c, "loom.gathers.apart", 18);
}

bool loom_family_is_apart(LLVMValueRef in, bool scatter) {
  return LLVMGetMetadata(in, apart_kind(in, scatter)) != NULL;
}

void loom_family_mark_apart(LLVMValueRef in, bool scatter) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(in));
  LLVMSetMetadata(in, apart_kind(in, scatter), LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
}

LLVMValueRef loom_family_split_offset(LLVMValueRef p, long long *offset) {
  *offset = 0;
  /* p = getelementptr T, <N x ptr> base, i64 k (a scalar constant index) */
  if (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 &&
      LLVMIsAConstantInt(LLVMGetOperand(p, 1)) &&
      LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(p, 1))) == LLVMIntegerTypeKind) {
    unsigned scale = loom_family_element_bytes(LLVMGetGEPSourceElementType(p));
    if (scale) {
      *offset = LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1)) * (long long)scale;
      return LLVMGetOperand(p, 0);
    }
  }
  return p;
}

static bool as_member(LLVMValueRef in, struct member *m) {
  if (!loom_is_call_to_prefix(in, "llvm.masked.gather.") || !loom_all_ones_mask(LLVMGetOperand(in, 2)) ||
      loom_family_is_apart(in, false))
    return false;
  if (!loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(in))))
    return false;
  m->gather = in;
  m->base = loom_family_split_offset(LLVMGetOperand(in, 0), &m->offset);
  return LLVMGetTypeKind(LLVMTypeOf(m->base)) == LLVMVectorTypeKind;
}

bool loom_family_may_write(LLVMValueRef in) {
  if (LLVMIsAStoreInst(in) || LLVMIsAFenceInst(in) || LLVMIsAAtomicRMWInst(in) ||
      LLVMIsAAtomicCmpXchgInst(in))
    return true;
  if (LLVMIsACallInst(in))
    return !loom_is_call_to_prefix(in, "llvm.masked.gather.") &&
           !(LLVMIsAFunction(LLVMGetCalledValue(in)) && LLVMGetIntrinsicID(LLVMGetCalledValue(in)) &&
             loom_widenable_intrinsic(LLVMGetValueName2(LLVMGetCalledValue(in), &(size_t){0}))) &&
           !loom_is_call_to_prefix(in, "llvm.vector.reduce.");
  return LLVMIsALoadInst(in) && (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic);
}

static LLVMValueRef mask_even_odd(LLVMContextRef c, unsigned n, unsigned odd) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef e[2 * 64];
  for (unsigned i = 0; i < n; i++)
    e[i] = LLVMConstInt(i32, 2 * i + odd, 0);
  return LLVMConstVector(e, n);
}

/* columns[0..F) of the row-major stream held by v[0..F) (each N lanes) */
static void unzip(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef *v, unsigned f, unsigned n,
                  LLVMValueRef *columns) {
  if (f == 1) {
    columns[0] = v[0];
    return;
  }
  LLVMValueRef even[MAX_FACTOR / 2], odd[MAX_FACTOR / 2], ce[MAX_FACTOR / 2], co[MAX_FACTOR / 2];
  LLVMValueRef me = mask_even_odd(c, n, 0), mo = mask_even_odd(c, n, 1);
  for (unsigned k = 0; k < f / 2; k++) {
    even[k] = LLVMBuildShuffleVector(bld, v[2 * k], v[2 * k + 1], me, "unzip.even");
    odd[k] = LLVMBuildShuffleVector(bld, v[2 * k], v[2 * k + 1], mo, "unzip.odd");
  }
  /* the even elements of the stream are its even columns, in order */
  unzip(bld, c, even, f / 2, n, ce);
  unzip(bld, c, odd, f / 2, n, co);
  for (unsigned j = 0; j < f / 2; j++) {
    columns[2 * j] = ce[j];
    columns[2 * j + 1] = co[j];
  }
}

/* rows[0..count) side by side as one vector (count a power of two) */
static LLVMValueRef concat(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef *rows, unsigned count,
                           unsigned n) {
  if (count == 1)
    return rows[0];
  LLVMValueRef lo = concat(bld, c, rows, count / 2, n);
  LLVMValueRef hi = concat(bld, c, rows + count / 2, count / 2, n);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef e[128];
  for (unsigned i = 0; i < count * n; i++)
    e[i] = LLVMConstInt(i32, i, 0);
  return LLVMBuildShuffleVector(bld, lo, hi, LLVMConstVector(e, count * n), "unzip.concat");
}

/* With rows narrower than a register (float4 components over 8 work-items
 * on AVX-512) and the stream one or two registers, each column is one
 * two-source permutation of the stream (VPERMI2PS/VPERMT2PS, which LLVM
 * also pairs up): F = 4, n = 8 floats are 2 instructions from two 512-bit
 * loads, where the even/odd halving takes 12 (a SHUFPS and a VPERMPD per
 * 256-bit shuffle). AVX-512 only: AVX2 has no two-source permutation. */
bool loom_family_unzip_by_register(unsigned f, unsigned n, unsigned e, unsigned reg_bytes) {
  unsigned row_bytes = n * e;
  return reg_bytes >= 64 && f >= 2 && row_bytes && row_bytes < reg_bytes &&
         reg_bytes % row_bytes == 0 && f * row_bytes >= reg_bytes &&
         f * row_bytes <= 2 * reg_bytes && f * n <= 128;
}

void loom_family_columns(LLVMBuilderRef bld, LLVMValueRef lo, LLVMValueRef hi, unsigned f,
                         unsigned n, LLVMValueRef *columns) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(lo));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  if (!hi)
    hi = LLVMGetPoison(LLVMTypeOf(lo));
  for (unsigned k = 0; k < f; k++) {
    LLVMValueRef m[64];
    for (unsigned i = 0; i < n; i++)
      m[i] = LLVMConstInt(i32, k + (unsigned long long)i * f, 0);
    columns[k] = LLVMBuildShuffleVector(bld, lo, hi, LLVMConstVector(m, n), "unzip.column");
  }
}

void loom_family_unzip(LLVMBuilderRef bld, LLVMValueRef *rows, unsigned f, unsigned n,
                       unsigned reg_bytes, LLVMValueRef *columns) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(rows[0]));
  unsigned e = loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(rows[0])));
  if (!loom_family_unzip_by_register(f, n, e, reg_bytes)) {
    unzip(bld, c, rows, f, n, columns);
    return;
  }
  unsigned per = reg_bytes / (n * e);
  LLVMValueRef lo = concat(bld, c, rows, per, n);
  loom_family_columns(bld, lo, f > per ? concat(bld, c, rows + per, per, n) : NULL, f, n, columns);
}

struct loom_family_blocks loom_family_split(LLVMValueRef at, const char *whole,
                                           const char *apart) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(at));
  struct loom_family_blocks b;
  b.head = LLVMGetInstructionParent(at);
  b.join = loom_split_block(b.head, at);
  LLVMValueRef fn = LLVMGetBasicBlockParent(b.head);
  b.fast = LLVMAppendBasicBlockInContext(c, fn, whole);
  b.slow = LLVMAppendBasicBlockInContext(c, fn, apart);
  LLVMMoveBasicBlockAfter(b.fast, b.head);
  LLVMMoveBasicBlockAfter(b.slow, b.fast);
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(b.head));
  return b;
}

/* the shuffle every user of phi is (the same operands, phi and phi or
 * phi and a constant, and the same mask), or NULL */
static LLVMValueRef only_shuffle(LLVMValueRef phi) {
  LLVMValueRef first = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(phi); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef sh = LLVMGetUser(u);
    if (!LLVMIsAShuffleVectorInst(sh) || LLVMGetOperand(sh, 0) != phi ||
        (LLVMGetOperand(sh, 1) != phi && !LLVMIsConstant(LLVMGetOperand(sh, 1))))
      return NULL;
    if (!first) {
      first = sh;
      continue;
    }
    unsigned n = LLVMGetNumMaskElements(sh);
    if (n != LLVMGetNumMaskElements(first) || LLVMGetOperand(sh, 1) != LLVMGetOperand(first, 1))
      return NULL;
    for (unsigned i = 0; i < n; i++)
      if (LLVMGetMaskValue(sh, i) != LLVMGetMaskValue(first, i))
        return NULL;
  }
  return first;
}

/* A column whose only use is one shuffle (jam-rows' copy of a row-invariant
 * column into both halves of a register) gets it on each path instead,
 * where the code generator merges it into the shuffle that made the column:
 * one permutation, not two. */
static void shuffle_on_paths(LLVMBuilderRef bld, LLVMValueRef phi) {
  LLVMValueRef sh = only_shuffle(phi), mask = sh ? loom_shuffle_mask(sh) : NULL;
  if (!mask)
    return;
  bool twice = LLVMGetOperand(sh, 1) == phi;
  LLVMValueRef other = LLVMGetOperand(sh, 1);
  LLVMPositionBuilderBefore(bld, phi);
  LLVMValueRef np = LLVMBuildPhi(bld, LLVMTypeOf(sh), "component.shuffled");
  unsigned ni = LLVMCountIncoming(phi);
  for (unsigned i = 0; i < ni; i++) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, i);
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(from));
    LLVMValueRef x = LLVMBuildShuffleVector(bld, v, twice ? v : other, mask, "");
    LLVMAddIncoming(np, &x, &from, 1);
  }
  while (LLVMGetFirstUse(phi)) {
    LLVMValueRef user = LLVMGetUser(LLVMGetFirstUse(phi));
    LLVMReplaceAllUsesWith(user, np);
    LLVMInstructionEraseFromParent(user);
  }
  LLVMInstructionEraseFromParent(phi);
}

/* Rewrites one family: g[c] gathers component c of P's lanes. */
/* The test for the common shape of P, `getelementptr T, b, sext32(X) << s`
 * with b one pointer and X = u + <c, c + d, c + 2d, ...> (a 32-bit index,
 * from OpenCL's `int id`, sign-extended for the address): the lanes are
 * `stride` bytes apart exactly when lane 0's 32-bit index is at most
 * INT_MAX - (n - 1) d, so that no later lane wraps. One scalar compare,
 * where the general test compares every lane's address (two 512-bit
 * subtractions, compares and a mask test per family on AVX-512). O3 also
 * writes sext32(X + v) << s as `ashr (shl X, 32) + V, k` with V = v << 32
 * the same in every lane, and steps such a P by a scalar (`getelementptr
 * T, P, u`, a loop's `id + i * get_local_size(0)`): both keep the test.
 * An unsigned index (`zext32(X)`, a local id's arithmetic) wraps past
 * UINT_MAX instead: lane 0 at most UINT_MAX - (n - 1) d. */
enum { MAX_STEPS = 4 };
struct wrap_shape {
  LLVMValueRef b, x, hi; /* base, X, v (or NULL) */
  uint64_t sh, d;
  bool zext;             /* X zero-extended, not sign-extended */
  LLVMTypeRef elem;      /* T of the innermost GEP */
  unsigned steps;        /* the scalar steps, outermost first */
  LLVMTypeRef step_ty[MAX_STEPS];
  LLVMValueRef step[MAX_STEPS];
};

/* the scalar a splat vector repeats, or NULL */
static LLVMValueRef splat_scalar(LLVMValueRef v) {
  if (!loom_is_splat_shuffle(v) || !LLVMIsAInsertElementInst(LLVMGetOperand(v, 0)))
    return NULL;
  LLVMValueRef ins = LLVMGetOperand(v, 0), at = LLVMGetOperand(ins, 2);
  return LLVMIsAConstantInt(at) && LLVMConstIntGetZExtValue(at) == 0 ? LLVMGetOperand(ins, 1) : NULL;
}

/* v's low 32 bits are zero: a shift left by 32 or more, or a product of one */
static bool low_half_zero(LLVMValueRef v) {
  uint64_t k;
  if (!LLVMIsABinaryOperator(v))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMShl)
    return LLVMIsAConstantInt(LLVMGetOperand(v, 1)) &&
           (k = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1))) >= 32 && k < 64;
  return op == LLVMMul && (low_half_zero(LLVMGetOperand(v, 0)) || low_half_zero(LLVMGetOperand(v, 1)));
}

static bool wrap_shape(LLVMValueRef p, unsigned n, uint64_t stride, struct wrap_shape *w) {
  w->steps = 0;
  w->hi = NULL;
  w->zext = false;
  /* scalar steps: getelementptr T, <n x ptr> P, u */
  while (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 &&
         LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(p, 0))) == LLVMVectorTypeKind &&
         LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(p, 1))) == LLVMIntegerTypeKind) {
    if (w->steps == MAX_STEPS)
      return false;
    w->step_ty[w->steps] = LLVMGetGEPSourceElementType(p);
    w->step[w->steps++] = LLVMGetOperand(p, 1);
    p = LLVMGetOperand(p, 0);
  }
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
    return false;
  LLVMValueRef b = LLVMGetOperand(p, 0), idx = LLVMGetOperand(p, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(b)) == LLVMVectorTypeKind && !loom_lane_uniform(b))
    return false;
  LLVMValueRef x = NULL;
  uint64_t sh = 0, k, s32;
  if (LLVMIsABinaryOperator(idx) && LLVMGetInstructionOpcode(idx) == LLVMAShr) {
    /* ashr (shl X, 32), k = sext32(trunc X) << (32 - k) */
    LLVMValueRef shl = LLVMGetOperand(idx, 0);
    if (LLVMIsABinaryOperator(shl) && LLVMGetInstructionOpcode(shl) == LLVMAdd) {
      LLVMValueRef v = splat_scalar(LLVMGetOperand(shl, 1));
      if (!v || !low_half_zero(v))
        return false;
      w->hi = v;
      shl = LLVMGetOperand(shl, 0);
    }
    if (!loom_splat_int(LLVMGetOperand(idx, 1), &k) || k > 32 || !LLVMIsABinaryOperator(shl) ||
        LLVMGetInstructionOpcode(shl) != LLVMShl || !loom_splat_int(LLVMGetOperand(shl, 1), &s32) ||
        s32 != 32)
      return false;
    x = LLVMGetOperand(shl, 0);
    sh = 32 - k;
  } else if ((LLVMIsASExtInst(idx) || LLVMIsAZExtInst(idx)) &&
             LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(idx, 0)))) == 32) {
    x = LLVMGetOperand(idx, 0);
    w->zext = LLVMIsAZExtInst(idx);
  } else {
    return false;
  }
  uint64_t c[64];
  unsigned tz;
  if (n > 64 || !loom_lane_affine(x, c, &tz) || LLVMGetVectorSize(LLVMTypeOf(x)) != n)
    return false;
  uint64_t d = (c[1] - c[0]) & 0xffffffffu;
  uint64_t size = LLVMABISizeOfType(LLVMGetModuleDataLayout(LLVMGetGlobalParent(
                                        LLVMGetBasicBlockParent(LLVMGetInstructionParent(p)))),
                                    LLVMGetGEPSourceElementType(p));
  if (d == 0 || (uint64_t)(n - 1) * d >= (1u << 31) || (d << sh) * size != stride)
    return false;
  for (unsigned i = 2; i < n; i++)
    if (((c[i] - c[0]) & 0xffffffffu) != i * d)
      return false;
  w->b = b, w->x = x, w->sh = sh, w->d = d, w->elem = LLVMGetGEPSourceElementType(p);
  return true;
}

bool loom_family_wrap_testable(LLVMValueRef p, unsigned n, uint64_t stride) {
  struct wrap_shape w;
  return wrap_shape(p, n, stride, &w);
}

/* extra: elements the family's members reach past lane n - 1 of p through
 * their own indices (index_families.c) */
static LLVMValueRef wrap_test(LLVMBuilderRef bld, LLVMValueRef p, unsigned n, uint64_t stride,
                              unsigned extra, LLVMValueRef *p0) {
  struct wrap_shape w;
  if (!wrap_shape(p, n, stride, &w))
    return NULL;
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMBasicBlockRef at = LLVMGetInsertBlock(bld); /* the test's block, built at its end */
  LLVMValueRef x0 = loom_lane0_affine(bld, w.x);
  LLVMPositionBuilderAtEnd(bld, at);
  if (!x0)
    x0 = LLVMBuildExtractElement(bld, w.x, LLVMConstInt(i32, 0, 0), "index0");
  if (LLVMGetIntTypeWidth(LLVMTypeOf(x0)) != 32)
    x0 = LLVMBuildTrunc(bld, x0, i32, "");
  if (w.hi) /* X + v in 32 bits, as the shifted sum has it */
    x0 = LLVMBuildAdd(bld, x0, LLVMBuildTrunc(bld, LLVMBuildLShr(bld, w.hi, LLVMConstInt(i64, 32, 0), ""),
                                             i32, ""), "");
  /* lane 0's address from the scalar index, not out of the vector of addresses */
  LLVMValueRef off = LLVMBuildShl(bld, w.zext ? LLVMBuildZExt(bld, x0, i64, "") : LLVMBuildSExt(bld, x0, i64, ""),
                                  LLVMConstInt(i64, w.sh, 0), "");
  LLVMValueRef b0 = LLVMGetTypeKind(LLVMTypeOf(w.b)) == LLVMVectorTypeKind ? loom_lane0_scalar(bld, w.b) : w.b;
  LLVMPositionBuilderAtEnd(bld, at); /* loom_lane0_scalar may have moved it */
  *p0 = LLVMBuildGEP2(bld, w.elem, b0, &off, 1, "p0");
  for (unsigned s = w.steps; s-- > 0;)
    *p0 = LLVMBuildGEP2(bld, w.step_ty[s], *p0, &w.step[s], 1, "p0");
  uint64_t reach = (uint64_t)(n - 1) * w.d + extra; /* below 2^31 + 64: wrap_shape */
  if (w.zext)
    return LLVMBuildICmp(bld, LLVMIntULE, x0, LLVMConstInt(i32, 0xffffffffu - reach, 0),
                         "gathers_whole");
  if (reach > 0x7fffffffu) /* no lane 0 keeps the last lane in range */
    return LLVMConstInt(LLVMInt1TypeInContext(ctx), 0, 0);
  return LLVMBuildICmp(bld, LLVMIntSLE, x0, LLVMConstInt(i32, 0x7fffffffu - reach, 0), "gathers_whole");
}

/* The general test: every lane's address is lane 0's plus i * stride. */
static LLVMValueRef lanes_test(LLVMBuilderRef bld, LLVMValueRef base, LLVMValueRef p0, unsigned n,
                               uint64_t stride) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(base));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), vi64 = LLVMVectorType(i64, n);
  LLVMValueRef lanes = LLVMBuildPtrToInt(bld, base, vi64, "");
  LLVMValueRef start = LLVMBuildPtrToInt(bld, p0, i64, "");
  LLVMValueRef splat = LLVMBuildShuffleVector(
      bld, LLVMBuildInsertElement(bld, LLVMGetPoison(vi64), start, LLVMConstInt(i64, 0, 0), ""),
      LLVMGetPoison(vi64), LLVMConstNull(LLVMVectorType(LLVMInt32TypeInContext(c), n)), "");
  LLVMValueRef step[64];
  for (unsigned i = 0; i < n; i++)
    step[i] = LLVMConstInt(i64, (unsigned long long)i * stride, 0);
  LLVMValueRef same = LLVMBuildICmp(bld, LLVMIntEQ, LLVMBuildSub(bld, lanes, splat, ""),
                                    LLVMConstVector(step, n), "");
  LLVMTypeRef in = LLVMIntTypeInContext(c, n);
  return LLVMBuildICmp(bld, LLVMIntEQ, LLVMBuildBitCast(bld, same, in, ""), LLVMConstAllOnes(in),
                       "gathers_whole");
}

LLVMValueRef loom_family_contiguous_test(LLVMBuilderRef bld, LLVMValueRef base, unsigned n,
                                         uint64_t stride, unsigned extra, LLVMValueRef *p0) {
  LLVMValueRef whole = wrap_test(bld, base, n, stride, extra, p0);
  assert(whole || !extra); /* the callers tested loom_family_wrap_testable */
  if (!whole) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(base)));
    *p0 = LLVMBuildExtractElement(bld, base, LLVMConstInt(i64, 0, 0), "p0");
    whole = lanes_test(bld, base, *p0, n, stride);
  }
  return whole;
}

/* Moves v from the test's block to the top of the slow block when only the
 * slow block uses it,
 * then its operands the same way (each above everything there, its users
 * included): the vector of addresses and the index
 * arithmetic behind it then cost nothing (and hold no registers) while the
 * lanes are contiguous. Pure operations only; phis, loads and calls stay. */
void loom_family_sink_into_slow(LLVMBuilderRef bld, LLVMValueRef v, LLVMBasicBlockRef head,
                                LLVMBasicBlockRef slow, int depth) {
  if (depth > 12 || !LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != head)
    return;
  if (!LLVMIsABinaryOperator(v) && !LLVMIsACastInst(v) && !LLVMIsAGetElementPtrInst(v) &&
      !LLVMIsAShuffleVectorInst(v) && !LLVMIsAInsertElementInst(v) &&
      !LLVMIsAExtractElementInst(v) && !LLVMIsAICmpInst(v) && !LLVMIsASelectInst(v))
    return;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != slow)
      return;
  }
  size_t len;
  char *name = strdup(LLVMGetValueName2(v, &len));
  LLVMInstructionRemoveFromParent(v);
  LLVMPositionBuilderBefore(bld, LLVMGetFirstInstruction(slow));
  LLVMInsertIntoBuilderWithName(bld, v, name ? name : "");
  free(name);
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned i = 0; i < n; i++)
    loom_family_sink_into_slow(bld, LLVMGetOperand(v, i), head, slow, depth + 1);
}

/* the F columns of the stream of F n-lane rows at p0 */
static void load_columns(LLVMBuilderRef bld, LLVMTypeRef vt, LLVMValueRef p0, unsigned f,
                         unsigned reg, LLVMValueRef *cols) {
  LLVMContextRef c = LLVMGetTypeContext(vt);
  LLVMTypeRef et = LLVMGetElementType(vt), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
  LLVMValueRef rows[MAX_FACTOR];
  if (loom_family_unzip_by_register(f, n, e, reg)) { /* one or two whole registers */
    LLVMTypeRef wt = LLVMVectorType(et, reg / e);
    for (unsigned j = 0; j * reg < f * n * e; j++) {
      LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)j * reg, 0);
      rows[j] = LLVMBuildLoad2(bld, wt, LLVMBuildGEP2(bld, i8, p0, &off, 1, ""), "gathers.rows");
      LLVMSetAlignment(rows[j], e);
    }
    loom_family_columns(bld, rows[0], f * n * e > reg ? rows[1] : NULL, f, n, cols);
    return;
  }
  for (unsigned j = 0; j < f; j++) {
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)j * n * e, 0);
    rows[j] = LLVMBuildLoad2(bld, vt, LLVMBuildGEP2(bld, i8, p0, &off, 1, ""), "gathers.row");
    LLVMSetAlignment(rows[j], e);
  }
  unzip(bld, c, rows, f, n, cols);
}

/* Is v defined before `at` (in at's block, or another one: then it
 * dominates at)? A pure instruction defined after it is moved just before
 * it, when its operands are or can be; false when v cannot be. */
static bool ready_at(LLVMBuilderRef bld, LLVMValueRef v, LLVMValueRef at, int depth) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != LLVMGetInstructionParent(at))
    return true;
  for (LLVMValueRef i = LLVMGetNextInstruction(v); i; i = LLVMGetNextInstruction(i))
    if (i == at)
      return true;
  if (v == at || depth > 12 || LLVMIsAPHINode(v) ||
      (!LLVMIsABinaryOperator(v) && !LLVMIsACastInst(v) && !LLVMIsAGetElementPtrInst(v) &&
       !LLVMIsAShuffleVectorInst(v) && !LLVMIsAInsertElementInst(v)))
    return false;
  for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(v); i++)
    if (!ready_at(bld, LLVMGetOperand(v, i), at, depth + 1))
      return false;
  LLVMPositionBuilderBefore(bld, at);
  loom_move_instruction(bld, v);
  return true;
}

/* indexed: the members have their own addresses (index_families.c), not
 * base + k E */
static void rewrite(LLVMValueRef *g, unsigned f, LLVMValueRef base, bool indexed) {
  LLVMValueRef first = g[0];
  for (unsigned c = 1; c < f; c++) /* the earliest member in the block */
    for (LLVMValueRef i = LLVMGetNextInstruction(g[c]); i; i = LLVMGetNextInstruction(i))
      if (i == first) {
        first = g[c];
        break;
      }
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(first));
  LLVMTypeRef vt = LLVMTypeOf(first), et = LLVMGetElementType(vt);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);

  /* head: the test; fast: loads and shuffles; slow: the gathers; join */
  struct loom_family_blocks blocks = loom_family_split(first, "gathers.whole", "gathers.apart");
  LLVMBasicBlockRef head = blocks.head, fast = blocks.fast, slow = blocks.slow, join = blocks.join;
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef p0 = NULL;
  LLVMValueRef whole = loom_family_contiguous_test(bld, base, n, (uint64_t)f * e, indexed ? f - 1 : 0, &p0);
  loom_build_test_branch(bld, whole, fast, slow);

  LLVMPositionBuilderAtEnd(bld, fast);
  LLVMValueRef cols[MAX_FACTOR];
  load_columns(bld, vt, p0, f, loom_preferred_vector_bits(LLVMGetBasicBlockParent(fast)) / 8, cols);
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderAtEnd(bld, slow);
  LLVMValueRef apart[MAX_FACTOR];
  for (unsigned k = 0; k < f; k++) {
    LLVMValueRef gk = LLVMInstructionClone(g[k]);
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)k * e, 0);
    if (!indexed)
      LLVMSetOperand(gk, 0, k ? LLVMBuildGEP2(bld, i8, base, &off, 1, "") : base);
    LLVMInsertIntoBuilder(bld, gk);
    loom_family_mark_apart(gk, false);
    apart[k] = gk;
  }
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderBefore(bld, LLVMGetFirstInstruction(join));
  LLVMValueRef phis[MAX_FACTOR];
  for (unsigned k = 0; k < f; k++) {
    phis[k] = LLVMBuildPhi(bld, vt, "component");
    LLVMValueRef vals[2] = {cols[k], apart[k]};
    LLVMBasicBlockRef from[2] = {fast, slow};
    LLVMAddIncoming(phis[k], vals, from, 2);
  }
  for (unsigned k = 0; k < f; k++) { /* after the phis: the first is the builder's place */
    LLVMValueRef ptr = LLVMGetOperand(g[k], 0);
    LLVMReplaceAllUsesWith(g[k], phis[k]);
    LLVMInstructionEraseFromParent(g[k]);
    /* a member's own address (base + k * e) is dead now; left, it would
     * keep the vector of addresses on the fast path */
    if (ptr != base && LLVMIsAGetElementPtrInst(ptr) && !LLVMGetFirstUse(ptr))
      LLVMInstructionEraseFromParent(ptr);
    else if (indexed)
      loom_family_sink_into_slow(bld, ptr, head, slow, 0);
  }
  loom_family_sink_into_slow(bld, base, head, slow, 0);
  for (unsigned k = 0; k < f; k++)
    shuffle_on_paths(bld, phis[k]);
  /* the blocks after head keep their phis' incoming block: join ends as head did */
  LLVMDisposeBuilder(bld);
}

/* The family of m[a] whose members have their own indices (index_families.c):
 * its factor F (members in g[0..F)), or 0 (g[1..] left empty). */
static unsigned indexed_family(const struct member *m, unsigned nm, unsigned a, unsigned e,
                               LLVMValueRef *g) {
  LLVMValueRef p = m[a].base;
  LLVMTypeRef vt = LLVMTypeOf(m[a].gather);
  if (!LLVMIsAGetElementPtrInst(p) ||
      LLVMABISizeOfType(LLVMGetModuleDataLayout(LLVMGetGlobalParent(LLVMGetBasicBlockParent(
                            LLVMGetInstructionParent(p)))),
                        LLVMGetGEPSourceElementType(p)) != e)
    return 0;
  unsigned have = 1;
  for (unsigned b = 0; b < nm; b++) {
    long long k;
    if (b == a || m[b].offset || LLVMTypeOf(m[b].gather) != vt ||
        !loom_family_index_delta(p, m[b].base, &k) || k <= 0 || k >= MAX_FACTOR || g[k])
      continue;
    g[k] = m[b].gather;
    have++;
  }
  unsigned f = 1;
  while (f < MAX_FACTOR && g[f])
    f++;
  if (f < 2 || (f & (f - 1)) || f != have ||
      !loom_family_wrap_testable(p, LLVMGetVectorSize(vt), (uint64_t)f * e)) {
    for (unsigned k = 1; k < MAX_FACTOR; k++)
      g[k] = NULL;
    return 0;
  }
  return f;
}

/* The family m[a] begins (its members in g[0..F), F returned; 0: none):
 * members at m[a]'s pointer plus k E, else with their own indices
 * (*indexed). A lone gather (F = 1) counts. */
static unsigned family_of(const struct member *m, unsigned nm, unsigned a, LLVMValueRef *g,
                          bool *indexed) {
  *indexed = false;
  if (m[a].offset != 0)
    return 0;
  LLVMTypeRef vt = LLVMTypeOf(m[a].gather);
  unsigned e = loom_family_element_bytes(LLVMGetElementType(vt));
  for (unsigned k = 0; k < MAX_FACTOR; k++)
    g[k] = NULL;
  unsigned have = 0;
  for (unsigned b = 0; b < nm; b++) {
    if (m[b].base != m[a].base || LLVMTypeOf(m[b].gather) != vt || m[b].offset < 0 ||
        m[b].offset % e || m[b].offset / e >= MAX_FACTOR || g[m[b].offset / e])
      continue;
    g[m[b].offset / e] = m[b].gather;
    have++;
  }
  unsigned f = 1;
  while (f < MAX_FACTOR && g[f])
    f++;
  if (f == 1 && have == 1) {
    unsigned fi = indexed_family(m, nm, a, e, g);
    if (fi)
      f = have = fi, *indexed = true;
  }
  if ((f & (f - 1)) || f != have || LLVMGetVectorSize(vt) > 64)
    return 0;
  return f;
}

/* every copy family of the block (copy_groups.c) rewritten at once, or
 * else one of them: true if one was */
static bool rewrite_copies(const struct member *m, unsigned nm) {
  struct loom_copy_family fams[16];
  unsigned nf = 0;
  for (unsigned a = 0; a < nm && nf < 16; a++) {
    bool taken = false;
    for (unsigned i = 0; i < nf && !taken; i++)
      for (unsigned k = 0; k < fams[i].f; k++)
        taken |= fams[i].g[k] == m[a].gather;
    struct loom_copy_family *c = &fams[nf];
    if (!taken && (c->f = family_of(m, nm, a, c->g, &c->p_indexed)) > 1) {
      c->p = m[a].base;
      nf += loom_family_copy_candidate(c);
    }
  }
  if (nf > 1 && loom_family_copy_set(fams, nf))
    return true;
  for (unsigned i = 0; i < nf; i++)
    if (loom_family_copy_set(&fams[i], 1))
      return true;
  return false;
}

/* one family found in bb and rewritten: true (bb has changed; look again) */
static bool rewrite_one(LLVMBasicBlockRef bb) {
  struct member m[64];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
    if (nm == 64)
      break;
    if (as_member(in, &m[nm]))
      nm++;
  }
  if (rewrite_copies(m, nm))
    return true;
  for (unsigned a = 0; a < nm; a++) {
    LLVMValueRef g[MAX_FACTOR];
    bool indexed;
    unsigned f = family_of(m, nm, a, g, &indexed);
    if (!f)
      continue;
    LLVMTypeRef vt = LLVMTypeOf(m[a].gather);
    unsigned e = loom_family_element_bytes(LLVMGetElementType(vt));
    /* one gather whose lanes are consecutive elements but for a 32-bit
     * index that might wrap (`A[id + i * get_local_size(0)]` with int id):
     * one vector load behind the scalar test; other single gathers stay */
    struct wrap_shape shape;
    if (f == 1 && !wrap_shape(m[a].base, LLVMGetVectorSize(vt), e, &shape))
      continue;
    /* nothing between the family's first and last member may write memory */
    unsigned seen = 0;
    bool ok = true;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && seen < f && ok; in = LLVMGetNextInstruction(in)) {
      bool member = false;
      for (unsigned k = 0; k < f; k++)
        member |= g[k] == in;
      if (member)
        seen++;
      else if (seen && loom_family_may_write(in))
        ok = false;
    }
    /* members with their own addresses: each ready where the first is */
    LLVMValueRef first = NULL;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !first; in = LLVMGetNextInstruction(in))
      for (unsigned k = 0; k < f; k++)
        first = g[k] == in ? in : first;
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(first)));
    for (unsigned k = 0; k < f && ok && indexed; k++)
      ok = ready_at(bld, LLVMGetOperand(g[k], 0), first, 0);
    LLVMDisposeBuilder(bld);
    if (!ok)
      continue;
    rewrite(g, f, m[a].base, indexed);
    return true;
  }
  return false;
}

/* Vectors of addresses into a __local array, `getelementptr [N x T], b, 0,
 * <i64 x>` (O3 keeps the array type of a __local variable), become
 * `getelementptr T, b, <i64 x>`, the form the families are read in. */
static void flatten_array_addresses(LLVMValueRef f, LLVMBuilderRef bld) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      LLVMValueRef zero = LLVMIsAGetElementPtrInst(in) && LLVMGetNumOperands(in) == 3 ? LLVMGetOperand(in, 1) : NULL;
      LLVMTypeRef at = zero ? LLVMGetGEPSourceElementType(in) : NULL;
      if (zero && LLVMGetTypeKind(at) == LLVMArrayTypeKind && LLVMIsAConstantInt(zero) &&
          !LLVMConstIntGetZExtValue(zero) && LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVectorTypeKind &&
          LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) != LLVMVectorTypeKind &&
          LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 2))) == LLVMVectorTypeKind &&
          loom_family_element_bytes(LLVMGetElementType(at))) {
        LLVMPositionBuilderBefore(bld, in);
        LLVMValueRef idx = LLVMGetOperand(in, 2);
        LLVMValueRef g = LLVMIsInBounds(in)
                             ? LLVMBuildInBoundsGEP2(bld, LLVMGetElementType(at), LLVMGetOperand(in, 0), &idx, 1, "")
                             : LLVMBuildGEP2(bld, LLVMGetElementType(at), LLVMGetOperand(in, 0), &idx, 1, "");
        LLVMReplaceAllUsesWith(in, g);
        LLVMInstructionEraseFromParent(in);
      }
      in = next;
    }
}

bool loom_combine_component_gathers(LLVMModuleRef m) {
  bool changed = false;
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      flatten_array_addresses(f, bld);
  LLVMDisposeBuilder(bld);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      changed |= rewrite_one(bb); /* the rest of bb moved to a block that comes up later */
  return changed;
}
