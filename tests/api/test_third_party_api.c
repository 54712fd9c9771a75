/* Issue 17: API behaviour third-party software relies on (docs/THIRD_PARTY.md). */
#include "harness.h"

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

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_device_type_all_bits(&env);
  test_extension_address_for_platform(&env);
  test_env_release(&env);
  return test_finish("third_party_api");
}
