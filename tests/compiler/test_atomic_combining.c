/* A work-group's relaxed atomic additions with unused results are summed per
 * address and applied when the group ends (src/compiler/target/x86/atomic_combining.c).
 * Checked against host references: histograms with atomic_inc (bins that
 * share a table slot, so entries are evicted), atomic_add/atomic_sub with
 * wrap-around, 64-bit atom_add, relaxed C11 atomic_fetch_add_explicit, every
 * local size from 1 to 256 and 2D groups; the optimised code must combine
 * those, and must not combine kernels that use the old value, read the
 * buffer, use seq_cst atomics, fences or two integer widths; two arguments
 * naming one buffer (an increment then read back through the other) must
 * see the increment. */
#include "harness.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool combined(const char *ir) { return ir && strstr(ir, "combine.hit") != NULL; }

enum { N = 50000, BINS = 1024 };

/* bins 0..1023: i*7 and i*257 spread over all slots and collide in many */
static unsigned bin_of(int v, size_t i) { return ((unsigned)v * 7u + (unsigned)i * 257u) % BINS; }

static const char *std = "-cl-std=CL3.0";

static const char *hist_src =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "kernel void hist(global const int *in, global uint *h) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atomic_inc(&h[((uint)in[i] * 7u + (uint)i * 257u) % 1024u]);\n"
    "}\n"
    "kernel void addsub(global const int *in, global uint *h, global ulong *h64) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint b = (uint)in[i] & 63u;\n"
    "  if (in[i] & 1) atomic_sub(&h[b], (uint)in[i] * 100000u);\n"
    "  else atomic_add(&h[b], (uint)in[i] * 3000000u);\n"
    "}\n"
    "kernel void add64(global const int *in, global ulong *h) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atom_add(&h[(uint)in[i] & 31u], (ulong)(long)in[i] << 33);\n"
    "}\n"
    "kernel void c11(global const int *in, global atomic_uint *h) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atomic_fetch_add_explicit(&h[(uint)in[i] & 127u], 2u, memory_order_relaxed,\n"
    "                            memory_scope_device);\n"
    "}\n"
    "kernel void hist2d(global const int *in, global uint *h) {\n"
    "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  atomic_inc(&h[((uint)in[i] * 7u + (uint)i * 257u) % 1024u]);\n"
    "}\n";

static void run_hist(struct test_env *env, cl_kernel k, cl_mem in, const int *data, size_t n,
                     cl_uint dims, const size_t *global, const size_t *local, const char *what) {
  uint32_t zero[BINS] = {0}, got[BINS], want[BINS] = {0};
  cl_mem h = test_buffer_with(env, sizeof zero, zero);
  CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
  CHECK_OK(clSetKernelArg(k, 1, sizeof h, &h));
  CHECK_OK(test_run(env, k, dims, NULL, global, local));
  test_read_back(env, h, sizeof got, got);
  for (size_t i = 0; i < n; i++)
    want[bin_of(data[i], i)]++;
  CHECK(test_count_diff((int *)got, (int *)want, BINS, what) == 0);
  clReleaseMemObject(h);
}

static void test_histograms(struct test_env *env, const int *data, cl_mem in) {
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, hist_src, "hist", std, &ir);
  CHECK(combined(ir));
  free(ir);
  if (!k)
    return;
  static const size_t locals[] = {1, 7, 64, 100, 256, 0};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    size_t l = locals[c], n = l ? N / l * l : N;
    char what[32];
    snprintf(what, sizeof what, "hist local %zu", l);
    run_hist(env, k, in, data, n, 1, &n, l ? &l : NULL, what);
  }
  clReleaseKernel(k);
  k = test_kernel_from(env, hist_src, "hist2d", std);
  if (k) {
    size_t g[2] = {250, 200}, l[2] = {10, 8};
    run_hist(env, k, in, data, 250 * 200, 2, g, l, "hist2d");
    clReleaseKernel(k);
  }
}

static void test_add_sub_64(struct test_env *env, const int *data, cl_mem in) {
  cl_program p = test_program_from(env, hist_src, std);
  if (!p)
    return;
  cl_int err;
  cl_kernel addsub = clCreateKernel(p, "addsub", &err), add64 = clCreateKernel(p, "add64", &err);
  cl_kernel c11 = clCreateKernel(p, "c11", &err);
  uint32_t h32[128] = {0}, want32[128] = {0};
  uint64_t h64[32] = {0}, want64[32] = {0};
  for (size_t i = 0; i < 64; i++)
    h32[i] = want32[i] = (uint32_t)i * 12345u; /* the sums land on non-zero values */
  cl_mem b32 = test_buffer_with(env, sizeof h32, h32), b64 = test_buffer_with(env, sizeof h64, h64);
  size_t n = N, l = 128;
  CHECK_OK(clSetKernelArg(addsub, 0, sizeof in, &in));
  CHECK_OK(clSetKernelArg(addsub, 1, sizeof b32, &b32));
  CHECK_OK(clSetKernelArg(addsub, 2, sizeof b64, &b64));
  CHECK_OK(test_run(env, addsub, 1, NULL, &n, NULL));
  for (size_t i = 0; i < N; i++) {
    uint32_t b = (uint32_t)data[i] & 63u;
    if (data[i] & 1)
      want32[b] -= (uint32_t)data[i] * 100000u;
    else
      want32[b] += (uint32_t)data[i] * 3000000u;
  }
  uint32_t got32[128];
  test_read_back(env, b32, sizeof got32, got32);
  CHECK(test_count_diff((int *)got32, (int *)want32, 64, "addsub") == 0);

  CHECK_OK(clSetKernelArg(add64, 0, sizeof in, &in));
  CHECK_OK(clSetKernelArg(add64, 1, sizeof b64, &b64));
  CHECK_OK(test_run(env, add64, 1, NULL, &n, &l));
  for (size_t i = 0; i < N; i++)
    want64[(uint32_t)data[i] & 31u] += (uint64_t)(int64_t)data[i] << 33;
  uint64_t got64[32];
  test_read_back(env, b64, sizeof got64, got64);
  size_t bad = 0;
  for (int i = 0; i < 32; i++)
    bad += got64[i] != want64[i];
  CHECK(bad == 0);

  uint32_t zero[128] = {0}, got[128], want[128] = {0};
  cl_mem bc = test_buffer_with(env, sizeof zero, zero);
  CHECK_OK(clSetKernelArg(c11, 0, sizeof in, &in));
  CHECK_OK(clSetKernelArg(c11, 1, sizeof bc, &bc));
  CHECK_OK(test_run(env, c11, 1, NULL, &n, &l));
  for (size_t i = 0; i < N; i++)
    want[(uint32_t)data[i] & 127u] += 2;
  test_read_back(env, bc, sizeof got, got);
  CHECK(test_count_diff((int *)got, (int *)want, 128, "c11 relaxed") == 0);
  clReleaseMemObject(b32);
  clReleaseMemObject(b64);
  clReleaseMemObject(bc);
  clReleaseKernel(addsub);
  clReleaseKernel(add64);
  clReleaseKernel(c11);
  clReleaseProgram(p);
}

/* kernels that must keep their atomics as they are, and still compute right:
 * (name, source, the bins' expected value for in[] all equal to 1) */
static const struct {
  const char *name, *src;
} kept[] = {
    {"old_value",
     "kernel void old_value(global const int *in, global uint *h, global uint *o) {\n"
     "  size_t i = get_global_id(0);\n"
     "  o[i] = atomic_inc(&h[(uint)in[i] & 15u]);\n"
     "}\n"},
    {"reads_back",
     "kernel void reads_back(global const int *in, global uint *h, global uint *o) {\n"
     "  size_t i = get_global_id(0);\n"
     "  atomic_inc(&h[(uint)in[i] & 15u]);\n"
     "  o[i] = h[16];\n"
     "}\n"},
    {"seq_cst",
     "kernel void seq_cst(global const int *in, global atomic_uint *h, global uint *o) {\n"
     "  size_t i = get_global_id(0);\n"
     "  atomic_fetch_add(&h[(uint)in[i] & 15u], 1u);\n"
     "  o[i] = 0;\n"
     "}\n"},
    {"fenced",
     "kernel void fenced(global const int *in, global uint *h, global uint *o) {\n"
     "  size_t i = get_global_id(0);\n"
     "  atomic_inc(&h[(uint)in[i] & 15u]);\n"
     "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
     "  o[i] = 0;\n"
     "}\n"},
    {"two_widths",
     "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
     "kernel void two_widths(global const int *in, global uint *h, global ulong *o) {\n"
     "  size_t i = get_global_id(0);\n"
     "  atomic_inc(&h[(uint)in[i] & 15u]);\n"
     "  atom_inc(&o[0]);\n"
     "}\n"},
};

static void test_left_alone(struct test_env *env, const int *data, cl_mem in) {
  for (size_t c = 0; c < sizeof kept / sizeof *kept; c++) {
    char *ir;
    cl_kernel k = test_kernel_with_ir(env, kept[c].src, kept[c].name, std, &ir);
    if (ir && combined(ir))
      fprintf(stderr, "  %s: combined, but must not be\n", kept[c].name);
    CHECK(ir && !combined(ir));
    free(ir);
    if (!k)
      continue;
    uint32_t zero[32] = {0}, got[32], want[32] = {0};
    cl_mem h = test_buffer_with(env, sizeof zero, zero);
    cl_mem o = test_buffer_with(env, N * sizeof(uint64_t), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK_OK(clSetKernelArg(k, 1, sizeof h, &h));
    CHECK_OK(clSetKernelArg(k, 2, sizeof o, &o));
    size_t n = N, l = 64;
    CHECK_OK(test_run(env, k, 1, NULL, &n, &l));
    for (size_t i = 0; i < N; i++)
      want[(uint32_t)data[i] & 15u]++;
    test_read_back(env, h, sizeof got, got);
    CHECK(test_count_diff((int *)got, (int *)want, 16, kept[c].name) == 0);
    if (!strcmp(kept[c].name, "old_value")) {
      /* every old value of a bin is seen exactly once */
      uint32_t *olds = malloc(N * sizeof *olds);
      test_read_back(env, o, N * sizeof *olds, olds);
      uint64_t sum = 0, want_sum = 0;
      for (size_t i = 0; i < N; i++)
        sum += olds[i];
      for (int b = 0; b < 16; b++)
        want_sum += (uint64_t)want[b] * (want[b] - (want[b] ? 1 : 0)) / 2;
      CHECK(sum == want_sum);
      free(olds);
    }
    clReleaseMemObject(h);
    clReleaseMemObject(o);
    clReleaseKernel(k);
  }
}

/* Two arguments naming the same buffer: a work-item's own increment must be
 * visible to its plain read through the other argument, so such launches
 * add straight to memory (checked on entry of every group). */
static void test_aliased_arguments(struct test_env *env) {
  static const char *src =
      "kernel void own(global uint *h, global const uint *in, global uint *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  atomic_inc(&h[i]);\n"
      "  atomic_add(&h[i], 2u);\n"
      "  o[i] = in[i];\n"
      "}\n";
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "own", std, &ir);
  CHECK(combined(ir));
  free(ir);
  if (!k)
    return;
  enum { M = 4096 };
  uint32_t init[M], got[M], want[M];
  for (int i = 0; i < M; i++)
    init[i] = (uint32_t)i * 3u;
  for (int same = 0; same < 2; same++) {
    cl_mem h = test_buffer_with(env, sizeof init, init), o = test_buffer_with(env, sizeof init, NULL);
    cl_mem in = same ? h : test_buffer_with(env, sizeof init, init);
    CHECK_OK(clSetKernelArg(k, 0, sizeof h, &h));
    CHECK_OK(clSetKernelArg(k, 1, sizeof in, &in));
    CHECK_OK(clSetKernelArg(k, 2, sizeof o, &o));
    size_t n = M, l = 256;
    CHECK_OK(test_run(env, k, 1, NULL, &n, &l));
    test_read_back(env, o, sizeof got, got);
    for (int i = 0; i < M; i++)
      want[i] = init[i] + (same ? 3u : 0u);
    CHECK(test_count_diff((int *)got, (int *)want, M, same ? "own, aliased" : "own") == 0);
    test_read_back(env, h, sizeof got, got);
    for (int i = 0; i < M; i++)
      want[i] = init[i] + 3u;
    CHECK(test_count_diff((int *)got, (int *)want, M, "own counters") == 0);
    clReleaseMemObject(h);
    clReleaseMemObject(o);
    if (!same)
      clReleaseMemObject(in);
  }
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  int *data = malloc(N * sizeof *data);
  test_pattern(data, N, 21);
  cl_mem in = test_buffer_with(&env, N * sizeof *data, data);
  test_histograms(&env, data, in);
  test_add_sub_64(&env, data, in);
  test_left_alone(&env, data, in);
  test_aliased_arguments(&env);
  clReleaseMemObject(in);
  free(data);
  test_env_release(&env);
  return test_finish("test_atomic_combining");
}
