/* Minimal test harness for LoomCL's own tests: the tests are plain OpenCL
 * applications linked directly against libloomcl. */
#ifndef LOOM_TEST_HARNESS_H
#define LOOM_TEST_HARNESS_H
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_failures;
extern int test_checks;
/* Set in a fork() child of a process with threads before it exits: the
 * child's memory holds the other threads' work, copied without the threads,
 * which LeakSanitizer (ASan builds) would report as leaks. */
extern bool test_no_leak_check;

#define CHECK(cond)                                                            \
  do {                                                                         \
    test_checks++;                                                             \
    if (!(cond)) {                                                             \
      test_failures++;                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* expr must evaluate to the cl_int error code `expected` */
#define CHECK_ERR(expr, expected)                                              \
  do {                                                                         \
    test_checks++;                                                             \
    cl_int got_ = (expr);                                                      \
    if (got_ != (expected)) {                                                  \
      test_failures++;                                                         \
      fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__,    \
              __LINE__, #expr, got_, #expected, (int)(expected));              \
    }                                                                          \
  } while (0)

#define CHECK_OK(expr) CHECK_ERR(expr, CL_SUCCESS)

/* A ready-to-use environment on the LoomCL platform's first device. */
struct test_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
};
void test_env_init(struct test_env *env);
void test_env_release(struct test_env *env);
/* Builds a program from source and returns the kernel `name`; prints the build
 * log and exits on failure. */
cl_kernel test_build_kernel(struct test_env *env, const char *src,
                            const char *name, const char *options,
                            cl_program *program_out);
/* Builds src (failures are recorded and the log printed; returns NULL). */
cl_program test_program_from(struct test_env *env, const char *src, const char *options);
/* Builds src and creates kernel `name`; the program stays alive through the
 * kernel. NULL (with a recorded failure) if anything fails. */
cl_kernel test_kernel_from(struct test_env *env, const char *src, const char *name,
                           const char *options);
/* A read-write buffer, initialised from data when it is not NULL. */
cl_mem test_buffer_with(struct test_env *env, size_t size, const void *data);
/* Blocking read of the first size bytes of m. */
void test_read_back(struct test_env *env, cl_mem m, size_t size, void *out);
/* Enqueues k and waits for the queue; returns the first error. */
cl_int test_run(struct test_env *env, cl_kernel k, cl_uint dims, const size_t *offset,
                const size_t *global, const size_t *local);
/* Fills a with a deterministic pattern of small signed values. */
void test_pattern(int *a, size_t n, int seed);
/* Runs a 1D kernel whose arguments are (global int *out, global const int *in,
 * <extra arguments set by the caller>) on g work-items (groups of l, or a
 * runtime-chosen size when l is 0); returns out (free it). */
int *test_run_io(struct test_env *env, cl_kernel k, const int *in, size_t g, size_t l);
/* Builds `out[i] = in[i] * mul + add` (a source of its own for each pair:
 * a build of its own), runs it on 256 ints in groups of 64 and checks the
 * result against the host's. */
void test_affine_run(struct test_env *env, int mul, int add);
/* Counts mismatches, printing the first few. */
int test_count_diff(const int *got, const int *want, size_t n, const char *what);
/* printf-style append to a growing string (*s of capacity *cap, length *len). */
void test_appendf(char **s, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* xorshift64: deterministic pseudo-random test inputs */
uint64_t test_xorshift64(uint64_t *state);
/* Builds src uncached and creates kernel `name` like test_kernel_from;
 * *ir receives the optimised LLVM IR of the program (free it; NULL if it
 * could not be read, which is recorded as a failure). */
cl_kernel test_kernel_with_ir(struct test_env *env, const char *src, const char *name,
                              const char *options, char **ir);
/* Whether function fn's attribute group (`define ... @fn(...) ... #N {`) in
 * the module text ir holds attr (e.g. "\"loom-outer-loops\""). */
bool test_ir_fn_has_attr(const char *ir, const char *fn, const char *attr);
/* The whole file as a NUL-terminated string (free it), or NULL. */
char *test_read_file(const char *path);
/* Prints a summary line and returns the process exit code. */
int test_finish(const char *name);

/* Sets a LOOMCL_* variable in the running library (LoomCL's loomclSetConfig,
 * through clGetExtensionFunctionAddressForPlatform): unlike setenv, safe
 * while compile threads read the configuration. value NULL: unset. */
void test_set_config(const char *name, const char *value);

#endif
