/* Helpers shared by the benchmark cases: building, buffers, arguments, the
 * generic "run these launches" repetition, read-back and comparisons. */
#include "suite.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void bench_report_cl_error(const char *what, cl_int err) {
  fprintf(stderr, "    %s failed: OpenCL error %d\n", what, (int)err);
}

void *bench_alloc(size_t size) {
  void *p = NULL;
  size_t rounded = (size + 63) / 64 * 64;
  if (posix_memalign(&p, 64, rounded ? rounded : 64) != 0) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", size);
    exit(2);
  }
  return p;
}

unsigned bench_rand(unsigned *state) {
  /* xorshift32: fast, deterministic, good enough for test data */
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

float bench_randf(unsigned *state, float lo, float hi) {
  return lo + (hi - lo) * (float)(bench_rand(state) >> 8) * (1.0f / 16777216.0f);
}

/* Builds p for the env's device; prints the log and releases p on failure. */
static cl_program build_program(struct platform_env *env, cl_program p, const char *options) {
  cl_int err = clBuildProgram(p, 1, &env->device, options ? options : "", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    if (log)
      clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    fprintf(stderr, "    clBuildProgram failed (%d) on %s:\n%s\n", (int)err, env->short_name,
            log ? log : "");
    free(log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

cl_program bench_build(struct platform_env *env, const char *source, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->ctx, 1, &source, NULL, &err);
  if (!p) {
    bench_report_cl_error("clCreateProgramWithSource", err);
    return NULL;
  }
  return build_program(env, p, options);
}

cl_program bench_build_il(struct platform_env *env, const void *il, size_t size,
                          const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithIL(env->ctx, il, size, &err);
  if (!p) {
    bench_report_cl_error("clCreateProgramWithIL", err);
    return NULL;
  }
  return build_program(env, p, options);
}

struct instance *bench_open_instance(struct platform_env *env, const char *source,
                                     const char *options, const char *const *kernel_names) {
  struct instance *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->env = env;
  in->repeat = 1;
  in->program = bench_build(env, source, options);
  if (!in->program) {
    free(in);
    return NULL;
  }
  for (int i = 0; kernel_names && kernel_names[i]; i++) {
    cl_int err;
    in->kernels[i] = clCreateKernel(in->program, kernel_names[i], &err);
    if (!in->kernels[i]) {
      fprintf(stderr, "    clCreateKernel(%s) failed: %d\n", kernel_names[i], (int)err);
      bench_close_instance(in);
      return NULL;
    }
  }
  return in;
}

cl_mem bench_buffer(struct platform_env *env, size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  if (!m) {
    bench_report_cl_error("clCreateBuffer", err);
    return NULL;
  }
  if (data)
    err = clEnqueueWriteBuffer(env->queue, m, CL_TRUE, 0, size, data, 0, NULL, NULL);
  else {
    const cl_uint zero = 0;
    err = clEnqueueFillBuffer(env->queue, m, &zero, sizeof zero, 0, size, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clFinish(env->queue);
  }
  if (err != CL_SUCCESS) {
    bench_report_cl_error("buffer initialisation", err);
    clReleaseMemObject(m);
    return NULL;
  }
  return m;
}

bool bench_args(struct instance *in, int kernel, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  cl_kernel k = in->kernels[kernel];
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; format[i] && err == CL_SUCCESS; i++) {
    switch (format[i]) {
    case 'b': {
      int b = va_arg(ap, int);
      err = clSetKernelArg(k, i, sizeof(cl_mem), &in->buffers[b]);
      break;
    }
    case 'i': {
      cl_int v = va_arg(ap, int);
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    case 'u': {
      cl_uint v = va_arg(ap, unsigned);
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    case 'f': {
      cl_float v = (cl_float)va_arg(ap, double);
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    case 'd': {
      cl_double v = va_arg(ap, double);
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    case 'l': {
      size_t bytes = va_arg(ap, size_t);
      err = clSetKernelArg(k, i, bytes, NULL);
      break;
    }
    default:
      err = CL_INVALID_VALUE;
    }
  }
  va_end(ap);
  if (err != CL_SUCCESS)
    bench_report_cl_error("clSetKernelArg", err);
  return err == CL_SUCCESS;
}

void bench_add_launch(struct instance *in, int kernel, cl_uint dims, const size_t *global,
                      const size_t *local) {
  struct launch *l = &in->launches[in->n_launches++];
  memset(l, 0, sizeof *l);
  l->kernel = kernel;
  l->dims = dims;
  for (cl_uint d = 0; d < dims; d++) {
    l->global[d] = global[d];
    l->local[d] = local ? local[d] : 0;
  }
}

double bench_run_launches(struct instance *in, void *host) {
  (void)host;
  cl_command_queue q = in->env->queue;
  double t0 = bench_now();
  for (int r = 0; r < in->repeat; r++) {
    for (int i = 0; i < in->n_launches; i++) {
      const struct launch *l = &in->launches[i];
      cl_int err = clEnqueueNDRangeKernel(q, in->kernels[l->kernel], l->dims, NULL, l->global,
                                          l->local[0] ? l->local : NULL, 0, NULL, NULL);
      if (err != CL_SUCCESS) {
        bench_report_cl_error("clEnqueueNDRangeKernel", err);
        clFinish(q);
        return -1;
      }
    }
  }
  cl_int err = clFinish(q);
  double t = bench_now() - t0;
  if (err != CL_SUCCESS) {
    bench_report_cl_error("clFinish", err);
    return -1;
  }
  return t;
}

bool bench_read(struct instance *in, int buffer, void *dst, size_t size) {
  cl_int err = clEnqueueReadBuffer(in->env->queue, in->buffers[buffer], CL_TRUE, 0, size, dst, 0,
                                   NULL, NULL);
  if (err != CL_SUCCESS)
    bench_report_cl_error("clEnqueueReadBuffer", err);
  return err == CL_SUCCESS;
}

void bench_close_instance(struct instance *in) {
  if (!in)
    return;
  for (int i = 0; i < MAX_BUFFERS; i++)
    if (in->buffers[i])
      clReleaseMemObject(in->buffers[i]);
  for (int i = 0; i < MAX_KERNELS; i++)
    if (in->kernels[i])
      clReleaseKernel(in->kernels[i]);
  if (in->program)
    clReleaseProgram(in->program);
  free(in);
}

bool bench_close_f(const float *got, const float *want, size_t n, double rel_tol, double abs_tol) {
  for (size_t i = 0; i < n; i++) {
    double g = got[i], w = want[i];
    if (!(fabs(g - w) <= abs_tol + rel_tol * fabs(w))) {
      fprintf(stderr, "    mismatch at %zu: got %.9g, want %.9g\n", i, g, w);
      return false;
    }
  }
  return true;
}

bool bench_close_d(const double *got, const double *want, size_t n, double rel_tol,
                   double abs_tol) {
  for (size_t i = 0; i < n; i++) {
    if (!(fabs(got[i] - want[i]) <= abs_tol + rel_tol * fabs(want[i]))) {
      fprintf(stderr, "    mismatch at %zu: got %.17g, want %.17g\n", i, got[i], want[i]);
      return false;
    }
  }
  return true;
}

struct instance *bench_open_elementwise(struct platform_env *env, const char *source,
                                        const char *kernel, size_t n, size_t elem_size,
                                        const void *input, unsigned per_item) {
  const char *names[] = {kernel, NULL};
  struct instance *in = bench_open_instance(env, source, NULL, names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, n * elem_size, input);
  in->buffers[1] = bench_buffer(env, n * elem_size, NULL);
  if (!in->buffers[0] || !in->buffers[1] || !bench_args(in, 0, "bb", 0, 1)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = n / per_item, l = 256;
  bench_add_launch(in, 0, 1, &g, &l);
  return in;
}

/* A string query of the device, or NULL (free it). */
char *bench_device_string(struct platform_env *env, cl_device_info param) {
  size_t size = 0;
  if (clGetDeviceInfo(env->device, param, 0, NULL, &size) != CL_SUCCESS)
    return NULL;
  char *s = calloc(1, size + 1);
  if (s && clGetDeviceInfo(env->device, param, size, s, NULL) != CL_SUCCESS) {
    free(s);
    return NULL;
  }
  return s;
}

/* whether CL_DEVICE_EXTENSIONS names `name` (as a whole word) */
bool bench_has_extension(struct platform_env *env, const char *name) {
  char *ext = bench_device_string(env, CL_DEVICE_EXTENSIONS);
  size_t len = strlen(name);
  bool found = false;
  for (const char *s = ext ? strstr(ext, name) : NULL; s && !found; s = strstr(s + 1, name))
    found = (s == ext || s[-1] == ' ') && (s[len] == ' ' || s[len] == '\0');
  free(ext);
  return found;
}
