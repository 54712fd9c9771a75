/* Pending code generation (codegen.c) and who runs it.
 *
 * A pool of compile threads (LOOMCL_COMPILE_THREADS, default one per CPU,
 * at most 8; 0 generates the code inside clBuildProgram) runs the queued
 * programs in order. Whoever needs the code waits for it, and generates it
 * on its own thread if no compile thread has started: the JIT when a kernel
 * is created, CL_PROGRAM_BINARIES, and the disk cache, whose entry is
 * written when the code exists.
 *
 * A program released before its code exists is never compiled: with no
 * cache entry to write it is dropped at once; with one it is parked (it
 * leaves the queue and takes no CPU time), so that a new build of the same
 * program (same cache key) can take it over instead of compiling again.
 * The oldest parked one beyond MAX_PARKED is dropped. At exit, queued and
 * parked programs are dropped, not compiled: exit does not wait for code
 * nobody will run (a big kernel takes minutes).
 *
 * LLVM's static destructors must not run while a compile thread is inside
 * LLVM. Exit handlers run in the reverse order of their registration, and
 * LLVM registers some destructors when it first uses a static, so the
 * handler that waits for running jobs is registered after LLVM's code
 * generator has run once (clang_overlap.c warms it up), and again after
 * each of the first programs in case they used more of LLVM. It waits at
 * most EXIT_WAIT_MS; a job still inside LLVM then (one that no exit handler
 * can stop) ends the process at once with the exit status, stdio flushed,
 * without the exit handlers registered before LoomCL's (whose LLVM
 * destructors would pull its data from under the running job).
 *
 * A fork() child has none of the compile threads (support/fork_guard.c
 * keeps the pool's lock whole across the fork): there no job runs, the
 * threads start afresh if the child builds, and a job that was running in
 * the parent never finishes. If LLVM work was under way in the parent at
 * the fork, the child's copy of LLVM's data may be half changed, so the
 * child's exit ends like a stuck one, without the earlier exit handlers. */
#include "backend/codegen_internal.h"
#include "support/fork_guard.h"
#include "support/build_time.h"
#include "frontend/clang_overlap.h"
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_PARKED = 32, REREGISTER_EXIT = 16, EXIT_WAIT_MS = 2000 };

static struct {
  pthread_mutex_t lock;
  pthread_cond_t work; /* a program was queued */
  pthread_cond_t done; /* a program's code generation finished */
  struct loom_codegen *head, *tail;
  unsigned running;
  unsigned completed; /* for re-registering the exit handler */
  unsigned parked;
  bool started, exiting;
  bool forked_in_llvm; /* a fork child of a process inside LLVM then */
  bool forked;         /* a fork child: what the parent's threads left stays */
  /* programs with a cache entry to write, newest first */
  struct loom_codegen *in_flight;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

/* ---- settings ---- */

/* LOOMCL_COMPILE_THREADS, or one per online core; at most 8 */
static long compile_threads(void) {
  long n = (long)loom_cfg_int(LOOM_CFG_COMPILE_THREADS);
  if (n < 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 0)
    n = 1;
  return n > 8 ? 8 : n;
}

bool loom_codegen_async(void) { return compile_threads() > 0; }

long loom_codegen_threads(void) { return compile_threads(); }

/* ---- the queue (pool.lock held) ---- */

static void enqueue_locked(struct loom_codegen *cg) {
  cg->next = NULL;
  cg->in_queue = true;
  if (pool.tail)
    pool.tail->next = cg;
  else
    pool.head = cg;
  pool.tail = cg;
}

static struct loom_codegen *pop_locked(void) {
  struct loom_codegen *cg = pool.head;
  if (cg) {
    pool.head = cg->next;
    if (!pool.head)
      pool.tail = NULL;
    cg->next = NULL;
    cg->in_queue = false;
  }
  return cg;
}

static void unqueue_locked(struct loom_codegen *cg) {
  if (!cg->in_queue)
    return;
  struct loom_codegen **pp = &pool.head, *prev = NULL;
  while (*pp && *pp != cg) {
    prev = *pp;
    pp = &(*pp)->next;
  }
  if (*pp) {
    *pp = cg->next;
    if (pool.tail == cg)
      pool.tail = prev;
  }
  cg->next = NULL;
  cg->in_queue = false;
}

static void leave_in_flight_locked(struct loom_codegen *cg) {
  for (struct loom_codegen **pp = &pool.in_flight; *pp; pp = &(*pp)->next_in_flight)
    if (*pp == cg) {
      *pp = cg->next_in_flight;
      break;
    }
  cg->next_in_flight = NULL;
  if (cg->parked) {
    cg->parked = false;
    pool.parked--;
  }
}

/* ---- finishing ---- */

/* the serialised binary without object code, completed and stored */
static void write_cache_entry(struct loom_codegen *cg) {
  struct loom_program_binary bin;
  if (loom_binary_deserialize(cg->cache_entry.data, cg->cache_entry.size, &bin) == 0) {
    struct loom_blob data = {0};
    if (loom_binary_serialize_with(&bin, &cg->object, &data) == 0)
      loom_cache_put(cg->cache_key, &data);
    loom_blob_free(&data);
    loom_program_binary_free(&bin);
  }
}

/* Marks cg done (pool.lock held); returns whether its cache entry is due. */
static bool done_locked(struct loom_codegen *cg) {
  cg->state = JOB_DONE;
  leave_in_flight_locked(cg);
  pthread_cond_broadcast(&pool.done);
  return cg->cache_entry.size != 0 && cg->rc == 0;
}

/* Outside the lock, once cg is done: the cache entry, then the job's
 * reference. (The entry was set before, and is not touched again.) */
static void after_done(struct loom_codegen *cg, bool write_cache) {
  if (write_cache) {
    write_cache_entry(cg);
    loom_blob_free(&cg->cache_entry);
  }
  loom_codegen_release(cg);
}

static void at_exit(int status, void *arg);

/* Runs a queued program's code generation on the calling thread;
 * pool.lock is held on entry and on return, not while compiling. */
static void run_locked(struct loom_codegen *cg) {
  cg->state = JOB_RUNNING;
  pool.running++;
  pthread_mutex_unlock(&pool.lock);
  struct loom_timer t;
  loom_time_start(&t);
  loom_codegen_compile(cg);
  loom_time_phase(&t, "background: O3 and code generation");
  pthread_mutex_lock(&pool.lock);
  if (pool.completed++ < REREGISTER_EXIT && !pool.exiting)
    on_exit(at_exit, NULL);
  bool cache = done_locked(cg);
  pthread_mutex_unlock(&pool.lock);
  after_done(cg, cache);
  pthread_mutex_lock(&pool.lock);
  /* only now: at_exit waits for the cache entry too */
  pool.running--;
  pthread_cond_broadcast(&pool.done);
}

/* Drops a program whose code generation has not started (pool.lock held);
 * returns whether it did (the caller then calls after_done). */
static bool cancel_locked(struct loom_codegen *cg) {
  if (cg->state != JOB_QUEUED) {
    leave_in_flight_locked(cg);
    return false;
  }
  unqueue_locked(cg);
  LLVMDisposeModule(cg->module);
  LLVMContextDispose(cg->ctx);
  cg->module = NULL;
  cg->ctx = NULL;
  cg->rc = -1;
  done_locked(cg);
  return true;
}

/* Nobody holds cg but its job (pool.lock held). Returns a program that this
 * dropped, for after_done, or NULL. */
static struct loom_codegen *orphaned_locked(struct loom_codegen *cg) {
  if (!cg->cache_entry.size || pool.exiting)
    return cancel_locked(cg) ? cg : NULL;
  unqueue_locked(cg);
  cg->parked = true;
  if (++pool.parked <= MAX_PARKED)
    return NULL;
  struct loom_codegen *oldest = NULL;
  for (struct loom_codegen *p = pool.in_flight; p; p = p->next_in_flight)
    if (p->parked)
      oldest = p;
  return cancel_locked(oldest) ? oldest : NULL;
}

/* ---- the compile threads ---- */

static void *compile_thread(void *arg) {
  (void)arg;
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    struct loom_codegen *cg;
    while (!(cg = pop_locked()))
      pthread_cond_wait(&pool.work, &pool.lock);
    run_locked(cg);
  }
  return NULL;
}

/* pool.lock held */
static void start_threads_locked(void) {
  if (pool.started)
    return;
  pool.started = true;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 16u << 20); /* LLVM recurses over big functions */
  long num_threads = compile_threads();
  for (long i = 0; i < num_threads; i++) {
    pthread_t t;
    if (pthread_create(&t, &attr, compile_thread, NULL) == 0)
      pthread_detach(t);
  }
  pthread_attr_destroy(&attr);
}

/* Drops queued and parked programs and waits, at most EXIT_WAIT_MS, for
 * running ones (see the top of the file); it may run several times, only
 * the first finds work. */
static void at_exit(int status, void *arg) {
  (void)arg;
  if (pool.forked_in_llvm) {
    fflush(NULL);
    _exit(status);
  }
  pthread_mutex_lock(&pool.lock);
  pool.exiting = true;
  /* dropped jobs, chained through next (free once out of the queue) */
  struct loom_codegen *dropped = NULL, *cg;
  for (bool again = true; again;) {
    again = false;
    for (cg = pool.in_flight; cg; cg = cg->next_in_flight)
      if (cg->parked && cg->state == JOB_QUEUED) {
        cancel_locked(cg); /* leaves in_flight: start over */
        cg->next = dropped;
        dropped = cg;
        again = true;
        break;
      }
  }
  while ((cg = pop_locked()))
    if (cancel_locked(cg)) {
      cg->next = dropped;
      dropped = cg;
    }
  pthread_mutex_unlock(&pool.lock);
  /* a fork child frees nothing: another thread of the parent may have held
   * the allocator's lock at the fork (AddressSanitizer's stays taken in the
   * child: about one child in four hundred hung here), and the process ends */
  while (dropped && !pool.forked) {
    cg = dropped;
    dropped = cg->next;
    cg->next = NULL;
    after_done(cg, false); /* the job's reference */
  }
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += EXIT_WAIT_MS / 1000;
  deadline.tv_nsec += (long)(EXIT_WAIT_MS % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec++;
    deadline.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&pool.lock);
  int rc = 0;
  while (pool.running && rc == 0)
    rc = pthread_cond_timedwait(&pool.done, &pool.lock, &deadline);
  bool stuck = pool.running != 0;
  pthread_mutex_unlock(&pool.lock);
  if (stuck) {
    fflush(NULL);
    _exit(status);
  }
  if (!pool.forked)
    loom_overlap_at_exit();
}

/* ---- fork ---- */

/* in a fork child, pool.lock held (see the top of the file) */
static void pool_in_fork_child(void) {
  pool.forked_in_llvm |= pool.running != 0;
  pool.forked = true;
  pool.running = 0;
  pool.started = false;
  pthread_cond_init(&pool.work, NULL);
  pthread_cond_init(&pool.done, NULL);
}

static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static void register_guard(void) { loom_fork_guard(&pool.lock, pool_in_fork_child); }
static void guard_pool(void) { pthread_once(&guard_once, register_guard); }

/* ---- other threads' LLVM work (a kernel specialised in the background) ---- */

bool loom_compiler_work_begin(void) {
  guard_pool();
  pthread_mutex_lock(&pool.lock);
  bool ok = !pool.exiting;
  /* LLVM ran before (the program was built, perhaps inside clBuildProgram,
   * where no compile job re-registers the handler): registered again now,
   * it runs before the destructors LLVM registered then */
  if (ok && pool.completed < REREGISTER_EXIT)
    on_exit(at_exit, NULL);
  if (ok)
    pool.running++; /* at_exit waits for it like a running job */
  pthread_mutex_unlock(&pool.lock);
  return ok;
}

void loom_compiler_work_end(void) {
  pthread_mutex_lock(&pool.lock);
  assert(pool.running > 0);
  /* as after a compile job: LLVM may have registered destructors meanwhile */
  if (pool.completed++ < REREGISTER_EXIT && !pool.exiting)
    on_exit(at_exit, NULL);
  pool.running--;
  pthread_cond_broadcast(&pool.done);
  pthread_mutex_unlock(&pool.lock);
}

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static void register_exit(void) {
  guard_pool();
  on_exit(at_exit, NULL);
}

void loom_codegen_register_exit(void) { pthread_once(&exit_once, register_exit); }

bool loom_codegen_submit(struct loom_codegen *cg) {
  loom_codegen_register_exit();
  pthread_mutex_lock(&pool.lock);
  if (pool.exiting) {
    pthread_mutex_unlock(&pool.lock);
    return false;
  }
  start_threads_locked();
  /* one reference for the binary, one for the job until it is done */
  cg->refs = 2;
  cg->state = JOB_QUEUED;
  enqueue_locked(cg);
  pthread_cond_signal(&pool.work);
  pthread_mutex_unlock(&pool.lock);
  return true;
}

/* ---- references ---- */

struct loom_codegen *loom_codegen_retain(struct loom_codegen *cg) {
  pthread_mutex_lock(&pool.lock);
  cg->refs++;
  pthread_mutex_unlock(&pool.lock);
  return cg;
}

void loom_codegen_release(struct loom_codegen *cg) {
  if (!cg)
    return;
  pthread_mutex_lock(&pool.lock);
  bool last = --cg->refs == 0;
  struct loom_codegen *dropped = NULL;
  if (!last && cg->refs == 1 && cg->state != JOB_DONE && !cg->parked)
    dropped = orphaned_locked(cg);
  pthread_mutex_unlock(&pool.lock);
  if (dropped)
    after_done(dropped, false);
  if (last)
    loom_codegen_free(cg);
}

/* ---- waiting ---- */

int loom_codegen_poll(struct loom_codegen *cg) {
  pthread_mutex_lock(&pool.lock);
  int state = cg->state != JOB_DONE ? 1 : cg->rc == 0 ? 0 : -1;
  pthread_mutex_unlock(&pool.lock);
  return state;
}

const struct loom_blob *loom_codegen_object(struct loom_codegen *cg) {
  struct loom_timer t;
  loom_time_start(&t);
  pthread_mutex_lock(&pool.lock);
  if (cg->state == JOB_QUEUED) {
    unqueue_locked(cg);
    run_locked(cg);
  }
  while (cg->state != JOB_DONE)
    pthread_cond_wait(&pool.done, &pool.lock);
  pthread_mutex_unlock(&pool.lock);
  loom_time_phase(&t, "wait for the code");
  return cg->rc == 0 ? &cg->object : NULL;
}

/* ---- the disk cache ---- */

void loom_codegen_cache_when_done(struct loom_codegen *cg, const char *key,
                                  struct loom_blob *entry) {
  pthread_mutex_lock(&pool.lock);
  bool done = cg->state == JOB_DONE;
  snprintf(cg->cache_key, sizeof cg->cache_key, "%s", key);
  loom_blob_free(&cg->cache_entry);
  cg->cache_entry = *entry;
  *entry = (struct loom_blob){0};
  if (!done) {
    cg->next_in_flight = pool.in_flight;
    pool.in_flight = cg;
  }
  pthread_mutex_unlock(&pool.lock);
  /* done already: written now (the entry stays until cg is freed) */
  if (done && cg->rc == 0)
    write_cache_entry(cg);
}

int loom_codegen_in_flight(const char *key, struct loom_program_binary *bin) {
  pthread_mutex_lock(&pool.lock);
  struct loom_codegen *cg = pool.in_flight;
  while (cg && strcmp(cg->cache_key, key) != 0)
    cg = cg->next_in_flight;
  struct loom_blob entry = {0};
  if (cg) {
    cg->refs++;
    if (cg->parked) {
      /* taken over: back to the queue */
      cg->parked = false;
      pool.parked--;
      if (cg->state == JOB_QUEUED) {
        enqueue_locked(cg);
        pthread_cond_signal(&pool.work);
      }
    }
    entry.data = malloc(cg->cache_entry.size);
    entry.size = cg->cache_entry.size;
    memcpy(entry.data, cg->cache_entry.data, entry.size);
  }
  pthread_mutex_unlock(&pool.lock);
  if (!cg)
    return -1;
  int rc = loom_binary_deserialize(entry.data, entry.size, bin);
  loom_blob_free(&entry);
  if (rc != 0) {
    loom_codegen_release(cg);
    return -1;
  }
  bin->pending = cg;
  return 0;
}
