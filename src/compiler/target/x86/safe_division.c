/* Integer division by zero and INT_MIN / -1 are undefined in OpenCL C (any
 * result is allowed) but trap on x86. The divisor of every division and
 * remainder that could hit those cases becomes 1 there, so a kernel never
 * dies of SIGFPE. Vector divisions are guarded lane by lane. */
#include "target/x86/x86.h"
#include <stdlib.h>

/* a vector of `lanes` copies of c */
static LLVMValueRef splat(LLVMValueRef c, unsigned lanes) {
  LLVMValueRef small[16], *elems = lanes <= 16 ? small : malloc(lanes * sizeof *elems);
  if (!elems)
    return NULL;
  for (unsigned i = 0; i < lanes; i++)
    elems[i] = c;
  LLVMValueRef v = LLVMConstVector(elems, lanes);
  if (elems != small)
    free(elems);
  return v;
}

static bool is_signed_div(LLVMOpcode op) { return op == LLVMSDiv || op == LLVMSRem; }

/* true when constant divisor d can never trap */
static bool safe_constant(LLVMValueRef d, bool is_signed) {
  if (!LLVMIsAConstantInt(d))
    return false;
  if (LLVMConstIntGetZExtValue(d) == 0)
    return false;
  return !(is_signed && LLVMConstIntGetSExtValue(d) == -1);
}

LLVMValueRef loom_safe_divisor(LLVMBuilderRef b, LLVMOpcode op, LLVMValueRef n, LLVMValueRef d) {
  bool sdiv = is_signed_div(op);
  LLVMTypeRef ty = LLVMTypeOf(d);
  LLVMTypeRef scalar = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
  unsigned bits = LLVMGetIntTypeWidth(scalar);
  LLVMValueRef zero = LLVMConstNull(ty);
  LLVMValueRef ones;
  if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
    unsigned lanes = LLVMGetVectorSize(ty);
    LLVMValueRef c1 = LLVMConstInt(scalar, 1, 0);
    ones = splat(c1, lanes);
  } else {
    ones = LLVMConstInt(ty, 1, 0);
  }
  LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntEQ, d, zero, "");
  if (sdiv) {
    LLVMValueRef minus1 = LLVMConstAllOnes(ty);
    LLVMValueRef min;
    if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
      unsigned lanes = LLVMGetVectorSize(ty);
      LLVMValueRef cm = LLVMConstInt(scalar, 1ull << (bits - 1), 0);
      min = splat(cm, lanes);
    } else {
      min = LLVMConstInt(ty, 1ull << (bits - 1), 0);
    }
    LLVMValueRef overflow = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, d, minus1, ""),
                                         LLVMBuildICmp(b, LLVMIntEQ, n, min, ""), "");
    bad = LLVMBuildOr(b, bad, overflow, "");
  }
  return LLVMBuildSelect(b, bad, ones, d, "safe_divisor");
}

static void guard(LLVMBuilderRef b, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMValueRef n = LLVMGetOperand(inst, 0), d = LLVMGetOperand(inst, 1);
  if (safe_constant(d, is_signed_div(op)))
    return;
  LLVMPositionBuilderBefore(b, inst);
  LLVMSetOperand(inst, 1, loom_safe_divisor(b, op, n, d));
}

void loom_guard_divisions(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsABinaryOperator(i))
          continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem)
          guard(b, i);
      }
  LLVMDisposeBuilder(b);
}
