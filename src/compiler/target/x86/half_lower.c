/* Without AVX-512 FP16, x86 computes on half by converting each operand to
 * float and the result back, which rounds + - * / and sqrt correctly (float
 * has more than 2 * 11 + 2 bits; a contracted a * b + c is expanded into the
 * two rounded operations). LLVM 19 handles three other cases badly, and this
 * pass rewrites them just before code generation:
 *  - fneg, llvm.fabs and llvm.copysign also go through float, quieting
 *    signalling NaNs that as_half(as_short(x) ^ 0x8000) must keep: they
 *    become integer operations on the sign bit (two conversions fewer, too);
 *  - fptrunc from double calls a scalar libgcc routine per element: it
 *    becomes a conversion to float rounded to odd (the float neighbour with
 *    an odd significand when inexact), whose rounding to half is correct,
 *    and which vectorises;
 *  - with AVX-512 FP16, vectorised half comparisons (vcmpph) came out wrong
 *    in some lanes of large loop bodies (lgamma_r on half4 through a generic
 *    pointer: lanes 2 and 3); comparing the float extensions, which is
 *    exact, avoids the instruction;
 *  - without AVX-512 FP16, arithmetic on vectors of half is scalarised
 *    (arithmetic_as_float). */
#include "target/x86/half_lower.h"
#include "support/llvm_util.h"
#include <string.h>

static bool is_vector(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVectorTypeKind; }

/* the scalar type of t (t itself or its element type) */
static LLVMTypeRef scalar_of(LLVMTypeRef t) { return is_vector(t) ? LLVMGetElementType(t) : t; }

static bool is_half_type(LLVMTypeRef t) { return LLVMGetTypeKind(scalar_of(t)) == LLVMHalfTypeKind; }

/* `elem` in t's shape (a vector of the same length when t is one) */
static LLVMTypeRef shaped(LLVMTypeRef t, LLVMTypeRef elem) {
  return is_vector(t) ? LLVMVectorType(elem, LLVMGetVectorSize(t)) : elem;
}

/* a constant of type t (an integer or a vector of them) with every element v */
static LLVMValueRef splat(LLVMTypeRef t, long long v) {
  if (!is_vector(t))
    return LLVMConstInt(t, (unsigned long long)v, 1);
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef e = LLVMConstInt(LLVMGetElementType(t), (unsigned long long)v, 1), elems[256];
  if (n > 256)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    elems[i] = e;
  return LLVMConstVector(elems, n);
}

/* the intrinsic family a call targets ("llvm.fabs." ...), or NULL */
static const char *intrinsic_of(LLVMValueRef inst) {
  static const char *const names[] = {"llvm.fabs.", "llvm.copysign.", NULL};
  for (int i = 0; names[i]; i++)
    if (loom_is_call_to_prefix(inst, names[i]))
      return names[i];
  return NULL;
}

static LLVMValueRef fabs_of(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned id = LLVMLookupIntrinsicID("llvm.fabs", 9);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
  return LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &t, 1), f, &x, 1, "");
}

/* fptrunc x (double or a vector of them) to half, rounded once */
static LLVMValueRef trunc_double(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x,
                                 LLVMTypeRef to) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ft = shaped(to, LLVMFloatTypeInContext(c)), it = shaped(to, LLVMInt32TypeInContext(c));
  LLVMValueRef one = splat(it, 1), zero = splat(it, 0), minus = splat(it, -1);
  if (!one)
    return NULL;
  LLVMValueRef f = LLVMBuildFPTrunc(b, x, ft, "");
  LLVMValueRef back = LLVMBuildFPExt(b, f, LLVMTypeOf(x), "");
  LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealONE, back, x, ""); /* false for NaN */
  LLVMValueRef bits = LLVMBuildBitCast(b, f, it, "");
  LLVMValueRef even = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, bits, one, ""), zero, "");
  /* |f| > |x|: one step toward zero (-1 on the magnitude), else away */
  LLVMValueRef down = LLVMBuildFCmp(b, LLVMRealOGT, fabs_of(m, b, back), fabs_of(m, b, x), "");
  LLVMValueRef step = LLVMBuildSelect(b, down, minus, one, "");
  step = LLVMBuildSelect(b, LLVMBuildAnd(b, inexact, even, ""), step, zero, "");
  LLVMValueRef odd = LLVMBuildBitCast(b, LLVMBuildAdd(b, bits, step, ""), ft, "");
  return LLVMBuildFPTrunc(b, odd, to, "");
}

/* fcmp on half operands as fcmp on their (exact) float extensions */
static LLVMValueRef compare_as_float(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef inst) {
  LLVMValueRef x = LLVMGetOperand(inst, 0), y = LLVMGetOperand(inst, 1);
  LLVMTypeRef ft = shaped(LLVMTypeOf(x), LLVMFloatTypeInContext(LLVMGetModuleContext(m)));
  return LLVMBuildFCmp(b, LLVMGetFCmpPredicate(inst), LLVMBuildFPExt(b, x, ft, ""),
                       LLVMBuildFPExt(b, y, ft, ""), "");
}

/* Arithmetic on vectors of half, without AVX-512 FP16, as the same
 * arithmetic on their float extensions rounded back once: what LLVM 19 does
 * for each element, one conversion, operation and conversion back at a
 * time (clpeak's half kernels ran at 5 GFLOP/s against 400 for float on
 * AMD Zen 5); vectorised, VCVTPH2PS and VCVTPS2PH convert 16 at once.
 * Each result is the scalar code's: llvm.fma (OpenCL's mad; fma is the
 * library's, in double) a float fma rounded to half, a contracted
 * a * b + c the unfused one (the float fma rounded again can match
 * neither the fused nor the unfused result). NULL if inst is none. */
static LLVMValueRef arithmetic_as_float(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef inst) {
  static const char *const intrinsics[] = {
      "llvm.fma.",   "llvm.sqrt.",  "llvm.minnum.", "llvm.maxnum.",
      "llvm.minimum.", "llvm.maximum.", "llvm.floor.", "llvm.ceil.",   "llvm.trunc.",
      "llvm.rint.",    "llvm.round.",   "llvm.nearbyint.", NULL};
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMTypeRef ft = shaped(t, LLVMFloatTypeInContext(LLVMGetModuleContext(m)));
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (loom_is_call_to_prefix(inst, "llvm.fmuladd.")) {
    /* unfused: a float fma rounded to half can match neither result */
    LLVMValueRef x = LLVMBuildFPExt(b, LLVMGetOperand(inst, 0), ft, "");
    LLVMValueRef y = LLVMBuildFPExt(b, LLVMGetOperand(inst, 1), ft, "");
    LLVMValueRef p = LLVMBuildFPTrunc(b, LLVMBuildFMul(b, x, y, ""), t, "");
    LLVMValueRef z = LLVMBuildFPExt(b, LLVMGetOperand(inst, 2), ft, "");
    return LLVMBuildFPTrunc(b, LLVMBuildFAdd(b, LLVMBuildFPExt(b, p, ft, ""), z, ""), t, "");
  }
  if (op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv) {
    LLVMValueRef x = LLVMBuildFPExt(b, LLVMGetOperand(inst, 0), ft, "");
    LLVMValueRef y = LLVMBuildFPExt(b, LLVMGetOperand(inst, 1), ft, "");
    return LLVMBuildFPTrunc(b, LLVMBuildBinOp(b, op, x, y, ""), t, "");
  }
  for (int i = 0; intrinsics[i]; i++) {
    if (!loom_is_call_to_prefix(inst, intrinsics[i]))
      continue;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(inst), id = LLVMLookupIntrinsicID(
                                                                  intrinsics[i], strlen(intrinsics[i]) - 1);
    LLVMValueRef args[3];
    if (!id || nargs > 3)
      return NULL;
    for (unsigned k = 0; k < nargs; k++)
      args[k] = LLVMBuildFPExt(b, LLVMGetOperand(inst, k), ft, "");
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &ft, 1);
    LLVMValueRef r = LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &ft, 1), f,
                                    args, nargs, "");
    return LLVMBuildFPTrunc(b, r, t, "");
  }
  return NULL;
}

/* the replacement of inst, or NULL to keep it */
static LLVMValueRef lower(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef inst, bool native_half) {
  LLVMTypeRef t = LLVMTypeOf(inst);
  if (LLVMGetInstructionOpcode(inst) == LLVMFCmp && is_half_type(LLVMTypeOf(LLVMGetOperand(inst, 0))))
    return compare_as_float(m, b, inst);
  if (!is_half_type(t))
    return NULL;
  if (!native_half && is_vector(t)) {
    LLVMValueRef r = arithmetic_as_float(m, b, inst);
    if (r)
      return r;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (op == LLVMFPTrunc) {
    LLVMValueRef x = LLVMGetOperand(inst, 0);
    if (LLVMGetTypeKind(scalar_of(LLVMTypeOf(x))) != LLVMDoubleTypeKind)
      return NULL;
    return trunc_double(m, b, x, t);
  }
  const char *intr = intrinsic_of(inst);
  if (op != LLVMFNeg && !intr)
    return NULL;
  LLVMTypeRef bt = shaped(t, LLVMInt16TypeInContext(LLVMGetModuleContext(m)));
  LLVMValueRef sign = splat(bt, 0x8000), mag = splat(bt, 0x7fff);
  if (!sign)
    return NULL;
  LLVMValueRef x = LLVMBuildBitCast(b, LLVMGetOperand(inst, 0), bt, ""), r;
  if (op == LLVMFNeg) {
    r = LLVMBuildXor(b, x, sign, "");
  } else {
    r = LLVMBuildAnd(b, x, mag, "");
    if (!strcmp(intr, "llvm.copysign.")) {
      LLVMValueRef y = LLVMBuildBitCast(b, LLVMGetOperand(inst, 1), bt, "");
      r = LLVMBuildOr(b, r, LLVMBuildAnd(b, y, sign, ""), "");
    }
  }
  return LLVMBuildBitCast(b, r, t, "");
}

void loom_lower_half_ops(LLVMModuleRef m, bool native_half) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef r = lower(m, b, i, native_half);
        if (r) {
          LLVMReplaceAllUsesWith(i, r);
          LLVMInstructionEraseFromParent(i);
        }
        i = next;
      }
  LLVMDisposeBuilder(b);
}
