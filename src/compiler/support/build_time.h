/* Opt-in timing of builds: with LOOMCL_TIME_BUILD=1 every build phase
 * prints its wall-clock and thread CPU milliseconds to stderr
 * ("LoomCL build: <phase> ms"). Off, each call costs one load and a branch. */
#ifndef LOOM_BUILD_TIME_H
#define LOOM_BUILD_TIME_H
#include "compiler.h"

/* the start of a phase, on the thread that reports it */
struct loom_timer {
  double wall, cpu;
};
void loom_time_start(struct loom_timer *t) LOOM_HIDDEN;
/* reports the time since *t under phase's name and restarts *t */
void loom_time_phase(struct loom_timer *t, const char *phase) LOOM_HIDDEN;
/* no reports from the calling thread while set (work that is no build's) */
void loom_time_quiet(bool quiet) LOOM_HIDDEN;

#endif
