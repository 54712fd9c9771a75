/* Regions whose work-items may go different ways (divergent_loops.c).
 *
 * A tracked region's loop runs only the work-items that reached it, and
 * records where each one went next in its `where` slot:
 *
 *   for each work-item: if (active) where = region_r(...)
 *   next = some work-item came back to r ? r : the largest other id (-1: done)
 *
 * The header region of a divergent loop is tracked: its first pass runs
 * every work-item, later passes those whose `where` is the header. In a
 * masked kernel (some work-items skip the loop and end early) every region
 * is tracked and runs the work-items whose `where` names it; region 0 runs
 * them all. The `where` accesses are in the region's access group, so the
 * loop stays parallel for the vectoriser; the bookkeeping is a consecutive
 * load, a select and a store per work-item, and two reductions. */
#include "loom_abi.h"
#include "workgroup/wg_tracking.h"

void loom_wg_tracking_init(struct wg_tracking *t, LLVMModuleRef m, LLVMBuilderRef entry) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  t->c = c;
  t->prev_var = LLVMBuildAlloca(entry, i32, "prev_region");
  LLVMBuildStore(entry, LLVMConstInt(i32, (uint64_t)-1, 1), t->prev_var);
  t->again_var = LLVMBuildAlloca(entry, LLVMInt1TypeInContext(c), "again");
  t->later_var = LLVMBuildAlloca(entry, i32, "later");
  t->slot_base_fn = loom_get_fn(m, LOOM_SYM_SLOT_BASE, LLVMPointerTypeInContext(c, 0), &i64, 1);
  t->ag_kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
}

/* the divergent loop whose header region is r, or NULL */
static const struct loom_divergent_loop *loop_headed_by(const struct loom_wg_build *b, unsigned r) {
  const struct loom_divergent_loop *loop = NULL;
  for (unsigned j = 0; j < b->num_divergent; j++)
    if (b->divergent[j].header_id == r)
      loop = &b->divergent[j];
  return loop;
}

bool loom_wg_region_tracked(const struct loom_wg_build *b, unsigned r) {
  return b->masked || loop_headed_by(b, r);
}

bool loom_wg_tracking_begin(struct wg_tracking *t, const struct loom_wg_build *b, unsigned r,
                            LLVMBuilderRef bld) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(t->c);
  t->loop = loop_headed_by(b, r);
  t->first = NULL;
  if (t->loop && !b->masked)
    t->first = LLVMBuildICmp(bld, LLVMIntNE, LLVMBuildLoad2(bld, i32, t->prev_var, ""),
                             LLVMConstInt(i32, r, 0), "first_pass");
  if (b->num_divergent)
    LLVMBuildStore(bld, LLVMConstInt(i32, r, 0), t->prev_var);
  if (!t->loop && !b->masked)
    return false;
  LLVMBuildStore(bld, LLVMConstInt(LLVMInt1TypeInContext(t->c), 0, 0), t->again_var);
  LLVMBuildStore(bld, LLVMConstInt(i32, (uint64_t)-1, 1), t->later_var);
  return true;
}

void loom_wg_tracked_call(struct wg_tracking *t, const struct loom_wg_build *b, unsigned r,
                          LLVMBuilderRef bld, LLVMValueRef *kargs, unsigned nargs,
                          LLVMValueRef linear) {
  LLVMContextRef c = t->c;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(c);
  LLVMValueRef w = LLVMGetBasicBlockParent(LLVMGetInsertBlock(bld));
  LLVMValueRef rid = LLVMConstInt(i32, r, 0);
  LLVMValueRef off = loom_i64(c, b->where_slot);
  LLVMValueRef base = LLVMBuildCall2(bld, LLVMGlobalGetValueType(t->slot_base_fn), t->slot_base_fn,
                                     &off, 1, "");
  LLVMValueRef idx = LLVMBuildMul(bld, linear, loom_i64(c, 4), "");
  LLVMValueRef where = LLVMBuildGEP2(bld, i8, base, &idx, 1, "where");
  LLVMValueRef group = b->loop_ids ? b->access_groups[r] : NULL;
  LLVMTypeRef fty = LLVMGlobalGetValueType(b->regions[r]);
  LLVMValueRef now;
  if (b->masked && r == 0) {
    /* every work-item starts here */
    now = LLVMBuildCall2(bld, fty, b->regions[r], kargs, nargs, "");
  } else {
    LLVMValueRef was = LLVMBuildLoad2(bld, i32, where, "");
    if (group)
      LLVMSetMetadata(was, t->ag_kind, group);
    LLVMValueRef active = LLVMBuildICmp(bld, LLVMIntEQ, was, rid, "");
    if (t->first)
      active = LLVMBuildOr(bld, t->first, active, "");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(c, w, "wi_run");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, w, "wi_join");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(bld);
    LLVMBuildCondBr(bld, active, run, join);
    LLVMPositionBuilderAtEnd(bld, run);
    LLVMValueRef nb = LLVMBuildCall2(bld, fty, b->regions[r], kargs, nargs, "");
    LLVMBuildBr(bld, join);
    LLVMPositionBuilderAtEnd(bld, join);
    now = LLVMBuildPhi(bld, i32, "");
    LLVMValueRef in_v[2] = {nb, was};
    LLVMBasicBlockRef in_b[2] = {run, from};
    LLVMAddIncoming(now, in_v, in_b, 2);
  }
  LLVMValueRef st = LLVMBuildStore(bld, now, where);
  if (group)
    LLVMSetMetadata(st, t->ag_kind, group);
  LLVMValueRef back = LLVMBuildICmp(bld, LLVMIntEQ, now, rid, "");
  LLVMBuildStore(bld, LLVMBuildOr(bld, LLVMBuildLoad2(bld, i1, t->again_var, ""), back, ""),
                 t->again_var);
  LLVMValueRef other = LLVMBuildSelect(bld, back, LLVMConstInt(i32, (uint64_t)-1, 1), now, "");
  LLVMValueRef later = LLVMBuildLoad2(bld, i32, t->later_var, "");
  LLVMBuildStore(bld,
                 LLVMBuildSelect(bld, LLVMBuildICmp(bld, LLVMIntSGT, other, later, ""), other,
                                 later, ""),
                 t->later_var);
}

void loom_wg_tracking_end(struct wg_tracking *t, unsigned r, LLVMBuilderRef bld,
                          LLVMValueRef next_var) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(t->c);
  LLVMValueRef again = LLVMBuildLoad2(bld, LLVMInt1TypeInContext(t->c), t->again_var, "");
  LLVMValueRef later = LLVMBuildLoad2(bld, i32, t->later_var, "");
  LLVMBuildStore(bld, LLVMBuildSelect(bld, again, LLVMConstInt(i32, r, 0), later, ""), next_var);
}
