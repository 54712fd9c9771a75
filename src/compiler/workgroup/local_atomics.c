/* Atomics on __local memory without the bus lock.
 *
 * A work-group's __local memory is touched only by the one thread that runs
 * the group's work-items, one after another, so a read-modify-write on it
 * cannot be interrupted by another work-item: a locked instruction (tens of
 * cycles on x86) buys nothing over a load, the operation and a store. The
 * accesses are made volatile so that the work-item loop is not vectorised
 * across them (two lanes may update the same word, as in a histogram) and
 * their order is kept. Atomics through generic pointers keep their lock:
 * those may point to __global memory. */
#include "workgroup/workgroup.h"

static LLVMValueRef rmw_result(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old,
                               LLVMValueRef v) {
  switch (op) {
  case LLVMAtomicRMWBinOpXchg:
    return v;
  case LLVMAtomicRMWBinOpAdd:
    return LLVMBuildAdd(b, old, v, "");
  case LLVMAtomicRMWBinOpSub:
    return LLVMBuildSub(b, old, v, "");
  case LLVMAtomicRMWBinOpAnd:
    return LLVMBuildAnd(b, old, v, "");
  case LLVMAtomicRMWBinOpOr:
    return LLVMBuildOr(b, old, v, "");
  case LLVMAtomicRMWBinOpXor:
    return LLVMBuildXor(b, old, v, "");
  case LLVMAtomicRMWBinOpMax:
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, old, v, ""), old, v, "");
  case LLVMAtomicRMWBinOpMin:
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, old, v, ""), old, v, "");
  case LLVMAtomicRMWBinOpUMax:
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), old, v, "");
  case LLVMAtomicRMWBinOpUMin:
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, old, v, ""), old, v, "");
  case LLVMAtomicRMWBinOpFAdd:
    return LLVMBuildFAdd(b, old, v, "");
  case LLVMAtomicRMWBinOpFSub:
    return LLVMBuildFSub(b, old, v, "");
  default:
    return NULL; /* nand, fmin/fmax, wrapping inc/dec: left atomic */
  }
}

static bool is_local_pointer(LLVMValueRef p) {
  return LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 3;
}

static bool lower_rmw(LLVMBuilderRef b, LLVMValueRef in) {
  LLVMValueRef ptr = LLVMGetOperand(in, 0), v = LLVMGetOperand(in, 1);
  if (!is_local_pointer(ptr))
    return false;
  LLVMPositionBuilderBefore(b, in);
  LLVMTypeRef ty = LLVMTypeOf(v);
  LLVMValueRef old = LLVMBuildLoad2(b, ty, ptr, "local.old");
  LLVMValueRef nv = rmw_result(b, LLVMGetAtomicRMWBinOp(in), old, v);
  if (!nv) {
    LLVMInstructionEraseFromParent(old);
    return false;
  }
  LLVMSetVolatile(old, 1);
  LLVMValueRef st = LLVMBuildStore(b, nv, ptr);
  LLVMSetVolatile(st, 1);
  LLVMReplaceAllUsesWith(in, old);
  LLVMInstructionEraseFromParent(in);
  return true;
}

static bool lower_cmpxchg(LLVMBuilderRef b, LLVMValueRef in) {
  LLVMValueRef ptr = LLVMGetOperand(in, 0), expected = LLVMGetOperand(in, 1),
               desired = LLVMGetOperand(in, 2);
  if (!is_local_pointer(ptr))
    return false;
  LLVMPositionBuilderBefore(b, in);
  LLVMTypeRef ty = LLVMTypeOf(desired);
  LLVMValueRef old = LLVMBuildLoad2(b, ty, ptr, "local.old");
  LLVMSetVolatile(old, 1);
  LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, old, expected, "");
  /* storing the old value back when the comparison fails is invisible:
   * nothing else can write the word in between */
  LLVMValueRef st = LLVMBuildStore(b, LLVMBuildSelect(b, ok, desired, old, ""), ptr);
  LLVMSetVolatile(st, 1);
  LLVMValueRef pair = LLVMGetUndef(LLVMTypeOf(in));
  pair = LLVMBuildInsertValue(b, pair, old, 0, "");
  pair = LLVMBuildInsertValue(b, pair, ok, 1, "");
  LLVMReplaceAllUsesWith(in, pair);
  LLVMInstructionEraseFromParent(in);
  return true;
}

void loom_lower_local_atomics(LLVMValueRef k) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(k)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      if (LLVMIsAAtomicRMWInst(in))
        lower_rmw(b, in);
      else if (LLVMIsAAtomicCmpXchgInst(in) &&
               LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 2))) == LLVMIntegerTypeKind)
        lower_cmpxchg(b, in);
      in = next;
    }
  LLVMDisposeBuilder(b);
}
