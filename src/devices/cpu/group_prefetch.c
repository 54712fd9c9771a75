/* Prefetching the next work-groups' input, decided by trial.
 *
 * Kernels with barriers run a work-group's work-item loops one after the
 * other: a group loads its block (`s[l] = in[gid]`), then works on local
 * memory. When that work is long against the load (a tree sum over 256
 * scalars: eight barrier intervals for 1 KiB), the loads come in short
 * bursts that the hardware prefetchers do not run far enough ahead of, and
 * each group waits on DRAM first: prefetching the slice of the group
 * LOOM_PREFETCH_AHEAD ahead before each group took the tree reduction from
 * 14-19 to 23-32 GB/s on the 2-core Zen 4. When the work is short against
 * the load (the same sum over float4s: 4 KiB a group; a sub-group sum) the
 * hardware keeps up alone and the software prefetches get in its way: 33-52
 * GB/s without them, 20-29 with (Zen 4, every slice size from 1 to 4 KiB).
 *
 * Which one a launch is cannot be told from its arguments, so a launch of
 * many groups tries both: each worker's chunk runs in blocks of
 * PREFETCH_BLOCK groups, alternately with and without, until each way has
 * PREFETCH_TRIAL_BLOCKS blocks timed; then the rest of the launch runs the
 * way that was faster a block. A block's first LOOM_PREFETCH_AHEAD groups
 * are not timed: they ran with or without the previous block's prefetches.
 * Smaller launches prefetch. LOOMCL_GROUP_PREFETCH=0 turns it all off. */
#include "group_prefetch.h"
#include "threadpool.h"
#include <string.h>

#define LOOM_PREFETCH_AHEAD 3
#define PREFETCH_MAX_SLICE 4096
#define PREFETCH_BLOCK 32
#define PREFETCH_TRIAL_BLOCKS 6
/* a trial costs up to half of its 2 x 6 x 32 groups run the slower way:
 * launches of fewer groups than this are not tried */
#define PREFETCH_TRIAL_MIN_GROUPS 4096

_Static_assert(PREFETCH_BLOCK > LOOM_PREFETCH_AHEAD, "a block must have timed groups");

void loom_group_prefetch_plan(struct loom_group_prefetch *p, const struct loom_launch *nd,
                              size_t groups) {
  p->num_streams = 0;
  if (nd->work_dim != 1 || nd->meta->num_barriers == 0 || groups < 2 * LOOM_PREFETCH_AHEAD ||
      !loom_cfg_int(LOOM_CFG_GROUP_PREFETCH))
    return;
  for (uint32_t i = 0; i < nd->meta->num_args && p->num_streams < LOOM_PREFETCH_STREAMS; i++) {
    const struct loom_arg_meta *a = &nd->meta->args[i];
    if (a->kind != LOOM_ARG_BUFFER || !(a->type_qualifier & CL_KERNEL_ARG_TYPE_CONST))
      continue;
    const char *ptr;
    memcpy(&ptr, nd->args + a->offset, sizeof ptr);
    for (unsigned m = 0; ptr && m < nd->num_mems; m++) {
      const struct loom_mem_range *mem = &nd->mems[m];
      if (ptr < mem->data || ptr >= mem->data + mem->size)
        continue;
      /* read in proportion to the groups, as in[gid] is */
      size_t bytes = (size_t)(mem->data + mem->size - ptr), slice = bytes / groups;
      if (slice >= 64 && slice <= PREFETCH_MAX_SLICE)
        p->streams[p->num_streams++] = (struct loom_prefetch_stream){ptr, bytes, slice};
      break;
    }
  }
  atomic_init(&p->verdict, groups >= PREFETCH_TRIAL_MIN_GROUPS ? -1 : 1);
  for (int m = 0; m < 2; m++) {
    atomic_init(&p->ns[m], 0);
    atomic_init(&p->blocks[m], 0);
    atomic_init(&p->fastest[m], UINT64_MAX);
  }
}

void loom_group_prefetch_chunk(struct loom_prefetch_cursor *c, size_t first) {
  *c = (struct loom_prefetch_cursor){.next_block = first, .timed_from = SIZE_MAX, .mode = 1};
}

/* a block of `mode` took dt for its timed groups; settles the trial once
 * both ways have enough blocks (times clipped as the code trials' are:
 * a preempted block counts LOOM_TRIAL_CLIP times the fastest at most) */
static void record_block(struct loom_group_prefetch *p, int mode, uint64_t dt) {
  atomic_fetch_add_explicit(&p->ns[mode], loom_trial_clipped(&p->fastest[mode], dt), memory_order_relaxed);
  atomic_fetch_add_explicit(&p->blocks[mode], 1, memory_order_relaxed);
  uint64_t b0 = atomic_load_explicit(&p->blocks[0], memory_order_relaxed);
  uint64_t b1 = atomic_load_explicit(&p->blocks[1], memory_order_relaxed);
  if (b0 < PREFETCH_TRIAL_BLOCKS || b1 < PREFETCH_TRIAL_BLOCKS)
    return;
  /* ns[1] / b1 < ns[0] / b0 without dividing; the sums stay far below 2^64
   * (a block's clipped time times a few hundred blocks) */
  double on = (double)atomic_load_explicit(&p->ns[1], memory_order_relaxed) * (double)b0;
  double off = (double)atomic_load_explicit(&p->ns[0], memory_order_relaxed) * (double)b1;
  int expected = -1;
  atomic_compare_exchange_strong_explicit(&p->verdict, &expected, on < off ? 1 : 0,
                                          memory_order_relaxed, memory_order_relaxed);
}

void loom_group_prefetch_before(struct loom_group_prefetch *p, struct loom_prefetch_cursor *c,
                                size_t g) {
  if (!p->num_streams)
    return;
  int mode = atomic_load_explicit(&p->verdict, memory_order_relaxed);
  if (mode < 0) {
    if (g == c->next_block) {
      /* the block that ends here, unless it was the chunk's first: that
       * one's groups had no earlier groups to prefetch for them */
      if (c->timed_from != SIZE_MAX && c->block > 1)
        record_block(p, c->mode, loom_pool_now_ns() - c->t0);
      c->timed_from = g + LOOM_PREFETCH_AHEAD;
      c->next_block = g + PREFETCH_BLOCK;
      c->mode = c->block++ & 1;
    }
    if (g == c->timed_from)
      c->t0 = loom_pool_now_ns();
    mode = c->mode;
  }
  if (!mode)
    return;
  for (unsigned st = 0; st < p->num_streams; st++) {
    const struct loom_prefetch_stream *ps = &p->streams[st];
    size_t from = (g + LOOM_PREFETCH_AHEAD) * ps->slice;
    for (size_t off = from; off < from + ps->slice && off < ps->bytes; off += 64)
      __builtin_prefetch(ps->base + off, 0, 3);
  }
}
