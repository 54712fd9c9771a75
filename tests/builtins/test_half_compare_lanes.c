/* Half comparisons inside vectorised work-item loops (compiler/target/x86/half_lower.c).
 *
 * With AVX-512 FP16, LLVM 19 compiled some vectorised half comparisons
 * wrongly: lgamma_r on half4 (and on float4 and double4 converted from
 * half) through a generic pointer, under -cl-std=CL3.0, gave wrong values
 * in lanes 2 and 3. This test runs exactly that shape for every half input
 * and checks each lane against the host's lgamma and sign, then checks the
 * six comparison operators on half vectors against the host. On machines
 * without AVX-512 FP16 it checks the same results through the float path. */
#include "harness.h"
#include "half_ref.h"
#include <math.h>

#define N_HALF 65536

/* one kernel per (type, width): lgamma_r of in[i] through a generic pointer */
static const char *lgamma_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define CAT(a, b) a##b\n#define XCAT(a, b) CAT(a, b)\n"
    "#define H XCAT(half, W)\n#define I XCAT(int, W)\n#define T XCAT(TYPE, W)\n"
    "kernel void k(global H *o, global I *s, global const H *in) {\n"
    "  size_t i = get_global_id(0);\n"
    "  generic I *sp = s + i;\n"
    "  o[i] = XCAT(convert_half, W)(lgamma_r(XCAT(convert_, T)(in[i]), sp));\n"
    "}\n";

/* lgamma's sign as LoomCL defines it: 0 at the poles (zero, negative integers) */
static int want_sign(float x) {
  if (x == 0.0f || (x < 0.0f && x == floorf(x) && !isinf(x)))
    return 0;
  if (x > 0.0f || isinf(x))
    return 1;
  return ((long)floorf(x)) % 2 == 0 ? 1 : -1;
}

/* does the half result h agree with lgamma(x) (the computed type rounds it
 * once, then the conversion to half rounds again: one half ulp of slack) */
static bool lgamma_ok(uint16_t h, float x) {
  long double want = lgammal((long double)x);
  float got = half_to_float(h);
  if (isnan(x))
    return isnan(got);
  if (isinf((float)want) || fabsl(want) >= 65520.0L)
    return isinf(got) && got > 0;
  return fabsl((long double)got - want) <= half_ulp(want);
}

static void check_lgamma(struct test_env *env, const uint16_t *in, cl_mem bin, const char *type,
                         int width) {
  char opts[128];
  snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DTYPE=%s -DW=%s", type,
           width == 1 ? "" : width == 4 ? "4" : "8");
  cl_kernel k = test_kernel_from(env, lgamma_src, "k", opts);
  if (!k)
    return;
  cl_mem bo = test_buffer_with(env, N_HALF * 2, NULL), bs = test_buffer_with(env, N_HALF * 4, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bs, &bs));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bin, &bin));
  size_t g = N_HALF / (size_t)width;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  uint16_t *o = malloc(N_HALF * 2);
  int *s = malloc(N_HALF * 4);
  test_read_back(env, bo, N_HALF * 2, o);
  test_read_back(env, bs, N_HALF * 4, s);
  int bad = 0;
  for (int i = 0; i < N_HALF; i++) {
    float x = half_to_float(in[i]);
    bool ok = lgamma_ok(o[i], x) && (isnan(x) || s[i] == want_sign(x));
    if (!ok && bad++ < 5)
      fprintf(stderr, "lgamma_r %s%d lane %d: x %a -> %a sign %d (want %a sign %d)\n", type,
              width, i % width, x, half_to_float(o[i]), s[i], (double)lgamma(x), want_sign(x));
  }
  CHECK(bad == 0);
  free(o);
  free(s);
  clReleaseMemObject(bo);
  clReleaseMemObject(bs);
  clReleaseKernel(k);
}

/* the six comparisons of half8 against a shifted copy, as 0/1 bytes */
static const char *compare_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void k(global char *o, global const half8 *in) {\n"
    "  size_t i = get_global_id(0);\n"
    "  half8 a = in[i], b = in[(i + 977) % get_global_size(0)];\n"
    "  char8 r[6] = {convert_char8(a < b), convert_char8(a <= b), convert_char8(a > b),\n"
    "                convert_char8(a >= b), convert_char8(a == b), convert_char8(a != b)};\n"
    "  for (int c = 0; c < 6; c++) vstore8(-r[c], i * 6 + c, o);\n"
    "}\n";

static void check_compares(struct test_env *env, const uint16_t *in, cl_mem bin) {
  cl_kernel k = test_kernel_from(env, compare_src, "k", "-cl-std=CL3.0");
  if (!k)
    return;
  cl_mem bo = test_buffer_with(env, N_HALF * 6, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bin, &bin));
  size_t g = N_HALF / 8;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  signed char *o = malloc(N_HALF * 6);
  test_read_back(env, bo, N_HALF * 6, o);
  int bad = 0;
  for (size_t v = 0; v < g; v++)
    for (int c = 0; c < 6; c++)
      for (int l = 0; l < 8; l++) {
        float a = half_to_float(in[v * 8 + l]), b = half_to_float(in[((v + 977) % g) * 8 + l]);
        bool want = c == 0 ? a < b : c == 1 ? a <= b : c == 2 ? a > b : c == 3 ? a >= b
                  : c == 4 ? a == b : a != b;
        if (o[(v * 6 + c) * 8 + l] != (want ? 1 : 0) && bad++ < 5)
          fprintf(stderr, "compare %d lane %d: %a vs %a gave %d\n", c, l, a, b,
                  o[(v * 6 + c) * 8 + l]);
      }
  CHECK(bad == 0);
  free(o);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  uint16_t *in = malloc(N_HALF * 2);
  for (int i = 0; i < N_HALF; i++)
    in[i] = (uint16_t)i;
  cl_mem bin = test_buffer_with(&env, N_HALF * 2, in);
  const char *types[] = {"half", "float", "double"};
  for (int t = 0; t < 3; t++) {
    check_lgamma(&env, in, bin, types[t], 1);
    check_lgamma(&env, in, bin, types[t], 4);
    check_lgamma(&env, in, bin, types[t], 8);
  }
  check_compares(&env, in, bin);
  clReleaseMemObject(bin);
  free(in);
  test_env_release(&env);
  printf("test_half_compare_lanes: %d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
