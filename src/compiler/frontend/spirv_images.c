/* Images and samplers in modules read from SPIR-V, given the types
 * LoomCL's builtins and runtime use (builtins/loom_image.h).
 *
 * The SPIR-V translator (spirv.c) gives images the LLVM 15 type
 * `opencl.image2d_ro_t addrspace(1)*` and samplers
 * `opencl.sampler_t addrspace(2)*`, which LLVM 19 reads as plain
 * `ptr addrspace(1)` and `ptr addrspace(2)`; Clang 19 gives
 * target("spirv.Image") and target("spirv.Sampler"), which the pass
 * lower-opaque-types turns into what kernels receive: the address of the
 * image's descriptor (`ptr addrspace(2)`) and the sampler's CLK_* bits
 * (i32). This step makes translated modules look the same:
 *  - a kernel's image and sampler parameters (named by the kernel_arg_type
 *    metadata, as Clang's are) get those types: the kernel is rebuilt with
 *    them, and its body sees them cast back to the translator's types;
 *  - each call to an image builtin (a declaration whose mangled name
 *    mentions ocl_image or ocl_sampler) passes images as descriptor
 *    pointers and samplers as i32, through a declaration of the library's
 *    types;
 *  - `__translate_sampler_initializer(bits)` (a program-scope or literal
 *    sampler) becomes its bits.
 * The casts between the two forms fold away once the kernel is inlined. */
#include "frontend.h"
#include "support/util.h"
#include <stdlib.h>
#include <string.h>

enum { IMAGE_AS = 2, TRANSLATOR_IMAGE_AS = 1, TRANSLATOR_SAMPLER_AS = 2 };

static bool is_image_name(const char *s) {
  return !strncmp(s, "image", 5) && strstr(s, "_t") != NULL;
}

/* the kernel_arg_type string of parameter i of f (NULL if none) */
static char *arg_type(LLVMValueRef f, unsigned i) {
  unsigned n = 0;
  LLVMValueRef *ops = loom_md_operands(f, "kernel_arg_type", &n);
  unsigned len = 0;
  const char *s = i < n && ops[i] ? LLVMGetMDString(ops[i], &len) : NULL;
  char *out = s ? strndup(s, len) : NULL;
  free(ops);
  return out;
}

/* Rebuilds kernel f with image parameters as ptr addrspace(2) and sampler
 * parameters as i32, if it has any. */
static void retype_kernel(LLVMModuleRef m, LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned n = LLVMCountParams(f);
  LLVMTypeRef *types = calloc(n + 1, sizeof *types);
  char *changed = calloc(n + 1, 1); /* 'i' image, 's' sampler */
  bool any = false;
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(f, i));
    types[i] = t;
    char *name = arg_type(f, i);
    if (name && LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
      if (is_image_name(name) && LLVMGetPointerAddressSpace(t) == TRANSLATOR_IMAGE_AS) {
        types[i] = LLVMPointerTypeInContext(c, IMAGE_AS);
        changed[i] = 'i';
      } else if (!strncmp(name, "sampler_t", 9) &&
                 LLVMGetPointerAddressSpace(t) == TRANSLATOR_SAMPLER_AS) {
        types[i] = LLVMInt32TypeInContext(c);
        changed[i] = 's';
      }
    }
    any |= changed[i] != 0;
    free(name);
  }
  if (!any) {
    free(types), free(changed);
    return;
  }
  LLVMTypeRef fty = LLVMFunctionType(LLVMGetReturnType(LLVMGlobalGetValueType(f)), types, n, 0);
  size_t len;
  char *name = strdup(LLVMGetValueName2(f, &len));
  LLVMValueRef nf = LLVMAddFunction(m, "loomcl.spirv.retyped", fty);
  LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(f));
  LLVMSetLinkage(nf, LLVMGetLinkage(f));
  /* function attributes, and those of the parameters that kept their type */
  for (int idx = -1; idx <= (int)n; idx++) {
    LLVMAttributeIndex ai = idx < 0 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex
                                    : (LLVMAttributeIndex)idx;
    if (idx > 0 && changed[idx - 1])
      continue;
    unsigned count = LLVMGetAttributeCountAtIndex(f, ai);
    LLVMAttributeRef *attrs = calloc(count + 1, sizeof *attrs);
    LLVMGetAttributesAtIndex(f, ai, attrs);
    for (unsigned a = 0; a < count; a++)
      LLVMAddAttributeAtIndex(nf, ai, attrs[a]);
    free(attrs);
  }
  size_t num_md = 0;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(f, &num_md);
  for (size_t i = 0; i < num_md; i++)
    LLVMGlobalSetMetadata(nf, LLVMValueMetadataEntriesGetKind(md, (unsigned)i),
                          LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
  LLVMDisposeValueMetadataEntries(md);
  /* the body moves over; the old parameters become casts of the new */
  LLVMBasicBlockRef bb;
  while ((bb = LLVMGetFirstBasicBlock(f))) {
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(nf, bb);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(nf)));
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef old = LLVMGetParam(f, i), now = LLVMGetParam(nf, i), as_old = now;
    const char *pname = LLVMGetValueName2(old, &len);
    LLVMSetValueName2(now, pname, len);
    if (changed[i] == 'i')
      as_old = LLVMBuildAddrSpaceCast(b, now, LLVMTypeOf(old), "");
    else if (changed[i] == 's')
      as_old = LLVMBuildIntToPtr(b, LLVMBuildZExt(b, now, LLVMInt64TypeInContext(c), ""),
                                 LLVMTypeOf(old), "");
    LLVMReplaceAllUsesWith(old, as_old);
  }
  LLVMDisposeBuilder(b);
  LLVMDeleteFunction(f); /* kernels are not called from other functions here */
  LLVMSetValueName2(nf, name, strlen(name));
  free(name), free(types), free(changed);
}

/* Gives an image builtin's declaration the library's types and rewrites
 * its calls. */
static void retype_builtin(LLVMModuleRef m, LLVMValueRef f, const char *name) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  bool images = strstr(name, "ocl_image") != NULL, samplers = strstr(name, "ocl_sampler") != NULL;
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef *params = calloc(n + 1, sizeof *params), *types = calloc(n + 1, sizeof *types);
  LLVMGetParamTypes(fty, params);
  bool any = false;
  for (unsigned i = 0; i < n; i++) {
    types[i] = params[i];
    if (LLVMGetTypeKind(params[i]) != LLVMPointerTypeKind)
      continue;
    unsigned as = LLVMGetPointerAddressSpace(params[i]);
    if (images && as == TRANSLATOR_IMAGE_AS)
      types[i] = LLVMPointerTypeInContext(c, IMAGE_AS);
    else if (samplers && as == TRANSLATOR_SAMPLER_AS)
      types[i] = LLVMInt32TypeInContext(c);
    any |= types[i] != params[i];
  }
  if (!any) {
    free(params), free(types);
    return;
  }
  char *keep = strdup(name);
  LLVMSetValueName2(f, "loomcl.spirv.old", 16);
  LLVMValueRef nf =
      LLVMAddFunction(m, keep, LLVMFunctionType(LLVMGetReturnType(fty), types, n, 0));
  LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(f));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMUseRef next;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = next) {
    next = LLVMGetNextUse(u);
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f)
      continue;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef *args = calloc(n + 1, sizeof *args);
    for (unsigned i = 0; i < n; i++) {
      args[i] = LLVMGetOperand(call, i);
      if (types[i] == params[i])
        continue;
      if (LLVMGetTypeKind(types[i]) == LLVMPointerTypeKind)
        args[i] = LLVMBuildAddrSpaceCast(b, args[i], types[i], "");
      else
        args[i] = LLVMBuildTrunc(
            b, LLVMBuildPtrToInt(b, args[i], LLVMInt64TypeInContext(c), ""), types[i], "");
    }
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(nf), nf, args, n, "");
    LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(call));
    if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, nc);
    LLVMInstructionEraseFromParent(call);
    free(args);
  }
  LLVMDisposeBuilder(b);
  if (!LLVMGetFirstUse(f))
    LLVMDeleteFunction(f);
  free(keep), free(params), free(types);
}

/* __translate_sampler_initializer(i32 bits) -> its bits as the
 * translator's sampler pointer (the builtin calls then take the bits) */
static void fold_sampler_initializers(LLVMModuleRef m) {
  LLVMValueRef f = LLVMGetNamedFunction(m, "__translate_sampler_initializer");
  if (!f)
    return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMUseRef next;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = next) {
    next = LLVMGetNextUse(u);
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f || LLVMGetNumArgOperands(call) != 1)
      continue;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef bits = LLVMBuildZExt(b, LLVMGetOperand(call, 0), LLVMInt64TypeInContext(c), "");
    LLVMReplaceAllUsesWith(call, LLVMBuildIntToPtr(b, bits, LLVMTypeOf(call), ""));
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
  if (!LLVMGetFirstUse(f))
    LLVMDeleteFunction(f);
}

/* The functions of m that pick() accepts, in a malloc'd array (*n of them;
 * NULL when out of memory): the rewrites below add and delete functions,
 * so they work from a list made first. */
static LLVMValueRef *collect(LLVMModuleRef m, bool (*pick)(LLVMValueRef), size_t *n) {
  size_t cap = 16;
  LLVMValueRef *list = malloc(cap * sizeof *list);
  *n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && list; f = LLVMGetNextFunction(f)) {
    if (!pick(f))
      continue;
    if (*n == cap) {
      LLVMValueRef *grown = realloc(list, 2 * cap * sizeof *grown);
      if (!grown) {
        free(list);
        return NULL;
      }
      list = grown;
      cap *= 2;
    }
    list[(*n)++] = f;
  }
  return list;
}

static bool is_kernel_definition(LLVMValueRef f) {
  return !LLVMIsDeclaration(f) && loom_is_kernel(f);
}

/* a declaration of an image builtin: its mangled name mentions an image or
 * sampler type */
static bool is_image_builtin(LLVMValueRef f) {
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  return LLVMIsDeclaration(f) && !strncmp(name, "_Z", 2) &&
         (strstr(name, "ocl_image") || strstr(name, "ocl_sampler"));
}

void loom_spirv_lower_images(LLVMModuleRef m) {
  fold_sampler_initializers(m);
  size_t n;
  LLVMValueRef *kernels = collect(m, is_kernel_definition, &n);
  for (size_t i = 0; kernels && i < n; i++)
    retype_kernel(m, kernels[i]);
  free(kernels);
  /* the declarations after the kernels; a retyped one is added to the
   * module, and its image parameter, now in the sampler's address space,
   * must not be taken for a sampler by a second look */
  LLVMValueRef *decls = collect(m, is_image_builtin, &n);
  for (size_t i = 0; decls && i < n; i++) {
    size_t len;
    char *copy = strdup(LLVMGetValueName2(decls[i], &len));
    if (copy)
      retype_builtin(m, decls[i], copy);
    free(copy);
  }
  free(decls);
}
