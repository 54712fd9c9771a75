/* lower-opaque-types: Clang 19 gives a SPIR target's image and sampler
 * types as target extension types (target("spirv.Image", ...),
 * target("spirv.Sampler")), which no instruction can look into. LoomCL's
 * contract (builtins/loom_image.h) is simpler: an image is a pointer to its
 * descriptor in the constant address space, a sampler its 32-bit CLK_* bit
 * field. This pass rewrites a program to that contract, before the builtin
 * library (whose image functions are defined with the lowered types under
 * Clang's mangled names) is linked:
 *   - every function whose signature has such a type is recreated with the
 *     lowered types (its body moved over, its metadata copied);
 *   - loads, stores, allocas, phis, selects and calls of those types are
 *     rebuilt with the lowered types;
 *   - __translate_sampler_initializer(bits), Clang's way of reading a
 *     `constant sampler_t` initialiser, becomes bits.
 * Other target types (events, pipes, queues) are left alone: the library
 * is compiled by the same Clang and takes them as they are. */
#include "frontend/frontend.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLER_INIT "__translate_sampler_initializer"
#define IMAGE_ADDRESS_SPACE 2 /* constant: the descriptor never changes in a launch */

struct lowering {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef b;
  struct loom_ptrmap map; /* old value -> index in `values` */
  LLVMValueRef *values;   /* the lowered values */
  size_t num_values, cap_values;
  LLVMValueRef *dead; /* old instructions, erased at the end */
  size_t num_dead, cap_dead;
  char **log;
  bool failed;
};

/* The lowered form of t, or NULL when t is not a type this pass lowers. */
static LLVMTypeRef lowered_type(LLVMContextRef c, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMTargetExtTypeKind)
    return NULL;
  const char *name = LLVMGetTargetExtTypeName(t);
  if (!strcmp(name, "spirv.Image"))
    return LLVMPointerTypeInContext(c, IMAGE_ADDRESS_SPACE);
  if (!strcmp(name, "spirv.Sampler"))
    return LLVMInt32TypeInContext(c);
  return NULL;
}

static bool is_lowered(struct lowering *l, LLVMTypeRef t) { return lowered_type(l->c, t) != NULL; }

static bool grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return true;
  size_t n = *cap ? *cap * 2 : 64;
  while (n < need)
    n *= 2;
  void *p = realloc(*arr, n * elem);
  if (!p)
    return false;
  *arr = p;
  *cap = n;
  return true;
}

static void fail(struct lowering *l, const char *what) {
  if (!l->failed) {
    loom_str_append(l->log, "error: ");
    loom_str_append(l->log, what);
    loom_str_append(l->log, "\n");
  }
  l->failed = true;
}

static void remember(struct lowering *l, LLVMValueRef old, LLVMValueRef now) {
  if (!grow((void **)&l->values, &l->cap_values, l->num_values + 1, sizeof *l->values)) {
    fail(l, "out of host memory lowering image types");
    return;
  }
  l->values[l->num_values] = now;
  loom_ptrmap_put(&l->map, old, l->num_values++);
}

static void bury(struct lowering *l, LLVMValueRef inst) {
  if (!grow((void **)&l->dead, &l->cap_dead, l->num_dead + 1, sizeof *l->dead)) {
    fail(l, "out of host memory lowering image types");
    return;
  }
  l->dead[l->num_dead++] = inst;
}

static bool has_lowered_signature(struct lowering *l, LLVMValueRef f) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(f);
  if (is_lowered(l, LLVMGetReturnType(ft)))
    return true;
  unsigned n = LLVMCountParamTypes(ft);
  LLVMTypeRef *params = n ? malloc(n * sizeof *params) : NULL;
  if (n && !params)
    return false;
  LLVMGetParamTypes(ft, params);
  bool any = false;
  for (unsigned i = 0; i < n && !any; i++)
    any = is_lowered(l, params[i]);
  free(params);
  return any;
}

static void copy_attributes(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx) {
  unsigned n = LLVMGetAttributeCountAtIndex(from, idx);
  if (!n)
    return;
  LLVMAttributeRef *attrs = malloc(n * sizeof *attrs);
  if (!attrs)
    return; /* attributes are hints; the function is right without them */
  LLVMGetAttributesAtIndex(from, idx, attrs);
  for (unsigned i = 0; i < n; i++)
    LLVMAddAttributeAtIndex(to, idx, attrs[i]);
  free(attrs);
}

/* Recreates f with lowered types, moves its body over and maps its
 * parameters; f stays behind, empty, until its calls are rebuilt. */
static LLVMValueRef recreate(struct lowering *l, LLVMValueRef f) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(f);
  unsigned n = LLVMCountParamTypes(ft);
  LLVMTypeRef *params = calloc(n + 1, sizeof *params);
  if (!params) {
    fail(l, "out of host memory lowering image types");
    return NULL;
  }
  LLVMGetParamTypes(ft, params);
  for (unsigned i = 0; i < n; i++)
    if (is_lowered(l, params[i]))
      params[i] = lowered_type(l->c, params[i]);
  LLVMTypeRef ret = LLVMGetReturnType(ft);
  bool ret_lowered = is_lowered(l, ret);
  LLVMTypeRef nft = LLVMFunctionType(ret_lowered ? lowered_type(l->c, ret) : ret, params, n,
                                     LLVMIsFunctionVarArg(ft));
  size_t len;
  const char *old_name = LLVMGetValueName2(f, &len);
  char *name = malloc(len + 1);
  if (name) {
    memcpy(name, old_name, len);
    name[len] = 0;
  }
  if (!name) {
    free(params);
    fail(l, "out of host memory lowering image types");
    return NULL;
  }
  LLVMSetValueName2(f, "", 0);
  LLVMValueRef nf = LLVMAddFunction(l->m, name, nft);
  free(name);
  LLVMSetLinkage(nf, LLVMGetLinkage(f));
  LLVMSetVisibility(nf, LLVMGetVisibility(f));
  LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(f));
  copy_attributes(f, nf, LLVMAttributeFunctionIndex);
  if (!ret_lowered)
    copy_attributes(f, nf, LLVMAttributeReturnIndex);
  for (unsigned i = 0; i < n; i++)
    if (!is_lowered(l, LLVMTypeOf(LLVMGetParam(f, i))))
      copy_attributes(f, nf, i + 1);
  size_t num_md;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(f, &num_md);
  for (size_t i = 0; i < num_md; i++)
    LLVMGlobalSetMetadata(nf, LLVMValueMetadataEntriesGetKind(md, i),
                          LLVMValueMetadataEntriesGetMetadata(md, i));
  if (md)
    LLVMDisposeValueMetadataEntries(md);
  free(params);

  if (!LLVMIsDeclaration(f)) {
    /* blocks move after a placeholder block, which then goes */
    LLVMBasicBlockRef anchor = LLVMAppendBasicBlockInContext(l->c, nf, "");
    LLVMBasicBlockRef last = anchor;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetFirstBasicBlock(f)) {
      LLVMMoveBasicBlockAfter(bb, last);
      last = bb;
    }
    LLVMDeleteBasicBlock(anchor);
  }
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef old = LLVMGetParam(f, i), now = LLVMGetParam(nf, i);
    size_t nlen;
    const char *pname = LLVMGetValueName2(old, &nlen);
    LLVMSetValueName2(now, pname, nlen);
    if (is_lowered(l, LLVMTypeOf(old)))
      remember(l, old, now);
    else
      LLVMReplaceAllUsesWith(old, now);
  }
  remember(l, f, nf);
  return nf;
}

static LLVMValueRef lower_value(struct lowering *l, LLVMValueRef v);

/* The call `call` rebuilt with lowered arguments and callee: its new
 * result, or (for __translate_sampler_initializer) the bit field. */
static LLVMValueRef rebuild_call(struct lowering *l, LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t len = 0;
  const char *cname = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
  unsigned n = LLVMGetNumArgOperands(call);
  if (len == strlen(SAMPLER_INIT) && !memcmp(cname, SAMPLER_INIT, len) && n == 1)
    return LLVMGetOperand(call, 0);
  size_t idx;
  LLVMValueRef target = loom_ptrmap_get(&l->map, callee, &idx) ? l->values[idx] : callee;
  if (target == callee && LLVMIsAFunction(callee) && has_lowered_signature(l, callee)) {
    fail(l, "internal: a function with image types was not rewritten");
    return NULL;
  }
  LLVMValueRef *args = calloc(n + 1, sizeof *args);
  if (!args) {
    fail(l, "out of host memory lowering image types");
    return NULL;
  }
  for (unsigned i = 0; i < n; i++)
    args[i] = lower_value(l, LLVMGetOperand(call, i));
  LLVMPositionBuilderBefore(l->b, call);
  LLVMTypeRef ft = LLVMIsAFunction(target) ? LLVMGlobalGetValueType(target)
                                           : LLVMGetCalledFunctionType(call);
  LLVMValueRef now = LLVMBuildCall2(l->b, ft, target, args, n, "");
  LLVMSetInstructionCallConv(now, LLVMGetInstructionCallConv(call));
  LLVMSetTailCall(now, LLVMIsTailCall(call));
  free(args);
  return now;
}

/* v with lowered types (v itself when its type is not lowered). */
static LLVMValueRef lower_value(struct lowering *l, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!is_lowered(l, t) || l->failed)
    return v;
  size_t idx;
  if (loom_ptrmap_get(&l->map, v, &idx))
    return l->values[idx];
  LLVMTypeRef nt = lowered_type(l->c, t);
  LLVMValueRef now = NULL;
  if (LLVMIsAConstant(v)) {
    now = LLVMIsPoison(v) ? LLVMGetPoison(nt) : LLVMIsUndef(v) ? LLVMGetUndef(nt) : LLVMConstNull(nt);
    remember(l, v, now);
    return now;
  }
  if (!LLVMIsAInstruction(v)) {
    fail(l, "internal: an image or sampler value of an unknown kind");
    return LLVMGetPoison(nt);
  }
  LLVMPositionBuilderBefore(l->b, v);
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
    now = LLVMBuildLoad2(l->b, nt, LLVMGetOperand(v, 0), "");
    LLVMSetAlignment(now, LLVMGetAlignment(v));
    LLVMSetVolatile(now, LLVMGetVolatile(v));
    break;
  case LLVMPHI: {
    now = LLVMBuildPhi(l->b, nt, "");
    remember(l, v, now); /* before the incoming values: they may lead back here */
    unsigned n = LLVMCountIncoming(v);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef in = lower_value(l, LLVMGetIncomingValue(v, i));
      LLVMBasicBlockRef bb = LLVMGetIncomingBlock(v, i);
      LLVMAddIncoming(now, &in, &bb, 1);
    }
    bury(l, v);
    return now;
  }
  case LLVMSelect: {
    LLVMValueRef a = lower_value(l, LLVMGetOperand(v, 1));
    LLVMValueRef b = lower_value(l, LLVMGetOperand(v, 2));
    LLVMPositionBuilderBefore(l->b, v);
    now = LLVMBuildSelect(l->b, LLVMGetOperand(v, 0), a, b, "");
    break;
  }
  case LLVMFreeze:
    now = lower_value(l, LLVMGetOperand(v, 0));
    break;
  case LLVMCall:
    now = rebuild_call(l, v);
    break;
  default:
    fail(l, "unsupported use of an image or sampler value (only loads, stores, calls, phis "
            "and selects are lowered)");
    return LLVMGetPoison(nt);
  }
  if (!now)
    return LLVMGetPoison(nt);
  remember(l, v, now);
  bury(l, v);
  return now;
}

/* Rebuilds the instructions of f that use lowered types without producing
 * them: stores of images, calls taking images, allocas of them. */
static void lower_body(struct lowering *l, LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !l->failed;
         i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (is_lowered(l, LLVMTypeOf(i))) {
        lower_value(l, i);
      } else if (op == LLVMStore && is_lowered(l, LLVMTypeOf(LLVMGetOperand(i, 0)))) {
        LLVMValueRef val = lower_value(l, LLVMGetOperand(i, 0));
        LLVMPositionBuilderBefore(l->b, i);
        LLVMValueRef st = LLVMBuildStore(l->b, val, LLVMGetOperand(i, 1));
        LLVMSetAlignment(st, LLVMGetAlignment(i));
        LLVMSetVolatile(st, LLVMGetVolatile(i));
        bury(l, i);
      } else if (op == LLVMAlloca && is_lowered(l, LLVMGetAllocatedType(i))) {
        LLVMPositionBuilderBefore(l->b, i);
        LLVMValueRef a = LLVMBuildAlloca(l->b, lowered_type(l->c, LLVMGetAllocatedType(i)), "");
        LLVMSetAlignment(a, LLVMGetAlignment(i));
        LLVMReplaceAllUsesWith(i, a);
        bury(l, i);
      } else if (op == LLVMCall) {
        LLVMValueRef callee = LLVMGetCalledValue(i);
        size_t idx;
        bool takes = loom_ptrmap_get(&l->map, callee, &idx);
        for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n && !takes; a++)
          takes = is_lowered(l, LLVMTypeOf(LLVMGetOperand(i, a)));
        if (takes) {
          LLVMValueRef now = rebuild_call(l, i);
          if (now) {
            LLVMReplaceAllUsesWith(i, now);
            bury(l, i);
          }
        }
      } else if (op == LLVMInvoke || op == LLVMExtractValue || op == LLVMInsertValue) {
        for (unsigned a = 0, n = LLVMGetNumOperands(i); a < n; a++)
          if (is_lowered(l, LLVMTypeOf(LLVMGetOperand(i, a))))
            fail(l, "unsupported use of an image or sampler value (in an aggregate)");
      }
    }
}

int loom_lower_opaque_types(LLVMModuleRef m, char **log) {
  struct lowering l = {.m = m, .c = LLVMGetModuleContext(m), .log = log};
  /* the functions to recreate, gathered first: recreating adds functions */
  size_t num = 0, cap = 0;
  LLVMValueRef *old = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    bool sampler_init = len == strlen(SAMPLER_INIT) && !memcmp(name, SAMPLER_INIT, len);
    if (has_lowered_signature(&l, f) && !sampler_init) {
      if (!grow((void **)&old, &cap, num + 1, sizeof *old)) {
        free(old);
        loom_str_append(log, "error: out of host memory lowering image types\n");
        return -1;
      }
      old[num++] = f;
    }
  }
  l.b = LLVMCreateBuilderInContext(l.c);
  for (size_t i = 0; i < num && !l.failed; i++)
    recreate(&l, old[i]);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !l.failed; f = LLVMGetNextFunction(f))
    lower_body(&l, f);
  /* the old instructions only feed each other now: cut them loose, then
   * erase them */
  for (size_t i = 0; i < l.num_dead; i++)
    if (LLVMGetTypeKind(LLVMTypeOf(l.dead[i])) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(l.dead[i], LLVMGetPoison(LLVMTypeOf(l.dead[i])));
  for (size_t i = 0; i < l.num_dead; i++)
    LLVMInstructionEraseFromParent(l.dead[i]);
  for (size_t i = 0; i < num && !l.failed; i++) {
    if (LLVMGetFirstUse(old[i]))
      fail(&l, "an image function's address is taken: not supported");
    else
      LLVMDeleteFunction(old[i]);
  }
  LLVMValueRef init = LLVMGetNamedFunction(m, SAMPLER_INIT);
  if (init && !LLVMGetFirstUse(init))
    LLVMDeleteFunction(init);
  LLVMDisposeBuilder(l.b);
  loom_ptrmap_free(&l.map);
  free(l.values);
  free(l.dead);
  free(old);
  return l.failed ? -1 : 0;
}
