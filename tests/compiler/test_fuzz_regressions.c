/* Kernels the differential fuzzer (tools/fuzz/) found LoomCL
 * mis-compiling, reduced (tests/fuzz/bugs/ has the reproducers and their
 * seeds). Each must build and give the host reference's result. */
#include "harness.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A switch whose empty cases share a successor, after a barrier: the PHI
 * in that successor has several entries for the switch block, which
 * wg-barriers gave different reloads of the value live across the barrier
 * (invalid IR; tests/fuzz/bugs/switch-phi-barrier.cl). */
static const char *switch_src =
    "kernel void k(global const uint *in, global uint *out, uint add) {\n"
    "  uint gl = get_global_id(0);\n"
    "  uint v = in[gl & 1023u] + add;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  switch (in[(gl + 1u) & 1023u] & 3u) {\n"
    "  case 0u:\n"
    "    v = 7u;\n"
    "  case 2u: ;\n"
    "  case 1u: ;\n"
    "  }\n"
    "  out[gl] = v;\n"
    "}\n";

static void test_switch_after_barrier(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, switch_src, "k", NULL);
  if (!k)
    return;
  enum { G = 1024, L = 64 };
  cl_uint in[G], add = 5;
  int out[G], want[G];
  uint64_t st = 99;
  for (int i = 0; i < G; i++)
    in[i] = (cl_uint)test_xorshift64(&st);
  for (int i = 0; i < G; i++)
    want[i] = (in[(i + 1) & 1023] & 3u) == 0 ? 7 : (int)(in[i] + add);
  cl_mem ib = test_buffer_with(env, sizeof in, in), ob = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ib, &ib));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 2, sizeof add, &add));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, ob, sizeof out, out);
  CHECK(test_count_diff(out, want, G, "switch after a barrier") == 0);
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* A division whose operands do not change across work-items, in a branch
 * some work-items take: LLVM 19's loop vectoriser computed it for lane 0
 * only and read every lane's __local value through lane 0's address, poison
 * when lane 0 skips the branch (a fault or garbage; loom-fuzz seeds 1000126,
 * 1001392, 1001512; pass hoist-divisions). Lane 0 of each vector skips here:
 * work-items 0, 8, 16, ... read nothing. The first launch runs the generic
 * code, the second the code specialised for the local size. */
static const char *division_src =
    "kernel void k(global const uint *in, global uint *out, local uint *la, uint c, uint d) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0);\n"
    "  la[lid] = lid * 3u + 1u;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint v = 0u;\n"
    "  if (in[get_global_id(0) - get_global_offset(0)] & 1u)\n"
    "    v = la[c % lsz] + la[(c / (d | 1u)) % lsz];\n"
    "  out[get_global_id(0) - get_global_offset(0)] = v;\n"
    "}\n";

static void test_invariant_division_in_branch(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, division_src, "k", NULL);
  if (!k)
    return;
  enum { G = 256, L = 32 };
  cl_uint in[G], c = 1014674329u, d = 6u;
  int out[G], want[G];
  for (int i = 0; i < G; i++)
    in[i] = (cl_uint)(i % 8 != 0) * (cl_uint)(i | 1);
  for (int i = 0; i < G; i++)
    want[i] = in[i] & 1u ? (int)((c % L) * 3u + 1u + ((c / (d | 1u)) % L) * 3u + 1u) : 0;
  cl_mem ib = test_buffer_with(env, sizeof in, in), ob = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ib, &ib));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(cl_uint), NULL));
  CHECK_OK(clSetKernelArg(k, 3, sizeof c, &c));
  CHECK_OK(clSetKernelArg(k, 4, sizeof d, &d));
  size_t g = G, l = L, off = 4;
  for (int launch = 0; launch < 2; launch++) {
    memset(out, 0xff, sizeof out);
    CHECK_OK(test_run(env, k, 1, &off, &g, &l));
    test_read_back(env, ob, sizeof out, out);
    CHECK(test_count_diff(out, want, G, launch ? "invariant division, specialised" : "invariant division") == 0);
  }
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* abs of the most negative value is defined (abs(INT_MIN) is 2^31 as a
 * uint), but the builtin negated in the signed type: with the value known at
 * compile time LLVM folded the overflow to poison and deleted the store of
 * it, and a later read of __local memory saw whatever was there (loom-fuzz
 * seed 1003421; results changed from run to run). mul24 and mad24 of 24-bit
 * values whose product overflows 32 bits: the low 32 bits, not poison. */
static const char *abs_src =
    "kernel void k(global uint *out, local uint *tmp) {\n"
    "  int m = INT_MIN; char c = CHAR_MIN; short s = SHRT_MIN; long l = LONG_MIN;\n"
    "  uint lid = get_local_id(0), g = get_global_id(0);\n"
    "  tmp[lid] = abs(m) ^ lid;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g * 6u] = tmp[lid] ^ lid;\n"
    "  out[g * 6u + 1u] = abs(c);\n"
    "  out[g * 6u + 2u] = abs(s);\n"
    "  out[g * 6u + 3u] = (uint)(abs(l) >> 32);\n"
    "  out[g * 6u + 4u] = (uint)mul24(0x7fffff, 0x7ffffe);\n"
    "  out[g * 6u + 5u] = (uint)mad24(-0x800000, 0x7fffff, 5);\n"
    "}\n";

static void test_abs_most_negative(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, abs_src, "k", NULL);
  if (!k)
    return;
  enum { G = 64, L = 16 };
  int out[G * 6], want[G * 6];
  for (int i = 0; i < G; i++) {
    want[i * 6] = (int)0x80000000u;
    want[i * 6 + 1] = 0x80;
    want[i * 6 + 2] = 0x8000;
    want[i * 6 + 3] = (int)0x80000000u;
    want[i * 6 + 4] = (int)(uint32_t)(0x7fffffull * 0x7ffffeull);
    want[i * 6 + 5] = (int)(uint32_t)((uint64_t)(-(int64_t)0x800000 * 0x7fffff) + 5u);
  }
  memset(out, 0xab, sizeof out);
  cl_mem ob = test_buffer_with(env, sizeof out, out);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(cl_uint), NULL));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, ob, sizeof out, out);
  CHECK(test_count_diff(out, want, G * 6, "abs(INT_MIN), mul24, mad24") == 0);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* Two uniform values stored side by side become one SLP vector with
 * "alternate" operations (lane 0 a sign extension by shifts, lane 1 an and),
 * and the lane that discards the shift is shifted by 65535: poison. LLVM 19's
 * x86 code generator took that lane for zero and merged the lanes with an
 * OR, keeping VPSRAVD's sign bits: (ushort)(0 - get_work_dim()) was
 * 0xffffffff (loom-fuzz seed 1004659; pass shift-lanes). */
static const char *shift_src =
    "kernel void k(global uint *out, uint a) {\n"
    "  uint g = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  char c = (char)a;\n"
    "  ushort u = (ushort)(0u - get_work_dim());\n"
    "  out[g * 8u + 2u] = (uint)c;\n"
    "  out[g * 8u + 3u] = (uint)u;\n"
    "}\n";

static void test_shift_poison_lane(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, shift_src, "k", NULL);
  if (!k)
    return;
  enum { G = 16, W = 8 };
  int out[G * W], want[G * W];
  cl_uint a = 0x80;
  for (int i = 0; i < G * W; i++)
    want[i] = i % W == 2 ? -128 : i % W == 3 ? 0xfffe : 0x12345678;
  cl_mem ob = test_buffer_with(env, sizeof want, want);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, &a));
  size_t g[2] = {4, 4}, l[2] = {4, 4};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, ob, sizeof out, out);
  CHECK(test_count_diff(out, want, G * W, "char and ushort side by side") == 0);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* A private array kept per work-item (live across barriers) written at a
 * computed index and then read: the loop vectoriser grouped the reads of
 * pa[6] and pa[7] into one strided load placed before the store, which for
 * a loop annotated parallel it took to be independent even within one
 * work-item (loom-fuzz seed 1007124; wrong in the code specialised for the
 * local size, from the second launch on). */
static const char *private_store_src =
    "kernel void k(global const uint *in, global uint *out, local uchar *la, uint u) {\n"
    "  uint lid = get_local_id(0), lsz = get_local_size(0), gl = get_global_id(0);\n"
    "  char pa[8];\n"
    "  for (uint q = 0u; q < 8u; q++) pa[q] = (char)in[(gl * 3u + q) & 1023u];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  pa[((uint)pa[6]) & 7u] = (char)1;\n"
    "  la[lid] = (uchar)pa[((uint)pa[7]) & 7u] | (uchar)u;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[gl] = la[(gl + 1u) % lsz];\n"
    "}\n";

static void test_private_store_then_load(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, private_store_src, "k", NULL);
  if (!k)
    return;
  enum { G = 240, L = 60 };
  cl_uint in[1024], u = 0x80;
  int out[G], want[G], la[G];
  uint64_t st = 7124;
  for (int i = 0; i < 1024; i++)
    in[i] = (cl_uint)test_xorshift64(&st);
  for (int gl = 0; gl < G; gl++) {
    signed char pa[8];
    for (int q = 0; q < 8; q++)
      pa[q] = (signed char)in[(gl * 3 + q) & 1023];
    pa[(uint32_t)(int32_t)pa[6] & 7u] = 1;
    la[gl] = (int)(((uint8_t)pa[(uint32_t)(int32_t)pa[7] & 7u]) | (uint8_t)u);
  }
  for (int gl = 0; gl < G; gl++)
    want[gl] = la[gl / L * L + (gl + 1) % L];
  cl_mem ib = test_buffer_with(env, sizeof in, in), ob = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ib, &ib));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ob, &ob));
  CHECK_OK(clSetKernelArg(k, 2, L, NULL));
  CHECK_OK(clSetKernelArg(k, 3, sizeof u, &u));
  size_t g = G, l = L;
  for (int launch = 0; launch < 3; launch++) {
    memset(out, 0, sizeof out);
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, ob, sizeof out, out);
    CHECK(test_count_diff(out, want, G, "private array store, then load") == 0);
  }
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

/* A loop whose trip count differs between work-items, one of whose header
 * PHIs takes another's value (`last = k`): wg-barriers runs such a loop a
 * block of unrolled iterations per pass over the group, and rebuilt the
 * header PHIs so that `last` came from the first iteration of each block
 * (loom-fuzz seed 3120218, tests/fuzz/bugs/divergent-loop-phi-chain.cl:
 * 2 for 3 at -cl-opt-disable, 0 optimised). Both builds checked. */
static const char *phi_chain_src =
    "kernel void k(global const uint *in, global int *out) {\n"
    "  uint gl = get_global_id(0);\n"
    "  int j = 0, last = -1; /* in this order: j's PHI first */\n"
    "  for (; j < (int)(in[gl] & 31u); j++)\n"
    "    last = j;\n"
    "  out[gl] = last;\n"
    "}\n";

static void test_divergent_loop_phi_chain(struct test_env *env) {
  enum { G = 256, L = 64 };
  cl_uint in[G];
  int want[G];
  uint64_t st = 3120218;
  for (int i = 0; i < G; i++) {
    in[i] = (cl_uint)test_xorshift64(&st);
    want[i] = (int)(in[i] & 31u) - 1;
  }
  static const char *const options[] = {"", "-cl-opt-disable"};
  for (int o = 0; o < 2; o++) {
    cl_kernel k = test_kernel_from(env, phi_chain_src, "k", options[o]);
    if (!k)
      return;
    int out[G];
    cl_mem ib = test_buffer_with(env, sizeof in, in), ob = test_buffer_with(env, sizeof out, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ib, &ib));
    CHECK_OK(clSetKernelArg(k, 1, sizeof ob, &ob));
    size_t g = G, l = L;
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, ob, sizeof out, out);
    CHECK(test_count_diff(out, want, G, options[o][0] ? "phi chain -O0" : "phi chain") == 0);
    clReleaseMemObject(ib);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
  }
}

/* A switch on a value that differs between work-items whose cases share
 * blocks (`case 0: case 1:`, `case 2: case 3:`): the uniformity analysis
 * took each shared block for a join at once, the two labels then met as
 * one and the phi after them passed for uniform, so `v` was kept across
 * the barrier in one slot for the whole group (loom-fuzz seed 3341278, at
 * -cl-opt-disable; this shape wrong in both builds). */
static const char *shared_cases_src =
    "kernel void k(global const uint *in, global uint *out, global int *acc, local uint *t) {\n"
    "  uint g = get_global_id(0), l = get_local_id(0);\n"
    "  uint v = 255u;\n"
    "  switch (in[g] & 3u) {\n"
    "  case 0u:\n"
    "  case 1u: atomic_min((volatile global uint *)&acc[0], 0xffffffffu); break;\n"
    "  case 2u:\n"
    "  case 3u: v = 1u; acc[1] = 5; break;\n"
    "  default: v = 7u; break;\n"
    "  }\n"
    "  t[l] = v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = v * 1000u + t[(l + 1u) % get_local_size(0)];\n"
    "}\n";

static void test_switch_shared_cases(struct test_env *env) {
  enum { G = 256, L = 64 };
  cl_uint in[G], want[G], v[G];
  uint64_t st = 3341278;
  for (int i = 0; i < G; i++) {
    in[i] = (cl_uint)test_xorshift64(&st);
    v[i] = (in[i] & 3u) < 2u ? 255u : 1u;
  }
  for (int i = 0; i < G; i++)
    want[i] = v[i] * 1000u + v[i / L * L + (i % L + 1) % L];
  static const char *const options[] = {"", "-cl-opt-disable"};
  for (int o = 0; o < 2; o++) {
    cl_kernel k = test_kernel_from(env, shared_cases_src, "k", options[o]);
    if (!k)
      return;
    cl_uint out[G];
    cl_mem ib = test_buffer_with(env, sizeof in, in), ob = test_buffer_with(env, sizeof out, NULL);
    cl_mem ab = test_buffer_with(env, 4 * sizeof(int), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ib, &ib));
    CHECK_OK(clSetKernelArg(k, 1, sizeof ob, &ob));
    CHECK_OK(clSetKernelArg(k, 2, sizeof ab, &ab));
    CHECK_OK(clSetKernelArg(k, 3, L * sizeof(cl_uint), NULL));
    size_t g = G, l = L;
    for (int launch = 0; launch < 2; launch++) { /* generic, then specialised */
      CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
      test_read_back(env, ob, sizeof out, out);
      CHECK(test_count_diff((int *)out, (int *)want, G, options[o][0] ? "shared cases -O0" : "shared cases") == 0);
    }
    clReleaseMemObject(ib);
    clReleaseMemObject(ob);
    clReleaseMemObject(ab);
    clReleaseKernel(k);
  }
}

int main(void) {
  /* the second launch of a kernel with barriers runs its specialised code */
  setenv("LOOMCL_SPECIALIZE", "always", 1);
  struct test_env env;
  test_env_init(&env);
  test_switch_after_barrier(&env);
  test_invariant_division_in_branch(&env);
  test_abs_most_negative(&env);
  test_shift_poison_lane(&env);
  test_private_store_then_load(&env);
  test_divergent_loop_phi_chain(&env);
  test_switch_shared_cases(&env);
  test_env_release(&env);
  return test_finish("test_fuzz_regressions");
}
