/* The work-group compiler must run work-items in SIMD lanes: a barrier-free
 * float kernel compiles to vectors as wide as the device's preferred float
 * width (512-bit on AVX-512 machines). Checked on the optimised IR the
 * compiler writes when LOOMCL_DUMP_IR_OPT is set. */
#include "harness.h"
#include <unistd.h>

int main(void) {
  char path[] = "/tmp/loomcl-vec-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  test_set_config("LOOMCL_DUMP_IR_OPT", path);
  test_set_config("LOOMCL_CACHE", "0");
  struct test_env env;
  test_env_init(&env);
  cl_uint width = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof width, &width, NULL));
  const char *src =
      "kernel void saxpy(global float *y, global const float *x, float a) {\n"
      "  size_t i = get_global_id(0);\n"
      "  y[i] = a * x[i] + y[i];\n"
      "}\n"
      "kernel void scale_barrier(global float *y, local float *t) {\n"
      "  size_t l = get_local_id(0);\n"
      "  t[l] = y[get_global_id(0)] * 2.0f;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  y[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n"
      "}\n";
  cl_program prog;
  cl_kernel k = test_build_kernel(&env, src, "saxpy", "", &prog);
  char *ir = test_read_file(path);
  CHECK(ir != NULL);
  if (ir) {
    char want[64];
    /* the loop vectoriser's wide loads and fused multiply-adds */
    snprintf(want, sizeof want, "load <%u x float>", width);
    CHECK(strstr(ir, want) != NULL);
    snprintf(want, sizeof want, "@llvm.fmuladd.v%uf32", width);
    CHECK(strstr(ir, want) != NULL);
    /* the region after the barrier (a reversed __local read) is vectorised too */
    char *barrier_fn = strstr(ir, "@scale_barrier.loom_wg");
    CHECK(barrier_fn != NULL);
    snprintf(want, sizeof want, "<%u x float>", width);
    CHECK(barrier_fn && strstr(barrier_fn, want) != NULL);
    free(ir);
  }
  unlink(path);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  test_env_release(&env);
  return test_finish("test_vectorization");
}
