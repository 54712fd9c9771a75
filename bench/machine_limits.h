/* The machine's own limits, measured on the host without OpenCL: peak FMA
 * throughput of all cores on the widest vector unit, and STREAM-triad
 * memory bandwidth of all cores. Every case's figure is shown as a fraction
 * of one of them. */
#ifndef LOOM_BENCH_MACHINE_LIMITS_H
#define LOOM_BENCH_MACHINE_LIMITS_H

#include <stdbool.h>

struct machine_limits {
  int threads;
  const char *isa;       /* "AVX-512", "AVX2+FMA" or "scalar" */
  int fp32_lanes;        /* lanes per vector instruction */
  double fp32_gflops;    /* peak FP32, FMA counted as 2 FLOPs */
  double fp32_gflops_one_core; /* the same FMA loop on one thread: with the
                                  all-core figure, how far the machine's own
                                  peak scales (turbo runs one core faster) */
  double fp64_gflops;
  double triad_gbs;      /* STREAM triad, bytes read + written */
  double triad_mib;      /* size of each triad array */
  char cpu_model[128];
};

void measure_machine_limits(struct machine_limits *out, bool quick);

#endif
