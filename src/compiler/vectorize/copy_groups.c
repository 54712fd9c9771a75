/* A family of gathers whose values are only scattered: a copy.
 *
 * A work-item that copies a float4 from global to local memory
 * (`alm[i] = agm[j]`: CLBlast's tiles, every tiled GEMM) has its vector
 * split into components, each widened across work-items into a gather
 * and a scatter. combine-gathers would load the rows and unzip them into
 * columns, and combine-scatters zip the columns back into rows: two
 * transpositions that cancel (Xgemm on AMD Zen 5: a quarter of the
 * kernel's time in its tile copies). When every member g[k] of a gather
 * family through P is used only by one unmasked scatter to Q + k E, Q one
 * vector of pointers, the gathers and scatters in one block with no other
 * write between the first and the last, and P and Q in different address
 * spaces (global or constant against local: they cannot overlap), a run
 * time test that both P's and Q's lanes are F E bytes apart picks plain
 * loads and stores of the F n elements, at the place of the last scatter;
 * otherwise the gathers and scatters run there as before. Moving the
 * gathers that far passes no write, and the scatters only write Q. */
#include "vectorize/vectorize.h"

static unsigned pointer_space(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetPointerAddressSpace(t);
}

/* s[k]: the scatter of g[k]; *q: their common base; false if not a copy */
static bool find_scatters(LLVMValueRef *g, unsigned f, unsigned e, LLVMValueRef *s, LLVMValueRef *q) {
  *q = NULL;
  for (unsigned k = 0; k < f; k++) {
    LLVMUseRef u = LLVMGetFirstUse(g[k]);
    if (!u || LLVMGetNextUse(u))
      return false;
    LLVMValueRef user = LLVMGetUser(u);
    if (!loom_is_call_to_prefix(user, "llvm.masked.scatter.") || LLVMGetOperand(user, 0) != g[k] ||
        !loom_all_ones_mask(LLVMGetOperand(user, 3)) ||
        LLVMGetInstructionParent(user) != LLVMGetInstructionParent(g[k]))
      return false;
    long long off;
    LLVMValueRef base = loom_family_split_offset(LLVMGetOperand(user, 1), &off);
    if (off != (long long)k * e || (*q && base != *q) ||
        LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMVectorTypeKind)
      return false;
    *q = base;
    s[k] = user;
  }
  return true;
}

/* the family's last scatter, if between the first member and it nothing
 * but the family's own scatters writes memory */
static LLVMValueRef copy_span(LLVMValueRef *g, LLVMValueRef *s, unsigned f) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(g[0]);
  unsigned seen = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
    bool gather = false, scatter = false;
    for (unsigned k = 0; k < f; k++) {
      gather |= g[k] == in;
      scatter |= s[k] == in;
    }
    if (gather || scatter) {
      if (++seen == 2 * f)
        return in;
    } else if (seen && loom_family_may_write(in)) {
      return NULL;
    }
  }
  return NULL;
}

bool loom_family_copy(LLVMValueRef *g, unsigned f, LLVMValueRef p) {
  LLVMTypeRef vt = LLVMTypeOf(g[0]), et = LLVMGetElementType(vt);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
  LLVMValueRef s[64], q;
  /* one member: a plain load and store, no transposition to save */
  if (f < 2 || f > 64 || !e || !find_scatters(g, f, e, s, &q))
    return false;
  unsigned ps = pointer_space(p), qs = pointer_space(q);
  if (ps == qs || ps == 0 || qs == 0 || (ps != 3 && qs != 3))
    return false;
  LLVMValueRef last = copy_span(g, s, f);
  if (!last)
    return false;
  LLVMContextRef c = LLVMGetTypeContext(vt);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  struct loom_family_blocks b = loom_family_split(LLVMGetNextInstruction(last), "copy.whole", "copy.apart");
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(bld, b.head);
  LLVMValueRef p0 = NULL, q0 = NULL;
  LLVMValueRef whole = loom_family_contiguous_test(bld, p, n, (uint64_t)f * e, &p0);
  whole = LLVMBuildAnd(bld, whole, loom_family_contiguous_test(bld, q, n, (uint64_t)f * e, &q0), "copy_whole");
  LLVMBuildCondBr(bld, whole, b.fast, b.slow);

  /* the stream in whole registers where they tile it, else in rows */
  LLVMPositionBuilderAtEnd(bld, b.fast);
  unsigned reg = loom_preferred_vector_bits(LLVMGetBasicBlockParent(b.fast)) / 8;
  unsigned total = f * n * e, chunk = reg && total % reg == 0 ? reg : n * e;
  LLVMTypeRef ct = LLVMVectorType(et, chunk / e);
  for (unsigned off = 0; off < total; off += chunk) {
    LLVMValueRef o = LLVMConstInt(i64, off, 0);
    LLVMValueRef v = LLVMBuildLoad2(bld, ct, LLVMBuildGEP2(bld, i8, p0, &o, 1, ""), "copy.rows");
    LLVMSetAlignment(v, e);
    LLVMValueRef st = LLVMBuildStore(bld, v, LLVMBuildGEP2(bld, i8, q0, &o, 1, ""));
    LLVMSetAlignment(st, e);
  }
  LLVMBuildBr(bld, b.join);

  /* the gathers and scatters as they were, in their order, on the other path */
  LLVMPositionBuilderAtEnd(bld, b.slow);
  LLVMBuildBr(bld, b.join);
  LLVMValueRef br = LLVMGetBasicBlockTerminator(b.slow);
  LLVMValueRef moved[128];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(b.head); in;) {
    LLVMValueRef next = LLVMGetNextInstruction(in);
    for (unsigned k = 0; k < f; k++)
      if (in == g[k] || in == s[k]) {
        LLVMPositionBuilderBefore(bld, br);
        loom_move_instruction(bld, in);
        loom_family_mark_apart(in, in == s[k]);
        moved[nm++] = in;
        break;
      }
    in = next;
  }
  for (unsigned i = 0; i < nm; i++) /* their addresses, where only they used them */
    loom_family_sink_into_slow(bld, LLVMGetOperand(moved[i], loom_is_call_to_prefix(moved[i], "llvm.masked.gather.") ? 0 : 1),
                               b.head, b.slow, 0);
  loom_family_sink_into_slow(bld, p, b.head, b.slow, 0);
  loom_family_sink_into_slow(bld, q, b.head, b.slow, 0);
  LLVMDisposeBuilder(bld);
  return true;
}
