/* Prefetching the next work-groups' slices of const buffers, where it
 * pays (group_prefetch.c) */
#ifndef LOOM_GROUP_PREFETCH_H
#define LOOM_GROUP_PREFETCH_H

#include "device.h"
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LOOM_PREFETCH_STREAMS 4

/* a const buffer read in equal slices per work-group */
struct loom_prefetch_stream {
  const char *base;
  size_t bytes; /* from base to the end of the buffer */
  size_t slice; /* bytes per work-group */
};

/* one launch's streams and its trial of prefetching against not */
struct loom_group_prefetch {
  struct loom_prefetch_stream streams[LOOM_PREFETCH_STREAMS];
  unsigned num_streams;
  atomic_int verdict;                  /* -1 on trial, 0 off, 1 on */
  _Atomic uint64_t ns[2], blocks[2];   /* [mode]: clipped block times, blocks timed */
  _Atomic uint64_t fastest[2];         /* [mode]: the fastest block */
};

/* a worker's place in its chunk of groups */
struct loom_prefetch_cursor {
  size_t next_block; /* the group that starts the next block */
  size_t timed_from; /* the group whose start began this block's timing */
  unsigned block;    /* blocks started in this chunk */
  int mode;          /* this block's: 0 off, 1 on */
  uint64_t t0;
};

/* finds the streams of a 1D launch of groups work-groups and whether to try */
void loom_group_prefetch_plan(struct loom_group_prefetch *p, const struct loom_launch *nd,
                              size_t groups) LOOM_HIDDEN;
/* a worker starts the chunk of groups from first */
void loom_group_prefetch_chunk(struct loom_prefetch_cursor *c, size_t first) LOOM_HIDDEN;
/* before group g of the cursor's chunk runs: times the trial's blocks and
 * prefetches group g + LOOM_PREFETCH_AHEAD's slices when that is the mode */
void loom_group_prefetch_before(struct loom_group_prefetch *p, struct loom_prefetch_cursor *c,
                                size_t g) LOOM_HIDDEN;

#endif
