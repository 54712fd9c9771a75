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

/* c is an integer constant that cannot make the division trap */
static bool harmless_constant(LLVMValueRef c, bool is_signed) {
  if (!c || !LLVMIsAConstantInt(c))
    return false;
  if (LLVMConstIntGetZExtValue(c) == 0)
    return false;
  return !(is_signed && LLVMConstIntGetSExtValue(c) == -1);
}

bool loom_is_int_division(LLVMValueRef i) {
  if (!LLVMIsABinaryOperator(i))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  return op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem;
}

bool loom_division_cannot_trap(LLVMValueRef div) {
  LLVMValueRef d = LLVMGetOperand(div, 1);
  bool is_signed = is_signed_div(LLVMGetInstructionOpcode(div));
  LLVMTypeRef ty = LLVMTypeOf(d);
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
    return harmless_constant(d, is_signed);
  if (!LLVMIsAConstant(d))
    return false;
  for (unsigned k = 0, lanes = LLVMGetVectorSize(ty); k < lanes; k++)
    if (!harmless_constant(LLVMGetAggregateElement(d, k), is_signed))
      return false;
  return true;
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
  if (loom_division_cannot_trap(inst))
    return;
  LLVMPositionBuilderBefore(b, inst);
  LLVMSetOperand(inst, 1, loom_safe_divisor(b, LLVMGetInstructionOpcode(inst),
                                            LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1)));
}

void loom_guard_divisions(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (loom_is_int_division(i))
          guard(b, i);
  LLVMDisposeBuilder(b);
}
