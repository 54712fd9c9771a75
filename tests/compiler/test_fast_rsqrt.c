/* Float 1 / sqrt(x) in vectorised loops (compiler/target/x86/fast_rsqrt.c): on
 * AVX-512 machines rsqrt and 1.0f / sqrt(x) become VRSQRT14PS and a Newton
 * step. Checks, against the host, over special values, subnormals and a
 * spread of bit patterns:
 *  - rsqrt and 1.0f / sqrt(x), scalar and float16 kernels: within rsqrt's
 *    2 ulp (OpenCL C 2.0 section 7.4), exact at +-0, +inf, negative and NaN;
 *  - the same bits whether a work-item ran in a full vector or in a loop's
 *    scalar remainder (groups of 7), and from float2/4/8 kernels;
 *  - with -cl-fp32-correctly-rounded-divide-sqrt, 1.0f / sqrt(x) is the
 *    correctly rounded division of the correctly rounded square root, bit
 *    for bit: that division must not be rewritten. */
#include "harness.h"
#include <math.h>

#define N (1 << 20)

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void fill_inputs(float *in) {
  static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -1.0f, 1.0f, 4.0f,
                                   0x1p-149f, 0x1p-126f, 0x1.fffffep-127f, 0x1.fffffep127f, 0.25f};
  size_t ns = sizeof specials / sizeof specials[0];
  for (size_t i = 0; i < N; i++)
    in[i] = i < ns ? specials[i] : from_bits((uint32_t)(i * 2654435761u));
}

/* ulps between got and the exact 1/sqrt(x); -1 when a special case is wrong */
static double rsqrt_error(float x, float got) {
  if (isnan(x) || x < 0.0f)
    return isnan(got) ? 0.0 : -1.0;
  if (x == 0.0f)
    return isinf(got) && signbit(got) == signbit(x) ? 0.0 : -1.0;
  if (isinf(x))
    return got == 0.0f && !signbit(got) ? 0.0 : -1.0;
  long double want = 1.0L / sqrtl((long double)x);
  float w = (float)want;
  double ulp = (double)(nextafterf(w, INFINITY) - w);
  return (double)fabsl((long double)got - want) / ulp;
}

static float *run(struct test_env *env, const char *src, const char *options, const float *in,
                  int width, size_t local) {
  cl_kernel k = test_kernel_from(env, src, "k", options);
  if (!k)
    return NULL;
  cl_mem bi = test_buffer_with(env, N * 4, in), bo = test_buffer_with(env, N * 4, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bi, &bi));
  size_t g = N / (size_t)width;
  if (local)
    g -= g % local;
  CHECK_OK(test_run(env, k, 1, NULL, &g, local ? &local : NULL));
  float *out = malloc(N * 4);
  test_read_back(env, bo, N * 4, out);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  return out;
}

static void check_accuracy(struct test_env *env, const float *in, const char *what, const char *src,
                           int width) {
  float *out = run(env, src, "", in, width, 0);
  if (!out)
    return;
  int bad = 0;
  double worst = 0.0;
  for (size_t i = 0; i < N; i++) {
    double e = rsqrt_error(in[i], out[i]);
    if (e > worst)
      worst = e;
    if ((e < 0.0 || e > 2.0) && bad++ < 5)
      fprintf(stderr, "%s: x %a gave %a (%.2f ulp)\n", what, in[i], out[i], e);
  }
  CHECK(bad == 0);
  printf("%s: worst %.3f ulp\n", what, worst);
  free(out);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  float *in = malloc(N * 4);
  fill_inputs(in);

  check_accuracy(&env, in, "rsqrt",
                 "kernel void k(global float *o, global const float *x) {\n"
                 "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n", 1);
  check_accuracy(&env, in, "rsqrt float16",
                 "kernel void k(global float16 *o, global const float16 *x) {\n"
                 "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n", 16);
  check_accuracy(&env, in, "1 / sqrt",
                 "kernel void k(global float *o, global const float *x) {\n"
                 "  size_t i = get_global_id(0); o[i] = 1.0f / sqrt(x[i]);\n}\n", 1);

  /* groups of 7 run mostly in the vector loop's scalar remainder: the same
   * bits as full vectors */
  const char *scalar_src = "kernel void k(global float *o, global const float *x) {\n"
                           "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n";
  float *full = run(&env, scalar_src, "", in, 1, 0), *odd = run(&env, scalar_src, "", in, 1, 7);
  if (full && odd) {
    int bad = 0;
    for (size_t i = 0; i < N - N % 7; i++)
      if (memcmp(&full[i], &odd[i], 4) != 0 && !(isnan(full[i]) && isnan(odd[i])) && bad++ < 5)
        fprintf(stderr, "rsqrt(%a): %a in full vectors, %a in groups of 7\n", in[i], full[i], odd[i]);
    CHECK(bad == 0);
  }
  /* float2, float4 and float8 kernels: the same bits as the scalar one
   * (the loop vectoriser's shuffles of their split lanes once lost the
   * division's accuracy metadata, and they kept the square root and
   * division) */
  static const char *const vector_srcs[] = {
      "kernel void k(global float2 *o, global const float2 *x) {\n"
      "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n",
      "kernel void k(global float4 *o, global const float4 *x) {\n"
      "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n",
      "kernel void k(global float8 *o, global const float8 *x) {\n"
      "  size_t i = get_global_id(0); o[i] = rsqrt(x[i]);\n}\n"};
  for (int v = 0; v < 3 && full; v++) {
    int width = 2 << v;
    float *vec = run(&env, vector_srcs[v], "", in, width, 0);
    if (!vec)
      continue;
    int bad = 0;
    for (size_t i = 0; i < N; i++)
      if (memcmp(&full[i], &vec[i], 4) != 0 && !(isnan(full[i]) && isnan(vec[i])) && bad++ < 3)
        fprintf(stderr, "rsqrt(%a): %a as float, %a as float%d\n", in[i], full[i], vec[i], width);
    CHECK(bad == 0);
    free(vec);
  }
  free(full);
  free(odd);

  /* correctly rounded division and square root: bit-exact composition */
  float *out = run(&env,
                   "kernel void k(global float *o, global const float *x) {\n"
                   "  size_t i = get_global_id(0); o[i] = 1.0f / sqrt(x[i]);\n}\n",
                   "-cl-fp32-correctly-rounded-divide-sqrt", in, 1, 0);
  if (out) {
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
      volatile float s = sqrtf(in[i]);
      float want = 1.0f / s;
      bool same = isnan(want) ? isnan(out[i]) : memcmp(&want, &out[i], 4) == 0;
      if (!same && bad++ < 5)
        fprintf(stderr, "correctly rounded 1 / sqrt(%a): %a, want %a\n", in[i], out[i], want);
    }
    CHECK(bad == 0);
    free(out);
  }

  free(in);
  test_env_release(&env);
  printf("test_fast_rsqrt: %d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
