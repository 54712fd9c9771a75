/* Large write-only outputs are written with non-temporal stores when the
 * launch writes at least the driver's threshold and the address is aligned
 * (src/compiler/target/x86/streaming_stores.c). The threshold is lowered here
 * (LOOMCL_STREAMING_STORES) so that small buffers take that path. Checked:
 * the optimised code of a write-only kernel has non-temporal stores and
 * kernels that read their output, or use atomics, have none; results are
 * exact for aligned and misaligned group starts (local sizes, global
 * offsets, a sub-buffer), for launches below the threshold, for int, double
 * and char data, and a later kernel reads what the stores wrote. */
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "kernel void axpb(global int *a, global const int *b, global const int *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = b[i] * 3 + c[i];\n"
    "}\n"
    "kernel void widen(global double *d, global const int *b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  d[i] = (double)b[i] * 0.5;\n"
    "}\n"
    "kernel void narrow(global char *o, global const int *b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[i] = (char)(b[i] ^ (int)i);\n"
    "}\n"
    "kernel void sum_back(global int *s, global const int *a, global const double *d) {\n"
    "  size_t i = get_global_id(0);\n"
    "  s[i] = a[i] + (int)(d[i] * 2.0);\n"
    "}\n";

static const char *rmw_src =
    "kernel void rmw(global int *y, global const int *x) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = y[i] + 2 * x[i];\n"
    "}\n";

static const char *atomic_src =
    "kernel void counted(global int *a, global const int *b, volatile global int *n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = b[i] + 1;\n"
    "  if (b[i] == 7) atomic_inc(n);\n"
    "}\n";

enum { N = 1 << 16 };

/* the work-group functions of the IR have non-temporal stores */
static bool has_nontemporal(const char *ir) {
  return ir && strstr(ir, "!nontemporal") != NULL;
}

static void run_axpb(struct test_env *env, cl_kernel k, const int *b, const int *c, size_t n,
                     size_t offset, size_t local, const char *what) {
  cl_mem ba = test_buffer_with(env, (n + offset) * sizeof(int), NULL);
  cl_mem bb = test_buffer_with(env, (n + offset) * sizeof(int), b);
  cl_mem bc = test_buffer_with(env, (n + offset) * sizeof(int), c);
  int *fill = malloc((n + offset) * sizeof(int));
  for (size_t i = 0; i < n + offset; i++)
    fill[i] = -1;
  CHECK_OK(clEnqueueWriteBuffer(env->queue, ba, CL_TRUE, 0, (n + offset) * sizeof(int), fill, 0,
                                NULL, NULL));
  CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
  size_t off = offset;
  CHECK_OK(test_run(env, k, 1, &off, &n, local ? &local : NULL));
  int *got = malloc((n + offset) * sizeof(int)), *want = malloc((n + offset) * sizeof(int));
  test_read_back(env, ba, (n + offset) * sizeof(int), got);
  for (size_t i = 0; i < n + offset; i++)
    want[i] = i < offset ? -1 : b[i] * 3 + c[i];
  CHECK(test_count_diff(got, want, n + offset, what) == 0);
  free(fill);
  free(got);
  free(want);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
}

static void test_write_only(struct test_env *env) {
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "axpb", NULL, &ir);
  /* only with 256-bit or wider vectors (AVX): SSE is left alone */
  cl_uint width = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width,
                           &width, NULL));
  if (width >= 8)
    CHECK(has_nontemporal(ir));
  free(ir);
  if (!k)
    return;
  int *b = malloc((N + 64) * sizeof(int)), *c = malloc((N + 64) * sizeof(int));
  test_pattern(b, N + 64, 3);
  test_pattern(c, N + 64, 4);
  static const size_t locals[] = {64, 0, 100, 1, 1000};
  for (size_t i = 0; i < sizeof locals / sizeof *locals; i++) {
    char what[48];
    size_t n = locals[i] == 100 || locals[i] == 1000 ? N / 1000 * 1000 : N;
    snprintf(what, sizeof what, "axpb local %zu", locals[i]);
    run_axpb(env, k, b, c, n, 0, locals[i], what);
  }
  run_axpb(env, k, b, c, N, 5, 64, "axpb offset 5");   /* every address misaligned */
  run_axpb(env, k, b, c, N, 16, 64, "axpb offset 16"); /* aligned again */
  run_axpb(env, k, b, c, 256, 0, 64, "axpb below the threshold");
  run_axpb(env, k, b, c, 1000, 3, 0, "axpb short, offset 3");
  free(b);
  free(c);
  clReleaseKernel(k);
}

/* a sub-buffer output at an offset of CL_DEVICE_MEM_BASE_ADDR_ALIGN bits;
 * then double and char outputs, and a kernel reading all of them back */
static void test_types_and_reuse(struct test_env *env) {
  cl_program p = test_program_from(env, src, NULL);
  if (!p)
    return;
  cl_int err;
  cl_kernel axpb = clCreateKernel(p, "axpb", &err), widen = clCreateKernel(p, "widen", &err);
  cl_kernel narrow = clCreateKernel(p, "narrow", &err), back = clCreateKernel(p, "sum_back", &err);
  CHECK(axpb && widen && narrow && back);
  cl_uint align_bits = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                           &align_bits, NULL));
  size_t origin = align_bits / 8;
  int *b = malloc(N * sizeof(int)), *c = malloc(N * sizeof(int));
  test_pattern(b, N, 7);
  test_pattern(c, N, 8);
  cl_mem parent = test_buffer_with(env, origin + N * sizeof(int), NULL);
  cl_buffer_region region = {origin, N * sizeof(int)};
  cl_mem ba = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                &err);
  CHECK_OK(err);
  cl_mem bb = test_buffer_with(env, N * sizeof(int), b);
  cl_mem bc = test_buffer_with(env, N * sizeof(int), c);
  cl_mem bd = test_buffer_with(env, N * sizeof(double), NULL);
  cl_mem bo = test_buffer_with(env, N, NULL);
  cl_mem bs = test_buffer_with(env, N * sizeof(int), NULL);
  size_t n = N, l = 256;
  CHECK_OK(clSetKernelArg(axpb, 0, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(axpb, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(axpb, 2, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(widen, 0, sizeof bd, &bd));
  CHECK_OK(clSetKernelArg(widen, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(narrow, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(narrow, 1, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(back, 0, sizeof bs, &bs));
  CHECK_OK(clSetKernelArg(back, 1, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(back, 2, sizeof bd, &bd));
  /* in-order queue: sum_back reads what the first two wrote */
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, axpb, 1, NULL, &n, &l, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, widen, 1, NULL, &n, &l, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, narrow, 1, NULL, &n, &l, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, back, 1, NULL, &n, &l, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  int *got = malloc(N * sizeof(int)), *want = malloc(N * sizeof(int));
  test_read_back(env, ba, N * sizeof(int), got);
  for (size_t i = 0; i < N; i++)
    want[i] = b[i] * 3 + c[i];
  CHECK(test_count_diff(got, want, N, "sub-buffer axpb") == 0);
  test_read_back(env, bs, N * sizeof(int), got);
  for (size_t i = 0; i < N; i++)
    want[i] = b[i] * 3 + c[i] + b[i];
  CHECK(test_count_diff(got, want, N, "sum_back") == 0);
  double *d = malloc(N * sizeof(double));
  test_read_back(env, bd, N * sizeof(double), d);
  size_t bad = 0;
  for (size_t i = 0; i < N; i++)
    bad += d[i] != (double)b[i] * 0.5;
  CHECK(bad == 0);
  signed char *o = malloc(N);
  test_read_back(env, bo, N, o);
  bad = 0;
  for (size_t i = 0; i < N; i++)
    bad += o[i] != (signed char)(c[i] ^ (int)i);
  CHECK(bad == 0);
  free(b);
  free(c);
  free(got);
  free(want);
  free(d);
  free(o);
  clReleaseMemObject(ba);
  clReleaseMemObject(parent);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseMemObject(bd);
  clReleaseMemObject(bo);
  clReleaseMemObject(bs);
  clReleaseKernel(axpb);
  clReleaseKernel(widen);
  clReleaseKernel(narrow);
  clReleaseKernel(back);
  clReleaseProgram(p);
}

/* read-modify-write outputs and kernels with atomics keep ordinary stores */
static void test_left_alone(struct test_env *env) {
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, rmw_src, "rmw", NULL, &ir);
  CHECK(ir && !has_nontemporal(ir));
  free(ir);
  if (k) {
    int *y = malloc(N * sizeof(int)), *x = malloc(N * sizeof(int));
    int *want = malloc(N * sizeof(int));
    test_pattern(y, N, 9);
    test_pattern(x, N, 10);
    for (size_t i = 0; i < N; i++)
      want[i] = y[i] + 2 * x[i];
    cl_mem by = test_buffer_with(env, N * sizeof(int), y), bx = test_buffer_with(env, N * sizeof(int), x);
    CHECK_OK(clSetKernelArg(k, 0, sizeof by, &by));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bx, &bx));
    size_t n = N;
    CHECK_OK(test_run(env, k, 1, NULL, &n, NULL));
    test_read_back(env, by, N * sizeof(int), y);
    CHECK(test_count_diff(y, want, N, "rmw") == 0);
    clReleaseMemObject(by);
    clReleaseMemObject(bx);
    free(y);
    free(x);
    free(want);
    clReleaseKernel(k);
  }
  k = test_kernel_with_ir(env, atomic_src, "counted", NULL, &ir);
  CHECK(ir && !has_nontemporal(ir));
  free(ir);
  if (k) {
    int *b = malloc(N * sizeof(int)), *want = malloc(N * sizeof(int));
    test_pattern(b, N, 11);
    int sevens = 0, zero = 0;
    for (size_t i = 0; i < N; i++) {
      want[i] = b[i] + 1;
      sevens += b[i] == 7;
    }
    cl_mem ba = test_buffer_with(env, N * sizeof(int), NULL), bb = test_buffer_with(env, N * sizeof(int), b);
    cl_mem bn = test_buffer_with(env, sizeof(int), &zero);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK_OK(clSetKernelArg(k, 2, sizeof bn, &bn));
    size_t n = N;
    CHECK_OK(test_run(env, k, 1, NULL, &n, NULL));
    test_read_back(env, ba, N * sizeof(int), b);
    CHECK(test_count_diff(b, want, N, "counted") == 0);
    int count = -1;
    test_read_back(env, bn, sizeof count, &count);
    CHECK_ERR(count, sevens);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bn);
    free(b);
    free(want);
    clReleaseKernel(k);
  }
}

int main(void) {
  test_set_config("LOOMCL_STREAMING_STORES", "4096");
  struct test_env env;
  test_env_init(&env);
  test_write_only(&env);
  test_types_and_reuse(&env);
  test_left_alone(&env);
  test_env_release(&env);
  return test_finish("test_streaming_stores");
}
