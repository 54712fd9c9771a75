/* Helpers over the LLVM C API shared by the passes: target machines,
 * running LLVM pass pipelines, IR walking and editing, small maps. */
#include "support/llvm_util.h"
#include "support/util.h"
#include "vectorize/vectorize.h"
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_llvm(void) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeX86AsmParser();
  /* LLVM reads its options once per process: the ones vectorisation
   * across work-items needs (vectorize/outer_loop.c says why) */
  const char *args[16] = {"loomcl"};
  int n = 1;
  for (int i = 0; loom_vectorize_llvm_options[i] && n < 8; i++)
    args[n++] = loom_vectorize_llvm_options[i];
  /* LOOMCL_LLVM_ARGS: extra LLVM options for investigating code generation,
   * e.g. "-pass-remarks-analysis=loop-vectorize" (space-separated) */
  static char extra[1024];
  const char *env = loom_cfg_str(LOOM_CFG_LLVM_ARGS);
  if (env && strlen(env) < sizeof extra) {
    strcpy(extra, env);
    for (char *tok = strtok(extra, " "); tok && n < 16; tok = strtok(NULL, " "))
      args[n++] = tok;
  }
  LLVMParseCommandLineOptions(n, args, NULL);
}

void loom_llvm_init(void) { pthread_once(&init_once, init_llvm); }

bool loom_has_target_feature(const char *features, const char *name) {
  size_t n = strlen(name);
  for (const char *p = features; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (p[0] == '+' && !strncmp(p + 1, name, n) && (p[1 + n] == ',' || p[1 + n] == 0))
      return true;
  return false;
}

LLVMTargetDataRef loom_retarget(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  char *dl = LLVMCopyStringRepOfTargetData(td);
  LLVMSetDataLayout(m, dl);
  LLVMDisposeMessage(dl);
  return td;
}

/* One target machine per build: builds run concurrently on several host
 * threads and a target machine is not meant to be shared while generating
 * code. Creating one costs well under a millisecond. */
LLVMTargetMachineRef loom_target_machine(const struct loom_target *t) {
  loom_llvm_init();
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err) == 0)
    tm = LLVMCreateTargetMachine(target, triple, t->cpu, t->features,
                                 LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelSmall);
  LLVMDisposeMessage(err);
  LLVMDisposeMessage(triple);
  return tm;
}

int loom_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm) {
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(o, 1);
  LLVMPassBuilderOptionsSetSLPVectorization(o, 1);
  LLVMPassBuilderOptionsSetLoopUnrolling(o, 1);
  LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, o);
  LLVMDisposePassBuilderOptions(o);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "LoomCL: pass pipeline '%s' failed: %s\n", pipeline, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
  }
  return 0;
}

LLVMValueRef loom_get_fn(LLVMModuleRef m, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *params, unsigned n) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (!f)
    f = LLVMAddFunction(m, name, LLVMFunctionType(ret, params, n, 0));
  return f;
}

/* the name of the function v calls directly, or NULL */
static const char *callee_name(LLVMValueRef v, size_t *len) {
  if (!v || !LLVMIsACallInst(v))
    return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(v);
  if (!callee || !LLVMIsAFunction(callee))
    return NULL;
  return LLVMGetValueName2(callee, len);
}

bool loom_is_call_to(LLVMValueRef v, const char *name) {
  size_t len;
  const char *n = callee_name(v, &len);
  return n && strlen(name) == len && memcmp(n, name, len) == 0;
}

bool loom_is_call_to_prefix(LLVMValueRef v, const char *prefix) {
  size_t len, plen = strlen(prefix);
  const char *n = callee_name(v, &len);
  return n && len > plen && memcmp(n, prefix, plen) == 0;
}

LLVMValueRef *loom_calls_in(LLVMValueRef f, const char *name, size_t *n) {
  LLVMValueRef *out = NULL;
  size_t cnt = 0, cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (loom_is_call_to(i, name)) {
        if (cnt == cap) {
          cap = cap ? cap * 2 : 16;
          out = realloc(out, cap * sizeof *out);
        }
        out[cnt++] = i;
      }
  *n = cnt;
  return out;
}

LLVMValueRef loom_first_non_phi(LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && LLVMIsAPHINode(i))
    i = LLVMGetNextInstruction(i);
  return i;
}

void loom_replace_instruction(LLVMValueRef old, LLVMValueRef with) {
  LLVMReplaceAllUsesWith(old, with);
  size_t len;
  const char *name = LLVMGetValueName2(old, &len);
  char *copy = strndup(name, len);
  LLVMInstructionEraseFromParent(old);
  if (copy)
    LLVMSetValueName2(with, copy, len);
  free(copy);
}

void loom_phi_replace_block(LLVMBasicBlockRef bb, LLVMBasicBlockRef from,
                            LLVMBasicBlockRef to) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(bb))));
  LLVMValueRef phi = LLVMGetFirstInstruction(bb);
  while (phi && LLVMIsAPHINode(phi)) {
    LLVMValueRef next = LLVMGetNextInstruction(phi);
    unsigned n = LLVMCountIncoming(phi);
    bool uses = false;
    for (unsigned k = 0; k < n; k++)
      if (LLVMGetIncomingBlock(phi, k) == from)
        uses = true;
    if (uses) {
      /* the C API cannot retarget an incoming block, so rebuild the PHI */
      LLVMPositionBuilderBefore(b, phi);
      LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
      for (unsigned k = 0; k < n; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, k);
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(phi, k);
        if (ib == from)
          ib = to;
        if (ib)
          LLVMAddIncoming(np, &v, &ib, 1);
      }
      loom_replace_instruction(phi, np);
    }
    phi = next;
  }
  LLVMDisposeBuilder(b);
}

LLVMValueRef loom_clone_mapped(LLVMBuilderRef b, LLVMValueRef i,
                               LLVMValueRef (*map)(void *ctx, LLVMValueRef v), void *ctx) {
  LLVMValueRef cl = LLVMInstructionClone(i);
  int nops = LLVMGetNumOperands(i);
  for (int k = 0; k < nops; k++) {
    LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
    if (!LLVMValueIsBasicBlock(op))
      LLVMSetOperand(cl, (unsigned)k, map(ctx, op));
  }
  LLVMInsertIntoBuilder(b, cl);
  return cl;
}

void loom_copy_metadata(LLVMValueRef from, LLVMValueRef to) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(to));
  size_t n = 0;
  LLVMValueMetadataEntry *md = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &n);
  for (unsigned i = 0; i < (unsigned)n; i++)
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(md, i),
                    LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(md, i)));
  if (md)
    LLVMDisposeValueMetadataEntries(md);
}

void loom_move_instruction(LLVMBuilderRef b, LLVMValueRef i) {
  size_t len;
  const char *name = LLVMGetValueName2(i, &len);
  char small[64], *copy = len < sizeof small ? small : malloc(len + 1);
  if (copy) {
    memcpy(copy, name, len);
    copy[len] = 0;
  }
  LLVMInstructionRemoveFromParent(i);
  LLVMInsertIntoBuilderWithName(b, i, copy ? copy : "");
  if (copy != small)
    free(copy);
}

LLVMBasicBlockRef loom_split_block(LLVMBasicBlockRef bb, LLVMValueRef from) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(from));
  LLVMValueRef f = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(c, f, "");
  LLVMMoveBasicBlockAfter(nb, bb);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
  LLVMBasicBlockRef *succ = calloc(ns + 1, sizeof *succ);
  for (unsigned k = 0; k < ns; k++)
    succ[k] = LLVMGetSuccessor(term, k);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, nb);
  for (LLVMValueRef i = from, next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    loom_move_instruction(b, i);
  }
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMBuildBr(b, nb);
  LLVMDisposeBuilder(b);
  for (unsigned k = 0; k < ns; k++) {
    bool seen = false;
    for (unsigned j = 0; j < k; j++)
      seen |= succ[j] == succ[k];
    if (!seen)
      loom_phi_replace_block(succ[k], bb, nb);
  }
  free(succ);
  return nb;
}

LLVMValueRef loom_base_object(LLVMValueRef p) {
  for (int depth = 0; depth < 32 && p; depth++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

LLVMIntPredicate loom_swapped_predicate(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p;
  }
}

LLVMIntPredicate loom_inverse_predicate(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntUGT: return LLVMIntULE;
  default: return LLVMIntUGT; /* ULE */
  }
}

bool loom_signed_predicate(LLVMIntPredicate p) {
  return p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
}

LLVMValueRef loom_i64(LLVMContextRef c, uint64_t v) {
  return LLVMConstInt(LLVMInt64TypeInContext(c), v, 0);
}

void loom_add_fn_attr(LLVMValueRef f, const char *name) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, kind, 0));
}

void loom_add_fn_str_attr(LLVMValueRef f, const char *k, const char *v) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, k, strlen(k), v, strlen(v)));
}

void loom_remove_fn_attr(LLVMValueRef f, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}

static size_t ptr_hash(void *p, size_t cap) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbU;
  x ^= x >> 11;
  return x & (cap - 1);
}

void loom_ptrmap_put(struct loom_ptrmap *m, void *key, size_t val) {
  if ((m->count + 1) * 2 > m->cap) {
    struct loom_ptrmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = calloc(m->cap, sizeof(void *));
    m->vals = calloc(m->cap, sizeof(size_t));
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i])
        loom_ptrmap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
  }
  size_t h = ptr_hash(key, m->cap);
  while (m->keys[h] && m->keys[h] != key)
    h = (h + 1) & (m->cap - 1);
  if (!m->keys[h])
    m->count++;
  m->keys[h] = key;
  m->vals[h] = val;
}

bool loom_ptrmap_get(const struct loom_ptrmap *m, void *key, size_t *val) {
  if (!m->cap)
    return false;
  size_t h = ptr_hash(key, m->cap);
  while (m->keys[h]) {
    if (m->keys[h] == key) {
      if (val)
        *val = m->vals[h];
      return true;
    }
    h = (h + 1) & (m->cap - 1);
  }
  return false;
}

void loom_ptrmap_free(struct loom_ptrmap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static char *host_cpu, *host_features;

static void detect_host(void) {
  loom_llvm_init();
  host_cpu = LLVMGetHostCPUName();
  host_features = LLVMGetHostCPUFeatures();
}

void loom_host_target(struct loom_target *t) {
  pthread_once(&host_once, detect_host);
  t->cpu = host_cpu;
  t->features = host_features;
  t->simd_bytes = loom_has_target_feature(host_features, "avx512f") ? 64
                 : loom_has_target_feature(host_features, "avx")   ? 32
                                                                   : 16;
  t->fp64 = true;
}

/* ---- does a function's CFG contain a cycle? (iterative DFS, back edges) ---- */
struct block_map {
  LLVMBasicBlockRef *keys;
  unsigned char *color; /* 0 unseen, 1 on the DFS stack, 2 done */
  size_t cap;
};

static size_t block_slot(struct block_map *bm, LLVMBasicBlockRef b) {
  size_t h = ((uintptr_t)b >> 4) * 0x9E3779B97F4A7C15ull;
  for (size_t i = h & (bm->cap - 1);; i = (i + 1) & (bm->cap - 1))
    if (bm->keys[i] == b || bm->keys[i] == NULL) {
      bm->keys[i] = b;
      return i;
    }
}

bool loom_all_ones_mask(LLVMValueRef mask) {
  if (!LLVMIsConstant(mask) || LLVMIsAConstantExpr(mask) ||
      LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind)
    return false;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask));
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(mask, i);
    if (!e || !LLVMIsAConstantInt(e) || LLVMConstIntGetZExtValue(e) != 1)
      return false;
  }
  return true;
}

LLVMValueRef loom_shuffle_mask(LLVMValueRef sh) {
  unsigned n = LLVMGetNumMaskElements(sh);
  if (n > 128)
    return NULL;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(sh)));
  LLVMValueRef mask[128];
  for (unsigned i = 0; i < n; i++) {
    int m = LLVMGetMaskValue(sh, i);
    mask[i] = m == LLVMGetUndefMaskElem() ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)m, 0);
  }
  return LLVMConstVector(mask, n);
}

bool loom_has_cycle(LLVMValueRef f) {
  unsigned n = LLVMCountBasicBlocks(f);
  if (n == 0)
    return false;
  struct block_map bm;
  bm.cap = 16;
  while (bm.cap < 2 * (size_t)n)
    bm.cap *= 2;
  bm.keys = calloc(bm.cap, sizeof *bm.keys);
  bm.color = calloc(bm.cap, 1);
  struct frame {
    LLVMBasicBlockRef b;
    unsigned next;
  } *stack = malloc(n * sizeof *stack);
  size_t depth = 0;
  bool cycle = false;
  stack[depth++] = (struct frame){LLVMGetEntryBasicBlock(f), 0};
  bm.color[block_slot(&bm, stack[0].b)] = 1;
  while (depth && !cycle) {
    struct frame *fr = &stack[depth - 1];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(fr->b);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    if (fr->next == ns) {
      bm.color[block_slot(&bm, fr->b)] = 2;
      depth--;
      continue;
    }
    LLVMBasicBlockRef s = LLVMGetSuccessor(term, fr->next++);
    size_t slot = block_slot(&bm, s);
    if (bm.color[slot] == 1)
      cycle = true;
    else if (bm.color[slot] == 0) {
      bm.color[slot] = 1;
      stack[depth++] = (struct frame){s, 0};
    }
  }
  free(stack);
  free(bm.keys);
  free(bm.color);
  return cycle;
}

void loom_on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx) {
  struct loom_diag_sink *s = ctx;
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(info);
  if (sev == LLVMDSRemark && loom_cfg_str(LOOM_CFG_LLVM_ARGS)) {
    /* optimisation remarks asked for through LOOMCL_LLVM_ARGS */
    char *msg = LLVMGetDiagInfoDescription(info);
    fprintf(stderr, "loomcl remark: %s\n", msg);
    LLVMDisposeMessage(msg);
  }
  if (sev != LLVMDSError && sev != LLVMDSWarning)
    return;
  char *msg = LLVMGetDiagInfoDescription(info);
  loom_str_append(s->log, sev == LLVMDSError ? "error: " : "warning: ");
  loom_str_append(s->log, msg);
  loom_str_append(s->log, "\n");
  LLVMDisposeMessage(msg);
  if (sev == LLVMDSError)
    s->error = true;
}

/* Does the loop metadata on branch `term` name `what`? */
bool loom_loop_md_names(LLVMValueRef term, const char *what) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(term));
  LLVMValueRef md = LLVMGetMetadata(term, LLVMGetMDKindIDInContext(c, "llvm.loop", 9));
  if (!md)
    return false;
  unsigned n = LLVMGetMDNodeNumOperands(md);
  LLVMValueRef *ops = malloc((n ? n : 1) * sizeof *ops);
  if (!ops)
    return true;
  LLVMGetMDNodeOperands(md, ops);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    unsigned k = ops[i] && LLVMIsAMDNode(ops[i]) ? LLVMGetMDNodeNumOperands(ops[i]) : 0;
    if (k == 0)
      continue;
    /* LLVMGetMDNodeOperands writes all k of them */
    LLVMValueRef *sub = malloc(k * sizeof *sub);
    if (!sub)
      break;
    LLVMGetMDNodeOperands(ops[i], sub);
    unsigned len;
    const char *s = sub[0] ? LLVMGetMDString(sub[0], &len) : NULL;
    found = s && len == strlen(what) && !memcmp(s, what, len);
    free(sub);
  }
  free(ops);
  return found;
}
