/* Vector shifts by constants whose lanes are out of range or poison get
 * in-range amounts (0) in those lanes, just before code generation.
 *
 * Why: the SLP vectoriser packs different operations into one vector
 * ("alternate" opcodes: lane 0 an arithmetic shift, lane 1 an and) by
 * computing both on every lane and picking lanes with a shuffle; the lanes
 * it discards get the other operation's constants, so `ashr <24, 65535>` has
 * a lane shifted by more than its width, which is poison. LLVM 19's x86 code
 * generator then takes that poison lane as known zero and merges the shuffle
 * into an OR, while VPSRAVD fills the lane with sign bits: the OR kept them,
 * and (ushort)(0 - get_work_dim()) came out as 0xffffffff (loom-fuzz seed
 * 1004659, tests/fuzz/bugs/shift-poison-lane.cl). A poison lane may hold any
 * value, so 0 is a correct choice, and one nothing can take for zero. */
#include "target/x86/x86.h"

static bool is_shift(LLVMValueRef i) {
  if (!LLVMIsABinaryOperator(i))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  return op == LLVMShl || op == LLVMLShr || op == LLVMAShr;
}

/* amounts with every bad lane 0, or NULL when all lanes are in range */
static LLVMValueRef fixed_amounts(LLVMValueRef amounts) {
  LLVMTypeRef ty = LLVMTypeOf(amounts);
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind || !LLVMIsAConstant(amounts) ||
      LLVMIsAConstantExpr(amounts))
    return NULL;
  LLVMTypeRef elem = LLVMGetElementType(ty);
  unsigned lanes = LLVMGetVectorSize(ty), bits = LLVMGetIntTypeWidth(elem);
  if (lanes > 64)
    return NULL;
  LLVMValueRef v[64];
  bool bad = false;
  for (unsigned k = 0; k < lanes; k++) {
    v[k] = LLVMGetAggregateElement(amounts, k);
    if (!v[k])
      return NULL; /* a lane that is not a plain constant: leave it */
    if (LLVMIsAConstantInt(v[k]) && LLVMConstIntGetZExtValue(v[k]) < bits)
      continue;
    if (!LLVMIsAConstantInt(v[k]) && !LLVMIsUndef(v[k]) && !LLVMIsPoison(v[k]))
      return NULL;
    v[k] = LLVMConstInt(elem, 0, 0);
    bad = true;
  }
  return bad ? LLVMConstVector(v, lanes) : NULL;
}

void loom_fix_shift_lanes(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!is_shift(i))
          continue;
        LLVMValueRef fixed = fixed_amounts(LLVMGetOperand(i, 1));
        if (fixed)
          LLVMSetOperand(i, 1, fixed);
      }
}
