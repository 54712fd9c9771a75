/* Barrier placements the work-group compiler must handle (in loops, in
 * uniform branches, in helper functions, many in sequence), values live
 * across barriers, and __local memory declared in kernels and passed as
 * arguments. Every result is compared with a host reference. */
#include "harness.h"
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>


/* ---------- barriers ---------- */

/* fills an int array with a deterministic pattern */
static void test_barrier_reverse(struct test_env *env) {
  static const char *src = "kernel void rev(global int *o, global const int *in, local int *t) {\n"
                           "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                           "  t[l] = in[get_global_id(0)];\n"
                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  o[get_global_id(0)] = t[n - 1 - l];\n"
                           "}\n";
  cl_kernel k = test_kernel_from(env, src, "rev", NULL);
  cl_kernel k20 = test_kernel_from(env, src, "rev", "-cl-std=CL3.0");
  if (!k || !k20)
    return;
  enum { G = 1024 };
  int in[G], want[G];
  test_pattern(in, G, 1);
  static const size_t locals[] = {1, 2, 16, 64, 128, 256, 1024};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0]; c++) {
    size_t L = locals[c];
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    int *got = test_run_io(env, k, in, G, L);
    for (size_t i = 0; i < G; i++)
      want[i] = in[(i / L) * L + L - 1 - i % L];
    CHECK(test_count_diff(got, want, G, "rev") == 0);
    free(got);
  }
  /* in partial (non-uniform) groups the reversal uses the group's real size */
  size_t g = 1000, L = 64;
  CHECK_OK(clSetKernelArg(k20, 2, L * sizeof(int), NULL));
  int *got = test_run_io(env, k20, in, g, L);
  for (size_t i = 0; i < g; i++) {
    size_t base = (i / L) * L, n = g - base < L ? g - base : L;
    want[i] = in[base + n - 1 - (i - base)];
  }
  CHECK(test_count_diff(got, want, g, "rev_nonuniform") == 0);
  free(got);
  clReleaseKernel(k);
  clReleaseKernel(k20);
}

static void test_barrier_reduction(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void reduce(global int *o, global const int *in,\n"
                            "                   local int *t) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  t[l] = in[get_global_id(0)];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
                            "    if (l < s)\n"
                            "      t[l] += t[l + s];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  }\n"
                            "  o[get_global_id(0)] = t[0] + (int)l;\n"
                            "}\n",
                            "reduce", NULL);
  if (!k)
    return;
  enum { G = 4096 };
  static int in[G], want[G];
  test_pattern(in, G, 2);
  static const size_t locals[] = {1, 8, 256, 4096};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0]; c++) {
    size_t L = locals[c];
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    int *got = test_run_io(env, k, in, G, L);
    for (size_t base = 0; base < G; base += L) {
      int sum = 0;
      for (size_t i = 0; i < L; i++)
        sum += in[base + i];
      for (size_t i = 0; i < L; i++)
        want[base + i] = sum + (int)i;
    }
    CHECK(test_count_diff(got, want, G, "reduce") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

static void test_barrier_uniform_branch(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void branchy(global int *o, global const int *in,\n"
                            "                    local int *t, int flag) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = in[get_global_id(0)];\n"
                            "  if (flag) {\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[(l + 1) % n] * 2;\n"
                            "  } else {\n"
                            "    v = -v;\n"
                            "  }\n"
                            "  if (flag > 1) {\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v += t[n - 1 - l];\n"
                            "  }\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "branchy", NULL);
  if (!k)
    return;
  enum { G = 256, L = 32 };
  int in[G], want[G], first[G];
  test_pattern(in, G, 3);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  for (int flag = 0; flag <= 2; flag++) {
    CHECK_OK(clSetKernelArg(k, 3, sizeof flag, &flag));
    int *got = test_run_io(env, k, in, G, L);
    for (int i = 0; i < G; i++) {
      int base = i / L * L, l = i % L;
      first[i] = flag ? in[base + (l + 1) % L] * 2 : -in[i];
    }
    for (int i = 0; i < G; i++) {
      int base = i / L * L, l = i % L;
      want[i] = first[i] + (flag > 1 ? first[base + L - 1 - l] : 0);
    }
    CHECK(test_count_diff(got, want, G, "branchy") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

static void test_barrier_sequence(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void seq(global int *o, global const int *in, local int *a) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  a[l] = in[get_global_id(0)];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  int left = a[(l + n - 1) % n];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  a[l] = left * 2;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
                            "  o[get_global_id(0)] = a[(l + 1) % n] + left;\n"
                            "}\n",
                            "seq", NULL);
  if (!k)
    return;
  enum { G = 512, L = 64 };
  int in[G], want[G];
  test_pattern(in, G, 4);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = test_run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L;
    want[i] = 2 * in[i] + in[base + (l + L - 1) % L];
  }
  CHECK(test_count_diff(got, want, G, "seq") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_barrier_nested_loop(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void nested(global int *o, global const int *in,\n"
                            "                   local int *a, int outer, int inner) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int acc = in[get_global_id(0)];\n"
                            "  for (int i = 0; i < outer; i++) {\n"
                            "    for (int j = 0; j < inner; j++) {\n"
                            "      a[l] = acc + i * 10 + j;\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "      acc = a[(l + 1) % n];\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    }\n"
                            "    acc ^= i;\n"
                            "  }\n"
                            "  o[get_global_id(0)] = acc;\n"
                            "}\n",
                            "nested", NULL);
  if (!k)
    return;
  enum { G = 256, L = 16 };
  int in[G], want[G];
  test_pattern(in, G, 5);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  static const int shapes[][2] = {{3, 4}, {0, 5}, {2, 0}, {1, 1}, {5, 3}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int outer = shapes[s][0], inner = shapes[s][1];
    CHECK_OK(clSetKernelArg(k, 3, sizeof outer, &outer));
    CHECK_OK(clSetKernelArg(k, 4, sizeof inner, &inner));
    int *got = test_run_io(env, k, in, G, L);
    for (int base = 0; base < G; base += L) {
      int acc[L], a[L];
      for (int l = 0; l < L; l++)
        acc[l] = in[base + l];
      for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner; j++) {
          for (int l = 0; l < L; l++)
            a[l] = acc[l] + i * 10 + j;
          for (int l = 0; l < L; l++)
            acc[l] = a[(l + 1) % L];
        }
        for (int l = 0; l < L; l++)
          acc[l] ^= i;
      }
      for (int l = 0; l < L; l++)
        want[base + l] = acc[l];
    }
    CHECK(test_count_diff(got, want, G, "nested") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

/* values computed before a barrier and used after it */
static void test_barrier_live_values(struct test_env *env) {
  cl_kernel k =
      test_kernel_from(env,
                  "typedef struct { int a; float b; } pair_t;\n"
                  "kernel void live(global int *o, global const int *in, local int *t) {\n"
                  "  size_t g = get_global_id(0), l = get_local_id(0);\n"
                  "  size_t n = get_local_size(0);\n"
                  "  int s1 = in[g] * 3;\n"
                  "  float s2 = (float)in[g] * 0.5f;\n"
                  "  long s3 = (long)in[g] << 33;\n"
                  "  int arr[8];\n"
                  "  for (int k = 0; k < 8; k++) arr[k] = in[g] + k * k;\n"
                  "  pair_t p = { in[g] - 1, 0.25f * (float)l };\n"
                  "  t[l] = s1;\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  int idx = in[g] & 7;\n"
                  "  arr[(idx + 1) & 7] += t[(l + 3) % n];\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  o[g] = t[(l + 3) % n] + s1 + (int)(s2 * 2.0f) + arr[idx]\n"
                  "       + arr[(idx + 1) & 7] + (int)(s3 >> 33) + p.a\n"
                  "       + (int)(p.b * 4.0f);\n"
                  "}\n",
                  "live", NULL);
  if (!k)
    return;
  enum { G = 384, L = 96 };
  int in[G], want[G];
  test_pattern(in, G, 6);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = test_run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L, v = in[i];
    int idx = v & 7, other = in[base + (l + 3) % L] * 3;
    int arr[8];
    for (int q = 0; q < 8; q++)
      arr[q] = v + q * q;
    arr[(idx + 1) & 7] += other;
    want[i] = other + v * 3 + v + arr[idx] + arr[(idx + 1) & 7] + v + (v - 1) + l;
  }
  CHECK(test_count_diff(got, want, G, "live") == 0);
  free(got);
  clReleaseKernel(k);
}

/* __local arrays in the kernel and __local arguments at once */
static void test_local_mixed(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
                            "void mixed(global int *o, global const int *in, local int *la,\n"
                            "           local float *lb) {\n"
                            "  local int sa[64];\n"
                            "  local float sb[32];\n"
                            "  local char sc[3];\n"
                            "  int l = (int)get_local_id(0), v = in[get_global_id(0)];\n"
                            "  la[l] = v + 1000;\n"
                            "  lb[l] = (float)l * 0.5f;\n"
                            "  sa[l] = v * 7;\n"
                            "  if (l < 32) sb[l] = (float)-l;\n"
                            "  if (l < 3) sc[l] = (char)(l + 1);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  int r = 63 - l;\n"
                            "  o[get_global_id(0)] = la[r] + (int)(lb[r] * 2.0f) + sa[r]\n"
                            "      + (int)sb[r % 32] + sc[l % 3];\n"
                            "}\n",
                            "mixed", NULL);
  if (!k)
    return;
  enum { G = 1024, L = 64 };
  int in[G], want[G];
  test_pattern(in, G, 7);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  CHECK_OK(clSetKernelArg(k, 3, L * sizeof(float), NULL));
  cl_ulong local = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                    NULL));
  CHECK(local >= 64 * 4 + 32 * 4 + 3 + L * 4 + L * 4);
  int *got = test_run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L, r = 63 - l;
    want[i] = in[base + r] + 1000 + r + in[base + r] * 7 - (r % 32) + (l % 3 + 1);
  }
  CHECK(test_count_diff(got, want, G, "mixed") == 0);
  free(got);
  /* the runtime picks the required size when none is given */
  got = test_run_io(env, k, in, G, 0);
  CHECK(test_count_diff(got, want, G, "mixed_null_local") == 0);
  free(got);
  clReleaseKernel(k);
}

/* a 2D tile transpose through __local memory: barriers with 2D local ids */
static void test_barrier_2d(struct test_env *env) {
  cl_kernel k =
      test_kernel_from(env,
                  "kernel void transpose(global int *o, global const int *in) {\n"
                  "  local int tile[8][9];\n"
                  "  size_t lx = get_local_id(0), ly = get_local_id(1);\n"
                  "  size_t w = get_global_size(0), h = get_global_size(1);\n"
                  "  tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  size_t ox = get_group_id(1) * 8 + lx, oy = get_group_id(0) * 8 + ly;\n"
                  "  o[oy * h + ox] = tile[lx][ly];\n"
                  "}\n",
                  "transpose", NULL);
  if (!k)
    return;
  enum { WD = 64, HT = 32 };
  static int in[WD * HT], want[WD * HT], got[WD * HT];
  test_pattern(in, WD * HT, 8);
  cl_mem out = test_buffer_with(env, sizeof got, NULL), inb = test_buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  size_t g[2] = {WD, HT}, l[2] = {8, 8};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, out, sizeof got, got);
  for (int y = 0; y < HT; y++)
    for (int x = 0; x < WD; x++)
      want[x * HT + y] = in[y * WD + x];
  CHECK(test_count_diff(got, want, WD * HT, "transpose") == 0);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

/* do/while, while(1) with break and switch, each holding barriers */
static void test_barrier_loop_shapes(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void shapes(global int *o, global const int *in,\n"
                            "                   local int *t, int n_iter, int sel) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = in[get_global_id(0)];\n"
                            "  int k = 0;\n"
                            "  do {\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[(l + 1) % n] + k;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    k++;\n"
                            "  } while (k < n_iter);\n"
                            "  while (1) {\n"
                            "    if (k >= 2 * n_iter)\n"
                            "      break;\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v += t[n - 1 - l];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    k++;\n"
                            "  }\n"
                            "  switch (sel) {\n"
                            "  case 0:\n"
                            "    v = -v;\n"
                            "    break;\n"
                            "  case 1:\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[0] + (int)l;\n"
                            "    break;\n"
                            "  default:\n"
                            "    for (int q = 0; q < 2; q++) {\n"
                            "      t[l] = v + q;\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "      v = t[(l + 2) % n];\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    }\n"
                            "  }\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "shapes", NULL);
  if (!k)
    return;
  enum { G = 192, L = 48 };
  int in[G], want[G];
  test_pattern(in, G, 14);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  for (int n_iter = 1; n_iter <= 3; n_iter++)
    for (int sel = 0; sel <= 2; sel++) {
      CHECK_OK(clSetKernelArg(k, 3, sizeof n_iter, &n_iter));
      CHECK_OK(clSetKernelArg(k, 4, sizeof sel, &sel));
      int *got = test_run_io(env, k, in, G, L);
      for (int base = 0; base < G; base += L) {
        int v[L], t[L], kk = 0;
        for (int l = 0; l < L; l++)
          v[l] = in[base + l];
        do {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] = t[(l + 1) % L] + kk;
          kk++;
        } while (kk < n_iter);
        while (kk < 2 * n_iter) {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] += t[L - 1 - l];
          kk++;
        }
        if (sel == 0) {
          for (int l = 0; l < L; l++)
            v[l] = -v[l];
        } else if (sel == 1) {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] = t[0] + l;
        } else {
          for (int q = 0; q < 2; q++) {
            for (int l = 0; l < L; l++)
              t[l] = v[l] + q;
            for (int l = 0; l < L; l++)
              v[l] = t[(l + 2) % L];
          }
        }
        for (int l = 0; l < L; l++)
          want[base + l] = v[l];
      }
      CHECK(test_count_diff(got, want, G, "shapes") == 0);
      free(got);
    }
  clReleaseKernel(k);
}

/* a uniform early return ahead of a barrier */
static void test_barrier_early_return(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void early(global int *o, global const int *in,\n"
                            "                  local int *t, int stop) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  if (stop)\n"
                            "    return;\n"
                            "  t[l] = in[get_global_id(0)] * 2;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  if (stop == 0 && get_local_size(0) > 1000)\n"
                            "    return;\n"
                            "  o[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n"
                            "}\n",
                            "early", NULL);
  if (!k)
    return;
  enum { G = 128, L = 32 };
  int in[G], want[G], init[G];
  test_pattern(in, G, 15);
  for (int i = 0; i < G; i++)
    init[i] = -7;
  cl_mem out = test_buffer_with(env, sizeof init, init), inb = test_buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  size_t g = G, l = L;
  for (int stop = 1; stop >= 0; stop--) {
    CHECK_OK(clSetKernelArg(k, 3, sizeof stop, &stop));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    int got[G];
    test_read_back(env, out, sizeof got, got);
    for (int i = 0; i < G; i++)
      want[i] = stop ? -7 : in[i / L * L + L - 1 - i % L] * 2;
    CHECK(test_count_diff(got, want, G, "early") == 0);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

/* a barrier in a 3D work-group */
static void test_barrier_3d(struct test_env *env) {
  cl_kernel k =
      test_kernel_from(env,
                  "kernel void cube(global int *o, local int *t) {\n"
                  "  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);\n"
                  "  size_t nx = get_local_size(0), ny = get_local_size(1);\n"
                  "  size_t nz = get_local_size(2);\n"
                  "  t[(z * ny + y) * nx + x] = (int)(get_global_id(0)\n"
                  "      + 100 * get_global_id(1) + 10000 * get_global_id(2));\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  size_t rx = nx - 1 - x, ry = ny - 1 - y, rz = nz - 1 - z;\n"
                  "  o[(get_global_id(2) * get_global_size(1) + get_global_id(1))\n"
                  "    * get_global_size(0) + get_global_id(0)] =\n"
                  "      t[(rz * ny + ry) * nx + rx];\n"
                  "}\n",
                  "cube", NULL);
  if (!k)
    return;
  size_t g[3] = {8, 6, 4}, l[3] = {4, 3, 2};
  enum { N = 8 * 6 * 4 };
  int got[N], want[N];
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, 4 * 3 * 2 * sizeof(int), NULL));
  CHECK_OK(test_run(env, k, 3, NULL, g, l));
  test_read_back(env, out, sizeof got, got);
  for (size_t z = 0; z < 4; z++)
    for (size_t y = 0; y < 6; y++)
      for (size_t x = 0; x < 8; x++) {
        size_t bx = x / 4 * 4, by = y / 3 * 3, bz = z / 2 * 2;
        size_t sx = bx + 3 - x % 4, sy = by + 2 - y % 3, sz = bz + 1 - z % 2;
        want[(z * 6 + y) * 8 + x] = (int)(sx + 100 * sy + 10000 * sz);
      }
  CHECK(test_count_diff(got, want, N, "cube") == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* vectors, doubles and a private variable whose address is taken, all live
 * across a barrier */
static void test_barrier_live_types(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "void bump(int *p, int by) { *p += by; }\n"
                            "kernel void vlive(global int *o, global const int *in,\n"
                            "                  local float *t) {\n"
                            "  size_t g = get_global_id(0), l = get_local_id(0);\n"
                            "  float f = (float)in[g];\n"
                            "  float4 v = (float4)(f, f * 2.0f, -f, 1.0f);\n"
                            "  double d = (double)in[g] * 0.125;\n"
                            "  int acc = 0;\n"
                            "  int *pa = &acc;\n"
                            "  bump(pa, (int)g);\n"
                            "  t[l] = v.x;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  bump(pa, 1);\n"
                            "  o[g] = (int)(v.x + v.y + v.z + v.w + (float)(d * 8.0)\n"
                            "       + t[(l + 1) % get_local_size(0)]) + acc;\n"
                            "}\n",
                            "vlive", NULL);
  if (!k)
    return;
  enum { G = 256, L = 64 };
  int in[G], want[G];
  test_pattern(in, G, 16);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(float), NULL));
  int *got = test_run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++)
    want[i] = 3 * in[i] + 1 + in[i / L * L + (i % L + 1) % L] + i + 1;
  CHECK(test_count_diff(got, want, G, "vlive") == 0);
  free(got);
  clReleaseKernel(k);
}

/* __local arguments of odd sizes followed by wider types stay aligned, and
 * vector accesses to them work */
static void test_local_alignment(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "kernel void align_local(global ulong *o, local char *c,\n"
                            "                        local double *d, local float4 *f) {\n"
                            "  local char sc;\n"
                            "  local double sd[2];\n"
                            "  local float4 sf[4];\n"
                            "  size_t l = get_local_id(0);\n"
                            "  if (l < 3) c[l] = (char)(l + 1);\n"
                            "  if (l == 0) { sc = 5; sd[1] = 2.5; }\n"
                            "  d[l] = (double)l * 0.5;\n"
                            "  f[l] = (float4)((float)l, 1.0f, 2.0f, 3.0f);\n"
                            "  sf[l % 4] = (float4)(4.0f);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  size_t r = get_local_size(0) - 1 - l;\n"
                            "  float4 s = f[r] + sf[l % 4];\n"
                            "  o[get_global_id(0) * 4] = (ulong)(s.x + s.y + s.z + s.w)\n"
                            "      + (ulong)(d[r] * 2.0) + (ulong)c[l % 3] + (ulong)sc\n"
                            "      + (ulong)sd[1];\n"
                            "  o[get_global_id(0) * 4 + 1] = (ulong)d % 8;\n"
                            "  o[get_global_id(0) * 4 + 2] = (ulong)f % 16;\n"
                            "  o[get_global_id(0) * 4 + 3] = (ulong)sd % 8 + (ulong)sf % 16;\n"
                            "}\n",
                            "align_local", NULL);
  if (!k)
    return;
  enum { G = 64, L = 16 };
  cl_ulong got[G * 4];
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, 3, NULL));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(double), NULL));
  CHECK_OK(clSetKernelArg(k, 3, L * 4 * sizeof(float), NULL));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int li = i % L, r = L - 1 - li;
    cl_ulong want = (cl_ulong)(r + 6 + 16) + (cl_ulong)r + (cl_ulong)(li % 3 + 1) + 5 + 2;
    bad += got[i * 4] != want;
    bad += got[i * 4 + 1] != 0 || got[i * 4 + 2] != 0 || got[i * 4 + 3] != 0;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* a kernel with many arguments of mixed sizes */
static void test_many_args(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void many(global long *o, char a, int b, short c, long d,\n"
                            "                 float e, uchar f, int g, double h, ushort i,\n"
                            "                 int2 j, char k, long l, float4 m, int n,\n"
                            "                 global const int *p, uint q, char r, long s) {\n"
                            "  o[0] = a + b + c + d + (long)e + f + g + (long)h + i + j.x\n"
                            "       + j.y + k + l + (long)(m.x + m.y + m.z + m.w) + n + p[1]\n"
                            "       + q + r;\n"
                            "  o[1] = s;\n"
                            "}\n",
                            "many", NULL);
  if (!k)
    return;
  cl_long got[2] = {0, 0};
  int pdata[2] = {0, 1000000};
  cl_mem out = test_buffer_with(env, sizeof got, NULL), pb = test_buffer_with(env, sizeof pdata, pdata);
  cl_char a = 1, kk = -2, r = 3;
  cl_int b = 20, g = 300, n = 4000;
  cl_short c = -5;
  cl_long d = 1LL << 40, l = -(1LL << 36), s = 0x7123456789abcdefLL;
  cl_float e = 6.0f;
  cl_uchar f = 255;
  cl_double h = 70.0;
  cl_ushort i = 65535;
  cl_int2 j = {{11, 12}};
  cl_float4 m = {{0.5f, 0.5f, 1.0f, 2.0f}};
  cl_uint q = 100000;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, &a));
  CHECK_OK(clSetKernelArg(k, 2, sizeof b, &b));
  CHECK_OK(clSetKernelArg(k, 3, sizeof c, &c));
  CHECK_OK(clSetKernelArg(k, 4, sizeof d, &d));
  CHECK_OK(clSetKernelArg(k, 5, sizeof e, &e));
  CHECK_OK(clSetKernelArg(k, 6, sizeof f, &f));
  CHECK_OK(clSetKernelArg(k, 7, sizeof g, &g));
  CHECK_OK(clSetKernelArg(k, 8, sizeof h, &h));
  CHECK_OK(clSetKernelArg(k, 9, sizeof i, &i));
  CHECK_OK(clSetKernelArg(k, 10, sizeof j, &j));
  CHECK_OK(clSetKernelArg(k, 11, sizeof kk, &kk));
  CHECK_OK(clSetKernelArg(k, 12, sizeof l, &l));
  CHECK_OK(clSetKernelArg(k, 13, sizeof m, &m));
  CHECK_OK(clSetKernelArg(k, 14, sizeof n, &n));
  CHECK_OK(clSetKernelArg(k, 15, sizeof pb, &pb));
  CHECK_OK(clSetKernelArg(k, 16, sizeof q, &q));
  CHECK_OK(clSetKernelArg(k, 17, sizeof r, &r));
  CHECK_OK(clSetKernelArg(k, 18, sizeof s, &s));
  size_t one = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &one, NULL));
  test_read_back(env, out, sizeof got, got);
  cl_long want = 1 + 20 - 5 + (1LL << 40) + 6 + 255 + 300 + 70 + 65535 + 11 + 12 - 2 - (1LL << 36) +
                 4 + 4000 + 1000000 + 100000 + 3;
  CHECK(got[0] == want);
  CHECK(got[1] == s);
  clReleaseMemObject(out);
  clReleaseMemObject(pb);
  clReleaseKernel(k);
}

/* a loop whose (uniform) condition is read from __local memory */
static void test_barrier_data_loop(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void countdown(global int *o, local int *t, int start) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  local int left;\n"
                            "  if (l == 0) left = start + (int)get_group_id(0);\n"
                            "  t[l] = 0;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  while (left > 0) {\n"
                            "    t[l] += (int)l + left;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    if (l == 0) left--;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  }\n"
                            "  o[get_global_id(0)] = t[l];\n"
                            "}\n",
                            "countdown", NULL);
  if (!k)
    return;
  enum { G = 128, L = 16 };
  int got[G];
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  int start = 3;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(int), NULL));
  CHECK_OK(clSetKernelArg(k, 2, sizeof start, &start));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int n = start + i / L, want = 0;
    for (int left = n; left > 0; left--)
      want += i % L + left;
    bad += got[i] != want;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* straight-line code with many barriers */
static void test_many_barriers(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "#define STEP(i) t[l] = v + i; barrier(CLK_LOCAL_MEM_FENCE); \\\n"
                            "  v = t[(l + 1) % n]; barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "#define FOUR(i) STEP(i) STEP(i + 1) STEP(i + 2) STEP(i + 3)\n"
                            "kernel void chain(global int *o, local int *t) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = (int)get_global_id(0);\n"
                            "  FOUR(0) FOUR(4) FOUR(8) FOUR(12)\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "chain", NULL);
  if (!k)
    return;
  enum { G = 96, L = 24 };
  int got[G];
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(int), NULL));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    /* after 16 steps each item holds the value of the item 16 places on
     * (modulo the group) plus 0 + 1 + ... + 15 */
    int base = i / L * L;
    bad += got[i] != base + (i % L + 16) % L + 120;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}


int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_barrier_reverse(&env);
  test_barrier_reduction(&env);
  test_barrier_uniform_branch(&env);
  test_barrier_sequence(&env);
  test_barrier_nested_loop(&env);
  test_barrier_live_values(&env);
  test_local_mixed(&env);
  test_barrier_2d(&env);
  test_barrier_loop_shapes(&env);
  test_barrier_early_return(&env);
  test_barrier_3d(&env);
  test_barrier_live_types(&env);
  test_local_alignment(&env);
  test_many_args(&env);
  test_barrier_data_loop(&env);
  test_many_barriers(&env);
  test_env_release(&env);
  return test_finish("test_barriers");
}
