/* A work-group function specialised for one local size (the runtime asks
 * for it once a kernel is launched again with that size: core/variants.c),
 * and for the formats of its images and the bits of its samplers.
 *
 * The local size becomes constants where the function reads it from its
 * context, so O3 sees the work-item loops' trip counts: a 16-wide row of a
 * 16x16 group becomes one vector iteration, loop-invariant tile rows stay
 * in registers across rows, loops over the group's size unroll. Groups of
 * another size (the trailing groups of a non-uniform launch) keep running
 * the generic function, which stays in the program's code beside this one.
 *
 * The new code is loaded into the program's JITDylib next to the generic
 * code, so everything but the specialised work-group function is made
 * internal to avoid duplicate definitions. Programs with writable global
 * variables are not specialised: each object would get its own copy. */
#include "loom_image.h"
#include "support/util.h"
#include "workgroup/workgroup.h"
#include <stdio.h>
#include <string.h>

/* the context slot a load reads, if it reads one (-1 otherwise) */
static int ctx_slot(LLVMValueRef load, LLVMValueRef ctx) {
  LLVMValueRef p = LLVMGetOperand(load, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != ctx || LLVMGetNumOperands(p) != 2)
    return -1;
  LLVMValueRef off = LLVMGetOperand(p, 1);
  if (!LLVMIsAConstantInt(off))
    return -1;
  long long bytes = LLVMConstIntGetSExtValue(off);
  return bytes >= 0 && bytes % 8 == 0 ? (int)(bytes / 8) : -1;
}

/* replaces the loads of the local size (and the enqueued one, the same for
 * the groups this function runs) by constants */
static void fix_local_size(LLVMValueRef wg, const uint64_t local[3]) {
  LLVMValueRef ctx = LLVMGetParam(wg, 1);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      int slot = LLVMIsALoadInst(in) && LLVMTypeOf(in) == i64 ? ctx_slot(in, ctx) : -1;
      int d = slot >= LOOM_CTX_LOCAL_SIZE && slot < LOOM_CTX_LOCAL_SIZE + 3 ? slot - LOOM_CTX_LOCAL_SIZE
              : slot >= LOOM_CTX_ENQ_LOCAL_SIZE && slot < LOOM_CTX_ENQ_LOCAL_SIZE + 3
                  ? slot - LOOM_CTX_ENQ_LOCAL_SIZE
                  : -1;
      if (d >= 0) {
        LLVMReplaceAllUsesWith(in, LLVMConstInt(i64, local[d], 0));
        LLVMInstructionEraseFromParent(in);
      }
      in = next;
    }
  }
}

/* The loads of kernel argument `offset` (bytes into the argument buffer,
 * the work-group function's first parameter): n of them into out. */
static size_t arg_loads(LLVMValueRef wg, uint32_t offset, LLVMValueRef *out, size_t max) {
  LLVMValueRef args = LLVMGetParam(wg, 0);
  size_t n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && n < max;
         in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsALoadInst(in))
        continue;
      LLVMValueRef p = LLVMGetOperand(in, 0);
      long long off = -1;
      if (p == args)
        off = 0;
      else if (LLVMIsAGetElementPtrInst(p) && LLVMGetOperand(p, 0) == args &&
               LLVMGetNumOperands(p) == 2 && LLVMIsAConstantInt(LLVMGetOperand(p, 1)))
        off = LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1));
      if (off == (long long)offset)
        out[n++] = in;
    }
  return n;
}

/* Replaces the i32 loads at byte `field` of descriptor `desc` (a loaded
 * image argument, through a constant GEP) by value. */
static void fix_field(LLVMValueRef desc, long long field, int32_t value) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(desc)));
  for (LLVMUseRef u = LLVMGetFirstUse(desc); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef gep = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetOperand(gep, 0) != desc ||
        LLVMGetNumOperands(gep) != 2 || !LLVMIsAConstantInt(LLVMGetOperand(gep, 1)) ||
        LLVMConstIntGetSExtValue(LLVMGetOperand(gep, 1)) != field ||
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(gep)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMGetGEPSourceElementType(gep)) != 8)
      continue;
    LLVMUseRef next;
    for (LLVMUseRef v = LLVMGetFirstUse(gep); v; v = next) {
      next = LLVMGetNextUse(v);
      LLVMValueRef load = LLVMGetUser(v);
      if (LLVMIsALoadInst(load) && LLVMTypeOf(load) == i32 && !LLVMGetVolatile(load)) {
        LLVMReplaceAllUsesWith(load, LLVMConstInt(i32, (unsigned long long)(uint32_t)value, 0));
        LLVMInstructionEraseFromParent(load);
      }
    }
  }
}

/* the image and sampler arguments of spec as constants */
static void fix_args(LLVMValueRef wg, const struct loom_kernel_meta *km,
                     const struct loom_spec_args *args) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(wg)));
  for (uint32_t i = 0; i < args->num && i < LOOM_SPEC_MAX_ARGS; i++) {
    const struct loom_spec_arg *a = &args->arg[i];
    if (a->index >= km->num_args)
      continue;
    const struct loom_arg_meta *am = &km->args[a->index];
    LLVMValueRef loads[16];
    size_t n = arg_loads(wg, am->offset, loads, 16);
    for (size_t l = 0; l < n; l++) {
      if (a->is_sampler && am->kind == LOOM_ARG_SAMPLER && LLVMTypeOf(loads[l]) == i32) {
        LLVMReplaceAllUsesWith(loads[l], LLVMConstInt(i32, (uint32_t)a->sampler_bits, 0));
        LLVMInstructionEraseFromParent(loads[l]);
      } else if (!a->is_sampler && am->kind == LOOM_ARG_IMAGE) {
        fix_field(loads[l], LOOM_IMAGE_OFFSET_CHANNEL_ORDER, a->channel_order);
        fix_field(loads[l], LOOM_IMAGE_OFFSET_CHANNEL_TYPE, a->channel_type);
        fix_field(loads[l], LOOM_IMAGE_OFFSET_PIXEL_SIZE, a->pixel_size);
        fix_field(loads[l], LOOM_IMAGE_OFFSET_NUM_CHANNELS, a->num_channels);
        fix_field(loads[l], LOOM_IMAGE_OFFSET_IMAGE_TYPE, a->image_type);
      }
    }
  }
}

/* __local variables are globals of this address space until the
 * work-group transformation gives them offsets in the group's memory */
enum { LOCAL_ADDRESS_SPACE = 3 };

bool loom_has_writable_globals(LLVMModuleRef m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && !LLVMIsGlobalConstant(g) &&
        LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != LOCAL_ADDRESS_SPACE)
      return true;
  return false;
}

void loom_wg_spec_symbol(const char *kernel, const uint64_t local[3],
                         const struct loom_spec_args *args, char *out, size_t size) {
  if (!args || !args->num) {
    snprintf(out, size, "%s.l%llux%llux%llu", kernel, (unsigned long long)local[0],
             (unsigned long long)local[1], (unsigned long long)local[2]);
    return;
  }
  /* FNV-1a of the argument constants: the names only have to differ; the
   * kernel name is cut first, so that the suffixes always fit */
  uint32_t h = 2166136261u;
  const unsigned char *bytes = (const unsigned char *)args;
  for (size_t i = 0; i < sizeof *args; i++)
    h = (h ^ bytes[i]) * 16777619u;
  char suffix[96];
  int n = snprintf(suffix, sizeof suffix, ".l%llux%llux%llu.a%08x", (unsigned long long)local[0],
                   (unsigned long long)local[1], (unsigned long long)local[2], (unsigned)h);
  int room = (int)size - 1 - n;
  snprintf(out, size, "%.*s%s", room > 0 ? room : 0, kernel, suffix);
}

int loom_wg_specialize(LLVMModuleRef m, const struct loom_kernel_meta *kernels, uint32_t n,
                       const struct loom_wg_spec *spec, char **log) {
  LLVMValueRef wg = NULL;
  const struct loom_kernel_meta *km = NULL;
  for (uint32_t i = 0; i < n; i++) {
    LLVMValueRef f = loom_wg_function_of(m, kernels[i].name);
    if (!f)
      continue;
    if (!strcmp(kernels[i].name, spec->kernel)) {
      wg = f;
      km = &kernels[i];
    }
    else
      LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  if (!wg) {
    loom_str_append(log, "error: no such kernel to specialise\n");
    return -1;
  }
  if (loom_has_writable_globals(m)) {
    loom_str_append(log, "error: a program with writable global variables is not specialised\n");
    return -1;
  }
  fix_local_size(wg, spec->local);
  fix_args(wg, km, &spec->args);
  char name[LOOM_SPEC_SYMBOL_MAX + sizeof LOOM_WG_SUFFIX];
  loom_wg_spec_symbol(spec->kernel, spec->local, &spec->args, name, LOOM_SPEC_SYMBOL_MAX);
  strcat(name, LOOM_WG_SUFFIX);
  LLVMSetValueName2(wg, name, strlen(name));
  return 0;
}
