/* Scatters of a vector's components become shuffles and whole stores.
 *
 * The write side of combine-gathers (gather_groups.c): a work-item that
 * writes a float4 to `p[id]` has its vector split into scalars, and the
 * loop vectoriser widens each component across work-items into a scatter
 * to p + 16 * lane + 4 * c. CLBlast's Xgemm copies its tiles of A and B
 * into local memory as float4 and float2 this way; on AMD Zen 5 a scatter
 * of 8 lanes costs about as much as 8 scalar stores plus the address
 * arithmetic, and those copies took a third of the kernel's time.
 *
 * After combine-gathers this pass finds, in one block, F = 2, 4, 8 or 16
 * unmasked scatters of one element type through one vector of pointers P,
 * at byte offsets 0, E, ..., (F - 1) E, with nothing between the first and
 * the last that may read or write memory. At the last one it tests at run
 * time that P's lanes are F * E bytes apart (the test combine-gathers
 * uses); then the family covers exactly [P[0], P[0] + lanes * F * E):
 * log2(F) rounds of interleaving shuffles build its rows, stored as F
 * consecutive vectors. Otherwise the scatters run as before. The stores
 * write the same bytes as the scatters did, at the place of the last one:
 * no memory access lay between the family's members, so none is passed. */
#include "vectorize/vectorize.h"
#include <stdlib.h>

enum { MAX_FACTOR = 16 };

/* a scatter: its pointer vector as (base, constant byte offset) */
struct member {
  LLVMValueRef scatter, base;
  long long offset;
};

static bool as_member(LLVMValueRef in, struct member *m) {
  if (!loom_is_call_to_prefix(in, "llvm.masked.scatter.") ||
      !loom_all_ones_mask(LLVMGetOperand(in, 3)) || loom_family_is_apart(in, true))
    return false;
  if (!loom_family_element_bytes(LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(in, 0)))))
    return false;
  m->scatter = in;
  m->base = loom_family_split_offset(LLVMGetOperand(in, 1), &m->offset);
  return LLVMGetTypeKind(LLVMTypeOf(m->base)) == LLVMVectorTypeKind;
}

bool loom_family_touches_memory(LLVMValueRef in) {
  return loom_family_may_write(in) || LLVMIsALoadInst(in) || LLVMIsAVAArgInst(in) ||
         loom_is_call_to_prefix(in, "llvm.masked.gather.");
}

/* the interleaving shuffle of a and b's lower (hi = 0) or upper halves */
static LLVMValueRef zip_half(LLVMBuilderRef bld, LLVMValueRef a, LLVMValueRef b, unsigned n,
                             unsigned hi) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(a)));
  LLVMValueRef e[64];
  for (unsigned i = 0; i < n / 2; i++) {
    e[2 * i] = LLVMConstInt(i32, hi * n / 2 + i, 0);
    e[2 * i + 1] = LLVMConstInt(i32, n + hi * n / 2 + i, 0);
  }
  return LLVMBuildShuffleVector(bld, a, b, LLVMConstVector(e, n), hi ? "zip.hi" : "zip.lo");
}

/* rows[0..F) of the row-major stream whose columns are cols[0..F) (each N
 * lanes): the inverse of gather_groups.c's unzip. The stream's even
 * elements are its even columns' stream, its odd ones the odd columns'. */
void loom_family_zip(LLVMBuilderRef bld, LLVMValueRef *cols, unsigned f, unsigned n, LLVMValueRef *rows) {
  if (f == 1) {
    rows[0] = cols[0];
    return;
  }
  LLVMValueRef ec[MAX_FACTOR / 2], oc[MAX_FACTOR / 2], er[MAX_FACTOR / 2], or[MAX_FACTOR / 2];
  for (unsigned j = 0; j < f / 2; j++) {
    ec[j] = cols[2 * j];
    oc[j] = cols[2 * j + 1];
  }
  loom_family_zip(bld, ec, f / 2, n, er);
  loom_family_zip(bld, oc, f / 2, n, or);
  for (unsigned k = 0; k < f / 2; k++) {
    rows[2 * k] = zip_half(bld, er[k], or[k], n, 0);
    rows[2 * k + 1] = zip_half(bld, er[k], or[k], n, 1);
  }
}

/* Rewrites one family: s[c] scatters component c to P's lanes + c * E;
 * `last` is the family's last member in its block. */
static void rewrite(LLVMValueRef *s, unsigned f, LLVMValueRef base, LLVMValueRef last) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(base));
  LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(s[0], 0)), et = LLVMGetElementType(vt);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  unsigned n = LLVMGetVectorSize(vt), e = loom_family_element_bytes(et);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);

  /* head: the test; fast: shuffles and stores; slow: the scatters; join */
  struct loom_family_blocks blocks = loom_family_split(last, "scatters.whole", "scatters.apart");
  LLVMBasicBlockRef head = blocks.head, fast = blocks.fast, slow = blocks.slow, join = blocks.join;
  /* the members leave their places for the two paths */
  for (unsigned k = 0; k < f; k++)
    LLVMInstructionRemoveFromParent(s[k]);
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef p0 = NULL;
  LLVMValueRef whole = loom_family_contiguous_test(bld, base, n, (uint64_t)f * e, 0, &p0);
  loom_build_test_branch(bld, whole, fast, slow);

  LLVMPositionBuilderAtEnd(bld, fast);
  LLVMValueRef cols[MAX_FACTOR], rows[MAX_FACTOR];
  for (unsigned k = 0; k < f; k++)
    cols[k] = LLVMGetOperand(s[k], 0);
  loom_family_zip(bld, cols, f, n, rows);
  for (unsigned j = 0; j < f; j++) {
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)j * n * e, 0);
    LLVMValueRef st = LLVMBuildStore(bld, rows[j], LLVMBuildGEP2(bld, i8, p0, &off, 1, ""));
    LLVMSetAlignment(st, e);
    loom_copy_metadata(s[0], st); /* the scatters' alias scopes and type hold for the rows */
  }
  LLVMBuildBr(bld, join);

  LLVMPositionBuilderAtEnd(bld, slow);
  for (unsigned k = 0; k < f; k++) {
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)k * e, 0);
    LLVMValueRef ptr = LLVMGetOperand(s[k], 1);
    LLVMSetOperand(s[k], 1, k ? LLVMBuildGEP2(bld, i8, base, &off, 1, "") : base);
    LLVMInsertIntoBuilder(bld, s[k]);
    loom_family_mark_apart(s[k], true);
    if (ptr != base && LLVMIsAGetElementPtrInst(ptr) && !LLVMGetFirstUse(ptr))
      LLVMInstructionEraseFromParent(ptr);
  }
  LLVMBuildBr(bld, join);
  loom_family_sink_into_slow(bld, base, head, slow, 0);
  LLVMDisposeBuilder(bld);
}

/* one family found in bb and rewritten: true (bb has changed; look again) */
static bool rewrite_one(LLVMBasicBlockRef bb) {
  struct member m[64];
  unsigned nm = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && nm < 64; in = LLVMGetNextInstruction(in))
    if (as_member(in, &m[nm]))
      nm++;
  for (unsigned a = 0; a < nm; a++) {
    if (m[a].offset != 0)
      continue;
    LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(m[a].scatter, 0));
    unsigned e = loom_family_element_bytes(LLVMGetElementType(vt));
    LLVMValueRef s[MAX_FACTOR] = {0};
    unsigned have = 0;
    for (unsigned b = 0; b < nm; b++) {
      if (m[b].base != m[a].base || LLVMTypeOf(LLVMGetOperand(m[b].scatter, 0)) != vt ||
          m[b].offset < 0 || m[b].offset % e || m[b].offset / e >= MAX_FACTOR || s[m[b].offset / e])
        continue;
      s[m[b].offset / e] = m[b].scatter;
      have++;
    }
    unsigned f = 1;
    while (f < MAX_FACTOR && s[f])
      f++;
    if (f < 2 || (f & (f - 1)) || f != have || LLVMGetVectorSize(vt) > 64 || LLVMGetVectorSize(vt) < 2)
      continue;
    /* nothing between the family's first and last member may touch memory */
    unsigned seen = 0;
    bool ok = true;
    LLVMValueRef last = NULL;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && seen < f && ok; in = LLVMGetNextInstruction(in)) {
      bool member = false;
      for (unsigned k = 0; k < f; k++)
        member |= s[k] == in;
      if (member)
        seen++, last = in;
      else if (seen && loom_family_touches_memory(in))
        ok = false;
    }
    if (!ok)
      continue;
    rewrite(s, f, m[a].base, last);
    return true;
  }
  return false;
}

bool loom_combine_component_scatters(LLVMModuleRef m) {
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      changed |= rewrite_one(bb); /* the rest of bb moved to a block that comes up later */
  return changed;
}
