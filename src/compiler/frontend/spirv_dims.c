/* Work-item functions with a dimension known only at run time, in SPIR-V.
 *
 * The translator writes `get_global_size(d)` as a load of the GlobalSize
 * built-in vector and OpVectorExtractDynamic by d, and reads that back as
 * the three get_global_size(0..2) calls put into a vector and an
 * extractelement by d: poison when d is 3 or more, where OpenCL C returns 1
 * (0 for ids and offsets). The SPIR-V leaves that case undefined, so LoomCL
 * gives what the OpenCL C source said: such an extractelement becomes the
 * call with d itself, and the builtin library answers every dimension (the
 * CTS's work_item_functions_out_of_range in SPIR-V mode). So does a
 * constant d past the vector, which spirv-val rejects but translator 15
 * writes for get_global_size(4). */
#include "frontend/frontend.h"
#include "support/util.h"
#include <stdlib.h>
#include <string.h>

/* the function every lane of v is a call to with its own lane index (a
 * vector of `lanes` built by insertelements), or NULL */
static LLVMValueRef lanes_function(LLVMValueRef v, unsigned lanes) {
  LLVMValueRef fn = NULL;
  unsigned seen = 0;
  while (LLVMIsAInsertElementInst(v)) {
    LLVMValueRef val = LLVMGetOperand(v, 1), at = LLVMGetOperand(v, 2);
    if (!LLVMIsAConstantInt(at) || !LLVMIsACallInst(val) || LLVMGetNumArgOperands(val) != 1)
      return NULL;
    uint64_t lane = LLVMConstIntGetZExtValue(at);
    LLVMValueRef arg = LLVMGetOperand(val, 0);
    LLVMValueRef callee = LLVMGetCalledValue(val);
    if (lane >= lanes || !LLVMIsAConstantInt(arg) || LLVMConstIntGetZExtValue(arg) != lane ||
        !LLVMIsAFunction(callee) || (fn && callee != fn))
      return NULL;
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    if (len < 8 || strncmp(name, "_Z", 2) != 0 || !strstr(name, "get_"))
      return NULL;
    fn = callee;
    seen |= 1u << lane;
    v = LLVMGetOperand(v, 0);
  }
  return seen == (1u << lanes) - 1 && (LLVMIsUndef(v) || LLVMIsPoison(v)) ? fn : NULL;
}

void loom_spirv_dynamic_dims(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!LLVMIsAExtractElementInst(i))
          continue;
        LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 0));
        /* a constant index inside the vector is left as it is; one past
         * it (invalid SPIR-V the translator writes for get_global_size(4))
         * is OpenCL C's call too */
        LLVMValueRef at = LLVMGetOperand(i, 1);
        if (LLVMIsAConstantInt(at) && LLVMConstIntGetZExtValue(at) < LLVMGetVectorSize(vt))
          continue;
        LLVMValueRef fn = lanes_function(LLVMGetOperand(i, 0), LLVMGetVectorSize(vt));
        if (!fn)
          continue;
        LLVMTypeRef fty = LLVMGlobalGetValueType(fn), pt;
        LLVMGetParamTypes(fty, &pt);
        LLVMValueRef d = LLVMGetOperand(i, 1);
        if (LLVMGetTypeKind(pt) != LLVMIntegerTypeKind ||
            LLVMGetReturnType(fty) != LLVMTypeOf(i))
          continue;
        LLVMPositionBuilderBefore(b, i);
        d = LLVMBuildZExtOrBitCast(b, d, pt, "");
        if (LLVMGetIntTypeWidth(LLVMTypeOf(d)) > LLVMGetIntTypeWidth(pt))
          d = LLVMBuildTrunc(b, d, pt, "");
        LLVMValueRef call = LLVMBuildCall2(b, fty, fn, &d, 1, "");
        LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(fn));
        LLVMReplaceAllUsesWith(i, call);
        LLVMInstructionEraseFromParent(i);
      }
    }
  LLVMDisposeBuilder(b);
}
