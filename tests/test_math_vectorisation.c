/* Math builtins inside a work-item loop are vectorised across work-items:
 * the branch-free float functions (builtins/math_float*.cl) and double
 * exponentials (math_double.cl) are widened outright, and calls that stay in
 * the C library get vector variants that the vectoriser uses
 * (src/compiler/vector_variants.c). Each kernel's optimised IR is checked for
 * vector code, and its results against the host's libm. */
#include "harness.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

/* the text of the work-group function (the vectorised work-item loops) */
static const char *wg_function(const char *ir) {
  const char *p = ir ? strstr(ir, ".loom_wg(") : NULL;
  return p ? p : "";
}

/* |got - want| within `ulps` units in the last place of want, as a float */
static int within_float(float got, double want, double ulps) {
  if (isnan(want))
    return isnan(got);
  if (isinf((float)want)) /* overflows float: infinity is the right result */
    return got == (float)want;
  int e;
  frexp(want, &e);
  double ulp = ldexp(1.0, (e < -125 ? -125 : e) - 24);
  return fabs((double)got - want) <= ulps * ulp;
}

static void test_float_functions(struct test_env *env) {
  const char *src =
      "kernel void k(global const float *x, global float *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float v = x[i];\n"
      "  out[8 * i + 0] = exp(v);\n"
      "  out[8 * i + 1] = log(fabs(v));\n"
      "  out[8 * i + 2] = sin(v);\n"
      "  out[8 * i + 3] = cos(v);\n"
      "  out[8 * i + 4] = tan(v);\n"
      "  out[8 * i + 5] = pow(fabs(v), 1.5f);\n"
      "  out[8 * i + 6] = tanh(v);\n"
      "  out[8 * i + 7] = atan(v);\n"
      "}\n";
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  const char *wg = wg_function(ir);
  /* widened arithmetic, and no call to a math function left */
  CHECK(strstr(wg, "<16 x double>") != NULL || strstr(wg, "<8 x double>") != NULL);
  static const char *const calls[] = {"@llvm.sin.", "@llvm.cos.", "@llvm.exp.", "@llvm.log.",
                                      "@llvm.pow.", "@llvm.tan.", "@llvm.tanh.", "@llvm.atan.",
                                      "@__loom_vec", "@sin", "@exp", "@tanh", NULL};
  for (int i = 0; calls[i]; i++)
    if (strstr(wg, calls[i])) {
      fprintf(stderr, "  call to %s left in the work-group function\n", calls[i]);
      CHECK(0);
    }
  free(ir);
  if (!k)
    return;
  float *x = malloc(N * sizeof *x), *out = malloc(8 * N * sizeof *out);
  uint64_t s = 11;
  for (int i = 0; i < N; i++)
    x[i] = (float)((double)(test_xorshift64(&s) % 2000001) / 10000.0 - 100.0);
  x[0] = 0.0f, x[1] = -0.0f, x[2] = 1e-30f, x[3] = 88.0f, x[4] = -90.0f, x[5] = 1e30f;
  cl_mem bx = test_buffer_with(env, N * sizeof *x, x);
  cl_mem bo = test_buffer_with(env, 8 * N * sizeof *out, NULL);
  clSetKernelArg(k, 0, sizeof bx, &bx);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, bo, 8 * N * sizeof *out, out);
  int bad = 0;
  for (int i = 0; i < N && bad < 5; i++) {
    double v = x[i];
    double want[8] = {exp(v), log(fabs(v)), sin(v), cos(v), tan(v), pow(fabs(v), 1.5),
                      tanh(v), atan(v)};
    static const double ulps[8] = {3, 3, 4, 4, 5, 16, 5, 5};
    for (int f = 0; f < 8; f++)
      if (!within_float(out[8 * i + f], want[f], ulps[f])) {
        fprintf(stderr, "  function %d of %.9g: got %.9g, want %.17g\n", f, v,
                out[8 * i + f], want[f]);
        bad++;
      }
  }
  CHECK(bad == 0);
  /* signed zeros survive */
  CHECK(signbit(out[8 * 1 + 2]) && signbit(out[8 * 1 + 6]) && signbit(out[8 * 1 + 7]));
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(x);
  free(out);
}

/* calls that stay scalar C-library calls (cbrt, erf in double, and the
 * large-argument path of the double sine: v * 1000 passes 2^20) reach the
 * vectorised loop through their vector variants */
static void test_library_calls(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void k(global const double *x, global double *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  double v = x[i];\n"
      "  out[4 * i + 0] = cbrt(v) * 2.0 + 1.0;\n"
      "  out[4 * i + 1] = erf(v) - v;\n"
      "  out[4 * i + 2] = exp(v * 0.25);\n"
      "  out[4 * i + 3] = sin(v * 1000.0);\n"
      "}\n";
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  const char *wg = wg_function(ir);
  CHECK(strstr(wg, "@__loom_vec") != NULL);
  CHECK(strstr(wg, "x double>") != NULL);
  free(ir);
  if (!k)
    return;
  double *x = malloc(N * sizeof *x), *out = malloc(4 * N * sizeof *out);
  uint64_t s = 5;
  for (int i = 0; i < N; i++)
    x[i] = (double)(test_xorshift64(&s) % 4000001) / 1000.0 - 2000.0;
  x[0] = 0.0, x[1] = -0.0, x[2] = 1e-310;
  cl_mem bx = test_buffer_with(env, N * sizeof *x, x);
  cl_mem bo = test_buffer_with(env, 4 * N * sizeof *out, NULL);
  clSetKernelArg(k, 0, sizeof bx, &bx);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, bo, 4 * N * sizeof *out, out);
  int bad = 0;
  for (int i = 0; i < N && bad < 5; i++) {
    double v = x[i];
    double want[4] = {cbrt(v) * 2.0 + 1.0, erf(v) - v, exp(v * 0.25), sin(v * 1000.0)};
    for (int f = 0; f < 4; f++) {
      double tol = 8 * 0x1p-52 * (fabs(want[f]) + fabs(v) + 1e-300);
      if (!(fabs(out[4 * i + f] - want[f]) <= tol)) {
        fprintf(stderr, "  function %d of %.17g: got %.17g, want %.17g\n", f, v,
                out[4 * i + f], want[f]);
        bad++;
      }
    }
  }
  CHECK(bad == 0);
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(x);
  free(out);
}

/* -cl-fast-relaxed-math allows 2.5 ulp for x / y: the back end must not use
 * its one-step reciprocal estimate (3 ulp at 8.25 / 0.0655, found by the
 * CTS) */
static void test_relaxed_division(struct test_env *env) {
  /* scalar, and vectors within a work-item, as the CTS runs it */
  const char *src =
      "kernel void k1(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  o[i] = a[i] / b[i];\n"
      "}\n"
      "kernel void k4(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore4(vload4(i, a) / vload4(i, b), i, o);\n"
      "}\n"
      "kernel void k16(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore16(vload16(i, a) / vload16(i, b), i, o);\n"
      "}\n";
  cl_program p = test_program_from(env, src, "-cl-fast-relaxed-math");
  if (!p)
    return;
  float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *o = malloc(N * sizeof *o);
  uint64_t s = 3;
  for (int i = 0; i < N; i++) {
    uint32_t ua = 0x3c000000u + (uint32_t)(test_xorshift64(&s) % 0x8000000u);
    uint32_t ub = 0x3c000000u + (uint32_t)(test_xorshift64(&s) % 0x8000000u);
    memcpy(&a[i], &ua, 4);
    memcpy(&b[i], &ub, 4);
  }
  a[0] = 0x1.081e54p+3f, b[0] = 0x1.0c2e92p-4f;
  cl_mem ba = test_buffer_with(env, N * sizeof *a, a), bb = test_buffer_with(env, N * sizeof *b, b);
  cl_mem bo = test_buffer_with(env, N * sizeof *o, NULL);
  static const int widths[] = {1, 4, 16};
  for (int w = 0; w < 3; w++) {
    char name[8];
    snprintf(name, sizeof name, "k%d", widths[w]);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_OK(err);
    if (!k)
      continue;
    clSetKernelArg(k, 0, sizeof ba, &ba);
    clSetKernelArg(k, 1, sizeof bb, &bb);
    clSetKernelArg(k, 2, sizeof bo, &bo);
    size_t g = N / (size_t)widths[w];
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, bo, N * sizeof *o, o);
    int bad = 0;
    for (int i = 0; i < N; i++)
      if (!within_float(o[i], (double)a[i] / (double)b[i], 2.5) && bad++ < 5)
        fprintf(stderr, "  width %d: %a / %a = %a, want %a\n", widths[w], a[i], b[i], o[i],
                (double)a[i] / b[i]);
    CHECK(bad == 0);
    clReleaseKernel(k);
  }
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bo);
  clReleaseProgram(p);
  free(a);
  free(b);
  free(o);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_float_functions(&env);
  test_library_calls(&env);
  test_relaxed_division(&env);
  test_env_release(&env);
  return test_finish("test_math_vectorisation");
}
