/* Float 1 / sqrt(x) on AVX-512 without the square root and the division.
 *
 * rsqrt(x) and 1.0f / sqrt(x) reach the back end as fdiv(1, llvm.sqrt(x)).
 * A vector square root and a vector division are the two slowest float
 * instructions (together about 1.4 cycles per float lane on Intel cores
 * with AVX-512); n-body's whole interaction costs less than that without
 * them. After O3, such divisions on vectors of 4, 8 or 16 floats become
 * VRSQRT14PS (relative error below 2^-14, denormals handled) and one Newton
 * step whose residual 1 - x y^2 is computed exactly with fused operations:
 * y + y/2 (1 - x y^2) is within 1.5 * 2^-28 of 1/sqrt(x) before its final
 * rounding, 0.57 ulp in all (measured) against 1.48 for the two rounded
 * operations. Scalar divisions (the vector loops' remainders) go through
 * lane 0 of a 4-vector, so that a work-item's result does not depend on
 * whether it ran in a full vector.
 *
 * Only divisions that carry !fpmath (OpenCL's 2.5 ulp for float division,
 * absent under -cl-fp32-correctly-rounded-divide-sqrt) are rewritten: the
 * result stays within that bound of 1 / the computed square root.
 * x = +-0 and +inf keep VRSQRT14PS's exact +-inf and +0; negative x and NaN
 * give NaN through it. */
#include "compiler.h"
#include "llvm_util.h"
#include "wg_internal.h"
#include <string.h>

/* every element of c is the float constant 1.0 */
static bool is_splat_one(LLVMValueRef c) {
  if (!LLVMIsAConstant(c))
    return false;
  LLVMValueRef e = LLVMIsAConstantFP(c) ? c : NULL;
  if (!e && LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(c));
    LLVMValueRef first = LLVMGetAggregateElement(c, 0);
    for (unsigned i = 1; first && i < n; i++)
      if (LLVMGetAggregateElement(c, i) != first)
        return false;
    e = first;
  }
  LLVMBool loses;
  return e && LLVMIsAConstantFP(e) && LLVMConstRealGetDouble(e, &loses) == 1.0;
}

/* the !fpmath accuracy of inst, 0 when it has none (correctly rounded) */
static double fpmath_ulps(LLVMValueRef inst, unsigned kind) {
  LLVMValueRef md = LLVMGetMetadata(inst, kind);
  if (!md || LLVMGetMDNodeNumOperands(md) < 1)
    return 0.0;
  LLVMValueRef ops[1];
  LLVMGetMDNodeOperands(md, ops);
  LLVMBool loses;
  return ops[0] && LLVMIsAConstantFP(ops[0]) ? LLVMConstRealGetDouble(ops[0], &loses) : 0.0;
}

/* the VRSQRT14PS intrinsic for vectors of n floats, or NULL */
static LLVMValueRef rsqrt14_of(LLVMModuleRef m, unsigned n, bool has_vl, LLVMTypeRef *fn_type) {
  const char *name = n == 16 ? "llvm.x86.avx512.rsqrt14.ps.512"
                     : n == 8 && has_vl ? "llvm.x86.avx512.rsqrt14.ps.256"
                     : n == 4 && has_vl ? "llvm.x86.avx512.rsqrt14.ps.128"
                                        : NULL;
  if (!name)
    return NULL;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef vt = LLVMVectorType(LLVMFloatTypeInContext(c), n);
  LLVMTypeRef params[] = {vt, vt, n == 16 ? LLVMInt16TypeInContext(c) : LLVMInt8TypeInContext(c)};
  *fn_type = LLVMFunctionType(vt, params, 3, 0);
  return loom_get_fn(m, name, vt, params, 3);
}

static LLVMValueRef call_fma(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y,
                             LLVMValueRef z) {
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
  LLVMValueRef args[] = {x, y, z};
  return LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &t, 1), f, args, 3, "");
}

static LLVMValueRef splat_float(LLVMTypeRef vt, double v) {
  unsigned n = LLVMGetVectorSize(vt);
  LLVMValueRef e = LLVMConstReal(LLVMGetElementType(vt), v), elems[16];
  for (unsigned i = 0; i < n; i++)
    elems[i] = e;
  return LLVMConstVector(elems, n);
}

/* y is +-0 or +-inf, through VFPCLASSPS (AVX512DQ; VL below 16 lanes), or
 * NULL where there is none */
static LLVMValueRef zero_or_inf_class(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef y,
                                      bool has_dq_vl) {
  LLVMTypeRef vt = LLVMTypeOf(y);
  unsigned n = LLVMGetVectorSize(vt);
  const char *name = n == 16 ? "llvm.x86.avx512.fpclass.ps.512"
                     : n == 8 ? "llvm.x86.avx512.fpclass.ps.256"
                              : "llvm.x86.avx512.fpclass.ps.128";
  if (n != 16 && !has_dq_vl)
    return NULL;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef params[] = {vt, i32};
  LLVMTypeRef mask = LLVMVectorType(LLVMInt1TypeInContext(c), n);
  LLVMValueRef fn = loom_get_fn(m, name, mask, params, 2);
  /* categories: +0 (bit 1), -0 (2), +inf (3), -inf (4) */
  LLVMValueRef args[] = {y, LLVMConstInt(i32, 0x1e, 0)};
  return LLVMBuildCall2(b, LLVMFunctionType(mask, params, 2, 0), fn, args, 2, "");
}

/* 1 / sqrt(x) for the vector x, per the comment at the top */
static LLVMValueRef build_rsqrt(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x,
                                LLVMValueRef rsqrt14, LLVMTypeRef rsqrt14_type, bool has_dq,
                                bool has_dq_vl) {
  LLVMTypeRef vt = LLVMTypeOf(x);
  unsigned n = LLVMGetVectorSize(vt);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef all = LLVMConstInt(n == 16 ? LLVMInt16TypeInContext(c) : LLVMInt8TypeInContext(c),
                                  n == 16 ? 0xffff : 0xff, 0);
  LLVMValueRef args[] = {x, LLVMConstNull(vt), all};
  LLVMValueRef y = LLVMBuildCall2(b, rsqrt14_type, rsqrt14, args, 3, "rsqrt14");
  LLVMValueRef p = LLVMBuildFMul(b, x, y, "");
  LLVMValueRef p_err = call_fma(m, b, x, y, LLVMBuildFNeg(b, p, "")); /* x y - p, exact */
  LLVMValueRef r = call_fma(m, b, LLVMBuildFNeg(b, p, ""), y, splat_float(vt, 1.0));
  r = call_fma(m, b, LLVMBuildFNeg(b, p_err, ""), y, r); /* 1 - x y^2 */
  LLVMValueRef refined = call_fma(m, b, LLVMBuildFMul(b, y, splat_float(vt, 0.5), ""), r, y);
  /* 0 and infinity (from x = +inf, +-0) are exact, where the step would
   * give NaN: one VFPCLASSPS where there is one (n-body's interaction is
   * about 30 instructions; this saves 3 of them), else y == 0 or y - y
   * unordered (NaN only for infinite and NaN y) */
  LLVMValueRef special = has_dq ? zero_or_inf_class(m, b, y, has_dq_vl) : NULL;
  if (!special) {
    LLVMValueRef zero = splat_float(vt, 0.0);
    special = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, y, zero, ""),
                          LLVMBuildFCmp(b, LLVMRealUNE, LLVMBuildFSub(b, y, y, ""), zero, ""), "");
  }
  return LLVMBuildSelect(b, special, y, refined, "");
}

/* does the comma-separated feature list enable `name` (e.g. "avx512f",
 * not to be taken for "avx512fp16")? */
static bool has_feature(const char *features, const char *name) {
  size_t n = strlen(name);
  for (const char *p = features; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (p[0] == '+' && !strncmp(p + 1, name, n) && (p[1 + n] == ',' || p[1 + n] == 0))
      return true;
  return false;
}

void loom_fast_rsqrt(LLVMModuleRef m, const char *features) {
  if (!has_feature(features, "avx512f"))
    return;
  bool has_vl = has_feature(features, "avx512vl");
  bool has_dq = has_feature(features, "avx512dq");
  unsigned fpmath = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "fpmath", 6);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMTypeRef t = LLVMTypeOf(i);
        LLVMValueRef s = LLVMGetInstructionOpcode(i) == LLVMFDiv ? LLVMGetOperand(i, 1) : NULL;
        LLVMTypeRef fn_type = NULL;
        LLVMValueRef rsqrt14 = NULL;
        bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
        LLVMTypeRef elem = vector ? LLVMGetElementType(t) : t;
        /* scalars: through lane 0 of a 4-vector (see the top) */
        if (s && LLVMGetTypeKind(elem) == LLVMFloatTypeKind && loom_is_call_to_prefix(s, "llvm.sqrt.") &&
            is_splat_one(LLVMGetOperand(i, 0)) && fpmath_ulps(i, fpmath) >= 1.5 &&
            (rsqrt14 = rsqrt14_of(m, vector ? LLVMGetVectorSize(t) : 4, has_vl, &fn_type))) {
          LLVMPositionBuilderBefore(b, i);
          LLVMValueRef x = LLVMGetOperand(s, 0), lane0 = LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), 0, 0);
          if (!vector)
            x = LLVMBuildInsertElement(b, LLVMConstNull(LLVMVectorType(t, 4)), x, lane0, "");
          LLVMValueRef r = build_rsqrt(m, b, x, rsqrt14, fn_type, has_dq, has_dq && has_vl);
          if (!vector)
            r = LLVMBuildExtractElement(b, r, lane0, "");
          LLVMReplaceAllUsesWith(i, r);
          LLVMInstructionEraseFromParent(i);
          if (!LLVMGetFirstUse(s) && s != next)
            LLVMInstructionEraseFromParent(s);
        }
        i = next;
      }
  LLVMDisposeBuilder(b);
}
