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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_failures;
extern int test_checks;

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
/* Prints a summary line and returns the process exit code. */
int test_finish(const char *name);

#endif
