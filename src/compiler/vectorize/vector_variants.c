/* Vector variants of the scalar math calls that remain in a kernel.
 *
 * The math builtins are branch-free OpenCL C that is inlined and widened
 * with the work-item loop, except for rarely taken paths kept out of line
 * (__loom_cold_*: the double sine family's huge arguments), called under a
 * condition. A kernel may also hold library calls that LLVM forms itself
 * (fmod for frem), and intrinsics that LLVM 19 does not widen (llvm.atan,
 * llvm.tanh, ...). The loop vectoriser refuses a loop holding
 * such a call, so a single call to one of them would leave the whole
 * work-item loop scalar. Each such callee gets vector variants here, for
 * 2 to 16 lanes, with and without a mask, that call it once per lane, and
 * the callee carries the
 * "vector-function-abi-variant" attribute that tells the vectoriser about
 * them. The loop around the call is then vectorised and only the call itself
 * runs lane by lane. */
#include "support/llvm_util.h"
#include "vectorize/vectorize.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* intrinsics that LLVM 19's vectoriser does not widen by itself */
static const char *const unwidened_intrinsics[] = {"llvm.tan.", "llvm.asin.", "llvm.acos.",
                                                   "llvm.atan.", "llvm.sinh.", "llvm.cosh.",
                                                   "llvm.tanh.", NULL};

#define VARIANT_ATTR "vector-function-abi-variant"

static bool is_fp(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

bool loom_is_cold_builtin(LLVMValueRef f) {
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  return len > 12 && !strncmp(name, "__loom_cold_", 12);
}

/* a function T f(T...) with T float or double and 1 to 3 parameters, that
 * is a library call, a builtin's out-of-line path or an intrinsic from the
 * list */
static bool wants_variants(LLVMValueRef f) {
  bool cold = loom_is_cold_builtin(f);
  if ((!LLVMIsDeclaration(f) && !cold) || !LLVMGetFirstUse(f))
    return false;
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  /* LoomCL's own helpers, except the builtins' out-of-line paths */
  if (len >= 7 && !strncmp(name, "__loom_", 7) && !cold)
    return false;
  if (LLVMGetIntrinsicID(f)) {
    bool listed = false;
    for (int i = 0; unwidened_intrinsics[i]; i++)
      listed |= !strncmp(name, unwidened_intrinsics[i], strlen(unwidened_intrinsics[i]));
    if (!listed)
      return false;
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  LLVMTypeRef ret = LLVMGetReturnType(fty);
  unsigned n = LLVMCountParamTypes(fty);
  if (!is_fp(ret) || n < 1 || n > 3 || LLVMIsFunctionVarArg(fty))
    return false;
  LLVMTypeRef params[3];
  LLVMGetParamTypes(fty, params);
  for (unsigned i = 0; i < n; i++)
    if (params[i] != ret)
      return false;
  return true;
}

/* <lanes x T> name(<lanes x T>... [, <lanes x i1> mask]): one call to f per
 * lane; with a mask, only the lanes whose bit is set call f (the vectoriser
 * uses these for calls under a condition, so that the other lanes do not
 * pay for them) */
static LLVMValueRef make_variant(LLVMModuleRef m, LLVMValueRef f, unsigned lanes, bool masked,
                                 const char *name) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  LLVMTypeRef vt = LLVMVectorType(LLVMGetReturnType(fty), lanes);
  LLVMTypeRef mt = LLVMVectorType(LLVMInt1TypeInContext(c), lanes);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef vparams[4] = {vt, vt, vt, vt};
  vparams[n] = mt;
  LLVMValueRef v = LLVMAddFunction(m, name, LLVMFunctionType(vt, vparams, n + masked, 0));
  /* external until the vectoriser has run: nothing calls it before, and
   * O3 would delete an unused internal function */
  LLVMSetLinkage(v, LLVMExternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c, v, "entry");
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMValueRef acc = LLVMGetPoison(vt);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  /* The calls of the scalar function inside a variant map it to itself at
   * one lane: no variant of any width the vectorisers ask for, so the SLP
   * vectoriser cannot turn them back into a call to this very function.
   * (An empty mapping did the same, but LLVM's verifier rejects it.) */
  size_t fname_len;
  const char *fname = LLVMGetValueName2(f, &fname_len);
  char self_map[300];
  snprintf(self_map, sizeof self_map, "_ZGV_LLVM_N1%.*s_%.*s(%.*s)", (int)n, "vvv",
           (int)fname_len, fname, (int)fname_len, fname);
  LLVMAttributeRef no_variants = LLVMCreateStringAttribute(
      c, VARIANT_ATTR, sizeof VARIANT_ATTR - 1, self_map, (unsigned)strlen(self_map));
  for (unsigned lane = 0; lane < lanes; lane++) {
    LLVMValueRef idx = LLVMConstInt(i32, lane, 0), args[3];
    LLVMBasicBlockRef from = bb, call_bb = NULL, join = NULL;
    if (masked) {
      call_bb = LLVMAppendBasicBlockInContext(c, v, "lane");
      join = LLVMAppendBasicBlockInContext(c, v, "next");
      LLVMValueRef bit = LLVMBuildExtractElement(b, LLVMGetParam(v, n), idx, "");
      LLVMBuildCondBr(b, bit, call_bb, join);
      LLVMPositionBuilderAtEnd(b, call_bb);
    }
    for (unsigned p = 0; p < n; p++)
      args[p] = LLVMBuildExtractElement(b, LLVMGetParam(v, p), idx, "");
    LLVMValueRef r = LLVMBuildCall2(b, fty, f, args, n, "");
    /* the one-lane self-mapping (above): the SLP vectoriser would otherwise
     * turn them back into a call to this very function */
    LLVMAddCallSiteAttribute(r, LLVMAttributeFunctionIndex, no_variants);
    LLVMValueRef with = LLVMBuildInsertElement(b, acc, r, idx, "");
    if (masked) {
      LLVMBuildBr(b, join);
      LLVMPositionBuilderAtEnd(b, join);
      LLVMValueRef phi = LLVMBuildPhi(b, vt, "");
      LLVMValueRef vals[2] = {acc, with};
      LLVMBasicBlockRef blocks[2] = {from, call_bb};
      LLVMAddIncoming(phi, vals, blocks, 2);
      with = phi;
      bb = join;
    }
    acc = with;
  }
  LLVMBuildRet(b, acc);
  LLVMDisposeBuilder(b);
  return v;
}

/* A call marked nobuiltin (a builtin calling another, as float4 sin calls
 * sin per component, compiled without builtins) gets no vector variants
 * from LLVM's vectoriser, which then left float4 sin's work-item loop
 * scalar; the marks mean nothing for these callees. */
static void allow_variants_at_calls(LLVMValueRef f) {
  unsigned nobuiltin = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f)
      continue;
    LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, nobuiltin);
    LLVMRemoveCallSiteStringAttribute(call, LLVMAttributeFunctionIndex, "no-builtins", 11);
  }
}

void loom_add_vector_variants(LLVMModuleRef m) {
  static const unsigned widths[] = {2, 4, 8, 16};
  enum { NW = sizeof widths / sizeof widths[0] };
  unsigned num_made = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!wants_variants(f) || num_made >= 64 * NW)
      continue;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len > 100)
      continue;
    unsigned n = LLVMCountParamTypes(LLVMGlobalGetValueType(f));
    char mapping[2 * NW * 256] = "", vname[160], one[300];
    for (unsigned w = 0; w < 2 * NW; w++) {
      bool masked = w >= NW;
      unsigned lanes = widths[w % NW];
      snprintf(vname, sizeof vname, "__loom_vec%u%s_%s", lanes, masked ? "m" : "", name);
      make_variant(m, f, lanes, masked, vname);
      num_made++;
      /* VFABI name: _ZGV, LLVM's own ISA token, N(o mask) or M(ask), lane
       * count, one vector token per parameter, the scalar name, the
       * variant's name */
      snprintf(one, sizeof one, "%s_ZGV_LLVM_%c%u%.*s_%s(%s)", w ? "," : "", masked ? 'M' : 'N',
               lanes, (int)n, "vvv", name, vname);
      strcat(mapping, one);
    }
    loom_add_fn_str_attr(f, VARIANT_ATTR, mapping);
    allow_variants_at_calls(f);
  }
}

static bool is_variant(LLVMValueRef v) {
  size_t len;
  const char *name = LLVMIsAFunction(v) ? LLVMGetValueName2(v, &len) : "";
  return strncmp(name, "__loom_vec", 10) == 0;
}

static bool is_masked_variant(LLVMValueRef v) {
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  const char *p = name + 10; /* past "__loom_vec" */
  while (*p >= '0' && *p <= '9')
    p++;
  return p[0] == 'm' && p[1] == '_';
}

/* A masked variant runs under a condition that is almost never true (the
 * out-of-line paths of the math builtins: huge arguments, NaNs): the call,
 * with the spills around it, cost sin 40% of its time when every lane's
 * mask was false. Each call is now skipped unless some lane is active; the
 * result, whose lanes the caller only reads where the mask is set, is
 * poison otherwise. */
static void guard_masked_calls(LLVMValueRef variant) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(variant));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (LLVMUseRef u = LLVMGetFirstUse(variant), next; u; u = next) {
    next = LLVMGetNextUse(u);
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != variant)
      continue;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    LLVMValueRef mask = LLVMGetOperand(call, nargs - 1);
    LLVMTypeRef mt = LLVMTypeOf(mask);
    if (LLVMGetTypeKind(mt) != LLVMVectorTypeKind)
      continue;
    LLVMBasicBlockRef head = LLVMGetInstructionParent(call);
    LLVMBasicBlockRef join = loom_split_block(head, call);
    LLVMValueRef fn = LLVMGetBasicBlockParent(head);
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(c, fn, "masked.call");
    LLVMMoveBasicBlockAfter(run, head);
    LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(head));
    LLVMPositionBuilderAtEnd(b, head);
    LLVMTypeRef bits = LLVMIntTypeInContext(c, LLVMGetVectorSize(mt));
    LLVMValueRef any = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildBitCast(b, mask, bits, ""),
                                     LLVMConstNull(bits), "any_lane");
    LLVMBuildCondBr(b, any, run, join);
    LLVMPositionBuilderAtEnd(b, run);
    loom_move_instruction(b, call);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(join));
    LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(call), "masked.result");
    LLVMReplaceAllUsesWith(call, phi);
    LLVMValueRef vals[2] = {call, LLVMGetPoison(LLVMTypeOf(call))};
    LLVMBasicBlockRef from[2] = {run, head};
    LLVMAddIncoming(phi, vals, from, 2);
  }
  LLVMDisposeBuilder(b);
}

void loom_drop_unused_vector_variants(LLVMModuleRef m) {
  LLVMValueRef f = LLVMGetFirstFunction(m);
  while (f) {
    LLVMValueRef next = LLVMGetNextFunction(f);
    if (is_variant(f)) {
      if (LLVMGetFirstUse(f)) {
        LLVMSetLinkage(f, LLVMInternalLinkage);
        if (is_masked_variant(f))
          guard_masked_calls(f);
      } else {
        LLVMDeleteFunction(f);
      }
    }
    f = next;
  }
}
