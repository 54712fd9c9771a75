/* Sub-group functions become sub-group barriers (pass "wg-barriers").
 *
 * The builtin library (builtins/subgroup.cl) turns every sub-group function
 * that exchanges values into one call `r = __loom_sgc...(op, x, aux)`, and
 * sub_group_barrier into `__loom_sg_barrier()`. Here each such call becomes
 *
 *     store x   -> this work-item's x slot
 *     store aux -> this work-item's aux slot
 *     __loom_barrier()          (numbered with the work-group barriers)
 *     r = load this work-item's result slot
 *
 * and the point is recorded (struct loom_sg_point): the work-group function
 * (sg_driver.c) runs __loom_sg_combine(op, ...) for each sub-group between
 * the region that ends at the barrier and the one that starts there. Each
 * call has slots of its own, so a work-item that waits at one barrier never
 * has its value overwritten by the combine step of another. */
#include "loom_abi.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

static bool is_collective(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee))
    return false;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  return len >= sizeof LOOM_SYM_SG_COLLECTIVE - 1 && strstr(name, LOOM_SYM_SG_COLLECTIVE) &&
         LLVMGetNumArgOperands(call) == 3;
}

static bool is_sg_barrier(LLVMValueRef call) { return loom_is_call_to(call, LOOM_SYM_SG_BARRIER); }

static uint64_t slot_for(struct loom_slots *s, LLVMTargetDataRef td, LLVMTypeRef ty, uint64_t *size) {
  *size = LLVMABISizeOfType(td, ty);
  uint64_t align = LLVMABIAlignmentOfType(td, ty);
  /* the combine step moves values as whole units of their size (ulong16 for
   * double16): aligned to it, up to a vector register's 64 bytes; a slot's
   * base, offset * items in group, keeps that alignment */
  while (align < *size && align < 64)
    align *= 2;
  return loom_wg_slot_alloc(s, *size, align);
}

size_t loom_lower_sub_group_calls(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td,
                                  struct loom_slots *slots, struct loom_sg_lowered *out) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  memset(out, 0, sizeof *out);
  size_t cap = 0;
  LLVMValueRef *calls = NULL;
  size_t n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && (is_collective(i) || is_sg_barrier(i))) {
        if (n == cap) {
          cap = cap ? 2 * cap : 8;
          calls = realloc(calls, cap * sizeof *calls);
        }
        calls[n++] = i;
      }
  if (!n)
    return 0;
  out->barrier = calloc(n, sizeof *out->barrier);
  out->point = calloc(n, sizeof *out->point);
  LLVMValueRef bar = loom_get_fn(m, LOOM_SYM_BARRIER, LLVMVoidTypeInContext(c), NULL, 0);
  LLVMTypeRef bar_ty = LLVMGlobalGetValueType(bar);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (size_t j = 0; j < n; j++) {
    LLVMValueRef call = calls[j];
    struct loom_sg_point *pt = &out->point[j];
    LLVMPositionBuilderBefore(b, call);
    if (is_collective(call)) {
      LLVMValueRef op = LLVMGetOperand(call, 0), x = LLVMGetOperand(call, 1);
      LLVMValueRef aux = LLVMGetOperand(call, 2);
      /* the builtins always pass a constant op; anything else is not ours */
      pt->op = LLVMIsAConstantInt(op) ? (unsigned)LLVMConstIntGetZExtValue(op) : 0;
      LLVMTypeRef rty = LLVMTypeOf(call);
      pt->x_off = slot_for(slots, td, LLVMTypeOf(x), &pt->x_size);
      pt->res_off = slot_for(slots, td, rty, &pt->res_size);
      pt->aux_off = loom_wg_slot_alloc(slots, 4, 4);
      LLVMBuildStore(b, x, loom_wg_slot_addr(m, b, pt->x_off, pt->x_size));
      LLVMBuildStore(b, LLVMBuildZExtOrBitCast(b, aux, i32, ""), loom_wg_slot_addr(m, b, pt->aux_off, 4));
      out->barrier[j] = LLVMBuildCall2(b, bar_ty, bar, NULL, 0, "");
      LLVMPositionBuilderBefore(b, call);
      LLVMValueRef r = LLVMBuildLoad2(b, rty, loom_wg_slot_addr(m, b, pt->res_off, pt->res_size), "sg_result");
      LLVMReplaceAllUsesWith(call, r);
    } else {
      out->barrier[j] = LLVMBuildCall2(b, bar_ty, bar, NULL, 0, "");
    }
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
  free(calls);
  out->n = n;
  return n;
}

void loom_sg_lowered_free(struct loom_sg_lowered *s) {
  free(s->barrier);
  free(s->point);
  memset(s, 0, sizeof *s);
}
