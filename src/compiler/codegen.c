/* Optimisation and code generation of the work-group functions, off the
 * build's critical path.
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
#include "codegen_internal.h"
#include "build_time.h"
#include "clang_overlap.h"
#include "half_lower.h"
#include "llvm_util.h"
#include "util.h"
#include "wg_internal.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LOOMCL_DUMP_ASM=<file>: the generated code as assembly, appended to the
 * file for every module compiled (a program, then each kernel specialised
 * for its local size). Emitted from a copy: code generation rewrites the
 * IR it is given (CodeGenPrepare), and the object must come from the
 * module as optimised. */
static void dump_assembly(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  const char *path = getenv("LOOMCL_DUMP_ASM");
  if (!path || !*path)
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

int loom_optimize_and_emit(LLVMModuleRef m, LLVMTargetMachineRef tm, bool opt_disable,
                           bool any_outer, struct loom_blob *object, char **log) {
  struct loom_timer t;
  loom_time_start(&t);
  int rc = 0;
  char *features = LLVMGetTargetMachineFeatureString(tm);
  if (!opt_disable)
    loom_mark_rsqrt_divisions(m, features);
  /* LLVM's loop vectoriser cannot widen OpenCL vector values (it would
   * need vectors of vectors), neither in an innermost work-item loop nor in
   * the outer loops VPlan's native path takes: split them into scalars
   * first, and the vectoriser re-vectorises them across work-items
   * (scalarize_choice.c says when not to). */
  if (any_outer || (!opt_disable && loom_scalarize_kernel_vectors(m)))
    rc = loom_run_passes(m, "function(scalarizer,instcombine<no-verify-fixpoint>)", tm);
  if (rc == 0)
    rc = loom_run_passes(m, opt_disable ? "default<O1>" : "default<O3>", tm);
  loom_time_phase(&t, "O3");
  if (rc == 0 && any_outer && loom_scalarize_uniform_vector_phis(m))
    rc = loom_run_passes(m, "function(instcombine<no-verify-fixpoint>,early-cse,simplifycfg)", tm);
  if (rc == 0) {
    loom_lower_half_ops(m);
    loom_drop_unused_vector_variants(m);
    if (!opt_disable) {
      loom_stream_large_stores(m);
      loom_fast_rsqrt(m, features);
      loom_combine_atomic_adds(m);
    }
  }
  LLVMDisposeMessage(features);
  if (getenv("LOOMCL_DUMP_IR_OPT"))
    LLVMPrintModuleToFile(m, getenv("LOOMCL_DUMP_IR_OPT"), NULL);
  loom_time_phase(&t, "after O3, half lowering");
  if (rc == 0)
    dump_assembly(m, tm);
  char *err = NULL;
  LLVMMemoryBufferRef obj = NULL;
  if (rc == 0 && LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &obj)) {
    loom_str_append(log, "error: code generation failed: ");
    loom_str_append(log, err ? err : "");
    loom_str_append(log, "\n");
    rc = -1;
  }
  LLVMDisposeMessage(err);
  if (obj) {
    object->size = LLVMGetBufferSize(obj);
    object->data = malloc(object->size);
    memcpy(object->data, LLVMGetBufferStart(obj), object->size);
    LLVMDisposeMemoryBuffer(obj);
  }
  loom_time_phase(&t, "code generation");
  return rc;
}

/* Errors fail the job. Warnings are dropped: the build log is complete by
 * now, and the optimiser's only warnings are about loops it could not
 * vectorise. Remarks asked for through LOOMCL_LLVM_ARGS go to stderr. */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx) {
  struct loom_codegen *cg = ctx;
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(info);
  if (sev == LLVMDSRemark && getenv("LOOMCL_LLVM_ARGS")) {
    char *msg = LLVMGetDiagInfoDescription(info);
    fprintf(stderr, "loomcl remark: %s\n", msg);
    LLVMDisposeMessage(msg);
  }
  if (sev != LLVMDSError)
    return;
  char *msg = LLVMGetDiagInfoDescription(info);
  loom_str_append(&cg->log, "error: ");
  loom_str_append(&cg->log, msg);
  loom_str_append(&cg->log, "\n");
  LLVMDisposeMessage(msg);
}

void loom_codegen_compile(struct loom_codegen *cg) {
  int rc = -1;
  struct loom_target target = {.cpu = cg->cpu, .features = cg->features};
  LLVMTargetMachineRef tm = loom_target_machine(&target);
  if (tm) {
    rc = loom_optimize_and_emit(cg->module, tm, cg->opt_disable, cg->any_outer, &cg->object,
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
  cg->opt_disable = opt_disable;
  cg->any_outer = any_outer;
  /* the build's handler points into the caller's frame */
  LLVMDiagnosticHandler handler = LLVMContextGetDiagnosticHandler(cg->ctx);
  void *handler_ctx = LLVMContextGetDiagnosticContext(cg->ctx);
  LLVMContextSetDiagnosticHandler(cg->ctx, on_diagnostic, cg);
  if (!loom_codegen_submit(cg)) {
    LLVMContextSetDiagnosticHandler(cg->ctx, handler, handler_ctx);
    cg->module = NULL; /* still the caller's */
    cg->ctx = NULL;
    loom_codegen_free(cg);
    return NULL;
  }
  return cg;
}
