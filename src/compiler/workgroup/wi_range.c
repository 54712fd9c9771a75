/* Narrowing a region's work-item loop to the work-items that do something.
 *
 * A tree reduction's step `if (l < step) s[l] += s[l + step];` leaves most
 * work-items idle in its later rounds, yet the region's loop walks all of
 * them. When every side effect of a region lies behind a guard that bounds
 * the local id x from above (`x < U`, `x <= U`, `x == U`, U group-uniform),
 * the work-items beyond the largest bound only compute what work-item 0
 * computes too: group-uniform values (stored into the group's uniform slots
 * or the region's private view of them) and the id of the next region. So the
 * loop over x can stop at max(1, bounds) (clamped to the local size): work-item
 * 0 always runs, so the uniform values are still stored.
 *
 * The bounds are evaluated once before the loop, by cloning their
 * expressions into the work-group function: they may only use kernel
 * arguments, work-item queries other than the local id, constants, and
 * group-uniform values read from the region's snapshot (never written in the
 * region). */
#include "vectorize/vectorize.h"
#include "loom_abi.h"
#include "analysis/dominators.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

struct guard {
  LLVMValueRef br;          /* the conditional branch */
  LLVMBasicBlockRef target; /* the successor taken when x is bounded */
  LLVMValueRef bound;       /* U, in the region function */
  bool inclusive;           /* x <= U rather than x < U */
  bool is_signed;
  bool is_eq; /* x == U: bounded, yet not by every x below the limit */
  bool used;
};

struct range_ctx {
  LLVMValueRef region;
  unsigned np; /* kernel parameters; region parameters np.. are the ids */
  struct loom_domtree dt;
  struct guard *guards;
  size_t nguards;
};

static bool is_param(LLVMValueRef f, LLVMValueRef v, unsigned idx) {
  return idx < LLVMCountParams(f) && LLVMGetParam(f, idx) == v;
}

/* v is the local id x, possibly truncated to 32 bits or extended */
static bool is_local_x(struct range_ctx *x, LLVMValueRef v) {
  for (int depth = 0; depth < 3 && LLVMIsAInstruction(v); depth++) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMTrunc) {
      if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) < 32)
        return false; /* would wrap for large groups */
    } else if (op != LLVMZExt && op != LLVMSExt) {
      return false;
    }
    v = LLVMGetOperand(v, 0);
  }
  return is_param(x->region, v, x->np);
}

/* Records the guard a conditional branch on `x <op> U` gives, if any. */
static void add_guard(struct range_ctx *x, LLVMValueRef br) {
  LLVMValueRef cond = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cond))
    return;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
  if (!is_local_x(x, a)) {
    if (!is_local_x(x, b))
      return;
    LLVMValueRef t = a; /* U op x: mirror it to x op' U */
    a = b;
    b = t;
    p = loom_swapped_predicate(p);
  }
  (void)a;
  struct guard g = {.br = br, .bound = b};
  unsigned succ; /* which successor bounds x */
  switch (p) {
  case LLVMIntULT: case LLVMIntSLT: succ = 0; break;
  case LLVMIntULE: case LLVMIntSLE: case LLVMIntEQ: succ = 0; g.inclusive = true; break;
  case LLVMIntUGE: case LLVMIntSGE: succ = 1; break;
  case LLVMIntUGT: case LLVMIntSGT: case LLVMIntNE: succ = 1; g.inclusive = true; break;
  default: return;
  }
  g.is_signed = loom_signed_predicate(p);
  g.is_eq = p == LLVMIntEQ || p == LLVMIntNE;
  g.target = LLVMGetSuccessor(br, succ);
  if (g.target == LLVMGetSuccessor(br, 1 - succ))
    return;
  /* the target must be entered only through this edge (the two
   * successors differ, so one predecessor entry means this edge) */
  size_t ti;
  if (!loom_ptrmap_get(&x->dt.index, g.target, &ti) || x->dt.npreds[ti] != 1)
    return;
  x->guards = realloc(x->guards, (x->nguards + 1) * sizeof *x->guards);
  x->guards[x->nguards++] = g;
}

static const char *callee_name(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee))
    return NULL;
  size_t len;
  return LLVMGetValueName2(callee, &len);
}

/* side-effect-free intrinsics (by name prefix) besides the element-wise
 * ones the vectorisers widen (loom_widenable_intrinsic) */
static const char *const other_pure_intrinsics[] = {
    "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.bswap.", "llvm.fshl.", "llvm.fshr.",
    "llvm.lifetime.", "llvm.assume", "llvm.is.fpclass.", "llvm.vector.reduce.", "llvm.uadd.",
    "llvm.sadd.", "llvm.usub.", "llvm.ssub.", "llvm.umul.", "llvm.smul.",
    "llvm.experimental.noalias.scope.decl"};

static bool has_side_effect(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMStore: {
    if (LLVMGetVolatile(in))
      return true;
    LLVMValueRef base = loom_base_object(LLVMGetOperand(in, 1));
    /* the region's own copies: its view of the uniform values */
    if (LLVMIsAAllocaInst(base) || loom_is_call_to(base, LOOM_SYM_USLOT))
      return false;
    return true;
  }
  case LLVMLoad:
    return LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic;
  case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMVAArg:
  case LLVMInvoke: case LLVMCallBr: case LLVMUnreachable:
    return true;
  case LLVMCall: {
    const char *name = callee_name(in);
    if (!name)
      return true;
    if (!strcmp(name, LOOM_SYM_WI) || !strcmp(name, LOOM_SYM_USLOT) ||
        !strcmp(name, LOOM_SYM_SLOT_BASE) || !strcmp(name, LOOM_SYM_LOCAL_BASE))
      return false;
    if (!strncmp(name, "llvm.memcpy.", 12) || !strncmp(name, "llvm.memset.", 12))
      return !LLVMIsAAllocaInst(loom_base_object(LLVMGetOperand(in, 0)));
    if (loom_widenable_intrinsic(name))
      return false;
    for (size_t i = 0; i < sizeof other_pure_intrinsics / sizeof *other_pure_intrinsics; i++)
      if (!strncmp(name, other_pure_intrinsics[i], strlen(other_pure_intrinsics[i])))
        return false;
    return true;
  }
  default:
    return false;
  }
}

/* the innermost guard whose bounded successor dominates bb */
static struct guard *guard_of(struct range_ctx *x, LLVMBasicBlockRef bb) {
  struct guard *best = NULL;
  for (size_t i = 0; i < x->nguards; i++)
    if (loom_dominates(&x->dt, x->guards[i].target, bb) &&
        (!best || loom_dominates(&x->dt, best->target, x->guards[i].target)))
      best = &x->guards[i];
  return best;
}

/* can `to` run after `from` in one execution of f? (to's block is reachable
 * from from's block, or both share a block with `from` first) */
static bool may_follow(LLVMValueRef from, LLVMValueRef to) {
  LLVMBasicBlockRef fb = LLVMGetInstructionParent(from), tb = LLVMGetInstructionParent(to);
  if (fb == tb)
    for (LLVMValueRef i = LLVMGetNextInstruction(from); i; i = LLVMGetNextInstruction(i))
      if (i == to)
        return true;
  struct loom_ptrmap seen = {0};
  size_t cap = 16, n = 0, dummy;
  LLVMBasicBlockRef *work = malloc(cap * sizeof *work);
  work[n++] = fb;
  bool found = false;
  while (n && !found) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(work[--n]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned k = 0; k < ns && !found; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      if (loom_ptrmap_get(&seen, s, &dummy))
        continue;
      found = s == tb;
      loom_ptrmap_put(&seen, s, 0);
      if (n == cap)
        work = realloc(work, (cap *= 2) * sizeof *work);
      work[n++] = s;
    }
  }
  free(work);
  loom_ptrmap_free(&seen);
  return found;
}

/* The region's view `a` of the uniform values is initialised by one memcpy
 * from the snapshot; returns that memcpy's source when no other write to
 * the view can precede `load`, else NULL. */
static LLVMValueRef view_source(LLVMValueRef a, LLVMValueRef load) {
  LLVMValueRef src = NULL;
  LLVMValueRef work[64];
  size_t n = 0;
  work[n++] = a;
  while (n) {
    LLVMValueRef p = work[--n];
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user))
        continue;
      if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) {
        if (n == 64)
          return NULL;
        work[n++] = user;
        continue;
      }
      const char *name = LLVMIsACallInst(user) ? callee_name(user) : NULL;
      if (name && !strncmp(name, "llvm.lifetime.", 14))
        continue;
      if (p == a && name && !strncmp(name, "llvm.memcpy.", 12) && LLVMGetOperand(user, 0) == a &&
          !src) {
        src = LLVMGetOperand(user, 1);
        continue;
      }
      if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && !may_follow(user, load))
        continue;
      return NULL;
    }
  }
  return src;
}

struct clone_ctx {
  struct range_ctx *x;
  LLVMBuilderRef bld; /* NULL: only decide whether v can be rebuilt */
  LLVMValueRef *kargs;
  struct loom_ptrmap done; /* region value -> index into `made` */
  LLVMValueRef *made;
  size_t nmade;
  int budget;
};

/* Rebuilds the group-uniform expression v in the work-group function;
 * NULL when v depends on anything else. Without a builder nothing is built:
 * v itself stands for its rebuilt value. */
static LLVMValueRef clone_uniform(struct clone_ctx *cc, LLVMValueRef v) {
  LLVMValueRef f = cc->x->region;
  unsigned np = cc->x->np;
  if (LLVMIsAArgument(v)) {
    for (unsigned i = 0; i < np; i++)
      if (LLVMGetParam(f, i) == v)
        return cc->bld ? cc->kargs[i] : v;
    return is_param(f, v, np + 4) ? (cc->bld ? cc->kargs[np + 4] : v) : NULL;
  }
  if (LLVMIsAConstant(v))
    return LLVMIsAGlobalValue(v) ? NULL : v;
  if (!LLVMIsAInstruction(v) || --cc->budget < 0)
    return NULL;
  size_t k;
  if (loom_ptrmap_get(&cc->done, v, &k))
    return cc->made[k];
  LLVMValueRef r = NULL;
  if (LLVMIsAAllocaInst(v)) {
    return NULL; /* only through a load, below */
  } else if (LLVMIsAPHINode(v)) {
    /* a loop's counter in the region after the loop's barrier (`for (st =
     * n / 2; st > 0; st >>= 1) { if (l < st) ...; barrier(); }`): the
     * region starts past the loop's entry, and of the counter's phi only the
     * incoming value of the blocks the region reaches is left */
    LLVMValueRef only = NULL;
    for (unsigned i = 0; i < LLVMCountIncoming(v); i++) {
      if (!loom_domtree_reachable(&cc->x->dt, LLVMGetIncomingBlock(v, i)))
        continue;
      LLVMValueRef in = LLVMGetIncomingValue(v, i);
      if (only && in != only)
        return NULL;
      only = in;
    }
    r = only && only != v ? clone_uniform(cc, only) : NULL;
  } else {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem:
    case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
    case LLVMXor: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMICmp: case LLVMSelect:
    case LLVMGetElementPtr: case LLVMFreeze: case LLVMLoad: case LLVMCall:
      break;
    default:
      return NULL;
    }
    if (op == LLVMLoad && LLVMGetVolatile(v))
      return NULL;
    if (op == LLVMCall) {
      const char *name = callee_name(v);
      if (!name || strcmp(name, LOOM_SYM_WI) || !LLVMIsAConstantInt(LLVMGetOperand(v, 0)) ||
          LLVMConstIntGetZExtValue(LLVMGetOperand(v, 0)) >= LOOM_WI_LOCAL_ID)
        return NULL;
    }
    if (op == LLVMLoad) {
      /* a load from the view: the same bytes of the snapshot */
      LLVMValueRef p = LLVMGetOperand(v, 0), base = loom_base_object(p);
      /* or from the snapshot itself (a test rebuilt in a region's entry:
       * region_versions.c) */
      LLVMValueRef src = LLVMIsAArgument(base) && is_param(f, base, np + 4) ? base : view_source(base, v);
      if (!src || (p != base && !LLVMIsAGetElementPtrInst(p)))
        return NULL;
      LLVMValueRef s = clone_uniform(cc, src);
      if (s && !cc->bld) {
        bool ok = p == base || !LLVMIsAGetElementPtrInst(LLVMGetOperand(p, 0));
        for (unsigned i = 1; ok && p != base && i < (unsigned)LLVMGetNumOperands(p); i++)
          ok = clone_uniform(cc, LLVMGetOperand(p, i)) != NULL;
        r = ok ? v : NULL;
        goto record;
      }
      if (s && p != base) {
        LLVMValueRef gep = LLVMIsAGetElementPtrInst(LLVMGetOperand(p, 0)) ? NULL : p;
        if (!gep)
          return NULL; /* nested GEPs: not expected for the views */
        unsigned ni = (unsigned)LLVMGetNumOperands(gep) - 1;
        LLVMValueRef *idx = malloc(ni * sizeof *idx);
        bool ok = true;
        for (unsigned i = 0; i < ni && ok; i++)
          ok = (idx[i] = clone_uniform(cc, LLVMGetOperand(gep, i + 1))) != NULL;
        s = ok ? LLVMBuildGEP2(cc->bld, LLVMGetGEPSourceElementType(gep), s, idx, ni, "") : NULL;
        free(idx);
      }
      if (s) {
        r = LLVMBuildLoad2(cc->bld, LLVMTypeOf(v), s, "");
        LLVMSetAlignment(r, LLVMGetAlignment(v) < 16 ? LLVMGetAlignment(v) : 16);
      }
      goto record;
    }
    unsigned nops = (unsigned)LLVMGetNumOperands(v);
    if (op == LLVMCall)
      nops = LLVMGetNumArgOperands(v);
    LLVMValueRef *ops = malloc((nops ? nops : 1) * sizeof *ops);
    bool ok = true;
    for (unsigned i = 0; i < nops && ok; i++)
      ok = (ops[i] = clone_uniform(cc, LLVMGetOperand(v, i))) != NULL;
    if (ok && !cc->bld) {
      r = v;
    } else if (ok) {
      r = LLVMInstructionClone(v);
      for (unsigned i = 0; i < nops; i++)
        LLVMSetOperand(r, i, ops[i]);
      LLVMInsertIntoBuilder(cc->bld, r);
    }
    free(ops);
  }
record:
  if (r) {
    cc->made = realloc(cc->made, (cc->nmade + 1) * sizeof *cc->made);
    cc->made[cc->nmade] = r;
    loom_ptrmap_put(&cc->done, v, cc->nmade++);
  }
  return r;
}

/* the number of work-items in x that guard g admits, clamped to lsize0 */
static LLVMValueRef emit_guard_limit(struct clone_ctx *cc, struct guard *g, LLVMValueRef lsize0) {
  LLVMValueRef u = clone_uniform(cc, g->bound);
  if (!u)
    return NULL;
  LLVMBuilderRef bld = cc->bld;
  LLVMTypeRef i64 = LLVMTypeOf(lsize0);
  LLVMContextRef c = LLVMGetTypeContext(i64);
  if (LLVMGetIntTypeWidth(LLVMTypeOf(u)) < 64)
    u = g->is_signed ? LLVMBuildSExt(bld, u, i64, "") : LLVMBuildZExt(bld, u, i64, "");
  /* a negative signed bound reads as huge: no narrowing, still correct */
  if (!g->inclusive)
    return LLVMBuildSelect(bld, LLVMBuildICmp(bld, LLVMIntULT, u, lsize0, ""), u, lsize0, "");
  LLVMValueRef last = LLVMBuildSub(bld, lsize0, loom_i64(c, 1), "");
  u = LLVMBuildSelect(bld, LLVMBuildICmp(bld, LLVMIntULT, u, last, ""), u, last, "");
  return LLVMBuildAdd(bld, u, loom_i64(c, 1), "");
}

/* at most work-item 0 passes guard g whatever the group: a constant bound */
static bool admits_item_0_only(const struct guard *g) {
  if (!LLVMIsAConstantInt(g->bound))
    return false;
  uint64_t u = g->is_signed ? (uint64_t)LLVMConstIntGetSExtValue(g->bound)
                            : LLVMConstIntGetZExtValue(g->bound);
  return g->inclusive ? u == 0 : u <= 1; /* a negative signed one admits all */
}

static bool same_bound(const struct guard *a, const struct guard *b) {
  return a->bound == b->bound && a->inclusive == b->inclusive && a->is_signed == b->is_signed &&
         a->is_eq == b->is_eq;
}

/* When the guards' largest bound is one U (the others admit work-item 0 at
 * most), the loop runs x over [0, max(1, min(U, lsize))), where `x < U`
 * holds for every x as soon as it holds for x = 0, and fails for x = 0 only
 * when the loop runs x = 0 alone. So the guards on U become tests of U
 * alone (U != 0, U > 0, U >= 0 or true), loop-invariant: LLVM unswitches
 * the loop on them and the vectorised loop needs no masks. (A tree
 * reduction's levels: a masked store does not forward to the next level's
 * loads of the same bytes, an unmasked one does.) The other guards stay. */
static void make_guards_uniform(struct range_ctx *x) {
  struct guard *top = NULL;
  for (size_t i = 0; i < x->nguards; i++) {
    struct guard *g = &x->guards[i];
    if (!g->used || admits_item_0_only(g))
      continue;
    if (g->is_eq || (top && !same_bound(g, top)))
      return;
    top = g;
  }
  if (!top)
    return;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(top->bound));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  for (size_t i = 0; i < x->nguards; i++) {
    struct guard *g = &x->guards[i];
    if (!g->used || !same_bound(g, top))
      continue;
    bool bounded_if_true = LLVMGetSuccessor(g->br, 0) == g->target;
    LLVMValueRef cond;
    if (g->inclusive && !g->is_signed) {
      cond = LLVMConstInt(LLVMInt1TypeInContext(c), bounded_if_true, 0);
    } else {
      LLVMIntPredicate p = !g->is_signed ? LLVMIntNE : g->inclusive ? LLVMIntSGE : LLVMIntSGT;
      if (!bounded_if_true)
        p = p == LLVMIntNE ? LLVMIntEQ : p == LLVMIntSGE ? LLVMIntSLT : LLVMIntSLE;
      LLVMPositionBuilderBefore(bld, g->br);
      cond = LLVMBuildICmp(bld, p, g->bound, LLVMConstNull(LLVMTypeOf(g->bound)), "x_guard");
    }
    LLVMSetCondition(g->br, cond);
  }
  LLVMDisposeBuilder(bld);
}

LLVMValueRef loom_region_x_limit(LLVMValueRef region, unsigned np, LLVMBuilderRef bld,
                                 LLVMValueRef *kargs, LLVMValueRef lsize0) {
  struct range_ctx x = {.region = region, .np = np};
  loom_domtree_build(&x.dt, region);
  for (size_t i = 0; i < x.dt.n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(x.dt.blocks[i]);
    if (t && LLVMIsABranchInst(t) && LLVMIsConditional(t))
      add_guard(&x, t);
  }
  bool ok = true;
  for (size_t i = 0; i < x.dt.n && ok; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(x.dt.blocks[i]); in && ok;
         in = LLVMGetNextInstruction(in)) {
      if (!has_side_effect(in))
        continue;
      struct guard *g = guard_of(&x, x.dt.blocks[i]);
      if (g)
        g->used = true;
      else
        ok = false;
    }
  LLVMValueRef limit = NULL;
  if (ok) {
    struct clone_ctx cc = {.x = &x, .bld = bld, .kargs = kargs, .budget = 64};
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(lsize0));
    limit = loom_i64(c, 1); /* work-item 0 always runs */
    for (size_t i = 0; i < x.nguards && limit; i++) {
      if (!x.guards[i].used)
        continue;
      LLVMValueRef l = emit_guard_limit(&cc, &x.guards[i], lsize0);
      limit = l ? LLVMBuildSelect(bld, LLVMBuildICmp(bld, LLVMIntUGT, l, limit, ""), l, limit, "")
                : NULL;
    }
    if (limit)
      limit = LLVMBuildSelect(bld, LLVMBuildICmp(bld, LLVMIntULT, limit, lsize0, ""), limit,
                              lsize0, "x_limit");
    if (limit)
      make_guards_uniform(&x);
    loom_ptrmap_free(&cc.done);
    free(cc.made);
  }
  free(x.guards);
  loom_domtree_free(&x.dt);
  return limit;
}

/* v, a value of region function `region`, rebuilt at bld from kargs (the
 * region call's arguments defined before its loop) when it is a
 * group-uniform expression of them; with bld NULL, whether it is one. */
static LLVMValueRef uniform_expr(LLVMValueRef region, unsigned np, LLVMValueRef v,
                                 LLVMBuilderRef bld, LLVMValueRef *kargs) {
  struct range_ctx x = {.region = region, .np = np};
  loom_domtree_build(&x.dt, region);
  struct clone_ctx cc = {.x = &x, .bld = bld, .kargs = kargs, .budget = 64};
  LLVMValueRef r = clone_uniform(&cc, v);
  loom_ptrmap_free(&cc.done);
  free(cc.made);
  loom_domtree_free(&x.dt);
  return r;
}

bool loom_region_uniform_expr(LLVMValueRef region, unsigned np, LLVMValueRef v) {
  return uniform_expr(region, np, v, NULL, NULL) != NULL;
}

LLVMValueRef loom_region_emit_uniform(LLVMValueRef region, unsigned np, LLVMValueRef v,
                                      LLVMBuilderRef bld, LLVMValueRef *kargs) {
  return uniform_expr(region, np, v, bld, kargs);
}
