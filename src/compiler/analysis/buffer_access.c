/* What the passes after O3 (streaming_stores.c, atomic_combining.c) need to
 * know before they change how a work-group function writes memory: which
 * buffer arguments it touches with plain (not atomic) loads and stores, and
 * whether an instruction constrains the order in which other threads see
 * memory. */
#include "support/llvm_util.h"
#include "analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

LLVMValueRef loom_wg_buffer_argument(LLVMValueRef wg, LLVMValueRef p) {
  LLVMValueRef base = loom_base_object(p);
  if (!base || !LLVMIsALoadInst(base))
    return NULL;
  return loom_base_object(LLVMGetOperand(base, 0)) == LLVMGetParam(wg, 0) ? base : NULL;
}

static bool name_starts(LLVMValueRef callee, const char *prefix) {
  size_t len;
  const char *name = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
  return !strncmp(name, prefix, strlen(prefix));
}

/* the pointer a plain access reads (or, with `store`, writes) through */
static LLVMValueRef access_pointer(LLVMValueRef i, bool store) {
  if (!store && LLVMIsALoadInst(i))
    return LLVMGetOperand(i, 0);
  if (store && LLVMIsAStoreInst(i))
    return LLVMGetOperand(i, 1);
  if (!LLVMIsACallInst(i) || LLVMGetNumArgOperands(i) == 0)
    return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  if (!store && (name_starts(callee, "llvm.masked.load") || name_starts(callee, "llvm.masked.gather") ||
                 name_starts(callee, "llvm.masked.expandload")))
    return LLVMGetOperand(i, 0);
  if (!store && (name_starts(callee, "llvm.memcpy") || name_starts(callee, "llvm.memmove")))
    return LLVMGetOperand(i, 1);
  if (store && (name_starts(callee, "llvm.masked.store") || name_starts(callee, "llvm.masked.scatter") ||
                name_starts(callee, "llvm.masked.compressstore")))
    return LLVMGetOperand(i, 1);
  if (store && (name_starts(callee, "llvm.memcpy") || name_starts(callee, "llvm.memmove") ||
                name_starts(callee, "llvm.memset")))
    return LLVMGetOperand(i, 0);
  return NULL;
}

bool loom_wg_plain_buffer_accesses(LLVMValueRef wg, bool stores, struct loom_buffer_set *out) {
  bool known = true;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(wg); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      for (int kind = 0; kind <= (int)stores; kind++) {
        LLVMValueRef p = access_pointer(i, kind == 1);
        if (!p)
          continue;
        LLVMValueRef arg = loom_wg_buffer_argument(wg, p);
        LLVMValueRef base = loom_base_object(p);
        if (!arg && base && (LLVMIsAAllocaInst(base) || LLVMIsAArgument(base)))
          continue; /* private memory, the argument block and context, __local memory, scratch */
        if (!arg) {
          known = false;
          continue;
        }
        loom_buffer_set_add(out, arg);
      }
  return known;
}

bool loom_buffer_set_has(const struct loom_buffer_set *s, LLVMValueRef arg) {
  for (size_t k = 0; k < s->n; k++)
    if (s->args[k] == arg)
      return true;
  return false;
}

bool loom_orders_memory(LLVMValueRef i) {
  if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i))
    return true;
  if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) &&
      (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic || LLVMGetVolatile(i)))
    return true;
  if (LLVMIsACallInst(i)) {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    return !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee);
  }
  return false;
}

void loom_buffer_set_add(struct loom_buffer_set *s, LLVMValueRef arg) {
  if (loom_buffer_set_has(s, arg))
    return;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->args = realloc(s->args, s->cap * sizeof *s->args);
  }
  s->args[s->n++] = arg;
}
