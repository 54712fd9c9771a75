/* The kernel pipeline as data (pipeline.c): the passes in order, the state
 * they share, and ways to run all of them, a prefix, or one alone
 * (tools/loom-opt, tests/ir/). */
#ifndef LOOM_PIPELINE_H
#define LOOM_PIPELINE_H
#include "support/llvm_util.h"
#include "workgroup/workgroup.h"

/* What the passes of one build share. A pass reads the module and the
 * fields earlier passes set; the work-group passes keep their per-kernel
 * state in `builds`. */
struct loom_pipeline {
  LLVMModuleRef m;
  LLVMTargetMachineRef tm;
  LLVMTargetDataRef td;   /* set by "retarget" */
  const struct loom_target *target;
  bool opt_disable;       /* -cl-opt-disable: O1, no target rewrites */
  const struct loom_wg_spec *spec; /* NULL, or the kernel and local size to specialise for */
  struct loom_program_binary *out; /* kernel metadata (set by "kernel-meta") */
  LLVMModuleRef lib;      /* the builtin library, if opened beforehand (taken by "link-builtins") */
  struct loom_wg_build *builds; /* per kernel of out, from "wg-barriers" on */
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
  /* the pass that must have run earlier in the same pipeline run: its
   * state is in struct loom_pipeline, not in the IR (NULL: none) */
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

/* The build stage of an executable (linked user code in m): every pass up
 * to the hand-off, then the module verified; the caller hands m to the
 * code generator (pipeline_codegen) or a compile thread. */
int loom_pipeline_build(struct loom_pipeline *p) LOOM_HIDDEN;
/* The code generation stage: the remaining passes, then object code. */
int loom_pipeline_codegen(LLVMModuleRef m, LLVMTargetMachineRef tm, bool opt_disable,
                          bool any_outer, struct loom_blob *object, char **log) LOOM_HIDDEN;

#endif
