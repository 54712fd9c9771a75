/* Kernels the differential fuzzer (tools/loom-fuzz.c) found LoomCL
 * mis-compiling, reduced (tests/fuzz/bugs/ has the reproducers and their
 * seeds). Each must build and give the host reference's result. */
#include "harness.h"
#include <stdlib.h>

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

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_switch_after_barrier(&env);
  test_env_release(&env);
  return test_finish("test_fuzz_regressions");
}
