/* Peak FMA throughput and STREAM-triad bandwidth of the host, all cores.
 *
 * The FMA kernels run many independent accumulator chains (more than FMA
 * latency x FMA ports) so that the FMA units never wait; each is compiled
 * for its instruction set with a target attribute and chosen at run time
 * from what the CPU reports. */
#include "machine_limits.h"

#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 12 chains: a_i = a_i * b + c. b < 1 keeps every value near 1 (no
 * overflow, no denormals). Returns the sum so nothing is optimised away. */
#define FMA_CHAINS 12
#define FMA_KERNEL(fname, attr, vec, elem, set1, fmadd, storeu, lanes)                         \
  attr static double fname(long iters) {                                                       \
    vec b = set1((elem)0.9999999), c = set1((elem)1e-7);                                       \
    vec a0 = set1((elem)1.00), a1 = set1((elem)1.01), a2 = set1((elem)1.02);                   \
    vec a3 = set1((elem)1.03), a4 = set1((elem)1.04), a5 = set1((elem)1.05);                   \
    vec a6 = set1((elem)1.06), a7 = set1((elem)1.07), a8 = set1((elem)1.08);                   \
    vec a9 = set1((elem)1.09), a10 = set1((elem)1.10), a11 = set1((elem)1.11);                 \
    for (long i = 0; i < iters; i++) {                                                         \
      a0 = fmadd(a0, b, c); a1 = fmadd(a1, b, c); a2 = fmadd(a2, b, c);                        \
      a3 = fmadd(a3, b, c); a4 = fmadd(a4, b, c); a5 = fmadd(a5, b, c);                        \
      a6 = fmadd(a6, b, c); a7 = fmadd(a7, b, c); a8 = fmadd(a8, b, c);                        \
      a9 = fmadd(a9, b, c); a10 = fmadd(a10, b, c); a11 = fmadd(a11, b, c);                    \
    }                                                                                          \
    elem out[lanes];                                                                           \
    vec s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;                       \
    storeu(out, s);                                                                            \
    double sum = 0;                                                                            \
    for (int l = 0; l < (lanes); l++)                                                          \
      sum += out[l];                                                                           \
    return sum;                                                                                \
  }

#define AVX512 __attribute__((target("avx512f")))
#define AVX2 __attribute__((target("avx2,fma")))
FMA_KERNEL(fma_avx512_f32, AVX512, __m512, float, _mm512_set1_ps, _mm512_fmadd_ps,
           _mm512_storeu_ps, 16)
FMA_KERNEL(fma_avx512_f64, AVX512, __m512d, double, _mm512_set1_pd, _mm512_fmadd_pd,
           _mm512_storeu_pd, 8)
FMA_KERNEL(fma_avx2_f32, AVX2, __m256, float, _mm256_set1_ps, _mm256_fmadd_ps,
           _mm256_storeu_ps, 8)
FMA_KERNEL(fma_avx2_f64, AVX2, __m256d, double, _mm256_set1_pd, _mm256_fmadd_pd,
           _mm256_storeu_pd, 4)

/* Without FMA hardware: separate multiply and add, 2 FLOPs all the same. */
#define SCALAR_MULADD(a, b, c) ((a) * (b) + (c))
#define SCALAR_STORE(p, v) (*(p) = (v))
FMA_KERNEL(fma_scalar_f32, , float, float, (float), SCALAR_MULADD, SCALAR_STORE, 1)
FMA_KERNEL(fma_scalar_f64, , double, double, (double), SCALAR_MULADD, SCALAR_STORE, 1)

typedef double (*fma_fn)(long);

/* ---- running something on every core at once ---- */
struct worker {
  pthread_t thread;
  pthread_barrier_t *start;
  void (*body)(struct worker *);
  /* inputs */
  fma_fn fma;
  long iters;
  double *a, *b, *c;
  size_t n;
  int passes;
  /* outputs */
  double t0, t1, sink;
};

static void *worker_main(void *arg) {
  struct worker *w = arg;
  pthread_barrier_wait(w->start);
  w->t0 = now();
  w->body(w);
  w->t1 = now();
  return NULL;
}

/* Runs body on `threads` threads started together; returns the wall time
 * from the first start to the last finish (0 when a thread failed to start). */
static double run_all(struct worker *ws, int threads) {
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, (unsigned)threads);
  int started = 0;
  for (int i = 0; i < threads; i++) {
    ws[i].start = &start;
    if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]) != 0)
      break;
    started++;
  }
  if (started < threads) { /* cannot happen in practice; never leave threads waiting */
    fprintf(stderr, "pthread_create failed\n");
    exit(2);
  }
  double first = 1e300, last = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(ws[i].thread, NULL);
    if (ws[i].t0 < first)
      first = ws[i].t0;
    if (ws[i].t1 > last)
      last = ws[i].t1;
  }
  pthread_barrier_destroy(&start);
  return last - first;
}

static void fma_body(struct worker *w) { w->sink = w->fma(w->iters); }

/* Iterations of `fma` that take about `seconds` on one thread. */
static long calibrate(fma_fn fma, double seconds) {
  long iters = 1 << 16;
  double t;
  for (;;) {
    double t0 = now();
    volatile double s = fma(iters);
    (void)s;
    t = now() - t0;
    if (t > 0.01)
      break;
    iters *= 4;
  }
  return (long)((double)iters * seconds / t) + 1;
}

/* GFLOP/s of one trial of `fma` on all threads. */
static double fma_trial(fma_fn fma, long iters, int lanes, int threads) {
  struct worker *ws = calloc((size_t)threads, sizeof *ws);
  for (int i = 0; i < threads; i++) {
    ws[i].body = fma_body;
    ws[i].fma = fma;
    ws[i].iters = iters;
  }
  double wall = run_all(ws, threads);
  free(ws);
  return 2.0 * FMA_CHAINS * lanes * (double)iters * threads / wall * 1e-9;
}

/* ---- STREAM triad: a = b + s * c, each thread on its own slice ---- */
static void triad_init_body(struct worker *w) {
  for (size_t i = 0; i < w->n; i++) { /* first touch by the thread that uses it */
    w->a[i] = 0.0;
    w->b[i] = 1.0 + (double)(i & 7);
    w->c[i] = 2.0;
  }
}

static void triad_body(struct worker *w) {
  double *restrict a = w->a;
  const double *restrict b = w->b, *restrict c = w->c;
  for (int p = 0; p < w->passes; p++) {
    for (size_t i = 0; i < w->n; i++)
      a[i] = b[i] + 3.0 * c[i];
    __asm__ volatile("" ::: "memory"); /* every pass really happens */
  }
  w->sink = a[w->n / 2];
}

static double triad_gbs(int threads, size_t bytes_per_array, int passes, int trials) {
  size_t n = bytes_per_array / sizeof(double);
  n -= n % (size_t)threads;
  double *a = NULL, *b = NULL, *c = NULL;
  if (posix_memalign((void **)&a, 4096, n * sizeof *a) ||
      posix_memalign((void **)&b, 4096, n * sizeof *b) ||
      posix_memalign((void **)&c, 4096, n * sizeof *c)) {
    fprintf(stderr, "out of memory for the triad arrays\n");
    exit(2);
  }
  struct worker *ws = calloc((size_t)threads, sizeof *ws);
  size_t chunk = n / (size_t)threads;
  for (int i = 0; i < threads; i++) {
    ws[i].a = a + chunk * (size_t)i;
    ws[i].b = b + chunk * (size_t)i;
    ws[i].c = c + chunk * (size_t)i;
    ws[i].n = chunk;
    ws[i].passes = passes;
    ws[i].body = triad_init_body;
  }
  run_all(ws, threads);
  double best = 0;
  for (int k = 0; k < trials; k++) {
    for (int i = 0; i < threads; i++)
      ws[i].body = triad_body;
    double wall = run_all(ws, threads);
    double gbs = 3.0 * (double)(n * sizeof(double)) * passes / wall * 1e-9;
    if (gbs > best)
      best = gbs;
  }
  free(ws);
  free(a);
  free(b);
  free(c);
  return best;
}

static void read_cpu_model(char *out, size_t size) {
  snprintf(out, size, "unknown CPU");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) == 0) {
      const char *colon = strchr(line, ':');
      if (colon) {
        colon++;
        while (*colon == ' ' || *colon == '\t')
          colon++;
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = '\0';
      }
      break;
    }
  }
  fclose(f);
}

void measure_machine_limits(struct machine_limits *out, bool quick) {
  memset(out, 0, sizeof *out);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  out->threads = cores > 0 ? (int)cores : 1;
  read_cpu_model(out->cpu_model, sizeof out->cpu_model);

  __builtin_cpu_init();
  fma_fn f32 = fma_scalar_f32, f64 = fma_scalar_f64;
  out->isa = "scalar";
  out->fp32_lanes = 1;
  if (__builtin_cpu_supports("avx512f")) {
    f32 = fma_avx512_f32;
    f64 = fma_avx512_f64;
    out->isa = "AVX-512";
    out->fp32_lanes = 16;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    f32 = fma_avx2_f32;
    f64 = fma_avx2_f64;
    out->isa = "AVX2+FMA";
    out->fp32_lanes = 8;
  }
  /* short trials, FP32 and FP64 alternating, best of each: on a shared
   * machine some trial usually finds the cores free */
  double seconds = quick ? 0.02 : 0.05;
  int trials = quick ? 2 : 8;
  int lanes64 = out->fp32_lanes > 1 ? out->fp32_lanes / 2 : 1;
  long iters32 = calibrate(f32, seconds), iters64 = calibrate(f64, seconds);
  for (int k = 0; k < trials; k++) {
    double g32 = fma_trial(f32, iters32, out->fp32_lanes, out->threads);
    double g64 = fma_trial(f64, iters64, lanes64, out->threads);
    double g1 = fma_trial(f32, iters32, out->fp32_lanes, 1);
    if (g32 > out->fp32_gflops)
      out->fp32_gflops = g32;
    if (g1 > out->fp32_gflops_one_core)
      out->fp32_gflops_one_core = g1;
    if (g64 > out->fp64_gflops)
      out->fp64_gflops = g64;
  }
  size_t array_bytes = (size_t)(quick ? 64 : 256) << 20;
  out->triad_mib = (double)(array_bytes >> 20);
  out->triad_gbs = triad_gbs(out->threads, array_bytes, quick ? 2 : 4, quick ? 2 : 5);
}
