/* Compute-bound cases: SGEMM and DGEMM (naive and tiled), n-body, Mandelbrot,
 * 2D convolution, a transcendental-heavy kernel, a double-precision
 * polynomial and a kernel with a large private array. Their limit is the
 * machine's peak FMA rate (an FMA counts as 2 FLOPs, so kernels that are not
 * pure FMA streams cannot reach 100%). */
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- GEMM: one source for float and double (-DREAL=...) ---- */
static const char *gemm_source =
    "#ifdef FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#endif\n"
    "kernel void gemm_naive(int n, global const REAL *A, global const REAL *B,\n"
    "                       global REAL *C) {\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  REAL acc = 0;\n"
    "  for (int k = 0; k < n; k++)\n"
    "    acc += A[row * n + k] * B[k * n + col];\n"
    "  C[row * n + col] = acc;\n"
    "}\n"
    "#define TS 16\n"
    "kernel void gemm_tiled(int n, global const REAL *A, global const REAL *B,\n"
    "                       global REAL *C) {\n"
    "  local REAL As[TS][TS], Bs[TS][TS];\n"
    "  int lr = get_local_id(1), lc = get_local_id(0);\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  REAL acc = 0;\n"
    "  for (int t = 0; t < n / TS; t++) {\n"
    "    As[lr][lc] = A[row * n + t * TS + lc];\n"
    "    Bs[lr][lc] = B[(t * TS + lr) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TS; k++)\n"
    "      acc += As[lr][k] * Bs[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n";


/* sizes for about 50-300 ms per repetition on 2 cores: the naive kernels
 * are far slower than the tiled ones */
static int gemm_size(bool fp64, bool tiled) {
  if (tiled)
    return fp64 ? 640 : 1024;
  return fp64 ? 448 : 384;
}

static void *gemm_prepare_n(bool quick, struct case_work *w, bool fp64, bool tiled, int n) {
  struct bench_gemm_host *h = calloc(1, sizeof *h);
  h->fp64 = fp64;
  h->tiled = tiled;
  h->n = quick ? 128 : n;
  size_t count = (size_t)h->n * h->n, elem = fp64 ? sizeof(double) : sizeof(float);
  h->A = bench_alloc(count * elem);
  h->B = bench_alloc(count * elem);
  unsigned seed = 31337;
  for (size_t i = 0; i < count; i++) {
    float a = bench_randf(&seed, -1, 1), b = bench_randf(&seed, -1, 1);
    if (fp64) {
      ((double *)h->A)[i] = a;
      ((double *)h->B)[i] = b;
    } else {
      ((float *)h->A)[i] = a;
      ((float *)h->B)[i] = b;
    }
  }
  *w = (struct case_work){.amount = 2.0 * h->n * h->n * (double)h->n,
                          .scale = 1e9,
                          .unit = "GFLOP/s"};
  return h;
}

static void *gemm_prepare(bool quick, struct case_work *w, bool fp64, bool tiled) {
  return gemm_prepare_n(quick, w, fp64, tiled, gemm_size(fp64, tiled));
}

void *bench_gemm_prepare(bool quick, struct case_work *w, bool fp64, int n) {
  return gemm_prepare_n(quick, w, fp64, false, n);
}

static void *sgemm_naive_prepare(bool q, struct case_work *w) {
  return gemm_prepare(q, w, false, false);
}
static void *sgemm_tiled_prepare(bool q, struct case_work *w) {
  return gemm_prepare(q, w, false, true);
}
static void *dgemm_naive_prepare(bool q, struct case_work *w) {
  return gemm_prepare(q, w, true, false);
}
static void *dgemm_tiled_prepare(bool q, struct case_work *w) {
  return gemm_prepare(q, w, true, true);
}

void bench_gemm_release(void *p) {
  struct bench_gemm_host *h = p;
  free(h->A);
  free(h->B);
  free(h);
}

bool bench_gemm_buffers(struct instance *in, const struct bench_gemm_host *h) {
  size_t bytes = (size_t)h->n * h->n * (h->fp64 ? sizeof(double) : sizeof(float));
  in->buffers[0] = bench_buffer(in->env, bytes, h->A);
  in->buffers[1] = bench_buffer(in->env, bytes, h->B);
  in->buffers[2] = bench_buffer(in->env, bytes, NULL);
  return in->buffers[0] && in->buffers[1] && in->buffers[2];
}

static struct instance *gemm_open(struct platform_env *env, void *host) {
  struct bench_gemm_host *h = host;
  const char *names[] = {h->tiled ? "gemm_tiled" : "gemm_naive", NULL};
  struct instance *in = bench_open_instance(
      env, gemm_source, h->fp64 ? "-DREAL=double -DFP64" : "-DREAL=float", names);
  if (!in)
    return NULL;
  if (!bench_gemm_buffers(in, h) || !bench_args(in, 0, "ibbb", h->n, 0, 1, 2)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g[2] = {(size_t)h->n, (size_t)h->n}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  return in;
}

/* Checks 256 entries spread over C against a double-precision dot product;
 * the tolerance scales with sum |a_ik * b_kj|. */
bool bench_gemm_check(struct instance *in, void *host) {
  struct bench_gemm_host *h = host;
  size_t n = (size_t)h->n, elem = h->fp64 ? sizeof(double) : sizeof(float);
  void *C = bench_alloc(n * n * elem);
  bool ok = bench_read(in, 2, C, n * n * elem);
  unsigned seed = 5;
  for (int s = 0; ok && s < 256; s++) {
    size_t r = bench_rand(&seed) % n, c = bench_rand(&seed) % n;
    double want = 0, mag = 0;
    for (size_t k = 0; k < n; k++) {
      double a = h->fp64 ? ((double *)h->A)[r * n + k] : ((float *)h->A)[r * n + k];
      double b = h->fp64 ? ((double *)h->B)[k * n + c] : ((float *)h->B)[k * n + c];
      want += a * b;
      mag += fabs(a * b);
    }
    double got = h->fp64 ? ((double *)C)[r * n + c] : ((float *)C)[r * n + c];
    double tol = (h->fp64 ? 1e-13 : 1e-5) * mag + 1e-30;
    if (!(fabs(got - want) <= tol)) {
      fprintf(stderr, "    C[%zu][%zu] = %.17g, want %.17g\n", r, c, got, want);
      ok = false;
    }
  }
  free(C);
  return ok;
}

/* ---- n-body: all-pairs accelerations, float4 and rsqrt ---- */
static const char *nbody_source =
    "kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 p = pos[i], a = (float4)(0.0f);\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 q = pos[j];\n"
    "    float4 d = q - p;\n"
    "    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;\n"
    "    float inv = rsqrt(r2);\n"
    "    a += d * (q.w * inv * inv * inv);\n"
    "  }\n"
    "  acc[i] = (float4)(a.xyz, 0.0f);\n"
    "}\n";

enum { NBODY_FLOPS = 20 }; /* per interaction, the usual convention */
struct nbody_host {
  int n, repeat;
  float eps;
  float *pos; /* x y z mass */
};

static void *nbody_prepare(bool quick, struct case_work *w) {
  struct nbody_host *h = calloc(1, sizeof *h);
  h->n = quick ? 1024 : 6144;
  /* a launch takes about a millisecond on 16 cores: 4 per repetition, so
   * the figure is the kernel's throughput rather than the start and end of
   * one launch (threads waking, the last work-groups) */
  h->repeat = quick ? 1 : 4;
  h->eps = 1e-2f;
  h->pos = bench_alloc((size_t)h->n * 4 * sizeof(float));
  unsigned seed = 2024;
  for (int i = 0; i < h->n; i++) {
    for (int c = 0; c < 3; c++)
      h->pos[4 * i + c] = bench_randf(&seed, -1, 1);
    h->pos[4 * i + 3] = bench_randf(&seed, 0.5f, 1.5f);
  }
  *w = (struct case_work){.amount = (double)NBODY_FLOPS * h->n * h->n * h->repeat,
                          .scale = 1e9,
                          .unit = "GFLOP/s"};
  return h;
}

static void nbody_release(void *p) {
  struct nbody_host *h = p;
  free(h->pos);
  free(h);
}

static struct instance *nbody_open(struct platform_env *env, void *host) {
  struct nbody_host *h = host;
  const char *names[] = {"nbody", NULL};
  struct instance *in = bench_open_instance(env, nbody_source, NULL, names);
  if (!in)
    return NULL;
  size_t bytes = (size_t)h->n * 4 * sizeof(float);
  in->buffers[0] = bench_buffer(env, bytes, h->pos);
  in->buffers[1] = bench_buffer(env, bytes, NULL);
  if (!in->buffers[0] || !in->buffers[1] ||
      !bench_args(in, 0, "bbif", 0, 1, h->n, (double)h->eps)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = (size_t)h->n, l = 64;
  bench_add_launch(in, 0, 1, &g, &l);
  in->repeat = h->repeat;
  return in;
}

static bool nbody_check(struct instance *in, void *host) {
  struct nbody_host *h = host;
  size_t bytes = (size_t)h->n * 4 * sizeof(float);
  float *acc = bench_alloc(bytes);
  bool ok = bench_read(in, 1, acc, bytes);
  for (int s = 0; ok && s < 64; s++) {
    int i = (int)((long)s * h->n / 64);
    double want[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
    for (int j = 0; j < h->n; j++) {
      double d[3], r2 = h->eps;
      for (int c = 0; c < 3; c++) {
        d[c] = (double)h->pos[4 * j + c] - h->pos[4 * i + c];
        r2 += d[c] * d[c];
      }
      double f = h->pos[4 * j + 3] / (r2 * sqrt(r2));
      for (int c = 0; c < 3; c++) {
        want[c] += d[c] * f;
        mag[c] += fabs(d[c] * f);
      }
    }
    for (int c = 0; c < 3; c++)
      if (!(fabs(acc[4 * i + c] - want[c]) <= 1e-4 * mag[c])) {
        fprintf(stderr, "    body %d component %d: got %.9g, want %.9g\n", i, c,
                acc[4 * i + c], want[c]);
        ok = false;
      }
  }
  free(acc);
  return ok;
}

/* ---- Mandelbrot: a data-dependent loop per work-item ---- */
static const char *mandel_source =
    "kernel void mandelbrot(global int *out, int w, int h, int max_iter) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;\n"
    "  float zr = 0.0f, zi = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < max_iter && zr * zr + zi * zi <= 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    i++;\n"
    "  }\n"
    "  out[y * w + x] = i;\n"
    "}\n";

enum { MANDEL_FLOPS = 8 }; /* per iteration: 3 mul, 1 fma-able pair, compare */
struct mandel_host {
  int w, h, max_iter, repeat;
  int *want;
};

static void *mandel_prepare(bool quick, struct case_work *wk) {
  struct mandel_host *h = calloc(1, sizeof *h);
  h->w = quick ? 256 : 1024;
  h->h = quick ? 256 : 768;
  h->max_iter = quick ? 64 : 256;
  h->want = bench_alloc((size_t)h->w * h->h * sizeof(int));
  double iters = 0;
  for (int y = 0; y < h->h; y++)
    for (int x = 0; x < h->w; x++) {
      float cr = -2.0f + 3.0f * (float)x / (float)h->w;
      float ci = -1.5f + 3.0f * (float)y / (float)h->h;
      float zr = 0.0f, zi = 0.0f;
      int i = 0;
      while (i < h->max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        i++;
      }
      h->want[y * h->w + x] = i;
      iters += i;
    }
  h->repeat = quick ? 1 : 4; /* about a millisecond per launch on 16 cores, as n-body */
  *wk = (struct case_work){
      .amount = MANDEL_FLOPS * iters * h->repeat, .scale = 1e9, .unit = "GFLOP/s"};
  return h;
}

static void mandel_release(void *p) {
  struct mandel_host *h = p;
  free(h->want);
  free(h);
}

static struct instance *mandel_open(struct platform_env *env, void *host) {
  struct mandel_host *h = host;
  const char *names[] = {"mandelbrot", NULL};
  struct instance *in = bench_open_instance(env, mandel_source, NULL, names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, (size_t)h->w * h->h * sizeof(int), NULL);
  if (!in->buffers[0] || !bench_args(in, 0, "biii", 0, h->w, h->h, h->max_iter)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g[2] = {(size_t)h->w, (size_t)h->h}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  in->repeat = h->repeat;
  return in;
}

/* Points on the set's boundary are chaotic: a contracted multiply-add may
 * change their iteration count, so a few differing pixels are allowed. */
static bool mandel_check(struct instance *in, void *host) {
  struct mandel_host *h = host;
  size_t count = (size_t)h->w * h->h, differ = 0;
  int *got = bench_alloc(count * sizeof(int));
  bool ok = bench_read(in, 0, got, count * sizeof(int));
  for (size_t i = 0; ok && i < count; i++)
    if (got[i] != h->want[i])
      differ++;
  if (ok && differ * 200 > count) {
    fprintf(stderr, "    %zu of %zu pixels differ\n", differ, count);
    ok = false;
  }
  free(got);
  return ok;
}

/* ---- 2D convolution: 5x5 filter over a padded image ---- */
static const char *conv_source =
    "#define K 5\n"
    "kernel void conv2d(global const float *in, global float *out, constant float *f,\n"
    "                   int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), pitch = w + K - 1;\n"
    "  float s = 0.0f;\n"
    "  for (int dy = 0; dy < K; dy++)\n"
    "    for (int dx = 0; dx < K; dx++)\n"
    "      s += f[dy * K + dx] * in[(y + dy) * pitch + x + dx];\n"
    "  out[y * w + x] = s;\n"
    "}\n";

enum { CONV_K = 5 };
struct conv_host {
  int w, h, repeat;
  float *in; /* (w + K - 1) x (h + K - 1) */
  float filter[CONV_K * CONV_K];
};

static void *conv_prepare(bool quick, struct case_work *wk) {
  struct conv_host *h = calloc(1, sizeof *h);
  h->w = h->h = quick ? 256 : 4096;
  h->repeat = quick ? 1 : 4;
  size_t count = (size_t)(h->w + CONV_K - 1) * (h->h + CONV_K - 1);
  h->in = bench_alloc(count * sizeof(float));
  unsigned seed = 8;
  for (size_t i = 0; i < count; i++)
    h->in[i] = bench_randf(&seed, 0, 1);
  for (int i = 0; i < CONV_K * CONV_K; i++)
    h->filter[i] = bench_randf(&seed, -0.2f, 0.2f);
  *wk = (struct case_work){.amount = 2.0 * CONV_K * CONV_K * h->w * (double)h->h * h->repeat,
                           .scale = 1e9,
                           .unit = "GFLOP/s"};
  return h;
}

static void conv_release(void *p) {
  struct conv_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *conv_open(struct platform_env *env, void *host) {
  struct conv_host *h = host;
  const char *names[] = {"conv2d", NULL};
  struct instance *in = bench_open_instance(env, conv_source, NULL, names);
  if (!in)
    return NULL;
  size_t in_count = (size_t)(h->w + CONV_K - 1) * (h->h + CONV_K - 1);
  in->buffers[0] = bench_buffer(env, in_count * sizeof(float), h->in);
  in->buffers[1] = bench_buffer(env, (size_t)h->w * h->h * sizeof(float), NULL);
  in->buffers[2] = bench_buffer(env, sizeof h->filter, h->filter);
  if (!in->buffers[0] || !in->buffers[1] || !in->buffers[2] ||
      !bench_args(in, 0, "bbbi", 0, 1, 2, h->w)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g[2] = {(size_t)h->w, (size_t)h->h}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  in->repeat = h->repeat;
  return in;
}

/* Checks 64 rows spread over the image, every column. */
static bool conv_check(struct instance *in, void *host) {
  struct conv_host *h = host;
  size_t count = (size_t)h->w * h->h;
  int pitch = h->w + CONV_K - 1;
  float *got = bench_alloc(count * sizeof(float));
  bool ok = bench_read(in, 1, got, count * sizeof(float));
  for (int s = 0; ok && s < 64; s++) {
    int y = (int)((long)s * h->h / 64) + s % 2 * (h->h / 128);
    for (int x = 0; ok && x < h->w; x++) {
      double want = 0, mag = 0;
      for (int dy = 0; dy < CONV_K; dy++)
        for (int dx = 0; dx < CONV_K; dx++) {
          double t = (double)h->filter[dy * CONV_K + dx] * h->in[(y + dy) * pitch + x + dx];
          want += t;
          mag += fabs(t);
        }
      double g = got[(size_t)y * h->w + x];
      if (!(fabs(g - want) <= 1e-5 * mag)) {
        fprintf(stderr, "    out(%d, %d) = %.9g, want %.9g\n", x, y, g, want);
        ok = false;
      }
    }
  }
  free(got);
  return ok;
}

/* ---- transcendental functions ---- */
static const char *math_source =
    "kernel void math_heavy(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = in[i];\n"
    "  out[i] = exp(x * 0.5f) + log(x) * sin(x * 3.0f) + pow(x, 1.3f);\n"
    "}\n";

struct math_host {
  size_t n;
  float *in;
};

static void *math_prepare(bool quick, struct case_work *wk) {
  struct math_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 16 : (size_t)4 << 20;
  h->in = bench_alloc(h->n * sizeof(float));
  unsigned seed = 64;
  for (size_t i = 0; i < h->n; i++)
    h->in[i] = bench_randf(&seed, 0.5f, 4.0f);
  *wk = (struct case_work){.amount = (double)h->n, .scale = 1e6, .unit = "Melem/s"};
  return h;
}

static void math_release(void *p) {
  struct math_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *math_open(struct platform_env *env, void *host) {
  struct math_host *h = host;
  return bench_open_elementwise(env, math_source, "math_heavy", h->n, sizeof(float), h->in, 1);
}

static bool math_check(struct instance *in, void *host) {
  struct math_host *h = host;
  float *got = bench_alloc(h->n * sizeof(float));
  bool ok = bench_read(in, 1, got, h->n * sizeof(float));
  for (size_t i = 0; ok && i < h->n; i++) {
    /* the same float operations, each function evaluated exactly; the
     * tolerance covers the spec's ulp bounds of the four functions */
    float x = h->in[i];
    double e = exp((double)(x * 0.5f)), l = log((double)x), s = sin((double)(x * 3.0f)),
           p = pow((double)x, (double)1.3f);
    double want = e + l * s + p, mag = fabs(e) + fabs(l * s) + fabs(p);
    if (!(fabs(got[i] - want) <= 4e-6 * mag)) {
      fprintf(stderr, "    math_heavy(%.9g) = %.9g, want %.9g\n", x, got[i], want);
      ok = false;
    }
  }
  free(got);
  return ok;
}

/* ---- double precision: a degree-32 polynomial per element (Horner) ---- */
enum { POLY_DEGREE = 32 };
static const char *poly_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void poly(global const double *x, global double *y, constant double *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  double v = x[i], acc = c[0];\n"
    "  for (int k = 1; k <= DEGREE; k++)\n"
    "    acc = acc * v + c[k];\n"
    "  y[i] = acc;\n"
    "}\n";

struct poly_host {
  size_t n;
  int repeat;
  double *x;
  double c[POLY_DEGREE + 1];
};

static void *poly_prepare(bool quick, struct case_work *wk) {
  struct poly_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 16 : (size_t)8 << 20;
  h->repeat = quick ? 1 : 8;
  h->x = bench_alloc(h->n * sizeof(double));
  unsigned seed = 3;
  for (size_t i = 0; i < h->n; i++)
    h->x[i] = bench_randf(&seed, -1, 1);
  for (int k = 0; k <= POLY_DEGREE; k++)
    h->c[k] = 1.0 / (k + 1);
  *wk = (struct case_work){.amount = 2.0 * POLY_DEGREE * h->n * h->repeat,
                           .scale = 1e9,
                           .unit = "GFLOP/s"};
  return h;
}

static void poly_release(void *p) {
  struct poly_host *h = p;
  free(h->x);
  free(h);
}

static struct instance *poly_open(struct platform_env *env, void *host) {
  struct poly_host *h = host;
  const char *names[] = {"poly", NULL};
  char options[32];
  snprintf(options, sizeof options, "-DDEGREE=%d", POLY_DEGREE);
  struct instance *in = bench_open_instance(env, poly_source, options, names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, h->n * sizeof(double), h->x);
  in->buffers[1] = bench_buffer(env, h->n * sizeof(double), NULL);
  in->buffers[2] = bench_buffer(env, sizeof h->c, h->c);
  if (!in->buffers[0] || !in->buffers[1] || !in->buffers[2] ||
      !bench_args(in, 0, "bbb", 0, 1, 2)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = h->n, l = 256;
  bench_add_launch(in, 0, 1, &g, &l);
  in->repeat = h->repeat;
  return in;
}

static bool poly_check(struct instance *in, void *host) {
  struct poly_host *h = host;
  double *got = bench_alloc(h->n * sizeof(double)), *want = bench_alloc(h->n * sizeof(double));
  for (size_t i = 0; i < h->n; i++) {
    double acc = h->c[0];
    for (int k = 1; k <= POLY_DEGREE; k++)
      acc = acc * h->x[i] + h->c[k];
    want[i] = acc;
  }
  bool ok = bench_read(in, 1, got, h->n * sizeof(double)) &&
            bench_close_d(got, want, h->n, 1e-13, 1e-15);
  free(got);
  free(want);
  return ok;
}

/* ---- a large private array indexed with work-item-dependent indices ---- */
enum { PRIV_SIZE = 128, PRIV_ROUNDS = 512 };
static const char *private_source =
    "kernel void private_array(global const float *in, global float *out) {\n"
    "  size_t g = get_global_id(0);\n"
    "  float x = in[g];\n"
    "  float p[P];\n"
    "  for (int i = 0; i < P; i++) p[i] = x + (float)i;\n"
    "  uint idx = (uint)(x * 7.0f) & (P - 1);\n"
    "  for (int r = 0; r < ROUNDS; r++) {\n"
    "    idx = (idx * 13u + 7u) & (P - 1);\n"
    "    p[idx] = p[idx] * 0.5f + p[(idx + 17u) & (P - 1)] * 0.25f;\n"
    "  }\n"
    "  float s = 0.0f;\n"
    "  for (int i = 0; i < P; i++) s += p[i];\n"
    "  out[g] = s;\n"
    "}\n";

struct private_host {
  size_t n;
  float *in, *want;
};

static void *private_prepare(bool quick, struct case_work *wk) {
  struct private_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 14 : (size_t)1 << 17;
  h->in = bench_alloc(h->n * sizeof(float));
  h->want = bench_alloc(h->n * sizeof(float));
  unsigned seed = 17;
  for (size_t g = 0; g < h->n; g++) {
    float x = h->in[g] = bench_randf(&seed, 0, 8);
    float p[PRIV_SIZE];
    for (int i = 0; i < PRIV_SIZE; i++)
      p[i] = x + (float)i;
    unsigned idx = (unsigned)(x * 7.0f) & (PRIV_SIZE - 1);
    for (int r = 0; r < PRIV_ROUNDS; r++) {
      idx = (idx * 13u + 7u) & (PRIV_SIZE - 1);
      /* both products are exact (powers of two), so fusing cannot change the sum */
      p[idx] = p[idx] * 0.5f + p[(idx + 17u) & (PRIV_SIZE - 1)] * 0.25f;
    }
    float s = 0.0f;
    for (int i = 0; i < PRIV_SIZE; i++)
      s += p[i];
    h->want[g] = s;
  }
  /* 3 FLOPs per round, one per element to fill and one to sum */
  *wk = (struct case_work){.amount = (3.0 * PRIV_ROUNDS + 2.0 * PRIV_SIZE) * h->n,
                           .scale = 1e9,
                           .unit = "GFLOP/s"};
  return h;
}

static void private_release(void *p) {
  struct private_host *h = p;
  free(h->in);
  free(h->want);
  free(h);
}

static struct instance *private_open(struct platform_env *env, void *host) {
  struct private_host *h = host;
  const char *names[] = {"private_array", NULL};
  char options[64];
  snprintf(options, sizeof options, "-DP=%d -DROUNDS=%d", PRIV_SIZE, PRIV_ROUNDS);
  struct instance *in = bench_open_instance(env, private_source, options, names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, h->n * sizeof(float), h->in);
  in->buffers[1] = bench_buffer(env, h->n * sizeof(float), NULL);
  if (!in->buffers[0] || !in->buffers[1] || !bench_args(in, 0, "bb", 0, 1)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = h->n, l = 64;
  bench_add_launch(in, 0, 1, &g, &l);
  return in;
}

static bool private_check(struct instance *in, void *host) {
  struct private_host *h = host;
  float *got = bench_alloc(h->n * sizeof(float));
  bool ok = bench_read(in, 1, got, h->n * sizeof(float)) &&
            bench_close_f(got, h->want, h->n, 1e-6, 1e-6);
  free(got);
  return ok;
}

const struct bench_case bench_compute_cases[] = {
    {.name = "sgemm_naive", .what = "384^3 SGEMM, one dot product per work-item",
     .limit = LIMIT_FP32, .prepare = sgemm_naive_prepare, .open = gemm_open,
     .check = bench_gemm_check, .release_host = bench_gemm_release},
    {.name = "sgemm_tiled", .what = "1024^3 SGEMM, 16x16 local tiles and barriers",
     .limit = LIMIT_FP32, .prepare = sgemm_tiled_prepare, .open = gemm_open,
     .check = bench_gemm_check, .release_host = bench_gemm_release},
    {.name = "dgemm_naive", .what = "448^3 DGEMM, one dot product per work-item",
     .limit = LIMIT_FP64, .needs_fp64 = true, .prepare = dgemm_naive_prepare,
     .open = gemm_open, .check = bench_gemm_check, .release_host = bench_gemm_release},
    {.name = "dgemm_tiled", .what = "640^3 DGEMM, 16x16 local tiles and barriers",
     .limit = LIMIT_FP64, .needs_fp64 = true, .prepare = dgemm_tiled_prepare,
     .open = gemm_open, .check = bench_gemm_check, .release_host = bench_gemm_release},
    {.name = "nbody", .what = "6144 bodies all pairs, float4 and rsqrt (20 FLOP/pair), 4 launches",
     .limit = LIMIT_FP32, .prepare = nbody_prepare, .open = nbody_open, .check = nbody_check,
     .release_host = nbody_release},
    {.name = "mandelbrot",
     .what = "1024x768 pixels, up to 256 iterations (8 FLOP/iteration), 4 launches",
     .limit = LIMIT_FP32, .prepare = mandel_prepare, .open = mandel_open,
     .check = mandel_check, .release_host = mandel_release},
    {.name = "conv2d_5x5", .what = "4096^2 image, 5x5 filter in constant memory, 4 times",
     .limit = LIMIT_FP32, .prepare = conv_prepare, .open = conv_open, .check = conv_check,
     .release_host = conv_release},
    {.name = "math_heavy", .what = "exp + log * sin + pow per element, 4M floats",
     .limit = LIMIT_NONE, .prepare = math_prepare, .open = math_open, .check = math_check,
     .release_host = math_release},
    {.name = "fp64_poly", .what = "degree-32 double polynomial (Horner), 8M elements, 8 times",
     .limit = LIMIT_FP64, .needs_fp64 = true, .prepare = poly_prepare, .open = poly_open,
     .check = poly_check, .release_host = poly_release},
    {.name = "private_array", .what = "128-float private array, varying indices, 128K items",
     .limit = LIMIT_FP32, .prepare = private_prepare, .open = private_open,
     .check = private_check, .release_host = private_release},
    {.name = NULL},
};
