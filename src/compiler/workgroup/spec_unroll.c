/* Barrier loops unrolled in a build for one local size.
 *
 * A build specialised for one local size (core/variants.c, wg_specialize.c)
 * runs only groups of that size, so the kernel's local size queries are
 * constants from the start. When a loop holds a barrier, loops whose trip
 * count is then constant are fully unrolled before the work-group passes
 * (LLVM's unroller, full unrolling only, at O3's size limits, twice: a
 * bitonic sort's inner loop has a constant trip count only once the outer
 * loop is unrolled, and LLVM's loop-unroll-full at its default limits took
 * only innermost loops: the sort at 256 work-items stayed one loop, 200 ms
 * a launch of 4 M ints against 82 unrolled). A tree reduction's
 * `for (s = get_local_size(0) / 2; s > 0; s >>= 1) { if (l < s) s[l] +=
 * s[l + s]; barrier(...); }` becomes one barrier region per level with its
 * step a constant: each level's work-item loop has a known trip count (the
 * levels narrower than a vector are a few operations, not a loop with a
 * scalar remainder), and the regions follow one another without the
 * dispatch (wg_function.c), one straight run of code for O3. Loops without
 * a barrier are unrolled now only where O3 would unroll them later anyway
 * (the same unroller and limits). */
#include "analysis/loops.h"
#include "loom_abi.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>

/* the local size queries of f (__loom_wi(kind, dim), constant dim) */
static void fix_local_size(LLVMValueRef f, const uint64_t local[3]) {
  size_t n;
  LLVMValueRef *calls = loom_calls_in(f, LOOM_SYM_WI, &n);
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef kind = LLVMGetOperand(calls[i], 0), dim = LLVMGetOperand(calls[i], 1);
    if (!LLVMIsAConstantInt(kind) || !LLVMIsAConstantInt(dim))
      continue;
    uint64_t k = LLVMConstIntGetZExtValue(kind), d = LLVMConstIntGetZExtValue(dim);
    if (k != LOOM_WI_LOCAL_SIZE && k != LOOM_WI_ENQ_LOCAL_SIZE)
      continue;
    /* get_local_size(d) is 1 for d >= 3 (and this build's work_dim) */
    uint64_t v = d < 3 ? local[d] : 1;
    LLVMReplaceAllUsesWith(calls[i], LLVMConstInt(LLVMTypeOf(calls[i]), v, 0));
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(calls);
}

/* does a loop of f hold a barrier? */
static bool has_barrier_loop(LLVMValueRef f) {
  size_t n;
  LLVMValueRef *calls = loom_calls_in(f, LOOM_SYM_BARRIER, &n);
  bool found = false;
  if (n) {
    struct loom_domtree dt;
    struct loom_loops loops;
    loom_domtree_build(&dt, f);
    if (loom_loops_find(&loops, &dt)) {
      for (size_t i = 0; i < n && !found; i++) {
        size_t b;
        found = loom_ptrmap_get(&dt.index, LLVMGetInstructionParent(calls[i]), &b) &&
                loom_innermost_loop(&loops, b) != SIZE_MAX;
      }
      loom_loops_free(&loops);
    }
    loom_domtree_free(&dt);
  }
  free(calls);
  return found;
}

/* Barriers are noduplicate so that no pass copies one onto two paths of
 * one work-item; unrolling a loop that every work-item runs the same
 * number of times copies it for all, so the loop pass runs without it. */
static void barriers_noduplicate(LLVMModuleRef m, bool on) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, LOOM_SYM_BARRIER);
  if (!fn)
    return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned kind = LLVMGetEnumAttributeKindForName("noduplicate", 11);
  LLVMAttributeRef a = LLVMCreateEnumAttribute(c, kind, 0);
  if (on)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
  else
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn)
      continue;
    if (on)
      LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, a);
    else
      LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind);
  }
}

int loom_spec_unroll(LLVMModuleRef m, const char *kernel, const uint64_t local[3],
                     LLVMTargetMachineRef tm) {
  LLVMValueRef k = LLVMGetNamedFunction(m, kernel);
  if (!k || LLVMIsDeclaration(k))
    return 0;
  fix_local_size(k, local);
  if (!has_barrier_loop(k))
    return 0;
  /* the loop counters' start values folded to constants first: the trip
   * count of a `s >>= 1` loop is found by evaluating it from its start */
  int rc = loom_run_passes(m, "function(instcombine<no-verify-fixpoint>)", tm);
  if (rc)
    return rc;
  barriers_noduplicate(m, false);
  rc = loom_run_passes(m,
                       "function(loop-unroll<O3;no-partial;no-runtime;no-upperbound>,"
                       "instcombine<no-verify-fixpoint>,"
                       "loop-unroll<O3;no-partial;no-runtime;no-upperbound>)",
                       tm);
  barriers_noduplicate(m, true);
  if (rc == 0)
    rc = loom_run_passes(m,
                         "function(instcombine<no-verify-fixpoint>,simplifycfg,sroa,early-cse,"
                         "loop-simplify,lcssa)",
                         tm);
  return rc;
}
