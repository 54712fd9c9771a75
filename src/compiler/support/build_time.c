/* LOOMCL_TIME_BUILD=1: per-phase build times on stderr (build_time.h). */
#include "support/build_time.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static _Thread_local bool quiet;

void loom_time_quiet(bool q) { quiet = q; }

static double ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void loom_time_start(struct loom_timer *t) {
  bool enabled = loom_cfg_int(LOOM_CFG_TIME_BUILD);
  t->wall = t->cpu = 0.0;
  if (enabled) {
    t->wall = ms(CLOCK_MONOTONIC);
    /* phases on compile threads overlap others, and on a loaded machine
     * wall time alone says little */
    t->cpu = ms(CLOCK_THREAD_CPUTIME_ID);
  }
}

void loom_time_phase(struct loom_timer *t, const char *phase) {
  bool enabled = loom_cfg_int(LOOM_CFG_TIME_BUILD);
  if (!enabled || quiet)
    return;
  double wall = ms(CLOCK_MONOTONIC), cpu = ms(CLOCK_THREAD_CPUTIME_ID);
  fprintf(stderr, "LoomCL build: %-36s %8.2f ms (thread CPU %8.2f ms)\n", phase, wall - t->wall,
          cpu - t->cpu);
  t->wall = wall;
  t->cpu = cpu;
}
