/* Private arrays kept per vector lane.
 *
 * A private array that SROA could not split (indexed by values the
 * work-item computes: `p[idx] = p[idx] * 0.5f + p[(idx + 17) & 127]`) stays
 * one alloca. Work-items that run one after the other can share it; a
 * region vectorised across work-items (VPlan's outer-loop path) runs W of
 * them at once, and each needs its own copy. So the array becomes W
 * columns: element e of the work-item whose local id x is in lane
 * l = x mod W lies at [e * W + l] of a buffer the work-group function
 * allocates once (__loom_wide_private, resolved by loom_wg_resolve).
 *
 *  - An element that every lane reads or writes at the same index (the
 *    fill `p[i] = x + i`, the sum over p) is W consecutive elements;
 *    per-lane indices are gathers and scatters within W copies of the
 *    array (8 KB for 128 floats at 16 lanes: it stays in L1).
 *  - Element-major by lane rather than one whole array per work-item
 *    (the slots of wg_barriers.c): that layout spreads a group's copies
 *    over items * size bytes, 128 KB for 256 work-items of this array.
 *  - W must be at least the number of work-items the vectorised loop runs
 *    at once: wg_function.c pins the loop's vectorisation width, and W
 *    covers the width times the unroll-and-jam count of a wide loop.
 *
 * An array qualifies when it is reached only through GEPs and used only by
 * plain loads and stores of one power-of-two size E, all aligned to E (so
 * every access is one whole element) and not storing the array's own
 * address; lifetime markers are dropped. */
#include "workgroup/workgroup.h"
#include <assert.h>
#include <stdlib.h>

/* a region's widened arrays together, on the stack of a pool thread (64 MB);
 * beyond it arrays stay shared (and their region one work-item at a time) */
#define WIDE_PRIVATE_MAX_BYTES (256u << 10)

struct walk {
  uint64_t elem; /* access size E, 0 until the first access */
  bool ok;
};

static bool is_lifetime(LLVMValueRef in) {
  return loom_is_call_to_prefix(in, "llvm.lifetime.");
}

static void walk_uses(LLVMValueRef p, LLVMTargetDataRef td, struct walk *w, int depth) {
  if (depth > 16) {
    w->ok = false;
    return;
  }
  for (LLVMUseRef u = LLVMGetFirstUse(p); u && w->ok; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAGetElementPtrInst(user)) {
      /* the array as the GEP's base, never as an index; no vector GEPs */
      bool base_only = LLVMGetOperand(user, 0) == p;
      for (unsigned i = 1; i < (unsigned)LLVMGetNumOperands(user) && base_only; i++)
        base_only = LLVMGetOperand(user, i) != p;
      if (!base_only || LLVMGetTypeKind(LLVMTypeOf(user)) != LLVMPointerTypeKind) {
        w->ok = false;
        return;
      }
      walk_uses(user, td, w, depth + 1);
      continue;
    }
    if (is_lifetime(user))
      continue;
    bool load = LLVMIsALoadInst(user) != NULL, store = LLVMIsAStoreInst(user) != NULL;
    if ((!load && !store) || (store && LLVMGetOperand(user, 0) == p) || LLVMGetVolatile(user) ||
        LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic) {
      w->ok = false;
      return;
    }
    LLVMTypeRef ty = load ? LLVMTypeOf(user) : LLVMTypeOf(LLVMGetOperand(user, 0));
    uint64_t size = LLVMStoreSizeOfType(td, ty);
    if (size == 0 || size > 64 || (size & (size - 1)) || LLVMABISizeOfType(td, ty) != size ||
        LLVMGetAlignment(user) < size || (w->elem && w->elem != size)) {
      w->ok = false;
      return;
    }
    w->elem = size;
  }
}

/* the access size E of alloca a when it qualifies, else 0 */
static uint64_t wide_element(LLVMValueRef a, LLVMTargetDataRef td, unsigned lanes) {
  LLVMValueRef count = LLVMGetOperand(a, 0);
  if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1)
    return 0;
  uint64_t bytes = LLVMABISizeOfType(td, LLVMGetAllocatedType(a));
  struct walk w = {0, true};
  walk_uses(a, td, &w, 0);
  if (!w.ok || !w.elem || LLVMGetAlignment(a) < w.elem || bytes % w.elem ||
      bytes > WIDE_PRIVATE_MAX_BYTES / (lanes ? lanes : 1))
    return 0;
  return w.elem;
}

unsigned loom_wide_private_candidates(LLVMValueRef f, LLVMTargetDataRef td, unsigned lanes,
                                      LLVMValueRef *out, unsigned max) {
  unsigned n = 0;
  uint64_t total = 0;
  /* (the region's entry block is one wg_function.c put before the kernel's;
   * the views of group-uniform values are filled by memcpy: never candidates) */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && n < max;
         in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsAAllocaInst(in) || !wide_element(in, td, lanes))
        continue;
      uint64_t bytes = LLVMABISizeOfType(td, LLVMGetAllocatedType(in)) * lanes;
      if (total + bytes > WIDE_PRIVATE_MAX_BYTES)
        continue;
      total += bytes;
      out[n++] = in;
    }
  return n;
}

unsigned loom_natural_lanes(LLVMValueRef f, LLVMTargetDataRef td, unsigned simd_bytes) {
  uint64_t widest = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMTypeRef ty;
      if (LLVMIsALoadInst(in))
        ty = LLVMTypeOf(in);
      else if (LLVMIsAStoreInst(in))
        ty = LLVMTypeOf(LLVMGetOperand(in, 0));
      else
        continue;
      if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) /* split into scalars before O3 */
        ty = LLVMGetElementType(ty);
      uint64_t bits = LLVMSizeOfTypeInBits(td, ty);
      if (bits > widest)
        widest = bits;
    }
  if (widest < 8)
    widest = 8;
  uint64_t lanes = (uint64_t)simd_bytes * 8 / widest;
  return lanes < 1 ? 1 : lanes > 64 ? 64 : (unsigned)lanes;
}

/* p's byte offset from the array a (p is a or a GEP chain on it), built at bld */
static LLVMValueRef byte_offset(LLVMBuilderRef bld, LLVMTargetDataRef td, LLVMValueRef p,
                                LLVMValueRef a) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  if (p == a)
    return loom_i64(c, 0);
  LLVMValueRef off = byte_offset(bld, td, LLVMGetOperand(p, 0), a);
  LLVMTypeRef ty = LLVMGetGEPSourceElementType(p);
  unsigned n = (unsigned)LLVMGetNumOperands(p);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    if (i > 1 && LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
      off = LLVMBuildAdd(bld, off, loom_i64(c, LLVMOffsetOfElement(td, ty, field)), "");
      ty = LLVMStructGetTypeAtIndex(ty, field);
      continue;
    }
    if (i > 1) /* an array or vector element */
      ty = LLVMGetElementType(ty);
    LLVMValueRef scaled = LLVMBuildMul(bld, LLVMBuildSExtOrBitCast(bld, idx, i64, ""),
                                       loom_i64(c, LLVMABISizeOfType(td, ty)), "");
    off = LLVMBuildAdd(bld, off, scaled, "");
  }
  return off;
}

struct list {
  LLVMValueRef *v;
  size_t n, cap;
};

static void push(struct list *l, LLVMValueRef v) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->v = realloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = v;
}

/* the loads and stores reached from p; the GEPs and lifetime markers on the
 * way, each after the value it uses */
static void collect_accesses(LLVMValueRef p, struct list *access, struct list *other) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool gep = LLVMIsAGetElementPtrInst(user) != NULL;
    push(gep || is_lifetime(user) ? other : access, user);
    if (gep)
      collect_accesses(user, access, other);
  }
}

void loom_widen_private_arrays(LLVMValueRef f, LLVMTargetDataRef td, LLVMValueRef *arrays,
                               unsigned n, LLVMValueRef x, unsigned lanes, unsigned *next_id) {
  if (n == 0)
    return;
  assert(lanes && (lanes & (lanes - 1)) == 0);
  LLVMModuleRef m = LLVMGetGlobalParent(f);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef params[2] = {i64, i64};
  LLVMValueRef place = loom_get_fn(m, LOOM_SYM_WIDE_PRIVATE, ptr, params, 2);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(entry));
  LLVMValueRef lane = LLVMBuildAnd(bld, x, loom_i64(c, lanes - 1), "lane");
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef a = arrays[k];
    uint64_t elem = wide_element(a, td, lanes);
    assert(elem); /* a candidate of loom_wide_private_candidates */
    uint64_t bytes = LLVMABISizeOfType(td, LLVMGetAllocatedType(a));
    LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(entry));
    LLVMValueRef args[2] = {loom_i64(c, (*next_id)++), loom_i64(c, bytes * lanes)};
    LLVMValueRef buf = LLVMBuildCall2(bld, LLVMGlobalGetValueType(place), place, args, 2, "wide");
    LLVMValueRef lane_off = LLVMBuildMul(bld, lane, loom_i64(c, elem), "lane_off");

    struct list acc = {0}, dead = {0};
    collect_accesses(a, &acc, &dead);
    for (size_t i = 0; i < acc.n; i++) {
      LLVMValueRef in = acc.v[i];
      unsigned op = LLVMIsALoadInst(in) ? 0 : 1;
      LLVMPositionBuilderBefore(bld, in);
      /* an access at byte offset off = e * E becomes one at (e * W + l) * E */
      LLVMValueRef off = byte_offset(bld, td, LLVMGetOperand(in, op), a);
      off = LLVMBuildAdd(bld, LLVMBuildMul(bld, off, loom_i64(c, lanes), ""), lane_off, "");
      LLVMValueRef addr = LLVMBuildGEP2(bld, i8, buf, &off, 1, "lane_elem");
      LLVMSetOperand(in, op, addr);
      LLVMSetAlignment(in, (unsigned)elem);
    }
    /* the old address computations and lifetime markers, users before their operands */
    for (size_t i = dead.n; i-- > 0;)
      if (is_lifetime(dead.v[i]) || !LLVMGetFirstUse(dead.v[i]))
        LLVMInstructionEraseFromParent(dead.v[i]);
    free(acc.v);
    free(dead.v);
    assert(!LLVMGetFirstUse(a));
    LLVMInstructionEraseFromParent(a);
  }
  LLVMDisposeBuilder(bld);
}
