#include "harness.h"

int test_failures;
int test_checks;

void test_env_init(struct test_env *env) {
  cl_int err;
  memset(env, 0, sizeof *env);
  if (clGetPlatformIDs(1, &env->platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 1, &env->device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no LoomCL platform/device\n");
    exit(1);
  }
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateContext failed: %d\n", err);
    exit(1);
  }
  env->queue = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateCommandQueueWithProperties failed: %d\n", err);
    exit(1);
  }
}

void test_env_release(struct test_env *env) {
  if (env->queue)
    clReleaseCommandQueue(env->queue);
  if (env->context)
    clReleaseContext(env->context);
}

cl_kernel test_build_kernel(struct test_env *env, const char *src,
                            const char *name, const char *options,
                            cl_program *program_out) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateProgramWithSource: %d\n", err);
    exit(1);
  }
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "clBuildProgram: %d\n%s\n", err, log);
    exit(1);
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateKernel(%s): %d\n", name, err);
    exit(1);
  }
  if (program_out)
    *program_out = p;
  else
    clReleaseProgram(p);
  return k;
}

int test_finish(const char *name) {
  printf("%s: %d checks, %d passed, %d failed\n", name, test_checks,
         test_checks - test_failures, test_failures);
  return test_failures ? 1 : 0;
}
