/* The work-group function.
 *
 * A kernel with n barriers has n+1 regions: region 0 starts at the kernel's
 * entry, region r at barrier r. Region r is a copy of the kernel whose entry
 * jumps to the code after barrier r and in which reaching barrier s returns
 * s (returning from the kernel returns -1). The copy is made by inlining the
 * kernel into "region r" functions, so no instruction cloner is needed; the
 * blocks a region cannot reach disappear when it is inlined.
 *
 *   void k.loom_wg(const void *args, const loom_wg_ctx *ctx, void *local_mem,
 *                  void *scratch):           (all four noalias)
 *     next = 0
 *     while (next != -1)
 *       switch (next) {
 *       case r: for z, y, x in the group:
 *                 next = region_r(kernel args..., x, y, z, linear id, snapshot) }
 *
 * Each region runs as a loop over the work-items whose innermost loop walks
 * local id x, so LLVM's loop vectoriser executes consecutive work-items in
 * vector lanes. A barrier-free kernel is the one-region case: a plain loop. */
#include "analysis/dominators.h"
#include "vectorize/vectorize.h"
#include "loom_abi.h"
#include "loom_image.h"
#include "workgroup/workgroup.h"
#include "workgroup/wg_tracking.h"
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void loom_wg_make_regions(LLVMModuleRef m, struct loom_wg_build *b) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef k = b->kernel;
  unsigned np = LLVMCountParams(k);
  LLVMTypeRef *pt = malloc((np + 5) * sizeof *pt);
  for (unsigned i = 0; i < np; i++)
    pt[i] = LLVMTypeOf(LLVMGetParam(k, i));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  for (unsigned i = 0; i < 4; i++)
    pt[np + i] = i64;
  pt[np + 4] = LLVMPointerTypeInContext(c, 0); /* snapshot of the uniform slots */
  LLVMTypeRef fty = LLVMFunctionType(i32, pt, np + 5, 0);
  /* room for two versions of each region (region_versions.c) */
  b->regions = calloc(LOOM_REGION_COPIES * (b->num_barriers + 1), sizeof *b->regions);
  b->num_regions = b->num_barriers + 1;
  b->version = calloc(LOOM_REGION_COPIES * (b->num_barriers + 1), sizeof *b->version);
  b->version_tests = calloc(LOOM_REGION_COPIES * (b->num_barriers + 1), sizeof *b->version_tests);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  size_t klen;
  const char *kname = LLVMGetValueName2(k, &klen);
  for (unsigned r = 0; r <= b->num_barriers; r++) {
    size_t nlen = klen + 32;
    char *name = malloc(nlen);
    snprintf(name, nlen, "%.*s.loom_region%u", (int)klen, kname, r);
    LLVMValueRef f = LLVMAddFunction(m, name, fty);
    free(name);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMPositionBuilderAtEnd(bld, LLVMAppendBasicBlockInContext(c, f, "entry"));
    LLVMValueRef *args = malloc((np + 1) * sizeof *args);
    for (unsigned i = 0; i < np; i++)
      args[i] = LLVMGetParam(f, i);
    LLVMBuildCall2(bld, LLVMGlobalGetValueType(k), k, args, np, "");
    free(args);
    LLVMBuildRet(bld, LLVMConstInt(i32, (uint64_t)-1, 1));
    b->regions[r] = f;
  }
  LLVMDisposeBuilder(bld);
  free(pt);
}

/* selects among three values by a (possibly variable) dimension index */
static LLVMValueRef select_dim(LLVMBuilderRef bld, LLVMValueRef dim, LLVMValueRef v[3]) {
  if (LLVMIsAConstantInt(dim)) {
    uint64_t d = LLVMConstIntGetZExtValue(dim);
    return v[d < 3 ? d : 0];
  }
  LLVMTypeRef ty = LLVMTypeOf(dim);
  LLVMValueRef is0 = LLVMBuildICmp(bld, LLVMIntEQ, dim, LLVMConstInt(ty, 0, 0), "");
  LLVMValueRef is1 = LLVMBuildICmp(bld, LLVMIntEQ, dim, LLVMConstInt(ty, 1, 0), "");
  return LLVMBuildSelect(bld, is0, v[0], LLVMBuildSelect(bld, is1, v[1], v[2], ""), "");
}

/* largest snapshot of the group-uniform slots kept on the stack */
#define LOOM_WG_STACK_SNAPSHOT_MAX 1024

/* A region reads group-uniform values from its own copy (an alloca that
 * SROA turns back into SSA), initialised from the snapshot W took before the
 * region's work-item loop started: work-item 0 may already have stored the
 * next value into the group's slot when work-item 1 still needs the old one. */
static void resolve_uniform_views(LLVMModuleRef m, LLVMValueRef f, LLVMValueRef entry_term,
                                  LLVMValueRef snapshot) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  size_t n;
  LLVMValueRef *calls = loom_calls_in(f, LOOM_SYM_UVAR, &n);
  if (!n) {
    free(calls);
    return;
  }
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
  uint64_t *offs = malloc(n * sizeof *offs);
  LLVMValueRef *views = malloc(n * sizeof *views);
  size_t nv = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t off = LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 0));
    uint64_t size = LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 1));
    size_t k;
    for (k = 0; k < nv && offs[k] != off; k++)
      ;
    if (k == nv) {
      LLVMPositionBuilderBefore(bld, entry_term);
      LLVMValueRef view = LLVMBuildAlloca(bld, LLVMArrayType2(i8, size), "uniform_view");
      LLVMSetAlignment(view, 16);
      LLVMValueRef o = loom_i64(c, off);
      LLVMValueRef src = LLVMBuildGEP2(bld, i8, snapshot, &o, 1, "");
      LLVMBuildMemCpy(bld, view, 16, src, 16, loom_i64(c, size));
      offs[nv] = off;
      views[nv++] = view;
    }
    LLVMReplaceAllUsesWith(calls[i], views[k]);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(offs);
  free(views);
  free(calls);
  LLVMDisposeBuilder(bld);
}

/* A kernel computing on OpenCL vectors that fill a register (float16 on
 * AVX-512) runs one work-item at a time on them, not split into scalars and
 * widened across work-items: the split form reads each work-item's vector
 * as a family of gathers, becoming whole loads and a transposition per
 * family (combine-gathers), and clpeak's float16 kernel, 16 such reads a
 * work-item, read memory at 25 GB/s against its float kernel's 31; whole,
 * its loads are each a row of memory and it reads 31. Not when a region's
 * inner loop is bound by a chain's latency (clpeak's compute kernels: the
 * split form interleaves 16 work-items' chains) or keeps private arrays
 * per lane. */
static void keep_vectors_whole(struct loom_wg_build *b, bool any_wide) {
  b->whole_vectors = false;
  if (b->num_sg || any_wide)
    return;
  unsigned widest = 0;
  for (unsigned r = 0; r < b->num_regions; r++) {
    unsigned w = loom_widest_vector_bits(b->regions[r]);
    widest = w > widest ? w : widest;
  }
  if (widest < 64) /* no vectors, or of two 16-bit values at most */
    return;
  bool full = widest >= b->simd_bytes * 8;
  unsigned np = LLVMCountParams(b->kernel);
  for (unsigned r = 0; r < b->num_regions; r++) {
    LLVMValueRef f = b->regions[r];
    if (!loom_region_keeps_vectors_whole(f, LLVMGetParam(f, np), LLVMGetParam(f, np + 3),
                                         b->simd_bytes, b->native_half, full))
      return;
  }
  b->whole_vectors = true;
  for (unsigned r = 0; r < b->num_regions; r++) {
    b->region_has_loop[r] = false;
    b->outer_width[r] = 0;
    b->outer_jam[r] = 1;
  }
}

/* how region function b->regions[r] runs: its outer loop, width, jam and
 * private arrays kept per lane */
static void plan_region(struct loom_wg_build *b, unsigned r, LLVMTargetDataRef td, bool *any_wide) {
  LLVMValueRef f = b->regions[r];
  unsigned np = LLVMCountParams(b->kernel);
  LLVMValueRef lid0 = LLVMGetParam(f, np);
  /* private arrays a vectorised region needs per lane (wide_private.c) */
  LLVMValueRef wide[16];
  unsigned lanes = loom_natural_lanes(f, td, b->simd_bytes), nwide = 0;
  /* a work-item loop shorter than the vector: VPlan's outer loops choose
   * their width without the trip count, and a width above the local size
   * leaves every work-item to the scalar remainder */
  unsigned natural = lanes;
  while (b->local_x && lanes > b->local_x)
    lanes /= 2;
  if (lanes > 1 && loom_has_cycle(f))
    nwide = loom_wide_private_candidates(f, td, lanes, wide, 16);
  *any_wide |= nwide > 0;
  b->region_has_loop[r] = lanes > 1 && loom_region_wants_outer_vectorisation(f, wide, nwide);
  if (b->region_has_loop[r])
    loom_prepare_outer_region(f);
  b->outer_jam[r] = 1;
  if (b->region_has_loop[r] && !loom_wg_region_tracked(b, r))
    b->outer_width[r] = loom_outer_loop_width(f, b->simd_bytes, b->native_half, &b->outer_jam[r]);
  if (b->region_has_loop[r] && lanes < natural) {
    if (b->outer_width[r] > lanes)
      b->outer_width[r] = 0, b->outer_jam[r] = 1;
    b->outer_lanes[r] = lanes;
  }
  if (b->region_has_loop[r] && nwide) {
    /* the outer loop runs exactly `lanes` work-items at once; a wide loop
     * width * jam: W covers both, unless that makes the arrays too big */
    unsigned w = b->outer_width[r] * b->outer_jam[r];
    if (w > lanes && loom_wide_private_candidates(f, td, w, wide, 16) != nwide)
      b->outer_width[r] = 0, b->outer_jam[r] = 1, w = 0;
    b->outer_lanes[r] = lanes;
    loom_widen_private_arrays(f, td, wide, nwide, lid0, w > lanes ? w : lanes, &b->num_wide);
  }
  loom_add_fn_attr(f, "alwaysinline");
}

/* After the kernel was inlined into each region function: cut the copy down
 * to region r and give it the work-item's local id. */
void loom_wg_finish_regions(LLVMModuleRef m, struct loom_wg_build *b, LLVMTargetDataRef td) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMValueRef base_fn = loom_get_fn(m, LOOM_SYM_SLOT_BASE, ptr, &i64, 1);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  unsigned np = LLVMCountParams(b->kernel);
  size_t cap = LOOM_REGION_COPIES * ((size_t)b->num_barriers + 1); /* with versions */
  LLVMValueRef *groups = calloc(cap, sizeof *groups);
  b->loop_ids = calloc(cap, sizeof *b->loop_ids);
  b->outer_loop_ids = calloc(cap, sizeof *b->outer_loop_ids);
  b->region_has_loop = calloc(cap, sizeof *b->region_has_loop);
  b->outer_width = calloc(cap, sizeof *b->outer_width);
  b->outer_jam = calloc(cap, sizeof *b->outer_jam);
  b->wide_loop_ids = calloc(cap, sizeof *b->wide_loop_ids);
  b->outer_lanes = calloc(cap, sizeof *b->outer_lanes);
  b->twin_loop_ids = calloc(cap, sizeof *b->twin_loop_ids);
  bool any_wide = false;
  for (unsigned r = 0; r <= b->num_barriers; r++) {
    LLVMValueRef f = b->regions[r];
    LLVMValueRef lid[3] = {LLVMGetParam(f, np), LLVMGetParam(f, np + 1), LLVMGetParam(f, np + 2)};
    LLVMValueRef lin = LLVMGetParam(f, np + 3);

    size_t n;
    LLVMValueRef *calls = loom_calls_in(f, LOOM_SYM_BARRIER_ID, &n);
    LLVMBasicBlockRef start = NULL;
    for (size_t i = 0; i < n; i++) {
      LLVMValueRef call = calls[i];
      unsigned id = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, 0));
      /* inlining may have merged the barrier's block with its neighbours:
       * isolate the barrier again, then it becomes a return */
      LLVMBasicBlockRef bb = loom_split_block(LLVMGetInstructionParent(call), call);
      LLVMBasicBlockRef after = loom_split_block(bb, LLVMGetNextInstruction(call));
      if (id == r)
        start = after;
      LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(bb));
      LLVMInstructionEraseFromParent(call);
      LLVMPositionBuilderAtEnd(bld, bb);
      LLVMBuildRet(bld, LLVMConstInt(i32, id, 0));
    }
    free(calls);
    LLVMBasicBlockRef old_entry = LLVMGetEntryBasicBlock(f);
    LLVMBasicBlockRef entry = LLVMInsertBasicBlockInContext(c, old_entry, "region_entry");
    LLVMPositionBuilderAtEnd(bld, entry);
    LLVMValueRef entry_br;
    if (r == 0)
      entry_br = LLVMBuildBr(bld, old_entry);
    else if (start)
      entry_br = LLVMBuildBr(bld, start);
    else /* barrier r is unreachable: so is this region */
      entry_br = LLVMBuildRet(bld, LLVMConstInt(i32, (uint64_t)-1, 1));
    resolve_uniform_views(m, f, entry_br, LLVMGetParam(f, np + 4));

    calls = loom_calls_in(f, LOOM_SYM_WI, &n);
    for (size_t i = 0; i < n; i++) {
      LLVMValueRef call = calls[i];
      if (LLVMConstIntGetZExtValue(LLVMGetOperand(call, 0)) != LOOM_WI_LOCAL_ID)
        continue;
      LLVMPositionBuilderBefore(bld, call);
      LLVMReplaceAllUsesWith(call, select_dim(bld, LLVMGetOperand(call, 1), lid));
      LLVMInstructionEraseFromParent(call);
    }
    free(calls);
    loom_wg_unsigned_id_math(f, np);

    calls = loom_calls_in(f, LOOM_SYM_SLOT, &n);
    for (size_t i = 0; i < n; i++) {
      LLVMValueRef call = calls[i];
      LLVMPositionBuilderBefore(bld, call);
      LLVMValueRef off = LLVMGetOperand(call, 0), size = LLVMGetOperand(call, 1);
      LLVMValueRef base = LLVMBuildCall2(bld, LLVMGlobalGetValueType(base_fn), base_fn, &off, 1, "");
      LLVMValueRef idx = LLVMBuildMul(bld, lin, size, "");
      LLVMValueRef addr = LLVMBuildGEP2(bld, LLVMInt8TypeInContext(c), base, &idx, 1, "wi_slot");
      LLVMReplaceAllUsesWith(call, addr);
      LLVMInstructionEraseFromParent(call);
    }
    free(calls);
    /* regions of sub-group kernels run in plain work-item loops (sg_driver.c) */
    if (b->num_sg) {
      loom_add_fn_attr(f, "alwaysinline");
      continue;
    }
    unsigned first = b->num_regions;
    loom_wg_version_region(m, b, r);
    plan_region(b, r, td, &any_wide);
    for (unsigned v = first; v < b->num_regions; v++)
      plan_region(b, v, td, &any_wide);
  }
  keep_vectors_whole(b, any_wide);
  if (!b->whole_vectors && !b->num_sg)
    loom_wg_split_vector_slots(m, td, b->regions, b->num_regions);
  if (loom_parallel_md(c, b->num_regions, groups, b->loop_ids, b->outer_loop_ids,
                       b->outer_width, b->outer_jam, b->outer_lanes, b->wide_loop_ids,
                       b->twin_loop_ids, b->specialised) != 0) {
    free(b->loop_ids);
    b->loop_ids = NULL;
  }
  for (unsigned r = 0; r < b->num_regions && b->loop_ids; r++)
    loom_tag_parallel_accesses(b->regions[r], groups[r]);
  b->access_groups = groups;
  LLVMDisposeBuilder(bld);
}

LLVMValueRef loom_wg_ctx_field(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef ctx,
                               unsigned slot, LLVMTypeRef ty, const char *name) {
  LLVMValueRef off = loom_i64(c, slot * 8);
  LLVMValueRef p = LLVMBuildGEP2(bld, LLVMInt8TypeInContext(c), ctx, &off, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(bld, ty, p, name);
  LLVMSetAlignment(v, 8);
  return v;
}

/* A local size from the context: 1 to LOOM_MAX_GROUP_ITEMS (!range), so
 * the work-item loops' counters fit 32 bits and `int l = get_local_id(0)`
 * indexes consecutive elements */
static LLVMValueRef group_size_field(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef ctx,
                                     unsigned slot, const char *name) {
  LLVMValueRef v = loom_wg_ctx_field(bld, c, ctx, slot, LLVMInt64TypeInContext(c), name);
  LLVMMetadataRef bounds[2] = {LLVMValueAsMetadata(loom_i64(c, 1)),
                               LLVMValueAsMetadata(loom_i64(c, LOOM_MAX_GROUP_ITEMS + 1))};
  LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c, "range", 5),
                  LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, bounds, 2)));
  return v;
}

struct x_loop {
  struct loom_wg_build *b;
  unsigned r, np;
  LLVMValueRef *kargs, zy, y, z;
  LLVMBuilderRef bld;
  LLVMContextRef c;
};

/* The work-item loop `for (x = start; x < end; x++) region_r(...)` in block
 * head, entered with start < end, leaving to exit; loop_id: its parallel
 * loop metadata or NULL; track: a tracked region's bookkeeping, else the
 * region's result goes to next_var. */
static void build_x_loop(struct x_loop *l, LLVMBasicBlockRef head, LLVMValueRef start,
                         LLVMValueRef end, LLVMBasicBlockRef exit, LLVMValueRef loop_id,
                         struct wg_tracking *track, LLVMValueRef next_var) {
  LLVMBuilderRef bld = l->bld;
  LLVMContextRef c = l->c;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMBasicBlockRef from = LLVMGetInsertBlock(bld); /* ends with the branch to head */
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef x = LLVMBuildPhi(bld, i64, "lx");
  LLVMValueRef *kargs = l->kargs, region = l->b->regions[l->r];
  unsigned np = l->np;
  kargs[np] = x;
  kargs[np + 1] = l->y;
  kargs[np + 2] = l->z;
  kargs[np + 3] = LLVMBuildAdd(bld, l->zy, x, "linear");
  if (track) {
    loom_wg_tracked_call(track, l->b, l->r, bld, kargs, np + 5, kargs[np + 3]);
  } else {
    LLVMValueRef nb = LLVMBuildCall2(bld, LLVMGlobalGetValueType(region), region, kargs, np + 5, "");
    LLVMBuildStore(bld, nb, next_var);
  }
  LLVMValueRef x1 = LLVMBuildAdd(bld, x, loom_i64(c, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(bld);
  LLVMValueRef br = LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntULT, x1, end, ""), head, exit);
  if (loop_id)
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), loop_id);
  LLVMAddIncoming(x, &start, &from, 1);
  LLVMAddIncoming(x, &x1, &latch, 1);
}

struct wg_values {
  LLVMValueRef wi[7][3]; /* LOOM_WI_* kinds except the local id */
  LLVMValueRef local_mem, scratch, items;
};

/* What the loops around one region need from the work-group function. */
struct nest {
  struct loom_wg_build *b;
  LLVMValueRef w;
  LLVMContextRef c;
  LLVMBuilderRef bld;
  LLVMValueRef *kargs;
  unsigned np;
  LLVMValueRef *lsize, next_var;
  LLVMBasicBlockRef dispatch, done;
  LLVMBasicBlockRef *starts; /* each region's first block, by number */
  struct wg_tracking *track;
  bool tracked; /* region r runs as a tracked region (wg_tracking.c) */
};

/* the id of the region that region function f always returns (-1: the
 * kernel's end), or LONG_MIN when it may return several or computes it.
 * Only returns its entry reaches count: f holds the whole kernel, the
 * other regions' barriers as returns too. */
static long constant_next(LLVMValueRef f) {
  struct loom_domtree dt; /* for its list of the reachable blocks */
  loom_domtree_build(&dt, f);
  long k = LONG_MIN;
  bool several = false;
  for (size_t i = 0; i < dt.n && !several; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(dt.blocks[i]);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMRet)
      continue;
    LLVMValueRef v = LLVMGetNumOperands(t) == 1 ? LLVMGetOperand(t, 0) : NULL;
    long kv = v && LLVMIsAConstantInt(v) ? (long)LLVMConstIntGetSExtValue(v) : LONG_MIN;
    several = kv == LONG_MIN || (k != LONG_MIN && kv != k);
    k = kv;
  }
  loom_domtree_free(&dt);
  return several ? LONG_MIN : k;
}

/* for z { for y { for x { next = region_rr(args, x, y, z, linear) } } }
 * at the builder, for barrier region r (rr: r or its version), then back to
 * the dispatch */
static void build_nest(const struct nest *n, unsigned r, unsigned rr) {
  struct loom_wg_build *b = n->b;
  LLVMValueRef w = n->w, *kargs = n->kargs, *lsize = n->lsize, next_var = n->next_var;
  LLVMContextRef c = n->c;
  LLVMBuilderRef bld = n->bld;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  unsigned np = n->np;
  bool tracked = n->tracked;
  LLVMBasicBlockRef dispatch = n->dispatch, pre = LLVMGetInsertBlock(bld);
  LLVMBasicBlockRef zh = LLVMAppendBasicBlockInContext(c, w, "wi_z");
  LLVMBasicBlockRef yh = LLVMAppendBasicBlockInContext(c, w, "wi_y");
  LLVMBasicBlockRef xh = LLVMAppendBasicBlockInContext(c, w, "wi_x");
  LLVMBasicBlockRef yl = LLVMAppendBasicBlockInContext(c, w, "wi_y_latch");
  LLVMBasicBlockRef zl = LLVMAppendBasicBlockInContext(c, w, "wi_z_latch");
  LLVMValueRef x_end = tracked ? NULL : loom_region_x_limit(b->regions[rr], np, bld, kargs, lsize[0]);
  if (!x_end)
    x_end = lsize[0];
  LLVMBuildBr(bld, zh);
  LLVMValueRef zero = loom_i64(c, 0), one = loom_i64(c, 1);

  LLVMPositionBuilderAtEnd(bld, zh);
  LLVMValueRef z = LLVMBuildPhi(bld, i64, "lz");
  LLVMBuildBr(bld, yh);
  LLVMPositionBuilderAtEnd(bld, yh);
  LLVMValueRef y = LLVMBuildPhi(bld, i64, "ly");
  LLVMValueRef zy = LLVMBuildMul(bld, LLVMBuildAdd(bld, LLVMBuildMul(bld, z, lsize[1], ""), y, ""),
                                 lsize[0], "row");
  struct x_loop xl = {b, rr, np, kargs, zy, y, z, bld, c};
  bool outer = b->loop_ids && b->region_has_loop[rr];
  if (outer && !b->any_outer)
    loom_wg_mark_outer_loops(b->wg);
  b->any_outer |= outer;
  LLVMValueRef id = b->loop_ids ? (outer ? b->outer_loop_ids[rr] : b->loop_ids[rr]) : NULL;
  if (!tracked && outer && b->wide_loop_ids[rr]) {
    /* the wide loop over the largest multiple of its width, the ordinary
     * one over the rest (vectorize/interleave_items.c) */
    LLVMBasicBlockRef rest = LLVMAppendBasicBlockInContext(c, w, "wi_x_rest");
    LLVMBasicBlockRef xr = LLVMAppendBasicBlockInContext(c, w, "wi_x_tail");
    uint64_t step = (uint64_t)b->outer_width[rr] * b->outer_jam[rr];
    if (b->outer_jam[rr] > 1)
      loom_wg_mark_jammed_loops(b->wg);
    LLVMValueRef wide_end = LLVMBuildAnd(bld, x_end, loom_i64(c, -step), "wide_end");
    LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntNE, wide_end, zero, ""), xh, rest);
    build_x_loop(&xl, xh, zero, wide_end, rest, b->wide_loop_ids[rr], NULL, next_var);
    LLVMPositionBuilderAtEnd(bld, rest);
    LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntULT, wide_end, x_end, ""), xr, yl);
    build_x_loop(&xl, xr, wide_end, x_end, yl, id, NULL, next_var);
  } else {
    LLVMBuildBr(bld, xh);
    build_x_loop(&xl, xh, zero, x_end, yl, id, tracked ? n->track : NULL, next_var);
  }

  LLVMPositionBuilderAtEnd(bld, yl);
  LLVMValueRef y1 = LLVMBuildAdd(bld, y, one, "");
  LLVMValueRef ybr = LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntULT, y1, lsize[1], ""), yh, zl);
  /* rows of an outer-vectorised region may run side by side (jam-rows) */
  LLVMValueRef rows_id = !tracked && outer ? loom_rows_loop_id(c) : NULL;
  if (rows_id)
    LLVMSetMetadata(ybr, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), rows_id);
  LLVMPositionBuilderAtEnd(bld, zl);
  LLVMValueRef z1 = LLVMBuildAdd(bld, z, one, "");
  LLVMBasicBlockRef after = dispatch;
  if (!tracked) {
    /* a region that always leaves for the same later region (or the end)
     * goes there directly: a chain of regions becomes straight-line code
     * that LLVM optimises as one (a level's stores forwarded to the next
     * level's loads), not one trip each through the dispatch. Only forward:
     * every cycle still passes through the dispatch, the one loop header. */
    long k = constant_next(b->regions[rr]);
    if (k == -1)
      after = n->done;
    else if (k > (long)r && k <= (long)b->num_barriers)
      after = n->starts[k];
  }
  if (tracked) {
    after = LLVMAppendBasicBlockInContext(c, w, "tracked_next");
    LLVMPositionBuilderAtEnd(bld, after);
    loom_wg_tracking_end(n->track, r, bld, next_var);
    LLVMBuildBr(bld, dispatch);
    LLVMPositionBuilderAtEnd(bld, zl);
  }
  LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntULT, z1, lsize[2], ""), zh, after);

  LLVMAddIncoming(z, &zero, &pre, 1);
  LLVMAddIncoming(z, &z1, &zl, 1);
  LLVMAddIncoming(y, &zero, &zh, 1);
  LLVMAddIncoming(y, &y1, &yl, 1);
}
/* Region r's work-item loops for its version rr: where rr has a further
 * version, the group's tests (all true) pick rr, else that version's */
static void build_versions(const struct nest *n, unsigned r, unsigned rr) {
  const struct loom_wg_build *b = n->b;
  if (!b->version[rr]) {
    build_nest(n, r, rr);
    return;
  }
  const struct loom_version_tests *vt = &b->version_tests[rr];
  assert(vt->n >= 1);
  LLVMValueRef test = NULL;
  for (unsigned k = 0; k < vt->n; k++) {
    LLVMValueRef t = loom_region_emit_uniform(b->regions[rr], n->np, vt->test[k], n->bld, n->kargs);
    assert(t);
    if (vt->negate[k])
      t = LLVMBuildNot(n->bld, t, "");
    test = test ? LLVMBuildAnd(n->bld, test, t, "") : t;
  }
  LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(n->c, n->w, "region_true");
  LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(n->c, n->w, "region_false");
  LLVMBuildCondBr(n->bld, test, yes, no);
  LLVMPositionBuilderAtEnd(n->bld, yes);
  build_nest(n, r, rr);
  LLVMPositionBuilderAtEnd(n->bld, no);
  build_versions(n, r, b->version[rr]);
}


void loom_wg_make_function(LLVMModuleRef m, struct loom_wg_build *b, LLVMTargetDataRef td,
                           unsigned simd_bytes) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef void_ty = LLVMVoidTypeInContext(c);
  LLVMValueRef k = b->kernel;
  unsigned np = LLVMCountParams(k);
  size_t klen;
  const char *kname = LLVMGetValueName2(k, &klen);
  char *name = malloc(klen + sizeof LOOM_WG_SUFFIX);
  snprintf(name, klen + sizeof LOOM_WG_SUFFIX, "%.*s" LOOM_WG_SUFFIX, (int)klen, kname);
  /* (args, ctx, local memory, scratch): all four are private to this
   * work-group's execution, so they are noalias - which lets LLVM prove that
   * per-work-item slots and __local data never alias global buffers */
  LLVMTypeRef wp[4] = {ptr, ptr, ptr, ptr};
  LLVMValueRef w = LLVMAddFunction(m, name, LLVMFunctionType(void_ty, wp, 4, 0));
  free(name);
  b->wg = w;
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned i = 1; i <= 4; i++)
    LLVMAddAttributeAtIndex(w, i, LLVMCreateEnumAttribute(c, noalias, 0));
  loom_add_fn_attr(w, "nounwind");
  if (b->whole_vectors)
    loom_wg_mark_whole_vectors(w);
  char width[16];
  snprintf(width, sizeof width, "%u", simd_bytes * 8);
  loom_add_fn_str_attr(w, "prefer-vector-width", width);
  loom_add_fn_str_attr(w, "min-legal-vector-width", width);
  /* -cl-fast-relaxed-math marks divisions `arcp`, and x86 would then use a
   * reciprocal estimate with one refinement: up to 3 ulp, over the 2.5 the
   * spec allows for relaxed x / y. Divisions stay real divisions. */
  loom_add_fn_str_attr(w, "reciprocal-estimates", "!divf,!vec-divf,!divd,!vec-divd");

  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, w, "entry");
  LLVMPositionBuilderAtEnd(bld, entry);
  LLVMValueRef args = LLVMGetParam(w, 0), ctx = LLVMGetParam(w, 1);
  LLVMValueRef lsize[3], local_mem = LLVMGetParam(w, 2);
  for (unsigned d = 0; d < 3; d++)
    lsize[d] = group_size_field(bld, c, ctx, LOOM_CTX_LOCAL_SIZE + d, "lsize");

  /* kernel arguments from the argument buffer */
  LLVMValueRef *kargs = malloc((np + 5) * sizeof *kargs);
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef p = LLVMGetParam(k, i);
    LLVMTypeRef ty = LLVMTypeOf(p);
    const struct loom_arg_meta *am = &b->meta->args[i];
    LLVMValueRef off = loom_i64(c, am->offset);
    LLVMValueRef slot = LLVMBuildGEP2(bld, i8, args, &off, 1, "");
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    unsigned byref = LLVMGetEnumAttributeKindForName("byref", 5);
    if (LLVMGetEnumAttributeAtIndex(k, i + 1, byval) ||
        LLVMGetEnumAttributeAtIndex(k, i + 1, byref)) {
      kargs[i] = slot;
    } else if (am->kind == LOOM_ARG_LOCAL) {
      LLVMValueRef lo = LLVMBuildLoad2(bld, i64, slot, "local_off");
      LLVMSetAlignment(lo, 8);
      LLVMValueRef lp = LLVMBuildGEP2(bld, i8, local_mem, &lo, 1, "");
      kargs[i] = LLVMBuildAddrSpaceCast(bld, lp, ty, "local_arg");
    } else {
      LLVMValueRef v = LLVMBuildLoad2(bld, ty, slot, "arg");
      LLVMSetAlignment(v, LLVMABIAlignmentOfType(td, ty) < 16 ? LLVMABIAlignmentOfType(td, ty) : 16);
      if (am->kind == LOOM_ARG_IMAGE) {
        /* an image is the address of its whole descriptor, 64-byte
         * aligned: its fields may be loaded before the branch that reads
         * them (a write's bounds test), out of the work-item loop */
        LLVMMetadataRef size = LLVMValueAsMetadata(loom_i64(c, LOOM_IMAGE_SIZE));
        LLVMMetadataRef align = LLVMValueAsMetadata(loom_i64(c, 64)); /* core/image.h */
        unsigned deref = LLVMGetMDKindIDInContext(c, "dereferenceable", 15);
        unsigned aligned = LLVMGetMDKindIDInContext(c, "align", 5);
        LLVMSetMetadata(v, deref, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &size, 1)));
        LLVMSetMetadata(v, aligned, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &align, 1)));
      }
      kargs[i] = v;
    }
  }
  /* scratch: per-item slots, then the group-uniform slots, then the
   * snapshot regions read (all 64-byte aligned) */
  uint64_t uni = (b->uniform_bytes + 63) / 64 * 64;
  LLVMValueRef items = LLVMBuildMul(bld, LLVMBuildMul(bld, lsize[0], lsize[1], ""), lsize[2], "");
  LLVMValueRef ubase_off = LLVMBuildMul(bld, items, loom_i64(c, b->meta->scratch_per_item), "");
  ubase_off = LLVMBuildAnd(bld, LLVMBuildAdd(bld, ubase_off, loom_i64(c, 63), ""),
                           loom_i64(c, ~(uint64_t)63), "");
  LLVMValueRef ubase = LLVMBuildGEP2(bld, i8, LLVMGetParam(w, 3), &ubase_off, 1, "uniform_slots");
  /* The snapshot is a stack copy when it is small: SROA then turns what
   * each region reads of it into SSA values defined before the region's
   * work-item loop, so uniform conditions (a tile loop's `t < n / TS`) are
   * loop-invariant and the loop is unswitched and vectorised. Read from
   * scratch, LLVM could not prove the loop's stores never write it. */
  LLVMValueRef snapshot;
  if (uni <= LOOM_WG_STACK_SNAPSHOT_MAX) {
    snapshot = LLVMBuildAlloca(bld, LLVMArrayType2(i8, uni ? uni : 1), "uniform_snapshot");
    LLVMSetAlignment(snapshot, 64);
  } else {
    LLVMValueRef uoff = loom_i64(c, uni);
    snapshot = LLVMBuildGEP2(bld, i8, ubase, &uoff, 1, "uniform_snapshot");
  }
  b->uniform_base = ubase;
  kargs[np + 4] = snapshot;
  if (b->num_sg) {
    loom_wg_sg_dispatch(m, b, bld, kargs, np, lsize);
    free(kargs);
    LLVMDisposeBuilder(bld);
    return;
  }
  LLVMValueRef next_var = LLVMBuildAlloca(bld, i32, "next");
  LLVMBuildStore(bld, LLVMConstInt(i32, 0, 0), next_var);
  struct wg_tracking track;
  loom_wg_tracking_init(&track, m, bld);

  LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(c, w, "dispatch");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, w, "done");
  LLVMBuildBr(bld, dispatch);
  LLVMPositionBuilderAtEnd(bld, done);
  LLVMBuildRetVoid(bld);
  LLVMPositionBuilderAtEnd(bld, dispatch);
  LLVMValueRef next = LLVMBuildLoad2(bld, i32, next_var, "");
  LLVMValueRef sw = LLVMBuildSwitch(bld, next, done, b->num_barriers + 1);

  LLVMBasicBlockRef *starts = malloc((b->num_barriers + 1) * sizeof *starts);
  for (unsigned r = 0; r <= b->num_barriers; r++) {
    starts[r] = LLVMAppendBasicBlockInContext(c, w, "region");
    LLVMAddCase(sw, LLVMConstInt(i32, r, 0), starts[r]);
  }
  for (unsigned r = 0; r <= b->num_barriers; r++) {
    LLVMPositionBuilderAtEnd(bld, starts[r]);
    if (uni)
      LLVMBuildMemCpy(bld, snapshot, 64, ubase, 64, loom_i64(c, uni));
    bool tracked = loom_wg_tracking_begin(&track, b, r, bld);
    struct nest n = {b, w, c, bld, kargs, np, lsize, next_var, dispatch, done, starts, &track,
                     tracked};
    /* the group's tests pick the region's version (region_versions.c) */
    assert(!n.tracked || !b->version[r]);
    build_versions(&n, r, r);
  }
  free(starts);
  free(kargs);
  LLVMDisposeBuilder(bld);
}

/* After the regions were inlined into the work-group function: every
 * remaining placeholder becomes a value loaded once from the context. */
void loom_wg_resolve(LLVMModuleRef m, struct loom_wg_build *b) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef w = b->wg, ctx = LLVMGetParam(w, 1);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(bld, loom_first_non_phi(LLVMGetEntryBasicBlock(w)));
  static const unsigned field[7] = {LOOM_CTX_GROUP_ID,      LOOM_CTX_LOCAL_SIZE,
                                    LOOM_CTX_ENQ_LOCAL_SIZE, LOOM_CTX_GLOBAL_OFFSET,
                                    LOOM_CTX_NUM_GROUPS,     LOOM_CTX_GLOBAL_SIZE,
                                    LOOM_CTX_WORK_DIM};
  struct wg_values v;
  for (unsigned kind = 0; kind < 7; kind++)
    for (unsigned d = 0; d < 3; d++)
      v.wi[kind][d] = field[kind] == LOOM_CTX_LOCAL_SIZE || field[kind] == LOOM_CTX_ENQ_LOCAL_SIZE
                          ? group_size_field(bld, c, ctx, field[kind] + d, "wi")
                          : loom_wg_ctx_field(bld, c, ctx, field[kind] + (kind == 6 ? 0 : d), i64, "wi");
  v.local_mem = LLVMGetParam(w, 2);
  v.scratch = LLVMGetParam(w, 3);
  v.items = LLVMBuildMul(bld, LLVMBuildMul(bld, v.wi[1][0], v.wi[1][1], ""), v.wi[1][2], "items");
  LLVMValueRef local3 = LLVMBuildAddrSpaceCast(bld, v.local_mem, LLVMPointerTypeInContext(c, 3), "");
  /* where this group's memory lies (LOOM_WI_LOCAL_MEM_BASE...): the scratch
   * holds the per-item slots (64-byte aligned) and the uniform slots */
  LLVMValueRef scratch_size = LLVMBuildMul(bld, v.items, loom_i64(c, b->meta->scratch_per_item), "");
  scratch_size = LLVMBuildAnd(bld, LLVMBuildAdd(bld, scratch_size, loom_i64(c, 63), ""),
                              loom_i64(c, ~(uint64_t)63), "");
  LLVMValueRef mem[6] = {
      LLVMBuildPtrToInt(bld, v.local_mem, i64, "local_base"),
      loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_LOCAL_MEM_SIZE, i64, "local_size"),
      loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_STACK_LO, i64, "stack_lo"),
      loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_STACK_HI, i64, "stack_hi"),
      LLVMBuildPtrToInt(bld, v.scratch, i64, "scratch_base"),
      LLVMBuildAdd(bld, scratch_size, loom_i64(c, b->meta->scratch_uniform), "scratch_size"),
  };

  size_t n;
  LLVMValueRef *calls = loom_calls_in(w, LOOM_SYM_WI, &n);
  for (size_t i = 0; i < n; i++) {
    unsigned kind = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 0));
    LLVMPositionBuilderBefore(bld, calls[i]);
    LLVMValueRef r = kind < 7 ? select_dim(bld, LLVMGetOperand(calls[i], 1), v.wi[kind])
                     : kind >= LOOM_WI_LOCAL_MEM_BASE && kind <= LOOM_WI_SCRATCH_SIZE
                         ? mem[kind - LOOM_WI_LOCAL_MEM_BASE]
                     : kind == LOOM_WI_SUB_GROUP_SIZE ? loom_i64(c, b->sg_size ? b->sg_size : 1)
                                                      : loom_i64(c, 0);
    LLVMReplaceAllUsesWith(calls[i], r);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(calls);
  calls = loom_calls_in(w, LOOM_SYM_SLOT_BASE, &n);
  for (size_t i = 0; i < n; i++) {
    LLVMPositionBuilderBefore(bld, calls[i]);
    LLVMValueRef off = LLVMBuildMul(bld, LLVMGetOperand(calls[i], 0), v.items, "");
    LLVMValueRef addr = LLVMBuildGEP2(bld, LLVMInt8TypeInContext(c), v.scratch, &off, 1, "");
    LLVMReplaceAllUsesWith(calls[i], addr);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(calls);
  calls = loom_calls_in(w, LOOM_SYM_USLOT, &n);
  for (size_t i = 0; i < n; i++) {
    LLVMPositionBuilderBefore(bld, calls[i]);
    LLVMValueRef off = LLVMGetOperand(calls[i], 0);
    LLVMValueRef addr = LLVMBuildGEP2(bld, LLVMInt8TypeInContext(c), b->uniform_base, &off, 1, "");
    LLVMReplaceAllUsesWith(calls[i], addr);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(calls);
  /* one buffer per private array kept per lane, on the work-group
   * function's stack (a region inlined into two work-item loops uses it twice) */
  calls = loom_calls_in(w, LOOM_SYM_WIDE_PRIVATE, &n);
  LLVMValueRef *bufs = calloc(b->num_wide + 1, sizeof *bufs);
  for (size_t i = 0; i < n; i++) {
    uint64_t id = LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 0));
    uint64_t bytes = LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 1));
    assert(id < b->num_wide);
    if (!bufs[id]) {
      LLVMPositionBuilderBefore(bld, loom_first_non_phi(LLVMGetEntryBasicBlock(w)));
      bufs[id] = LLVMBuildAlloca(bld, LLVMArrayType2(LLVMInt8TypeInContext(c), bytes), "wide_private");
      LLVMSetAlignment(bufs[id], 64);
    }
    LLVMReplaceAllUsesWith(calls[i], bufs[id]);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(bufs);
  free(calls);
  calls = loom_calls_in(w, LOOM_SYM_LOCAL_BASE, &n);
  for (size_t i = 0; i < n; i++) {
    LLVMReplaceAllUsesWith(calls[i], local3);
    LLVMInstructionEraseFromParent(calls[i]);
  }
  free(calls);
  LLVMDisposeBuilder(bld);
}

bool loom_is_wg_function(LLVMValueRef f) {
  size_t len, suffix = strlen(LOOM_WG_SUFFIX);
  const char *name = LLVMGetValueName2(f, &len);
  return !LLVMIsDeclaration(f) && len > suffix && !strcmp(name + len - suffix, LOOM_WG_SUFFIX);
}

void loom_wg_builds_free(struct loom_wg_build *builds, uint32_t n) {
  if (!builds)
    return;
  for (uint32_t i = 0; i < n; i++) {
    free(builds[i].regions);
    free(builds[i].version);
    free(builds[i].version_tests);
    free(builds[i].loop_ids);
    free(builds[i].outer_loop_ids);
    free(builds[i].region_has_loop);
    free(builds[i].outer_width);
    free(builds[i].outer_jam);
    free(builds[i].wide_loop_ids);
    free(builds[i].outer_lanes);
    free(builds[i].twin_loop_ids);
    free(builds[i].divergent);
    free(builds[i].sg);
    free(builds[i].access_groups);
  }
  free(builds);
}
