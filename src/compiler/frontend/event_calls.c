/* Calls whose types disagree with the function they reach (pass
 * "link-builtins", after linking).
 *
 * The SPIRV-LLVM translator gives OpenCL C's event_t as a pointer
 * (`%opencl.event_t*`, `ptr` once LLVM 19 reads it), while the builtin
 * library, compiled by Clang 19, takes and returns target("spirv.Event").
 * A call like `ptr @async_work_group_copy(..., ptr null)` then reaches a
 * definition of another type: LLVM does not inline it, and the code
 * generator crashed on the target-typed parameter. LoomCL's events carry
 * nothing (an async copy is complete when it returns, builtins/async.cl), so
 * such a call is rebuilt with the definition's type, an event argument
 * passed as the null event and an event result read as a null pointer. Any
 * other call whose types disagree with its callee's where one side is a
 * target type is a build error, never a crash in the code generator. */
#include "frontend/frontend.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_event(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMTargetExtTypeKind)
    return false;
  char *s = LLVMPrintTypeToString(t);
  bool ev = strstr(s, "\"spirv.Event\"") != NULL;
  LLVMDisposeMessage(s);
  return ev;
}

static bool is_target(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMTargetExtTypeKind; }

/* what a call passing `have` where `want` is expected needs: 0 nothing,
 * 1 the null event in its place, -1 no repair */
static int bridge(LLVMTypeRef have, LLVMTypeRef want) {
  if (have == want)
    return 0;
  if (is_event(want) && LLVMGetTypeKind(have) == LLVMPointerTypeKind)
    return 1;
  return is_target(want) || is_target(have) ? -1 : 0;
}

/* one call to f of another type: rebuilt, or -1 */
static int fix_call(LLVMValueRef call, LLVMValueRef f, LLVMBuilderRef b, char **log) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(f), cty = LLVMGetCalledFunctionType(call);
  unsigned n = LLVMCountParamTypes(fty);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  LLVMTypeRef ret = LLVMGetReturnType(fty), cret = LLVMGetReturnType(cty);
  bool ok = n == nargs && !LLVMIsFunctionVarArg(fty);
  bool ret_event = ret != cret && is_event(ret) && LLVMGetTypeKind(cret) == LLVMPointerTypeKind;
  ok = ok && (ret == cret || ret_event || !(is_target(ret) || is_target(cret)));
  LLVMTypeRef *pt = malloc((n + 1) * sizeof *pt);
  LLVMValueRef *args = malloc((n + 1) * sizeof *args);
  LLVMGetParamTypes(fty, pt);
  bool changed = ret_event;
  for (unsigned i = 0; ok && i < n; i++) {
    LLVMValueRef a = LLVMGetOperand(call, i);
    int how = bridge(LLVMTypeOf(a), pt[i]);
    ok = how >= 0;
    args[i] = how == 1 ? LLVMConstNull(pt[i]) : a;
    changed |= how == 1;
  }
  int rc = 0;
  if (!ok) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    char msg[512];
    snprintf(msg, sizeof msg, "error: a call to '%.*s' passes types the function does not take\n",
             (int)(len > 300 ? 300 : len), name);
    loom_str_append(log, msg);
    rc = -1;
  } else if (changed) {
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef nc = LLVMBuildCall2(b, fty, f, args, n, "");
    LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(call));
    if (LLVMGetTypeKind(cret) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, ret_event ? LLVMConstNull(cret) : nc);
    LLVMInstructionEraseFromParent(call);
  }
  free(pt);
  free(args);
  return rc;
}

int loom_fix_event_calls(LLVMModuleRef m, char **log) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  int rc = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    /* the calls first: rebuilding them changes f's use list */
    size_t n = 0, cap = 0;
    LLVMValueRef *calls = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f ||
          LLVMGetCalledFunctionType(user) == LLVMGlobalGetValueType(f))
        continue;
      if (n == cap)
        calls = realloc(calls, (cap = cap ? 2 * cap : 8) * sizeof *calls);
      calls[n++] = user;
    }
    for (size_t i = 0; i < n && rc == 0; i++)
      rc = fix_call(calls[i], f, b, log);
    free(calls);
  }
  LLVMDisposeBuilder(b);
  return rc;
}
