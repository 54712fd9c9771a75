/* The work-group function of a kernel with sub-group barriers.
 *
 * Sub-groups advance independently: one may wait at a sub-group barrier in
 * a branch that another skips. Every work-item therefore records in its
 * `where` slot the barrier it reached (-1: it returned), and the function
 * runs one point at a time:
 *
 *   cur = 0, converged = true
 *   while (cur != -1)
 *     if cur is a sub-group collective: for each sub-group: combine(cur)
 *     for every work-item (all if converged, else those whose where == cur):
 *       where = region_cur(...)
 *     cur = the lowest sub-group barrier of a non-uniform function some
 *           work-item is at, else the lowest sub-group barrier, else the
 *           work-group barrier they are all at (or -1)
 *     converged = every work-item is at cur
 *
 * Running the lowest pending sub-group barrier first makes the work-items
 * that reach a barrier together the active ones of its combine step, as
 * the non-uniform functions need: in `if (c) a = f(x); b = g(y);` the
 * work-items taking the branch fold their x before anyone reaches g.
 * Barrier ids follow the kernel's block order, where LLVM keeps a branch
 * before its join. A uniform function's barrier (reduce, scan, broadcast,
 * all, any, rotate: LOOM_SG_UNIFORM) waits while a non-uniform one is
 * pending: in a loop whose body calls sub_group_reduce_add and, in a
 * branch, a non-uniform function, the work-items that skip the branch are
 * at the next iteration's reduction when the others reach the branch's
 * call, and run first the reduction would fold half the sub-group. A
 * work-group barrier waits until no sub-group barrier is pending anywhere;
 * its region then runs for every work-item at it. When every work-item is
 * at cur the loop skips the `where` test, so straight-line sub-group code
 * vectorises as before. */
#include "loom_abi.h"
#include "vectorize/vectorize.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>

struct sg_gen {
  struct loom_wg_build *b;
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef bld;
  LLVMValueRef w, *kargs, *lsize;
  unsigned np;
  LLVMTypeRef i32, i64, i1, i8;
  LLVMValueRef where_base; /* the where slots, indexed by linear id */
  LLVMValueRef lo_var, hi_var, losg_var; /* i32 reductions over the new `where`s */
  LLVMValueRef lonu_var; /* the lowest barrier of a non-uniform function */
  LLVMValueRef conv_var;   /* i1: every work-item is at the current point */
  LLVMValueRef sg_table;   /* i8 per id + 1: is it a sub-group barrier? */
  unsigned ag_kind;
};

/* does the whole sub-group reach point p together (a uniform function, a
 * sub_group_barrier, a loop's convergence point)? Non-uniform functions
 * fold whichever work-items arrive */
static bool point_uniform(const struct loom_sg_point *p) {
  return p->op == 0 || (p->op & LOOM_SG_UNIFORM);
}

static LLVMValueRef i32c(struct sg_gen *g, int64_t v) { return LLVMConstInt(g->i32, (uint64_t)v, 1); }

static LLVMValueRef slot_base(struct sg_gen *g, uint64_t off) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->c, 0);
  LLVMValueRef fn = loom_get_fn(g->m, LOOM_SYM_SLOT_BASE, ptr, &g->i64, 1);
  LLVMValueRef o = loom_i64(g->c, off);
  return LLVMBuildCall2(g->bld, LLVMGlobalGetValueType(fn), fn, &o, 1, "");
}

static LLVMValueRef gep(struct sg_gen *g, LLVMValueRef base, LLVMValueRef idx, uint64_t size) {
  LLVMValueRef off = LLVMBuildMul(g->bld, idx, loom_i64(g->c, size), "");
  return LLVMBuildGEP2(g->bld, g->i8, base, &off, 1, "");
}

/* is `id` (i32) a sub-group barrier (nonuniform: one of a function that
 * need not be reached by the whole sub-group)? With fewer than 64 barriers
 * a bit mask in a register (vector shifts in the work-item loop), else a
 * table (1: uniform, 2: non-uniform) */
static LLVMValueRef is_sg_point_of(struct sg_gen *g, LLVMValueRef id, bool nonuniform) {
  if (g->b->num_barriers < 64) {
    uint64_t mask = 0;
    for (unsigned j = 0; j < g->b->num_sg; j++)
      if (!nonuniform || !point_uniform(&g->b->sg[j]))
        mask |= (uint64_t)1 << g->b->sg[j].id;
    LLVMValueRef in = LLVMBuildICmp(g->bld, LLVMIntULT, id, i32c(g, 64), "");
    LLVMValueRef sh = LLVMBuildZExt(g->bld, LLVMBuildSelect(g->bld, in, id, i32c(g, 0), ""), g->i64, "");
    LLVMValueRef bit = LLVMBuildAnd(g->bld, LLVMBuildLShr(g->bld, loom_i64(g->c, mask), sh, ""),
                                    loom_i64(g->c, 1), "");
    return LLVMBuildAnd(g->bld, in, LLVMBuildICmp(g->bld, LLVMIntNE, bit, loom_i64(g->c, 0), ""),
                        "is_sg");
  }
  LLVMValueRef in = LLVMBuildICmp(g->bld, LLVMIntULE, id, i32c(g, g->b->num_barriers), "");
  LLVMValueRef idx = LLVMBuildSelect(g->bld, in, id, i32c(g, 0), "");
  LLVMValueRef i64idx = LLVMBuildZExt(g->bld, idx, g->i64, "");
  LLVMValueRef p = LLVMBuildGEP2(g->bld, g->i8, g->sg_table, &i64idx, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(g->bld, g->i8, p, "");
  LLVMValueRef hit = nonuniform ? LLVMBuildICmp(g->bld, LLVMIntEQ, v, LLVMConstInt(g->i8, 2, 0), "")
                                : LLVMBuildICmp(g->bld, LLVMIntNE, v, LLVMConstInt(g->i8, 0, 0), "");
  return LLVMBuildAnd(g->bld, in, hit, "is_sg");
}

static LLVMValueRef is_sg_point(struct sg_gen *g, LLVMValueRef id) { return is_sg_point_of(g, id, false); }

static void tag(struct sg_gen *g, LLVMValueRef access, unsigned r) {
  if (g->b->loop_ids && g->b->access_groups && g->b->access_groups[r])
    LLVMSetMetadata(access, g->ag_kind, g->b->access_groups[r]);
}

/* folds `now` into the three reductions */
static void track(struct sg_gen *g, LLVMValueRef now) {
  LLVMBuilderRef b = g->bld;
  LLVMValueRef lo = LLVMBuildLoad2(b, g->i32, g->lo_var, "");
  LLVMValueRef hi = LLVMBuildLoad2(b, g->i32, g->hi_var, "");
  LLVMValueRef ls = LLVMBuildLoad2(b, g->i32, g->losg_var, "");
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, now, lo, ""), now, lo, ""), g->lo_var);
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, now, hi, ""), now, hi, ""), g->hi_var);
  LLVMValueRef cand = LLVMBuildSelect(b, is_sg_point(g, now), now, i32c(g, INT32_MAX), "");
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, cand, ls, ""), cand, ls, ""),
                 g->losg_var);
  LLVMValueRef lnu = LLVMBuildLoad2(b, g->i32, g->lonu_var, "");
  LLVMValueRef cnu = LLVMBuildSelect(b, is_sg_point_of(g, now, true), now, i32c(g, INT32_MAX), "");
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, cnu, lnu, ""), cnu, lnu, ""),
                 g->lonu_var);
}

/* for z < L2: for y < L1: body(z, y) — returns the (z, y) phis; *latch:
 * the block the body must end in (branch to it); exit: where the loops go */
struct zy_loop {
  LLVMValueRef z, y, zy; /* zy: (z * L1 + y) * L0 */
  LLVMBasicBlockRef pre, zh, yh, yl, zl;
};

static void zy_open(struct sg_gen *g, struct zy_loop *l, const char *what) {
  LLVMBuilderRef b = g->bld;
  l->pre = LLVMGetInsertBlock(b);
  l->zh = LLVMAppendBasicBlockInContext(g->c, g->w, what);
  l->yh = LLVMAppendBasicBlockInContext(g->c, g->w, what);
  l->yl = LLVMAppendBasicBlockInContext(g->c, g->w, what);
  l->zl = LLVMAppendBasicBlockInContext(g->c, g->w, what);
  LLVMBuildBr(b, l->zh);
  LLVMPositionBuilderAtEnd(b, l->zh);
  l->z = LLVMBuildPhi(b, g->i64, "sz");
  LLVMBuildBr(b, l->yh);
  LLVMPositionBuilderAtEnd(b, l->yh);
  l->y = LLVMBuildPhi(b, g->i64, "sy");
  l->zy = LLVMBuildMul(b, LLVMBuildAdd(b, LLVMBuildMul(b, l->z, g->lsize[1], ""), l->y, ""),
                       g->lsize[0], "row");
}

static void zy_close(struct sg_gen *g, struct zy_loop *l, LLVMBasicBlockRef exit) {
  LLVMBuilderRef b = g->bld;
  LLVMValueRef zero = loom_i64(g->c, 0), one = loom_i64(g->c, 1);
  LLVMPositionBuilderAtEnd(b, l->yl);
  LLVMValueRef y1 = LLVMBuildAdd(b, l->y, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, y1, g->lsize[1], ""), l->yh, l->zl);
  LLVMPositionBuilderAtEnd(b, l->zl);
  LLVMValueRef z1 = LLVMBuildAdd(b, l->z, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, z1, g->lsize[2], ""), l->zh, exit);
  LLVMAddIncoming(l->z, &zero, &l->pre, 1);
  LLVMAddIncoming(l->z, &z1, &l->zl, 1);
  LLVMAddIncoming(l->y, &zero, &l->zh, 1);
  LLVMAddIncoming(l->y, &y1, &l->yl, 1);
  LLVMPositionBuilderAtEnd(b, exit);
}

/* for x < L0 inside a zy loop: the phi of x, in its header */
static LLVMValueRef x_open(struct sg_gen *g, const char *what, LLVMBasicBlockRef *from) {
  LLVMBasicBlockRef xh = LLVMAppendBasicBlockInContext(g->c, g->w, what);
  *from = LLVMGetInsertBlock(g->bld);
  LLVMBuildBr(g->bld, xh);
  LLVMPositionBuilderAtEnd(g->bld, xh);
  return LLVMBuildPhi(g->bld, g->i64, "lx");
}

/* the latch of that loop, leaving to the zy loop's latch; returns its branch */
static LLVMValueRef x_close(struct sg_gen *g, struct zy_loop *l, LLVMValueRef x,
                            LLVMBasicBlockRef from) {
  LLVMBuilderRef b = g->bld;
  LLVMValueRef x1 = LLVMBuildAdd(b, x, loom_i64(g->c, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
  LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, x1, g->lsize[0], ""),
                                    LLVMGetInstructionParent(x), l->yl);
  LLVMValueRef zero = loom_i64(g->c, 0);
  LLVMAddIncoming(x, &zero, &from, 1);
  LLVMAddIncoming(x, &x1, &latch, 1);
  return br;
}

static LLVMValueRef combine_fn(struct sg_gen *g) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->c, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(g->m, LOOM_SYM_SG_COMBINE);
  if (!fn) {
    LLVMTypeRef pt7[7] = {g->i32, ptr, ptr, ptr, ptr, g->i32, g->i32};
    fn = LLVMAddFunction(g->m, LOOM_SYM_SG_COMBINE,
                         LLVMFunctionType(LLVMVoidTypeInContext(g->c), pt7, 7, 0));
  }
  return fn;
}

/* for each sub-group: __loom_sg_combine(op, x, res, aux, where, r, n), with
 * every work-item at this point (the converged dispatch) */
static void emit_combine(struct sg_gen *g, const struct loom_sg_point *pt) {
  LLVMBuilderRef b = g->bld;
  LLVMTypeRef ptr = LLVMPointerTypeInContext(g->c, 0);
  LLVMValueRef fn = combine_fn(g);
  LLVMValueRef xb = slot_base(g, pt->x_off), rb = slot_base(g, pt->res_off);
  LLVMValueRef ab = slot_base(g, pt->aux_off);
  struct zy_loop l;
  zy_open(g, &l, "sg_combine");
  LLVMBasicBlockRef sh = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_each");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, sh);
  LLVMPositionBuilderAtEnd(b, sh);
  LLVMValueRef xs = LLVMBuildPhi(b, g->i64, "sg_first");
  LLVMValueRef s = loom_i64(g->c, g->b->sg_size);
  LLVMValueRef left = LLVMBuildSub(b, g->lsize[0], xs, "");
  LLVMValueRef n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, left, s, ""), left, s, "");
  LLVMValueRef lin = LLVMBuildAdd(b, l.zy, xs, "");
  LLVMValueRef args[7] = {
      LLVMConstInt(g->i32, pt->op, 0),
      gep(g, xb, lin, pt->x_size),
      gep(g, rb, lin, pt->res_size),
      gep(g, ab, lin, 4),
      gep(g, g->where_base, lin, 4),
      i32c(g, pt->id),
      LLVMBuildTrunc(b, n, g->i32, ""),
  };
  /* a whole sub-group with every work-item at this point: n and "all
   * active" as constants, so the combine step's loops become a few vector
   * instructions; the general call otherwise */
  LLVMBasicBlockRef whole = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_whole");
  LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_part");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_combined_one");
  LLVMValueRef conv = LLVMBuildLoad2(b, g->i1, g->conv_var, "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, conv, LLVMBuildICmp(b, LLVMIntEQ, n, s, ""), ""), whole, part);
  LLVMPositionBuilderAtEnd(b, part);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 7, "");
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, whole);
  args[4] = LLVMConstNull(ptr);
  args[6] = i32c(g, g->b->sg_size);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 7, "");
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef xs1 = LLVMBuildAdd(b, xs, s, "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, xs1, g->lsize[0], ""), sh, l.yl);
  LLVMValueRef zero = loom_i64(g->c, 0);
  LLVMAddIncoming(xs, &zero, &from, 1);
  LLVMAddIncoming(xs, &xs1, &latch, 1);
  zy_close(g, &l, LLVMAppendBasicBlockInContext(g->c, g->w, "sg_combined"));
}

/* the work-item loops of region r; masked: only the work-items at r run */
static void emit_items(struct sg_gen *g, unsigned r, bool masked, LLVMBasicBlockRef exit) {
  LLVMBuilderRef b = g->bld;
  struct zy_loop l;
  zy_open(g, &l, masked ? "sg_masked" : "sg_all");
  LLVMBasicBlockRef from;
  LLVMValueRef x = x_open(g, "sg_wi_x", &from);
  unsigned np = g->np;
  LLVMValueRef region = g->b->regions[r];
  LLVMTypeRef fty = LLVMGlobalGetValueType(region);
  g->kargs[np] = x;
  g->kargs[np + 1] = l.y;
  g->kargs[np + 2] = l.z;
  g->kargs[np + 3] = LLVMBuildAdd(b, l.zy, x, "linear");
  LLVMValueRef where = gep(g, g->where_base, g->kargs[np + 3], 4);
  LLVMValueRef now;
  if (!masked) {
    now = LLVMBuildCall2(b, fty, region, g->kargs, np + 5, "");
  } else {
    LLVMValueRef was = LLVMBuildLoad2(b, g->i32, where, "");
    tag(g, was, r);
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_run");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->c, g->w, "sg_join");
    LLVMBasicBlockRef at = LLVMGetInsertBlock(b);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, was, i32c(g, r), ""), run, join);
    LLVMPositionBuilderAtEnd(b, run);
    LLVMValueRef nb = LLVMBuildCall2(b, fty, region, g->kargs, np + 5, "");
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    now = LLVMBuildPhi(b, g->i32, "");
    LLVMValueRef iv[2] = {nb, was};
    LLVMBasicBlockRef ib[2] = {run, at};
    LLVMAddIncoming(now, iv, ib, 2);
  }
  tag(g, LLVMBuildStore(b, now, where), r);
  LLVMValueRef br = x_close(g, &l, x, from);
  /* the two loops of a region need loop IDs of their own */
  LLVMValueRef id = !g->b->loop_ids ? NULL : masked ? g->b->twin_loop_ids[r] : g->b->loop_ids[r];
  if (id)
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->c, "llvm.loop", 9), id);
  zy_close(g, &l, exit);
}

/* lo, hi and the lowest sub-group barrier over every work-item's `where`:
 * a loop of its own after the region's, which it would keep from being
 * vectorised (LLVM 19 does not take the three folds for reductions there) */
static void emit_scan(struct sg_gen *g, LLVMBasicBlockRef exit) {
  LLVMBuilderRef b = g->bld;
  LLVMBuildStore(b, i32c(g, INT32_MAX), g->lo_var);
  LLVMBuildStore(b, i32c(g, INT32_MIN), g->hi_var);
  LLVMBuildStore(b, i32c(g, INT32_MAX), g->losg_var);
  LLVMBuildStore(b, i32c(g, INT32_MAX), g->lonu_var);
  struct zy_loop l;
  zy_open(g, &l, "sg_scan");
  LLVMBasicBlockRef from;
  LLVMValueRef x = x_open(g, "sg_scan_x", &from);
  LLVMValueRef where = gep(g, g->where_base, LLVMBuildAdd(b, l.zy, x, ""), 4);
  track(g, LLVMBuildLoad2(b, g->i32, where, ""));
  x_close(g, &l, x, from);
  zy_close(g, &l, exit);
}

/* a constant table: byte id is 1 when barrier id is a sub-group barrier of
 * a uniform function, 2 of a non-uniform one */
static LLVMValueRef point_table(struct sg_gen *g) {
  unsigned n = g->b->num_barriers + 1;
  LLVMValueRef *v = calloc(n, sizeof *v);
  for (unsigned i = 0; i < n; i++)
    v[i] = LLVMConstInt(g->i8, 0, 0);
  for (unsigned j = 0; j < g->b->num_sg; j++)
    if (g->b->sg[j].id < n)
      v[g->b->sg[j].id] = LLVMConstInt(g->i8, point_uniform(&g->b->sg[j]) ? 1 : 2, 0);
  LLVMValueRef init = LLVMConstArray2(g->i8, v, n);
  free(v);
  LLVMValueRef t = LLVMAddGlobal(g->m, LLVMTypeOf(init), "loom.sg_points");
  LLVMSetInitializer(t, init);
  LLVMSetGlobalConstant(t, 1);
  LLVMSetLinkage(t, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(t, LLVMGlobalUnnamedAddr);
  return t;
}

void loom_wg_sg_dispatch(LLVMModuleRef m, struct loom_wg_build *b, LLVMBuilderRef bld,
                         LLVMValueRef *kargs, unsigned np, LLVMValueRef lsize[3]) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  struct sg_gen g = {.b = b, .m = m, .c = c, .bld = bld, .w = b->wg, .kargs = kargs,
                     .lsize = lsize, .np = np};
  g.i32 = LLVMInt32TypeInContext(c);
  g.i64 = LLVMInt64TypeInContext(c);
  g.i1 = LLVMInt1TypeInContext(c);
  g.i8 = LLVMInt8TypeInContext(c);
  g.ag_kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
  g.sg_table = b->num_barriers < 64 ? NULL : point_table(&g);
  g.where_base = slot_base(&g, b->where_slot);
  LLVMValueRef cur_var = LLVMBuildAlloca(bld, g.i32, "cur");
  LLVMValueRef conv_var = LLVMBuildAlloca(bld, g.i1, "converged");
  g.conv_var = conv_var;
  g.lo_var = LLVMBuildAlloca(bld, g.i32, "lo");
  g.hi_var = LLVMBuildAlloca(bld, g.i32, "hi");
  g.losg_var = LLVMBuildAlloca(bld, g.i32, "lo_sg");
  g.lonu_var = LLVMBuildAlloca(bld, g.i32, "lo_nu");
  LLVMBuildStore(bld, i32c(&g, 0), cur_var);
  LLVMBuildStore(bld, LLVMConstInt(g.i1, 1, 0), conv_var);

  LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(c, g.w, "sg_dispatch");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, g.w, "done");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c, g.w, "sg_next");
  LLVMBuildBr(bld, dispatch);
  LLVMPositionBuilderAtEnd(bld, done);
  LLVMBuildRetVoid(bld);
  LLVMPositionBuilderAtEnd(bld, dispatch);
  LLVMValueRef cur = LLVMBuildLoad2(bld, g.i32, cur_var, "");
  LLVMValueRef sw = LLVMBuildSwitch(bld, cur, done, b->num_barriers + 1);
  for (unsigned r = 0; r <= b->num_barriers; r++) {
    LLVMBasicBlockRef pre = LLVMAppendBasicBlockInContext(c, g.w, "sg_region");
    LLVMAddCase(sw, i32c(&g, r), pre);
    LLVMPositionBuilderAtEnd(bld, pre);
    for (unsigned j = 0; j < b->num_sg; j++)
      if (b->sg[j].id == r && b->sg[j].op)
        emit_combine(&g, &b->sg[j]);
    LLVMBasicBlockRef all = LLVMAppendBasicBlockInContext(c, g.w, "sg_converged");
    LLVMBasicBlockRef some = LLVMAppendBasicBlockInContext(c, g.w, "sg_diverged");
    LLVMBuildCondBr(bld, LLVMBuildLoad2(bld, g.i1, conv_var, ""), all, some);
    LLVMPositionBuilderAtEnd(bld, all);
    emit_items(&g, r, false, LLVMAppendBasicBlockInContext(c, g.w, "sg_ran"));
    LLVMBuildBr(bld, next);
    LLVMPositionBuilderAtEnd(bld, some);
    emit_items(&g, r, true, LLVMAppendBasicBlockInContext(c, g.w, "sg_ran"));
    LLVMBuildBr(bld, next);
  }
  /* the next point: the lowest pending sub-group barrier, else the
   * work-group barrier (or -1) every remaining work-item is at */
  LLVMPositionBuilderAtEnd(bld, next);
  emit_scan(&g, LLVMAppendBasicBlockInContext(c, g.w, "sg_scanned"));
  LLVMValueRef lo = LLVMBuildLoad2(bld, g.i32, g.lo_var, "");
  LLVMValueRef hi = LLVMBuildLoad2(bld, g.i32, g.hi_var, "");
  LLVMValueRef ls = LLVMBuildLoad2(bld, g.i32, g.losg_var, "");
  LLVMValueRef lnu = LLVMBuildLoad2(bld, g.i32, g.lonu_var, "");
  LLVMValueRef pending = LLVMBuildICmp(bld, LLVMIntNE, ls, i32c(&g, INT32_MAX), "");
  LLVMValueRef has_nu = LLVMBuildICmp(bld, LLVMIntNE, lnu, i32c(&g, INT32_MAX), "");
  /* a non-uniform point first: a uniform one waits for the stragglers */
  LLVMValueRef sgp = LLVMBuildSelect(bld, has_nu, lnu, ls, "");
  LLVMBuildStore(bld, LLVMBuildSelect(bld, pending, sgp, hi, ""), cur_var);
  LLVMBuildStore(bld, LLVMBuildICmp(bld, LLVMIntEQ, lo, hi, ""), conv_var);
  LLVMBuildBr(bld, dispatch);
}
