/* Kernels that keep their OpenCL vectors whole, one work-item at a time
 * (vectorize/whole_vectors.c), and those that do not, run with exact
 * results against host sums:
 *  - clpeak's bandwidth pattern, each work-item summing 4 vectors a stride
 *    apart in a loop of constant trip count, for every width of int, float
 *    and double, with local sizes that are not multiples of the vector
 *    width; the float16 kernel (a full register wherever the device's float
 *    vectors are at least 8 wide) must be marked "loom-whole-vectors" in the
 *    optimised IR and have no outer work-item loop;
 *  - y = a x + y on every such vector type (straight-line code);
 *  - a float16 chain of multiply-adds per work-item, 256 long (clpeak's
 *    compute kernel), must stay split: its work-items' chains run side by
 *    side (a short chain would not: the out-of-order core overlaps the next
 *    work-items'). */
#include "harness.h"
#include <stdlib.h>
#include <string.h>

enum { STRIDE = 100, ITEMS = 100, TRIPS = 4 };

static const char *bandwidth_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void bw(global const T *a, global T *o, int stride) {\n"
    "  int id = get_global_id(0);\n"
    "  T s = 0;\n"
    "  for (int i = 0; i < 4; i++) { s += a[id]; id += stride; }\n"
    "  o[get_global_id(0)] = s;\n"
    "}\n";

static const char *axpy_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void axpy(global const T *x, global T *y, int a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = (T)a * x[i] + y[i];\n"
    "}\n";

static const char *chain_src =
    "kernel void chain16(global float *out, float x0) {\n"
    "  float16 x = x0, y = (float)get_local_id(0) * 0.001f;\n"
    "  for (int i = 0; i < 8; i++)\n"
    "    for (int j = 0; j < 16; j++) { x = mad(y, x, y); y = mad(x, y, x); }\n"
    "  out[get_global_id(0)] = y.s0 + y.sf;\n"
    "}\n";

/* does kernel's work-group function in the module text ir carry attr? */
static bool wg_has_attr(const char *ir, const char *kernel, const char *attr) {
  char fn[128];
  snprintf(fn, sizeof fn, "%s.loom_wg", kernel);
  return test_ir_fn_has_attr(ir, fn, attr);
}

static double element(const void *p, size_t i, char kind) {
  return kind == 'd' ? ((const double *)p)[i] : kind == 'f' ? ((const float *)p)[i] : ((const int *)p)[i];
}

/* the sums of one vector type; *ir: the optimised IR (free it) */
static void test_bandwidth_type(struct test_env *env, const char *type, size_t local, char **ir) {
  char kind = type[0] == 'd' ? 'd' : type[0] == 'f' ? 'f' : 'i';
  unsigned width = (unsigned)atoi(type + (kind == 'd' ? 6 : kind == 'f' ? 5 : 3));
  size_t elem = kind == 'd' ? 8 : 4, count = (size_t)(ITEMS + STRIDE * TRIPS) * width;
  char opt[64];
  snprintf(opt, sizeof opt, "-DT=%s", type);
  cl_kernel k = test_kernel_with_ir(env, bandwidth_src, "bw", opt, ir);
  CHECK(k != NULL);
  if (!k)
    return;
  unsigned char *a = malloc(count * elem), *o = malloc((size_t)ITEMS * width * elem);
  for (size_t i = 0; i < count; i++) {
    int v = (int)((i * 7919) % 1000) - 500;
    if (kind == 'd')
      ((double *)a)[i] = v;
    else if (kind == 'f')
      ((float *)a)[i] = (float)v;
    else
      ((int *)a)[i] = v;
  }
  cl_mem ma = test_buffer_with(env, count * elem, a);
  cl_mem mo = test_buffer_with(env, (size_t)ITEMS * width * elem, NULL);
  int stride = STRIDE;
  CHECK_OK(clSetKernelArg(k, 0, sizeof ma, &ma));
  CHECK_OK(clSetKernelArg(k, 1, sizeof mo, &mo));
  CHECK_OK(clSetKernelArg(k, 2, sizeof stride, &stride));
  size_t g = ITEMS;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &local));
  test_read_back(env, mo, (size_t)ITEMS * width * elem, o);
  int bad = 0;
  for (size_t item = 0; item < ITEMS; item++)
    for (unsigned c = 0; c < width; c++) {
      double want = 0;
      for (int i = 0; i < TRIPS; i++)
        want += element(a, (item + (size_t)i * STRIDE) * width + c, kind);
      bad += element(o, item * width + c, kind) != want;
    }
  if (bad)
    fprintf(stderr, "whole vector reads %s, local size %zu: %d wrong\n", type, local, bad);
  CHECK(bad == 0);
  clReleaseMemObject(ma);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
  free(a);
  free(o);
}

/* y = a x + y on whole vectors (straight-line, memory-bound: kept whole) */
static void test_axpy_type(struct test_env *env, const char *type, size_t local) {
  char kind = type[0] == 'd' ? 'd' : type[0] == 'f' ? 'f' : 'i';
  unsigned width = (unsigned)atoi(type + (kind == 'd' ? 6 : kind == 'f' ? 5 : 3));
  size_t elem = kind == 'd' ? 8 : 4, count = (size_t)ITEMS * width;
  char opt[64];
  snprintf(opt, sizeof opt, "-DT=%s", type);
  cl_kernel k = test_kernel_from(env, axpy_src, "axpy", opt);
  CHECK(k != NULL);
  if (!k)
    return;
  unsigned char *x = malloc(count * elem), *y = malloc(count * elem), *got = malloc(count * elem);
  for (size_t i = 0; i < count; i++) {
    int vx = (int)(i % 97) - 40, vy = (int)((i * 31) % 89) - 44;
    if (kind == 'd')
      ((double *)x)[i] = vx, ((double *)y)[i] = vy;
    else if (kind == 'f')
      ((float *)x)[i] = (float)vx, ((float *)y)[i] = (float)vy;
    else
      ((int *)x)[i] = vx, ((int *)y)[i] = vy;
  }
  cl_mem mx = test_buffer_with(env, count * elem, x), my = test_buffer_with(env, count * elem, y);
  int a = 3;
  CHECK_OK(clSetKernelArg(k, 0, sizeof mx, &mx));
  CHECK_OK(clSetKernelArg(k, 1, sizeof my, &my));
  CHECK_OK(clSetKernelArg(k, 2, sizeof a, &a));
  size_t g = ITEMS;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &local));
  test_read_back(env, my, count * elem, got);
  int bad = 0;
  for (size_t i = 0; i < count; i++)
    bad += element(got, i, kind) != a * element(x, i, kind) + element(y, i, kind);
  if (bad)
    fprintf(stderr, "whole vector axpy %s: %d wrong\n", type, bad);
  CHECK(bad == 0);
  clReleaseMemObject(mx);
  clReleaseMemObject(my);
  clReleaseKernel(k);
  free(x);
  free(y);
  free(got);
}

static void test_chain(struct test_env *env, cl_uint float_width) {
  char *ir = NULL;
  cl_kernel k = test_kernel_with_ir(env, chain_src, "chain16", NULL, &ir);
  CHECK(k != NULL);
  if (!k) {
    free(ir);
    return;
  }
  CHECK(!wg_has_attr(ir, "chain16", "\"loom-whole-vectors\""));
  CHECK(float_width < 8 || wg_has_attr(ir, "chain16", "\"loom-outer-loops\""));
  free(ir);
  enum { N = 64 };
  cl_mem mo = test_buffer_with(env, N * sizeof(float), NULL);
  float x0 = 0.5f, out[N];
  CHECK_OK(clSetKernelArg(k, 0, sizeof mo, &mo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof x0, &x0));
  size_t g = N, l = 16;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, mo, sizeof out, out);
  int bad = 0;
  for (int item = 0; item < N; item++) {
    /* every component follows the same chain: mad is a * b + c, fused or not */
    float x = x0, y = (float)(item % 16) * 0.001f;
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 16; j++) {
        x = y * x + y;
        y = x * y + x;
      }
    float want = y + y, got = out[item];
    bad += !(got == want || (got - want <= 1e-4f * (want < 0 ? -want : want) + 1e-6f &&
                             want - got <= 1e-4f * (want < 0 ? -want : want) + 1e-6f));
  }
  CHECK(bad == 0);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_uint float_width = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof float_width,
                           &float_width, NULL));
  static const char *const types[] = {"int2",   "int4",   "int8",    "int16",   "float2",  "float4",
                                      "float8", "float16", "double2", "double4", "double8"};
  for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
    char *ir = NULL;
    test_bandwidth_type(&env, types[t], 50, &ir);
    if (!strcmp(types[t], "float16")) {
      CHECK(float_width < 8 || wg_has_attr(ir, "bw", "\"loom-whole-vectors\""));
      CHECK(!wg_has_attr(ir, "bw", "\"loom-outer-loops\""));
    }
    free(ir);
    ir = NULL;
    test_bandwidth_type(&env, types[t], 20, &ir); /* a multiple of no vector width */
    free(ir);
    test_axpy_type(&env, types[t], 20);
  }
  test_chain(&env, float_width);
  test_env_release(&env);
  return test_finish("test_whole_vectors");
}
