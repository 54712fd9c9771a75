/* Two chains of half-register FMAs as one of full registers (pass
 * pair-chains, after combine-scatters).
 *
 * A group of 8 work-items along x fills half an AVX-512 register with
 * floats, and a work-item that accumulates several results keeps one
 * <8 x float> chain of FMAs per result: CLBlast's XgemmDirectTN (2 x 2
 * results a work-item, 8 x 8 groups, k unrolled 16 times) issued 256 ymm
 * FMAs per four rows of a tile, at most half of what the FMA units take.
 * Two of its chains, c[mi = 0][ni] and c[mi = 1][ni], multiply the same
 * row value B[ni] by two different vectors, A[0] and A[1]:
 *   P_k = fma(A0_k, B_k, P_k-1)    Q_k = fma(A1_k, B_k, Q_k-1)
 * which is, lane for lane, one <16 x float> chain
 *   Z_k = fma(A0_k ++ A1_k, B_k ++ B_k, Z_k-1)
 * with Z_0's addend P_0's ++ Q_0's, and P and Q the halves of the last Z.
 * The same operations on the same values: results are bit for bit those
 * of the two chains. A concatenation of two vectors is computed once in
 * the block however many chains use it (the jammed rows of XgemmDirectTN
 * share A0 ++ A1), one of a broadcast with itself is the wider broadcast.
 *
 * In each block of a function whose preferred vector width is twice a
 * chain's: FMA calls (llvm.fma, llvm.fmuladd) on vectors of half that
 * width; a chain steps through the addend, each link's result used only by
 * the next; two chains of the same length (at least MIN_LINKS) pair when
 * at every step their multiplicands share one operand, the same broadcast
 * (its wider form is free; two rows' different broadcasts would cost a
 * join a step), the other two concatenated. The last links' results must
 * be used only after both. */
#include "vectorize/vectorize.h"
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

enum { MIN_LINKS = 4, MAX_CHAINS = 256 };

struct chain {
  LLVMValueRef *link; /* the FMA calls, first to last */
  unsigned n;
};

static bool is_fma(LLVMValueRef in) {
  return loom_is_call_to_prefix(in, "llvm.fmuladd.") || loom_is_call_to_prefix(in, "llvm.fma.");
}

/* the FMA that continues v's chain: v's only user, an FMA of the block
 * adding v */
static LLVMValueRef next_link(LLVMValueRef v, LLVMBasicBlockRef bb) {
  LLVMUseRef u = LLVMGetFirstUse(v);
  if (!u || LLVMGetNextUse(u))
    return NULL;
  LLVMValueRef user = LLVMGetUser(u);
  if (!LLVMIsACallInst(user) || LLVMGetInstructionParent(user) != bb || !is_fma(user) ||
      LLVMGetOperand(user, 2) != v || LLVMGetOperand(user, 0) == v || LLVMGetOperand(user, 1) == v ||
      LLVMGetCalledValue(user) != LLVMGetCalledValue(v))
    return NULL;
  return user;
}

/* position of every instruction of bb */
static void number_block(LLVMBasicBlockRef bb, struct loom_ptrmap *pos) {
  size_t i = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
    loom_ptrmap_put(pos, in, i++);
}

/* position of v in bb: its index, or 0 for a value defined before bb (an
 * argument, a constant, an instruction of another block) */
static size_t where(const struct loom_ptrmap *pos, LLVMValueRef v) {
  size_t i;
  return loom_ptrmap_get(pos, v, &i) ? i + 1 : 0;
}

/* Which operand of a's multiplicands is shared with b's: sets *ka and *kb
 * (0 or 1) to the shared operand's index; false when none or both are */
static bool shared_operand(LLVMValueRef a, LLVMValueRef b, unsigned *ka, unsigned *kb) {
  LLVMValueRef a0 = LLVMGetOperand(a, 0), a1 = LLVMGetOperand(a, 1);
  LLVMValueRef b0 = LLVMGetOperand(b, 0), b1 = LLVMGetOperand(b, 1);
  unsigned found = 0;
  for (unsigned i = 0; i < 2; i++)
    for (unsigned j = 0; j < 2; j++)
      if ((i ? a1 : a0) == (j ? b1 : b0))
        *ka = i, *kb = j, found++;
  return found == 1 && (*ka ? a0 : a1) != (*kb ? b0 : b1);
}

/* a splat of a scalar: shufflevector (insertelement _, s, 0), _, zeroinitializer */
static LLVMValueRef splat_source(LLVMValueRef v) {
  return loom_is_splat_shuffle(v) ? LLVMGetOperand(v, 0) : NULL;
}

static bool pairable(const struct chain *p, const struct chain *q, const struct loom_ptrmap *pos) {
  if (p->n != q->n)
    return false;
  for (unsigned i = 0; i < p->n; i++) {
    unsigned ka, kb;
    if (!shared_operand(p->link[i], q->link[i], &ka, &kb) || !splat_source(LLVMGetOperand(p->link[i], ka)))
      return false;
  }
  /* the results leave after both chains are done */
  LLVMValueRef lp = p->link[p->n - 1], lq = q->link[q->n - 1];
  size_t end = where(pos, lp) > where(pos, lq) ? where(pos, lp) : where(pos, lq);
  LLVMValueRef last[2] = {lp, lq};
  for (unsigned k = 0; k < 2; k++)
    for (LLVMUseRef u = LLVMGetFirstUse(last[k]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsAPHINode(user))
        continue; /* a phi's use is at the end of its incoming block */
      size_t w = where(pos, user);
      if (w && w <= end)
        return false;
    }
  return true;
}

/* a concatenation a ++ b and what it was built as (v) */
struct joined {
  LLVMValueRef a, b, v;
};

/* the entry for (a, b) in list[0..n), or NULL */
static struct joined *find_joined(struct joined *list, size_t n, LLVMValueRef a, LLVMValueRef b) {
  for (size_t i = 0; i < n; i++)
    if (list[i].a == a && list[i].b == b)
      return &list[i];
  return NULL;
}

/* room for one more in *list (n used, *cap allocated); false when out of memory */
static bool grow_joined(struct joined **list, size_t n, size_t *cap) {
  if (n < *cap)
    return true;
  size_t more = *cap ? 2 * *cap : 64;
  struct joined *g = realloc(*list, more * sizeof *g);
  if (!g)
    return false;
  *list = g;
  *cap = more;
  return true;
}

struct widener {
  LLVMBuilderRef bld;
  LLVMBasicBlockRef bb;
  struct loom_ptrmap *pos;
  struct joined *memo; /* the concatenations built in the block */
  size_t nmemo, capmemo;
};

/* a ++ b (of n lanes each), built once in the block where both are known */
static LLVMValueRef concat(struct widener *w, LLVMValueRef a, LLVMValueRef b) {
  struct joined *known = find_joined(w->memo, w->nmemo, a, b);
  if (known)
    return known->v;
  LLVMTypeRef vt = LLVMTypeOf(a);
  unsigned n = LLVMGetVectorSize(vt);
  LLVMContextRef c = LLVMGetTypeContext(vt);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef at = where(w->pos, a) > where(w->pos, b) ? a : b;
  /* after both, and after the block's phis */
  LLVMValueRef in = where(w->pos, at) ? LLVMGetNextInstruction(at) : LLVMGetFirstInstruction(w->bb);
  while (in && LLVMIsAPHINode(in))
    in = LLVMGetNextInstruction(in);
  LLVMPositionBuilderBefore(w->bld, in);
  LLVMValueRef mask[64], v;
  assert(2 * n <= 64);
  LLVMValueRef src = a == b ? splat_source(a) : NULL;
  if (src) { /* a broadcast twice: the wider broadcast */
    for (unsigned i = 0; i < 2 * n; i++)
      mask[i] = LLVMConstInt(i32, 0, 0);
    v = LLVMBuildShuffleVector(w->bld, src, LLVMGetUndef(LLVMTypeOf(src)), LLVMConstVector(mask, 2 * n),
                               "pair.splat");
  } else {
    for (unsigned i = 0; i < 2 * n; i++)
      mask[i] = LLVMConstInt(i32, i, 0);
    v = LLVMBuildShuffleVector(w->bld, a, b, LLVMConstVector(mask, 2 * n), "pair.concat");
  }
  if (grow_joined(&w->memo, w->nmemo, &w->capmemo)) /* else only built again */
    w->memo[w->nmemo++] = (struct joined){a, b, v};
  return v;
}

/* the half of z (2n lanes) starting at lane `from` */
static LLVMValueRef half_of(LLVMBuilderRef bld, LLVMValueRef z, unsigned n, unsigned from) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(z)));
  LLVMValueRef mask[32];
  assert(n <= 32);
  for (unsigned i = 0; i < n; i++)
    mask[i] = LLVMConstInt(i32, from + i, 0);
  return LLVMBuildShuffleVector(bld, z, LLVMGetUndef(LLVMTypeOf(z)), LLVMConstVector(mask, n),
                                from ? "pair.hi" : "pair.lo");
}

/* Each concatenation right before its first use: built after both its
 * operands, they all stood at the top of the k loop, live together (the
 * generic XgemmDirectTN, one row a block, spilled them) */
static void sink_to_first_use(struct widener *w) {
  struct loom_ptrmap pos = {0};
  number_block(w->bb, &pos);
  for (size_t i = 0; i < w->nmemo; i++) {
    LLVMValueRef v = w->memo[i].v, first = NULL;
    size_t best = SIZE_MAX;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      size_t at;
      if (LLVMIsAPHINode(user) || !loom_ptrmap_get(&pos, user, &at)) {
        first = NULL; /* used elsewhere: stays */
        break;
      }
      if (at < best)
        best = at, first = user;
    }
    if (!first || LLVMGetPreviousInstruction(first) == v)
      continue;
    LLVMInstructionRemoveFromParent(v);
    LLVMPositionBuilderBefore(w->bld, first);
    size_t len;
    LLVMInsertIntoBuilderWithName(w->bld, v, LLVMGetValueName2(v, &len));
  }
  loom_ptrmap_free(&pos);
}

static void rewrite_pair(struct widener *w, const struct chain *p, const struct chain *q) {
  LLVMValueRef first = p->link[0];
  LLVMTypeRef vt = LLVMTypeOf(first);
  unsigned n = LLVMGetVectorSize(vt);
  LLVMTypeRef wide = LLVMVectorType(LLVMGetElementType(vt), 2 * n);
  LLVMValueRef callee = LLVMGetCalledValue(first);
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  unsigned id = LLVMLookupIntrinsicID(name, len);
  LLVMModuleRef m = LLVMGetGlobalParent(callee);
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, &wide, 1);
  LLVMTypeRef fty = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &wide, 1);
  LLVMValueRef z = concat(w, LLVMGetOperand(p->link[0], 2), LLVMGetOperand(q->link[0], 2));
  for (unsigned i = 0; i < p->n; i++) {
    LLVMValueRef a = p->link[i], b = q->link[i];
    unsigned ka, kb;
    bool ok = shared_operand(a, b, &ka, &kb);
    assert(ok);
    (void)ok;
    LLVMValueRef s = LLVMGetOperand(a, ka);
    LLVMValueRef x = concat(w, LLVMGetOperand(a, 1 - ka), LLVMGetOperand(b, 1 - kb));
    LLVMValueRef ss = concat(w, s, s);
    LLVMValueRef later = where(w->pos, a) > where(w->pos, b) ? a : b;
    LLVMPositionBuilder(w->bld, w->bb, LLVMGetNextInstruction(later));
    LLVMValueRef args[3] = {x, ss, z};
    z = LLVMBuildCall2(w->bld, fty, fn, args, 3, "pair.fma");
  }
  LLVMValueRef lp = p->link[p->n - 1], lq = q->link[q->n - 1];
  LLVMPositionBuilder(w->bld, w->bb, LLVMGetNextInstruction(z));
  LLVMValueRef lo = half_of(w->bld, z, n, 0), hi = half_of(w->bld, z, n, n);
  LLVMReplaceAllUsesWith(lp, lo);
  LLVMReplaceAllUsesWith(lq, hi);
  for (unsigned i = p->n; i-- > 0;) {
    LLVMInstructionEraseFromParent(p->link[i]);
    LLVMInstructionEraseFromParent(q->link[i]);
  }
}

/* the chains of bb, heads first in block order */
static unsigned find_chains(LLVMBasicBlockRef bb, unsigned lanes, struct chain *ch) {
  unsigned nch = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && nch < MAX_CHAINS; in = LLVMGetNextInstruction(in)) {
    if (!LLVMIsACallInst(in) || !is_fma(in) || LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVectorTypeKind ||
        LLVMGetVectorSize(LLVMTypeOf(in)) != lanes)
      continue;
    LLVMValueRef add = LLVMGetOperand(in, 2);
    if (LLVMIsACallInst(add) && LLVMGetInstructionParent(add) == bb && next_link(add, bb) == in)
      continue; /* not a head */
    unsigned n = 0, cap = 16;
    LLVMValueRef *link = malloc(cap * sizeof *link);
    for (LLVMValueRef l = in; l && link; l = next_link(l, bb)) {
      if (n == cap) {
        cap *= 2;
        LLVMValueRef *grown = realloc(link, cap * sizeof *grown);
        if (!grown) {
          free(link);
          link = NULL;
          break;
        }
        link = grown;
      }
      link[n++] = l;
    }
    if (!link)
      continue;
    if (n < MIN_LINKS) {
      free(link);
      continue;
    }
    ch[nch++] = (struct chain){link, n};
  }
  return nch;
}

/* Whether pairing as planned (partner[i] > i for each pair) pays: every
 * shuffle it adds must save two FMA instructions. It adds the distinct
 * concatenations of the multiplicands that differ, and per pair one of
 * the first addends and the two halves of the result; it saves one FMA a
 * step. XgemmDirectTN specialised (four rows a block share A0 ++ A1): 40
 * shuffles for 128 FMAs, 59 -> 80 GFLOP/s; its generic code (one row a
 * block): 22 for 32, 30 -> 23 GFLOP/s, not paired. */
static bool pays(const struct chain *ch, const unsigned *partner, unsigned nch) {
  unsigned saved = 0, shuffles = 0;
  struct joined *seen = NULL;
  size_t nseen = 0, cap = 0;
  bool ok = true;
  for (unsigned i = 0; i < nch && ok; i++) {
    if (partner[i] <= i || partner[i] == UINT32_MAX)
      continue;
    const struct chain *p = &ch[i], *q = &ch[partner[i]];
    saved += p->n;
    shuffles += 3;
    for (unsigned k = 0; k < p->n && ok; k++) {
      unsigned ka, kb;
      shared_operand(p->link[k], q->link[k], &ka, &kb);
      LLVMValueRef a = LLVMGetOperand(p->link[k], 1 - ka), b = LLVMGetOperand(q->link[k], 1 - kb);
      if (find_joined(seen, nseen, a, b))
        continue;
      ok = grow_joined(&seen, nseen, &cap);
      if (ok)
        seen[nseen++] = (struct joined){a, b, NULL};
      shuffles++;
    }
  }
  free(seen);
  return ok && saved > 0 && 2 * shuffles <= saved;
}

static unsigned pair_block(LLVMBasicBlockRef bb, unsigned lanes) {
  struct chain *ch = calloc(MAX_CHAINS, sizeof *ch);
  unsigned *partner = calloc(MAX_CHAINS, sizeof *partner);
  if (!ch || !partner) {
    free(ch);
    free(partner);
    return 0;
  }
  unsigned nch = find_chains(bb, lanes, ch), pairs = 0;
  struct loom_ptrmap pos = {0};
  number_block(bb, &pos);
  /* the plan: each chain with the first later one it pairs with */
  for (unsigned i = 0; i < nch; i++)
    partner[i] = UINT32_MAX;
  for (unsigned i = 0; i < nch; i++)
    for (unsigned j = i + 1; j < nch && partner[i] == UINT32_MAX; j++)
      if (partner[j] == UINT32_MAX && pairable(&ch[i], &ch[j], &pos))
        partner[i] = j, partner[j] = i;
  if (nch >= 2 && pays(ch, partner, nch)) {
    struct widener w = {0};
    w.bld = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(ch[0].link[0])));
    w.bb = bb;
    w.pos = &pos;
    for (unsigned i = 0; i < nch; i++) {
      if (partner[i] == UINT32_MAX || partner[i] < i)
        continue;
      rewrite_pair(&w, &ch[i], &ch[partner[i]]);
      pairs++;
      /* instructions moved in: number the block again */
      loom_ptrmap_free(&pos);
      pos = (struct loom_ptrmap){0};
      number_block(bb, &pos);
    }
    sink_to_first_use(&w);
    LLVMDisposeBuilder(w.bld);
    free(w.memo);
  }
  loom_ptrmap_free(&pos);
  for (unsigned i = 0; i < nch; i++)
    free(ch[i].link);
  free(ch);
  free(partner);
  return pairs;
}

unsigned loom_pair_fma_chains(LLVMModuleRef m) {
  unsigned pairs = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetFirstBasicBlock(f))
      continue;
    unsigned bits = loom_preferred_vector_bits(f);
    if (bits < 256)
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      /* float chains of half the width; doubles too (4 of 8) */
      pairs += pair_block(bb, bits / 2 / 32);
      pairs += pair_block(bb, bits / 2 / 64);
    }
  }
  return pairs;
}
