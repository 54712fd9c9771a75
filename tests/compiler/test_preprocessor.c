/* The macros a kernel sees must describe this device: __OPENCL_VERSION__,
 * __OPENCL_C_VERSION__ for each -cl-std, __ENDIAN_LITTLE__, no
 * __IMAGE_SUPPORT__ (no images), and only the OpenCL C 3.0 feature macros
 * that CL_DEVICE_OPENCL_C_FEATURES reports (the atomic scopes are among them;
 * OpenCL C 2.0 has them all, OpenCL C 1.x none). */
#include "harness.h"

static const char *src =
    "#ifdef __IMAGE_SUPPORT__\n#define IMG 1\n#else\n#define IMG 0\n#endif\n"
    "#ifdef __opencl_c_read_write_images\n#define RWI 1\n#else\n#define RWI 0\n#endif\n"
    "#ifdef __opencl_c_atomic_scope_device\n#define ASD 1\n#else\n#define ASD 0\n#endif\n"
    "#ifdef __opencl_c_fp64\n#define FP64 1\n#else\n#define FP64 0\n#endif\n"
    "#ifdef __FAST_RELAXED_MATH__\n#define FRM 1\n#else\n#define FRM 0\n#endif\n"
    "#ifdef cl_khr_int64_base_atomics\n#define I64A 1\n#else\n#define I64A 0\n#endif\n"
    "kernel void macros(global int *o) {\n"
    "  o[0] = __OPENCL_VERSION__; o[1] = __OPENCL_C_VERSION__; o[2] = __ENDIAN_LITTLE__;\n"
    "  o[3] = IMG; o[4] = RWI; o[5] = ASD; o[6] = FP64; o[7] = FRM; o[8] = I64A;\n"
    "}\n";

static void check(struct test_env *env, const char *options, int c_version, int fp64, int frm,
                  int scopes) {
  cl_kernel k = test_kernel_from(env, src, "macros", options);
  if (!k)
    return;
  int out[9] = {0};
  cl_mem buf = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  size_t one = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &one, &one));
  test_read_back(env, buf, sizeof out, out);
  CHECK(out[0] == 300);
  CHECK(out[1] == c_version);
  CHECK(out[2] == 1);
  CHECK(out[3] == 1); /* image support */
  CHECK(out[4] == scopes && out[5] == scopes); /* read-write images: OpenCL C 2.0 and 3.0 */
  CHECK(out[6] == fp64);
  CHECK(out[7] == frm);
  CHECK(out[8] == 1);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  check(&env, "", 120, 0, 0, 0);
  check(&env, "-cl-std=CL1.1", 110, 0, 0, 0);
  check(&env, "-cl-std=CL3.0", 300, 1, 0, 1);
  check(&env, "-cl-std=CL3.0 -cl-fast-relaxed-math", 300, 1, 1, 1);
  test_env_release(&env);
  return test_finish("test_preprocessor");
}
