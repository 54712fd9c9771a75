/* Work overlapped with the Clang subprocess of a build. Clang takes 30-40 ms,
 * most of it loading its own shared libraries, while this process waits; a
 * helper thread uses that time to
 *  - open the builtin library lazily in a fresh LLVM context (about 15 ms:
 *    the library declares some 12,000 functions), which the link step of
 *    the build then takes (loom_library_take); a second spare, prepared on
 *    a thread of its own, serves kernels' specialisations
 *    (loom_library_take_spec);
 *  - the first time in a process, run LLVM's optimiser and code generator
 *    on a tiny function. Code generation initialises function-local statics
 *    whose destructors are registered with atexit on first use; the compile
 *    threads (backend/codegen_jobs.c) register their exit handler after this warm-up, so
 *    that it runs, and waits for jobs still inside LLVM, before those
 *    destructors do. */
#include "frontend/clang_overlap.h"
#include "frontend/frontend.h"
#include "support/build_time.h"
#include "backend/codegen.h"
#include "pipeline.h"
#include "support/fork_guard.h"
#include "support/llvm_util.h"
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the spare libraries ---- */

/* A context with the builtin library opened in it, ready for a build. Two:
 * one for the next build (prepared by the helper thread while Clang runs),
 * one for the next specialisation (core/variants.c compiles a kernel for
 * its local size at its first launch, in a context of its own: opening the
 * library there was 20-30 ms of a 50-60 ms specialisation). */
struct spare {
  LLVMContextRef ctx;
  LLVMModuleRef lib;
};
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct spare build_spare, spec_spare;
static bool spec_refilling; /* a thread is preparing spec_spare */
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

/* a fork child has no refilling thread (spare_lock held) */
static void spares_in_fork_child(void) { spec_refilling = false; }

/* the exit handler takes spare_lock, in a fork child too */
static void register_guard(void) { loom_fork_guard(&spare_lock, spares_in_fork_child); }

/* what s holds, s left empty */
static struct spare swap_out(struct spare *s) {
  pthread_once(&guard_once, register_guard);
  pthread_mutex_lock(&spare_lock);
  struct spare taken = *s;
  *s = (struct spare){NULL, NULL};
  pthread_mutex_unlock(&spare_lock);
  return taken;
}

static LLVMContextRef take_from(struct spare *s, LLVMModuleRef *lib) {
  struct spare taken = swap_out(s);
  *lib = taken.lib;
  return taken.ctx ? taken.ctx : LLVMContextCreate();
}

LLVMContextRef loom_library_take(LLVMModuleRef *lib) { return take_from(&build_spare, lib); }

static bool spare_wanted(void) {
  pthread_mutex_lock(&spare_lock);
  bool empty = build_spare.ctx == NULL;
  pthread_mutex_unlock(&spare_lock);
  return empty;
}

/* opens the library in a new context and keeps it in s if s is empty */
static void prepare_into(struct spare *s) {
  LLVMContextRef c = LLVMContextCreate();
  char *log = NULL;
  LLVMModuleRef lib = loom_open_builtin_library(c, &log);
  free(log);
  pthread_mutex_lock(&spare_lock);
  bool keep = lib && !s->ctx;
  if (keep)
    *s = (struct spare){c, lib};
  pthread_mutex_unlock(&spare_lock);
  if (!keep) {
    if (lib)
      LLVMDisposeModule(lib);
    LLVMContextDispose(c);
  }
}

/* LLVM work that exit waits for, and that a fork child knows of
 * (codegen_jobs.c) */
static void refill_done(void) {
  pthread_mutex_lock(&spare_lock);
  spec_refilling = false;
  pthread_mutex_unlock(&spare_lock);
}

static void *refill_spec(void *arg) {
  (void)arg;
  if (loom_compiler_work_begin()) {
    prepare_into(&spec_spare);
    loom_compiler_work_end();
  }
  refill_done();
  return NULL;
}

void loom_library_prepare_spec(void) {
  pthread_once(&guard_once, register_guard);
  pthread_mutex_lock(&spare_lock);
  bool start = !spec_spare.ctx && !spec_refilling;
  spec_refilling = spec_refilling || start;
  pthread_mutex_unlock(&spare_lock);
  if (!start)
    return;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 16u << 20);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  if (pthread_create(&t, &attr, refill_spec, NULL) != 0)
    refill_done();
  pthread_attr_destroy(&attr);
}

LLVMContextRef loom_library_take_spec(LLVMModuleRef *lib) {
  LLVMContextRef c = take_from(&spec_spare, lib);
  loom_library_prepare_spec(); /* the next specialisation's */
  return c;
}

static void dispose_spare(struct spare *s) {
  struct spare taken = swap_out(s);
  if (taken.lib)
    LLVMDisposeModule(taken.lib);
  if (taken.ctx)
    LLVMContextDispose(taken.ctx);
}

void loom_overlap_at_exit(void) {
  dispose_spare(&build_spare);
  dispose_spare(&spec_spare);
}

/* ---- the warm-up ---- */

static const char warm_up_ir[] =
    "define void @loomcl_warm_up(ptr noalias %a, ptr noalias %b, i64 %n) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]\n"
    "  %pa = getelementptr inbounds float, ptr %a, i64 %i\n"
    "  %pb = getelementptr inbounds <3 x float>, ptr %b, i64 %i\n"
    "  %x = load float, ptr %pa\n"
    "  %v = load <3 x float>, ptr %pb\n"
    "  %y = extractelement <3 x float> %v, i32 1\n"
    "  %m = call float @llvm.fmuladd.f32(float %x, float %y, float 1.0)\n"
    "  %e = call float @expf(float %m)\n"
    "  %c = fcmp olt float %e, 0.0\n"
    "  %s = select i1 %c, float 0.0, float %e\n"
    "  store float %s, ptr %pa\n"
    "  %i.next = add nuw i64 %i, 1\n"
    "  %done = icmp eq i64 %i.next, %n\n"
    "  br i1 %done, label %exit, label %loop\n"
    "exit:\n"
    "  ret void\n"
    "}\n"
    "declare float @llvm.fmuladd.f32(float, float, float)\n"
    "declare float @expf(float)\n";

static pthread_mutex_t warm_lock = PTHREAD_MUTEX_INITIALIZER;
static bool warmed;

void loom_codegen_warm_up(const struct loom_target *target) {
  pthread_mutex_lock(&warm_lock);
  if (!warmed) {
    warmed = true;
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
        warm_up_ir, sizeof warm_up_ir - 1, "loomcl-warm-up", 0);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    /* the IR parser owns buf */
    if (!LLVMParseIRInContext(c, buf, &m, &msg)) {
      LLVMTargetMachineRef tm = loom_target_machine(target);
      if (tm) {
        LLVMDisposeTargetData(loom_retarget(m, tm));
        /* writing bitcode (frontend/link.c does) has statics of its own */
        LLVMDisposeMemoryBuffer(LLVMWriteBitcodeToMemoryBuffer(m));
        struct loom_blob object = {0};
        char *log = NULL;
        loom_time_quiet(true);
        loom_pipeline_codegen(m, tm, false, false, &object, &log);
        loom_time_quiet(false);
        loom_blob_free(&object);
        free(log);
        LLVMDisposeTargetMachine(tm);
      }
      LLVMDisposeModule(m);
    }
    LLVMDisposeMessage(msg);
    LLVMContextDispose(c);
  }
  pthread_mutex_unlock(&warm_lock);
}

/* ---- the helper thread ---- */

struct loom_overlap {
  pthread_t thread;
  struct loom_target target;
  bool warm, spare;
};

/* LLVM work that exit waits for, and that a fork child knows of
 * (codegen_jobs.c) */
static void *helper(void *arg) {
  struct loom_overlap *o = arg;
  if (!loom_compiler_work_begin())
    return NULL;
  if (o->warm)
    loom_codegen_warm_up(&o->target);
  if (o->spare)
    prepare_into(&build_spare);
  loom_compiler_work_end();
  return NULL;
}

struct loom_overlap *loom_overlap_begin(const struct loom_target *target) {
  pthread_mutex_lock(&warm_lock);
  bool warm = !warmed && loom_codegen_async();
  pthread_mutex_unlock(&warm_lock);
  pthread_once(&guard_once, register_guard);
  bool spare = spare_wanted();
  if (!warm && !spare)
    return NULL;
  struct loom_overlap *o = calloc(1, sizeof *o);
  o->target = *target;
  o->warm = warm;
  o->spare = spare;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 16u << 20);
  int rc = pthread_create(&o->thread, &attr, helper, o);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    free(o);
    return NULL;
  }
  return o;
}

void loom_overlap_end(struct loom_overlap *o) {
  if (!o)
    return;
  pthread_join(o->thread, NULL);
  free(o);
  /* the warm-up is done: the exit handler may be registered now */
  loom_codegen_register_exit();
}
