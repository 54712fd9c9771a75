/* Work the core splits into chunks (large copies and fills, which one
 * thread does at a fraction of the memory bandwidth the cores have
 * together: on the 2-core development machine 15 against 25 GB/s), run by
 * the pool's workers and the calling thread together (loom_pool_run). */
#include "cpu.h"
#include "threadpool.h"
#include <stdint.h>

struct chunk_job {
  struct loom_pool_job job; /* first: the pool hands it back */
  void (*fn)(void *ctx, size_t first, size_t count);
  void *ctx;
};

static void run(struct loom_pool_job *job, size_t first, size_t count, unsigned worker) {
  (void)worker;
  struct chunk_job *c = (struct chunk_job *)job;
  c->fn(c->ctx, first, count);
}

static void no_finish(struct loom_pool_job *job) { (void)job; }

void loom_cpu_run_chunks(const struct loom_device_desc *dev, size_t chunks,
                         void (*fn)(void *ctx, size_t first, size_t count), void *ctx) {
  if (chunks < 2 || dev->lim.compute_units < 2) {
    fn(ctx, 0, chunks);
    return;
  }
  struct chunk_job c = {.fn = fn, .ctx = ctx};
  c.job.workers = dev->core_mask; /* a sub-device works on its own cores */
  c.job.num_workers = dev->core_mask ? dev->lim.compute_units : 0;
  c.job.run = run;
  c.job.finish = no_finish;
  c.job.total = chunks;
  c.job.chunk = 1;
  loom_pool_run(&c.job);
}
