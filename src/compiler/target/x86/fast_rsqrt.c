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
#include "support/llvm_util.h"
#include "target/x86/x86.h"
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

/* vt: at most 64 lanes (build_rsqrt_any) */
static LLVMValueRef splat_float(LLVMTypeRef vt, double v) {
  unsigned n = LLVMGetVectorSize(vt);
  LLVMValueRef e = LLVMConstReal(LLVMGetElementType(vt), v), elems[64];
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

/* lanes [first, first + count) of the n-lane vector v, lanes past n taken
 * from `pad` (n lanes too) */
static LLVMValueRef lanes_of(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef v, LLVMValueRef pad,
                             unsigned n, unsigned first, unsigned count) {
  LLVMValueRef idx[64];
  for (unsigned j = 0; j < count; j++)
    idx[j] = LLVMConstInt(LLVMInt32TypeInContext(c), first + j < 2 * n ? first + j : n, 0);
  return LLVMBuildShuffleVector(b, v, pad, LLVMConstVector(idx, count), "");
}

/* 1 / sqrt(x) for a vector x of any width up to 64: pieces of the widest
 * VRSQRT14PS there is (16 lanes, or 4 and 8 with AVX512VL), the last one
 * padded with 1.0; the loop vectoriser makes 32 lanes of 8 work-items'
 * float4s, for example. NULL where the width cannot be handled. */
static LLVMValueRef build_rsqrt_any(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x,
                                    bool has_vl, bool has_dq) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(x));
  unsigned w = n >= 16 || !has_vl ? 16 : n <= 4 ? 4 : 8;
  unsigned pieces = (n + w - 1) / w;
  if (n > 64 || pieces > 4)
    return NULL;
  LLVMTypeRef fn_type;
  LLVMValueRef rsqrt14 = rsqrt14_of(m, w, has_vl, &fn_type);
  if (!rsqrt14)
    return NULL;
  if (pieces == 1 && w == n)
    return build_rsqrt(m, b, x, rsqrt14, fn_type, has_dq, has_dq && has_vl);
  LLVMValueRef ones = splat_float(LLVMTypeOf(x), 1.0), part[4];
  for (unsigned p = 0; p < pieces; p++)
    part[p] = build_rsqrt(m, b, lanes_of(b, c, x, ones, n, p * w, w), rsqrt14, fn_type, has_dq,
                          has_dq && has_vl);
  /* concatenate pairwise (a missing fourth piece repeats the third), then
   * keep the first n lanes */
  unsigned width = w;
  while (pieces > 1) {
    for (unsigned p = 0; p < pieces; p += 2)
      part[p / 2] = lanes_of(b, c, part[p], p + 1 < pieces ? part[p + 1] : part[p], width, 0,
                             2 * width);
    pieces = (pieces + 1) / 2;
    width *= 2;
  }
  return width == n ? part[0] : lanes_of(b, c, part[0], part[0], width, 0, n);
}

/* fdiv(1, llvm.sqrt(x)) on float scalars or vectors, whose accuracy bound
 * (Clang's !fpmath, 2.5 ulp for OpenCL's division unless
 * -cl-fp32-correctly-rounded-divide-sqrt) lets it be an estimate */
static bool is_rsqrt_division(LLVMValueRef i, unsigned fpmath) {
  if (LLVMGetInstructionOpcode(i) != LLVMFDiv)
    return false;
  LLVMTypeRef t = LLVMTypeOf(i);
  LLVMTypeRef elem = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  LLVMValueRef s = LLVMGetOperand(i, 1);
  return LLVMGetTypeKind(elem) == LLVMFloatTypeKind && loom_is_call_to_prefix(s, "llvm.sqrt.") &&
         is_splat_one(LLVMGetOperand(i, 0)) &&
         (fpmath_ulps(i, fpmath) >= 1.5 ||
          (LLVMGetFastMathFlags(i) & LLVMFastMathApproxFunc));
}

/* Before O3. In float2/4/8 kernels, split into scalars and vectorised
 * again across work-items, InstCombine rebuilds the divisions when it folds
 * the loop vectoriser's shuffles, and the rebuilt ones lack !fpmath; IR
 * flags are copied there. So the divisions fast_rsqrt may rewrite also get
 * `afn` (approximate functions allowed), which no LLVM 19 transform acts on
 * for a division by itself, and after O3 either mark qualifies. Merging
 * two divisions (CSE) keeps only the flags both have. */
void loom_mark_rsqrt_divisions(LLVMModuleRef m, const char *features) {
  if (!loom_has_target_feature(features, "avx512f"))
    return;
  unsigned fpmath = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "fpmath", 6);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_rsqrt_division(i, fpmath))
          LLVMSetFastMathFlags(i, LLVMGetFastMathFlags(i) | LLVMFastMathApproxFunc);
}

void loom_fast_rsqrt(LLVMModuleRef m, const char *features) {
  if (!loom_has_target_feature(features, "avx512f"))
    return;
  bool has_vl = loom_has_target_feature(features, "avx512vl");
  bool has_dq = loom_has_target_feature(features, "avx512dq");
  unsigned fpmath = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "fpmath", 6);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMTypeRef t = LLVMTypeOf(i);
        LLVMValueRef s = LLVMGetInstructionOpcode(i) == LLVMFDiv ? LLVMGetOperand(i, 1) : NULL;
        bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
        if (!s || !is_rsqrt_division(i, fpmath)) {
          i = next;
          continue;
        }
        LLVMPositionBuilderBefore(b, i);
        /* scalars: through lane 0 of a 4-vector (see the top) */
        LLVMValueRef x = LLVMGetOperand(s, 0);
        LLVMValueRef lane0 = LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), 0, 0);
        if (!vector)
          x = LLVMBuildInsertElement(b, LLVMConstNull(LLVMVectorType(t, 4)), x, lane0, "");
        LLVMValueRef r = build_rsqrt_any(m, b, x, has_vl, has_dq);
        if (r) {
          if (!vector)
            r = LLVMBuildExtractElement(b, r, lane0, "");
          LLVMReplaceAllUsesWith(i, r);
          LLVMInstructionEraseFromParent(i);
          if (!LLVMGetFirstUse(s) && s != next)
            LLVMInstructionEraseFromParent(s);
        } else if (!vector) {
          LLVMInstructionEraseFromParent(x);
        }
        i = next;
      }
  LLVMDisposeBuilder(b);
}
