/* Scatters that write a few consecutive elements of each lane's row become
 * one store per lane.
 *
 * CLBlast's XgemmDirect ends with each work-item storing its 4 x 4 results,
 * `c[(idm + mi) * ldc + idn + ni]` for C in row-major order: widened across
 * work-items, sixteen scatters whose lanes lie 4 * ldc elements apart, each
 * writing one element of every lane's four. The index is chosen by a select
 * on the transposition flag (a kernel argument), so no contiguity is
 * visible to combine-scatters. On a 16-core Xeon those scatters took a
 * sixth of the kernel's time.
 *
 * After combine-scatters this pass finds, in one block, families of F = 2,
 * 4, 8 or 16 (at most the lanes n) unmasked scatters of one element type E
 * through one scalar pointer R, each R[Y] with Y taken apart by
 * linear_index.c, a select on a scalar condition followed to one side (each
 * side is tried): the same terms and steps across lanes, lane 0 constants
 * (plus R's constant steps) F consecutive elements. Member k's lane i then
 * writes element k of the row at member 0's lane i. The scatters carry the
 * access group of a parallel loop: the lanes are its iterations, so no two
 * lanes write one address and their rows never overlap. Several families
 * whose members interleave (XgemmDirect stores mi within ni) are taken
 * together when nothing between their first and last member reads or
 * writes memory, else each alone. At the last member, when the condition
 * takes that side, (a sign-extended index) no lane's index + F - 1 passes
 * INT_MAX and no two families' rows of one lane overlap: log2(F) rounds of
 * interleaving shuffles build each lane's F elements, stored at member 0's
 * address of that lane; otherwise the scatters run as before, in their
 * order. The stores write the bytes the scatters did, at the last one's
 * place: nothing between the members touched memory.
 *
 * SimplifyCFG sinks the store both paths of `beta == 0 ? ... : ...` make
 * last into their join; it goes back to each path first (unsink_scatter),
 * next to its siblings. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <string.h>

enum { MAX_FACTOR = 16, MAX_MEMBERS = 64, MAX_FAMILIES = 8 };

struct member {
  LLVMValueRef scatter;
  struct loom_row_access at;
};

static bool as_member(LLVMValueRef in, int side, struct member *m) {
  if (!loom_is_call_to_prefix(in, "llvm.masked.scatter.") || !loom_all_ones_mask(LLVMGetOperand(in, 3)) ||
      loom_family_is_apart(in, true) || !LLVMGetMetadata(in, LLVMGetMDKindID("llvm.access.group", 17)))
    return false;
  LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(in, 0));
  unsigned e = loom_family_element_bytes(LLVMGetElementType(vt));
  m->scatter = in;
  return e && loom_row_access_of(LLVMGetOperand(in, 1), side, &m->at) && m->at.idx_size == e;
}

/* bytes from R of lane 0's element */
static long long lane0_bytes(const struct member *m) {
  return m->at.off + m->at.elems * (long long)m->at.idx_size;
}

/* s[k] writes element k of each lane's row */
struct family {
  LLVMValueRef s[MAX_FACTOR];
  unsigned f;
  const struct member *m0; /* s[0] taken apart */
};

static bool in_family(const struct family *fam, unsigned g, LLVMValueRef in) {
  for (unsigned j = 0; j < g; j++)
    for (unsigned k = 0; k < fam[j].f; k++)
      if (fam[j].s[k] == in)
        return true;
  return false;
}

/* the families among m[0..nm), each member in one at most */
static unsigned find_families(const struct member *m, unsigned nm, struct family *fam) {
  unsigned g = 0;
  for (unsigned a = 0; a < nm && g < MAX_FAMILIES; a++) {
    LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(m[a].scatter, 0));
    unsigned n = LLVMGetVectorSize(vt), e = m[a].at.idx_size;
    long long base = lane0_bytes(&m[a]);
    struct family *fa = &fam[g];
    memset(fa, 0, sizeof *fa);
    bool earlier = false, neg = false;
    for (unsigned b = 0; b < nm; b++) {
      if (LLVMTypeOf(LLVMGetOperand(m[b].scatter, 0)) != vt ||
          !loom_row_access_same_rows(&m[a].at, &m[b].at, n))
        continue;
      long long at = lane0_bytes(&m[b]) - base;
      earlier |= at == -(long long)e;
      if (at < 0 || at % e || at / e >= MAX_FACTOR || fa->s[at / e])
        continue;
      fa->s[at / e] = m[b].scatter;
      if (!at)
        fa->m0 = &m[b];
      neg |= m[b].at.elems < m[a].at.elems; /* R's steps instead of Y's: Y - k may wrap */
    }
    unsigned f = 1;
    while (f < MAX_FACTOR && fa->s[f])
      f++;
    while (f & (f - 1)) /* the largest power of two of consecutive members */
      f &= f - 1;
    if (earlier || neg || f < 2 || f > n)
      continue;
    fa->f = f;
    bool taken = false;
    for (unsigned k = 0; k < f; k++)
      taken |= in_family(fam, g, fa->s[k]);
    g += !taken;
  }
  return g;
}

/* the families' members lie in one run of bb that no other instruction
 * reading or writing memory interrupts; *last is the run's last member */
static bool one_run(LLVMBasicBlockRef bb, const struct family *fam, unsigned g, LLVMValueRef *last) {
  unsigned total = 0, seen = 0;
  for (unsigned j = 0; j < g; j++)
    total += fam[j].f;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && seen < total; in = LLVMGetNextInstruction(in)) {
    if (in_family(fam, g, in))
      seen++, *last = in;
    else if (seen && loom_family_touches_memory(in))
      return false;
  }
  return seen == total;
}

/* whole && x (whole NULL: none yet) */
static LLVMValueRef and_into(LLVMBuilderRef bld, LLVMValueRef whole, LLVMValueRef x) {
  return whole ? LLVMBuildAnd(bld, whole, x, "") : x;
}

/* all lanes of the <n x i1> v */
static LLVMValueRef all_lanes(LLVMBuilderRef bld, LLVMValueRef v, unsigned n) {
  LLVMTypeRef in = LLVMIntTypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)), n);
  return LLVMBuildICmp(bld, LLVMIntEQ, LLVMBuildBitCast(bld, v, in, ""), LLVMConstAllOnes(in), "");
}

static LLVMValueRef splat_of(LLVMValueRef k, unsigned n) {
  LLVMValueRef e[LOOM_LINEAR_LANES];
  assert(n <= LOOM_LINEAR_LANES);
  for (unsigned i = 0; i < n; i++)
    e[i] = k;
  return LLVMConstVector(e, n);
}

/* lane i's element index from R of a's rows, 64 bits */
static LLVMValueRef element_index(LLVMBuilderRef bld, const struct loom_row_access *a, unsigned n) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(a->y)));
  LLVMTypeRef v64 = LLVMVectorType(i64, n);
  LLVMValueRef y = a->y;
  if (a->ext == LOOM_EXT_SEXT)
    y = LLVMBuildSExt(bld, y, v64, "");
  else if (a->ext == LOOM_EXT_ZEXT_NNEG)
    y = LLVMBuildZExt(bld, y, v64, "");
  long long k = a->off / (long long)a->idx_size;
  return k ? LLVMBuildAdd(bld, y, splat_of(LLVMConstInt(i64, (unsigned long long)k, 1), n), "") : y;
}

/* Rewrites the families fam[0..g) (their indices taken apart with selects
 * followed to side), whose members lie in one run of their block ending
 * at last. */
static void rewrite(struct family *fam, unsigned g, LLVMValueRef last, int side) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(last));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i1 = LLVMInt1TypeInContext(c);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(last);
  /* the members in their order, for the slow path */
  LLVMValueRef order[MAX_FAMILIES * MAX_FACTOR];
  unsigned no = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
    if (in_family(fam, g, in))
      order[no++] = in;
    if (in == last)
      break;
  }

  /* head: the test; fast: shuffles and a store per lane and family; slow:
   * the scatters */
  struct loom_family_blocks blocks = loom_family_split(last, "rows.whole", "rows.apart");
  LLVMBasicBlockRef head = blocks.head, fast = blocks.fast, slow = blocks.slow, join = blocks.join;
  /* member 0 of each family taken apart again: the split renewed the
   * block's phis (an index or the condition may be one), the scatters
   * stayed */
  struct member m0[MAX_FAMILIES];
  for (unsigned j = 0; j < g; j++) {
    bool still = as_member(fam[j].s[0], side, &m0[j]);
    assert(still);
    (void)still;
  }
  for (unsigned k = 0; k < no; k++)
    LLVMInstructionRemoveFromParent(order[k]);
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef whole = NULL;
  for (unsigned j = 0; j < g; j++) {
    const struct loom_row_access *a = &m0[j].at;
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(a->y)), f = fam[j].f;
    bool same_cond = false;
    for (unsigned i = 0; i < j; i++)
      same_cond |= m0[i].at.lin.cond == a->lin.cond;
    if (a->lin.cond && !same_cond)
      whole = and_into(bld, whole, a->lin.side ? a->lin.cond : LLVMBuildNot(bld, a->lin.cond, ""));
    if (a->ext == LOOM_EXT_SEXT) {
      /* every lane's Y + f - 1 without a wrap: sext(Y + k) = sext(Y) + k */
      LLVMValueRef lim = splat_of(LLVMConstInt(LLVMGetElementType(LLVMTypeOf(a->y)), 0x7fffffffu - (f - 1), 0), n);
      whole = and_into(bld, whole, all_lanes(bld, LLVMBuildICmp(bld, LLVMIntSLE, a->y, lim, ""), n));
    }
    /* a work-item's rows of two families do not overlap (different lanes'
     * never write one address: the loop is parallel) */
    for (unsigned i = 0; i < j; i++) {
      LLVMValueRef d = LLVMBuildSub(bld, element_index(bld, a, n), element_index(bld, &m0[i].at, n), "");
      LLVMValueRef above = LLVMBuildICmp(bld, LLVMIntSGE, d, splat_of(LLVMConstInt(i64, fam[i].f, 0), n), "");
      LLVMValueRef below = LLVMBuildICmp(bld, LLVMIntSLE, d, splat_of(LLVMConstInt(i64, (unsigned long long)-(long long)f, 1), n), "");
      whole = and_into(bld, whole, all_lanes(bld, LLVMBuildOr(bld, above, below, ""), n));
    }
  }
  if (!whole)
    whole = LLVMConstInt(i1, 1, 0);
  else
    LLVMSetValueName2(whole, "rows_whole", 10);
  loom_build_test_branch(bld, whole, fast, slow);

  /* lane i's f elements: the (i f)-th f of the row-major stream */
  LLVMPositionBuilderAtEnd(bld, fast);
  for (unsigned j = 0; j < g; j++) {
    LLVMValueRef *s = fam[j].s, p0 = LLVMGetOperand(s[0], 1);
    unsigned f = fam[j].f, n = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(s[0], 0)));
    unsigned e = loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(s[0], 0))));
    LLVMValueRef cols[MAX_FACTOR], rows[MAX_FACTOR];
    for (unsigned k = 0; k < f; k++)
      cols[k] = LLVMGetOperand(s[k], 0);
    loom_family_zip(bld, cols, f, n, rows);
    for (unsigned i = 0; i < n; i++) {
      unsigned first = i * f;
      LLVMValueRef sel[MAX_FACTOR];
      for (unsigned k = 0; k < f; k++)
        sel[k] = LLVMConstInt(i32, first % n + k, 0);
      LLVMValueRef row = rows[first / n];
      LLVMValueRef part = LLVMBuildShuffleVector(bld, row, LLVMGetPoison(LLVMTypeOf(row)),
                                                 LLVMConstVector(sel, f), "row.part");
      LLVMValueRef p = LLVMBuildExtractElement(bld, p0, LLVMConstInt(i32, i, 0), "row.at");
      LLVMValueRef st = LLVMBuildStore(bld, part, p);
      LLVMSetAlignment(st, e);
      loom_copy_metadata(s[0], st); /* alias scopes, type, access group: true of the rows */
    }
  }
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderAtEnd(bld, slow);
  for (unsigned k = 0; k < no; k++) {
    LLVMInsertIntoBuilder(bld, order[k]);
    loom_family_mark_apart(order[k], true);
  }
  LLVMBuildBr(bld, join);
  for (unsigned j = 0; j < g; j++)
    for (unsigned k = 1; k < fam[j].f; k++)
      loom_family_sink_into_slow(bld, LLVMGetOperand(fam[j].s[k], 1), head, slow, 0);
  LLVMDisposeBuilder(bld);
}

/* Families found in bb (their members taken apart with selects followed to
 * `side`) and rewritten: all of them at once when their members make one
 * run without other memory accesses (XgemmDirect's four rows of four,
 * interleaved), else the first that does alone. True when bb changed (the
 * rest of it moved to a block that comes up later). */
static bool rewrite_block(LLVMBasicBlockRef bb, int side) {
  struct member m[MAX_MEMBERS];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && nm < MAX_MEMBERS; in = LLVMGetNextInstruction(in))
    if (as_member(in, side, &m[nm]))
      nm++;
  struct family fam[MAX_FAMILIES];
  unsigned g = find_families(m, nm, fam);
  LLVMValueRef last = NULL;
  /* together, the families need one root: their rows are compared */
  bool one_root = true;
  for (unsigned j = 1; j < g; j++) {
    const struct loom_row_access *a = &fam[0].m0->at, *b = &fam[j].m0->at;
    one_root &= a->root == b->root && a->ext == b->ext && a->idx_size == b->idx_size &&
                a->off % (long long)a->idx_size == 0 && b->off % (long long)b->idx_size == 0 &&
                LLVMTypeOf(a->y) == LLVMTypeOf(b->y);
  }
  if (g > 1 && one_root && one_run(bb, fam, g, &last)) {
    rewrite(fam, g, last, side);
    return true;
  }
  for (unsigned j = 0; j < g; j++)
    if (one_run(bb, &fam[j], 1, &last)) {
      rewrite(&fam[j], 1, last, side);
      return true;
    }
  return false;
}

static LLVMValueRef map_edge(void *ctx, LLVMValueRef v) {
  size_t got;
  return loom_ptrmap_get(ctx, v, &got) ? (LLVMValueRef)got : v;
}

static bool has_scatter(LLVMBasicBlockRef bb) {
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
    if (loom_is_call_to_prefix(in, "llvm.masked.scatter.") && !loom_family_is_apart(in, true))
      return true;
  return false;
}

/* the value of v (of join) on the edge from pred: a phi's incoming value,
 * a pure instruction cloned before pred's terminator (map: join's values
 * already cloned there), anything from elsewhere itself; NULL if v cannot
 * be computed there */
static LLVMValueRef on_edge(LLVMBuilderRef b, LLVMValueRef v, LLVMBasicBlockRef join, LLVMBasicBlockRef pred,
                            struct loom_ptrmap *map, int depth) {
  size_t got;
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != join)
    return v;
  if (loom_ptrmap_get(map, v, &got))
    return (LLVMValueRef)got;
  if (LLVMIsAPHINode(v)) {
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
      if (LLVMGetIncomingBlock(v, k) == pred) {
        loom_ptrmap_put(map, v, (size_t)LLVMGetIncomingValue(v, k));
        return LLVMGetIncomingValue(v, k);
      }
    return NULL;
  }
  if (depth > 8 || !(LLVMIsABinaryOperator(v) || LLVMIsACastInst(v) || LLVMIsAGetElementPtrInst(v) ||
                     LLVMIsAShuffleVectorInst(v) || LLVMIsAInsertElementInst(v)))
    return NULL;
  if (LLVMIsABinaryOperator(v)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem)
      return NULL;
  }
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned i = 0; i < n; i++)
    if (!on_edge(b, LLVMGetOperand(v, i), join, pred, map, depth + 1))
      return NULL;
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pred));
  LLVMValueRef c = loom_clone_mapped(b, v, map_edge, map);
  loom_ptrmap_put(map, v, (size_t)c);
  return c;
}

/* A scatter that SimplifyCFG sank from every path into their join (the
 * last of XgemmDirect's sixteen stores, common to its beta == 0 and beta
 * != 0 paths) goes back to each path, where its siblings are: join's
 * first memory access, its operands phis or pure arithmetic on them, each
 * predecessor ending in a branch to join alone and holding scatters. */
static bool unsink_scatter(LLVMBasicBlockRef join) {
  LLVMBasicBlockRef preds[8];
  unsigned np = 0;
  LLVMValueRef sc = NULL;
  for (LLVMValueRef in = LLVMGetFirstInstruction(join); in && !sc; in = LLVMGetNextInstruction(in)) {
    if (loom_is_call_to_prefix(in, "llvm.masked.scatter.") && !loom_family_is_apart(in, true))
      sc = in;
    else if (loom_family_touches_memory(in) || LLVMIsACallInst(in))
      return false;
    else if (LLVMIsAPHINode(in) && !np) {
      np = LLVMCountIncoming(in);
      if (np < 2 || np > 8)
        return false;
      for (unsigned k = 0; k < np; k++)
        preds[k] = LLVMGetIncomingBlock(in, k);
    }
  }
  if (!sc || !np)
    return false;
  for (unsigned k = 0; k < np; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(preds[k]);
    if (!t || !LLVMIsABranchInst(t) || LLVMIsConditional(t) || !has_scatter(preds[k]))
      return false;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(sc)));
  /* every operand must be computable on every edge before anything moves */
  bool ok = true;
  struct loom_ptrmap maps[8] = {0};
  for (unsigned k = 0; k < np && ok; k++)
    for (unsigned i = 0; i < 4 && ok; i++)
      ok = on_edge(b, LLVMGetOperand(sc, i), join, preds[k], &maps[k], 0) != NULL;
  if (ok)
    for (unsigned k = 0; k < np; k++) {
      LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(preds[k]));
      loom_clone_mapped(b, sc, map_edge, &maps[k]);
    }
  for (unsigned k = 0; k < np; k++)
    loom_ptrmap_free(&maps[k]);
  LLVMDisposeBuilder(b);
  if (ok)
    LLVMInstructionEraseFromParent(sc);
  return ok;
}

bool loom_scatter_rows(LLVMModuleRef m) {
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      while (unsink_scatter(bb))
        changed = true;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (int side = 0; side < 2; side++)
        if (rewrite_block(bb, side)) {
          changed = true;
          break;
        }
  return changed;
}
