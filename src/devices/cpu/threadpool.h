/* A persistent pool of worker threads, one per online core, that run the
 * work-groups of kernel launches. Work-groups are claimed in shrinking
 * chunks (guided self-scheduling) with an atomic counter; no thread is
 * created per launch. */
#ifndef LOOM_THREADPOOL_H
#define LOOM_THREADPOOL_H
#include "config.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loom_pool_job {
  /* the workers that may run it (a sub-device's cores): bit w of
   * workers[w / 64]; NULL: every worker. num_workers counts them. */
  const uint64_t *workers;
  unsigned num_workers;
  /* runs work-groups [first, first+count) on worker `worker` */
  void (*run)(struct loom_pool_job *job, size_t first, size_t count, unsigned worker);
  /* called once, by the worker that finished the last work-group */
  void (*finish)(struct loom_pool_job *job);
  size_t total;
  size_t chunk; /* the smallest claim (0: chosen by the pool) */
  /* pool-private */
  atomic_size_t next, done;
  unsigned users;
  bool queued;
  bool sync;              /* loom_pool_run's: finish is not called */
  atomic_bool finished;   /* a sync job's end */
  struct loom_pool_job *link;
};

/* the number of workers, known before the pool starts: LOOMCL_THREADS, or
 * the online cores */
unsigned loom_pool_size(void) LOOM_HIDDEN;
unsigned loom_pool_workers(void) LOOM_HIDDEN;
/* The CPU worker w runs on once pinned: the w-th CPU the process may run
 * on (wrapping around); -1 if unknown. */
int loom_pool_cpu_of(unsigned w) LOOM_HIDDEN;
/* Binds every worker to its CPU (once; later calls do nothing). */
void loom_pool_pin(void) LOOM_HIDDEN;
/* a monotonic clock, in nanoseconds */
uint64_t loom_pool_now_ns(void) LOOM_HIDDEN;
void loom_pool_submit(struct loom_pool_job *job) LOOM_HIDDEN;
/* Runs job to its end before returning, the calling thread taking groups
 * too (worker index UINT32_MAX); job->finish is not called. */
void loom_pool_run(struct loom_pool_job *job) LOOM_HIDDEN;

#endif
