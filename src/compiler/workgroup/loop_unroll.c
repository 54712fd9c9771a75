/* Unrolling a loop that has no loop inside, keeping every exit test: the
 * copies run one after another, each can leave through the loop's exits,
 * and the last one branches back to the original header. Used for divergent
 * loops (divergent_loops.c): a pass over the work-group then runs several
 * iterations, so the loop state moves through memory once per `count`
 * iterations instead of once per iteration. The LLVM C API has no cloning
 * utilities, so this maps values and blocks itself. */
#include "workgroup/workgroup.h"
#include <stdio.h>
#include <stdlib.h>

struct copy {
  struct loom_ptrmap values; /* original instruction -> index in `made` */
  struct loom_ptrmap blocks; /* original block -> index in `bbs` */
};

struct unroll {
  LLVMContextRef c;
  LLVMBuilderRef bld;
  LLVMBasicBlockRef *loop; /* reverse postorder, header first */
  size_t n;
  struct copy *copies; /* copies[0] is the original: identity maps */
  LLVMValueRef *made;
  size_t nmade, cap;
  LLVMBasicBlockRef *bbs;
  size_t nbbs;
};

static LLVMValueRef map_value(struct unroll *u, unsigned j, LLVMValueRef v) {
  size_t i;
  if (j && loom_ptrmap_get(&u->copies[j].values, v, &i))
    return u->made[i];
  return v;
}

struct copy_map {
  struct unroll *u;
  unsigned j;
};

static LLVMValueRef map_copy(void *ctx, LLVMValueRef v) {
  struct copy_map *cm = ctx;
  return map_value(cm->u, cm->j, v);
}

static LLVMBasicBlockRef map_block(struct unroll *u, unsigned j, LLVMBasicBlockRef b) {
  size_t i;
  if (j && loom_ptrmap_get(&u->copies[j].blocks, b, &i))
    return u->bbs[i];
  return b;
}

static bool in_loop(struct unroll *u, LLVMBasicBlockRef b) {
  size_t i;
  return loom_ptrmap_get(&u->copies[0].blocks, b, &i);
}

static void remember(struct unroll *u, unsigned j, LLVMValueRef old, LLVMValueRef v) {
  if (u->nmade == u->cap)
    u->made = realloc(u->made, (u->cap = u->cap ? 2 * u->cap : 64) * sizeof *u->made);
  u->made[u->nmade] = v;
  loom_ptrmap_put(&u->copies[j].values, old, u->nmade++);
}

/* copy j >= 1 of the loop's instructions; PHIs get their incoming values
 * later, when every value of the copy exists */
static void clone_body(struct unroll *u, unsigned j) {
  for (size_t b = 0; b < u->n; b++) {
    LLVMPositionBuilderAtEnd(u->bld, map_block(u, j, u->loop[b]));
    for (LLVMValueRef in = LLVMGetFirstInstruction(u->loop[b]); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef cl;
      if (LLVMIsAPHINode(in)) {
        cl = LLVMBuildPhi(u->bld, LLVMTypeOf(in), "");
      } else {
        struct copy_map cm = {u, j};
        cl = loom_clone_mapped(u->bld, in, map_copy, &cm);
        if (LLVMIsATerminatorInst(in))
          LLVMSetMetadata(cl, LLVMGetMDKindIDInContext(u->c, "llvm.loop", 9), NULL);
      }
      remember(u, j, in, cl);
    }
  }
}

/* Where copy j's edge to s leads: the next copy's header for a back edge,
 * the same copy's block inside the loop, the exit itself outside. */
static LLVMBasicBlockRef edge_target(struct unroll *u, unsigned j, unsigned count,
                                     LLVMBasicBlockRef s) {
  if (s == u->loop[0])
    return j + 1 < count ? map_block(u, j + 1, s) : s;
  return in_loop(u, s) ? map_block(u, j, s) : s;
}

static void wire_copy(struct unroll *u, unsigned j, unsigned count) {
  for (size_t b = 0; b < u->n; b++) {
    LLVMBasicBlockRef ob = u->loop[b];
    for (LLVMValueRef in = LLVMGetFirstInstruction(ob); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
      LLVMValueRef phi = map_value(u, j, in);
      unsigned ni = LLVMCountIncoming(in);
      for (unsigned k = 0; k < ni; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(in, k);
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(in, k);
        if (b == 0) {
          /* the header of copy j is entered from copy j - 1's latches */
          if (!in_loop(u, ib))
            continue;
          v = map_value(u, j - 1, v);
          ib = map_block(u, j - 1, ib);
        } else {
          v = map_value(u, j, v);
          ib = map_block(u, j, ib);
        }
        LLVMAddIncoming(phi, &v, &ib, 1);
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(map_block(u, j, ob));
    unsigned ns = LLVMGetNumSuccessors(t);
    for (unsigned k = 0; k < ns; k++)
      LLVMSetSuccessor(t, k, edge_target(u, j, count, LLVMGetSuccessor(t, k)));
  }
}

/* the exit's PHIs take each copy's values */
static void extend_exit_phis(struct unroll *u, LLVMBasicBlockRef exit, unsigned count) {
  for (LLVMValueRef phi = LLVMGetFirstInstruction(exit); phi && LLVMIsAPHINode(phi);
       phi = LLVMGetNextInstruction(phi)) {
    unsigned ni = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < ni; k++) {
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(phi, k);
      if (!in_loop(u, ib))
        continue;
      for (unsigned j = 1; j < count; j++) {
        LLVMValueRef v = map_value(u, j, LLVMGetIncomingValue(phi, k));
        LLVMBasicBlockRef nb = map_block(u, j, ib);
        LLVMAddIncoming(phi, &v, &nb, 1);
      }
    }
  }
}

/* The original header's PHIs now come from the last copy's latches: they
 * are rebuilt (the C API cannot retarget an incoming block). All of them
 * before any is replaced: a PHI's value from the latch may be another
 * header PHI (`v3 = j2` in `for (j2 ...) v3 = j2;`), which maps to the last
 * copy's only while it is still the original. */
static void rewire_header_phis(struct unroll *u, unsigned count) {
  LLVMBasicBlockRef h = u->loop[0];
  size_t nphis = 0;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(h); phi && LLVMIsAPHINode(phi);
       phi = LLVMGetNextInstruction(phi))
    nphis++;
  LLVMValueRef *old = malloc((nphis ? nphis : 1) * sizeof *old);
  LLVMValueRef *rebuilt = malloc((nphis ? nphis : 1) * sizeof *rebuilt);
  LLVMValueRef phi = LLVMGetFirstInstruction(h);
  for (size_t i = 0; i < nphis; i++, phi = LLVMGetNextInstruction(phi))
    old[i] = phi;
  for (size_t i = 0; i < nphis; i++) {
    LLVMPositionBuilderBefore(u->bld, old[0]);
    LLVMValueRef np = LLVMBuildPhi(u->bld, LLVMTypeOf(old[i]), "");
    unsigned ni = LLVMCountIncoming(old[i]);
    for (unsigned k = 0; k < ni; k++) {
      LLVMValueRef v = LLVMGetIncomingValue(old[i], k);
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(old[i], k);
      if (in_loop(u, ib)) {
        v = map_value(u, count - 1, v);
        ib = map_block(u, count - 1, ib);
      }
      LLVMAddIncoming(np, &v, &ib, 1);
    }
    rebuilt[i] = np;
  }
  for (size_t i = 0; i < nphis; i++) {
    LLVMReplaceAllUsesWith(old[i], rebuilt[i]);
    LLVMInstructionEraseFromParent(old[i]);
  }
  free(old);
  free(rebuilt);
  /* the original's back edges lead to the first copy */
  for (size_t b = 0; b < u->n; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(u->loop[b]);
    unsigned ns = LLVMGetNumSuccessors(t);
    for (unsigned k = 0; k < ns; k++)
      if (LLVMGetSuccessor(t, k) == h)
        LLVMSetSuccessor(t, k, map_block(u, 1, h));
  }
}

size_t loom_unroll_loop(LLVMValueRef f, LLVMBasicBlockRef *loop, size_t n, LLVMBasicBlockRef exit,
                        unsigned count, LLVMBasicBlockRef **added) {
  *added = NULL;
  if (count < 2 || n == 0)
    return 0;
  struct unroll u = {.c = LLVMGetTypeContext(LLVMTypeOf(f)), .loop = loop, .n = n};
  u.bld = LLVMCreateBuilderInContext(u.c);
  u.copies = calloc(count, sizeof *u.copies);
  u.bbs = malloc((size_t)(count - 1) * n * sizeof *u.bbs);
  for (size_t b = 0; b < n; b++)
    loom_ptrmap_put(&u.copies[0].blocks, loop[b], b);
  for (unsigned j = 1; j < count; j++)
    for (size_t b = 0; b < n; b++) {
      char name[32];
      snprintf(name, sizeof name, "unrolled%u", j);
      u.bbs[u.nbbs] = LLVMInsertBasicBlockInContext(u.c, exit, name);
      loom_ptrmap_put(&u.copies[j].blocks, loop[b], u.nbbs++);
    }
  for (unsigned j = 1; j < count; j++)
    clone_body(&u, j);
  for (unsigned j = 1; j < count; j++)
    wire_copy(&u, j, count);
  extend_exit_phis(&u, exit, count);
  rewire_header_phis(&u, count);
  for (unsigned j = 0; j < count; j++) {
    loom_ptrmap_free(&u.copies[j].values);
    loom_ptrmap_free(&u.copies[j].blocks);
  }
  free(u.copies);
  free(u.made);
  LLVMDisposeBuilder(u.bld);
  *added = u.bbs;
  return u.nbbs;
}
