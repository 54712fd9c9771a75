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
 * copied here.
 *
 * Group-uniform tests inside a region (CLBlast's GlobalToLocalDirectA:
 * `if (a_ld % VWMD == 0 && a_offset % VWMD == 0)` a float4 copy, else one
 * element at a time) keep its work-item loop scalar: LLVM does not
 * vectorise the if-else, nor unswitch a loop that large. Such branches are
 * folded to their true side in one more copy, run when all their tests
 * hold; a region with one result keeps itself for the rest, a tile loop's
 * region gets three versions (its repeating side with the tests inside
 * true, that side alone, its other side). */
#include "vectorize/vectorize.h"
#include "workgroup/workgroup.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

/* branches taken as going to one successor only */
enum { MAX_FOLDS = 4, MAX_COPIED_INSNS = 4000 };
struct folds {
  LLVMValueRef br[MAX_FOLDS];
  unsigned keep[MAX_FOLDS], n;
};

/* the successor t keeps if folded (-1: t is not folded) */
static int kept(const struct folds *fs, LLVMValueRef t) {
  for (unsigned k = 0; fs && k < fs->n; k++)
    if (fs->br[k] == t)
      return (int)fs->keep[k];
  return -1;
}

/* the blocks of f reachable from its entry when the folded branches go
 * only to the successors they keep, in reverse postorder */
struct folded {
  LLVMBasicBlockRef *order;
  size_t n;
  struct loom_ptrmap index; /* block -> position in order */
};

static unsigned num_succ(LLVMValueRef t, const struct folds *fs) {
  return kept(fs, t) >= 0 ? 1 : t ? LLVMGetNumSuccessors(t) : 0;
}

static LLVMBasicBlockRef succ(LLVMValueRef t, const struct folds *fs, unsigned i) {
  int keep = kept(fs, t);
  return LLVMGetSuccessor(t, keep >= 0 ? (unsigned)keep : i);
}

static void fold_walk(LLVMValueRef f, const struct folds *fs, struct folded *out) {
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
    if (fr->next == num_succ(t, fs)) {
      post[n++] = fr->bb;
      depth--;
      continue;
    }
    LLVMBasicBlockRef s = succ(t, fs, fr->next++);
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

/* a copy of f made of the blocks fo reaches, the branches fs folded to
 * the successors they keep; test[k]: the copy of fs->br[k]'s condition */
static LLVMValueRef copy_folded(LLVMModuleRef m, LLVMValueRef f, const struct folds *fs,
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
      int keep = kept(fs, in);
      if (keep >= 0) {
        cl = LLVMBuildBr(bld, mapped_block(&cp, LLVMGetSuccessor(in, (unsigned)keep)));
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
  for (size_t i = 0; i < fo->n; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(fo->order[i]); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
      for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(in, k);
        /* an edge a folded branch no longer takes */
        int keep = kept(fs, LLVMGetBasicBlockTerminator(ib));
        if (!reaches(fo, ib) || (keep >= 0 && LLVMGetSuccessor(LLVMGetBasicBlockTerminator(ib), (unsigned)keep) != fo->order[i]))
          continue;
        LLVMValueRef v = mapped(&cp, LLVMGetIncomingValue(in, k));
        LLVMBasicBlockRef nb = mapped_block(&cp, ib);
        LLVMAddIncoming(mapped(&cp, in), &v, &nb, 1);
      }
  for (unsigned k = 0; k < fs->n; k++)
    test[k] = mapped(&cp, LLVMGetCondition(fs->br[k]));
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
      struct folds one = {{t}, {keep}, 1};
      fold_walk(f, &one, &fo);
      both = loom_blocks_one_result(fo.order, fo.n);
      folded_free(&fo);
    }
    if (both)
      return t;
  }
  return NULL;
}

/* do the blocks fo reaches return to barrier region r or an earlier one
 * (a loop around barriers goes on)? */
static bool goes_back(const struct folded *fo, unsigned r) {
  for (size_t i = 0; i < fo->n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(fo->order[i]);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet && LLVMGetNumOperands(t) == 1 &&
        LLVMIsAConstantInt(LLVMGetOperand(t, 0)) &&
        LLVMConstIntGetSExtValue(LLVMGetOperand(t, 0)) >= 0 &&
        LLVMConstIntGetSExtValue(LLVMGetOperand(t, 0)) <= (long long)r)
      return true;
  }
  return false;
}

/* instructions in the blocks fo reaches */
static size_t instructions(const struct folded *fo) {
  size_t n = 0;
  for (size_t i = 0; i < fo->n; i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(fo->order[i]); in; in = LLVMGetNextInstruction(in))
      n++;
  return n;
}

/* Conditional branches among the blocks fo reaches (not `skip`) on tests
 * the work-group function can compute (an if-else choosing how to do the
 * work: CLBlast's aligned float4 copy or its scalar one), each folded to
 * its true side, added to fs while it has room. The front end's IR has
 * no loop guards (loops are not rotated yet): such tests are the
 * kernel's own. */
static void uniform_tests(LLVMValueRef f, unsigned np, const struct folded *fo, LLVMValueRef skip,
                          struct folds *fs) {
  for (size_t i = 0; i < fo->n && fs->n < MAX_FOLDS; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(fo->order[i]);
    if (!t || t == skip || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
        LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1) ||
        !loom_region_uniform_expr(f, np, LLVMGetCondition(t)))
      continue;
    fs->br[fs->n] = t;
    fs->keep[fs->n++] = 0;
  }
}

/* region index `into` becomes the copy of f with the branches fs folded,
 * its tests those branches' conditions. With `at_entry`, the tests are
 * computed again at the copy's entry from its parameters, where the
 * region's later rewrites of its loops leave them alone (a condition in a
 * loop, dead once its branch is folded, may be erased); false where one
 * is not such an expression of the copy, as the work-group function reads
 * them (a value merged from a side folded away) */
static bool set_copy(LLVMModuleRef m, struct loom_wg_build *b, LLVMValueRef f, unsigned into,
                     const struct folds *fs, const char *suffix, unsigned np, bool at_entry) {
  struct folded fo;
  fold_walk(f, fs, &fo);
  struct loom_version_tests *vt = &b->version_tests[into];
  LLVMValueRef copy = copy_folded(m, f, fs, &fo, suffix, vt->test);
  b->regions[into] = copy;
  folded_free(&fo);
  vt->n = fs->n;
  for (unsigned k = 0; k < fs->n; k++)
    vt->negate[k] = fs->keep[k] == 1;
  if (!at_entry)
    return true;
  unsigned nparams = LLVMCountParams(copy);
  assert(nparams >= np + 5);
  LLVMValueRef *params = malloc(nparams * sizeof *params);
  LLVMGetParams(copy, params);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(copy)));
  bool ok = true;
  for (unsigned k = 0; k < fs->n && ok; k++) {
    vt->test[k] = loom_region_emit_uniform(copy, np, vt->test[k], bld, params);
    ok = vt->test[k] && loom_region_uniform_expr(copy, np, vt->test[k]);
  }
  LLVMDisposeBuilder(bld);
  free(params);
  return ok;
}

unsigned loom_wg_version_region(LLVMModuleRef m, struct loom_wg_build *b, unsigned r) {
  LLVMValueRef f = b->regions[r];
  assert(r <= b->num_barriers && b->num_regions + 2 <= LOOM_REGION_COPIES * (b->num_barriers + 1));
  /* tracked regions and sub-group kernels run their own work-item loops */
  if (b->num_sg || b->num_divergent || b->masked || !loom_has_cycle(f))
    return 0;
  unsigned np = LLVMCountParams(b->kernel);
  struct folded whole;
  fold_walk(f, NULL, &whole);
  bool one_result = loom_blocks_one_result(whole.order, whole.n);
  LLVMValueRef br = one_result ? NULL : find_test(f, np, &whole);
  /* the tests inside: those of the whole region, or of the side of br
   * that goes back to an earlier barrier (CLBlast's tile copy, where the
   * tile loop goes on: it runs every tile, the other side once) */
  struct folds fast = {{br}, {0}, br ? 1 : 0};
  if (br) {
    struct folds side[2] = {{{br}, {0}, 1}, {{br}, {1}, 1}};
    bool back[2];
    for (unsigned keep = 0; keep < 2; keep++) {
      struct folded fo;
      fold_walk(f, &side[keep], &fo);
      uniform_tests(f, np, &fo, br, &side[keep]);
      back[keep] = goes_back(&fo, r);
      folded_free(&fo);
    }
    /* (without tests inside: br's true side, as it was) */
    unsigned pick = back[1] && !back[0] ? 1 : 0;
    fast = side[side[pick].n > 1 ? pick : 0];
  } else if (one_result) {
    uniform_tests(f, np, &whole, NULL, &fast);
  }
  unsigned plain = br ? 1 : 0; /* the folds without tests inside */
  /* a copy for the tests inside only while the region is small enough
   * to copy again (compile time) */
  if (fast.n > plain && instructions(&whole) > MAX_COPIED_INSNS)
    fast.n = plain;
  folded_free(&whole);
  if (fast.n > plain && !set_copy(m, b, f, r, &fast, ".uniform", np, true)) {
    LLVMDeleteFunction(b->regions[r]);
    b->regions[r] = f;
    fast.n = plain;
  }
  if (!fast.n)
    return 0;
  unsigned first = b->num_regions;
  if (br) {
    /* br's side with the tests inside (all true: one copy; else another),
     * br's other side */
    unsigned side = fast.keep[0], v = b->num_regions++, u = 0;
    struct folds only = {{br}, {1 - side}, 1};
    set_copy(m, b, f, v, &only, side ? ".true" : ".false", np, false);
    if (fast.n > 1) {
      u = b->num_regions++;
      only.keep[0] = side;
      set_copy(m, b, f, u, &only, side ? ".false" : ".true", np, false);
    } else {
      set_copy(m, b, f, r, &fast, side ? ".false" : ".true", np, false);
    }
    if (u) {
      b->version[u] = v;
      v = u;
    }
    b->version[r] = v;
    LLVMDeleteFunction(f);
  } else {
    /* the copy with every test true (made above); the region as it was
     * for the rest */
    unsigned v = b->num_regions++;
    b->regions[v] = f;
    b->version[r] = v;
  }
  return b->num_regions - first;
}
