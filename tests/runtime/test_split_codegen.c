/* A program with several kernels is compiled in parts on several threads
 * (src/compiler/backend/codegen_split.c) and its code kept as one object
 * set (src/compiler/binary/object_set.c):
 *  - every kernel of such a program runs right, built from source and again
 *    from its CL_PROGRAM_BINARIES, which hold the set;
 *  - a kernel using a __constant table and one using __local memory too;
 *  - a binary whose set is damaged (a count or size that does not fit),
 *    with a valid checksum, fails to build and never crashes.
 * Two compile threads are asked for, so the program is split on any machine. */
#include "harness.h"
#include <math.h>

enum { N = 256, LOCAL = 64 };

static const char *src =
    "constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
    "kernel void k_sin(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0); y[i] = sin(x[i]) + cos(x[i] * 0.5f);\n"
    "}\n"
    "kernel void k_exp(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0); y[i] = exp(x[i] * 0.25f) + log(x[i] + 2.0f);\n"
    "}\n"
    "kernel void k_pow(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0); y[i] = pow(x[i] + 1.5f, 1.25f) + atan(x[i]);\n"
    "}\n"
    "kernel void k_table(global const float *x, global float *y) {\n"
    "  size_t i = get_global_id(0); y[i] = x[i] * table[i % 4] + tanh(x[i]);\n"
    "}\n"
    "kernel void k_local(global const float *x, global float *y) {\n"
    "  local float t[64];\n"
    "  size_t l = get_local_id(0), i = get_global_id(0);\n"
    "  t[l] = x[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  y[i] = t[63 - l] + cbrt(x[i]);\n"
    "}\n";

static const char *const names[] = {"k_sin", "k_exp", "k_pow", "k_table", "k_local"};
enum { KERNELS = sizeof names / sizeof *names };

static double want(int k, size_t i, const float *x) {
  double v = x[i];
  switch (k) {
  case 0: return sin(v) + cos(v * 0.5);
  case 1: return exp(v * 0.25) + log(v + 2.0);
  case 2: return pow(v + 1.5, 1.25) + atan(v);
  case 3: return v * (double)(i % 4 + 1) + tanh(v);
  default: return x[(i / LOCAL) * LOCAL + (LOCAL - 1 - i % LOCAL)] + cbrt(v);
  }
}

/* runs every kernel of p and checks it against the host */
static void run_all(struct test_env *env, cl_program p, const float *x) {
  cl_mem mx = test_buffer_with(env, sizeof(float) * N, x);
  cl_mem my = test_buffer_with(env, sizeof(float) * N, NULL);
  for (int k = 0; k < KERNELS; k++) {
    cl_int err;
    cl_kernel kern = clCreateKernel(p, names[k], &err);
    CHECK_OK(err);
    if (!kern)
      continue;
    CHECK_OK(clSetKernelArg(kern, 0, sizeof mx, &mx));
    CHECK_OK(clSetKernelArg(kern, 1, sizeof my, &my));
    size_t g = N, l = LOCAL;
    CHECK_OK(test_run(env, kern, 1, NULL, &g, &l));
    float y[N];
    test_read_back(env, my, sizeof y, y);
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
      double w = want(k, i, x);
      bad += !(fabs(y[i] - w) <= 1e-5 * fabs(w) + 1e-5);
    }
    if (bad)
      fprintf(stderr, "%s: %d wrong\n", names[k], bad);
    CHECK(bad == 0);
    clReleaseKernel(kern);
  }
  clReleaseMemObject(mx);
  clReleaseMemObject(my);
}

static unsigned char *binary_of(cl_program p, size_t *size) {
  *size = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL));
  unsigned char *bin = malloc(*size ? *size : 1);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  return bin;
}

static cl_program from_binary(struct test_env *env, const unsigned char *bin, size_t size,
                              cl_int *build) {
  cl_int status = 0, err;
  cl_program p = clCreateProgramWithBinary(env->context, 1, &env->device, &size, &bin, &status, &err);
  *build = err;
  if (p)
    *build = clBuildProgram(p, 1, &env->device, NULL, NULL, NULL);
  return p;
}

/* The binary container's checksum (src/compiler/binary/binary.c): over
 * every byte before it, in its last 8 bytes, little-endian. */
static void fix_checksum(unsigned char *bin, size_t size) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i + 8 < size; i++)
    h = (h ^ bin[i]) * 0x100000001b3ULL;
  h ^= h >> 29;
  for (int i = 0; i < 8; i++)
    bin[size - 8 + i] = (unsigned char)(h >> (8 * i));
}

static unsigned char *find(unsigned char *bin, size_t size, const char *what) {
  size_t n = strlen(what);
  for (size_t i = 0; i + n <= size; i++)
    if (!memcmp(bin + i, what, n))
      return bin + i;
  return NULL;
}

/* a damaged object set: building from the binary fails, nothing crashes
 * (kind -1: undamaged, its checksum recomputed: it builds, so the checksum
 * here is right and the others reach the set's reader) */
static void test_damaged(struct test_env *env, const unsigned char *good, size_t size) {
  for (int kind = -1; kind < 3; kind++) {
    unsigned char *bin = malloc(size);
    memcpy(bin, good, size);
    unsigned char *set = find(bin, size, "LOOMOBJS");
    CHECK(set != NULL);
    if (!set) {
      free(bin);
      return;
    }
    if (kind == 0)
      set[8] = 200; /* more objects than a set holds */
    else if (kind == 1)
      set[12 + 7] = 0x40; /* the first object's size far past the end */
    else if (kind == 2)
      set[8] = 1; /* a set of one */
    fix_checksum(bin, size);
    cl_int build;
    cl_program p = from_binary(env, bin, size, &build);
    CHECK(kind < 0 ? build == CL_SUCCESS : build != CL_SUCCESS);
    if (p)
      clReleaseProgram(p);
    free(bin);
  }
}

int main(void) {
  test_set_config("LOOMCL_CACHE", "0");
  test_set_config("LOOMCL_COMPILE_THREADS", "2");
  struct test_env env;
  test_env_init(&env);
  float x[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)((i * 37) % 101) * 0.05f - 1.0f;
  cl_program p = test_program_from(&env, src, NULL);
  if (p) {
    run_all(&env, p, x);
    size_t size;
    unsigned char *bin = binary_of(p, &size);
    /* split: the binary holds a set of objects */
    CHECK(find(bin, size, "LOOMOBJS") != NULL);
    cl_int build;
    cl_program again = from_binary(&env, bin, size, &build);
    CHECK_OK(build);
    if (again && build == CL_SUCCESS)
      run_all(&env, again, x);
    if (again)
      clReleaseProgram(again);
    test_damaged(&env, bin, size);
    free(bin);
    clReleaseProgram(p);
  }
  test_set_config("LOOMCL_COMPILE_THREADS", NULL);
  test_env_release(&env);
  return test_finish("test_split_codegen");
}
