/* Region versions: one copy of a region per side of a group-uniform test.
 *
 * A region function returns the barrier its work-items stopped at. In a
 * tile loop around barriers (CLBlast's XgemmDirect: `for (k ...) { copy the
 * tiles; barrier; multiply; barrier; }`) the region after the last barrier
 * either goes back to the top and copies the next tiles, or leaves the loop
 * into the epilogue (a remainder loop, the stores), by a test every
 * work-item computes alike (the tile counter, a group-uniform slot, against
 * the size). Such a region cannot become an outer vectorised loop (its
 * returns must give one barrier: vectorize/outer_loop.c), and the remainder
 * loop keeps its work-item loop from being innermost, so the tile copy ran
 * one work-item at a time: 60% of XgemmDirectTN's time at 512x512.
 *
 * When a conditional branch on a group-uniform expression that the
 * work-group function can compute before the region's loop (of kernel
 * arguments, group queries, constants and the snapshot of the uniform
 * slots: wi_range.c) splits the region's returns so that either side
 * reaches one barrier only, the region becomes two copies, each with the
 * branch folded to one side; the work-group function evaluates the test
 * once and runs the matching copy's work-item loop (wg_function.c). The
 * LLVM C API has no function cloner: the blocks a folded copy reaches are
 * copied here. */
#include "vectorize/vectorize.h"
#include "workgroup/workgroup.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

/* the blocks of f reachable from its entry when branch `br` (NULL: none)
 * goes only to successor `keep`, in reverse postorder */
struct folded {
  LLVMBasicBlockRef *order;
  size_t n;
  struct loom_ptrmap index; /* block -> position in order */
};

static unsigned num_succ(LLVMValueRef t, LLVMValueRef br) {
  return t == br ? 1 : t ? LLVMGetNumSuccessors(t) : 0;
}

static LLVMBasicBlockRef succ(LLVMValueRef t, LLVMValueRef br, unsigned keep, unsigned i) {
  return LLVMGetSuccessor(t, t == br ? keep : i);
}

static void fold_walk(LLVMValueRef f, LLVMValueRef br, unsigned keep, struct folded *out) {
  size_t nb = LLVMCountBasicBlocks(f);
  struct frame {
    LLVMBasicBlockRef bb;
    unsigned next;
  } *stack = malloc(nb * sizeof *stack);
  LLVMBasicBlockRef *post = malloc(nb * sizeof *post);
  struct loom_ptrmap seen = {0};
  size_t depth = 0, n = 0;
  stack[depth++] = (struct frame){LLVMGetEntryBasicBlock(f), 0};
  loom_ptrmap_put(&seen, stack[0].bb, 0);
  while (depth) {
    struct frame *fr = &stack[depth - 1];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(fr->bb);
    if (fr->next == num_succ(t, br)) {
      post[n++] = fr->bb;
      depth--;
      continue;
    }
    LLVMBasicBlockRef s = succ(t, br, keep, fr->next++);
    size_t dummy;
    if (loom_ptrmap_get(&seen, s, &dummy))
      continue;
    loom_ptrmap_put(&seen, s, 0);
    assert(depth < nb);
    stack[depth++] = (struct frame){s, 0};
  }
  loom_ptrmap_free(&seen);
  out->order = malloc((n ? n : 1) * sizeof *out->order);
  out->n = n;
  out->index = (struct loom_ptrmap){0};
  for (size_t i = 0; i < n; i++) {
    out->order[i] = post[n - 1 - i];
    loom_ptrmap_put(&out->index, out->order[i], i);
  }
  free(post);
  free(stack);
}

static void folded_free(struct folded *fo) {
  free(fo->order);
  loom_ptrmap_free(&fo->index);
}

static bool reaches(const struct folded *fo, LLVMBasicBlockRef bb) {
  size_t dummy;
  return loom_ptrmap_get(&fo->index, bb, &dummy);
}

struct copy {
  struct loom_ptrmap map; /* value or block of f -> index in made */
  LLVMValueRef *made;
  size_t n, cap;
};

static void remember(struct copy *cp, void *old, LLVMValueRef v) {
  if (cp->n == cp->cap)
    cp->made = realloc(cp->made, (cp->cap = cp->cap ? 2 * cp->cap : 256) * sizeof *cp->made);
  cp->made[cp->n] = v;
  loom_ptrmap_put(&cp->map, old, cp->n++);
}

static LLVMValueRef mapped(const struct copy *cp, LLVMValueRef v) {
  size_t i;
  return loom_ptrmap_get(&cp->map, v, &i) ? cp->made[i] : v;
}

static LLVMValueRef map_copy(void *ctx, LLVMValueRef v) { return mapped(ctx, v); }

static LLVMBasicBlockRef mapped_block(const struct copy *cp, LLVMBasicBlockRef bb) {
  size_t i;
  bool ok = loom_ptrmap_get(&cp->map, bb, &i);
  assert(ok);
  (void)ok;
  return LLVMValueAsBasicBlock(cp->made[i]);
}

static void copy_attributes(LLVMValueRef from, LLVMValueRef to) {
  unsigned np = LLVMCountParams(from);
  for (int idx = -1; idx <= (int)np; idx++) {
    LLVMAttributeIndex ai = idx < 0 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex : (LLVMAttributeIndex)idx;
    unsigned na = LLVMGetAttributeCountAtIndex(from, ai);
    if (!na)
      continue;
    LLVMAttributeRef *attrs = malloc(na * sizeof *attrs);
    LLVMGetAttributesAtIndex(from, ai, attrs);
    for (unsigned k = 0; k < na; k++)
      LLVMAddAttributeAtIndex(to, ai, attrs[k]);
    free(attrs);
  }
}

/* a copy of f made of the blocks fo reaches, br folded to successor keep;
 * *test: the copy of br's condition */
static LLVMValueRef copy_folded(LLVMModuleRef m, LLVMValueRef f, LLVMValueRef br, unsigned keep,
                                const struct folded *fo, const char *suffix, LLVMValueRef *test) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  char *nn = malloc(len + 16);
  snprintf(nn, len + 16, "%.*s%s", (int)len, name, suffix);
  LLVMValueRef g = LLVMAddFunction(m, nn, LLVMGlobalGetValueType(f));
  free(nn);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  copy_attributes(f, g);
  struct copy cp = {0};
  for (unsigned i = 0; i < LLVMCountParams(f); i++)
    remember(&cp, LLVMGetParam(f, i), LLVMGetParam(g, i));
  for (size_t i = 0; i < fo->n; i++)
    remember(&cp, fo->order[i], LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(c, g, "")));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  /* reverse postorder: a value's definition (it dominates its uses) is
   * copied before them; PHIs get their incoming values afterwards */
  for (size_t i = 0; i < fo->n; i++) {
    LLVMPositionBuilderAtEnd(bld, mapped_block(&cp, fo->order[i]));
    for (LLVMValueRef in = LLVMGetFirstInstruction(fo->order[i]); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef cl;
      if (in == br) {
        cl = LLVMBuildBr(bld, mapped_block(&cp, LLVMGetSuccessor(br, keep)));
      } else if (LLVMIsAPHINode(in)) {
        cl = LLVMBuildPhi(bld, LLVMTypeOf(in), "");
      } else {
        cl = loom_clone_mapped(bld, in, map_copy, &cp);
        if (LLVMIsATerminatorInst(in))
          for (unsigned k = 0; k < LLVMGetNumSuccessors(in); k++)
            LLVMSetSuccessor(cl, k, mapped_block(&cp, LLVMGetSuccessor(in, k)));
      }
      remember(&cp, in, cl);
    }
  }
  LLVMBasicBlockRef from = LLVMGetInstructionParent(br), dropped = LLVMGetSuccessor(br, 1 - keep);
  for (size_t i = 0; i < fo->n; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(fo->order[i]); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
      for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(in, k);
        if (!reaches(fo, ib) || (ib == from && fo->order[i] == dropped))
          continue;
        LLVMValueRef v = mapped(&cp, LLVMGetIncomingValue(in, k));
        LLVMBasicBlockRef nb = mapped_block(&cp, ib);
        LLVMAddIncoming(mapped(&cp, in), &v, &nb, 1);
      }
  *test = mapped(&cp, LLVMGetCondition(br));
  LLVMDisposeBuilder(bld);
  loom_ptrmap_free(&cp.map);
  free(cp.made);
  return g;
}

/* the first conditional branch of f (in reverse postorder) on a test the
 * work-group function can compute, each side of which reaches one barrier */
static LLVMValueRef find_test(LLVMValueRef f, unsigned np, const struct folded *whole) {
  for (size_t i = 0; i < whole->n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(whole->order[i]);
    if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
        LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1) ||
        !loom_region_uniform_expr(f, np, LLVMGetCondition(t)))
      continue;
    bool both = true;
    for (unsigned keep = 0; keep < 2 && both; keep++) {
      struct folded fo;
      fold_walk(f, t, keep, &fo);
      both = loom_blocks_one_result(fo.order, fo.n);
      folded_free(&fo);
    }
    if (both)
      return t;
  }
  return NULL;
}

unsigned loom_wg_version_region(LLVMModuleRef m, struct loom_wg_build *b, unsigned r) {
  LLVMValueRef f = b->regions[r];
  assert(r <= b->num_barriers && b->num_regions < 2 * (b->num_barriers + 1));
  /* tracked regions and sub-group kernels run their own work-item loops */
  if (b->num_sg || b->num_divergent || b->masked || !loom_has_cycle(f))
    return 0;
  unsigned np = LLVMCountParams(b->kernel);
  struct folded whole;
  fold_walk(f, NULL, 0, &whole);
  LLVMValueRef br = loom_blocks_one_result(whole.order, whole.n) ? NULL : find_test(f, np, &whole);
  folded_free(&whole);
  if (!br)
    return 0;
  LLVMValueRef copy[2], test[2];
  for (unsigned keep = 0; keep < 2; keep++) {
    struct folded fo;
    fold_walk(f, br, keep, &fo);
    copy[keep] = copy_folded(m, f, br, keep, &fo, keep ? ".false" : ".true", &test[keep]);
    folded_free(&fo);
  }
  unsigned v = b->num_regions++;
  b->regions[r] = copy[0];
  b->regions[v] = copy[1];
  b->version[r] = v;
  b->version_test[r] = test[0];
  LLVMDeleteFunction(f);
  return v;
}
