/* Regions whose side effects all lie behind a bound on the local id
 * (`if (l < s)`, `l <= k`, `l == k`, mirrored and negated forms, signed and
 * unsigned, truncated ids) run only the work-items the bound admits
 * (src/compiler/workgroup/wi_range.c). The results must not change: every guard form,
 * bounds beyond the group and negative ones, groups of odd sizes, 2D groups,
 * and regions that must not be narrowed (an unguarded private update, a bound
 * read from memory). Every result is compared with a host reference. */
#include "harness.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *guards_src =
    "kernel void guards(global int *o, global const int *in, local int *t, int k) {\n"
    "  int l = get_local_id(0);\n"
    "  size_t ul = get_local_id(0), n = get_local_size(0);\n"
    "  int acc = l;\n"
    "  t[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if ((size_t)k >= ul) t[ul] += 1000;\n"      /* unsigned x <= k, mirrored */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == k) t[l] *= 3;\n"                   /* x == k */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l > k) { } else { t[l] -= 7; }\n"       /* signed, the false edge */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < k - 2) t[l] ^= 0x55;\n"             /* negative bounds admit none */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < k) t[l] += 1; acc += in[get_global_id(0)] & 3;\n" /* unguarded */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < in[0] + k) t[l] += 11;\n"           /* a bound from memory */
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s >>= 1) {\n" /* the classic tree */
    "    if (ul < s) t[ul] += t[ul + s] & 0xff;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  o[get_global_id(0)] = t[l] * 7 + t[(l + 1) % n] + acc;\n"
    "}\n";

static void host_guards(const int *in, int *want, size_t g, size_t L, int k) {
  int *t = malloc(L * sizeof *t);
  for (size_t base = 0; base < g; base += L) {
    for (size_t l = 0; l < L; l++)
      t[l] = in[base + l];
    for (size_t l = 0; l < L; l++)
      if ((size_t)(long)k >= l)
        t[l] += 1000;
    for (size_t l = 0; l < L; l++)
      if ((int)l == k)
        t[l] *= 3;
    for (size_t l = 0; l < L; l++)
      if (!((int)l > k))
        t[l] -= 7;
    for (size_t l = 0; l < L; l++)
      if ((int)l < k - 2)
        t[l] ^= 0x55;
    for (size_t l = 0; l < L; l++)
      if ((int)l < k)
        t[l] += 1;
    for (size_t l = 0; l < L; l++)
      if ((int)l < in[0] + k)
        t[l] += 11;
    for (size_t s = L / 2; s > 0; s >>= 1)
      for (size_t l = 0; l < s; l++)
        t[l] += t[l + s] & 0xff;
    for (size_t l = 0; l < L; l++)
      want[base + l] = t[l] * 7 + t[(l + 1) % L] + (int)l + (in[base + l] & 3);
  }
  free(t);
}

static void test_guard_forms(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, guards_src, "guards", NULL);
  if (!k)
    return;
  enum { MAXG = 256 * 6 };
  int in[MAXG], want[MAXG];
  test_pattern(in, MAXG, 7);
  in[0] = -5;
  static const size_t locals[] = {1, 7, 64, 100, 256};
  static const int ks[] = {-3, 0, 1, 5, 63, 64, 99, 1000};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++)
    for (size_t j = 0; j < sizeof ks / sizeof *ks; j++) {
      size_t L = locals[c], g = L * 6;
      int kv = ks[j];
      CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
      CHECK_OK(clSetKernelArg(k, 3, sizeof kv, &kv));
      int *got = test_run_io(env, k, in, g, L);
      host_guards(in, want, g, L, kv);
      char what[64];
      snprintf(what, sizeof what, "guards L=%zu k=%d", L, kv);
      CHECK(test_count_diff(got, want, g, what) == 0);
      free(got);
    }
  clReleaseKernel(k);
}

/* a guard on x in 2D groups narrows every row */
static void test_guard_2d(struct test_env *env) {
  static const char *src =
      "kernel void rows(global int *o, global const int *in, int k) {\n"
      "  local int t[16][16], u[16][16];\n"
      "  size_t x = get_local_id(0), y = get_local_id(1);\n"
      "  size_t gi = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
      "  t[y][x] = in[gi];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (x < (size_t)k) u[y][x] = t[y][x] + t[y][get_local_size(0) - 1 - x] * 2;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[gi] = x < (size_t)k ? u[y][x] : t[y][x];\n"
      "}\n";
  cl_kernel kr = test_kernel_from(env, src, "rows", NULL);
  if (!kr)
    return;
  enum { W = 64, H = 32 };
  static int in[W * H], want[W * H], got[W * H];
  test_pattern(in, W * H, 3);
  cl_mem o = test_buffer_with(env, sizeof got, NULL), i = test_buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(kr, 0, sizeof o, &o));
  CHECK_OK(clSetKernelArg(kr, 1, sizeof i, &i));
  static const int ks[] = {0, 3, 8, 16, 40};
  static const size_t locals[][2] = {{16, 16}, {8, 4}, {5, 3}};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++)
    for (size_t j = 0; j < sizeof ks / sizeof *ks; j++) {
      int kv = ks[j];
      size_t lx = locals[c][0], ly = locals[c][1];
      size_t gs[2] = {lx * (W / 16), ly * (H / 16)};
      CHECK_OK(clSetKernelArg(kr, 2, sizeof kv, &kv));
      CHECK_OK(test_run(env, kr, 2, NULL, gs, locals[c]));
      test_read_back(env, o, gs[0] * gs[1] * sizeof(int), got);
      for (size_t gy = 0; gy < gs[1]; gy++)
        for (size_t gx = 0; gx < gs[0]; gx++) {
          size_t x = gx % lx, row0 = gx - x;
          int v = in[gy * gs[0] + gx];
          if (x < (size_t)kv)
            v += in[gy * gs[0] + row0 + lx - 1 - x] * 2;
          want[gy * gs[0] + gx] = v;
        }
      char what[64];
      snprintf(what, sizeof what, "rows %zux%zu k=%d", lx, ly, kv);
      CHECK(test_count_diff(got, want, gs[0] * gs[1], what) == 0);
    }
  clReleaseMemObject(o);
  clReleaseMemObject(i);
  clReleaseKernel(kr);
}

/* The tutorial tree reduction: the barrier after the guarded add, so the
 * region after it starts with the counter's update, and the bound is the
 * counter's phi (of which the region keeps one incoming value). Narrowed,
 * it ran 3.5x faster. The host runs the same algorithm (for sizes that are
 * not powers of two it is not a full sum, and must not change either). */
static void test_tutorial_reduction(struct test_env *env) {
  static const char *src =
      "kernel void tut(global const int *in, global int *out, local int *s) {\n"
      "  unsigned l = get_local_id(0), g = get_global_id(0);\n"
      "  s[l] = in[g];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  for (unsigned st = get_local_size(0) / 2; st > 0; st >>= 1) {\n"
      "    if (l < st) s[l] += s[l + st];\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  if (l == 0) out[get_group_id(0)] = s[0];\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "tut", NULL);
  if (!k)
    return;
  enum { G = 1600 };
  static int in[G], got[G], want[G], t[G];
  test_pattern(in, G, 5);
  cl_mem mi = test_buffer_with(env, sizeof in, in), mo = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof mi, &mi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof mo, &mo));
  static const size_t locals[] = {1, 7, 64, 100, 160, 200, 320};
  for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
    size_t L = locals[c], groups = G / L;
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    for (int launch = 0; launch < 2; launch++) { /* generic, then specialised */
      size_t g = groups * L;
      CHECK_OK(test_run(env, k, 1, NULL, &g, &L));
      test_read_back(env, mo, groups * sizeof(int), got);
      for (size_t grp = 0; grp < groups; grp++) {
        memcpy(t, in + grp * L, L * sizeof *t);
        for (size_t st = L / 2; st > 0; st >>= 1)
          for (size_t l = 0; l < st; l++)
            t[l] += t[l + st];
        want[grp] = t[0];
      }
      char what[64];
      snprintf(what, sizeof what, "tutorial reduction, local size %zu", L);
      CHECK(test_count_diff(got, want, groups, what) == 0);
    }
  }
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_guard_forms(&env);
  test_guard_2d(&env);
  test_tutorial_reduction(&env);
  test_env_release(&env);
  return test_finish("test_wi_range");
}
