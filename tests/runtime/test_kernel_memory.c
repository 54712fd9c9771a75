/* Private, __constant and __local memory, helper functions, kernels
 * calling kernels, double and vector math and basic builtins, each checked
 * against a host reference. */
#include "harness.h"
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>


/* ---------- memory spaces, helpers, math ---------- */

static void test_private_memory(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "typedef struct { int a; float b; int arr[4]; } rec_t;\n"
                            "kernel void priv(global int *o, global const int *in) {\n"
                            "  size_t g = get_global_id(0);\n"
                            "  rec_t r;\n"
                            "  r.a = in[g];\n"
                            "  r.b = (float)r.a * 0.25f;\n"
                            "  for (int k = 0; k < 4; k++) r.arr[k] = r.a * k;\n"
                            "  int hist[16];\n"
                            "  for (int k = 0; k < 16; k++) hist[k] = 0;\n"
                            "  for (int k = 0; k < 10; k++) hist[(in[g] + k * k) & 15]++;\n"
                            "  int s = 0;\n"
                            "  for (int k = 0; k < 16; k++) s += hist[k] * k;\n"
                            "  rec_t copy = r;\n"
                            "  copy.arr[in[g] & 3] = 1000;\n"
                            "  o[g] = r.a + (int)(r.b * 4.0f) + r.arr[3] + s + r.arr[in[g] & 3]\n"
                            "       + copy.arr[in[g] & 3];\n"
                            "}\n",
                            "priv", NULL);
  if (!k)
    return;
  enum { G = 500 };
  int in[G], want[G];
  test_pattern(in, G, 9);
  int *got = test_run_io(env, k, in, G, 0);
  for (int i = 0; i < G; i++) {
    int v = in[i], hist[16] = {0}, s = 0;
    for (int q = 0; q < 10; q++)
      hist[(v + q * q) & 15]++;
    for (int q = 0; q < 16; q++)
      s += hist[q] * q;
    want[i] = v + v + v * 3 + s + v * (v & 3) + 1000;
  }
  CHECK(test_count_diff(got, want, G, "priv") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_constant_memory(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
                            "constant float ftab[4] = {0.5f, 1.5f, 2.5f, 3.5f};\n"
                            "constant struct { int k; short s[2]; } cs = {7, {-1, 2}};\n"
                            "kernel void consts(global int *o, global const int *in,\n"
                            "                   constant int *arg) {\n"
                            "  size_t g = get_global_id(0);\n"
                            "  o[g] = table[g & 7] * 10 + (int)(ftab[g & 3] * 2.0f) + cs.k\n"
                            "       + cs.s[g & 1] + arg[g % 5] + in[g];\n"
                            "}\n",
                            "consts", NULL);
  if (!k)
    return;
  enum { G = 200 };
  int in[G], want[G], arg[5] = {100, 200, 300, 400, 500};
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  test_pattern(in, G, 10);
  cl_mem argb = test_buffer_with(env, sizeof arg, arg);
  CHECK_OK(clSetKernelArg(k, 2, sizeof argb, &argb));
  int *got = test_run_io(env, k, in, G, 0);
  for (int i = 0; i < G; i++)
    want[i] = table[i & 7] * 10 + (int)((0.5f + (float)(i & 3)) * 2.0f) + 7 + (i & 1 ? 2 : -1) +
              arg[i % 5] + in[i];
  CHECK(test_count_diff(got, want, G, "consts") == 0);
  free(got);
  clReleaseMemObject(argb);
  clReleaseKernel(k);
}

static void test_helper_functions(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "int square(int x) { return x * x; }\n"
                            "static int twice(int x) { return square(x) * 2 / (x == 0 ? 1 : x); }\n"
                            "void stage(local int *a, int v) {\n"
                            "  a[get_local_id(0)] = v;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "}\n"
                            "int neighbour(local int *a) {\n"
                            "  return a[(get_local_id(0) + 1) % get_local_size(0)];\n"
                            "}\n"
                            "kernel void helpers(global int *o, global const int *in,\n"
                            "                    local int *a) {\n"
                            "  int v = square(in[get_global_id(0)] % 100);\n"
                            "  stage(a, v);\n"
                            "  int n1 = neighbour(a);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  stage(a, n1 + 1);\n"
                            "  o[get_global_id(0)] = neighbour(a) + v + twice(3);\n"
                            "}\n",
                            "helpers", NULL);
  if (!k)
    return;
  enum { G = 256, L = 32 };
  int in[G], want[G];
  test_pattern(in, G, 11);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = test_run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L;
    int v = (in[i] % 100) * (in[i] % 100);
    int n2 = base + (l + 2) % L;
    int second = (in[n2] % 100) * (in[n2] % 100) + 1;
    want[i] = second + v + 6;
  }
  CHECK(test_count_diff(got, want, G, "helpers") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_kernel_calls_kernel(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void inner(global int *o, int v) { o[get_global_id(0)] += v; }\n"
                       "kernel void outer(global int *o) {\n"
                       "  o[get_global_id(0)] = (int)get_global_id(0);\n"
                       "  inner(o, 5);\n"
                       "  inner(o, 100);\n"
                       "}\n",
                       NULL);
  if (!p)
    return;
  cl_int err;
  cl_kernel outer = clCreateKernel(p, "outer", &err);
  CHECK_OK(err);
  cl_kernel inner = clCreateKernel(p, "inner", &err);
  CHECK_OK(err);
  enum { G = 64 };
  int got[G];
  cl_mem buf = test_buffer_with(env, sizeof got, NULL);
  size_t g = G;
  CHECK_OK(clSetKernelArg(outer, 0, sizeof buf, &buf));
  CHECK_OK(test_run(env, outer, 1, NULL, &g, NULL));
  test_read_back(env, buf, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != i + 105;
  CHECK(bad == 0);
  /* the called kernel still runs on its own */
  int v = -100;
  CHECK_OK(clSetKernelArg(inner, 0, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(inner, 1, sizeof v, &v));
  CHECK_OK(test_run(env, inner, 1, NULL, &g, NULL));
  test_read_back(env, buf, sizeof got, got);
  bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != i + 5;
  CHECK(bad == 0);
  clReleaseMemObject(buf);
  clReleaseKernel(outer);
  clReleaseKernel(inner);
  clReleaseProgram(p);
}

static int close_to(double got, double want, double rel) {
  double diff = fabs(got - want), mag = fabs(want) > 1.0 ? fabs(want) : 1.0;
  return diff <= rel * mag;
}

static void test_double_math(struct test_env *env) {
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  if (!fp64)
    return;
  cl_kernel k = test_kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "kernel void dmath(global double *o, global const double *in) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  double x = in[i];\n"
                            "  global double *r = o + i * 8;\n"
                            "  r[0] = sqrt(x) + x / 3.0;\n"
                            "  r[1] = sin(x) * cos(x);\n"
                            "  r[2] = exp(-x) + log(1.0 + x);\n"
                            "  r[3] = pow(x, 1.5);\n"
                            "  r[4] = fma(x, 2.0, 1.0) + mad(x, x, -1.0);\n"
                            "  r[5] = floor(x * 3.7) + ceil(-x) + fabs(-x);\n"
                            "  r[6] = fmin(x, 2.5) + fmax(x, 2.5) + clamp(x, 1.0, 3.0);\n"
                            "  r[7] = (x + 1e-12) - x;\n"
                            "}\n",
                            "dmath", NULL);
  if (!k)
    return;
  enum { G = 128 };
  double in[G], got[G * 8];
  for (int i = 0; i < G; i++)
    in[i] = 0.03125 + i * 0.0625;
  cl_mem out = test_buffer_with(env, sizeof got, NULL), inb = test_buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  size_t g = G;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    double x = in[i], want[8];
    want[0] = sqrt(x) + x / 3.0;
    want[1] = sin(x) * cos(x);
    want[2] = exp(-x) + log(1.0 + x);
    want[3] = pow(x, 1.5);
    want[4] = fma(x, 2.0, 1.0) + (x * x - 1.0);
    want[5] = floor(x * 3.7) + ceil(-x) + fabs(-x);
    want[6] = fmin(x, 2.5) + fmax(x, 2.5) + fmin(fmax(x, 1.0), 3.0);
    want[7] = (x + 1e-12) - x; /* only exact in double precision */
    for (int q = 0; q < 8; q++)
      if (!close_to(got[i * 8 + q], want[q], q == 7 ? 1e-3 : 1e-13)) {
        if (bad < 3)
          fprintf(stderr, "  dmath x=%g [%d]: %.17g vs %.17g\n", x, q, got[i * 8 + q], want[q]);
        bad++;
      }
  }
  CHECK(bad == 0);
  CHECK(got[7] > 0.9e-12 && got[7] < 1.1e-12);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

static void test_float4_math(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void vmath(global float4 *o, global const float4 *a,\n"
                            "                  global const float4 *b) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  float4 x = a[i], y = b[i];\n"
                            "  global float4 *r = o + i * 6;\n"
                            "  r[0] = x * y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
                            "  r[1] = (float4)(dot(x, y), length(x), distance(x, y),\n"
                            "                  dot(x.xyz, y.zyx));\n"
                            "  r[2] = normalize(x);\n"
                            "  r[3] = cross(x, y);\n"
                            "  r[4] = mad(x, y, x) + fmax(x, y) - min(x, y);\n"
                            "  r[5] = clamp(x.wzyx, -1.0f, 1.0f) + mix(x, y, 0.25f)\n"
                            "       + sqrt(fabs(y)) + (x > y ? (float4)1.0f : (float4)0.0f);\n"
                            "}\n",
                            "vmath", NULL);
  if (!k)
    return;
  enum { G = 100 };
  static cl_float4 a[G], b[G], got[G * 6];
  for (int i = 0; i < G; i++)
    for (int c = 0; c < 4; c++) {
      a[i].s[c] = (float)((i * 7 + c * 3) % 23) * 0.25f - 2.0f;
      b[i].s[c] = (float)((i * 5 + c * 11) % 19) * 0.5f - 4.0f;
    }
  a[0].s[0] = 1.0f; /* keep normalize away from zero vectors */
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  cl_mem ab = test_buffer_with(env, sizeof a, a), bb = test_buffer_with(env, sizeof b, b);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ab, &ab));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bb, &bb));
  size_t g = G;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    const float *x = a[i].s, *y = b[i].s;
    float want[6][4];
    float dot = 0, len = 0, dist = 0;
    for (int c = 0; c < 4; c++) {
      want[0][c] = x[c] * y[c] + (float)(c + 1);
      dot += x[c] * y[c];
      len += x[c] * x[c];
      dist += (x[c] - y[c]) * (x[c] - y[c]);
    }
    len = sqrtf(len);
    want[1][0] = dot;
    want[1][1] = len;
    want[1][2] = sqrtf(dist);
    want[1][3] = x[0] * y[2] + x[1] * y[1] + x[2] * y[0];
    for (int c = 0; c < 4; c++)
      want[2][c] = len > 0 ? x[c] / len : 0.0f;
    want[3][0] = x[1] * y[2] - x[2] * y[1];
    want[3][1] = x[2] * y[0] - x[0] * y[2];
    want[3][2] = x[0] * y[1] - x[1] * y[0];
    want[3][3] = 0.0f;
    for (int c = 0; c < 4; c++) {
      want[4][c] = x[c] * y[c] + x[c] + fmaxf(x[c], y[c]) - fminf(x[c], y[c]);
      float cl = fminf(fmaxf(x[3 - c], -1.0f), 1.0f);
      want[5][c] =
          cl + (x[c] + (y[c] - x[c]) * 0.25f) + sqrtf(fabsf(y[c])) + (x[c] > y[c] ? 1.0f : 0.0f);
    }
    if (len == 0)
      continue;
    for (int r = 0; r < 6; r++)
      for (int c = 0; c < 4; c++)
        if (!close_to(got[i * 6 + r].s[c], want[r][c], 1e-5)) {
          if (bad < 3)
            fprintf(stderr, "  vmath item %d row %d lane %d: %g vs %g\n", i, r, c,
                    got[i * 6 + r].s[c], want[r][c]);
          bad++;
        }
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseKernel(k);
}

/* the scalar math and integer builtins the library provides */
static void test_builtin_functions(struct test_env *env) {
  cl_kernel fk = test_kernel_from(env,
                             "kernel void fmath(global float *o, global const float *in) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  float x = in[i];\n"
                             "  global float *r = o + i * 24;\n"
                             "  r[0] = sqrt(x); r[1] = fabs(-x); r[2] = floor(x); r[3] = ceil(x);\n"
                             "  r[4] = exp(x); r[5] = log(x); r[6] = sin(x); r[7] = cos(x);\n"
                             "  r[8] = pow(x, 1.3f); r[9] = fmin(x, 2.0f); r[10] = fmax(x, 2.0f);\n"
                             "  r[11] = fma(x, 3.0f, 1.0f); r[12] = mad(x, 3.0f, 1.0f);\n"
                             "  r[13] = rsqrt(x); r[14] = tan(x * 0.3f); r[15] = atan(x);\n"
                             "  r[16] = native_sin(x); r[17] = half_exp(x);\n"
                             "  r[18] = mix(x, 10.0f, 0.25f); r[19] = step(2.0f, x);\n"
                             "  r[20] = degrees(x); r[21] = radians(x);\n"
                             "  r[22] = clamp(x, 0.5f, 3.0f);\n"
                             "  float4 v = exp((float4)(x, x, x, x)) - (float4)(exp(x));\n"
                             "  r[23] = v.x + v.y + v.z + v.w + native_sqrt(x) + half_rsqrt(x);\n"
                             "}\n",
                             "fmath", NULL);
  cl_kernel ik = test_kernel_from(env,
                             "kernel void imath(global int *o, global const int *in) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  int x = in[i], y = in[(i * 7 + 3) % get_global_size(0)];\n"
                             "  global int *r = o + i * 10;\n"
                             "  r[0] = (int)abs(x); r[1] = min(x, y); r[2] = max(x, y);\n"
                             "  r[3] = clamp(x, -100, 100); r[4] = mad24(x, y, 5);\n"
                             "  r[5] = mul24(x, 3); r[6] = (int)min((uint)x, 1000u);\n"
                             "  r[7] = max((uchar)x, (uchar)y);\n"
                             "  uint4 a = abs((int4)(x, y, -x, -y));\n"
                             "  r[8] = (int)(a.x + a.y + a.z + a.w);\n"
                             "  r[9] = clamp(x, y - 10, y + 10) + (int)max((long)x, (long)y);\n"
                             "}\n",
                             "imath", NULL);
  if (!fk || !ik)
    return;
  enum { G = 64 };
  float fin[G], fgot[G * 24];
  for (int i = 0; i < G; i++)
    fin[i] = 0.1f + (float)i * 0.0625f;
  cl_mem fo = test_buffer_with(env, sizeof fgot, NULL), fi = test_buffer_with(env, sizeof fin, fin);
  CHECK_OK(clSetKernelArg(fk, 0, sizeof fo, &fo));
  CHECK_OK(clSetKernelArg(fk, 1, sizeof fi, &fi));
  size_t g = G;
  CHECK_OK(test_run(env, fk, 1, NULL, &g, NULL));
  test_read_back(env, fo, sizeof fgot, fgot);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    float x = fin[i];
    double want[24] = {sqrtf(x),
                       x,
                       floorf(x),
                       ceilf(x),
                       expf(x),
                       logf(x),
                       sinf(x),
                       cosf(x),
                       powf(x, 1.3f),
                       fminf(x, 2.0f),
                       fmaxf(x, 2.0f),
                       fmaf(x, 3.0f, 1.0f),
                       x * 3.0f + 1.0f,
                       1.0 / sqrt(x),
                       tanf(x * 0.3f),
                       atanf(x),
                       sinf(x),
                       expf(x),
                       x + (10.0f - x) * 0.25f,
                       x < 2.0f ? 0.0f : 1.0f,
                       x * (180.0 / M_PI),
                       x * (M_PI / 180.0),
                       fminf(fmaxf(x, 0.5f), 3.0f),
                       sqrt(x) + 1.0 / sqrt(x)};
    for (int q = 0; q < 24; q++) {
      /* the native_ and half_ variants have looser bounds */
      double tol = (q == 16 || q == 17 || q == 23) ? 1e-3 : 4e-6;
      if (!close_to(fgot[i * 24 + q], want[q], tol)) {
        if (bad < 3)
          fprintf(stderr, "  fmath x=%g [%d]: %.9g vs %.9g\n", x, q, fgot[i * 24 + q], want[q]);
        bad++;
      }
    }
  }
  CHECK(bad == 0);

  int iin[G], igot[G * 10];
  test_pattern(iin, G, 17);
  cl_mem io = test_buffer_with(env, sizeof igot, NULL), ii = test_buffer_with(env, sizeof iin, iin);
  CHECK_OK(clSetKernelArg(ik, 0, sizeof io, &io));
  CHECK_OK(clSetKernelArg(ik, 1, sizeof ii, &ii));
  CHECK_OK(test_run(env, ik, 1, NULL, &g, NULL));
  test_read_back(env, io, sizeof igot, igot);
  bad = 0;
  for (int i = 0; i < G; i++) {
    int x = iin[i], y = iin[(i * 7 + 3) % G];
    unsigned char ux = (unsigned char)x, uy = (unsigned char)y;
    int lo = y - 10, hi = y + 10;
    int want[10] = {abs(x),
                    x < y ? x : y,
                    x > y ? x : y,
                    x < -100  ? -100
                    : x > 100 ? 100
                              : x,
                    x * y + 5,
                    x * 3,
                    (unsigned)x < 1000u ? x : 1000,
                    ux > uy ? ux : uy,
                    2 * abs(x) + 2 * abs(y),
                    (x < lo   ? lo
                     : x > hi ? hi
                              : x) +
                        (x > y ? x : y)};
    for (int q = 0; q < 10; q++)
      if (igot[i * 10 + q] != want[q]) {
        if (bad < 3)
          fprintf(stderr, "  imath x=%d y=%d [%d]: %d vs %d\n", x, y, q, igot[i * 10 + q], want[q]);
        bad++;
      }
  }
  CHECK(bad == 0);
  clReleaseMemObject(fo);
  clReleaseMemObject(fi);
  clReleaseMemObject(io);
  clReleaseMemObject(ii);
  clReleaseKernel(fk);
  clReleaseKernel(ik);
}


int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_private_memory(&env);
  test_constant_memory(&env);
  test_helper_functions(&env);
  test_kernel_calls_kernel(&env);
  test_double_math(&env);
  test_float4_math(&env);
  test_builtin_functions(&env);
  test_env_release(&env);
  return test_finish("test_kernel_memory");
}
