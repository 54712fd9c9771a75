/* Kernels taking structs and unions by value (a `byval` pointer in the IR)
 * whose work-group function has several regions: a grid-stride loop (a
 * divergent loop: regions start at its convergence points) and barriers.
 * Each work-item owns a copy of the argument that it may modify; regions
 * that start past the kernel's entry must see it too
 * (src/compiler/workgroup/byval_copies.c). Before the fix such kernels made
 * invalid IR, which crashed LLVM's O3 in the application's process
 * (PyOpenCL's complex-number elementwise kernels). Results are compared
 * with a host reference. */
#include "harness.h"
#include <stdlib.h>
#include <string.h>

/* PyOpenCL's shape: a union by value, a loop whose trip count differs
 * between work-items */
static const char *complex_src =
    "typedef union { struct { float x, y; } s; float2 v; } cfloat_t;\n"
    "cfloat_t cmul(cfloat_t a, cfloat_t b) {\n"
    "  cfloat_t r; r.s.x = a.s.x * b.s.x - a.s.y * b.s.y;\n"
    "  r.s.y = a.s.x * b.s.y + a.s.y * b.s.x; return r; }\n"
    "cfloat_t cadd(cfloat_t a, cfloat_t b) { cfloat_t r; r.v = a.v + b.v; return r; }\n"
    "kernel void axpb(global cfloat_t *z, cfloat_t a, global const cfloat_t *x,\n"
    "                 cfloat_t b, long n) {\n"
    "  int lid = get_local_id(0), gsize = get_global_size(0);\n"
    "  for (long i = get_local_size(0) * get_group_id(0) + lid; i < n; i += gsize)\n"
    "    z[i] = cadd(cmul(a, x[i]), b);\n"
    "}\n";

/* a struct argument modified by each work-item, live across barriers */
static const char *barrier_src =
    "typedef struct { int base; int step; int pad[6]; } params_t;\n"
    "kernel void scan_like(global int *out, local int *t, params_t p) {\n"
    "  int l = get_local_id(0);\n"
    "  p.base += l;\n"                     /* this work-item's copy */
    "  t[l] = p.base;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  p.step *= 2;\n"
    "  int n = get_local_size(0);\n"
    "  int v = t[(l + 1) % n] + p.step + p.pad[l % 6];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = v + p.base;\n"
    "}\n";

static void test_complex(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, complex_src, "axpb", "-cl-std=CL1.2");
  if (!k)
    return;
  enum { N = 1000 };
  float x[2 * N], z[2 * N], want[2 * N];
  for (int i = 0; i < 2 * N; i++)
    x[i] = (float)((i * 37) % 101) / 8.0f - 6.0f;
  float a[2] = {1.5f, -0.25f}, b[2] = {-2.0f, 3.0f};
  for (int i = 0; i < N; i++) {
    want[2 * i] = a[0] * x[2 * i] - a[1] * x[2 * i + 1] + b[0];
    want[2 * i + 1] = a[0] * x[2 * i + 1] + a[1] * x[2 * i] + b[1];
  }
  cl_mem zb = test_buffer_with(env, sizeof z, NULL), xb = test_buffer_with(env, sizeof x, x);
  cl_long n = N;
  CHECK_OK(clSetKernelArg(k, 0, sizeof zb, &zb));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, a));
  CHECK_OK(clSetKernelArg(k, 2, sizeof xb, &xb));
  CHECK_OK(clSetKernelArg(k, 3, sizeof b, b));
  CHECK_OK(clSetKernelArg(k, 4, sizeof n, &n));
  /* fewer work-items than elements: each runs the loop 3 or 4 times */
  size_t g = 288, l = 32;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, zb, sizeof z, z);
  int bad = 0;
  for (int i = 0; i < 2 * N; i++)
    bad += z[i] != want[i]; /* exactly: one fma-free product and sum each */
  if (bad) {
    /* contraction may fuse the multiply-adds: allow one rounding */
    bad = 0;
    for (int i = 0; i < 2 * N; i++) {
      float d = z[i] - want[i];
      bad += d > 1e-4f || d < -1e-4f;
    }
  }
  CHECK(bad == 0);
  clReleaseMemObject(zb);
  clReleaseMemObject(xb);
  clReleaseKernel(k);
}

static void test_barriers(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, barrier_src, "scan_like", NULL);
  if (!k)
    return;
  enum { G = 256, L = 64 };
  struct {
    cl_int base, step, pad[6];
  } p = {100, 3, {1, 2, 3, 4, 5, 6}};
  cl_mem ob = test_buffer_with(env, G * sizeof(cl_int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(cl_int), NULL));
  CHECK_OK(clSetKernelArg(k, 2, sizeof p, &p));
  size_t g = G, l = L;
  /* twice: the second launch runs the code specialised for the local size */
  for (int rep = 0; rep < 2; rep++) {
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    int out[G], want[G];
    test_read_back(env, ob, sizeof out, out);
    for (int i = 0; i < G; i++) {
      int li = i % L, next = (li + 1) % L;
      want[i] = (p.base + next) + p.step * 2 + p.pad[li % 6] + (p.base + li);
    }
    CHECK(test_count_diff(out, want, G, "struct argument across barriers") == 0);
  }
  /* the argument itself is unchanged for the next launch */
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* loom-fuzz (seeds 102, 55, 82, ...): an unused struct argument in a kernel
 * with a barrier (tests/fuzz/bugs/byval-unused-barrier.cl) */
static void test_unused(struct test_env *env) {
  const char *src =
      "struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };\n"
      "kernel void k(global uint *out, local uint *la, struct P s, uint u0) {\n"
      "  la[get_local_id(0)] = u0 + get_local_id(0);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(0)] = la[(get_local_id(0) + 1) % get_local_size(0)];\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "k", NULL);
  if (!k)
    return;
  enum { G = 64, L = 16 };
  struct {
    cl_ulong e;
    cl_uint a;
    cl_int b;
    cl_ushort c;
    cl_uchar d;
    cl_char f;
    cl_uint g;
  } s = {1, 2, 3, 4, 5, 6, 7};
  cl_uint u0 = 1000;
  cl_mem ob = test_buffer_with(env, G * sizeof(cl_uint), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(cl_uint), NULL));
  CHECK_OK(clSetKernelArg(k, 2, sizeof s, &s));
  CHECK_OK(clSetKernelArg(k, 3, sizeof u0, &u0));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  int out[G], want[G];
  test_read_back(env, ob, sizeof out, out);
  for (int i = 0; i < G; i++)
    want[i] = (int)(u0 + (cl_uint)((i % L + 1) % L));
  CHECK(test_count_diff(out, want, G, "unused struct argument") == 0);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

int main(void) {
  /* the second launch runs the specialised code */
  setenv("LOOMCL_SPECIALIZE", "always", 1);
  struct test_env env;
  test_env_init(&env);
  test_complex(&env);
  test_barriers(&env);
  test_unused(&env);
  test_env_release(&env);
  return test_finish("test_byval_args");
}
