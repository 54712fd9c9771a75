/* Prefetching the slices of const buffers for the work-groups ahead
 * (devices/cpu/group_prefetch.c): a hint that must never change a result or
 * touch memory it should not, whether a launch tries it against not
 * prefetching (4096 groups or more: 16 and 64 values per group here) or
 * just prefetches. 1D kernels with barriers reading
 * const buffers in slices per group, checked against the host:
 *  - a tree reduction over buffers of 64 B to 4 KiB per group, the last
 *    groups' prefetches running past the buffer's end;
 *  - fewer groups than the prefetch distance;
 *  - a sub-buffer that starts inside its parent and ends before it;
 *  - a kernel without barriers (not prefetched) in between; every case
 *    twice. */
#include "harness.h"

static const char *src =
    "kernel void reduce(global const float *src, global float *sums, local float *t) {\n"
    "  uint i = get_local_id(0);\n"
    "  t[i] = src[get_global_id(0)];\n"
    "  for (uint half_n = get_local_size(0) >> 1; half_n; half_n >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (i < half_n) t[i] = t[i] + t[i + half_n];\n"
    "  }\n"
    "  if (!i) sums[get_group_id(0)] = t[0];\n"
    "}\n"
    "kernel void copy(global const float *in, global float *out) {\n"
    "  out[get_global_id(0)] = in[get_global_id(0)];\n"
    "}\n";

/* sums of groups of `local` values of in (multiples of 1/8: exact) */
static void want_sums(const float *in, size_t n, size_t local, float *want) {
  for (size_t g = 0; g < n / local; g++) {
    float s = 0;
    for (size_t i = 0; i < local; i++)
      s += in[g * local + i];
    want[g] = s;
  }
}

static void check_reduce(struct test_env *env, cl_kernel k, cl_mem in_mem, const float *in,
                         size_t n, size_t local) {
  size_t groups = n / local;
  cl_mem out = test_buffer_with(env, groups * sizeof(float), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof in_mem, &in_mem));
  CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 2, local * sizeof(float), NULL));
  CHECK_OK(test_run(env, k, 1, NULL, &n, &local));
  float *got = malloc(groups * sizeof(float)), *want = malloc(groups * sizeof(float));
  test_read_back(env, out, groups * sizeof(float), got);
  want_sums(in, n, local, want);
  int bad = 0;
  for (size_t g = 0; g < groups; g++)
    if (got[g] != want[g] && bad++ < 3)
      fprintf(stderr, "n %zu local %zu group %zu: %g, want %g\n", n, local, g, got[g], want[g]);
  CHECK(bad == 0);
  free(got);
  free(want);
  clReleaseMemObject(out);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, src, NULL);
  if (!p) {
    test_env_release(&env);
    return 1;
  }
  cl_int err;
  cl_kernel reduce = clCreateKernel(p, "reduce", &err), copy = clCreateKernel(p, "copy", &err);
  CHECK(reduce && copy);

  size_t n = 1 << 20;
  float *in = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    in[i] = (float)((i * 2654435761u >> 7) & 15) * 0.125f;
  cl_mem whole = test_buffer_with(&env, n * sizeof(float), in);

  for (int pass = 0; pass < 2; pass++) {
    /* 16 floats (64 B) to 1024 floats (4 KiB) per group, and beyond */
    size_t locals[] = {16, 64, 256, 1024, 2048};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++)
      check_reduce(&env, reduce, whole, in, n, locals[i]);
    /* fewer groups than the prefetch distance needs */
    check_reduce(&env, reduce, whole, in, 4 * 256, 256);

    /* a sub-buffer inside the parent: 4096 floats from float 8192 */
    cl_buffer_region region = {8192 * sizeof(float), 4096 * sizeof(float)};
    cl_mem sub = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK_OK(err);
    if (sub) {
      check_reduce(&env, reduce, sub, in + 8192, 4096, 64);
      clReleaseMemObject(sub);
    }

    /* a kernel without barriers in between (not prefetched) */
    cl_mem out = test_buffer_with(&env, n * sizeof(float), NULL);
    CHECK_OK(clSetKernelArg(copy, 0, sizeof whole, &whole));
    CHECK_OK(clSetKernelArg(copy, 1, sizeof out, &out));
    CHECK_OK(test_run(&env, copy, 1, NULL, &n, NULL));
    float *back = malloc(n * sizeof(float));
    test_read_back(&env, out, n * sizeof(float), back);
    CHECK(memcmp(back, in, n * sizeof(float)) == 0);
    free(back);
    clReleaseMemObject(out);
  }

  clReleaseMemObject(whole);
  free(in);
  clReleaseKernel(reduce);
  clReleaseKernel(copy);
  clReleaseProgram(p);
  test_env_release(&env);
  printf("test_group_prefetch: %d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
