/* __local variables declared in a kernel are module globals in addrspace(3)
 * after the front end. Work-groups run concurrently on several threads, so
 * each group needs its own copy: every use in the kernel becomes
 * __loom_local_base() + offset, and the runtime hands each group its own
 * local memory block (never the thread stack).
 *
 * A kernel that calls __loom_wg_scratch() (the work-group collective
 * functions) gets LOOM_WG_SCRATCH_BYTES at the start of the same block, so
 * the scratch is per group too and counted wherever the group's local memory
 * size is (CL_KERNEL_LOCAL_MEM_SIZE, launches). */
#include "loom_abi.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

struct lower {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef b;
  LLVMValueRef base_fn;
  LLVMValueRef *globals;
  uint64_t *offsets;
  size_t n;
  LLVMValueRef base; /* __loom_local_base() call in this kernel's entry */
};

static bool is_local_global(LLVMValueRef v) {
  return LLVMIsAGlobalVariable(v) &&
         LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3;
}

/* does constant c refer to any __local global? */
static bool mentions_local(LLVMValueRef c) {
  if (is_local_global(c))
    return true;
  if (!LLVMIsAConstantExpr(c))
    return false;
  for (int i = 0; i < LLVMGetNumOperands(c); i++)
    if (mentions_local(LLVMGetOperand(c, (unsigned)i)))
      return true;
  return false;
}

static size_t global_index(struct lower *l, LLVMValueRef g) {
  for (size_t i = 0; i < l->n; i++)
    if (l->globals[i] == g)
      return i;
  return SIZE_MAX;
}

/* Rebuilds constant c as instructions at the builder position, with every
 * __local global replaced by base + offset. */
static LLVMValueRef materialize(struct lower *l, LLVMValueRef c) {
  if (is_local_global(c)) {
    size_t i = global_index(l, c);
    LLVMValueRef off = loom_i64(l->c, l->offsets[i]);
    return LLVMBuildGEP2(l->b, LLVMInt8TypeInContext(l->c), l->base, &off, 1, "");
  }
  if (!LLVMIsAConstantExpr(c) || !mentions_local(c))
    return c;
  LLVMOpcode op = LLVMGetConstOpcode(c);
  unsigned n = (unsigned)LLVMGetNumOperands(c);
  LLVMValueRef ops[8];
  for (unsigned i = 0; i < n && i < 8; i++)
    ops[i] = materialize(l, LLVMGetOperand(c, i));
  switch (op) {
  case LLVMGetElementPtr:
    return LLVMBuildGEP2(l->b, LLVMGetGEPSourceElementType(c), ops[0], ops + 1, n - 1, "");
  case LLVMAddrSpaceCast:
    return LLVMBuildAddrSpaceCast(l->b, ops[0], LLVMTypeOf(c), "");
  case LLVMBitCast:
    return LLVMBuildBitCast(l->b, ops[0], LLVMTypeOf(c), "");
  case LLVMPtrToInt:
    return LLVMBuildPtrToInt(l->b, ops[0], LLVMTypeOf(c), "");
  default:
    return c; /* not produced by the front end for __local variables */
  }
}

uint64_t loom_wg_lower_local_vars(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td) {
  struct lower l = {.m = m, .c = LLVMGetModuleContext(m)};
  /* the __local globals this kernel uses */
  size_t cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      for (int o = 0; o < LLVMGetNumOperands(i); o++) {
        LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
        /* collect globals nested in constant expressions too */
        LLVMValueRef stack[32];
        int sp = 0;
        stack[sp++] = v;
        while (sp) {
          LLVMValueRef c = stack[--sp];
          if (is_local_global(c) && global_index(&l, c) == SIZE_MAX) {
            if (l.n == cap) {
              cap = cap ? cap * 2 : 8;
              l.globals = realloc(l.globals, cap * sizeof *l.globals);
            }
            l.globals[l.n++] = c;
          } else if (LLVMIsAConstantExpr(c)) {
            for (int q = 0; q < LLVMGetNumOperands(c) && sp < 32; q++)
              stack[sp++] = LLVMGetOperand(c, (unsigned)q);
          }
        }
      }
  size_t n_scratch;
  LLVMValueRef *scratch_calls = loom_calls_in(k, LOOM_SYM_WG_SCRATCH, &n_scratch);
  if (l.n == 0 && n_scratch == 0) {
    free(scratch_calls);
    return 0;
  }
  l.offsets = malloc((l.n + 1) * sizeof *l.offsets);
  uint64_t total = n_scratch ? LOOM_WG_SCRATCH_BYTES : 0;
  for (size_t i = 0; i < l.n; i++) {
    LLVMTypeRef ty = LLVMGlobalGetValueType(l.globals[i]);
    uint64_t align = LLVMGetAlignment(l.globals[i]);
    if (align < 16)
      align = 16;
    total = (total + align - 1) / align * align;
    l.offsets[i] = total;
    total += LLVMABISizeOfType(td, ty);
  }
  l.b = LLVMCreateBuilderInContext(l.c);
  LLVMTypeRef lptr = LLVMPointerTypeInContext(l.c, 3);
  l.base_fn = loom_get_fn(m, LOOM_SYM_LOCAL_BASE, lptr, NULL, 0);
  LLVMPositionBuilderBefore(l.b, loom_first_non_phi(LLVMGetEntryBasicBlock(k)));
  l.base = LLVMBuildCall2(l.b, LLVMGlobalGetValueType(l.base_fn), l.base_fn, NULL, 0, "local");
  for (size_t i = 0; i < n_scratch; i++) { /* the scratch sits at offset 0 */
    LLVMReplaceAllUsesWith(scratch_calls[i], l.base);
    LLVMInstructionEraseFromParent(scratch_calls[i]);
  }
  free(scratch_calls);

  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (i == l.base)
        continue;
      for (int o = 0; o < LLVMGetNumOperands(i); o++) {
        LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
        if (!mentions_local(v))
          continue;
        if (LLVMIsAPHINode(i))
          LLVMPositionBuilderBefore(l.b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(i, (unsigned)o)));
        else
          LLVMPositionBuilderBefore(l.b, i);
        LLVMSetOperand(i, (unsigned)o, materialize(&l, v));
      }
    }
  LLVMDisposeBuilder(l.b);
  free(l.globals);
  free(l.offsets);
  return total;
}
