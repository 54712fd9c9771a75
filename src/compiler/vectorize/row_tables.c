/* Row tables (part of the pass jam-rows): the row-invariant reads of an
 * inner loop computed once per group instead of once per row.
 *
 * jam-rows runs J rows of a y work-item loop together, and what the inner
 * loop computes the same for every row is computed once per J rows. J is
 * bounded by the registers the rows' accumulators take: CLBlast's
 * XgemmDirectTN with its Intel CPU parameters (4 x 4 results a work-item,
 * 8 x 8 groups) keeps 16 <8 x float> accumulators a row, so two rows (one
 * pair in 16 zmm registers) and the group's 8 rows in 4 iterations, each
 * gathering the same transposed columns of the tile of A again: 8 gathers
 * of 8 lanes for 32 FMAs, about half the kernel's time.
 *
 * When the y loop still iterates after the jam, the inner loop S is counted
 * (constant start, step and end: T trips) and its row-invariant slice reads
 * memory, a loop before the y loop runs that slice T times and stores each
 * value the row-varying code uses into a table (an alloca of T values);
 * S loads it from there instead. Hoisting the reads above every row is
 * what jam-rows already relies on: a read the same for every row that
 * another row's write changed would be a race between work-items, and a
 * read after its own row's write is row-varying (find_varying). The table
 * loop runs exactly when the first row would, as often, reading the same
 * addresses. The jam then sees loads the same for every row: where it
 * puts two rows in one register, the duplicate of a loaded column is a
 * broadcast from memory.
 *
 * A trip of the table loop computes up to 8 trips of S (their number
 * dividing T) when the slice gathers: the 4 x 2 gathers a trip of
 * XgemmDirectTN's inner loop (two k) each take one element of 8 lanes'
 * rows of A; 4 trips in one give gather-rows 8 consecutive elements of
 * each row, which it loads as rows and transposes (128 gathers a tile
 * before, a quarter of the kernel's time on AMD Zen 4). The stores follow
 * all the copies' reads, so nothing writes between a family's gathers. */
#include "vectorize/jam_rows.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <string.h>

enum {
  MAX_TABLE_TRIPS = 1024,
  MAX_TABLE_BYTES = 32 * 1024, /* well within L1 with the group's tiles */
  MAX_TABLED = 64,             /* values stored per trip */
  MAX_TABLE_PHIS = 64,
  MAX_TABLE_UNROLL = 8,       /* trips of S a trip of the table loop */
  MAX_UNROLLED_GATHERS = 32,  /* within gather-rows' 64 members a block */
  MAX_UNROLLED_SIZE = 1024,   /* instructions */
};

/* S's trip count, from its counter `iv = phi [start, head], [iv + step, S]`
 * and the exit test of iv + step (or of iv) against a constant; 0 if not
 * of that form */
static unsigned long long trip_count(const struct loom_rows *r, LLVMValueRef *iv_out, long long *step_out) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(r->body);
  LLVMValueRef cmp = LLVMGetCondition(br);
  bool stay_on_true = LLVMGetSuccessor(br, 0) == r->body;
  if (!LLVMIsAICmpInst(cmp))
    return 0;
  LLVMValueRef tested = LLVMGetOperand(cmp, 0), iv = tested, next = NULL;
  long long end, step, start;
  if (!loom_rows_const_int(LLVMGetOperand(cmp, 1), &end))
    return 0;
  if (LLVMIsAInstruction(tested) && LLVMGetInstructionOpcode(tested) == LLVMAdd) {
    next = tested;
    iv = LLVMGetOperand(tested, 0);
  }
  if (!LLVMIsAPHINode(iv) || LLVMGetInstructionParent(iv) != r->body || LLVMCountIncoming(iv) != 2)
    return 0;
  unsigned from_head = LLVMGetIncomingBlock(iv, 0) == r->body ? 1 : 0;
  LLVMValueRef back = LLVMGetIncomingValue(iv, 1 - from_head);
  if ((next && back != next) || !LLVMIsAInstruction(back) || LLVMGetInstructionOpcode(back) != LLVMAdd ||
      LLVMGetOperand(back, 0) != iv || !loom_rows_const_int(LLVMGetOperand(back, 1), &step) || step <= 0 ||
      step > (1 << 20) || !loom_rows_const_int(LLVMGetIncomingValue(iv, from_head), &start) || start < 0 ||
      end < 0 || end > (1ll << 40))
    return 0;
  if (!next) /* iv against end is iv + step against end + step */
    end += step;
  if (end <= start)
    return 0;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
  unsigned long long span = (unsigned long long)end - (unsigned long long)start;
  if ((p == LLVMIntEQ && !stay_on_true) || (p == LLVMIntNE && stay_on_true)) {
    if (span % (unsigned long long)step)
      return 0; /* next would step over end */
  } else if (!((p == LLVMIntULT || p == LLVMIntSLT) && stay_on_true)) {
    return 0;
  }
  *iv_out = iv;
  *step_out = step;
  return (span + (unsigned long long)step - 1) / (unsigned long long)step;
}

static bool invariant_in_body(const struct loom_rows *r, const struct loom_ptrmap *varying,
                              LLVMValueRef v) {
  size_t dummy;
  return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == r->body &&
         !loom_ptrmap_get(varying, v, &dummy);
}

/* the row-invariant instructions of S (and of the header) that v needs,
 * marked in `slice`; false where one is not safe to run before the loop
 * (a write, a call to anything but a gather, something volatile) */
static bool mark_slice(const struct loom_rows *r, const struct loom_ptrmap *varying, LLVMValueRef v,
                       struct loom_ptrmap *slice, bool *reads) {
  size_t dummy;
  if (!LLVMIsAInstruction(v) || loom_ptrmap_get(slice, v, &dummy))
    return true;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
  if (bb != r->body && bb != r->head)
    return bb != r->tail; /* from outside the y loop */
  if (loom_ptrmap_get(varying, v, &dummy))
    return false;
  if (bb == r->head && LLVMIsAPHINode(v))
    return false;
  if (LLVMIsACallInst(v) && !loom_is_call_to_prefix(v, "llvm.masked.gather."))
    return false;
  if (LLVMIsAStoreInst(v) || LLVMIsAFenceInst(v) || LLVMIsAAtomicRMWInst(v) ||
      LLVMIsAAtomicCmpXchgInst(v) || LLVMIsAAllocaInst(v) || LLVMIsATerminatorInst(v) ||
      (LLVMIsALoadInst(v) && (LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic)))
    return false;
  loom_ptrmap_put(slice, v, 1);
  *reads |= LLVMIsALoadInst(v) || LLVMIsACallInst(v);
  if (LLVMIsAPHINode(v)) {
    for (unsigned k = 0; k < 2; k++)
      if (!mark_slice(r, varying, LLVMGetIncomingValue(v, k), slice, reads))
        return false;
    return true;
  }
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(v, k);
    if (!LLVMValueIsBasicBlock(op) && !mark_slice(r, varying, op, slice, reads))
      return false;
  }
  return true;
}

struct table_plan {
  LLVMValueRef stored[MAX_TABLED]; /* the values the table keeps per trip */
  unsigned n;
  unsigned long long trips;
  LLVMValueRef iv; /* S's counter, stepping by step */
  long long step;
  unsigned unroll; /* trips of S a trip of the table loop computes */
  struct loom_ptrmap slice; /* what the table loop computes */
};

static int stored_index(const struct table_plan *t, LLVMValueRef v) {
  for (unsigned i = 0; i < t->n; i++)
    if (t->stored[i] == v)
      return (int)i;
  return -1;
}

/* The values S's row-varying instructions take from its row-invariant
 * ones, where reading them from a table saves at least three times the
 * loads it costs; false if the loop does not qualify */
static bool plan_table(const struct loom_rows *r, const struct loom_ptrmap *varying,
                       struct table_plan *t) {
  memset(t, 0, sizeof *t);
  t->trips = trip_count(r, &t->iv, &t->step);
  if (t->trips < 2 || t->trips > MAX_TABLE_TRIPS)
    return false;
  size_t dummy;
  unsigned long long bytes = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in)) {
    if (!loom_ptrmap_get(varying, in, &dummy) || LLVMIsAPHINode(in))
      continue;
    unsigned n = (unsigned)LLVMGetNumOperands(in);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef op = LLVMGetOperand(in, k);
      if (!invariant_in_body(r, varying, op) || LLVMIsAPHINode(op))
        continue;
      LLVMTypeRef ty = LLVMTypeOf(op);
      if (stored_index(t, op) >= 0 || LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        continue;
      /* only values behind a read: address arithmetic is cheaper to redo */
      struct loom_ptrmap one = {0};
      bool reads = false, ok = mark_slice(r, varying, op, &one, &reads);
      loom_ptrmap_free(&one);
      if (!ok) {
        loom_ptrmap_free(&t->slice);
        return false;
      }
      unsigned eb = loom_family_element_bytes(LLVMGetElementType(ty));
      if (!reads || !eb)
        continue;
      if (t->n == MAX_TABLED) {
        loom_ptrmap_free(&t->slice);
        return false;
      }
      bytes += t->trips * eb * LLVMGetVectorSize(ty);
      t->stored[t->n++] = op;
      bool r2 = false;
      mark_slice(r, varying, op, &t->slice, &r2);
    }
  }
  if (!t->n || bytes > MAX_TABLE_BYTES) {
    loom_ptrmap_free(&t->slice);
    return false;
  }
  /* the exit test runs in the table loop too */
  bool r3 = false;
  if (!mark_slice(r, varying, LLVMGetCondition(LLVMGetBasicBlockTerminator(r->body)), &t->slice, &r3)) {
    loom_ptrmap_free(&t->slice);
    return false;
  }
  unsigned saved = 0, phis = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in))
    if (loom_ptrmap_get(&t->slice, in, &dummy) && in != t->iv) {
      saved += LLVMIsAPHINode(in) ? 0 : loom_rows_inst_cost(in);
      phis += LLVMIsAPHINode(in) != NULL;
    }
  if (saved < 3 * (t->n + 1) || phis >= MAX_TABLE_PHIS) {
    loom_ptrmap_free(&t->slice);
    return false;
  }
  /* gathers of a lane's own row (a[lid * ld + k]) take one element per k:
   * with several trips in one, gather-rows sees whole rows to load */
  unsigned gathers = 0, size = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in))
    if (loom_ptrmap_get(&t->slice, in, &dummy)) {
      gathers += loom_is_call_to_prefix(in, "llvm.masked.gather.");
      size++;
    }
  t->unroll = 1;
  for (unsigned u = MAX_TABLE_UNROLL; gathers && u > 1 && t->unroll == 1; u /= 2)
    if (t->trips % u == 0 && u * gathers <= MAX_UNROLLED_GATHERS && u * size <= MAX_UNROLLED_SIZE)
      t->unroll = u;
  return true;
}

/* the table loop's copy of v (v itself where it has none) */
static LLVMValueRef map_value(void *ctx, LLVMValueRef v) {
  size_t got;
  return loom_ptrmap_get(ctx, v, &got) ? (LLVMValueRef)got : v;
}

static LLVMBasicBlockRef preheader_of(const struct loom_rows *r) {
  for (unsigned k = 0; k < LLVMCountIncoming(r->iv); k++)
    if (LLVMGetIncomingBlock(r->iv, k) != r->tail)
      return LLVMGetIncomingBlock(r->iv, k);
  return NULL;
}

/* Builds pre -> table.pre -> table (looping T times) -> head and makes S
 * read its values from the table. */
static void build_table(const struct loom_rows *r, struct table_plan *t) {
  LLVMValueRef f = LLVMGetBasicBlockParent(r->head);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(r->iv));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMBasicBlockRef pre = preheader_of(r);
  assert(pre);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);

  /* the tables, in the entry block */
  LLVMValueRef tab[MAX_TABLED];
  LLVMTypeRef arr[MAX_TABLED];
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  LLVMPositionBuilderBefore(b, loom_first_non_phi(entry));
  for (unsigned i = 0; i < t->n; i++) {
    arr[i] = LLVMArrayType2(LLVMTypeOf(t->stored[i]), t->trips);
    tab[i] = LLVMBuildAlloca(b, arr[i], "row.table");
    LLVMSetAlignment(tab[i], 64);
  }

  LLVMBasicBlockRef tpre = LLVMInsertBasicBlockInContext(c, r->head, "row.table.pre");
  LLVMBasicBlockRef tloop = LLVMInsertBasicBlockInContext(c, r->head, "row.table.loop");
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(pre);
  for (unsigned k = 0; k < LLVMGetNumSuccessors(pt); k++)
    if (LLVMGetSuccessor(pt, k) == r->head)
      LLVMSetSuccessor(pt, k, tpre);
  loom_phi_replace_block(r->head, pre, tloop);

  struct loom_ptrmap cm = {0};
  size_t dummy;
  /* the header's row-invariant values S needs, computed before the table */
  LLVMPositionBuilderAtEnd(b, tpre);
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->head); in; in = LLVMGetNextInstruction(in))
    if (loom_ptrmap_get(&t->slice, in, &dummy))
      loom_ptrmap_put(&cm, in, (size_t)loom_clone_mapped(b, in, map_value, &cm));
  LLVMBuildBr(b, tloop);

  /* the table loop: S's phis in the slice, then its slice in order */
  LLVMPositionBuilderAtEnd(b, tloop);
  LLVMValueRef phis[MAX_TABLE_PHIS], table_phis[MAX_TABLE_PHIS], table_iv = NULL;
  unsigned nphis = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in && LLVMIsAPHINode(in);
       in = LLVMGetNextInstruction(in))
    if (loom_ptrmap_get(&t->slice, in, &dummy)) {
      assert(nphis < MAX_TABLE_PHIS);
      phis[nphis] = in;
      table_phis[nphis] = LLVMBuildPhi(b, LLVMTypeOf(in), "row.table.phi");
      loom_ptrmap_put(&cm, in, (size_t)table_phis[nphis]);
      if (in == t->iv)
        table_iv = table_phis[nphis];
      nphis++;
    }
  LLVMValueRef idx = LLVMBuildPhi(b, i64, "row.table.trip");
  LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
  LLVMValueRef vals[MAX_TABLE_UNROLL][MAX_TABLED];
  assert(t->unroll >= 1 && t->unroll <= MAX_TABLE_UNROLL && t->trips % t->unroll == 0);
  for (unsigned u = 0; u < t->unroll; u++) {
    if (u) {
      /* S's phis in copy u: copy u - 1's values around the latch, all read
       * before any changes (a phi may take another's value); S's counter
       * directly, so that its copies' chains stay short */
      LLVMValueRef next[MAX_TABLE_PHIS];
      for (unsigned i = 0; i < nphis; i++) {
        unsigned from_body = LLVMGetIncomingBlock(phis[i], 0) == r->body ? 0 : 1;
        next[i] = map_value(&cm, LLVMGetIncomingValue(phis[i], from_body));
      }
      for (unsigned i = 0; i < nphis; i++)
        loom_ptrmap_put(&cm, phis[i], (size_t)next[i]);
      if (table_iv)
        loom_ptrmap_put(&cm, t->iv,
                        (size_t)LLVMBuildAdd(b, table_iv,
                                             LLVMConstInt(LLVMTypeOf(t->iv),
                                                          (unsigned long long)(t->step * (long long)u), 0),
                                             ""));
    }
    for (LLVMValueRef in = loom_first_non_phi(r->body); in; in = LLVMGetNextInstruction(in))
      if (loom_ptrmap_get(&t->slice, in, &dummy))
        loom_ptrmap_put(&cm, in, (size_t)loom_clone_mapped(b, in, map_value, &cm));
    for (unsigned i = 0; i < t->n; i++)
      vals[u][i] = map_value(&cm, t->stored[i]);
  }
  /* the stores after every copy's reads: gather-rows wants no write
   * between a family's members */
  for (unsigned u = 0; u < t->unroll; u++) {
    LLVMValueRef at_trip = u ? LLVMBuildAdd(b, idx, LLVMConstInt(i64, u, 0), "") : idx;
    for (unsigned i = 0; i < t->n; i++) {
      LLVMValueRef ix[2] = {zero, at_trip};
      LLVMValueRef at = LLVMBuildInBoundsGEP2(b, arr[i], tab[i], ix, 2, "");
      LLVMBuildStore(b, vals[u][i], at);
    }
  }
  LLVMValueRef idx_next = LLVMBuildAdd(b, idx, LLVMConstInt(i64, t->unroll, 0), "");
  LLVMValueRef sbr = LLVMGetBasicBlockTerminator(r->body);
  bool stay_on_true = LLVMGetSuccessor(sbr, 0) == r->body;
  /* the last copy's exit test: the ones before it stay, as trips % unroll == 0 */
  LLVMValueRef cond = map_value(&cm, LLVMGetCondition(sbr));
  LLVMBuildCondBr(b, cond, stay_on_true ? tloop : r->head, stay_on_true ? r->head : tloop);
  LLVMValueRef in_vals[2];
  LLVMBasicBlockRef in_bbs[2] = {tpre, tloop};
  in_vals[0] = zero;
  in_vals[1] = idx_next;
  LLVMAddIncoming(idx, in_vals, in_bbs, 2);
  for (unsigned i = 0; i < nphis; i++) {
    LLVMValueRef p = phis[i];
    unsigned from_body = LLVMGetIncomingBlock(p, 0) == r->body ? 0 : 1;
    in_vals[0] = map_value(&cm, LLVMGetIncomingValue(p, 1 - from_body));
    in_vals[1] = map_value(&cm, LLVMGetIncomingValue(p, from_body));
    LLVMAddIncoming(table_phis[i], in_vals, in_bbs, 2);
  }

  /* S: a trip counter and the loads */
  LLVMPositionBuilderBefore(b, loom_first_non_phi(r->body));
  LLVMBasicBlockRef sb[2] = {r->head, r->body};
  LLVMValueRef trip = LLVMBuildPhi(b, i64, "row.trip");
  LLVMValueRef loaded[MAX_TABLED];
  for (unsigned i = 0; i < t->n; i++) {
    LLVMValueRef ix[2] = {zero, trip};
    LLVMValueRef at = LLVMBuildInBoundsGEP2(b, arr[i], tab[i], ix, 2, "");
    loaded[i] = LLVMBuildLoad2(b, LLVMTypeOf(t->stored[i]), at, "row.tabled");
  }
  LLVMPositionBuilderBefore(b, sbr);
  LLVMValueRef trip_next = LLVMBuildAdd(b, trip, LLVMConstInt(i64, 1, 0), "");
  in_vals[0] = zero;
  in_vals[1] = trip_next;
  LLVMAddIncoming(trip, in_vals, sb, 2);

  /* S's users read the loads */
  for (LLVMValueRef in = LLVMGetFirstInstruction(r->body); in; in = LLVMGetNextInstruction(in)) {
    if (!loom_ptrmap_get(&t->slice, in, &dummy) || LLVMIsAPHINode(in))
      continue;
    int k = stored_index(t, in);
    if (k >= 0) {
      /* every use in S, the slice's own included (they compute the same) */
      for (LLVMUseRef u = LLVMGetFirstUse(in), nu; u; u = nu) {
        nu = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) && LLVMGetInstructionParent(user) == r->body && user != loaded[k]) {
          unsigned n = (unsigned)LLVMGetNumOperands(user);
          for (unsigned o = 0; o < n; o++)
            if (LLVMGetOperand(user, o) == in)
              LLVMSetOperand(user, o, loaded[k]);
        }
      }
    }
  }
  /* the slice S no longer needs goes */
  for (bool again = true; again;) {
    again = false;
    for (LLVMValueRef in = LLVMGetLastInstruction(r->body), prev; in; in = prev) {
      prev = LLVMGetPreviousInstruction(in);
      if (!LLVMGetFirstUse(in) && loom_ptrmap_get(&t->slice, in, &dummy)) {
        LLVMInstructionEraseFromParent(in);
        again = true;
      }
    }
  }
  loom_ptrmap_free(&cm);
  LLVMDisposeBuilder(b);
}

bool loom_rows_table(const struct loom_rows *r, const struct loom_ptrmap *varying) {
  if (!r->body)
    return false;
  struct table_plan t;
  if (!plan_table(r, varying, &t))
    return false;
  build_table(r, &t);
  loom_ptrmap_free(&t.slice);
  return true;
}
