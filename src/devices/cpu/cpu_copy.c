/* Large copies on every core of the device: one thread's memcpy reaches a
 * fraction of the memory bandwidth that the cores together do (on the
 * 2-core development machine 15 against 25 GB/s), so a copy of several
 * MiB is split into chunks that the pool's workers and the calling thread
 * copy together (loom_pool_run). */
#include "cpu.h"
#include "threadpool.h"
#include <stdint.h>
#include <string.h>

/* below this a copy stays on the calling thread: waking workers costs
 * more than they save */
#define PARALLEL_COPY_MIN ((size_t)4 << 20)
/* a chunk: long enough for the copy loop, small enough to balance */
#define COPY_CHUNK ((size_t)256 << 10)

struct copy_job {
  struct loom_pool_job job; /* first: the pool hands it back */
  char *dst;
  const char *src;
  size_t bytes;
};

static void copy_chunks(struct loom_pool_job *job, size_t first, size_t count, unsigned worker) {
  (void)worker;
  struct copy_job *c = (struct copy_job *)job;
  size_t begin = first * COPY_CHUNK, end = (first + count) * COPY_CHUNK;
  if (end > c->bytes)
    end = c->bytes;
  memcpy(c->dst + begin, c->src + begin, end - begin);
}

static void no_finish(struct loom_pool_job *job) { (void)job; }

void loom_cpu_mem_copy(const struct loom_device_desc *dev, void *dst, const void *src,
                       size_t bytes) {
  if (bytes < PARALLEL_COPY_MIN || dev->lim.compute_units < 2) {
    memcpy(dst, src, bytes);
    return;
  }
  struct copy_job c = {.dst = dst, .src = src, .bytes = bytes};
  c.job.workers = dev->core_mask; /* a sub-device copies on its own cores */
  c.job.num_workers = dev->core_mask ? dev->lim.compute_units : 0;
  c.job.run = copy_chunks;
  c.job.finish = no_finish;
  c.job.total = (bytes + COPY_CHUNK - 1) / COPY_CHUNK;
  c.job.chunk = 1;
  loom_pool_run(&c.job);
}
