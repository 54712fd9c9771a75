/* A kernel's by-value aggregate arguments (a struct or union passed by
 * value reaches the kernel as a `byval` pointer) become explicit private
 * copies in the kernel itself.
 *
 * Each work-item owns its copy: the kernel may write to it. Left implicit,
 * the copy is made by LLVM's inliner when a region function inlines the
 * kernel (wg-function), at the region's entry; but a region that starts at
 * a barrier or at a divergent loop's convergence point skips that entry,
 * and its uses of the copy were left undefined: invalid IR (PyOpenCL's
 * complex-number kernels, whose loops over the work are divergent, made
 * LLVM's O3 crash on it). Made here, before "inline" and "wg-barriers",
 * the copy is an ordinary private variable: SROA turns it into registers,
 * and what stays live across a barrier gets a per-work-item slot like any
 * other value. The parameter's `byval(T)` becomes `byref(T)`: still a
 * pointer to the argument's bytes in the launch's argument block (kernel
 * metadata and the work-group function's argument loads read T from it),
 * but no longer a copy the inliner would make again, with lifetime markers
 * at every return of the region, where that copy is not defined either. */
#include "frontend/frontend.h"
#include "workgroup/workgroup.h"

void loom_copy_byval_arguments(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  unsigned byref = LLVMGetEnumAttributeKindForName("byref", 5);
  unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (LLVMValueRef k = LLVMGetFirstFunction(m); k; k = LLVMGetNextFunction(k)) {
    if (!loom_is_kernel(k))
      continue;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(k);
    for (unsigned i = 0; i < LLVMCountParams(k); i++) {
      LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(k, i + 1, byval);
      LLVMValueRef param = LLVMGetParam(k, i);
      if (!bv)
        continue;
      LLVMTypeRef ty = LLVMGetTypeAttributeValue(bv);
      /* unused, it needs no copy; but as byval the inliner would still
       * copy it into each region (loom-fuzz found that) */
      if (!LLVMGetFirstUse(param)) {
        LLVMRemoveEnumAttributeAtIndex(k, i + 1, byval);
        LLVMAddAttributeAtIndex(k, i + 1, LLVMCreateTypeAttribute(c, byref, ty));
        continue;
      }
      LLVMAttributeRef al = LLVMGetEnumAttributeAtIndex(k, i + 1, align_kind);
      unsigned align = al ? (unsigned)LLVMGetEnumAttributeValue(al) : 1;
      LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
      LLVMValueRef copy = LLVMBuildAlloca(b, ty, "byval.copy");
      LLVMSetAlignment(copy, align);
      LLVMReplaceAllUsesWith(param, copy);
      LLVMValueRef size = LLVMSizeOf(ty);
      LLVMBuildMemCpy(b, copy, align, param, align, size);
      LLVMRemoveEnumAttributeAtIndex(k, i + 1, byval);
      LLVMAddAttributeAtIndex(k, i + 1, LLVMCreateTypeAttribute(c, byref, ty));
    }
  }
  LLVMDisposeBuilder(b);
}
