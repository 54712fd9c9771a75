/* Private arrays indexed by loop counters become registers.
 *
 * GPU-style kernels keep per-work-item tiles in private arrays (CLBlast's
 * GEMM: `float4 cpm[8]`, `apm[1]`, `bpm[2]`, each indexed by the counters
 * of small `#pragma unroll` loops). SROA cannot split an array indexed by a
 * variable, and the work-item loops are built before O3 unrolls those
 * loops: the arrays would stay in memory, one copy shared by the work-items
 * a vector runs, which keeps the work-item loop from vectorising at all.
 * So when some private array survives the first SROA, loops with a constant
 * trip count are fully unrolled now (LLVM's full unroll, its usual size
 * limits, `#pragma unroll` honoured) and SROA runs again: the indices are
 * then constants and the arrays become values. An array indexed by data
 * (a lookup table filled at run time) stays in memory, as before. Volatile
 * private variables lose their volatile first (below). */
#include "workgroup/workgroup.h"

static bool has_private_array(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAAllocaInst(in) && LLVMGetTypeKind(LLVMGetAllocatedType(in)) == LLVMArrayTypeKind)
          return true;
  return false;
}

/* Volatile loads and stores of private variables become plain ones: no
 * other work-item and no device can see a work-item's private memory, so
 * volatile there only stopped optimisation. CLBlast's Xgemm keeps
 * `volatile int tid` for its local-memory indices; as a volatile slot it
 * kept the work-item loop around the k loop from vectorising. */
static bool drop_private_volatile(LLVMModuleRef m) {
  bool any = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        bool load = LLVMIsALoadInst(in) != NULL, store = LLVMIsAStoreInst(in) != NULL;
        if ((!load && !store) || !LLVMGetVolatile(in) ||
            LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
          continue;
        if (LLVMIsAAllocaInst(loom_base_object(LLVMGetOperand(in, load ? 0 : 1)))) {
          LLVMSetVolatile(in, 0);
          any = true;
        }
      }
  return any;
}

int loom_unroll_for_private_arrays(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  if (drop_private_volatile(m) && !has_private_array(m))
    return loom_run_passes(m, "function(sroa,early-cse)", tm);
  if (!has_private_array(m))
    return 0;
  /* InstCombine folds the unrolled copies' index arithmetic to constants
   * before SROA looks at the offsets */
  return loom_run_passes(m,
                         "function(loop(loop-unroll-full),instcombine<no-verify-fixpoint>,"
                         "simplifycfg,sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,"
                         "loop-simplify,lcssa)",
                         tm);
}
