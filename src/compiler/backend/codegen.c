/* The code generation stage of the pipeline (pipeline.c), off the build's
 * critical path, and object emission.
 *
 * O3 and instruction selection are most of a cold build's time. Once the
 * work-group transformation is done, every build error and every piece of
 * kernel metadata is known, so clBuildProgram hands the module (with its
 * LLVM context) to a compile thread and returns; codegen_jobs.c says who
 * waits for the code and when. The module is handed over as it is: written
 * to bitcode and read back (to split a program into one module per kernel
 * and compile those in parallel, say), its use lists would come back in
 * another order, and O3 is sensitive to that order, giving other (for the
 * tiled GEMM kernels slower) code than a build that does not wait. */
#include "backend/codegen_internal.h"
#include "pipeline.h"
#include "support/build_time.h"
#include "frontend/clang_overlap.h"
#include "target/x86/half_lower.h"
#include "support/llvm_util.h"
#include "support/util.h"
#include "workgroup/workgroup.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* LOOMCL_DUMP_ASM=<file>: the generated code as assembly, appended to the
 * file for every module compiled (a program, then each kernel specialised
 * for its local size). Emitted from a copy: code generation rewrites the
 * IR it is given (CodeGenPrepare), and the object must come from the
 * module as optimised. */
static void dump_assembly(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  const char *path = loom_cfg_str(LOOM_CFG_DUMP_ASM);
  if (!path)
    return;
  LLVMModuleRef copy = LLVMCloneModule(m);
  char *err = NULL;
  LLVMMemoryBufferRef text = NULL;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMAssemblyFile, &err, &text)) {
    /* compile threads append whole modules, one at a time */
    static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&file_lock);
    FILE *f = fopen(path, "a");
    if (f) {
      fputs("# LoomCL module:", f);
      for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && LLVMGetLinkage(fn) == LLVMExternalLinkage)
          fprintf(f, " %s", LLVMGetValueName(fn));
      fputc('\n', f);
      fwrite(LLVMGetBufferStart(text), 1, LLVMGetBufferSize(text), f);
      fclose(f);
    }
    pthread_mutex_unlock(&file_lock);
    LLVMDisposeMemoryBuffer(text);
  }
  LLVMDisposeMessage(err);
  LLVMDisposeModule(copy);
}

int loom_emit_object(LLVMModuleRef m, LLVMTargetMachineRef tm, struct loom_blob *object,
                     char **log) {
  struct loom_timer t;
  loom_time_start(&t);
  const char *dump = loom_cfg_str(LOOM_CFG_DUMP_IR_OPT);
  if (dump)
    LLVMPrintModuleToFile(m, dump, NULL);
  dump_assembly(m, tm);
  int rc = 0;
  char *err = NULL;
  LLVMMemoryBufferRef obj = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &obj)) {
    loom_str_append(log, "error: code generation failed: ");
    loom_str_append(log, err ? err : "");
    loom_str_append(log, "\n");
    rc = -1;
  }
  LLVMDisposeMessage(err);
  if (obj) {
    object->size = LLVMGetBufferSize(obj);
    object->data = malloc(object->size ? object->size : 1);
    if (object->data)
      memcpy(object->data, LLVMGetBufferStart(obj), object->size);
    else
      rc = -1;
    LLVMDisposeMemoryBuffer(obj);
  }
  loom_time_phase(&t, "code generation");
  return rc;
}

/* Errors fail the job. Warnings are dropped: the build log is complete by
 * now, and the optimiser's only warnings are about loops it could not
 * vectorise. Remarks asked for through LOOMCL_LLVM_ARGS go to stderr. */
void loom_codegen_on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx) {
  char **log = ctx;
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(info);
  if (sev == LLVMDSRemark && loom_cfg_str(LOOM_CFG_LLVM_ARGS)) {
    char *msg = LLVMGetDiagInfoDescription(info);
    fprintf(stderr, "loomcl remark: %s\n", msg);
    LLVMDisposeMessage(msg);
  }
  if (sev != LLVMDSError)
    return;
  char *msg = LLVMGetDiagInfoDescription(info);
  loom_str_append(log, "error: ");
  loom_str_append(log, msg);
  loom_str_append(log, "\n");
  LLVMDisposeMessage(msg);
}


/* what O3 and code generation of a program may take beyond its module */
#define CODEGEN_HEADROOM ((uint64_t)256 << 20)

void loom_codegen_compile(struct loom_codegen *cg) {
  int rc = -1;
  if (!loom_memory_headroom(CODEGEN_HEADROOM)) {
    loom_str_append(&cg->log, "error: not enough memory to generate code (the address space "
                              "limit, RLIMIT_AS, leaves too little)\n");
    LLVMDisposeModule(cg->module);
    LLVMContextDispose(cg->ctx);
    cg->module = NULL;
    cg->ctx = NULL;
    fprintf(stderr, "LoomCL: code generation failed: %s", cg->log);
    cg->rc = -1;
    return;
  }
  struct loom_target target = {.cpu = cg->cpu, .features = cg->features};
  LLVMTargetMachineRef tm = loom_target_machine(&target);
  if (tm) {
    rc = loom_codegen_in_parts(cg, tm);
    if (rc == LOOM_CODEGEN_WHOLE)
      rc = loom_pipeline_codegen(cg->module, tm, cg->opt_disable, cg->any_outer, &cg->object,
                                 &cg->log);
    LLVMDisposeTargetMachine(tm);
  }
  LLVMDisposeModule(cg->module);
  LLVMContextDispose(cg->ctx);
  cg->module = NULL;
  cg->ctx = NULL;
  if (rc == 0 && (cg->log || !cg->object.size))
    rc = -1;
  if (rc != 0)
    fprintf(stderr, "LoomCL: code generation failed%s%s", cg->log ? ": " : "\n",
            cg->log ? cg->log : "");
  cg->rc = rc;
}

void loom_codegen_free(struct loom_codegen *cg) {
  if (cg->module)
    LLVMDisposeModule(cg->module);
  if (cg->ctx)
    LLVMContextDispose(cg->ctx);
  loom_blob_free(&cg->object);
  loom_blob_free(&cg->cache_entry);
  free(cg->log);
  free(cg->cpu);
  free(cg->features);
  free(cg);
}

struct loom_codegen *loom_codegen_start(LLVMModuleRef m, const struct loom_program_binary *bin,
                                        const struct loom_target *target, bool opt_disable,
                                        bool any_outer) {
  if (bin->num_kernels == 0 || !loom_codegen_async())
    return NULL;
  /* the compile threads start after LLVM's code generator ran once here */
  loom_codegen_warm_up(target);
  struct loom_codegen *cg = calloc(1, sizeof *cg);
  if (!cg)
    return NULL;
  cg->module = m;
  cg->ctx = LLVMGetModuleContext(m);
  cg->cpu = strdup(target->cpu ? target->cpu : "");
  cg->features = strdup(target->features ? target->features : "");
  if (!cg->cpu || !cg->features) {
    free(cg->cpu);
    free(cg->features);
    free(cg);
    return NULL; /* the caller generates the code itself */
  }
  cg->opt_disable = opt_disable;
  cg->any_outer = any_outer;
  /* the build's handler points into the caller's frame */
  LLVMDiagnosticHandler handler = LLVMContextGetDiagnosticHandler(cg->ctx);
  void *handler_ctx = LLVMContextGetDiagnosticContext(cg->ctx);
  LLVMContextSetDiagnosticHandler(cg->ctx, loom_codegen_on_diagnostic, &cg->log);
  if (!loom_codegen_submit(cg)) {
    LLVMContextSetDiagnosticHandler(cg->ctx, handler, handler_ctx);
    cg->module = NULL; /* still the caller's */
    cg->ctx = NULL;
    loom_codegen_free(cg);
    return NULL;
  }
  return cg;
}
