/* Metadata that tells LLVM a work-item loop has no loop-carried memory
 * dependences: OpenCL work-items between two barriers may not race, so the
 * accesses of different work-items never conflict. With it the loop
 * vectoriser needs no alias proof or runtime checks for __local and
 * per-work-item accesses (e.g. s[l] += s[l + step] in a reduction).
 *
 * Access groups must be distinct metadata nodes and loop IDs self-referential,
 * which the LLVM C API cannot create directly; they are made by parsing a
 * small IR module in the same context (metadata belongs to the context, so
 * the nodes outlive that module).
 *
 * Each region also gets an "outer" loop ID that adds
 * llvm.loop.vectorize.enable: a work-item loop whose body holds a loop of its
 * own is not innermost, and LLVM vectorises such an outer loop (VPlan's
 * native path, enabled by vectorize/outer_loop.c) only when asked to explicitly. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int loom_parallel_md(LLVMContextRef c, unsigned n, LLVMValueRef *groups, LLVMValueRef *loop_ids,
                     LLVMValueRef *outer_loop_ids, const unsigned *wide_width,
                     const unsigned *wide_jam, const unsigned *outer_lanes,
                     LLVMValueRef *wide_loop_ids, LLVMValueRef *twin_loop_ids,
                     bool keep_rolled) {
  /* per region i, nodes 9i..9i+8: its access group, its loop ID, the
   * parallel-accesses entry, the outer loop ID, vectorize.enable, the wide
   * loop ID and its width, the outer loop's width, a second loop ID like the
   * first (for a second loop around the same region: a loop ID belongs to
   * one loop, LLVM marks it vectorised); !loom.md lists group, loop, outer,
   * wide and twin IDs */
  size_t cap = 256 + (size_t)n * 900; /* each snprintf below stays well inside */
  char *ir = malloc(cap);
  if (!ir)
    return -1;
  size_t len = 0;
  /* keep_rolled: a loop whose trip count is a constant must reach the
   * vectoriser whole; fully unrolled first, its iterations would be
   * vectorised across the enclosing loop instead (gathers and scatters) */
  char rolled[32] = "";
  if (keep_rolled) {
    snprintf(rolled, sizeof rolled, ", !%u", 9 * n);
    len += (size_t)snprintf(ir + len, cap - len, "!%u = !{!\"llvm.loop.unroll.disable\"}\n", 9 * n);
  }
  len += (size_t)snprintf(ir + len, cap - len, "!loom.md = !{");
  for (unsigned i = 0; i < n; i++)
    len += (size_t)snprintf(ir + len, cap - len, "%s!%u, !%u, !%u, !%u, !%u", i ? ", " : "",
                            9 * i, 9 * i + 1, 9 * i + 3, 9 * i + 5, 9 * i + 8);
  len += (size_t)snprintf(ir + len, cap - len, "}\n");
  for (unsigned i = 0; i < n; i++) {
    unsigned b = 9 * i, width = wide_width ? wide_width[i] : 0;
    unsigned jam = wide_jam ? wide_jam[i] : 1, lanes = outer_lanes ? outer_lanes[i] : 0;
    char jam_md[64] = "", lanes_md[16] = "";
    if (jam > 1)
      snprintf(jam_md, sizeof jam_md, ", !{!\"llvm.loop.unroll_and_jam.count\", i32 %u}", jam);
    if (lanes)
      snprintf(lanes_md, sizeof lanes_md, ", !%u", b + 7);
    len += (size_t)snprintf(ir + len, cap - len,
                            "!%u = distinct !{}\n!%u = distinct !{!%u, !%u%s}\n"
                            "!%u = !{!\"llvm.loop.parallel_accesses\", !%u}\n"
                            "!%u = distinct !{!%u, !%u, !%u%s%s}\n"
                            "!%u = !{!\"llvm.loop.vectorize.enable\", i1 true}\n"
                            "!%u = distinct !{!%u, !%u, !%u, !%u%s%s}\n"
                            "!%u = !{!\"llvm.loop.vectorize.width\", i32 %u}\n"
                            "!%u = !{!\"llvm.loop.vectorize.width\", i32 %u}\n",
                            b, b + 1, b + 1, b + 2, rolled, b + 2, b, b + 3, b + 3, b + 2, b + 4,
                            lanes_md, rolled, b + 4, b + 5, b + 5, b + 2, b + 4, b + 6, rolled,
                            jam_md, b + 6, width ? width : 1, b + 7, lanes ? lanes : 1);
    len += (size_t)snprintf(ir + len, cap - len, "!%u = distinct !{!%u, !%u%s}\n", b + 8, b + 8,
                            b + 2, rolled);
  }
  assert(len < cap);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, "loom-md");
  free(ir);
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(c, buf, &m, &err)) { /* consumes buf */
    LLVMDisposeMessage(err);
    return -1;
  }
  int rc = -1;
  if (LLVMGetNamedMetadataNumOperands(m, "loom.md") == 5 * n) {
    LLVMValueRef *ops = malloc((5 * (size_t)n + 1) * sizeof *ops);
    if (ops) {
      LLVMGetNamedMetadataOperands(m, "loom.md", ops);
      for (unsigned i = 0; i < n; i++) {
        groups[i] = ops[5 * i];
        loop_ids[i] = ops[5 * i + 1];
        outer_loop_ids[i] = ops[5 * i + 2];
        if (wide_loop_ids)
          wide_loop_ids[i] = wide_width && wide_width[i] ? ops[5 * i + 3] : NULL;
        if (twin_loop_ids)
          twin_loop_ids[i] = ops[5 * i + 4];
      }
      free(ops);
      rc = 0;
    }
  }
  LLVMDisposeModule(m); /* the nodes belong to the context and stay */
  return rc;
}

/* may p point to a private variable? A generic pointer chosen by a select
 * or a PHI may be a private variable's address in some work-items only.
 * seen holds the selects and PHIs on the current path (loops revisit them). */
static bool maybe_private(LLVMValueRef p, LLVMValueRef *seen, int depth, int *budget) {
  p = loom_base_object(p);
  /* a private array kept per lane is one buffer too (workgroup/wide_private.c) */
  if (LLVMIsAAllocaInst(p) || loom_is_call_to(p, LOOM_SYM_WIDE_PRIVATE))
    return true;
  bool sel = LLVMIsASelectInst(p) != NULL;
  if (!sel && !LLVMIsAPHINode(p))
    return false;
  for (int i = 0; i < depth; i++)
    if (seen[i] == p)
      return false; /* around a loop: its other inputs decide */
  if (depth == 8 || --*budget < 0)
    return true; /* too deep or too wide to tell: be safe */
  seen[depth] = p;
  unsigned n = sel ? 2 : LLVMCountIncoming(p);
  for (unsigned i = 0; i < n; i++)
    if (maybe_private(sel ? LLVMGetOperand(p, i + 1) : LLVMGetIncomingValue(p, i), seen,
                      depth + 1, budget))
      return true;
  return false;
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
      LLVMValueRef seen[8];
      int budget = 64;
      if (maybe_private(ptr, seen, 0, &budget))
        continue;
      /* volatile and atomic accesses stay out: LLVM would vectorise them in
       * a parallel loop as plain loads and stores, and the work-group
       * collectives rely on their sequential order (builtins/workgroup.cl) */
      if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
        continue;
      LLVMSetMetadata(in, kind, group);
    }
}
