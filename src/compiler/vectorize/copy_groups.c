/* Families of gathers whose values are only scattered: copies.
 *
 * A work-item that copies a float4 from global to local memory
 * (`alm[i] = agm[j]`: CLBlast's tiles, every tiled GEMM) has its vector
 * split into components, each widened across work-items into a gather
 * and a scatter. combine-gathers would load the rows and unzip them into
 * columns, and combine-scatters zip the columns back into rows: two
 * transpositions that cancel (Xgemm on AMD Zen 5: a quarter of the
 * kernel's time in its tile copies). When every member g[k] of a gather
 * family through P is used only by one unmasked scatter to Q + k E, Q one
 * vector of pointers (or members with their own indices: index_families.c),
 * and P and Q in different address spaces (global or constant against
 * local: they cannot overlap), a run time test that both P's and Q's lanes
 * are F E bytes apart picks plain loads and stores of the F n elements,
 * at the place of the last scatter; otherwise the gathers and scatters run
 * there as before, in their order.
 *
 * All the copy families of a block go together: their members may
 * interleave (XgemmDirect's 2x2 elements per work-item: rows j = 0 and 1
 * of component i = 0, then of i = 1), and a family rewritten alone would
 * leave the other's members on both sides of its blocks. They must all copy
 * between the same two address spaces, and between the first member and the
 * last nothing else may write memory or read the destination's space; the
 * gathers then pass only writes to the other space, and the scatters only
 * reads of the other space and the other families' stores, which the test
 * also finds disjoint from theirs (each pair of Q ranges). */
#include "vectorize/vectorize.h"

static unsigned pointer_space(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetPointerAddressSpace(t);
}

/* s[k]: the scatter of g[k]; *q: their common base (with *indexed, the
 * first scatter's address, the others through their own indices:
 * index_families.c); false if not a copy */
static bool find_scatters(LLVMValueRef *g, unsigned f, unsigned e, LLVMValueRef *s, LLVMValueRef *q,
                          bool *indexed) {
  *q = NULL;
  *indexed = false;
  for (unsigned k = 0; k < f; k++) {
    LLVMUseRef u = LLVMGetFirstUse(g[k]);
    if (!u || LLVMGetNextUse(u))
      return false;
    LLVMValueRef user = LLVMGetUser(u);
    if (!loom_is_call_to_prefix(user, "llvm.masked.scatter.") || LLVMGetOperand(user, 0) != g[k] ||
        !loom_all_ones_mask(LLVMGetOperand(user, 3)) ||
        LLVMGetInstructionParent(user) != LLVMGetInstructionParent(g[k]))
      return false;
    long long off, d;
    LLVMValueRef base = loom_family_split_offset(LLVMGetOperand(user, 1), &off);
    if (LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMVectorTypeKind)
      return false;
    if (k == 1 && off == 0 && base != *q && loom_family_index_delta(*q, base, &d) && d == 1)
      *indexed = true;
    if (*indexed ? off != 0 || !loom_family_index_delta(*q, base, &d) || d != k
                 : off != (long long)k * e || (*q && base != *q))
      return false;
    if (!k)
      *q = base;
    s[k] = user;
  }
  return true;
}

bool loom_family_copy_candidate(struct loom_copy_family *c) {
  LLVMTypeRef vt = LLVMTypeOf(c->g[0]);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(LLVMGetElementType(vt));
  /* one member: a plain load and store, no transposition to save */
  if (c->f < 2 || c->f > 16 || !e || !find_scatters(c->g, c->f, e, c->s, &c->q, &c->q_indexed))
    return false;
  if (c->q_indexed && !loom_family_wrap_testable(c->q, n, (uint64_t)c->f * e))
    return false;
  unsigned ps = pointer_space(c->p), qs = pointer_space(c->q);
  return ps != qs && ps != 0 && qs != 0 && (ps == 3 || qs == 3);
}

static bool is_member(const struct loom_copy_family *fams, unsigned nf, LLVMValueRef in) {
  for (unsigned i = 0; i < nf; i++)
    for (unsigned k = 0; k < fams[i].f; k++)
      if (fams[i].g[k] == in || fams[i].s[k] == in)
        return true;
  return false;
}

/* may `in` read memory in address space `space` (or flat memory)? */
static bool may_read_space(LLVMValueRef in, unsigned space) {
  if (!LLVMIsALoadInst(in) && !loom_is_call_to_prefix(in, "llvm.masked.gather.") &&
      !loom_is_call_to_prefix(in, "llvm.masked.load."))
    return false;
  unsigned s = pointer_space(LLVMGetOperand(in, 0));
  return s == space || s == 0;
}

/* the last member of the families (all copying into one space), if between
 * the first member and it nothing but their members writes memory or reads
 * that space */
static LLVMValueRef copy_span(const struct loom_copy_family *fams, unsigned nf) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(fams[0].g[0]);
  unsigned seen = 0, total = 0;
  for (unsigned i = 0; i < nf; i++) {
    total += 2 * fams[i].f;
    if (LLVMGetInstructionParent(fams[i].g[0]) != bb)
      return NULL;
  }
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
    if (is_member(fams, nf, in)) {
      if (++seen == total)
        return in;
      continue;
    }
    if (!seen)
      continue;
    if (loom_family_may_write(in) || may_read_space(in, pointer_space(fams[0].q)))
      return NULL;
  }
  return NULL;
}

/* [a, a + bytes) and [b, b + bytes) do not overlap (pointers of one space) */
static LLVMValueRef apart(LLVMBuilderRef bld, LLVMValueRef a, LLVMValueRef b, uint64_t bytes) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(a)));
  LLVMValueRef x = LLVMBuildPtrToInt(bld, a, i64, ""), y = LLVMBuildPtrToInt(bld, b, i64, "");
  /* |x - y| >= bytes, as x - y + bytes - 1 >= 2 bytes - 1 unsigned */
  LLVMValueRef d = LLVMBuildAdd(bld, LLVMBuildSub(bld, x, y, ""), LLVMConstInt(i64, bytes - 1, 0), "");
  return LLVMBuildICmp(bld, LLVMIntUGE, d, LLVMConstInt(i64, 2 * bytes - 1, 0), "copies_apart");
}

bool loom_family_copy_set(const struct loom_copy_family *fams, unsigned nf) {
  /* one direction for all: a family's reads never meet another's writes */
  for (unsigned i = 1; i < nf; i++)
    if (pointer_space(fams[i].p) != pointer_space(fams[0].p) ||
        pointer_space(fams[i].q) != pointer_space(fams[0].q))
      return false;
  LLVMValueRef last = copy_span(fams, nf);
  if (!last)
    return false;
  LLVMTypeRef vt0 = LLVMTypeOf(fams[0].g[0]);
  LLVMContextRef c = LLVMGetTypeContext(vt0);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  struct loom_family_blocks b = loom_family_split(LLVMGetNextInstruction(last), "copy.whole", "copy.apart");
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(bld, b.head);
  LLVMValueRef p0[16], q0[16], whole = NULL;
  uint64_t bytes[16];
  for (unsigned i = 0; i < nf; i++) {
    const struct loom_copy_family *fa = &fams[i];
    LLVMTypeRef vt = LLVMTypeOf(fa->g[0]);
    unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(LLVMGetElementType(vt));
    uint64_t stride = (uint64_t)fa->f * e;
    bytes[i] = stride * n;
    LLVMValueRef t = loom_family_contiguous_test(bld, fa->p, n, stride, fa->p_indexed ? fa->f - 1 : 0, &p0[i]);
    whole = whole ? LLVMBuildAnd(bld, whole, t, "") : t;
    t = loom_family_contiguous_test(bld, fa->q, n, stride, fa->q_indexed ? fa->f - 1 : 0, &q0[i]);
    whole = LLVMBuildAnd(bld, whole, t, "copy_whole");
    /* the stores of different families change order: their ranges apart */
    for (unsigned j = 0; j < i; j++) {
      uint64_t m = bytes[i] > bytes[j] ? bytes[i] : bytes[j];
      whole = LLVMBuildAnd(bld, whole, apart(bld, q0[i], q0[j], m), "copy_whole");
    }
  }
  loom_build_test_branch(bld, whole, b.fast, b.slow);

  /* each stream in whole registers where they tile it, else in rows */
  LLVMPositionBuilderAtEnd(bld, b.fast);
  unsigned reg = loom_preferred_vector_bits(LLVMGetBasicBlockParent(b.fast)) / 8;
  for (unsigned i = 0; i < nf; i++) {
    LLVMTypeRef vt = LLVMTypeOf(fams[i].g[0]), et = LLVMGetElementType(vt);
    unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
    unsigned total = fams[i].f * n * e, chunk = reg && total % reg == 0 ? reg : n * e;
    LLVMTypeRef ct = LLVMVectorType(et, chunk / e);
    for (unsigned off = 0; off < total; off += chunk) {
      LLVMValueRef o = LLVMConstInt(i64, off, 0);
      LLVMValueRef v = LLVMBuildLoad2(bld, ct, LLVMBuildGEP2(bld, i8, p0[i], &o, 1, ""), "copy.rows");
      LLVMSetAlignment(v, e);
      LLVMValueRef st = LLVMBuildStore(bld, v, LLVMBuildGEP2(bld, i8, q0[i], &o, 1, ""));
      LLVMSetAlignment(st, e);
    }
  }
  LLVMBuildBr(bld, b.join);

  /* the gathers and scatters as they were, in their order, on the other path */
  LLVMPositionBuilderAtEnd(bld, b.slow);
  LLVMBuildBr(bld, b.join);
  LLVMValueRef br = LLVMGetBasicBlockTerminator(b.slow);
  LLVMValueRef moved[2 * 16 * 16];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(b.head); in;) {
    LLVMValueRef next = LLVMGetNextInstruction(in);
    if (is_member(fams, nf, in)) {
      bool scatter = loom_is_call_to_prefix(in, "llvm.masked.scatter.");
      LLVMPositionBuilderBefore(bld, br);
      loom_move_instruction(bld, in);
      loom_family_mark_apart(in, scatter);
      moved[nm++] = in;
    }
    in = next;
  }
  for (unsigned i = 0; i < nm; i++) /* their addresses, where only they used them */
    loom_family_sink_into_slow(bld, LLVMGetOperand(moved[i], loom_is_call_to_prefix(moved[i], "llvm.masked.gather.") ? 0 : 1),
                               b.head, b.slow, 0);
  for (unsigned i = 0; i < nf; i++) {
    loom_family_sink_into_slow(bld, fams[i].p, b.head, b.slow, 0);
    loom_family_sink_into_slow(bld, fams[i].q, b.head, b.slow, 0);
  }
  LLVMDisposeBuilder(bld);
  return true;
}
