/* Which kernels' vector values are split into scalars before O3.
 *
 * The loop vectoriser widens only scalar values, so a work-item loop over
 * float4 or double4 code is left to the SLP vectoriser, which packs each
 * work-item's components into one register: a quarter of it for a float4
 * on AVX-512, and math builtins with selects and branches it often leaves
 * scalar. Split into scalars, the loop vectoriser runs the work-item loop
 * at the full width (double4 atan: 48 -> 210 Melem/s on AVX-512). A
 * kernel that already computes on full-register vectors (float16, double8
 * on AVX-512) is better left alone: SLP keeps it at the full width, while
 * the split version strides over 8 or 16 components per work-item, more
 * than x86's interleaved accesses handle (at most 4), and becomes gathers
 * and scatters (double8 exp: 530 -> 130 Melem/s). wg-function decides per
 * kernel (workgroup/wg_function.c keep_vectors_whole, from the widest
 * vector below) and marks the kernels that keep their vectors whole; the
 * pass scalarize-vectors (pipeline.c) splits the others'. */
#include "workgroup/workgroup.h"
#include "vectorize/vectorize.h"

/* the vector width a work-group function was made for, in bits (0 if none) */
unsigned loom_preferred_vector_bits(LLVMValueRef f) {
  unsigned bits = 0, len;
  LLVMAttributeRef a =
      LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "prefer-vector-width", 19);
  if (a) {
    const char *v = LLVMGetStringAttributeValue(a, &len);
    for (unsigned k = 0; k < len && v[k] >= '0' && v[k] <= '9'; k++)
      bits = bits * 10 + (unsigned)(v[k] - '0');
  }
  return bits;
}

static unsigned vector_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  LLVMTypeRef e = LLVMGetElementType(t);
  unsigned eb = LLVMGetTypeKind(e) == LLVMPointerTypeKind ? 64
                : LLVMGetTypeKind(e) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(e)
                : LLVMGetTypeKind(e) == LLVMHalfTypeKind    ? 16
                : LLVMGetTypeKind(e) == LLVMFloatTypeKind   ? 32
                                                            : 64;
  return eb * LLVMGetVectorSize(t);
}

unsigned loom_widest_vector_bits(LLVMValueRef f) {
  unsigned widest = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      unsigned b = vector_bits(LLVMTypeOf(in));
      if (LLVMIsAStoreInst(in))
        b = vector_bits(LLVMTypeOf(LLVMGetOperand(in, 0)));
      widest = b > widest ? b : widest;
    }
  return widest;
}


/* `icmp eq/ne (bitcast <N x i1> V to iN), C` with C 0 or all ones: is any /
 * every lane of V set. InstCombine writes any()/all() of a comparison this
 * way (the builtins' __builtin_reduce_or/and), and the scalarizer leaves
 * the bitcast whole, a vector instruction the loop vectoriser refuses
 * ("instruction return type cannot be vectorized"): the image builtins'
 * bounds tests kept image loops scalar. As an or/and of V's lanes it is
 * scalar code that InstCombine folds through V's insertelements. */
static bool split_mask_test(LLVMBuilderRef b, LLVMValueRef cmp) {
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  LLVMValueRef cast = LLVMGetOperand(cmp, 0), c = LLVMGetOperand(cmp, 1);
  if ((pred != LLVMIntEQ && pred != LLVMIntNE) || !LLVMIsABitCastInst(cast) ||
      !LLVMIsAConstantInt(c))
    return false;
  LLVMValueRef v = LLVMGetOperand(cast, 0);
  LLVMTypeRef vt = LLVMTypeOf(v);
  if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind ||
      LLVMGetTypeKind(LLVMGetElementType(vt)) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(LLVMGetElementType(vt)) != 1)
    return false;
  unsigned n = LLVMGetVectorSize(vt);
  bool all_ones = LLVMConstIntGetZExtValue(c) == (n >= 64 ? ~0ull : (1ull << n) - 1);
  if (LLVMConstIntGetZExtValue(c) != 0 && !all_ones)
    return false;
  LLVMContextRef ctx = LLVMGetTypeContext(vt);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMPositionBuilderBefore(b, cmp);
  LLVMValueRef acc = LLVMBuildExtractElement(b, v, LLVMConstInt(i32, 0, 0), "");
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef lane = LLVMBuildExtractElement(b, v, LLVMConstInt(i32, i, 0), "");
    acc = all_ones ? LLVMBuildAnd(b, acc, lane, "") : LLVMBuildOr(b, acc, lane, "");
  }
  /* any: (V != 0) is the or; all: (V == ~0) is the and; the other
   * predicate is its negation */
  bool negate = all_ones ? pred == LLVMIntNE : pred == LLVMIntEQ;
  if (negate)
    acc = LLVMBuildNot(b, acc, "");
  LLVMReplaceAllUsesWith(cmp, acc);
  LLVMInstructionEraseFromParent(cmp);
  return true;
}

void loom_split_mask_tests(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!loom_is_wg_function(f))
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (LLVMIsAICmpInst(in))
          split_mask_test(b, in);
      }
  }
  LLVMDisposeBuilder(b);
}

/* A vector of 8- or 16-bit integers of 2 to 8 bytes (uchar4, short2,
 * uchar8, ...) loaded or stored as one integer: the scalarizer would split
 * it into a load per component, and a work-item loop reading uchar4 pixels
 * at computed addresses into one byte gather per component, which x86 does
 * not have (LLVM's cost model then keeps the loop scalar). As one 16-, 32-
 * or 64-bit access the loop gathers one element a work-item and unpacks it
 * with shifts. The components come out of (go into) the integer with
 * shifts and truncations (or-ed zero extensions), which the scalarizer
 * passes through as scalars. */
static unsigned narrow_vector_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  LLVMTypeRef e = LLVMGetElementType(t);
  if (LLVMGetTypeKind(e) != LLVMIntegerTypeKind)
    return 0;
  unsigned eb = LLVMGetIntTypeWidth(e), bits = eb * LLVMGetVectorSize(t);
  return (eb == 8 || eb == 16) && (bits == 16 || bits == 32 || bits == 64) ? bits : 0;
}

static void copy_access_group(LLVMValueRef from, LLVMValueRef to, unsigned kind) {
  LLVMValueRef md = LLVMGetMetadata(from, kind);
  if (md)
    LLVMSetMetadata(to, kind, md);
}

static void pack_load(LLVMBuilderRef b, LLVMValueRef load, unsigned bits, unsigned group) {
  LLVMTypeRef vt = LLVMTypeOf(load), et = LLVMGetElementType(vt);
  LLVMContextRef c = LLVMGetTypeContext(vt);
  LLVMTypeRef it = LLVMIntTypeInContext(c, bits);
  unsigned eb = LLVMGetIntTypeWidth(et), n = LLVMGetVectorSize(vt);
  LLVMPositionBuilderBefore(b, load);
  LLVMValueRef w = LLVMBuildLoad2(b, it, LLVMGetOperand(load, 0), "packed");
  LLVMSetAlignment(w, LLVMGetAlignment(load));
  copy_access_group(load, w, group);
  LLVMValueRef v = LLVMGetPoison(vt);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef part = i ? LLVMBuildLShr(b, w, LLVMConstInt(it, i * eb, 0), "") : w;
    v = LLVMBuildInsertElement(b, v, LLVMBuildTrunc(b, part, et, ""),
                               LLVMConstInt(LLVMInt32TypeInContext(c), i, 0), "");
  }
  LLVMReplaceAllUsesWith(load, v);
  LLVMInstructionEraseFromParent(load);
}

static void pack_store(LLVMBuilderRef b, LLVMValueRef store, unsigned bits, unsigned group) {
  LLVMValueRef val = LLVMGetOperand(store, 0);
  LLVMTypeRef vt = LLVMTypeOf(val);
  LLVMContextRef c = LLVMGetTypeContext(vt);
  LLVMTypeRef it = LLVMIntTypeInContext(c, bits);
  unsigned eb = LLVMGetIntTypeWidth(LLVMGetElementType(vt)), n = LLVMGetVectorSize(vt);
  LLVMPositionBuilderBefore(b, store);
  LLVMValueRef w = NULL;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMBuildExtractElement(b, val, LLVMConstInt(LLVMInt32TypeInContext(c), i, 0), "");
    /* a poison lane would poison the whole packed integer (and InstCombine
     * then deletes the store), where the vector store wrote the other
     * lanes: a uchar3 is stored as a <4 x i8> whose padding lane is poison,
     * a partly written vector has poison lanes */
    LLVMValueRef part = LLVMBuildZExt(b, LLVMBuildFreeze(b, e, ""), it, "");
    if (i)
      part = LLVMBuildShl(b, part, LLVMConstInt(it, i * eb, 0), "");
    w = w ? LLVMBuildOr(b, w, part, "") : part;
  }
  LLVMValueRef st = LLVMBuildStore(b, w, LLVMGetOperand(store, 1));
  LLVMSetAlignment(st, LLVMGetAlignment(store));
  copy_access_group(store, st, group);
  LLVMInstructionEraseFromParent(store);
}

void loom_pack_narrow_vector_memops(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned group = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (loom_wg_keeps_vectors_whole(f))
      continue;
    if (!loom_is_wg_function(f))
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        unsigned bits;
        if (LLVMIsALoadInst(in) && !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic &&
            (bits = narrow_vector_bits(LLVMTypeOf(in))))
          pack_load(b, in, bits, group);
        else if (LLVMIsAStoreInst(in) && !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic &&
                 (bits = narrow_vector_bits(LLVMTypeOf(LLVMGetOperand(in, 0)))))
          pack_store(b, in, bits, group);
      }
  }
  LLVMDisposeBuilder(b);
}
