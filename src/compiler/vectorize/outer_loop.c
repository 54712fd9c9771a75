/* Which work-item loops to hand to LLVM's outer-loop vectoriser.
 *
 * A region whose body contains a loop (n-body's loop over all bodies, a
 * naive matrix product's k loop) leaves the work-item loop outermost, and
 * LLVM's ordinary vectoriser only vectorises innermost loops. VPlan's native
 * path vectorises an outer loop across its iterations (here: work-items)
 * when the inner loops' trip counts are the same for every work-item; it
 * bails out safely on divergent inner loops and branches, but it does not
 * check the instructions themselves and crashes on calls it cannot widen.
 * So a region qualifies only when every instruction in it is one the
 * scalarizer splits and the native path widens: arithmetic, comparisons,
 * casts (bit casts between scalars), selects, phis, address arithmetic,
 * plain loads and stores, and calls of element-wise intrinsics; and no
 * store inside an inner loop may become a library call: O3's loop idiom
 * recognition turns loops zeroing or copying consecutive elements (a row
 * per work-item) into memset or memcpy calls before the vectoriser runs,
 * which it would then fail on (store_stays_a_store). For the same reason no
 * store in the region may store a constant or an aggregate (MemCpyOpt
 * makes memsets and memcpys of those). Declarations of noalias scopes are
 * allowed: loom_prepare_outer_region deletes them. */
#include "analysis/dominators.h"
#include "analysis/loops.h"
#include "loom_abi.h"
#include "vectorize/vectorize.h"
#include <stdlib.h>

/* VPlan's native path vectorises such outer loops (only those that carry
 * llvm.loop.vectorize.enable: vectorize/parallel_md.c); the scalarizer
 * that prepares them must split vector loads and stores too.
 *
 * No interleaved access groups: a work-item loop is annotated parallel, and
 * for such loops LLVM 19's loop access analysis records no dependences at
 * all, not even within one iteration, so the vectoriser took every pair of
 * accesses as reorderable and hoisted a group of strided loads above a store
 * that wrote one of them: `pa[pa[6] & 7] = 1; x = pa[pa[7] & 7];` on a
 * private array kept per work-item read pa[7] from before the store
 * (loom-fuzz seed 1007124, in the code specialised for the local size; PoCL
 * 3.1 gets it wrong the same way). Without groups each access is widened
 * where it stands. Measured on bench/ (2 cores, AVX-512): prefix_scan 9%
 * and math_sin_x4 6% slower, math_atan_fp64x4 15% and conv2d_5x5 7% faster,
 * the rest within 5%.
 *
 * LLVM options are process-wide: support/llvm_util.c passes these once. */
const char *const loom_vectorize_llvm_options[] = {"-enable-vplan-native-path",
                                                   "-scalarize-load-store",
                                                   "-enable-interleaved-mem-accesses=false", NULL};
#include <string.h>

static const char *const widenable_intrinsics[] = {
    "llvm.fmuladd.", "llvm.fma.",   "llvm.sqrt.",     "llvm.fabs.",  "llvm.minnum.",
    "llvm.maxnum.",  "llvm.copysign.", "llvm.floor.", "llvm.ceil.",  "llvm.trunc.",
    "llvm.rint.",    "llvm.round.", "llvm.smin.",     "llvm.smax.",  "llvm.umin.",
    "llvm.umax.",    "llvm.abs.",   "llvm.minimum.",  "llvm.maximum."};

/* placeholders that later become group-uniform loads from the context, or
 * addresses in the group's memory */
static const char *const uniform_placeholders[] = {LOOM_SYM_WI, LOOM_SYM_SLOT_BASE, LOOM_SYM_USLOT,
                                                   LOOM_SYM_LOCAL_BASE, LOOM_SYM_WIDE_PRIVATE};

bool loom_widenable_intrinsic(const char *name) {
  for (size_t i = 0; i < sizeof widenable_intrinsics / sizeof *widenable_intrinsics; i++)
    if (strncmp(name, widenable_intrinsics[i], strlen(widenable_intrinsics[i])) == 0)
      return true;
  return false;
}

static bool placeholder_call(LLVMValueRef call) {
  LLVMValueRef callee = LLVMIsACallInst(call) ? LLVMGetCalledValue(call) : NULL;
  if (!callee || !LLVMIsAFunction(callee))
    return false;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  for (size_t i = 0; i < sizeof uniform_placeholders / sizeof *uniform_placeholders; i++)
    if (strcmp(name, uniform_placeholders[i]) == 0)
      return true;
  return false;
}

static bool widenable_call(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee))
    return false;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  return placeholder_call(call) || (LLVMGetIntrinsicID(callee) && loom_widenable_intrinsic(name));
}

bool loom_widenable_instruction(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
  case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
  case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMFNeg: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI:
  case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
  case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMPHI: case LLVMGetElementPtr:
  case LLVMBr: case LLVMRet: case LLVMExtractElement: case LLVMInsertElement:
  case LLVMShuffleVector: case LLVMFreeze:
    return true;
  case LLVMBitCast: /* reinterpreting a scalar (as_double, bit tricks) */
    return LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVectorTypeKind &&
           LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) != LLVMVectorTypeKind;
  case LLVMLoad:
    return !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic;
  case LLVMStore: {
    /* a store of a constant (vstore16 of a splat, zeroing) may become a
     * memset, and one of an aggregate a memcpy, before the vectoriser runs */
    LLVMValueRef v = LLVMGetOperand(in, 0);
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
    if (LLVMIsConstant(v) || k == LLVMStructTypeKind || k == LLVMArrayTypeKind)
      return false;
    return !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic;
  }
  case LLVMCall:
    return widenable_call(in);
  default:
    return false;
  }
}

/* can bb reach itself? (a breadth-first walk over at most `limit` blocks;
 * giving up counts as yes) */
static bool on_cycle(LLVMBasicBlockRef bb, unsigned limit) {
  LLVMBasicBlockRef *queue = malloc(limit * sizeof *queue);
  unsigned head = 0, tail = 0;
  bool found = false, gave_up = false;
  queue[tail++] = bb;
  while (head < tail && !found) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(queue[head++]);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned i = 0; i < ns && !found; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, i);
      if (s == bb) {
        found = true;
        break;
      }
      bool seen = false;
      for (unsigned k = 0; k < tail && !seen; k++)
        seen = queue[k] == s;
      if (seen)
        continue;
      if (tail == limit) {
        gave_up = true;
        head = tail;
        break;
      }
      queue[tail++] = s;
    }
  }
  free(queue);
  return found || gave_up;
}

/* The region's result (the barrier it stopped at) is stored by every
 * work-item into one variable of the work-group function. Where all its
 * returns give the same barrier, O3 moves that store out of the work-item
 * loop; where they differ (a loop around barriers: back to its top, or past
 * its end), the value of the last iteration leaves the loop, and LLVM 19's
 * native path gets such a value wrong: CLBlast's XgemmDirect, vectorised
 * there, ended after the first pass of its k loop (all results 0). Where a
 * group-uniform test picks the barrier, the region was cut into one
 * function per side first (workgroup/region_versions.c). */
bool loom_blocks_one_result(LLVMBasicBlockRef const *blocks, size_t n) {
  LLVMValueRef seen = NULL;
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(blocks[i]);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMRet || LLVMGetNumOperands(t) == 0)
      continue;
    LLVMValueRef v = LLVMGetOperand(t, 0);
    if (!LLVMIsAConstantInt(v) || (seen && v != seen))
      return false;
    seen = v;
  }
  return true;
}

/* the views of group-uniform values a region starts with: allocas of the
 * entry block and the copies into them (workgroup/wg_function.c); O3's SROA
 * turns them into loads of the group's snapshot */
static bool uniform_view_setup(LLVMValueRef region, LLVMBasicBlockRef bb, LLVMValueRef in) {
  if (bb != LLVMGetEntryBasicBlock(region))
    return false;
  return LLVMIsAAllocaInst(in) ||
         (loom_is_call_to_prefix(in, "llvm.memcpy.") && LLVMIsAAllocaInst(LLVMGetOperand(in, 0)));
}

/* Stores to private variables: one alloca serves every work-item of the
 * loop, so the lanes of a vectorised loop would overwrite each other's
 * values. Only the arrays about to be kept per lane (wide, the candidates of
 * workgroup/wide_private.c) may be stored to, anywhere: their stores are
 * strided by the lane count, never a memset or memcpy. The region's views
 * of group-uniform values (allocas of its entry block) are stored to as
 * before: every lane stores the same value. */
static bool is_wide(LLVMValueRef p, LLVMValueRef *wide, unsigned nwide) {
  LLVMValueRef base = loom_base_object(p);
  for (unsigned i = 0; i < nwide; i++)
    if (wide[i] == base)
      return true;
  return false;
}

static bool private_store(LLVMValueRef in, LLVMValueRef *wide, unsigned nwide, bool *to_wide) {
  if (!LLVMIsAStoreInst(in))
    return false;
  LLVMValueRef base = loom_base_object(LLVMGetOperand(in, 1));
  LLVMValueRef region = LLVMGetBasicBlockParent(LLVMGetInstructionParent(in));
  if (!LLVMIsAAllocaInst(base) ||
      LLVMGetInstructionParent(base) == LLVMGetEntryBasicBlock(region))
    return false;
  *to_wide = is_wide(LLVMGetOperand(in, 1), wide, nwide);
  return true;
}

/* The region's loops, for the stores inside them */
struct region_loops {
  struct loom_domtree d;
  struct loom_loops l;
  LLVMTargetDataRef td;
  signed char *writes_private; /* per loop: -1 not known yet, else loop_writes_private */
};

static bool block_in_loop(const struct region_loops *r, size_t loop, LLVMBasicBlockRef bb) {
  size_t b;
  return loom_ptrmap_get(&r->d.index, bb, &b) && loom_loop_contains(&r->l, loop, b);
}

static bool private_pointer(LLVMValueRef p) {
  LLVMTypeRef t = LLVMTypeOf(p);
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 0;
}

static bool varies(const struct region_loops *r, size_t loop, LLVMValueRef v, int depth);

/* does the loop write private memory (a store to it, or a call other than
 * the placeholders and intrinsics that write nothing)? */
static bool loop_writes_private(const struct region_loops *r, size_t loop) {
  if (r->writes_private[loop] >= 0)
    return r->writes_private[loop];
  r->writes_private[loop] = 1;
  for (size_t b = 0; b < r->d.n; b++) {
    if (!loom_loop_contains(&r->l, loop, b))
      continue;
    for (LLVMValueRef in = LLVMGetFirstInstruction(r->d.blocks[b]); in; in = LLVMGetNextInstruction(in))
      if ((LLVMIsAStoreInst(in) && private_pointer(LLVMGetOperand(in, 1))) ||
          (LLVMIsACallInst(in) && !widenable_call(in) && !loom_is_call_to_prefix(in, "llvm.lifetime.")))
        return true;
  }
  r->writes_private[loop] = 0;
  return false;
}

/* a load of private memory (a view of a group-uniform value, a value kept
 * for the work-item across a barrier) at an address the loop does not
 * change, in a loop that writes no private memory: the same all along (the
 * address spaces do not alias) */
static bool unchanged_private_load(const struct region_loops *r, size_t loop, LLVMValueRef v) {
  LLVMValueRef p = LLVMIsALoadInst(v) ? LLVMGetOperand(v, 0) : NULL;
  return p && private_pointer(p) && !varies(r, loop, p, 0) && !loop_writes_private(r, loop);
}

/* Does v vary in the loop? Not when it is defined outside it, is a
 * placeholder of a group-uniform value or the work-item's ids (the same
 * all along), one of unchanged_private_load's loads, or pure arithmetic,
 * address arithmetic or a cast of values that do not vary. */
static bool varies(const struct region_loops *r, size_t loop, LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || placeholder_call(v) ||
      !block_in_loop(r, loop, LLVMGetInstructionParent(v)))
    return false;
  if (depth > 12)
    return true;
  if (LLVMIsALoadInst(v))
    return !unchanged_private_load(r, loop, v);
  if (!LLVMIsAGetElementPtrInst(v) && !LLVMIsABinaryOperator(v) && !LLVMIsACastInst(v))
    return true;
  for (int i = 0; i < LLVMGetNumOperands(v); i++)
    if (varies(r, loop, LLVMGetOperand(v, i), depth + 1))
      return true;
  return false;
}

/* phi, a phi of the loop's header, steps by a constant: *step */
static bool header_phi_step(const struct region_loops *r, size_t loop, LLVMValueRef phi,
                            int64_t *step) {
  if (!LLVMIsAPHINode(phi) || LLVMCountIncoming(phi) != 2)
    return false;
  size_t h = loom_loop_header(&r->d, &r->l, loop);
  if (h == SIZE_MAX || LLVMGetInstructionParent(phi) != r->d.blocks[h])
    return false;
  int inside = -1;
  for (unsigned i = 0; i < 2; i++) {
    size_t b;
    bool from_loop = loom_ptrmap_get(&r->d.index, LLVMGetIncomingBlock(phi, i), &b) &&
                     loom_loop_contains(&r->l, loop, b);
    if (from_loop && inside >= 0)
      return false; /* two latches */
    if (from_loop)
      inside = (int)i;
  }
  if (inside < 0)
    return false;
  LLVMValueRef next = LLVMGetIncomingValue(phi, (unsigned)inside);
  LLVMTypeRef t = LLVMTypeOf(next);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64)
    return false;
  unsigned bits = LLVMGetIntTypeWidth(t);
  struct loom_linear a;
  loom_linear_of(next, bits, -1, &a);
  if (a.nt != 1 || a.t[0].leaf != phi || a.t[0].mul != 1 || a.cond)
    return false;
  *step = loom_sign_extend(a.c[0], bits);
  return true;
}

/* adds to *stride what v, times scale, moves by per iteration of loop:
 * false unless v is linear in the loop's header phis (each stepping by a
 * constant, or an extension of such a sum: wrapping, it would be no
 * consecutive run, which is all that matters here) and values from outside */
static bool add_stride(const struct region_loops *r, size_t loop, LLVMValueRef v, int64_t scale,
                       int64_t *stride, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64 || depth > 4)
    return false;
  unsigned bits = LLVMGetIntTypeWidth(t);
  struct loom_linear a;
  loom_linear_of(v, bits, -1, &a);
  if (a.cond)
    return false;
  for (unsigned j = 0; j < a.nt; j++) {
    LLVMValueRef leaf = a.t[j].leaf;
    if (!varies(r, loop, leaf, 0))
      continue;
    int64_t mul = (int64_t)((uint64_t)loom_sign_extend(a.t[j].mul, bits) * (uint64_t)scale), step;
    if (header_phi_step(r, loop, leaf, &step))
      *stride += (int64_t)((uint64_t)mul * (uint64_t)step);
    else if (!((LLVMIsASExtInst(leaf) || LLVMIsAZExtInst(leaf)) &&
               add_stride(r, loop, LLVMGetOperand(leaf, 0), mul, stride, depth + 1)))
      return false; /* moves some other way */
  }
  return true;
}

/* the bytes p moves by per iteration of loop, when p is a GEP chain
 * on a base from outside the loop whose indices add_stride takes apart */
static bool loop_stride(const struct region_loops *r, size_t loop, LLVMValueRef p, int64_t *stride,
                        int depth) {
  *stride = 0;
  if (!varies(r, loop, p, 0))
    return true;
  if (!LLVMIsAGetElementPtrInst(p) || depth > 8 ||
      !loop_stride(r, loop, LLVMGetOperand(p, 0), stride, depth + 1))
    return false;
  LLVMTypeRef ty = LLVMGetGEPSourceElementType(p);
  unsigned n = (unsigned)LLVMGetNumOperands(p);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    if (i > 1 && LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
      ty = LLVMStructGetTypeAtIndex(ty, (unsigned)LLVMConstIntGetZExtValue(idx));
      continue;
    }
    if (i > 1) {
      if (LLVMGetTypeKind(ty) != LLVMArrayTypeKind)
        return false;
      ty = LLVMGetElementType(ty);
    }
    if (!add_stride(r, loop, idx, (int64_t)LLVMABISizeOfType(r->td, ty), stride, 0))
      return false;
  }
  return true;
}

static bool is_byte(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 8;
}

/* Can this store, in the innermost loop `loop`, never become part of a
 * memset or memcpy? Loop idiom recognition makes a memset of a store of a
 * loop-invariant byte, a memcpy of a store of a value loaded in the loop,
 * both only at addresses that move by the store's size an iteration (the
 * load's too). So a computed value wider than a byte stays a store (PyOpenCL's
 * scan adds along its column: `s += ldata[k][lid]; ldata[k][lid] = s`), and so
 * does any store whose address, or whose value's load address, moves by
 * another known amount (its interval copied through local memory 16
 * elements apart). */
static bool store_stays_a_store(const struct region_loops *r, size_t loop, LLVMValueRef st) {
  LLVMValueRef v = LLVMGetOperand(st, 0);
  bool loaded_here = LLVMIsALoadInst(v) && varies(r, loop, v, 0);
  if (!loaded_here && !is_byte(v))
    return true;
  uint64_t size = LLVMABISizeOfType(r->td, LLVMTypeOf(v));
  int64_t stride;
  if (loop_stride(r, loop, LLVMGetOperand(st, 1), &stride, 0) && stride != (int64_t)size &&
      stride != -(int64_t)size)
    return true;
  return loaded_here && loop_stride(r, loop, LLVMGetOperand(v, 0), &stride, 0) &&
         stride != (int64_t)size && stride != -(int64_t)size;
}

/* The blocks the region's entry reaches are looked at; the rest of the
 * kernel it was cut from is dead and O3 deletes it before the vectoriser
 * runs. (Until the outer loop's width was capped at a known local size,
 * every block was looked at, a rule that happened to keep CLBlast's
 * XgemmDirect compute regions out: VPlan gave them 16 lanes for an 8-wide
 * group, all work-items then ran in the scalar remainder, 2.5x slower than
 * one at a time. At 8 lanes they are 2.5x faster.) */
/* may this reachable block of the region be widened by the native path? */
static bool block_widenable(LLVMValueRef region, LLVMBasicBlockRef bb, LLVMValueRef *wide,
                            unsigned nwide, const struct region_loops *r) {
  size_t b, loop = SIZE_MAX;
  if (loom_ptrmap_get(&r->d.index, bb, &b))
    loop = loom_innermost_loop(&r->l, b);
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
    if (uniform_view_setup(region, bb, in) || (LLVMIsAAllocaInst(in) && is_wide(in, wide, nwide)))
      continue;
    bool to_wide;
    if (private_store(in, wide, nwide, &to_wide)) {
      if (!to_wide || LLVMGetVolatile(in))
        return false;
      continue;
    }
    if (loom_is_call_to_prefix(in, "llvm.lifetime.") && is_wide(LLVMGetOperand(in, 1), wide, nwide))
      continue; /* widening deletes them */
    if (!loom_widenable_instruction(in) && !loom_is_scope_decl(in))
      return false;
    /* a block on a cycle outside every natural loop counts as in one */
    if (LLVMIsAStoreInst(in) && (loop == SIZE_MAX ? on_cycle(bb, 512)
                                                   : !store_stays_a_store(r, loop, in)))
      return false;
  }
  return true;
}

bool loom_region_wants_outer_vectorisation(LLVMValueRef region, LLVMValueRef *wide,
                                           unsigned nwide) {
  if (!loom_has_cycle(region))
    return false;
  struct region_loops r;
  if (!loom_function_loops(&r.d, &r.l, region))
    return false;
  r.td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(region));
  r.writes_private = malloc(r.l.n ? r.l.n : 1);
  if (!r.writes_private) {
    loom_loops_free(&r.l);
    loom_domtree_free(&r.d);
    return false;
  }
  memset(r.writes_private, -1, r.l.n ? r.l.n : 1);
  bool ok = loom_blocks_one_result(r.d.blocks, r.d.n);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(region); ok && bb; bb = LLVMGetNextBasicBlock(bb))
    if (loom_domtree_reachable(&r.d, bb))
      ok = block_widenable(region, bb, wide, nwide, &r);
  free(r.writes_private);
  loom_loops_free(&r.l);
  loom_domtree_free(&r.d);
  return ok;
}
