/* Work-group uniformity: which values are the same for every work-item of a
 * group. A value live across a barrier that is uniform needs one slot for the
 * whole group instead of one per work-item (e.g. the `step` of a tree
 * reduction), which turns gathers into broadcasts.
 *
 * A value is varying if it is the local id, a load, an atomic, a call with
 * effects, a per-work-item slot, if any operand is varying, or - for PHIs -
 * if its block joins paths that split at a varying branch (label propagation
 * from the branch's successors). The kernel is in LCSSA form, so values that
 * leave a loop with a varying exit pass through exit-block PHIs, which are
 * joins of that exit branch. */
#include "loom_abi.h"
#include "analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

struct uni {
  struct loom_ptrmap varying; /* value -> 1 */
  struct loom_ptrmap blocks;  /* block -> index */
  LLVMBasicBlockRef *bbs;
  size_t n;
  unsigned char *join; /* block is a join of some varying branch */
  bool changed;
};

static bool is_varying(struct uni *u, LLVMValueRef v) {
  return LLVMIsAInstruction(v) && loom_ptrmap_get(&u->varying, v, NULL);
}

static void set_varying(struct uni *u, LLVMValueRef v) {
  if (!loom_ptrmap_get(&u->varying, v, NULL)) {
    loom_ptrmap_put(&u->varying, v, 1);
    u->changed = true;
  }
}

static bool name_starts(LLVMValueRef fn, const char *prefix) {
  size_t len;
  const char *n = LLVMGetValueName2(fn, &len);
  return len >= strlen(prefix) && !strncmp(n, prefix, strlen(prefix));
}

/* varying regardless of operands */
static bool inherently_varying(LLVMValueRef i) {
  if (LLVMIsALoadInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ||
      LLVMIsAAllocaInst(i))
    return true;
  if (LLVMIsACallInst(i)) {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (!callee || !LLVMIsAFunction(callee))
      return true;
    if (loom_is_call_to(i, LOOM_SYM_WI)) {
      LLVMValueRef kind = LLVMGetOperand(i, 0);
      return !LLVMIsAConstantInt(kind) || LLVMConstIntGetZExtValue(kind) == LOOM_WI_LOCAL_ID;
    }
    if (loom_is_call_to(i, LOOM_SYM_LOCAL_BASE))
      return false;
    /* pure LLVM intrinsics (fmuladd, smax, ...) depend only on operands */
    if (name_starts(callee, "llvm.") && !name_starts(callee, "llvm.mem") &&
        !name_starts(callee, "llvm.lifetime"))
      return false;
    return true; /* slots, library calls */
  }
  return false;
}

/* Marks the join blocks of the varying branch at the end of block b. */
static void mark_joins(struct uni *u, LLVMValueRef term) {
  unsigned ns = LLVMGetNumSuccessors(term);
  /* label[i] = 0 unvisited, 1 + successor index, or UINT_MAX once joined */
  unsigned *label = calloc(u->n, sizeof *label);
  size_t *queue = malloc((u->n * 2 + ns + 1) * sizeof *queue);
  size_t head = 0, tail = 0;
  for (unsigned s = 0; s < ns; s++) {
    size_t bi;
    /* a switch's cases that share a block are one path to it: the first
     * case's label (were it marked a join at once, its label would merge
     * with another such block's further on as if they were one path: both
     * "joined", the phi after them taken as uniform; loom-fuzz 3341278) */
    if (!loom_ptrmap_get(&u->blocks, LLVMGetSuccessor(term, s), &bi) || label[bi])
      continue;
    label[bi] = s + 1;
    queue[tail++] = bi;
  }
  while (head < tail) {
    size_t b = queue[head++];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(u->bbs[b]);
    unsigned n = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < n; s++) {
      size_t bi;
      if (!loom_ptrmap_get(&u->blocks, LLVMGetSuccessor(t, s), &bi))
        continue;
      unsigned want = label[b];
      if (label[bi] == want || label[bi] == UINT32_MAX)
        continue;
      if (label[bi] == 0) {
        label[bi] = want;
      } else {
        label[bi] = UINT32_MAX; /* two different paths meet here */
        if (!u->join[bi]) {
          u->join[bi] = 1;
          u->changed = true;
        }
      }
      if (tail < u->n * 2 + ns)
        queue[tail++] = bi;
    }
  }
  free(label);
  free(queue);
}

struct loom_uniformity *loom_uniformity_compute(LLVMValueRef k) {
  struct uni *u = calloc(1, sizeof *u);
  u->n = LLVMCountBasicBlocks(k);
  u->bbs = malloc(u->n * sizeof *u->bbs);
  LLVMGetBasicBlocks(k, u->bbs);
  for (size_t i = 0; i < u->n; i++)
    loom_ptrmap_put(&u->blocks, u->bbs[i], i);
  u->join = calloc(u->n, 1);
  unsigned char *branch_done = calloc(u->n, 1);
  do {
    u->changed = false;
    for (size_t b = 0; b < u->n; b++) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(u->bbs[b]); i; i = LLVMGetNextInstruction(i)) {
        if (is_varying(u, i))
          continue;
        bool v = inherently_varying(i) || (LLVMIsAPHINode(i) && u->join[b]);
        for (int o = 0; !v && o < LLVMGetNumOperands(i); o++)
          v = is_varying(u, LLVMGetOperand(i, (unsigned)o));
        if (v)
          set_varying(u, i);
      }
      LLVMValueRef t = LLVMGetBasicBlockTerminator(u->bbs[b]);
      if (t && !branch_done[b] && LLVMGetNumSuccessors(t) > 1) {
        LLVMValueRef cond = LLVMIsABranchInst(t) || LLVMIsASwitchInst(t) ? LLVMGetOperand(t, 0) : NULL;
        if (!cond || is_varying(u, cond)) {
          branch_done[b] = 1;
          mark_joins(u, t);
          u->changed = true;
        }
      }
    }
  } while (u->changed);
  free(branch_done);
  return (struct loom_uniformity *)u;
}

bool loom_is_uniform(struct loom_uniformity *un, LLVMValueRef v) {
  return !is_varying((struct uni *)un, v);
}

void loom_uniformity_free(struct loom_uniformity *un) {
  struct uni *u = (struct uni *)un;
  if (!u)
    return;
  loom_ptrmap_free(&u->varying);
  loom_ptrmap_free(&u->blocks);
  free(u->bbs);
  free(u->join);
  free(u);
}
