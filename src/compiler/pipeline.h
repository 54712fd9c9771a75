/* The kernel pipeline as data (pipeline.c): the passes in order, the state
 * they share, and ways to run all of them, a prefix, or one alone
 * (tools/loom-opt, tests/ir/). */
#ifndef LOOM_PIPELINE_H
#define LOOM_PIPELINE_H
#include "support/llvm_util.h"
#include "workgroup/workgroup.h"

/* What the passes of one build share: the module, the target, and the
 * kernel metadata the passes fill in. Everything else a pass needs from an
 * earlier one is in the IR (workgroup/wg_state.c), so that each pass can
 * run alone on IR written out between two passes (tools/loom-opt). */
struct loom_pipeline {
  LLVMModuleRef m;
  LLVMTargetMachineRef tm;
  LLVMTargetDataRef td;   /* set by "retarget" */
  const struct loom_target *target;
  bool opt_disable;       /* -cl-opt-disable: O1, no target rewrites */
  const struct loom_wg_spec *spec; /* NULL, or the kernel and local size to specialise for */
  struct loom_program_binary *out; /* kernel metadata (set by "kernel-meta") */
  LLVMModuleRef lib;      /* the builtin library, if opened beforehand (taken by "link-builtins") */
  bool any_outer;         /* some work-item loop is vectorised as an outer loop */
  char *features;         /* the target machine's feature string (x86 rewrites) */
  bool verify_each;       /* verify the module after every pass (LOOMCL_VERIFY=1) */
  char **log;             /* build log: errors end the build */
};

enum loom_pass_stage {
  LOOM_STAGE_BUILD,   /* inside clBuildProgram: ends with every error and all metadata known */
  LOOM_STAGE_CODEGEN, /* on a compile thread (backend/): optimisation and x86 rewrites */
};

struct loom_pass {
  const char *name;
  int (*run)(struct loom_pipeline *p); /* 0, or -1 with a message in *p->log */
  enum loom_pass_stage stage;
  /* "kernel-meta" when the pass reads p->out's kernel metadata (run alone,
   * it is read from the module first: loom_pipeline_prepare_alone), or
   * "retarget" for the data layout; NULL: the module is all it needs */
  const char *needs;
  const char *what; /* one line: what it does, and where */
};

/* every pass, in pipeline order, ending with a NULL name */
extern const struct loom_pass loom_passes[] LOOM_HIDDEN;
/* the pass called name, or NULL */
const struct loom_pass *loom_pass_find(const char *name) LOOM_HIDDEN;

/* Runs passes [first, last] of loom_passes (indices) on p, verifying the
 * module after each one when p->verify_each. 0, or -1 (log). */
int loom_pipeline_run(struct loom_pipeline *p, size_t first, size_t last) LOOM_HIDDEN;
/* index of the first LOOM_STAGE_CODEGEN pass */
size_t loom_pipeline_codegen_start(void) LOOM_HIDDEN;
size_t loom_pipeline_count(void) LOOM_HIDDEN;
/* Checks p->m with LLVM's verifier; on failure appends "error: <when>:
 * <the verifier's message>" to *p->log and returns -1. */
int loom_pipeline_verify(struct loom_pipeline *p, const char *when) LOOM_HIDDEN;
/* frees what the passes allocated in p (not m, tm, out) */
void loom_pipeline_finish(struct loom_pipeline *p) LOOM_HIDDEN;

/* Sets p up to run passes on a module read from a file (tools/loom-opt):
 * a target machine for the host (p->tm), its data layout (p->td), the
 * kernel metadata read from m (p->out: kernels are found through their
 * OpenCL metadata), whether m has outer work-item loops; m is not changed.
 * 0, or -1 (log). loom_pipeline_finish, then
 * LLVMDisposeTargetMachine(p->tm) and loom_program_binary_free(out), undo it. */
int loom_pipeline_prepare_alone(struct loom_pipeline *p, LLVMModuleRef m,
                                const struct loom_target *target,
                                struct loom_program_binary *out, char **log) LOOM_HIDDEN;

/* The build stage of an executable (linked user code in m): every pass up
 * to the hand-off, then the module verified; the caller hands m to the
 * code generator (pipeline_codegen) or a compile thread. */
int loom_pipeline_build(struct loom_pipeline *p) LOOM_HIDDEN;
/* The code generation stage: the remaining passes, then object code. */
int loom_pipeline_codegen(LLVMModuleRef m, LLVMTargetMachineRef tm, bool opt_disable,
                          bool any_outer, struct loom_blob *object, char **log) LOOM_HIDDEN;

#endif
