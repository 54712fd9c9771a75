/* Linking: the program's bitcode modules (clCompileProgram objects,
 * libraries, a clBuildProgram's one module) into one, then a library
 * (bitcode only) or an executable, whose module goes through the kernel
 * pipeline (pipeline.c). Also the link-time steps of that pipeline: the
 * builtin library, undefined functions, function preparation. */
#include "support/build_time.h"
#include "frontend/clang_overlap.h"
#include "backend/codegen.h"
#include "compiler.h"
#include "support/llvm_util.h"
#include "loom_abi.h"
#include "printf/printf.h"
#include "support/util.h"
#include "frontend/frontend.h"
#include "pipeline.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char loom_builtins_cpu[] LOOM_HIDDEN;
extern const size_t loom_builtins_cpu_size LOOM_HIDDEN;

static LLVMModuleRef parse(LLVMContextRef c, const void *data, size_t size, char **log) {
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, "loomcl-bitcode");
  LLVMModuleRef m = NULL;
  if (LLVMParseBitcodeInContext2(c, buf, &m)) {
    loom_str_append(log, "error: invalid bitcode\n");
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  return m;
}

/* The builtin library is read lazily and its definitions made linkonce_odr:
 * the linker then materialises and copies only the functions the program
 * references, so a small program links in a few milliseconds however large
 * the library grows. */
LLVMModuleRef loom_open_builtin_library(LLVMContextRef c, char **log) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)loom_builtins_cpu, loom_builtins_cpu_size, "loomcl-builtins", 0);
  LLVMModuleRef lib = NULL;
  if (LLVMGetBitcodeModuleInContext2(c, buf, &lib)) {
    loom_str_append(log, "error: the builtin library is corrupt\n");
    LLVMDisposeMemoryBuffer(buf);
    return NULL;
  }
  /* the lazy module owns buf from here on */
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  return lib;
}

static void to_blob(LLVMModuleRef m, struct loom_blob *out) {
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
  out->size = LLVMGetBufferSize(buf);
  out->data = malloc(out->size ? out->size : 1);
  memcpy(out->data, LLVMGetBufferStart(buf), out->size);
  LLVMDisposeMemoryBuffer(buf);
}

/* Calls into undefined OpenCL functions are link errors. */
int loom_check_undefined(LLVMModuleRef m, char **log) {
  int bad = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || !LLVMGetFirstUse(f))
      continue;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len > 7 && !strncmp(name, "__loom_", 7))
      continue;
    /* an overloaded placeholder of the builtin library (__loom_sgc) */
    if (len > 2 && !strncmp(name, "_Z", 2) && strstr(name, "__loom_"))
      continue;
    if (len > 2 && !strncmp(name, "_Z", 2)) {
      char buf[1200];
      snprintf(buf, sizeof buf, "error: undefined function '%.*s'\n", (int)(len > 1000 ? 1000 : len), name);
      loom_str_append(log, buf);
      bad = 1;
    } else {
      /* a non-mangled name: a user function declared but never defined */
      bool from_user = true;
      /* what LLVM's code generation may call (frem lowers to fmod) */
      static const char *const libm[] = {"fmodf", "fmod", "memcpy", "memset", "memmove", NULL};
      for (int i = 0; libm[i]; i++)
        if (strlen(libm[i]) == len && !strncmp(libm[i], name, len))
          from_user = false;
      if (from_user) {
        char buf[1200];
        snprintf(buf, sizeof buf, "error: undefined function '%.*s'\n", (int)(len > 1000 ? 1000 : len), name);
        loom_str_append(log, buf);
        bad = 1;
      }
    }
  }
  return bad ? -1 : 0;
}

/* Every function uses the C calling convention from here on; everything but
 * the kernels becomes internal and is inlined into them, except the
 * builtins' rarely taken paths (__loom_cold_*): kept out of line, they get
 * vector variants (vector_variants.c) so that a vectorised loop calls them
 * only for the lanes that need them. */
/* "The constant address space is a region of global memory that remains
 * constant during the execution of a kernel": __constant arguments and
 * variables, and the image descriptors (builtins/loom_image.h). Their loads
 * are marked !invariant.load, so that LLVM hoists them out of work-item
 * loops whatever the loops store: an image's width, pitch and data pointer
 * were reloaded for every pixel (masked gathers in a vectorised loop). */
enum { CONSTANT_ADDRESS_SPACE = 2 };

static void mark_invariant_load(LLVMValueRef load, unsigned kind, LLVMMetadataRef empty,
                                LLVMContextRef c) {
  LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(load, 0));
  if (LLVMGetPointerAddressSpace(pt) == CONSTANT_ADDRESS_SPACE && !LLVMGetVolatile(load))
    LLVMSetMetadata(load, kind, LLVMMetadataAsValue(c, empty));
}

void loom_prepare_functions(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned invariant = LLVMGetMDKindIDInContext(c, "invariant.load", 14);
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMMetadataRef empty = LLVMMDNodeInContext2(c, NULL, 0);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    bool kernel = loom_is_kernel(f);
    LLVMSetFunctionCallConv(f, LLVMCCallConv);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i)) {
          LLVMSetInstructionCallConv(i, LLVMCCallConv);
          /* the SPIR-V translator marks calls noinline (FunctionControl
           * DontInline, or a module built at -O0); a kernel calling
           * another kernel then kept the callee, with its work-item
           * placeholders unresolved (CTS kernel_call_kernel_function in
           * SPIR-V mode) */
          LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, noinline);
        }
        else if (LLVMIsALoadInst(i))
          mark_invariant_load(i, invariant, empty, c);
    if (LLVMIsDeclaration(f))
      continue;
    loom_remove_fn_attr(f, "optnone");
    if (loom_is_cold_builtin(f)) {
      loom_remove_fn_attr(f, "alwaysinline");
      loom_add_fn_attr(f, "noinline");
    } else {
      loom_remove_fn_attr(f, "noinline");
      loom_add_fn_attr(f, "alwaysinline");
    }
    /* the sub-group combine step stays until "wg-function" calls it
     * ("internalize" then makes it internal) */
    if (!kernel && strcmp(LLVMGetValueName(f), LOOM_SYM_SG_COMBINE) != 0)
      LLVMSetLinkage(f, LLVMInternalLinkage);
    else if (!kernel)
      LLVMSetLinkage(f, LLVMExternalLinkage);
  }
}

/* private variables that stayed in memory (CL_KERNEL_PRIVATE_MEM_SIZE) */
uint64_t loom_private_bytes(LLVMValueRef k, LLVMTargetDataRef td) {
  uint64_t total = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAAllocaInst(i)) {
        uint64_t n = 1;
        if (LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
          n = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
        total += n * LLVMABISizeOfType(td, LLVMGetAllocatedType(i));
      }
  return total;
}

/* The executable: the pipeline's build stage (pipeline.c), then its code
 * generation stage on a compile thread (backend/) or here. lib_ready: the
 * builtin library if already opened in m's context (taken). spec: NULL, or
 * the one kernel and local size to specialise for; then the code is
 * generated here. */
static int make_executable(LLVMModuleRef m, LLVMModuleRef *lib_ready,
                           const struct loom_build_options *opts,
                           const struct loom_target *target, struct loom_program_binary *out,
                           const struct loom_wg_spec *spec, char **log) {
  LLVMTargetMachineRef tm = loom_target_machine(target);
  if (!tm) {
    loom_str_append(log, "error: no code generator for this host\n");
    return -1;
  }
  struct loom_pipeline p = {
      .m = m,
      .tm = tm,
      .target = target,
      .opt_disable = opts->opt_disable,
      .spec = spec,
      .out = out,
      .lib = *lib_ready,
      .log = log,
  };
  *lib_ready = NULL;
  int rc = loom_pipeline_build(&p);
  bool any_outer = p.any_outer;
  loom_pipeline_finish(&p);
  if (rc == 0) {
    const char *dump = loom_cfg_str(LOOM_CFG_DUMP_IR);
    if (dump)
      LLVMPrintModuleToFile(m, dump, NULL);
    /* the code generation stage runs on a compile thread
     * (backend/codegen_jobs.c), unless the optimised IR is to be written out */
    if (!loom_cfg_str(LOOM_CFG_DUMP_IR_OPT) && !spec)
      out->pending = loom_codegen_start(m, out, target, opts->opt_disable, any_outer);
    if (!out->pending)
      rc = loom_pipeline_codegen(m, tm, opts->opt_disable, any_outer, &out->object, log);
  }
  /* kernels with barriers are specialised for their local size at their
   * first launch (core/variants.c; LOOMCL_SPECIALIZE=0: never): their
   * builtin library made ready */
  bool specialised_later = rc == 0 && !spec && !opts->opt_disable && loom_cfg_int(LOOM_CFG_SPECIALIZE) != 0;
  for (uint32_t i = 0; specialised_later && i < out->num_kernels; i++)
    if (out->kernels[i].num_barriers) {
      loom_library_prepare_spec();
      break;
    }
  LLVMDisposeTargetMachine(tm);
  return rc;
}

static int link_program(const struct loom_blob *const *inputs, size_t num_inputs,
                        const char *options, bool make_library,
                        const struct loom_target *target, struct loom_program_binary *out,
                        const struct loom_wg_spec *spec, char **log) {
  memset(out, 0, sizeof *out);
  if (!*log)
    *log = strdup("");
  struct loom_build_options opts;
  char *optlog = NULL;
  /* build options of clBuildProgram also arrive here; accept both kinds */
  bool bad = loom_parse_options(options, true, &opts, &optlog) != 0;
  if (bad) {
    free(optlog);
    optlog = NULL;
    bad = loom_parse_options(options, false, &opts, &optlog) != 0;
  }
  if (bad) {
    loom_str_append(log, optlog ? optlog : "error: invalid link options\n");
    free(optlog);
    return -2;
  }
  free(optlog);
  make_library = make_library || opts.create_library;
  LLVMModuleRef lib = NULL;
  /* a specialisation runs beside builds: a context of its own */
  LLVMContextRef c = spec ? loom_library_take_spec(&lib) : loom_library_take(&lib);
  struct loom_diag_sink sink = {log, false};
  LLVMContextSetDiagnosticHandler(c, loom_on_diagnostic, &sink);
  LLVMModuleRef m = NULL;
  int rc = 0;
  struct loom_timer t;
  loom_time_start(&t);
  for (size_t i = 0; i < num_inputs && rc == 0; i++) {
    LLVMModuleRef mi = parse(c, inputs[i]->data, inputs[i]->size, log);
    if (!mi) {
      rc = -1;
    } else if (!m) {
      m = mi;
    } else if (LLVMLinkModules2(m, mi) || sink.error) {
      rc = -1;
    }
  }
  if (rc == 0 && !m)
    rc = -1;
  if (rc == 0 && !spec)
    to_blob(m, &out->bitcode);
  if (rc == 0) {
    loom_time_phase(&t, "parse, link inputs, write");
    if (make_library) {
      out->kind = LOOM_BINARY_LIBRARY;
      LLVMTargetMachineRef tm = loom_target_machine(target);
      LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
      loom_kernel_meta_from_module(m, td, true, out);
      LLVMDisposeTargetData(td);
      LLVMDisposeTargetMachine(tm);
    } else {
      out->kind = LOOM_BINARY_EXECUTABLE;
      rc = make_executable(m, &lib, &opts, target, out, spec, log);
      if (rc == 0 && sink.error)
        rc = -1;
    }
  }
  if (lib)
    LLVMDisposeModule(lib);
  /* pending code generation owns the module and its context */
  if (!out->pending) {
    if (m)
      LLVMDisposeModule(m);
    LLVMContextDispose(c);
  }
  loom_free_options(&opts);
  out->options = strdup(options ? options : "");
  return rc;
}

int loom_link_program(const struct loom_blob *const *inputs, size_t num_inputs,
                      const char *options, bool make_library,
                      const struct loom_target *target,
                      struct loom_program_binary *out, char **log) {
  return link_program(inputs, num_inputs, options, make_library, target, out, NULL, log);
}

int loom_specialize_kernel(const struct loom_blob *bitcode, const char *options,
                           const struct loom_target *target, const char *kernel,
                           const uint64_t local[3], const struct loom_spec_args *args,
                           struct loom_program_binary *out, char **log) {
  struct loom_wg_spec spec = {.kernel = kernel, .local = {local[0], local[1], local[2]}};
  if (args)
    spec.args = *args;
  const struct loom_blob *inputs[1] = {bitcode};
  int rc = link_program(inputs, 1, options, false, target, out, &spec, log);
  if (rc == 0) {
    assert(!out->pending); /* a specialisation generates its code at once */
    loom_blob_free(&out->bitcode);
  } else {
    loom_program_binary_free(out);
  }
  return rc;
}

int loom_bitcode_kernel_meta(const struct loom_blob *bitcode, bool arg_names,
                             struct loom_program_binary *out) {
  LLVMContextRef c = LLVMContextCreate();
  char *log = NULL;
  struct loom_diag_sink sink = {&log, false}; /* a damaged binary must not exit */
  LLVMContextSetDiagnosticHandler(c, loom_on_diagnostic, &sink);
  LLVMModuleRef m = parse(c, bitcode->data, bitcode->size, &log);
  free(log);
  int rc = -1;
  if (m) {
    struct loom_target t = {.cpu = "", .features = ""};
    LLVMTargetMachineRef tm = loom_target_machine(&t);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    rc = loom_kernel_meta_from_module(m, td, arg_names, out);
    LLVMDisposeTargetData(td);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(c);
  return rc;
}
