/* Helpers shared by the program tests (test_program.c, test_program_link.c). */
#ifndef LOOM_TEST_PROGRAM_UTIL_H
#define LOOM_TEST_PROGRAM_UTIL_H
#include "harness.h"
#include <stdatomic.h>
#include <time.h>

static cl_int fake_object[16] __attribute__((unused)); /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

#define N 64

/* o[i] = i * 2 + v: the kernel most tests run to prove a program works */
static const char *add_src __attribute__((unused)) = "kernel void add(global int *o, int v) {\n"
                             "  int i = (int)get_global_id(0);\n"
                             "  o[i] = i * 2 + v;\n"
                             "}\n";

static inline cl_program source_program(struct test_env *env, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  return p;
}

static inline char *build_log(struct test_env *env, cl_program p) {
  size_t size = 0;
  if (clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
    return strdup("");
  char *log = calloc(size + 1, 1);
  clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
  return log;
}

static inline cl_build_status build_status(struct test_env *env, cl_program p) {
  cl_build_status s = 12345;
  clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL);
  return s;
}

static inline cl_program_binary_type binary_type(struct test_env *env, cl_program p) {
  cl_program_binary_type t = 12345;
  clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL);
  return t;
}

static inline cl_uint program_refs(cl_program p) {
  cl_uint n = 0;
  clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, NULL);
  return n;
}

/* Builds src with options; CHECKs the result is `expected` and prints the
 * log when a build that should succeed does not. */
static inline cl_program build_expect(struct test_env *env, const char *src, const char *options,
                               cl_int expected) {
  cl_program p = source_program(env, src);
  cl_int err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  CHECK_ERR(err, expected);
  if (err != expected) {
    char *log = build_log(env, p);
    fprintf(stderr, "  options \"%s\", build log:\n%s\n", options ? options : "(null)", log);
    free(log);
  }
  return p;
}

/* Runs kernel `name` of p over n work-items with a buffer of `count` ints as
 * argument 0 (and the int v as argument 1 when has_v) and reads the buffer
 * back into out. Returns 0 on success. */
static inline int run_kernel(struct test_env *env, cl_program p, const char *name, size_t n, int *out,
                      size_t count, int has_v, int v) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  if (!k)
    return -1;
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, count * sizeof(int), NULL, &err);
  CHECK_OK(err);
  int rc = -1;
  for (size_t i = 0; i < count; i++)
    out[i] = -12345;
  CHECK_OK(
      clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, 0, count * sizeof(int), out, 0, NULL, NULL));
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  if (has_v)
    CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL);
  CHECK_OK(err);
  if (err == CL_SUCCESS && clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, count * sizeof(int),
                                               out, 0, NULL, NULL) == CL_SUCCESS)
    rc = 0;
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  return rc;
}

/* runs `add` with v and checks o[i] == 2i + v */
static inline void check_add_program(struct test_env *env, cl_program p, int v) {
  int out[N];
  if (run_kernel(env, p, "add", N, out, N, 1, v) != 0)
    return;
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 2 * i + v;
  CHECK(bad == 0);
}

/* ---------- build callbacks ---------- */

struct notify_log {
  atomic_int calls;
  _Atomic(cl_program) program;
};

static inline void CL_CALLBACK on_built(cl_program p, void *data) {
  struct notify_log *l = data;
  atomic_store(&l->program, p);
  atomic_fetch_add(&l->calls, 1);
}

/* a callback registered with user_data NULL records into a static log */
static struct notify_log no_data_log __attribute__((unused));
static _Atomic(void *) no_data_seen __attribute__((unused));
static inline void CL_CALLBACK on_built_no_data(cl_program p, void *data) {
  atomic_store(&no_data_seen, data);
  on_built(p, &no_data_log);
}

/* waits (up to 10 s) for a callback that may run asynchronously */
static inline void wait_notified(struct notify_log *l, int calls) {
  for (int i = 0; i < 10000 && atomic_load(&l->calls) < calls; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}


static inline unsigned char *get_binary(cl_program p, size_t *size) {
  *size = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL));
  if (*size == 0)
    return NULL;
  unsigned char *bin = malloc(*size);
  unsigned char *ptrs[1] = {bin};
  size_t ret = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, &ret));
  CHECK(ret == sizeof ptrs);
  return bin;
}

#endif
