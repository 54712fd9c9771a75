/* Metadata that tells LLVM a work-item loop has no loop-carried memory
 * dependences: OpenCL work-items between two barriers may not race, so the
 * accesses of different work-items never conflict. With it the loop
 * vectoriser needs no alias proof or runtime checks for __local and
 * per-work-item accesses (e.g. s[l] += s[l + step] in a reduction).
 *
 * Access groups must be distinct metadata nodes and loop IDs self-referential,
 * which the LLVM C API cannot create directly; they are made by parsing a
 * small IR module in the same context (metadata belongs to the context, so
 * the nodes outlive that module). */
#include "wg_internal.h"
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int loom_parallel_md(LLVMContextRef c, unsigned n, LLVMValueRef *groups, LLVMValueRef *loop_ids) {
  size_t cap = 256 + (size_t)n * 400;
  char *ir = malloc(cap);
  size_t len = (size_t)snprintf(ir, cap, "define void @loom_md_holder(ptr %%p) {\nentry:\n");
  for (unsigned i = 0; i < n; i++)
    len += (size_t)snprintf(ir + len, cap - len,
                            "  %%v%u = load i8, ptr %%p, !llvm.access.group !%u\n"
                            "  br label %%b%u, !llvm.loop !%u\nb%u:\n",
                            i, 3 * i, i, 3 * i + 1, i);
  len += (size_t)snprintf(ir + len, cap - len, "  ret void\n}\n");
  for (unsigned i = 0; i < n; i++)
    len += (size_t)snprintf(ir + len, cap - len,
                            "!%u = distinct !{}\n!%u = distinct !{!%u, !%u}\n"
                            "!%u = !{!\"llvm.loop.parallel_accesses\", !%u}\n",
                            3 * i, 3 * i + 1, 3 * i + 1, 3 * i + 2, 3 * i + 2, 3 * i);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, "loom-md");
  free(ir);
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(c, buf, &m, &err)) { /* consumes buf */
    LLVMDisposeMessage(err);
    return -1;
  }
  unsigned ag_kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
  unsigned loop_kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
  LLVMValueRef f = LLVMGetNamedFunction(m, "loom_md_holder");
  unsigned i = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (LLVMIsALoadInst(in) && i < n)
        groups[i] = LLVMGetMetadata(in, ag_kind);
      if (LLVMIsABranchInst(in) && i < n)
        loop_ids[i++] = LLVMGetMetadata(in, loop_kind);
    }
  LLVMDisposeModule(m);
  return i == n ? 0 : -1;
}

/* the object a pointer is based on, through address arithmetic */
static LLVMValueRef base_object(LLVMValueRef p) {
  for (int depth = 0; depth < 32 && p; depth++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

void loom_tag_parallel_accesses(LLVMValueRef f, LLVMValueRef group) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef ptr = NULL;
      if (LLVMIsALoadInst(in))
        ptr = LLVMGetOperand(in, 0);
      else if (LLVMIsAStoreInst(in))
        ptr = LLVMGetOperand(in, 1);
      else
        continue;
      /* a private variable is one object reused by every work-item of the
       * loop: its accesses do conflict across iterations */
      if (LLVMIsAAllocaInst(base_object(ptr)))
        continue;
      LLVMSetMetadata(in, kind, group);
    }
}
