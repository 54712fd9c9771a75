/* Barrier preparation for the work-group transformation.
 *
 * After this step a kernel with barriers satisfies: every barrier is a block
 * of its own ([__loom_barrier_id(n); br next]), no SSA value is used on the
 * far side of a barrier from its definition, and no private alloca remains.
 * Values that are live across a barrier and private variables get a
 * per-work-item slot: __loom_slot(offset, size) yields the address of this
 * work-item's copy; the region builder resolves it to
 * scratch + offset * items_in_group + linear_local_id * size, so each value is
 * an array indexed by the local id (vectorisable, structure of arrays). */
#include "analysis/analysis.h"
#include "loom_abi.h"
#include "workgroup/workgroup.h"
#include <stdlib.h>
#include <string.h>

struct cfg {
  size_t n;
  LLVMBasicBlockRef *blocks;
  struct loom_ptrmap index;
  size_t **succ; /* succ[i] = successor indices, terminated by SIZE_MAX */
  bool *is_barrier;
  unsigned char *seen; /* BFS state: seen[2*i + crossed_barrier] */
  size_t *queue;
};

static void cfg_build(struct cfg *g, LLVMValueRef f) {
  memset(g, 0, sizeof *g);
  g->n = LLVMCountBasicBlocks(f);
  g->blocks = malloc(g->n * sizeof *g->blocks);
  LLVMGetBasicBlocks(f, g->blocks);
  for (size_t i = 0; i < g->n; i++)
    loom_ptrmap_put(&g->index, g->blocks[i], i);
  g->succ = calloc(g->n, sizeof *g->succ);
  g->is_barrier = calloc(g->n, sizeof *g->is_barrier);
  for (size_t i = 0; i < g->n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->blocks[i]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    g->succ[i] = malloc((ns + 1) * sizeof(size_t));
    for (unsigned k = 0; k < ns; k++)
      loom_ptrmap_get(&g->index, LLVMGetSuccessor(t, k), &g->succ[i][k]);
    g->succ[i][ns] = SIZE_MAX;
    g->is_barrier[i] = loom_is_call_to(LLVMGetFirstInstruction(g->blocks[i]), LOOM_SYM_BARRIER_ID);
  }
  g->seen = malloc(2 * g->n);
  g->queue = malloc(2 * g->n * sizeof(size_t));
}

static void cfg_free(struct cfg *g) {
  for (size_t i = 0; i < g->n; i++)
    free(g->succ[i]);
  free(g->succ);
  free(g->blocks);
  free(g->is_barrier);
  free(g->seen);
  free(g->queue);
  loom_ptrmap_free(&g->index);
}

/* Marks every (block, crossed-a-barrier) state reachable from the definition
 * block d without passing through d again. */
static void reach_from(struct cfg *g, size_t d) {
  memset(g->seen, 0, 2 * g->n);
  size_t head = 0, tail = 0;
  for (size_t *s = g->succ[d]; *s != SIZE_MAX; s++) {
    if (*s == d)
      continue;
    size_t st = 2 * *s + g->is_barrier[*s];
    if (!g->seen[st]) {
      g->seen[st] = 1;
      g->queue[tail++] = st;
    }
  }
  while (head < tail) {
    size_t st = g->queue[head++];
    size_t b = st / 2, crossed = st & 1;
    for (size_t *s = g->succ[b]; *s != SIZE_MAX; s++) {
      if (*s == d)
        continue;
      size_t ns = 2 * *s + (crossed | g->is_barrier[*s]);
      if (!g->seen[ns]) {
        g->seen[ns] = 1;
        g->queue[tail++] = ns;
      }
    }
  }
}

struct ctx {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  LLVMValueRef slot_fn;
  LLVMTypeRef slot_ty;
  struct loom_slots *slots;
  struct loom_ptrmap *loop_insts; /* instructions of divergent loops */
  bool no_uniform; /* sub-groups run regions at different times: every value per item */
};

uint64_t loom_wg_slot_alloc(struct loom_slots *s, uint64_t size, uint64_t align) {
  if (align < 1)
    align = 1;
  uint64_t off = (s->bytes_per_item + align - 1) / align * align;
  s->bytes_per_item = off + size;
  return off;
}

static uint64_t slot_alloc(struct ctx *x, uint64_t size, uint64_t align) {
  return loom_wg_slot_alloc(x->slots, size, align);
}

LLVMValueRef loom_wg_slot_addr(LLVMModuleRef m, LLVMBuilderRef b, uint64_t off, uint64_t size) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef sp[2] = {i64, i64};
  LLVMValueRef fn = loom_get_fn(m, LOOM_SYM_SLOT, ptr, sp, 2);
  LLVMValueRef args[2] = {loom_i64(c, off), loom_i64(c, size)};
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 2, "slot");
}

static uint64_t uniform_alloc(struct ctx *x, uint64_t size, uint64_t align) {
  if (align < 1)
    align = 1;
  uint64_t off = (x->slots->uniform_bytes + align - 1) / align * align;
  x->slots->uniform_bytes = off + size;
  return off;
}

static LLVMValueRef uniform_call(struct ctx *x, const char *sym, uint64_t off, uint64_t size) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(x->c), ptr = LLVMPointerTypeInContext(x->c, 0);
  LLVMTypeRef p[2] = {i64, i64};
  LLVMValueRef fn = loom_get_fn(x->m, sym, ptr, p, 2);
  LLVMValueRef args[2] = {loom_i64(x->c, off), loom_i64(x->c, size)};
  return LLVMBuildCall2(x->b, LLVMGlobalGetValueType(fn), fn, args, 2, "");
}

static LLVMValueRef slot_addr(struct ctx *x, uint64_t off, uint64_t size) {
  LLVMValueRef args[2] = {loom_i64(x->c, off), loom_i64(x->c, size)};
  return LLVMBuildCall2(x->b, x->slot_ty, x->slot_fn, args, 2, "slot");
}

/* Positions the builder where operand `k` of `user` is consumed: at the end
 * of the incoming block for PHIs, otherwise right before the user. */
static void position_for_use(struct ctx *x, LLVMValueRef user, unsigned k) {
  if (LLVMIsAPHINode(user))
    LLVMPositionBuilderBefore(x->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, k)));
  else
    LLVMPositionBuilderBefore(x->b, user);
}

static LLVMValueRef *users_of(LLVMValueRef v, size_t *n) {
  size_t cnt = 0, cap = 8;
  LLVMValueRef *u = malloc(cap * sizeof *u);
  for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    bool dup = false;
    for (size_t i = 0; i < cnt; i++)
      dup |= u[i] == user;
    if (dup)
      continue;
    if (cnt == cap)
      u = realloc(u, (cap *= 2) * sizeof *u);
    u[cnt++] = user;
  }
  *n = cnt;
  return u;
}

/* Private variables become per-work-item arrays. */
static void arrayify_allocas(struct ctx *x, LLVMValueRef k) {
  size_t n = 0, cap = 16;
  LLVMValueRef *allocas = malloc(cap * sizeof *allocas);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAAllocaInst(i)) {
        if (n == cap)
          allocas = realloc(allocas, (cap *= 2) * sizeof *allocas);
        allocas[n++] = i;
      }
  for (size_t a = 0; a < n; a++) {
    LLVMValueRef al = allocas[a];
    LLVMTypeRef ty = LLVMGetAllocatedType(al);
    uint64_t count = 1;
    LLVMValueRef cnt = LLVMGetOperand(al, 0);
    if (LLVMIsAConstantInt(cnt))
      count = LLVMConstIntGetZExtValue(cnt);
    uint64_t size = LLVMABISizeOfType(x->td, ty) * count;
    uint64_t align = LLVMGetAlignment(al);
    if (align < LLVMABIAlignmentOfType(x->td, ty))
      align = LLVMABIAlignmentOfType(x->td, ty);
    uint64_t off = slot_alloc(x, size ? size : 1, align);
    size_t nu;
    LLVMValueRef *users = users_of(al, &nu);
    for (size_t u = 0; u < nu; u++) {
      LLVMValueRef user = users[u];
      if (LLVMIsAIntrinsicInst(user) && LLVMIsACallInst(user)) {
        LLVMValueRef callee = LLVMGetCalledValue(user);
        size_t len;
        const char *name = LLVMGetValueName2(callee, &len);
        if (len > 13 && !strncmp(name, "llvm.lifetime", 13)) {
          LLVMInstructionEraseFromParent(user);
          continue;
        }
      }
      unsigned nops = LLVMGetNumOperands(user);
      LLVMValueRef shared = NULL;
      for (unsigned k2 = 0; k2 < nops; k2++) {
        if (LLVMGetOperand(user, k2) != al)
          continue;
        if (LLVMIsAPHINode(user) || !shared) {
          position_for_use(x, user, k2);
          shared = slot_addr(x, off, size ? size : 1);
        }
        LLVMSetOperand(user, k2, shared);
      }
    }
    free(users);
    LLVMInstructionEraseFromParent(al);
  }
  free(allocas);
}

/* Values cheap to recompute are rebuilt after a barrier instead of being
 * stored per work-item: work-item queries (each region resolves the local id
 * to its own loop variables), the local memory base, and small side-effect
 * free expressions of those, constants and kernel arguments (e.g. the
 * global id, or row * n + col). */
#define REMAT_MAX_NODES 12

static bool remat_ok(LLVMValueRef v, int *budget) {
  if (!LLVMIsAInstruction(v))
    return true; /* constants, arguments */
  if (--*budget < 0)
    return false;
  if (loom_is_call_to(v, LOOM_SYM_LOCAL_BASE))
    return true;
  if (loom_is_call_to(v, LOOM_SYM_WI))
    return LLVMIsAConstant(LLVMGetOperand(v, 0)) && remat_ok(LLVMGetOperand(v, 1), budget);
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMTrunc: case LLVMZExt: case LLVMSExt:
  case LLVMICmp: case LLVMSelect: case LLVMGetElementPtr: case LLVMAddrSpaceCast:
  case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr:
    break;
  default:
    return false; /* loads, divisions (may trap), calls, PHIs, floating point */
  }
  for (int i = 0; i < LLVMGetNumOperands(v); i++)
    if (!remat_ok(LLVMGetOperand(v, (unsigned)i), budget))
      return false;
  return true;
}

static bool rematerialisable(LLVMValueRef v) {
  int budget = REMAT_MAX_NODES;
  return LLVMIsAInstruction(v) && remat_ok(v, &budget);
}

/* Rebuilds v's expression tree at the builder position. */
static LLVMValueRef remat_clone(struct ctx *x, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return v;
  LLVMValueRef c = LLVMInstructionClone(v);
  for (int i = 0; i < LLVMGetNumOperands(v); i++) {
    LLVMValueRef op = LLVMGetOperand(v, (unsigned)i);
    if (LLVMIsAInstruction(op))
      LLVMSetOperand(c, (unsigned)i, remat_clone(x, op));
  }
  LLVMInsertIntoBuilder(x->b, c);
  return c;
}

static void demote_live_values(struct ctx *x, LLVMValueRef k) {
  struct cfg g;
  cfg_build(&g, k);
  struct loom_uniformity *uni = loom_uniformity_compute(k);
  /* snapshot the candidate instructions: demotion adds new ones */
  size_t n = 0, cap = 256;
  LLVMValueRef *vals = malloc(cap * sizeof *vals);
  size_t *def_block = malloc(cap * sizeof *def_block);
  for (size_t bi = 0; bi < g.n; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g.blocks[bi]); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind || !LLVMGetFirstUse(i))
        continue;
      if (n == cap) {
        cap *= 2;
        vals = realloc(vals, cap * sizeof *vals);
        def_block = realloc(def_block, cap * sizeof *def_block);
      }
      vals[n] = i;
      def_block[n++] = bi;
    }
  for (size_t vi = 0; vi < n; vi++) {
    LLVMValueRef v = vals[vi];
    LLVMBasicBlockRef d = g.blocks[def_block[vi]];
    size_t nu;
    LLVMValueRef *users = users_of(v, &nu);
    bool local_only = true;
    for (size_t u = 0; u < nu && local_only; u++)
      if (LLVMIsAPHINode(users[u]) || LLVMGetInstructionParent(users[u]) != d)
        local_only = false;
    if (local_only) {
      free(users);
      continue;
    }
    reach_from(&g, def_block[vi]);
    bool remat = rematerialisable(v);
    /* a uniform value needs one copy for the whole group: slot size 0 */
    bool uniform = !x->no_uniform && loom_is_uniform(uni, v) &&
                   !loom_ptrmap_get(x->loop_insts, v, NULL);
    LLVMValueRef slot_store = NULL;
    uint64_t off = 0, size = 0;
    LLVMTypeRef ty = LLVMTypeOf(v);
    for (size_t u = 0; u < nu; u++) {
      LLVMValueRef user = users[u];
      unsigned nops = LLVMGetNumOperands(user);
      /* a PHI may have several entries for one predecessor (a switch whose
       * cases share a successor): they must all get the same value, so the
       * replacement made for the first is reused (found by loom-fuzz) */
      bool *replaced = LLVMIsAPHINode(user) ? calloc(nops + 1, sizeof *replaced) : NULL;
      for (unsigned k2 = 0; k2 < nops; k2++) {
        if (LLVMGetOperand(user, k2) != v)
          continue;
        LLVMBasicBlockRef ub = LLVMIsAPHINode(user) ? LLVMGetIncomingBlock(user, k2)
                                                    : LLVMGetInstructionParent(user);
        size_t ui;
        if (!loom_ptrmap_get(&g.index, ub, &ui) || !g.seen[2 * ui + 1])
          continue; /* no barrier between definition and this use */
        LLVMValueRef same = NULL;
        for (unsigned k = 0; replaced && k < k2 && !same; k++)
          if (replaced[k] && LLVMGetIncomingBlock(user, k) == ub)
            same = LLVMGetOperand(user, k);
        if (same) {
          LLVMSetOperand(user, k2, same);
          replaced[k2] = true;
          continue;
        }
        position_for_use(x, user, k2);
        LLVMValueRef repl;
        if (remat) {
          repl = remat_clone(x, v);
        } else {
          if (!slot_store) {
            size = LLVMABISizeOfType(x->td, ty);
            uint64_t align = LLVMABIAlignmentOfType(x->td, ty);
            LLVMPositionBuilderBefore(x->b, LLVMIsAPHINode(v) ? loom_first_non_phi(d)
                                                              : LLVMGetNextInstruction(v));
            if (uniform) {
              /* every work-item stores the same value into the group's copy
               * and into the region's view of it */
              off = uniform_alloc(x, size, align < 16 ? 16 : align);
              LLVMBuildStore(x->b, v, uniform_call(x, LOOM_SYM_USLOT, off, size));
              slot_store = LLVMBuildStore(x->b, v, uniform_call(x, LOOM_SYM_UVAR, off, size));
            } else {
              off = slot_alloc(x, size, align);
              slot_store = LLVMBuildStore(x->b, v, slot_addr(x, off, size));
            }
            position_for_use(x, user, k2);
          }
          repl = LLVMBuildLoad2(x->b, ty,
                                uniform ? uniform_call(x, LOOM_SYM_UVAR, off, size)
                                        : slot_addr(x, off, size),
                                "live");
        }
        LLVMSetOperand(user, k2, repl);
        if (replaced)
          replaced[k2] = true;
      }
      free(replaced);
    }
    free(users);
  }
  free(vals);
  free(def_block);
  loom_uniformity_free(uni);
  cfg_free(&g);
}

unsigned loom_wg_prepare_barriers(LLVMModuleRef m, LLVMValueRef k, LLVMTargetDataRef td,
                                  struct loom_slots *slots) {
  memset(slots, 0, sizeof *slots);
  /* sub-group functions first: their barriers keep divergent loops out */
  struct loom_sg_lowered sg;
  loom_lower_sub_group_calls(m, k, td, slots, &sg);
  struct loom_divergent_marks marks;
  loom_mark_divergent_loops(m, k, &marks);
  size_t nb;
  LLVMValueRef *barriers = loom_calls_in(k, LOOM_SYM_BARRIER, &nb);
  if (nb == 0) {
    free(barriers);
    loom_divergent_marks_free(&marks);
    loom_sg_lowered_free(&sg);
    return 0;
  }
  struct ctx x = {.m = m, .c = LLVMGetModuleContext(m), .td = td, .slots = slots,
                  .loop_insts = &marks.loop_insts, .no_uniform = sg.n > 0};
  if (sg.n) {
    slots->sg = calloc(sg.n, sizeof *slots->sg);
    slots->num_sg = (unsigned)sg.n;
  }
  x.b = LLVMCreateBuilderInContext(x.c);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(x.c);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(x.c, 0);
  LLVMTypeRef sp[2] = {i64, i64};
  x.slot_ty = LLVMFunctionType(ptr, sp, 2, 0);
  x.slot_fn = loom_get_fn(m, LOOM_SYM_SLOT, ptr, sp, 2);

  arrayify_allocas(&x, k);

  LLVMTypeRef i32 = LLVMInt32TypeInContext(x.c);
  LLVMTypeRef void_ty = LLVMVoidTypeInContext(x.c);
  LLVMValueRef bid_fn = loom_get_fn(m, LOOM_SYM_BARRIER_ID, void_ty, &i32, 1);
  LLVMTypeRef bid_ty = LLVMGlobalGetValueType(bid_fn);
  if (marks.n) {
    slots->num_divergent = (unsigned)marks.n;
    slots->divergent = calloc(marks.n, sizeof *slots->divergent);
  }
  for (size_t i = 0; i < nb; i++) {
    LLVMValueRef call = barriers[i];
    for (size_t j = 0; j < marks.n; j++) {
      if (call == marks.header_barrier[j])
        slots->divergent[j].header_id = (unsigned)i + 1;
      if (call == marks.exit_barrier[j])
        slots->divergent[j].exit_id = (unsigned)i + 1;
    }
    for (size_t j = 0; j < sg.n; j++)
      if (call == sg.barrier[j]) {
        sg.point[j].id = (unsigned)i + 1;
        slots->sg[j] = sg.point[j];
      }
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    LLVMBasicBlockRef mid = loom_split_block(bb, call);
    loom_split_block(mid, LLVMGetNextInstruction(call));
    LLVMPositionBuilderBefore(x.b, call);
    LLVMValueRef id = LLVMConstInt(i32, i + 1, 0);
    LLVMBuildCall2(x.b, bid_ty, bid_fn, &id, 1, "");
    LLVMInstructionEraseFromParent(call);
  }
  free(barriers);

  if (marks.n || sg.n)
    slots->where_slot = slot_alloc(&x, 4, 4);
  loom_sg_lowered_free(&sg);
  slots->masked = marks.masked;
  demote_live_values(&x, k);
  loom_divergent_marks_free(&marks);
  LLVMDisposeBuilder(x.b);
  return (unsigned)nb;
}
