/* Rows of work-items side by side (pass jam-rows, after O3).
 *
 * A group narrower than a register (CLBlast's Xgemm runs 8 x 16 work-items;
 * 8 floats are half an AVX-512 register) leaves, after VPlan's outer-loop
 * vectorisation, the y work-item loop around one vector of work-items, and
 * each y iteration runs the inner loop again: what does not depend on y is
 * loaded and reshuffled once per row (Xgemm: the 8 float4 of A that a row
 * of work-items shares, read from __local memory and transposed for every
 * k, against 8 FMAs). Work-items between two barriers are independent, so
 * the y loop may run J rows at once: the inner loop carries J copies of the
 * values that depend on the row and computes the others once (they are
 * not copied). This is unroll-and-jam, done here because LLVM's
 * refuses loops with gathers and scatters (not simple loads and stores)
 * and cannot know that the rows are independent; wg-function marks the y
 * loops of outer-vectorised regions (loom_rows_loop_id).
 *
 * The shapes it takes, those VPlan leaves when x needs one vector:
 *   pre -> H (the y header: slot loads) -> S (the inner loop, one block
 *   looping on itself) -> E (slot stores, the y latch) -> H or out;
 *   or one block looping on itself (the inner loop fully unrolled: CLBlast's
 *   XgemmDirect, 16 k of 2 x 2 FMAs and 2 gathers of A per row),
 * y counted from 0 by 1 to a constant trip count (a specialised or
 * reqd_work_group_size kernel) that J divides. J: 2 or 4 around S, with
 * S's loop-carried vectors for all rows within 24 registers (12 with AVX2);
 * up to 8 where the y loop is one block (nothing carried in registers),
 * and only where the row-invariant part of S (of the block) is at least a
 * quarter of its instructions. Each copy of an instruction goes right after
 * it, so that the rows use a shared value close together. Where a row's
 * vectors are at most half a register, two rows may share one instead
 * (jam_build.c), when that runs less vector work per row than copies: the
 * choice is here, the rewrite there. Not where anything in the loop
 * touches private memory (one object for every row), calls a function, or
 * is atomic or volatile. */
#include "vectorize/jam_rows.h"
#include "vectorize/vectorize.h"
#include "workgroup/workgroup.h"
#include <assert.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_MD "loom.rows"

LLVMValueRef loom_rows_loop_id(LLVMContextRef c) {
  /* LLVM's unroller would copy the inner loop per row instead: not unrolled */
  static const char ir[] = "!loom.md = !{!0}\n!0 = distinct !{!0, !1, !2}\n!1 = !{!\"" ROWS_MD
                           "\"}\n!2 = !{!\"llvm.loop.unroll.disable\"}\n";
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, sizeof ir - 1, "loom-rows");
  LLVMModuleRef m = NULL;
  char *err = NULL;
  if (LLVMParseIRInContext(c, buf, &m, &err)) { /* consumes buf */
    LLVMDisposeMessage(err);
    return NULL;
  }
  LLVMValueRef id = NULL;
  if (LLVMGetNamedMetadataNumOperands(m, "loom.md") == 1)
    LLVMGetNamedMetadataOperands(m, "loom.md", &id);
  LLVMDisposeModule(m); /* the nodes belong to the context and stay */
  return id;
}

/* does terminator t carry a loop ID marked as a y work-item loop? */
static bool is_rows_latch(LLVMValueRef t, unsigned loop_kind) {
  LLVMValueRef id = LLVMGetMetadata(t, loop_kind);
  if (!id || !LLVMIsAMDNode(id))
    return false;
  unsigned n = LLVMGetMDNodeNumOperands(id);
  if (n < 2 || n > 16)
    return false;
  LLVMValueRef ops[16];
  LLVMGetMDNodeOperands(id, ops);
  for (unsigned i = 1; i < n; i++) {
    if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) != 1)
      continue;
    LLVMValueRef s;
    LLVMGetMDNodeOperands(ops[i], &s);
    unsigned len = 0;
    const char *str = s ? LLVMGetMDString(s, &len) : NULL;
    if (str && len == sizeof ROWS_MD - 1 && !memcmp(str, ROWS_MD, len))
      return true;
  }
  return false;
}

static unsigned count_preds(LLVMBasicBlockRef bb, LLVMBasicBlockRef *only) {
  unsigned n = 0;
  LLVMValueRef f = LLVMGetBasicBlockParent(bb);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned k = 0; k < ns; k++)
      if (LLVMGetSuccessor(t, k) == bb) {
        if (n++ == 0 && only)
          *only = b;
        break;
      }
  }
  return n;
}

bool loom_rows_const_int(LLVMValueRef v, long long *k) {
  if (!v || !LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
    return false;
  *k = LLVMConstIntGetSExtValue(v);
  return true;
}

/* the y header's inductions and the latch test (r->body already set) */
static bool match_header(struct loom_rows *r, LLVMBasicBlockRef head, LLVMBasicBlockRef tail,
                         LLVMValueRef cmp, bool stay_on_true) {
  /* the header: entered from one block outside and from the tail */
  for (LLVMValueRef p = LLVMGetFirstInstruction(head); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
    if (LLVMCountIncoming(p) != 2 || r->nphi == LOOM_ROWS_MAX_AFFINE)
      return false;
    unsigned back = LLVMGetIncomingBlock(p, 0) == tail ? 0 : 1;
    if (LLVMGetIncomingBlock(p, back) != tail)
      return false;
    LLVMValueRef add = LLVMGetIncomingValue(p, back);
    long long step;
    if (!LLVMIsAInstruction(add) || LLVMGetInstructionOpcode(add) != LLVMAdd ||
        LLVMGetInstructionParent(add) != tail || LLVMGetOperand(add, 0) != p ||
        !loom_rows_const_int(LLVMGetOperand(add, 1), &step))
      return false;
    r->phi[r->nphi] = p;
    r->step_add[r->nphi] = add;
    r->step[r->nphi++] = step;
    long long init;
    if (step == 1 && loom_rows_const_int(LLVMGetIncomingValue(p, 1 - back), &init) && init == 0 && !r->iv)
      r->iv = p;
  }
  if (!r->iv || count_preds(head, NULL) != 2)
    return false;
  /* the latch test: `y + 1` against the trip count, leaving to the exit */
  LLVMValueRef next = NULL;
  for (unsigned i = 0; i < r->nphi; i++)
    if (r->phi[i] == r->iv)
      next = r->step_add[i];
  long long trips;
  if (!LLVMIsAICmpInst(cmp) || LLVMGetOperand(cmp, 0) != next ||
      !loom_rows_const_int(LLVMGetOperand(cmp, 1), &trips) || trips < 2)
    return false;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  if (!((pred == LLVMIntEQ && !stay_on_true) || (pred == LLVMIntNE && stay_on_true) ||
        (pred == LLVMIntULT && stay_on_true)))
    return false;
  r->head = head;
  r->tail = tail;
  r->latch_cmp = cmp;
  r->trips = (unsigned long long)trips;
  return true;
}

/* the blocks of the y loop whose latch is `tail`, if it has the shape */
static bool match_rows(LLVMBasicBlockRef tail, struct loom_rows *r) {
  memset(r, 0, sizeof *r);
  LLVMValueRef br = LLVMGetBasicBlockTerminator(tail);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return false;
  LLVMValueRef cmp = LLVMGetCondition(br);
  LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
  LLVMBasicBlockRef body = NULL, head = NULL;
  if (s0 == tail || s1 == tail) /* no inner loop left (unrolled): one block */
    return match_header(r, tail, tail, cmp, s0 == tail);
  /* the tail has one predecessor, the inner loop, which the header enters */
  if (count_preds(tail, &body) != 1 || body == tail)
    return false;
  LLVMValueRef bt = LLVMGetBasicBlockTerminator(body);
  if (!LLVMIsABranchInst(bt) || !LLVMIsConditional(bt) || count_preds(body, NULL) != 2)
    return false;
  bool self0 = LLVMGetSuccessor(bt, 0) == body, self1 = LLVMGetSuccessor(bt, 1) == body;
  if (self0 == self1 || LLVMGetSuccessor(bt, self0 ? 1 : 0) != tail)
    return false;
  for (LLVMValueRef p = LLVMGetFirstInstruction(body); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
    if (LLVMCountIncoming(p) != 2)
      return false;
    LLVMBasicBlockRef a = LLVMGetIncomingBlock(p, 0), b = LLVMGetIncomingBlock(p, 1);
    LLVMBasicBlockRef other = a == body ? b : a;
    if (a != body && b != body)
      return false;
    if (head && other != head)
      return false;
    head = other;
  }
  if (!head || head == tail) {
    return false;
  }
  LLVMValueRef ht = LLVMGetBasicBlockTerminator(head);
  if (!LLVMIsABranchInst(ht) || LLVMIsConditional(ht) || LLVMGetSuccessor(ht, 0) != body)
    return false;
  if ((s0 == head) == (s1 == head))
    return false;
  r->body = body;
  return match_header(r, head, tail, cmp, s0 == head);
}

/* the loop's distinct blocks in order: header, inner loop, tail */
static unsigned rows_blocks(const struct loom_rows *r, LLVMBasicBlockRef out[3]) {
  unsigned n = 0;
  out[n++] = r->head;
  if (r->body)
    out[n++] = r->body;
  if (r->tail != r->head)
    out[n++] = r->tail;
  return n;
}

static bool in_rows(const struct loom_rows *r, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return false;
  LLVMBasicBlockRef b = LLVMGetInstructionParent(v);
  return b == r->head || b == r->body || b == r->tail;
}

/* may pointer (or vector of pointers) p reach a private object? */
static bool maybe_private(LLVMValueRef p, int *budget) {
  if (--*budget < 0)
    return true;
  if (LLVMIsAAllocaInst(p))
    return true;
  if (LLVMIsAArgument(p) || LLVMIsAGlobalValue(p) || LLVMIsAConstant(p))
    return false;
  if (!LLVMIsAInstruction(p))
    return true;
  if (LLVMIsACallInst(p) || LLVMIsALoadInst(p) || LLVMIsAIntToPtrInst(p))
    return false; /* a pointer from memory or a builtin: a buffer, never a private variable's address */
  unsigned n;
  if (LLVMIsAGetElementPtrInst(p) || LLVMIsACastInst(p))
    n = 1;
  else if (LLVMIsAPHINode(p) || LLVMIsASelectInst(p) || LLVMIsAShuffleVectorInst(p) ||
           LLVMIsAInsertElementInst(p) || LLVMIsAExtractElementInst(p))
    n = (unsigned)LLVMGetNumOperands(p);
  else
    return true;
  for (unsigned i = LLVMIsASelectInst(p) ? 1 : 0; i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(p, i);
    if (LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMPointerTypeKind ||
        (LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMVectorTypeKind &&
         LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(op))) == LLVMPointerTypeKind))
      if (maybe_private(op, budget))
        return true;
  }
  return false;
}

/* May the rows run side by side? Nothing that one object serves for every
 * row (private memory), no calls but intrinsics, nothing atomic or
 * volatile; no value of the loop used after it. */
static bool rows_independent(const struct loom_rows *r) {
  LLVMBasicBlockRef blocks[3];
  unsigned nb = rows_blocks(r, blocks);
  for (unsigned b = 0; b < nb; b++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[b]); in; in = LLVMGetNextInstruction(in)) {
      for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u))
        if (!in_rows(r, LLVMGetUser(u)))
          return false;
      if (LLVMIsAFenceInst(in) || LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in) ||
          LLVMIsAAllocaInst(in))
        return false;
      LLVMValueRef ptr = NULL;
      if (LLVMIsALoadInst(in) || LLVMIsAStoreInst(in)) {
        if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
          return false;
        ptr = LLVMGetOperand(in, LLVMIsAStoreInst(in) ? 1 : 0);
      } else if (LLVMIsACallInst(in)) {
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
          return false;
        /* every pointer argument (gathers, scatters, masked loads and stores) */
        unsigned na = (unsigned)LLVMGetNumArgOperands(in);
        for (unsigned k = 0; k < na; k++) {
          LLVMValueRef a = LLVMGetOperand(in, k);
          LLVMTypeRef t = LLVMTypeOf(a);
          if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
            t = LLVMGetElementType(t);
          int budget = 64;
          if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && maybe_private(a, &budget))
            return false;
        }
      }
      int budget = 64;
      if (ptr && maybe_private(ptr, &budget))
        return false;
    }
  return true;
}

static bool reads_memory(LLVMValueRef in) {
  return LLVMIsALoadInst(in) || loom_is_call_to_prefix(in, "llvm.masked.gather.") ||
         loom_is_call_to_prefix(in, "llvm.masked.load.");
}

unsigned loom_rows_inst_cost(LLVMValueRef in) {
  if (loom_is_call_to_prefix(in, "llvm.masked.gather.") ||
      loom_is_call_to_prefix(in, "llvm.masked.scatter."))
    return 4;
  return 1;
}

/* registers a vector value takes (simd_bytes each) */
static unsigned regs_of(LLVMTypeRef t, unsigned simd_bytes) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  unsigned eb = loom_family_element_bytes(LLVMGetElementType(t));
  unsigned bytes = (eb ? eb : 8) * LLVMGetVectorSize(t);
  return (bytes + simd_bytes - 1) / simd_bytes;
}

/* Which instructions differ from row to row: the header's inductions and
 * everything computed from them (the inner loop's phis from their own
 * iterations too), every write to memory, and every read that may see its
 * own row's write (one after a write in the loop's order: header, inner
 * loop, tail; any in an inner loop that writes). The others are computed
 * once for all rows: a read the same for every row that another row's
 * write changed would be a race between work-items. */
static void find_varying(const struct loom_rows *r, struct loom_ptrmap *varying) {
  LLVMBasicBlockRef blocks[3];
  unsigned nb = rows_blocks(r, blocks);
  bool body_writes = false;
  for (LLVMValueRef in = r->body ? LLVMGetFirstInstruction(r->body) : NULL; in; in = LLVMGetNextInstruction(in))
    body_writes |= loom_family_may_write(in);
  for (unsigned i = 0; i < r->nphi; i++)
    loom_ptrmap_put(varying, r->phi[i], 1);
  for (bool changed = true; changed;) {
    changed = false;
    bool written = false;
    for (unsigned b = 0; b < nb; b++) {
      written |= blocks[b] == r->body && body_writes;
      for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[b]); in; in = LLVMGetNextInstruction(in)) {
        size_t dummy;
        bool w = loom_family_may_write(in);
        if (LLVMIsATerminatorInst(in) || loom_ptrmap_get(varying, in, &dummy)) {
          written |= w;
          continue;
        }
        bool v = w || (written && reads_memory(in));
        written |= w;
        unsigned n = (unsigned)LLVMGetNumOperands(in);
        for (unsigned k = 0; k < n && !v; k++)
          v = loom_ptrmap_get(varying, LLVMGetOperand(in, k), &dummy);
        if (v) {
          loom_ptrmap_put(varying, in, 1);
          changed = true;
        }
      }
    }
  }
}

bool loom_rows_counting(const struct loom_rows *r, LLVMValueRef in) {
  if (in == r->latch_cmp)
    return true;
  for (unsigned i = 0; i < r->nphi; i++)
    if (in == r->step_add[i])
      return true;
  return false;
}

/* The vector work of an instruction, what packing two rows into one
 * register halves: a vector value (a load, arithmetic, a shuffle), a vector
 * store, a gather or scatter (4); scalar work (addresses, the loop's
 * counting) and the insertion of a scalar that starts a broadcast take none */
static unsigned vector_cost(LLVMValueRef in) {
  if (loom_is_call_to_prefix(in, "llvm.masked.gather.") ||
      loom_is_call_to_prefix(in, "llvm.masked.scatter."))
    return 4;
  if (LLVMIsAInsertElementInst(in) && LLVMIsAUndefValue(LLVMGetOperand(in, 0)))
    return 0;
  LLVMTypeRef t = LLVMTypeOf(LLVMIsAStoreInst(in) ? LLVMGetOperand(in, 0) : in);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
                 LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMPointerTypeKind
             ? 1
             : 0;
}

/* What the loop runs, measured on the inner loop (or on the whole row where
 * the y loop is innermost): `inv` the row-invariant instructions, `var` the
 * rest (one row's), weighted by inst_cost; `vinv` and `vvar` their vector
 * work (vector_cost); `regs` the registers the inner loop's row-varying
 * phis take per row. */
struct rows_cost {
  unsigned inv, var, vinv, vvar, regs;
};

/* Where the y loop is one block: the half registers its row-varying vector
 * loads take per row (a row's accumulators, read from their slots): a
 * vector of half a register counts 1 (pair-chains may put two in one),
 * of a whole one 2. */
static unsigned block_half_regs(const struct loom_rows *r, const struct loom_ptrmap *varying,
                                unsigned simd_bytes) {
  unsigned n = 0;
  size_t dummy;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->head); in; in = LLVMGetNextInstruction(in))
    if (LLVMIsALoadInst(in) && loom_ptrmap_get(varying, in, &dummy))
      n += regs_of(LLVMTypeOf(in), simd_bytes / 2);
  return n;
}

static struct rows_cost measure(const struct loom_rows *r, const struct loom_ptrmap *varying,
                                unsigned simd_bytes) {
  LLVMBasicBlockRef work = r->body ? r->body : r->head;
  struct rows_cost k = {0};
  size_t dummy;
  for (LLVMValueRef in = LLVMGetFirstInstruction(work); in; in = LLVMGetNextInstruction(in)) {
    bool v = loom_ptrmap_get(varying, in, &dummy);
    if (LLVMIsAPHINode(in)) {
      if (v && r->body)
        k.regs += regs_of(LLVMTypeOf(in), simd_bytes);
      continue;
    }
    if (LLVMIsATerminatorInst(in) || loom_rows_counting(r, in))
      continue;
    if (v) {
      k.var += loom_rows_inst_cost(in);
      k.vvar += vector_cost(in);
    } else {
      k.inv += loom_rows_inst_cost(in);
      k.vinv += vector_cost(in);
    }
  }
  return k;
}

/* the largest jam (a multiple of `unit`, at most LOOM_MAX_JAM_LOOP around
 * an inner loop, LOOM_MAX_JAM where the y loop is one block) the trip
 * count divides whose regs_per_unit * jam / unit registers stay within the
 * budget; 0 if none */
static unsigned fit_jam(const struct loom_rows *r, unsigned unit, unsigned regs_per_unit,
                        unsigned simd_bytes) {
  unsigned budget = simd_bytes >= 64 ? 24 : 12, best = 0;
  unsigned most = r->body ? LOOM_MAX_JAM_LOOP : LOOM_MAX_JAM;
  for (unsigned jam = 2; jam <= most; jam *= 2)
    if (jam % unit == 0 && r->trips % jam == 0 && jam / unit * regs_per_unit <= budget)
      best = jam;
  return best;
}

/* fit_jam for the one-block shape: beyond 4 rows only while the rows'
 * vector loads fit the budget (XgemmDirectTN's 4 accumulators a row: 8
 * rows of <8 x float> take 16 registers once paired; of <8 x double>, 32:
 * DGEMM 1024 30 -> 23 GFLOP/s with 8 rows) */
static unsigned fit_block_jam(const struct loom_rows *r, const struct loom_ptrmap *varying,
                              unsigned simd_bytes) {
  unsigned best = fit_jam(r, 1, 0, simd_bytes);
  unsigned half = block_half_regs(r, varying, simd_bytes), budget = simd_bytes >= 64 ? 24 : 12;
  while (best > LOOM_MAX_JAM_LOOP && best * half > 2 * budget)
    best /= 2;
  return best;
}

/* a value counted once: false if seen before */
static bool first_sight(struct loom_ptrmap *seen, LLVMValueRef v) {
  size_t dummy;
  if (loom_ptrmap_get(seen, v, &dummy))
    return false;
  loom_ptrmap_put(seen, v, 1);
  return true;
}

/* Two rows in one register (jam_build.c): the inner loop's packable
 * row-varying instructions into `packed`, and the vector work per row that
 * packing with the returned jam would run, times 16 (0: not possible).
 * Duplicating a row-invariant operand costs one instruction per J rows
 * (none for a load or a gather), joining two rows' value one per pair,
 * splitting one per row; those of values from before the inner loop are not
 * counted (the header's end). */
static unsigned plan_packing(const struct loom_rows *r, const struct loom_ptrmap *varying,
                             unsigned simd_bytes, struct rows_cost k, struct loom_ptrmap *packed,
                             unsigned *jam) {
  size_t dummy;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in))
    if (loom_ptrmap_get(varying, in, &dummy) && !loom_rows_counting(r, in) &&
        !LLVMIsATerminatorInst(in) && loom_rows_packable(in, simd_bytes))
      loom_ptrmap_put(packed, in, 1);
  /* wide: the packed instructions' work per pair; moved: theirs per row */
  unsigned wide = 0, moved = 0, dups = 0, joins = 0, splits = 0, regs = 0;
  struct loom_ptrmap seen = {0}, seen_split = {0};
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in)) {
    bool is_packed = loom_ptrmap_get(packed, in, &dummy), phi = LLVMIsAPHINode(in);
    if (!loom_ptrmap_get(varying, in, &dummy) || loom_rows_counting(r, in))
      continue;
    if (phi)
      regs += is_packed ? regs_of(LLVMTypeOf(in), simd_bytes / 2) : 2 * regs_of(LLVMTypeOf(in), simd_bytes);
    else if (is_packed) {
      wide += vector_cost(in);
      moved += vector_cost(in);
    }
    unsigned n = (unsigned)LLVMGetNumOperands(in);
    if (is_packed && LLVMIsAShuffleVectorInst(in) && !loom_ptrmap_get(packed, LLVMGetOperand(in, 0), &dummy) &&
        !loom_ptrmap_get(packed, LLVMGetOperand(in, 1), &dummy)) {
      wide += 2; /* each row's shuffle (a broadcast), then one join */
      continue;
    }
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef op = LLVMGetOperand(in, i);
      bool op_packed = loom_ptrmap_get(packed, op, &dummy);
      if (!is_packed) {
        splits += op_packed && first_sight(&seen_split, op);
        continue;
      }
      if (op_packed || LLVMGetTypeKind(LLVMTypeOf(op)) != LLVMVectorTypeKind ||
          !LLVMIsAInstruction(op) || LLVMGetInstructionParent(op) != r->body || !first_sight(&seen, op))
        continue;
      if (loom_ptrmap_get(varying, op, &dummy))
        joins++;
      else /* a load's copy is a broadcast from memory; a gather's goes into the
              permutation combine-gathers makes of it (gather_groups.c) */
        dups += !LLVMIsALoadInst(op) && !loom_is_call_to_prefix(op, "llvm.masked.gather.");
    }
  }
  loom_ptrmap_free(&seen);
  loom_ptrmap_free(&seen_split);
  *jam = wide ? fit_jam(r, 2, regs, simd_bytes) : 0;
  if (!*jam)
    return 0;
  unsigned per_j = 16 * (k.vinv + dups + *jam / 2 * (wide + joins) + *jam * (k.vvar - moved + splits));
  return per_j / *jam;
}

/* The number of rows to run together (1: not worth it) and whether two
 * rows share a register (*packed not empty), whichever runs less vector
 * work per row: copies need the row-invariant part to be at least a quarter
 * of the loop. */
static unsigned choose_jam(const struct loom_rows *r, const struct loom_ptrmap *varying,
                           unsigned simd_bytes, struct loom_ptrmap *packed) {
  struct rows_cost k = measure(r, varying, simd_bytes);
  size_t dummy;
  /* an inner loop must run as often for every row: its test the same in all */
  if (r->body &&
      (loom_ptrmap_get(varying, LLVMGetCondition(LLVMGetBasicBlockTerminator(r->body)), &dummy) ||
       k.regs == 0))
    return 1;
  unsigned total = k.inv + k.var;
  if (total == 0)
    return 1;
  unsigned copies = 4 * k.inv < total  ? 0
                    : r->body          ? fit_jam(r, 1, k.regs, simd_bytes)
                                       : fit_block_jam(r, varying, simd_bytes);
  unsigned per_row_copies = 16 * k.vinv / (copies ? copies : 1) + 16 * k.vvar;
  unsigned packs = 0, per_row_packed = r->body
                                            ? plan_packing(r, varying, simd_bytes, k, packed, &packs)
                                            : 0;
  if (packs && per_row_packed < per_row_copies)
    return packs;
  loom_ptrmap_free(packed);
  *packed = (struct loom_ptrmap){0};
  return copies ? copies : 1;
}

/* An inner loop's values used after it: single-entry phis of the tail
 * (LCSSA), replaced by the values, so that a packed value leaving the loop
 * is split in the tail rather than in every iteration */
static bool fold_tail_phis(const struct loom_rows *r) {
  if (!r->body)
    return false;
  bool changed = false;
  for (LLVMValueRef p = LLVMGetFirstInstruction(r->tail), next; p && LLVMIsAPHINode(p); p = next) {
    next = LLVMGetNextInstruction(p);
    if (LLVMCountIncoming(p) != 1)
      continue;
    LLVMReplaceAllUsesWith(p, LLVMGetIncomingValue(p, 0));
    LLVMInstructionEraseFromParent(p);
    changed = true;
  }
  return changed;
}

/* Rows jammed by the whole trip count run the loop once: its inductions
 * become their start values and the latch leaves. Left a loop, each row's
 * index arithmetic stays in registers across the unrolled inner code
 * (XgemmDirectTN on 8 x 8 groups: the 16 sign-extended offsets of B's
 * row values, about 250 reloads from the stack a tile); with constant
 * rows the addresses are constant offsets (instsimplify in the pipeline's
 * jam-rows step folds them). */
static void run_once(const struct loom_rows *r) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(r->tail);
  LLVMBasicBlockRef out = LLVMGetSuccessor(br, 0) == r->head ? LLVMGetSuccessor(br, 1) : LLVMGetSuccessor(br, 0);
  assert(out != r->head);
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(r->iv)));
  LLVMPositionBuilderBefore(bld, br);
  LLVMBuildBr(bld, out);
  LLVMDisposeBuilder(bld);
  LLVMInstructionEraseFromParent(br);
  if (!LLVMGetFirstUse(r->latch_cmp))
    LLVMInstructionEraseFromParent(r->latch_cmp);
  for (unsigned i = 0; i < r->nphi; i++) {
    LLVMValueRef p = r->phi[i];
    LLVMValueRef init = LLVMGetIncomingValue(p, LLVMGetIncomingBlock(p, 0) == r->tail ? 1 : 0);
    LLVMReplaceAllUsesWith(p, init);
    LLVMInstructionEraseFromParent(p);
  }
  for (unsigned i = 0; i < r->nphi; i++)
    if (!LLVMGetFirstUse(r->step_add[i]))
      LLVMInstructionEraseFromParent(r->step_add[i]);
}

/* LLVM's loop-simplify gives a header one latch: where a region's y loop
 * is entered again from another region's end (wg_function.c branches
 * there directly, and a loop over the regions then shares the header), the
 * y loop's latch T and that other entry both go through one block BE of
 * phis that branches to the header H, and the y loop no longer has the
 * shape jam-rows takes (tests/ir/jam-rows/merged-latch.ll). Undone here:
 * T branches to H itself, and the other entries reach H through a new
 * preheader NP that also takes H's entry from before the loop. T is the
 * predecessor of BE that gives the y counter `y + 1`; BE's loop ID goes to
 * T's branch. Returns T's block, or NULL where BE is not of that form. */
static LLVMBasicBlockRef split_merged_latch(LLVMBasicBlockRef be, unsigned loop_kind) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(be);
  if (!br || !LLVMIsABranchInst(br) || LLVMIsConditional(br) || count_preds(be, NULL) < 2)
    return NULL;
  LLVMBasicBlockRef h = LLVMGetSuccessor(br, 0);
  if (h == be || count_preds(h, NULL) != 2)
    return NULL;
  LLVMValueRef first = LLVMGetFirstInstruction(be);
  for (LLVMValueRef in = first; in != br; in = LLVMGetNextInstruction(in))
    if (!LLVMIsAPHINode(in))
      return NULL;
  /* H's phis: one incoming from BE (a phi of BE), one from outside */
  LLVMBasicBlockRef t = NULL, pre = NULL;
  for (LLVMValueRef p = LLVMGetFirstInstruction(h); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
    if (LLVMCountIncoming(p) != 2)
      return NULL;
    unsigned back = LLVMGetIncomingBlock(p, 0) == be ? 0 : 1;
    LLVMValueRef q = LLVMGetIncomingValue(p, back);
    if (LLVMGetIncomingBlock(p, back) != be || !LLVMIsAPHINode(q) || LLVMGetInstructionParent(q) != be)
      return NULL;
    pre = LLVMGetIncomingBlock(p, 1 - back);
    for (unsigned k = 0; k < LLVMCountIncoming(q) && !t; k++) {
      LLVMValueRef v = LLVMGetIncomingValue(q, k);
      if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAdd && LLVMGetOperand(v, 0) == p &&
          LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) == 1)
        t = LLVMGetIncomingBlock(q, k);
    }
  }
  if (!t || !pre || t == be)
    return NULL;
  LLVMValueRef tbr = LLVMGetBasicBlockTerminator(t);
  if (!LLVMIsABranchInst(tbr) || !LLVMIsConditional(tbr) ||
      (LLVMGetSuccessor(tbr, 0) == be) == (LLVMGetSuccessor(tbr, 1) == be))
    return NULL;
  /* every phi of BE feeds H (nothing else reads them) */
  for (LLVMValueRef q = first; q != br; q = LLVMGetNextInstruction(q))
    for (LLVMUseRef u = LLVMGetFirstUse(q); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != h)
        return NULL;
    }
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(br));
  LLVMBasicBlockRef np = LLVMInsertBasicBlockInContext(c, h, "rows.pre");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, np);
  /* H's phis become NP's (from pre and BE); H's then take NP's and T's */
  for (LLVMValueRef p = LLVMGetFirstInstruction(h), next; p && LLVMIsAPHINode(p); p = next) {
    next = LLVMGetNextInstruction(p);
    unsigned back = LLVMGetIncomingBlock(p, 0) == be ? 0 : 1;
    LLVMValueRef q = LLVMGetIncomingValue(p, back), init = LLVMGetIncomingValue(p, 1 - back);
    LLVMValueRef from_t = NULL, other = NULL;
    bool same = true;
    for (unsigned k = 0; k < LLVMCountIncoming(q); k++) {
      if (LLVMGetIncomingBlock(q, k) == t) {
        from_t = LLVMGetIncomingValue(q, k);
        continue;
      }
      other = LLVMGetIncomingValue(q, k);
      same &= other == init;
    }
    assert(from_t && other);
    LLVMValueRef entry_val = init;
    if (!same) { /* NP's: from pre, and from BE (its other entries) */
      entry_val = LLVMBuildPhi(b, LLVMTypeOf(p), "");
      LLVMValueRef two_vals[2] = {init, q};
      LLVMBasicBlockRef two_bbs[2] = {pre, be};
      LLVMAddIncoming(entry_val, two_vals, two_bbs, 2);
    }
    LLVMValueRef np_vals[2] = {entry_val, from_t};
    LLVMBasicBlockRef np_bbs[2] = {np, t};
    LLVMPositionBuilderBefore(b, p);
    LLVMValueRef hp = LLVMBuildPhi(b, LLVMTypeOf(p), "");
    LLVMAddIncoming(hp, np_vals, np_bbs, 2);
    loom_replace_instruction(p, hp);
    LLVMPositionBuilderAtEnd(b, np);
  }
  LLVMBuildBr(b, h);
  LLVMDisposeBuilder(b);
  /* pre enters NP; BE's phis drop T and BE goes to NP; T goes to H */
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(pre);
  for (unsigned k = 0; k < LLVMGetNumSuccessors(pt); k++)
    if (LLVMGetSuccessor(pt, k) == h)
      LLVMSetSuccessor(pt, k, np);
  loom_phi_replace_block(be, t, NULL);
  LLVMSetSuccessor(br, 0, np);
  for (unsigned k = 0; k < 2; k++)
    if (LLVMGetSuccessor(tbr, k) == be)
      LLVMSetSuccessor(tbr, k, h);
  LLVMSetMetadata(tbr, loop_kind, LLVMGetMetadata(br, loop_kind));
  LLVMSetMetadata(br, loop_kind, NULL);
  return t;
}

bool loom_jam_rows(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  unsigned loop_kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!loom_is_wg_function(f) || LLVMIsDeclaration(f))
      continue;
    unsigned simd_bytes = loom_preferred_vector_bits(f) / 8;
    if (simd_bytes < 16)
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      if (t && LLVMIsABranchInst(t) && !LLVMIsConditional(t) && is_rows_latch(t, loop_kind))
        changed |= split_merged_latch(bb, loop_kind) != NULL;
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      struct loom_rows r;
      if (!t || !is_rows_latch(t, loop_kind) || !match_rows(bb, &r) || !rows_independent(&r))
        continue;
      changed |= fold_tail_phis(&r);
      struct loom_ptrmap varying = {0}, packed = {0};
      find_varying(&r, &varying);
      unsigned jam = choose_jam(&r, &varying, simd_bytes, &packed);
      if (jam < r.trips && loom_rows_table(&r, &varying)) {
        /* the inner loop changed: its rows weighed again (the header's
         * phis were rebuilt for their new predecessor) */
        loom_ptrmap_free(&packed);
        loom_ptrmap_free(&varying);
        varying = (struct loom_ptrmap){0};
        packed = (struct loom_ptrmap){0};
        changed = true;
        if (!match_rows(bb, &r))
          continue;
        find_varying(&r, &varying);
        jam = choose_jam(&r, &varying, simd_bytes, &packed);
      }
      if (jam > 1) {
        loom_rows_rewrite(&r, &varying, &packed, jam);
        if (jam == r.trips)
          run_once(&r);
        changed = true;
      }
      loom_ptrmap_free(&packed);
      loom_ptrmap_free(&varying);
    }
  }
  return changed;
}
