/* Async work-group copies (OpenCL C 1.13.10): async_work_group_copy and
 * async_work_group_strided_copy in both directions for every scalar type
 * with widths 1, 3 (whose padding must be copied too) and 16 (and 2, 4, 8 for
 * some), in 1D and 2D work-groups, element counts below and above the group
 * size, chained events, wait_group_events and prefetch. The results are
 * compared byte for byte, and memory the copies must not touch is checked. */
#include "harness.h"
#include <stdint.h>

#define NMAX 40   /* most elements one group copies */
#define STRIDE 3  /* stride of the strided copies */
#define GROUPS 4

/* CT is the type the checking code copies elements with: 3-vectors move as
 * 4-vectors so that their padding is compared as well */
static const char *async_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define NMAX 40\n#define S 3\n"
    "#define TEST(G, CT) \\\n"
    "kernel void async_##G(global const G *src, global G *d1, global G *d2, global G *d3, \\\n"
    "                      global G *d4, int n) { \\\n"
    "  local G l1[NMAX], l2[NMAX], l3[NMAX]; \\\n"
    "  size_t g = get_group_id(0) + get_num_groups(0) * get_group_id(1); \\\n"
    "  size_t lid = get_local_id(0) + get_local_size(0) * get_local_id(1); \\\n"
    "  size_t ls = get_local_size(0) * get_local_size(1); \\\n"
    "  global const G *s = src + g * n * S; \\\n"
    "  prefetch(s, n * S); \\\n"
    "  event_t e = async_work_group_copy(l1, s, n, 0); \\\n"
    "  event_t e2 = async_work_group_strided_copy(l3, s, n, S, 0); \\\n"
    "  wait_group_events(1, &e); \\\n"
    "  wait_group_events(1, &e2); \\\n"
    "  for (size_t i = lid; i < n; i += ls) { \\\n"
    "    ((global CT *)d1)[g * n + i] = ((local CT *)l1)[i]; \\\n"
    "    ((global CT *)d3)[g * n + i] = ((local CT *)l3)[i]; \\\n"
    "    ((local CT *)l2)[i] = ((global const CT *)s)[i]; \\\n"
    "  } \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  event_t evs[2]; \\\n"
    "  evs[0] = async_work_group_copy(d2 + g * n, l2, n, 0); \\\n"
    "  evs[1] = async_work_group_strided_copy(d4 + g * n * S, l2, n, S, evs[0]); \\\n"
    "  wait_group_events(2, evs); \\\n"
    "}\n"
    "#define WIDTHS(T) TEST(T, T) TEST(T##3, T##4) TEST(T##16, T##16)\n"
    "WIDTHS(char) WIDTHS(uchar) WIDTHS(short) WIDTHS(ushort) WIDTHS(int)\n"
    "WIDTHS(uint) WIDTHS(long) WIDTHS(ulong) WIDTHS(float) WIDTHS(double)\n"
    "TEST(int2, int2) TEST(int4, int4) TEST(int8, int8)\n"
    "TEST(char2, char2) TEST(char4, char4) TEST(char8, char8)\n"
    "TEST(double2, double2) TEST(double4, double4) TEST(double8, double8)\n";

static uint64_t rng_state = 0x853c49e6748fea9bull;
static unsigned char rnd_byte(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned char)(rng_state >> 24);
}

/* runs async_<type> with n elements per group; 2D uses 4x4 work-groups */
static void run_case(struct test_env *env, cl_program p, const char *type, size_t es, int n,
                     int two_d) {
  size_t src_bytes = GROUPS * NMAX * STRIDE * es, dst_bytes = src_bytes;
  unsigned char *src = malloc(src_bytes), *d[4], *want[4];
  for (size_t i = 0; i < src_bytes; i++)
    src[i] = rnd_byte();
  cl_mem args[5];
  args[0] = test_buffer_with(env, src_bytes, src);
  for (int k = 0; k < 4; k++) {
    d[k] = malloc(dst_bytes);
    want[k] = malloc(dst_bytes);
    memset(d[k], 0xC3, dst_bytes);
    memcpy(want[k], d[k], dst_bytes);
    args[k + 1] = test_buffer_with(env, dst_bytes, d[k]);
  }
  for (size_t g = 0; g < GROUPS; g++)
    for (size_t i = 0; i < (size_t)n; i++) {
      const unsigned char *s = src + (g * (size_t)n * STRIDE) * es;
      memcpy(want[0] + (g * (size_t)n + i) * es, s + i * es, es);
      memcpy(want[1] + (g * (size_t)n + i) * es, s + i * es, es);
      memcpy(want[2] + (g * (size_t)n + i) * es, s + i * STRIDE * es, es);
      memcpy(want[3] + (g * (size_t)n * STRIDE + i * STRIDE) * es, s + i * es, es);
    }
  char name[64];
  snprintf(name, sizeof name, "async_%s", type);
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  for (cl_uint i = 0; i < 5; i++)
    CHECK_OK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
  CHECK_OK(clSetKernelArg(k, 5, sizeof n, &n));
  size_t global1[1] = {GROUPS * 16}, local1[1] = {16};
  size_t global2[2] = {8, 8}, local2[2] = {4, 4};
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, two_d ? 2 : 1, NULL, two_d ? global2 : global1,
                                  two_d ? local2 : local1, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  clReleaseKernel(k);
  static const char *what[4] = {"global->local", "local->global", "strided global->local",
                                "strided local->global"};
  for (int j = 0; j < 4; j++) {
    CHECK_OK(clEnqueueReadBuffer(env->queue, args[j + 1], CL_TRUE, 0, dst_bytes, d[j], 0, NULL,
                                 NULL));
    int same = !memcmp(d[j], want[j], dst_bytes);
    CHECK(same);
    if (!same)
      fprintf(stderr, "  %s %s, n=%d%s: wrong\n", type, what[j], n, two_d ? ", 2D" : "");
  }
  for (int j = 0; j < 5; j++)
    clReleaseMemObject(args[j]);
  for (int j = 0; j < 4; j++) {
    free(d[j]);
    free(want[j]);
  }
  free(src);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, async_src, NULL);
  if (!p)
    return test_finish("test_builtins_async");
  static const char *scalars[10] = {"char", "uchar", "short", "ushort", "int",
                                    "uint", "long",  "ulong", "float",  "double"};
  static const size_t sizes[10] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  char type[32];
  for (int t = 0; t < 10; t++) {
    static const int widths[3] = {1, 3, 16};
    for (int w = 0; w < 3; w++) {
      if (widths[w] == 1)
        snprintf(type, sizeof type, "%s", scalars[t]);
      else
        snprintf(type, sizeof type, "%s%d", scalars[t], widths[w]);
      size_t es = sizes[t] * (size_t)(widths[w] == 3 ? 4 : widths[w]);
      run_case(&env, p, type, es, 37, 0);
      run_case(&env, p, type, es, 5, 0);
    }
  }
  static const char *more[9] = {"int2", "int4", "int8", "char2", "char4", "char8",
                                "double2", "double4", "double8"};
  static const size_t more_sizes[9] = {8, 16, 32, 2, 4, 8, 16, 32, 64};
  for (int i = 0; i < 9; i++)
    run_case(&env, p, more[i], more_sizes[i], 37, 0);
  run_case(&env, p, "float3", 16, 37, 1);
  run_case(&env, p, "uchar", 1, 40, 1);
  run_case(&env, p, "long16", 128, 1, 1);
  clReleaseProgram(p);
  test_env_release(&env);
  return test_finish("test_builtins_async");
}
