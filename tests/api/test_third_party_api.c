/* Issue 17: API behaviour third-party software relies on (docs/THIRD_PARTY.md). */
#include "harness.h"
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <stdio.h>

/* Applications select devices with device_type = ~0 (all 64 bits): PoCL and
 * the vendors take any value holding every bit of CL_DEVICE_TYPE_ALL as
 * "all"; other unassigned bits stay CL_INVALID_DEVICE_TYPE. */
static void test_device_type_all_bits(struct test_env *env) {
  cl_uint n = 0, n_all = 0;
  cl_device_id dev = NULL;
  CHECK_OK(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_all));
  CHECK(n_all >= 1);
  CHECK_OK(clGetDeviceIDs(env->platform, ~(cl_device_type)0, 0, NULL, &n));
  CHECK(n == n_all);
  CHECK_OK(clGetDeviceIDs(env->platform, ~(cl_device_type)0, 1, &dev, NULL));
  CHECK(dev == env->device);
  CHECK_OK(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL | ((cl_device_type)1 << 40), 0,
                          NULL, &n));
  CHECK(n == n_all);
  /* not containing CL_DEVICE_TYPE_ALL: the spec's error */
  CHECK_ERR(clGetDeviceIDs(env->platform, (cl_device_type)1 << 40, 0, NULL, &n),
            CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_CPU | ((cl_device_type)1 << 40), 0,
                           NULL, &n),
            CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(env->platform, 0, 0, NULL, &n), CL_INVALID_DEVICE_TYPE);
  /* clCreateContextFromType takes the same values */
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)env->platform, 0};
  cl_int err;
  cl_context ctx = clCreateContextFromType(props, ~(cl_device_type)0, NULL, NULL, &err);
  CHECK_OK(err);
  if (ctx) {
    cl_uint nd = 0;
    CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
    CHECK(nd == n_all);
    CHECK_OK(clReleaseContext(ctx));
  }
}

/* "Returns NULL if the specified function does not exist for the
 * implementation or if platform is not a valid platform": NULL is not a
 * platform here (piglit api@clgetextensionfunctionaddressforplatform) */
static void test_extension_address_for_platform(struct test_env *env) {
  CHECK(clGetExtensionFunctionAddressForPlatform(env->platform, "clIcdGetPlatformIDsKHR") != NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(NULL, "clIcdGetPlatformIDsKHR") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform((cl_platform_id)env->device,
                                                 "clIcdGetPlatformIDsKHR") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(env->platform, "invalid_name") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(env->platform, NULL) == NULL);
}

/* piglit program@build@optimization-options-cl10: OpenCL 1.0's
 * -cl-strict-aliasing is accepted (it has no effect) */
static void test_strict_aliasing(struct test_env *env) {
  const char *src = "kernel void k(global int *o) { o[0] = 1; }";
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, NULL);
  CHECK_OK(clBuildProgram(p, 1, &env->device, "-cl-std=CL1.0 -cl-strict-aliasing", NULL, NULL));
  clReleaseProgram(p);
}

/* -I with a relative folder is relative to the application's working
 * directory (the front end runs elsewhere) */
static void test_relative_include(struct test_env *env) {
  char dir[] = "/tmp/loomcl-inc-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], old[4096];
  snprintf(path, sizeof path, "%s/sub", dir);
  CHECK(mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/sub/inc_rel.h", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs("#define LOOM_REL_VALUE 41\n", f);
  fclose(f);
  CHECK(getcwd(old, sizeof old) != NULL);
  CHECK(chdir(dir) == 0);
  const char *src = "#include \"inc_rel.h\"\n"
                    "kernel void k(global int *o) { o[0] = LOOM_REL_VALUE + 1; }";
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, NULL);
  CHECK_OK(clBuildProgram(p, 1, &env->device, "-I sub", NULL, NULL));
  clReleaseProgram(p);
  p = clCreateProgramWithSource(env->context, 1, &src, NULL, NULL);
  CHECK_OK(clBuildProgram(p, 1, &env->device, "-I./sub", NULL, NULL));
  cl_kernel k = clCreateKernel(p, "k", NULL);
  cl_mem m = test_buffer_with(env, sizeof(cl_int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t one = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &one, &one));
  cl_int v = 0;
  test_read_back(env, m, sizeof v, &v);
  CHECK(v == 42);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  CHECK(chdir(old) == 0);
  unlink(path);
  snprintf(path, sizeof path, "%s/sub", dir);
  rmdir(path);
  rmdir(dir);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_device_type_all_bits(&env);
  test_extension_address_for_platform(&env);
  test_strict_aliasing(&env);
  test_relative_include(&env);
  test_env_release(&env);
  return test_finish("third_party_api");
}
