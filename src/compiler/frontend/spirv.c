/* SPIR-V programs into the pipeline that OpenCL C takes.
 *
 * The route, and why: LoomCL reads SPIR-V with the Khronos SPIRV-LLVM
 * translator (Debian's llvm-spirv-15), run as a subprocess like Clang:
 *   1. spirv_module.c checks the module itself (header, lengths,
 *      capabilities, addressing) for precise errors, writes the values of
 *      specialization constants into it, and relabels SPIR-V 1.5 as 1.4
 *      (the translator's newest);
 *   2. `llvm-spirv-15 -r --spirv-target-env=CL2.0` turns it into LLVM 15
 *      bitcode in which SPIR-V's instructions and OpenCL.std calls are the
 *      OpenCL C builtins under their Itanium-mangled names, exactly the
 *      names LoomCL's builtin library defines;
 *   3. LLVM 19 reads that bitcode (upgrading typed pointers), the module is
 *      verified and given the data layout Clang 19 gives spir64, and it
 *      leaves here as the same kind of object clCompileProgram makes from
 *      OpenCL C: the builtin library, the work-group compiler and the
 *      vectoriser treat both alike.
 * A subprocess keeps a translator crash on a hostile module out of the
 * application (the log says the translator died); an in-process library
 * would also bring LLVM 15 into a process that runs LLVM 19. Writing a
 * SPIR-V reader of LoomCL's own would duplicate the translator's thousands
 * of mappings for no gain in speed: the bitcode after step 3 is what the
 * rest of the compiler optimises. */
#include "frontend.h"
#include "frontend/tool_spare.h"
#include "support/util.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what Clang 19 gives spir64-unknown-unknown, so that the module links with
 * the builtin library without a data layout mismatch */
#define SPIR64_DATA_LAYOUT                                                     \
  "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"

static const char *translator_path(void) {
  const char *p = loom_cfg_str(LOOM_CFG_SPIRV_TRANSLATOR);
  return p ? p : LOOMCL_SPIRV_TRANSLATOR_PATH;
}

/* SPIR-V says "this kernel does not write through that pointer" with the
 * NoWrite parameter attribute, which the translator gives back as
 * `readonly`, and leaves kernel_arg_type_qual empty; OpenCL C says it with
 * `const`, which LoomCL reads from that metadata (CL_KERNEL_ARG_TYPE_CONST:
 * the CPU driver prefetches the next work-groups' slices of const buffers,
 * cpu_ndrange.c). A readonly global pointer is given `const` here, so the
 * same kernel runs the same way from either language. */
static void mark_readonly_args_const(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned readonly = LLVMGetEnumAttributeKindForName("readonly", 8);
  unsigned kind = LLVMGetMDKindIDInContext(c, "kernel_arg_type_qual", 20);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !loom_is_kernel(f))
      continue;
    unsigned n = 0;
    LLVMValueRef *quals = loom_md_operands(f, "kernel_arg_type_qual", &n);
    if (!quals || n != LLVMCountParams(f)) {
      free(quals);
      continue;
    }
    bool changed = false;
    LLVMMetadataRef *ops = calloc(n, sizeof *ops);
    for (unsigned i = 0; ops && i < n; i++) {
      unsigned len = 0;
      const char *q = quals[i] ? LLVMGetMDString(quals[i], &len) : "";
      char buf[256], with[300];
      snprintf(buf, sizeof buf, "%.*s", (int)len, q ? q : "");
      const char *text = buf;
      LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(f, i));
      if (LLVMGetEnumAttributeAtIndex(f, i + 1, readonly) &&
          LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 1 &&
          !strstr(buf, "const")) {
        snprintf(with, sizeof with, "const%s%s", buf[0] ? " " : "", buf);
        text = with;
        changed = true;
      }
      ops[i] = LLVMMDStringInContext2(c, text, strlen(text));
    }
    if (ops && changed)
      LLVMGlobalSetMetadata(f, kind, LLVMMDNodeInContext2(c, ops, n));
    free(ops);
    free(quals);
  }
}

/* 0 when m is valid IR; else -1 and "error: SPIR-V: <what>: <why>" in *log */
static int verify(LLVMModuleRef m, const char *what, char **log) {
  char *msg = NULL;
  int rc = 0;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    loom_str_append(log, "error: SPIR-V: ");
    loom_str_append(log, what);
    loom_str_append(log, ": ");
    loom_str_append(log, msg ? msg : "");
    loom_str_append(log, "\n");
    rc = -1;
  }
  LLVMDisposeMessage(msg);
  return rc;
}

/* The translator's LLVM 15 bitcode, read by LLVM 19, checked and written
 * back as this LLVM's bitcode. */
static int upgrade(const struct loom_blob *in, struct loom_blob *out, char **log) {
  LLVMContextRef c = LLVMContextCreate();
  struct loom_diag_sink sink = {log, false};
  LLVMContextSetDiagnosticHandler(c, loom_on_diagnostic, &sink);
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)in->data, in->size, "spirv.bc");
  LLVMModuleRef m = NULL;
  int rc = 0;
  if (LLVMParseBitcodeInContext2(c, buf, &m)) {
    loom_str_append(log, "error: SPIR-V: the translator's output is not readable bitcode\n");
    rc = -1;
  }
  LLVMDisposeMemoryBuffer(buf);
  if (rc == 0)
    rc = verify(m, "the translated module is not valid IR", log);
  if (rc == 0) {
    loom_spirv_lower_images(m);
    loom_spirv_dynamic_dims(m);
    mark_readonly_args_const(m);
    rc = verify(m, "images and samplers could not be lowered", log);
  }
  if (rc == 0) {
    LLVMSetTarget(m, "spir64-unknown-unknown");
    LLVMSetDataLayout(m, SPIR64_DATA_LAYOUT);
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
    out->size = LLVMGetBufferSize(bc);
    out->data = malloc(out->size ? out->size : 1);
    if (out->data)
      memcpy(out->data, LLVMGetBufferStart(bc), out->size);
    else
      rc = -1;
    LLVMDisposeMemoryBuffer(bc);
  }
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(c);
  return rc;
}

int loom_compile_spirv(const void *il, size_t size, const struct loom_spec_value *spec,
                       size_t num_spec, const char *options, const struct loom_target *target,
                       struct loom_blob *bitcode, char **log) {
  (void)target; /* the module is target-independent until the link step */
  *log = strdup("");
  if (!*log)
    return -1;
  /* the build options are checked as for OpenCL C; those that only the
   * OpenCL C front end reads (-D, -I, -cl-std) have nothing to act on */
  struct loom_build_options o;
  if (loom_parse_compile_options(options, &o, log) != 0)
    return -2;
  loom_free_options(&o);

  uint32_t *words = NULL;
  size_t num_words = 0;
  struct loom_spirv_info info;
  if (loom_spirv_prepare(il, size, spec, num_spec, &words, &num_words, &info, log) != 0)
    return -1;
  loom_spirv_info_free(&info);
  char *dir = loom_make_temp_dir();
  if (!dir) {
    free(words);
    loom_str_append(log, "error: cannot create a temporary folder\n");
    return -1;
  }
  char in_path[4200], out_path[4200];
  snprintf(in_path, sizeof in_path, "%s/program.spv", dir);
  snprintf(out_path, sizeof out_path, "%s/program.bc", dir);
  int rc = loom_write_file(in_path, words, num_words * 4);
  free(words);
  if (rc == 0) {
    char *args[] = {"-r", "--spirv-target-env=CL2.0", in_path, "-o", out_path};
    rc = loom_tool_call(translator_path(), args, sizeof args / sizeof args[0],
                        "the SPIR-V translator", log);
  }
  struct loom_blob raw = {0};
  if (rc == 0 && loom_read_file(out_path, &raw) != 0) {
    loom_str_append(log, "error: SPIR-V: the translator wrote no module\n");
    rc = -1;
  }
  if (rc == 0)
    rc = upgrade(&raw, bitcode, log);
  loom_blob_free(&raw);
  loom_remove_temp_dir(dir);
  return rc;
}
