/* Running a kernel launch on the CPU: work-groups are pool jobs; each worker
 * owns its __local memory and per-work-item scratch, reused across launches. */
#include "cpu.h"
#include "cpu_printf.h"
#include "fault_guard.h"
#include "group_prefetch.h"
#include "thread_stack.h"
#include <stdio.h>
#include "threadpool.h"
#include <stdlib.h>
#include <string.h>

struct worker_mem {
  char *local;
  size_t local_cap;
  char *scratch;
  size_t scratch_cap;
};

static __thread struct worker_mem wmem;

static char *ensure(char **buf, size_t *cap, size_t need) {
  if (need > *cap) {
    free(*buf);
    size_t n = need < 4096 ? 4096 : need;
    if (posix_memalign((void **)buf, 128, n) != 0) {
      *buf = NULL;
      *cap = 0;
      return NULL;
    }
    *cap = n;
  }
  return *buf;
}

struct cpu_launch {
  struct loom_pool_job job; /* first: the pool hands it back */
  struct loom_group_prefetch prefetch;
  struct loom_launch *nd;
  atomic_int failed;
  uint64_t stream_store_bytes;
  struct loom_printf_buffer printf_out;
};

/* Once each code of a trial has run enough groups, for long enough
 * together, the rest of the launch runs the one faster a group (the core
 * decides at completion from the same times, added over its trial
 * launches) */
static void settle_trial(struct loom_code_trial *t) {
  uint64_t g0 = atomic_load_explicit(&t->groups[0], memory_order_relaxed);
  uint64_t g1 = atomic_load_explicit(&t->groups[1], memory_order_relaxed);
  uint64_t ran = atomic_load_explicit(&t->raw_ns[0], memory_order_relaxed) +
                 atomic_load_explicit(&t->raw_ns[1], memory_order_relaxed);
  if (!t->settle_groups || g0 < t->settle_groups || g1 < t->settle_groups)
    return;
  if (ran < t->settle_ns && (g0 < t->settle_many || g1 < t->settle_many))
    return;
  uint64_t ns0 = atomic_load_explicit(&t->ns[0], memory_order_relaxed);
  uint64_t ns1 = atomic_load_explicit(&t->ns[1], memory_order_relaxed);
  double per0 = (double)ns0 / (double)g0, per1 = (double)ns1 / (double)g1;
  int expected = -1;
  atomic_compare_exchange_strong_explicit(&t->settled, &expected, per1 <= per0 ? 1 : 0,
                                          memory_order_relaxed, memory_order_relaxed);
}

static void run_groups(struct loom_pool_job *job, size_t first, size_t count, unsigned worker) {
  (void)worker;
  struct cpu_launch *l = (struct cpu_launch *)job;
  const struct loom_launch *nd = l->nd;
  size_t items = nd->local[0] * nd->local[1] * nd->local[2];
  /* the code specialised for the launch's local size runs its full-sized
   * groups once it is loaded (core/variants.c); the scratch serves both */
  loom_wg_fn full = nd->full_fn ? atomic_load_explicit(nd->full_fn, memory_order_acquire) : NULL;
  uint64_t per_item = nd->meta->scratch_per_item, uniform = nd->meta->scratch_uniform;
  if (full && nd->full_scratch[0] > per_item)
    per_item = nd->full_scratch[0];
  if (full && nd->full_scratch[1] > uniform)
    uniform = nd->full_scratch[1];
  char *local = ensure(&wmem.local, &wmem.local_cap, nd->local_mem_bytes + 128);
  char *scratch = ensure(&wmem.scratch, &wmem.scratch_cap, per_item * items + 64 + uniform + 128);
  if (!local || !scratch) {
    atomic_store(&l->failed, 1);
    return;
  }
  struct loom_wg_ctx ctx;
  ctx.work_dim = nd->work_dim;
  for (int d = 0; d < 3; d++) {
    ctx.enqueued_local_size[d] = nd->local[d];
    ctx.global_offset[d] = nd->offset[d];
    ctx.num_groups[d] = nd->groups[d];
    ctx.global_size[d] = nd->global[d];
  }
  ctx.local_mem = local;
  ctx.scratch = scratch;
  ctx.local_mem_size = nd->local_mem_bytes;
  ctx.stream_store_bytes = l->stream_store_bytes;
  /* the work-group function's frame, and so every private variable, lies
   * below this frame on this thread's stack */
  ctx.stack_lo = loom_thread_stack_lo();
  ctx.stack_hi = __builtin_frame_address(0);
  size_t gxy = nd->groups[0] * nd->groups[1];
  loom_fault_guard_prepare();
  sigjmp_buf jb;
  /* volatile: it is read after a longjmp back into this frame */
  volatile size_t g = first;
  struct loom_prefetch_cursor cursor;
  loom_group_prefetch_chunk(&cursor, first);
  /* no need to save the signal mask (a system call per chunk): the fault
   * handler runs with SA_NODEFER, so jumping out of it leaves the mask as
   * it was */
  int sig = sigsetjmp(jb, 0);
  if (sig) {
    loom_cpu_printf_bind(NULL);
    if (!atomic_exchange(&l->failed, 1))
      fprintf(stderr, "LoomCL: kernel '%s' faulted (signal %d) in work-group %zu\n",
              nd->meta->name, sig, (size_t)g);
    return;
  }
  loom_fault_guard_arm(&jb);
  loom_cpu_printf_bind(&l->printf_out);
  struct loom_code_trial *trial = full ? nd->trial : NULL;
  for (; g < first + count; g++) {
    if (atomic_load_explicit(&l->failed, memory_order_relaxed))
      break;
    size_t id[3] = {g % nd->groups[0], (g / nd->groups[0]) % nd->groups[1], g / gxy};
    bool whole = true;
    for (int d = 0; d < 3; d++) {
      ctx.group_id[d] = id[d];
      size_t start = id[d] * nd->local[d];
      size_t left = nd->global[d] - start;
      ctx.local_size[d] = left < nd->local[d] ? left : nd->local[d];
      whole &= left >= nd->local[d];
    }
    loom_group_prefetch_before(&l->prefetch, &cursor, g);
    if (trial && whole && atomic_load_explicit(&trial->settled, memory_order_relaxed) < 0) {
      unsigned spec = (unsigned)((g + trial->parity) & 1);
      uint64_t t0 = loom_pool_now_ns();
      (spec ? full : nd->fn)(nd->args, &ctx, local, scratch);
      uint64_t dt = loom_pool_now_ns() - t0;
      atomic_fetch_add_explicit(&trial->ns[spec], loom_trial_clipped(&trial->min_ns[spec], dt),
                                memory_order_relaxed);
      atomic_fetch_add_explicit(&trial->raw_ns[spec], dt, memory_order_relaxed);
      atomic_fetch_add_explicit(&trial->groups[spec], 1, memory_order_relaxed);
      settle_trial(trial);
      continue;
    }
    if (trial && whole) {
      (atomic_load_explicit(&trial->settled, memory_order_relaxed) ? full : nd->fn)(nd->args, &ctx, local,
                                                                                  scratch);
      continue;
    }
    (whole && full ? full : nd->fn)(nd->args, &ctx, local, scratch);
  }
  loom_cpu_printf_bind(NULL);
  loom_fault_guard_disarm();
#if defined(__x86_64__) || defined(__i386__)
  /* non-temporal stores (streaming_stores.c) are weakly ordered: make them
   * visible before the work-groups are counted as done */
  __builtin_ia32_sfence();
#endif
}

/* Output larger than the part of the last-level cache this device can count
 * on is written past it: it would not stay there anyway. That part is the
 * whole cache or 4 MiB per core, whichever is smaller: server parts have
 * 1.25-5 MiB of L3 per core, and a virtual machine or container of a few
 * cores sees the whole socket's cache (260 MiB for 2 cores here), which the
 * other tenants share. LOOMCL_STREAMING_STORES=<bytes> sets another
 * threshold (0: never). */
#define STREAM_CACHE_PER_CORE (4u << 20)
static uint64_t stream_threshold(const struct loom_device_desc *dev) {
  int64_t v = loom_cfg_int(LOOM_CFG_STREAMING_STORES);
  if (v >= 0)
    return (uint64_t)v;
  uint64_t share = (uint64_t)dev->lim.compute_units * STREAM_CACHE_PER_CORE;
  uint64_t cache = dev->lim.global_cache_size ? dev->lim.global_cache_size : 32u << 20;
  return cache < share ? cache : share;
}

_Static_assert(sizeof(struct cpu_launch) <= LOOM_CPU_LAUNCH_STATE_SIZE,
               "LOOM_CPU_LAUNCH_STATE_SIZE too small");

static void finish_launch(struct loom_pool_job *job) {
  struct cpu_launch *l = (struct cpu_launch *)job;
  cl_int status = atomic_load(&l->failed) ? CL_OUT_OF_RESOURCES : CL_COMPLETE;
  /* the spec: printf output is flushed when the launch's event completes */
  loom_cpu_printf_flush(&l->printf_out);
  /* l lives in the launch's block, freed when the event completes */
  l->nd->complete(l->nd, status);
}

void loom_cpu_ndrange(const struct loom_device_desc *dev, struct loom_launch *nd) {
  struct cpu_launch *l = nd->device_state;
  l->nd = nd;
  l->stream_store_bytes = stream_threshold(dev);
  l->printf_out.capacity = dev->lim.printf_buffer_size;
  l->job.workers = dev->core_mask; /* a sub-device runs on its cores only */
  l->job.num_workers = dev->core_mask ? dev->lim.compute_units : 0;
  l->job.run = run_groups;
  l->job.finish = finish_launch;
  l->job.total = nd->groups[0] * nd->groups[1] * nd->groups[2];
  loom_group_prefetch_plan(&l->prefetch, nd, l->job.total);
  loom_pool_submit(&l->job);
}
