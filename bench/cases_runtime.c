/* Runtime cases: enqueue -> completion latency of a tiny kernel, throughput
 * of many small kernels on an out-of-order queue, and clBuildProgram times
 * (cold: a source never seen before; cached: the same source again), each
 * also measured up to the first result of every kernel, because some
 * implementations finish code generation at the first launch. */
#include "suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- latency ---- */
static const char *tiny_source =
    "kernel void tiny(global int *p) { p[get_global_id(0)] += 1; }\n"
    "kernel void fill(global uint *p) {\n"
    "  size_t i = get_global_id(0);\n"
    "  p[i] = (uint)i * 3u + 1u;\n"
    "}\n";

struct counted {
  struct instance base;
  long launches; /* latency: how many times tiny ran; small kernels: kernels per run */
};

struct runtime_host {
  int launches; /* per repetition */
};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *latency_prepare(bool quick, struct case_work *w) {
  struct runtime_host *h = calloc(1, sizeof *h);
  h->launches = quick ? 100 : 1000;
  *w = (struct case_work){.amount = 0, .time_in_us = true};
  return h;
}

static struct instance *counted_open(struct platform_env *env, const char *kernel,
                                     size_t buffer_bytes) {
  struct instance *in = bench_open_instance(env, tiny_source, NULL,
                                            (const char *const[]){kernel, NULL});
  if (!in)
    return NULL;
  struct counted *c = realloc(in, sizeof *c);
  if (!c) {
    bench_close_instance(in);
    return NULL;
  }
  c->launches = 0;
  c->base.buffers[0] = bench_buffer(env, buffer_bytes, NULL);
  if (!c->base.buffers[0] || !bench_args(&c->base, 0, "b", 0)) {
    bench_close_instance(&c->base);
    return NULL;
  }
  return &c->base;
}

static struct instance *latency_open(struct platform_env *env, void *host) {
  (void)host;
  return counted_open(env, "tiny", 64 * sizeof(int));
}

/* One repetition: `launches` enqueue + clFinish pairs; returns the median. */
static double latency_run(struct instance *in, void *host) {
  struct runtime_host *h = host;
  struct counted *c = (struct counted *)in;
  double *t = malloc((size_t)h->launches * sizeof *t);
  if (!t)
    return -1;
  size_t g = 64, l = 64;
  for (int i = 0; i < h->launches; i++) {
    double t0 = bench_now();
    cl_int err = clEnqueueNDRangeKernel(in->env->queue, in->kernels[0], 1, NULL, &g, &l, 0,
                                        NULL, NULL);
    if (err == CL_SUCCESS)
      err = clFinish(in->env->queue);
    t[i] = bench_now() - t0;
    if (err != CL_SUCCESS) {
      bench_report_cl_error("tiny kernel", err);
      free(t);
      return -1;
    }
    c->launches++;
  }
  qsort(t, (size_t)h->launches, sizeof *t, cmp_double);
  double median = t[h->launches / 2];
  free(t);
  return median;
}

static bool latency_check(struct instance *in, void *host) {
  (void)host;
  struct counted *c = (struct counted *)in;
  int got[64];
  if (!bench_read(in, 0, got, sizeof got))
    return false;
  for (int i = 0; i < 64; i++)
    if (got[i] != (int)c->launches) {
      fprintf(stderr, "    tiny: p[%d] = %d after %ld launches\n", i, got[i], c->launches);
      return false;
    }
  return true;
}

/* ---- many small kernels on an out-of-order queue: each fills its own slice ---- */
enum { SMALL_ITEMS = 1024 };

static void *small_prepare(bool quick, struct case_work *w) {
  struct runtime_host *h = calloc(1, sizeof *h);
  h->launches = quick ? 200 : 10000;
  *w = (struct case_work){.amount = h->launches, .scale = 1e3, .unit = "k kern/s"};
  return h;
}

static struct instance *small_open(struct platform_env *env, void *host) {
  struct runtime_host *h = host;
  return counted_open(env, "fill", (size_t)h->launches * SMALL_ITEMS * sizeof(uint32_t));
}

static bool small_reset(struct instance *in, void *host) {
  struct runtime_host *h = host;
  const cl_uint zero = 0;
  cl_int err = clEnqueueFillBuffer(in->env->queue, in->buffers[0], &zero, sizeof zero, 0,
                                   (size_t)h->launches * SMALL_ITEMS * sizeof(uint32_t), 0,
                                   NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(in->env->queue);
  return err == CL_SUCCESS;
}

static double small_run(struct instance *in, void *host) {
  struct runtime_host *h = host;
  cl_command_queue q = in->env->ooo_queue;
  size_t g = SMALL_ITEMS, l = 64;
  double t0 = bench_now();
  for (int k = 0; k < h->launches; k++) {
    size_t offset = (size_t)k * SMALL_ITEMS;
    cl_int err = clEnqueueNDRangeKernel(q, in->kernels[0], 1, &offset, &g, &l, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      bench_report_cl_error("small kernel", err);
      clFinish(q);
      return -1;
    }
  }
  cl_int err = clFinish(q);
  double t = bench_now() - t0;
  return err == CL_SUCCESS ? t : -1;
}

static bool small_check(struct instance *in, void *host) {
  struct runtime_host *h = host;
  size_t n = (size_t)h->launches * SMALL_ITEMS;
  uint32_t *got = bench_alloc(n * sizeof(uint32_t));
  bool ok = bench_read(in, 0, got, n * sizeof(uint32_t));
  for (size_t i = 0; ok && i < n; i++)
    if (got[i] != (uint32_t)i * 3u + 1u) {
      fprintf(stderr, "    small kernels: p[%zu] = %u\n", i, got[i]);
      ok = false;
    }
  free(got);
  return ok;
}

/* ---- clBuildProgram: a program of several typical kernels ---- */
static const char *build_source =
    "kernel void b_saxpy(global float *out, global const float *in, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) out[i] = 2.0f * in[i] + out[i];\n"
    "}\n"
    "kernel void b_reduce(global float *out, global const float *in, int n) {\n"
    "  local float s[64];\n"
    "  int l = get_local_id(0);\n"
    "  s[l] = get_global_id(0) < n ? in[get_global_id(0)] : 0.0f;\n"
    "  for (int step = get_local_size(0) / 2; step > 0; step /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < step) s[l] += s[l + step];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void b_scan(global float *out, global const float *in, int n) {\n"
    "  local float t[64];\n"
    "  int l = get_local_id(0), g = get_global_id(0);\n"
    "  t[l] = g < n ? in[g] : 0.0f;\n"
    "  for (int off = 1; off < (int)get_local_size(0); off <<= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v = l >= off ? t[l - off] : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] += v;\n"
    "  }\n"
    "  if (g < n) out[g] = t[l];\n"
    "}\n"
    "kernel void b_nbody(global float *out, global const float *in, int n) {\n"
    "  int i = get_global_id(0) % (n / 4);\n"
    "  global const float4 *pos = (global const float4 *)in;\n"
    "  float4 p = pos[i], a = (float4)(0.0f);\n"
    "  for (int j = 0; j < n / 4; j++) {\n"
    "    float4 d = pos[j] - p;\n"
    "    float inv = rsqrt(dot(d.xyz, d.xyz) + 0.01f);\n"
    "    a += d * (inv * inv * inv);\n"
    "  }\n"
    "  out[get_global_id(0)] = a.x + a.y + a.z;\n"
    "}\n"
    "kernel void b_mandel(global float *out, global const float *in, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  float cr = in[g % n] * 0.01f - 1.0f, ci = 0.3f, zr = 0.0f, zi = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < 100 && zr * zr + zi * zi <= 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    i++;\n"
    "  }\n"
    "  out[g] = i;\n"
    "}\n"
    "kernel void b_math(global float *out, global const float *in, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  float x = in[g % n] + 1.0f;\n"
    "  out[g] = exp(-x) + log(x) * sin(x) + pow(x, 0.7f) + tanh(x) + atan2(x, 2.0f);\n"
    "}\n";

static const char *const build_kernels[] = {"b_saxpy",  "b_reduce", "b_scan", "b_nbody",
                                            "b_mandel", "b_math",   NULL};
enum { BUILD_N = 256 };

struct build_host {
  bool cold;          /* a new source every run */
  bool first_launch;  /* time up to the first result of every kernel */
  unsigned long nonce; /* makes sources unique to this process */
  int counter;
  char *cached_source;
};

struct build_inst {
  struct instance base; /* base.program: the last program built */
  cl_mem out, in;
};

static void *build_prepare(bool cold, bool first_launch, struct case_work *w) {
  struct build_host *h = calloc(1, sizeof *h);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  h->cold = cold;
  h->first_launch = first_launch;
  h->nonce = (unsigned long)ts.tv_sec * 1000003ul ^ (unsigned long)ts.tv_nsec ^
             ((unsigned long)getpid() << 20);
  size_t len = strlen(build_source) + 160;
  h->cached_source = malloc(len);
  snprintf(h->cached_source, len, "%s\nkernel void b_unique_%lx(global int *p) { *p = 1; }\n",
           build_source, h->nonce);
  *w = (struct case_work){.amount = 0};
  return h;
}

static void *build_cold_prepare(bool q, struct case_work *w) {
  (void)q;
  return build_prepare(true, false, w);
}
static void *build_cold_launch_prepare(bool q, struct case_work *w) {
  (void)q;
  return build_prepare(true, true, w);
}
static void *build_cached_prepare(bool q, struct case_work *w) {
  (void)q;
  return build_prepare(false, false, w);
}
static void *build_cached_launch_prepare(bool q, struct case_work *w) {
  (void)q;
  return build_prepare(false, true, w);
}

static void build_release(void *p) {
  struct build_host *h = p;
  free(h->cached_source);
  free(h);
}

static struct instance *build_open(struct platform_env *env, void *host) {
  (void)host;
  struct build_inst *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->base.env = env;
  float data[BUILD_N];
  for (int i = 0; i < BUILD_N; i++)
    data[i] = (float)i;
  b->in = bench_buffer(env, sizeof data, data);
  b->out = bench_buffer(env, sizeof data, NULL);
  if (!b->in || !b->out) {
    if (b->in)
      clReleaseMemObject(b->in);
    free(b);
    return NULL;
  }
  return &b->base;
}

static void build_close(struct instance *in) {
  struct build_inst *b = (struct build_inst *)in;
  clReleaseMemObject(b->in);
  clReleaseMemObject(b->out);
  bench_close_instance(in);
}

/* Creates every kernel of the program and runs it once on BUILD_N items. */
static bool launch_all(struct build_inst *b) {
  struct platform_env *env = b->base.env;
  cl_int err = CL_SUCCESS;
  for (int i = 0; build_kernels[i] && err == CL_SUCCESS; i++) {
    cl_kernel k = clCreateKernel(b->base.program, build_kernels[i], &err);
    if (!k)
      break;
    cl_int n = BUILD_N;
    size_t g = BUILD_N, l = 64;
    err = clSetKernelArg(k, 0, sizeof b->out, &b->out);
    if (err == CL_SUCCESS)
      err = clSetKernelArg(k, 1, sizeof b->in, &b->in);
    if (err == CL_SUCCESS)
      err = clSetKernelArg(k, 2, sizeof n, &n);
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clReleaseKernel(k);
  }
  if (err == CL_SUCCESS)
    err = clFinish(env->queue);
  if (err != CL_SUCCESS)
    bench_report_cl_error("first launch", err);
  return err == CL_SUCCESS;
}

static double build_run(struct instance *in, void *host) {
  struct build_host *h = host;
  struct build_inst *b = (struct build_inst *)in;
  char *unique = NULL;
  const char *src = h->cached_source;
  /* a kernel with a new name makes the source new to every cache, including
   * caches keyed by the preprocessed source (a comment would not do) */
  if (h->cold) {
    size_t len = strlen(build_source) + 160;
    unique = malloc(len);
    if (!unique)
      return -1;
    snprintf(unique, len, "%s\nkernel void b_unique_%lx_%d(global int *p) { *p = 1; }\n",
             build_source, h->nonce, h->counter++);
    src = unique;
  }
  if (in->program) {
    clReleaseProgram(in->program);
    in->program = NULL;
  }
  double t0 = bench_now();
  cl_int err;
  in->program = clCreateProgramWithSource(in->env->ctx, 1, &src, NULL, &err);
  if (in->program)
    err = clBuildProgram(in->program, 1, &in->env->device, "", NULL, NULL);
  bool ok = err == CL_SUCCESS && (!h->first_launch || launch_all(b));
  double t = bench_now() - t0;
  free(unique);
  if (!ok) {
    bench_report_cl_error("clBuildProgram", err);
    return -1;
  }
  return t;
}

/* The last program built runs b_saxpy correctly: out = 2 * in + out. */
static bool build_check(struct instance *in, void *host) {
  (void)host;
  struct build_inst *b = (struct build_inst *)in;
  const cl_uint zero = 0;
  cl_int err = clEnqueueFillBuffer(in->env->queue, b->out, &zero, sizeof zero, 0,
                                   BUILD_N * sizeof(float), 0, NULL, NULL);
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(in->program, "b_saxpy", &err) : NULL;
  cl_int n = BUILD_N;
  size_t g = BUILD_N, l = 64;
  if (k) {
    clSetKernelArg(k, 0, sizeof b->out, &b->out);
    clSetKernelArg(k, 1, sizeof b->in, &b->in);
    clSetKernelArg(k, 2, sizeof n, &n);
    err = clEnqueueNDRangeKernel(in->env->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clReleaseKernel(k);
  }
  float got[BUILD_N];
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(in->env->queue, b->out, CL_TRUE, 0, sizeof got, got, 0, NULL,
                              NULL);
  if (err != CL_SUCCESS) {
    bench_report_cl_error("running the built program", err);
    return false;
  }
  for (int i = 0; i < BUILD_N; i++)
    if (got[i] != 2.0f * (float)i) {
      fprintf(stderr, "    b_saxpy: out[%d] = %g\n", i, got[i]);
      return false;
    }
  return true;
}

const struct bench_case bench_runtime_cases[] = {
    {.name = "launch_latency", .what = "tiny kernel (64 items): enqueue + clFinish, median",
     .limit = LIMIT_NONE, .prepare = latency_prepare, .open = latency_open,
     .run = latency_run, .check = latency_check},
    {.name = "small_kernels_ooo", .what = "10000 kernels of 1024 items, out-of-order queue",
     .limit = LIMIT_NONE, .prepare = small_prepare, .open = small_open, .reset = small_reset,
     .run = small_run, .check = small_check},
    {.name = "build_cold", .what = "clBuildProgram of a 6-kernel source never seen before",
     .limit = LIMIT_NONE, .reps = 3, .no_warmup = true, .prepare = build_cold_prepare,
     .open = build_open, .run = build_run, .check = build_check, .close = build_close,
     .release_host = build_release},
    {.name = "build_cold_to_run", .what = "cold build + first launch of all 6 kernels",
     .limit = LIMIT_NONE, .reps = 3, .no_warmup = true, .prepare = build_cold_launch_prepare,
     .open = build_open, .run = build_run, .check = build_check, .close = build_close,
     .release_host = build_release},
    {.name = "build_cached", .what = "clBuildProgram of a source built before",
     .limit = LIMIT_NONE, .prepare = build_cached_prepare, .open = build_open,
     .run = build_run, .check = build_check, .close = build_close,
     .release_host = build_release},
    {.name = "build_cached_to_run", .what = "cached build + first launch of all 6 kernels",
     .limit = LIMIT_NONE, .prepare = build_cached_launch_prepare, .open = build_open,
     .run = build_run, .check = build_check, .close = build_close,
     .release_host = build_release},
    {.name = NULL},
};
