/* shuffle and shuffle2 (OpenCL C 1.13.12) for every element type and every
 * input and result width 2, 4, 8, 16, with random masks whose unused high
 * bits are set too; compared bit for bit with a host reference. */
#include "harness.h"
#include <stdint.h>

#define ITEMS 64

/* combination c = mi * 4 + ni (widths 2,4,8,16) is shuffle, 16 + c shuffle2;
 * every work-item writes 32 results of 16 elements */
static const char *shuffle_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define LOADV(T, v, src, m) for (int k = 0; k < m; k++) ((private T *)&v)[k] = src[i * 16 + k];\n"
    "#define STOREV(T, v, c, n) for (int k = 0; k < n; k++) o[(i * 32 + c) * 16 + k] = ((private T *)&v)[k];\n"
    "#define ONE(T, U, m, n, c) { \\\n"
    "    T##m a, b; U##n mask; \\\n"
    "    LOADV(T, a, x, m) LOADV(T, b, y, m) LOADV(U, mask, mk, n) \\\n"
    "    T##n r = shuffle(a, mask); STOREV(T, r, c, n) \\\n"
    "    r = shuffle2(a, b, mask); STOREV(T, r, 16 + c, n) }\n"
    "#define ROW(T, U, m, mi) \\\n"
    "  ONE(T, U, m, 2, mi * 4) ONE(T, U, m, 4, mi * 4 + 1) \\\n"
    "  ONE(T, U, m, 8, mi * 4 + 2) ONE(T, U, m, 16, mi * 4 + 3)\n"
    "#define KERNEL(T, U) \\\n"
    "kernel void shuf_##T(global const T *x, global const T *y, global const U *mk, global T *o) { \\\n"
    "  size_t i = get_global_id(0); \\\n"
    "  ROW(T, U, 2, 0) ROW(T, U, 4, 1) ROW(T, U, 8, 2) ROW(T, U, 16, 3) \\\n"
    "}\n"
    "KERNEL(char, uchar) KERNEL(uchar, uchar) KERNEL(short, ushort) KERNEL(ushort, ushort)\n"
    "KERNEL(int, uint) KERNEL(uint, uint) KERNEL(float, uint) KERNEL(long, ulong)\n"
    "KERNEL(ulong, ulong) KERNEL(double, ulong)\n";

static uint64_t rng_state = 0xda942042e4dd58b5ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

/* mask element j of work-item i, as an integer whatever its width */
static uint64_t mask_at(const unsigned char *mk, size_t es, size_t at) {
  uint64_t v = 0;
  memcpy(&v, mk + at * es, es); /* little-endian host */
  return v;
}

static void test_type(struct test_env *env, cl_program p, const char *type, size_t es) {
  size_t in_bytes = ITEMS * 16 * es, out_bytes = ITEMS * 32 * 16 * es;
  unsigned char *x = malloc(in_bytes), *y = malloc(in_bytes), *mk = malloc(in_bytes);
  unsigned char *o = malloc(out_bytes), *want = malloc(out_bytes);
  for (size_t i = 0; i < in_bytes; i++) {
    x[i] = (unsigned char)rnd();
    y[i] = (unsigned char)rnd();
    mk[i] = (unsigned char)rnd();
  }
  memset(o, 0x5A, out_bytes);
  memcpy(want, o, out_bytes);
  static const int w[4] = {2, 4, 8, 16};
  for (size_t i = 0; i < ITEMS; i++)
    for (int mi = 0; mi < 4; mi++)
      for (int ni = 0; ni < 4; ni++) {
        int m = w[mi], n = w[ni], c = mi * 4 + ni;
        for (int k = 0; k < n; k++) {
          uint64_t mv = mask_at(mk, es, i * 16 + (size_t)k);
          size_t one = mv % (uint64_t)m, two = mv % (uint64_t)(2 * m);
          memcpy(want + ((i * 32 + (size_t)c) * 16 + (size_t)k) * es, x + (i * 16 + one) * es, es);
          const unsigned char *from =
              two < (size_t)m ? x + (i * 16 + two) * es : y + (i * 16 + two - (size_t)m) * es;
          memcpy(want + ((i * 32 + 16 + (size_t)c) * 16 + (size_t)k) * es, from, es);
        }
      }
  cl_mem args[4] = {test_buffer_with(env, in_bytes, x), test_buffer_with(env, in_bytes, y),
                    test_buffer_with(env, in_bytes, mk), test_buffer_with(env, out_bytes, o)};
  char name[32];
  snprintf(name, sizeof name, "shuf_%s", type);
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  for (cl_uint i = 0; i < 4; i++)
    CHECK_OK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
  size_t global = ITEMS;
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env->queue, args[3], CL_TRUE, 0, out_bytes, o, 0, NULL, NULL));
  clReleaseKernel(k);
  int bad = 0;
  for (size_t e = 0; e < ITEMS * 32 * 16; e++)
    if (memcmp(o + e * es, want + e * es, es) && bad++ < 4) {
      size_t c = (e / 16) % 32;
      fprintf(stderr, "  %s %s m=%d n=%d element %zu wrong\n", type, c >= 16 ? "shuffle2" : "shuffle",
              w[(c % 16) / 4], w[c % 4], e % 16);
    }
  CHECK(bad == 0);
  for (int i = 0; i < 4; i++)
    clReleaseMemObject(args[i]);
  free(x);
  free(y);
  free(mk);
  free(o);
  free(want);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, shuffle_src, NULL);
  if (!p)
    return test_finish("test_builtins_shuffle");
  static const char *types[10] = {"char", "uchar", "short", "ushort", "int",
                                  "uint", "float", "long",  "ulong",  "double"};
  static const size_t sizes[10] = {1, 1, 2, 2, 4, 4, 4, 8, 8, 8};
  for (int t = 0; t < 10; t++)
    test_type(&env, p, types[t], sizes[t]);
  clReleaseProgram(p);
  test_env_release(&env);
  return test_finish("test_builtins_shuffle");
}
