/* A work-group function specialised for one local size (the runtime asks
 * for it once a kernel is launched again with that size: core/variants.c).
 *
 * The local size becomes constants where the function reads it from its
 * context, so O3 sees the work-item loops' trip counts: a 16-wide row of a
 * 16x16 group becomes one vector iteration, loop-invariant tile rows stay
 * in registers across rows, loops over the group's size unroll. Groups of
 * another size (the trailing groups of a non-uniform launch) keep running
 * the generic function, which stays in the program's code beside this one.
 *
 * The new code is loaded into the program's JITDylib next to the generic
 * code, so everything but the specialised work-group function is made
 * internal to avoid duplicate definitions. Programs with writable global
 * variables are not specialised: each object would get its own copy. */
#include "support/util.h"
#include "workgroup/workgroup.h"
#include <stdio.h>
#include <string.h>

/* the context slot a load reads, if it reads one (-1 otherwise) */
static int ctx_slot(LLVMValueRef load, LLVMValueRef ctx) {
  LLVMValueRef p = LLVMGetOperand(load, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != ctx || LLVMGetNumOperands(p) != 2)
    return -1;
  LLVMValueRef off = LLVMGetOperand(p, 1);
  if (!LLVMIsAConstantInt(off))
    return -1;
  long long bytes = LLVMConstIntGetSExtValue(off);
  return bytes >= 0 && bytes % 8 == 0 ? (int)(bytes / 8) : -1;
}

/* replaces the loads of the local size (and the enqueued one, the same for
 * the groups this function runs) by constants */
static void fix_local_size(LLVMValueRef wg, const uint64_t local[3]) {
  LLVMValueRef ctx = LLVMGetParam(wg, 1);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      int slot = LLVMIsALoadInst(in) && LLVMTypeOf(in) == i64 ? ctx_slot(in, ctx) : -1;
      int d = slot >= LOOM_CTX_LOCAL_SIZE && slot < LOOM_CTX_LOCAL_SIZE + 3 ? slot - LOOM_CTX_LOCAL_SIZE
              : slot >= LOOM_CTX_ENQ_LOCAL_SIZE && slot < LOOM_CTX_ENQ_LOCAL_SIZE + 3
                  ? slot - LOOM_CTX_ENQ_LOCAL_SIZE
                  : -1;
      if (d >= 0) {
        LLVMReplaceAllUsesWith(in, LLVMConstInt(i64, local[d], 0));
        LLVMInstructionEraseFromParent(in);
      }
      in = next;
    }
  }
}

/* __local variables are globals of this address space until the
 * work-group transformation gives them offsets in the group's memory */
enum { LOCAL_ADDRESS_SPACE = 3 };

static bool has_writable_globals(LLVMModuleRef m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && !LLVMIsGlobalConstant(g) &&
        LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != LOCAL_ADDRESS_SPACE)
      return true;
  return false;
}

void loom_wg_spec_symbol(const char *kernel, const uint64_t local[3], char *out, size_t size) {
  snprintf(out, size, "%s.l%llux%llux%llu", kernel, (unsigned long long)local[0],
           (unsigned long long)local[1], (unsigned long long)local[2]);
}

int loom_wg_specialize(LLVMModuleRef m, const struct loom_kernel_meta *kernels, uint32_t n,
                       const struct loom_wg_spec *spec, char **log) {
  LLVMValueRef wg = NULL;
  for (uint32_t i = 0; i < n; i++) {
    LLVMValueRef f = loom_wg_function_of(m, kernels[i].name);
    if (!f)
      continue;
    if (!strcmp(kernels[i].name, spec->kernel))
      wg = f;
    else
      LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  if (!wg) {
    loom_str_append(log, "error: no such kernel to specialise\n");
    return -1;
  }
  if (has_writable_globals(m)) {
    loom_str_append(log, "error: a program with writable global variables is not specialised\n");
    return -1;
  }
  fix_local_size(wg, spec->local);
  char name[LOOM_SPEC_SYMBOL_MAX + sizeof LOOM_WG_SUFFIX];
  loom_wg_spec_symbol(spec->kernel, spec->local, name, LOOM_SPEC_SYMBOL_MAX);
  strcat(name, LOOM_WG_SUFFIX);
  LLVMSetValueName2(wg, name, strlen(name));
  return 0;
}
