/* A program's pending code generation, shared by codegen.c (what is done)
 * and codegen_jobs.c (the compile threads, waiting, the cache entry). */
#ifndef LOOM_CODEGEN_INTERNAL_H
#define LOOM_CODEGEN_INTERNAL_H
#include "backend/codegen.h"

enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

/* Fields from `refs` on are guarded by the jobs' lock (codegen_jobs.c). */
struct loom_codegen {
  /* the transformed module and its context, owned until the job ran */
  LLVMContextRef ctx;
  LLVMModuleRef module;
  char *cpu, *features;
  bool opt_disable, any_outer;
  char *log; /* LLVM's errors */
  struct loom_blob object;
  int rc; /* -1: failed or cancelled */

  unsigned refs; /* the binary, loaded code, sharers; one for the job until done */
  enum job_state state;
  bool in_queue;
  bool parked; /* nobody holds the program: the job waits for a sharer or exit */
  struct loom_codegen *next; /* in the queue */
  char cache_key[33];
  struct loom_blob cache_entry; /* to complete with the object and store */
  struct loom_codegen *next_in_flight; /* has a cache entry to write */
};

/* codegen.c: runs the job on the calling thread (no lock held): sets rc
 * and object, disposes the module */
void loom_codegen_compile(struct loom_codegen *cg) LOOM_HIDDEN;
/* codegen.c: a context's diagnostic handler; ctx: the char ** log that
 * errors are appended to (warnings are dropped) */
void loom_codegen_on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx) LOOM_HIDDEN;
/* codegen_split.c: generates cg's code in parts on several threads (tm:
 * the calling thread's target machine), setting cg->object and cg->log and
 * returning 0 or -1; LOOM_CODEGEN_WHOLE (nothing done) when the program is
 * not split */
enum { LOOM_CODEGEN_WHOLE = -2 };
int loom_codegen_in_parts(struct loom_codegen *cg, LLVMTargetMachineRef tm) LOOM_HIDDEN;
/* codegen_jobs.c: how many compile threads run programs */
long loom_codegen_threads(void) LOOM_HIDDEN;
/* codegen.c: frees cg */
void loom_codegen_free(struct loom_codegen *cg) LOOM_HIDDEN;
/* codegen_jobs.c: queues the job of a new cg; false when code is to be
 * generated synchronously instead */
bool loom_codegen_submit(struct loom_codegen *cg) LOOM_HIDDEN;

#endif
