/* Per-work-item tracking of the region each work-item reached, for
 * divergent loops and masked kernels (wg_tracking.c). */
#ifndef LOOM_WG_TRACKING_H
#define LOOM_WG_TRACKING_H
#include "workgroup/workgroup.h"

struct wg_tracking {
  LLVMContextRef c;
  LLVMValueRef prev_var;  /* i32: the region that ran last */
  LLVMValueRef again_var; /* i1: some work-item came back to this region */
  LLVMValueRef later_var; /* i32: the largest other region a work-item reached */
  LLVMValueRef slot_base_fn;
  unsigned ag_kind;
  const struct loom_divergent_loop *loop; /* the loop whose header region runs */
  LLVMValueRef first;                     /* i1: the loop's first pass (unmasked) */
};

/* does region r run only the work-items that reached it (a masked kernel's
 * regions, a divergent loop's header)? */
bool loom_wg_region_tracked(const struct loom_wg_build *b, unsigned r) LOOM_HIDDEN;
/* allocas at the work-group function's entry */
void loom_wg_tracking_init(struct wg_tracking *t, LLVMModuleRef m, LLVMBuilderRef entry) LOOM_HIDDEN;
/* at the start of region r's pre-block; true when r is tracked */
bool loom_wg_tracking_begin(struct wg_tracking *t, const struct loom_wg_build *b, unsigned r,
                            LLVMBuilderRef bld) LOOM_HIDDEN;
/* in the work-item loop: the region call of a tracked region */
void loom_wg_tracked_call(struct wg_tracking *t, const struct loom_wg_build *b, unsigned r,
                          LLVMBuilderRef bld, LLVMValueRef *kargs, unsigned nargs,
                          LLVMValueRef linear) LOOM_HIDDEN;
/* after the work-item loops: the next region */
void loom_wg_tracking_end(struct wg_tracking *t, unsigned r, LLVMBuilderRef bld,
                          LLVMValueRef next_var) LOOM_HIDDEN;

#endif
