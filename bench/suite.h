/* The benchmark suite's shared types: one OpenCL platform under test, one
 * benchmark case and the helpers every case uses (bench/cl_util.c). */
#ifndef LOOM_BENCH_SUITE_H
#define LOOM_BENCH_SUITE_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* One platform under test: its CPU device, a context and two queues. */
struct platform_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;     /* in-order */
  cl_command_queue ooo_queue; /* out-of-order, or the in-order one */
  bool has_ooo;
  bool has_fp64;
  char name[128];     /* CL_PLATFORM_NAME */
  char short_name[16]; /* "LoomCL", "PoCL", ... for the tables */
};

/* What a case's figure is compared with. */
enum limit_kind { LIMIT_NONE, LIMIT_BANDWIDTH, LIMIT_FP32, LIMIT_FP64 };

/* A case's work per repetition and how its throughput is printed. */
struct case_work {
  double amount;     /* bytes, FLOPs or items per repetition; 0: no throughput */
  double scale;      /* divide amount/second by this: 1e9 for GB/s, GFLOP/s */
  const char *unit;  /* "GB/s", "GFLOP/s", "kernels/s", ... */
  bool time_in_us;   /* print the time in microseconds (latency) */
};

/* The generic per-platform instance: a program, its kernels, buffers and a
 * fixed list of launches that make one repetition. Cases that need more keep
 * it as the first member of their own struct. */
enum { MAX_KERNELS = 4, MAX_BUFFERS = 8, MAX_LAUNCHES = 4 };
struct launch {
  int kernel;
  cl_uint dims;
  size_t global[3];
  size_t local[3]; /* local[0] == 0: NULL local size */
};
struct instance {
  struct platform_env *env;
  cl_program program;
  cl_kernel kernels[MAX_KERNELS];
  cl_mem buffers[MAX_BUFFERS];
  struct launch launches[MAX_LAUNCHES];
  int n_launches;
  int repeat; /* one repetition = `repeat` passes over the launches */
};

/* A benchmark case. Host data (inputs and the reference result) is made once
 * and shared by every platform; an instance per platform holds its objects. */
struct bench_case {
  const char *name;
  const char *what; /* one line for --list */
  enum limit_kind limit;
  int reps;         /* 0: the suite's default */
  bool no_warmup;   /* the first run is what is measured (cold builds) */
  /* false: the case is skipped on every platform (third-party software that
   * is not installed; it says why). NULL: always available. */
  bool (*available)(void);
  bool needs_fp64;
  /* NULL when env's device has what the case needs, else a few words on
   * what it lacks ("no fine-grain buffer SVM"): the case is skipped on that
   * platform, saying so. NULL: every platform. */
  const char *(*unsupported)(struct platform_env *env);
  /* Inputs and reference; fills *work. NULL on failure. */
  void *(*prepare)(bool quick, struct case_work *work);
  /* Build, make buffers, set arguments. NULL on failure (message printed). */
  struct instance *(*open)(struct platform_env *env, void *host);
  /* Untimed, before every run (optional). */
  bool (*reset)(struct instance *in, void *host);
  /* One repetition; returns seconds, < 0 on error. NULL: bench_run_launches. */
  double (*run)(struct instance *in, void *host);
  /* Compare the last run's result with the reference. */
  bool (*check)(struct instance *in, void *host);
  /* Free the instance (NULL: bench_close_instance) and the host data (NULL: free). */
  void (*close)(struct instance *in);
  void (*release_host)(void *host);
};

/* Case tables, one per file. */
extern const struct bench_case bench_memory_cases[];
extern const struct bench_case bench_compute_cases[];
extern const struct bench_case bench_image_cases[];
extern const struct bench_case bench_runtime_cases[];
extern const struct bench_case bench_math_cases[];
extern const struct bench_case bench_thirdparty_cases[];
/* cases_formulations.c: one tree sum written the equivalent ways */
extern const struct bench_case bench_formulation_cases[];
extern const struct bench_case bench_svm_cases[];
extern const struct bench_case bench_subgroup_cases[];

/* ---- helpers (cl_util.c) ---- */
double bench_now(void); /* seconds, monotonic */
/* Builds `source` for the env's device; prints the log and returns NULL on failure. */
cl_program bench_build(struct platform_env *env, const char *source, const char *options);
/* The same for a program from intermediate language (SPIR-V), clCreateProgramWithIL. */
cl_program bench_build_il(struct platform_env *env, const void *il, size_t size,
                          const char *options);
/* A new instance with the program built and the named kernels created (NULL-terminated list). */
struct instance *bench_open_instance(struct platform_env *env, const char *source,
                                     const char *options, const char *const *kernel_names);
/* An instance of kernel(global const T *in, global T *out) over n elements
 * of elem_size bytes, per_item of them per work-item, in groups of 256:
 * buffer 0 holds `input`, buffer 1 the output. */
struct instance *bench_open_elementwise(struct platform_env *env, const char *source,
                                        const char *kernel, size_t n, size_t elem_size,
                                        const void *input, unsigned per_item);
/* A buffer holding `size` bytes copied from `data` (or zero-filled when NULL). */
cl_mem bench_buffer(struct platform_env *env, size_t size, const void *data);
/* Sets kernel arguments from a format: 'b' buffer index, 'i' int, 'u' uint, 'f' float,
 * 'd' double, 'l' local bytes (size_t); values follow as varargs (buffers by index). */
bool bench_args(struct instance *in, int kernel, const char *format, ...);
void bench_add_launch(struct instance *in, int kernel, cl_uint dims, const size_t *global,
                      const size_t *local);
double bench_run_launches(struct instance *in, void *host);
bool bench_read(struct instance *in, int buffer, void *dst, size_t size);
void bench_close_instance(struct instance *in);
/* Allocations that abort on failure, 64-byte aligned. */
void *bench_alloc(size_t size);
/* A string query of env's device, or NULL (free it). */
char *bench_device_string(struct platform_env *env, cl_device_info param);
/* whether CL_DEVICE_EXTENSIONS names `name` (as a whole word) */
bool bench_has_extension(struct platform_env *env, const char *name);
/* Deterministic pseudo-random numbers. */
unsigned bench_rand(unsigned *state);
float bench_randf(unsigned *state, float lo, float hi);
/* Compares n floats/doubles: |got - want| <= abs_tol + rel_tol * |want|; prints the first miss. */
bool bench_close_f(const float *got, const float *want, size_t n, double rel_tol, double abs_tol);
bool bench_close_d(const double *got, const double *want, size_t n, double rel_tol,
                   double abs_tol);
void bench_report_cl_error(const char *what, cl_int err);

struct bench_gemm_host {
  int n;
  bool fp64;
  bool tiled;
  void *A, *B; /* float or double, n x n, row-major */
};
/* cases_compute.c: n x n GEMM inputs A and B (float, or double with fp64; 128
 * with quick), and the check of C (buffer 2 of the instance) on 256 sampled
 * entries against double-precision dot products */
void *bench_gemm_prepare(bool quick, struct case_work *w, bool fp64, int n);
/* buffers 0, 1, 2 of in: A and B copied, C zeroed; false (reported) on failure */
bool bench_gemm_buffers(struct instance *in, const struct bench_gemm_host *h);
bool bench_gemm_check(struct instance *in, void *host);
void bench_gemm_release(void *host);

/* cases_memory.c: saxpy's inputs (y = a x + y in place on 128 MiB arrays, 4
 * passes), shared with spirv_saxpy (cases_svm.c), the same kernel from SPIR-V */
void *bench_saxpy_prepare(bool quick, struct case_work *w);
/* buffers 0 (y), 1 (x), 2 (y's initial values), the arguments of kernel 0,
 * saxpy(global float *y, global const float *x, float a), and its launch;
 * false (reported) on failure */
bool bench_saxpy_setup(struct instance *in, void *host);
bool bench_saxpy_reset(struct instance *in, void *host);
bool bench_saxpy_check(struct instance *in, void *host);
void bench_saxpy_release(void *host);

#endif
