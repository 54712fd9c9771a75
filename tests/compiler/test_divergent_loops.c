/* Loops whose trip count differs between work-items run one unrolled block
 * of iterations per pass over the work-group (src/compiler/workgroup/divergent_loops.c,
 * loop_unroll.c). Results must be those of running each work-item alone:
 * integer loops with branches inside (Collatz), stores and loads in the
 * loop, zero-trip work-items and groups, a uniform counter used after the
 * loop, private arrays, 1-3D groups of odd sizes, non-uniform groups; and
 * loops that must be left alone (in a kernel with barriers, nested, with an
 * early return inside). The Collatz kernel's optimised code must be vectorised. */
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *collatz_src =
    "kernel void collatz(global int *o, global const int *in) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uint n = (uint)in[g] & 0xfff;\n"
    "  int steps = 0;\n"
    "  while (n > 1) {\n"
    "    if (n & 1) n = 3 * n + 1; else n >>= 1;\n"
    "    steps++;\n"
    "  }\n"
    "  o[g] = steps * 16 + (int)n;\n"
    "}\n";

static int collatz_host(int v) {
  unsigned n = (unsigned)v & 0xfff;
  int steps = 0;
  while (n > 1) {
    n = n & 1 ? 3 * n + 1 : n >> 1;
    steps++;
  }
  return steps * 16 + (int)n;
}

static void test_collatz(struct test_env *env) {
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, collatz_src, "collatz", NULL, &ir);
  const char *wg = ir ? strstr(ir, ".loom_wg(") : NULL;
  /* the loop's iterations run in vector lanes */
  CHECK(wg && (strstr(wg, "<16 x i32>") || strstr(wg, "<8 x i32>") || strstr(wg, "<4 x i32>")));
  free(ir);
  if (!k)
    return;
  enum { G = 3000 };
  int in[G], want[G];
  test_pattern(in, G, 5);
  for (int i = 0; i < G; i++)
    in[i] = (in[i] * 7919 + i) & 0xfff; /* includes 0 and 1: zero trips */
  for (int i = 0; i < G; i++)
    want[i] = collatz_host(in[i]);
  static const size_t locals[] = {1, 3, 16, 100, 250, 0};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    size_t L = locals[c], g = L ? G / L * L : G;
    int *got = test_run_io(env, k, in, g, L);
    char what[32];
    snprintf(what, sizeof what, "collatz L=%zu", L);
    CHECK(test_count_diff(got, want, g, what) == 0);
    free(got);
  }
  /* every work-item of every group skips the loop */
  int ones[256], ones_want[256];
  for (int i = 0; i < 256; i++)
    ones[i] = i & 1, ones_want[i] = collatz_host(ones[i]);
  int *got = test_run_io(env, k, ones, 256, 64);
  CHECK(test_count_diff(got, ones_want, 256, "collatz zero trips") == 0);
  free(got);
  clReleaseKernel(k);
}

/* stores and loads inside the loop, a counter read after it, a private
 * array, and barriers on both sides of the loop (a kernel with barriers keeps
 * its loop: it must still compute the same) */
static const char *walk_src =
    "kernel void walk(global int *o, global const int *next, global int *trace,\n"
    "                 local int *t) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = next[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int at = t[(l + 1) % n], hops = 0, sum = 0;\n"
    "  int hist[4] = {0, 0, 0, 0};\n"
    "  while (at >= 0 && hops < 40) {\n"
    "    trace[g * 40 + hops] = at;\n"
    "    sum += at * (hops + 1);\n"
    "    hist[at & 3] += 1;\n"
    "    at = next[at];\n"
    "    hops++;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  t[l] = sum;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[g] = t[n - 1 - l] + hops * 100000 + hist[0] + 7 * hist[1] + 49 * hist[2] + 343 * hist[3];\n"
    "}\n";

static void host_walk(const int *next, int *want, int *trace, size_t g, size_t L) {
  int *sums = malloc(L * sizeof *sums), *hops = malloc(L * sizeof *hops);
  int(*hist)[4] = malloc(L * sizeof *hist);
  for (size_t base = 0; base < g; base += L) {
    for (size_t l = 0; l < L; l++) {
      int at = next[base + (l + 1) % L], h = 0, sum = 0;
      memset(hist[l], 0, sizeof hist[l]);
      while (at >= 0 && h < 40) {
        trace[(base + l) * 40 + (size_t)h] = at;
        sum += at * (h + 1);
        hist[l][at & 3]++;
        at = next[at];
        h++;
      }
      sums[l] = sum;
      hops[l] = h;
    }
    for (size_t l = 0; l < L; l++)
      want[base + l] = sums[L - 1 - l] + hops[l] * 100000 + hist[l][0] + 7 * hist[l][1] +
                       49 * hist[l][2] + 343 * hist[l][3];
  }
  free(sums);
  free(hops);
  free(hist);
}

static void test_walk(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, walk_src, "walk", NULL);
  if (!k)
    return;
  enum { G = 1024 };
  static int next[G], want[G], got[G], trace[G * 40], want_trace[G * 40];
  uint64_t s = 99;
  for (int i = 0; i < G; i++) /* chains of varying length ending in -1 */
    next[i] = test_xorshift64(&s) % 5 == 0 ? -1 : (int)(test_xorshift64(&s) % G);
  cl_mem o = test_buffer_with(env, sizeof got, NULL), nx = test_buffer_with(env, sizeof next, next);
  cl_mem tr = test_buffer_with(env, sizeof trace, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof o, &o));
  CHECK_OK(clSetKernelArg(k, 1, sizeof nx, &nx));
  CHECK_OK(clSetKernelArg(k, 2, sizeof tr, &tr));
  static const size_t locals[] = {1, 32, 64, 256};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    size_t L = locals[c], g = G;
    memset(trace, 0, sizeof trace);
    memset(want_trace, 0, sizeof want_trace);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, tr, CL_TRUE, 0, sizeof trace, trace, 0, NULL, NULL));
    CHECK_OK(clSetKernelArg(k, 3, L * sizeof(int), NULL));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &L));
    test_read_back(env, o, sizeof got, got);
    test_read_back(env, tr, sizeof trace, trace);
    host_walk(next, want, want_trace, G, L);
    char what[32];
    snprintf(what, sizeof what, "walk L=%zu", L);
    CHECK(test_count_diff(got, want, G, what) == 0);
    CHECK(test_count_diff(trace, want_trace, G * 40, "walk trace") == 0);
  }
  clReleaseMemObject(o);
  clReleaseMemObject(nx);
  clReleaseMemObject(tr);
  clReleaseKernel(k);
}

/* a float escape loop in 2D and 3D groups, and in non-uniform groups */
static const char *escape_src =
    "kernel void esc(global int *o, int w, int lim) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  int i = 0;\n"
    "  uint v = x * 37 + y * 11 + z * 5;\n"
    "  while (i < lim && (v % 13) != 0) {\n"
    "    v = v * 3 + 1 - (v >> 4);\n"
    "    i++;\n"
    "  }\n"
    "  o[(z * get_global_size(1) + y) * w + x] = i * 1000 + (int)(v & 511);\n"
    "}\n";

static int escape_host(int x, int y, int z, int lim) {
  int i = 0;
  unsigned v = (unsigned)(x * 37 + y * 11 + z * 5);
  while (i < lim && (v % 13) != 0) {
    v = v * 3 + 1 - (v >> 4);
    i++;
  }
  return i * 1000 + (int)(v & 511);
}

static void test_escape_shapes(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, escape_src, "esc", "-cl-std=CL3.0");
  if (!k)
    return;
  enum { W = 40, H = 12, D = 3 };
  static int got[W * H * D];
  cl_mem o = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof o, &o));
  int w = W, lim = 30;
  CHECK_OK(clSetKernelArg(k, 1, sizeof w, &w));
  CHECK_OK(clSetKernelArg(k, 2, sizeof lim, &lim));
  /* the last: no local size (LoomCL picks the shape) */
  static const size_t locals[][3] = {{8, 4, 1}, {16, 3, 3}, {7, 5, 2}, {1, 1, 1}, {0, 0, 0}};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    size_t gs[3] = {W, H, D};
    memset(got, 0, sizeof got);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK_OK(test_run(env, k, 3, NULL, gs, locals[c][0] ? locals[c] : NULL));
    test_read_back(env, o, sizeof got, got);
    int bad = 0;
    for (int z = 0; z < D; z++)
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          bad += got[(z * H + y) * W + x] != escape_host(x, y, z, lim);
    if (bad)
      fprintf(stderr, "  esc local %zux%zux%zu: %d wrong\n", locals[c][0], locals[c][1],
              locals[c][2], bad);
    CHECK(bad == 0);
  }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

/* work-items that skip the loop: an early return for padding work-items,
 * and a loop inside a branch (masked regions) */
static const char *skip_src =
    "kernel void padded(global int *o, global const int *in, int n) {\n"
    "  int g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  uint v = in[g] & 0x3ff;\n"
    "  int steps = 0;\n"
    "  while (v > 1) { v = v & 1 ? 3 * v + 1 : v >> 1; steps++; }\n"
    "  o[g] = steps;\n"
    "}\n"
    "kernel void branch(global int *o, global const int *in) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int v = in[g] & 0xffff, s = 0;\n"
    "  if (v & 1) {\n"
    "    while (v > 3) { s += v; v = v * 3 / 4; }\n"
    "  }\n"
    "  o[g] = s * 2 + v;\n"
    "}\n";

static void test_skipping(struct test_env *env) {
  char *ir;
  cl_kernel kp = test_kernel_with_ir(env, skip_src, "padded", NULL, &ir);
  const char *wg = ir ? strstr(ir, "padded.loom_wg(") : NULL;
  CHECK(wg && (strstr(wg, "<16 x i32>") || strstr(wg, "<8 x i32>") || strstr(wg, "<4 x i32>")));
  free(ir);
  cl_kernel kb = test_kernel_from(env, skip_src, "branch", NULL);
  if (!kp || !kb)
    return;
  enum { G = 1024 };
  int in[G], want[G];
  test_pattern(in, G, 13);
  for (int i = 0; i < G; i++)
    in[i] = (in[i] * 613 + i * 7) & 0xffff;
  static const int ns[] = {0, 1, 5, 100, 1000, 1024};
  for (size_t c = 0; c < sizeof ns / sizeof *ns; c++) {
    int n = ns[c];
    for (int i = 0; i < G; i++)
      want[i] = i < n ? collatz_host(in[i] & 0x3ff) / 16 : 0;
    CHECK_OK(clSetKernelArg(kp, 2, sizeof n, &n));
    int *got = test_run_io(env, kp, in, G, 64);
    char what[32];
    snprintf(what, sizeof what, "padded n=%d", n);
    CHECK(test_count_diff(got, want, (size_t)n, what) == 0);
    free(got);
  }
  for (int i = 0; i < G; i++) {
    int v = in[i] & 0xffff, s = 0;
    if (v & 1)
      for (; v > 3; v = v * 3 / 4)
        s += v;
    want[i] = s * 2 + v;
  }
  static const size_t locals[] = {1, 16, 128};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    int *got = test_run_io(env, kb, in, G, locals[c]);
    CHECK(test_count_diff(got, want, G, "loop in a branch") == 0);
    free(got);
  }
  clReleaseKernel(kp);
  clReleaseKernel(kb);
}

/* loops the transformation must leave alone still compute the same */
static const char *left_alone_src =
    "kernel void nested(global int *o, global const int *in) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int acc = 0;\n"
    "  for (int r = 0; r < 3; r++) {\n"
    "    int n = in[g] & 63;\n"
    "    while (n > r) { acc += n; n -= 2 + r; }\n"
    "  }\n"
    "  o[g] = acc;\n"
    "}\n"
    "kernel void early(global int *o, global const int *in) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int n = in[g] & 255, s = 0;\n"
    "  while (n > 0) {\n"
    "    if (n == 77) { o[g] = -1; return; }\n"
    "    s += n; n -= 3;\n"
    "  }\n"
    "  o[g] = s;\n"
    "}\n";

static void test_left_alone(struct test_env *env) {
  cl_kernel kn = test_kernel_from(env, left_alone_src, "nested", NULL);
  cl_kernel ke = test_kernel_from(env, left_alone_src, "early", NULL);
  if (!kn || !ke)
    return;
  enum { G = 512 };
  int in[G], want[G];
  test_pattern(in, G, 9);
  for (int i = 0; i < G; i++)
    in[i] = (in[i] * 31 + i) & 0xffff;
  for (int i = 0; i < G; i++) {
    int acc = 0;
    for (int r = 0; r < 3; r++)
      for (int n = in[i] & 63; n > r; n -= 2 + r)
        acc += n;
    want[i] = acc;
  }
  int *got = test_run_io(env, kn, in, G, 64);
  CHECK(test_count_diff(got, want, G, "nested") == 0);
  free(got);
  for (int i = 0; i < G; i++) {
    int n = in[i] & 255, s = 0;
    want[i] = 0;
    for (; n > 0 && n != 77; n -= 3)
      s += n;
    want[i] = n == 77 ? -1 : s;
  }
  got = test_run_io(env, ke, in, G, 64);
  CHECK(test_count_diff(got, want, G, "early return") == 0);
  free(got);
  clReleaseKernel(kn);
  clReleaseKernel(ke);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_collatz(&env);
  test_walk(&env);
  test_escape_shapes(&env);
  test_skipping(&env);
  test_left_alone(&env);
  test_env_release(&env);
  return test_finish("test_divergent_loops");
}
