/* Other people's kernels: CLBlast's GEMM through its C API, with its default
 * parameters for the device, on each platform under test.
 *
 * libclblast.so.1 (Debian: libclblast1) is opened at run time, so the suite
 * builds and runs without it; its cases then report that it is missing. The
 * prototypes are the library's public C interface (clblast_c.h), declared
 * here so that its headers are not needed either. CLBlast compiles its
 * kernels on the platform at the first call of a routine (the warm-up run);
 * the figures are the calls after that, but for clblast_sgemm_first_call:
 * CLBlast's own kernel cache cleared (CLBlastClearCache), one call, its
 * program build included. Run it with the implementations' disk caches off
 * (LOOMCL_CACHE=0, POCL_KERNEL_CACHE=0), or it measures a cached build. */
#include "suite.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

enum { CLBLAST_ROW_MAJOR = 101, CLBLAST_TRANSPOSE_NO = 111 };
typedef int (*clblast_sgemm_fn)(int layout, int ta, int tb, size_t m, size_t n, size_t k,
                                float alpha, cl_mem a, size_t a_off, size_t a_ld, cl_mem b,
                                size_t b_off, size_t b_ld, float beta, cl_mem c, size_t c_off,
                                size_t c_ld, cl_command_queue *queue, cl_event *event);
typedef int (*clblast_dgemm_fn)(int layout, int ta, int tb, size_t m, size_t n, size_t k,
                                double alpha, cl_mem a, size_t a_off, size_t a_ld, cl_mem b,
                                size_t b_off, size_t b_ld, double beta, cl_mem c, size_t c_off,
                                size_t c_ld, cl_command_queue *queue, cl_event *event);

typedef int (*clblast_clear_cache_fn)(void);

static struct {
  bool tried;
  clblast_sgemm_fn sgemm;
  clblast_dgemm_fn dgemm;
  clblast_clear_cache_fn clear_cache;
} clblast;

static bool load_clblast(void) {
  if (!clblast.tried) {
    clblast.tried = true;
    void *lib = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      fprintf(stderr, "    CLBlast is not installed (libclblast.so.1: apt-get install libclblast1)\n");
      return false;
    }
    clblast.sgemm = (clblast_sgemm_fn)dlsym(lib, "CLBlastSgemm");
    clblast.dgemm = (clblast_dgemm_fn)dlsym(lib, "CLBlastDgemm");
    clblast.clear_cache = (clblast_clear_cache_fn)dlsym(lib, "CLBlastClearCache");
  }
  return clblast.sgemm && clblast.dgemm && clblast.clear_cache;
}

static struct instance *clblast_gemm_open(struct platform_env *env, void *host) {
  struct bench_gemm_host *h = host;
  struct instance *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->env = env;
  if (!bench_gemm_buffers(in, h)) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

/* One C = A B call, waited for. */
static double clblast_gemm_run(struct instance *in, void *host) {
  struct bench_gemm_host *h = host;
  size_t n = (size_t)h->n;
  cl_command_queue q = in->env->queue;
  cl_event ev = NULL;
  double t0 = bench_now();
  int rc = h->fp64 ? clblast.dgemm(CLBLAST_ROW_MAJOR, CLBLAST_TRANSPOSE_NO, CLBLAST_TRANSPOSE_NO, n,
                                   n, n, 1.0, in->buffers[0], 0, n, in->buffers[1], 0, n, 0.0,
                                   in->buffers[2], 0, n, &q, &ev)
                   : clblast.sgemm(CLBLAST_ROW_MAJOR, CLBLAST_TRANSPOSE_NO, CLBLAST_TRANSPOSE_NO, n,
                                   n, n, 1.0f, in->buffers[0], 0, n, in->buffers[1], 0, n, 0.0f,
                                   in->buffers[2], 0, n, &q, &ev);
  if (rc != 0) {
    fprintf(stderr, "    CLBlast %sgemm failed: status %d\n", h->fp64 ? "D" : "S", rc);
    return -1;
  }
  cl_int err = ev ? clWaitForEvents(1, &ev) : clFinish(q);
  double t = bench_now() - t0;
  if (ev)
    clReleaseEvent(ev);
  if (err) {
    bench_report_cl_error("CLBlast GEMM", err);
    return -1;
  }
  return t;
}

/* The first call: CLBlast compiles its GEMM program (untimed: clearing its cache) */
static double clblast_first_call_run(struct instance *in, void *host) {
  if (clblast.clear_cache() != 0) {
    fprintf(stderr, "    CLBlastClearCache failed\n");
    return -1;
  }
  return clblast_gemm_run(in, host);
}

static void *clblast_sgemm_first(bool q, struct case_work *w) {
  void *h = bench_gemm_prepare(q, w, false, 1024);
  *w = (struct case_work){0}; /* a time, not a throughput */
  return h;
}

static void *clblast_sgemm_512(bool q, struct case_work *w) { return bench_gemm_prepare(q, w, false, 512); }
static void *clblast_sgemm_1024(bool q, struct case_work *w) { return bench_gemm_prepare(q, w, false, 1024); }
static void *clblast_sgemm_2048(bool q, struct case_work *w) { return bench_gemm_prepare(q, w, false, 2048); }
static void *clblast_dgemm_1024(bool q, struct case_work *w) { return bench_gemm_prepare(q, w, true, 1024); }

#define CLBLAST_CASE(NAME, WHAT, LIMIT, PREPARE, FP64)                                        \
  {.name = NAME, .what = WHAT, .limit = LIMIT, .needs_fp64 = FP64, .prepare = PREPARE,         \
   .available = load_clblast, .open = clblast_gemm_open, .run = clblast_gemm_run,           \
   .check = bench_gemm_check,                                                                 \
   .release_host = bench_gemm_release}

const struct bench_case bench_thirdparty_cases[] = {
    CLBLAST_CASE("clblast_sgemm_512", "CLBlast SGEMM 512^3 (libclblast1, its default parameters)",
                 LIMIT_FP32, clblast_sgemm_512, false),
    CLBLAST_CASE("clblast_sgemm_1024", "CLBlast SGEMM 1024^3", LIMIT_FP32, clblast_sgemm_1024, false),
    CLBLAST_CASE("clblast_sgemm_2048", "CLBlast SGEMM 2048^3", LIMIT_FP32, clblast_sgemm_2048, false),
    CLBLAST_CASE("clblast_dgemm_1024", "CLBlast DGEMM 1024^3", LIMIT_FP64, clblast_dgemm_1024, true),
    {.name = "clblast_sgemm_first_call",
     .what = "CLBlast SGEMM 1024^3, its first call: the program's build included (disk caches off)",
     .limit = LIMIT_NONE, .reps = 3, .no_warmup = true, .prepare = clblast_sgemm_first,
     .available = load_clblast, .open = clblast_gemm_open, .run = clblast_first_call_run,
     .check = bench_gemm_check, .release_host = bench_gemm_release},
    {.name = NULL},
};
