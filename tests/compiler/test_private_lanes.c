/* Private arrays indexed by what a work-item computes, in work-item loops
 * vectorised as outer loops: each lane keeps its own copy
 * (workgroup/wide_private.c), and the lanes' consecutive accesses become
 * vector loads and stores (vectorize/consecutive_lanes.c). Every result is
 * checked against the same computation on the host, for group sizes that
 * leave scalar remainders, a wide loop (chains of dependent operations,
 * several registers of work-items) and two dimensions. */
#include "harness.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *src =
    "kernel void pfloat(global const float *in, global float *out, int rounds) {\n"
    "  size_t g = get_global_id(0);\n"
    "  float x = in[g];\n"
    "  float p[64];\n"
    "  for (int i = 0; i < 64; i++) p[i] = x + (float)i;\n"
    "  uint idx = (uint)(x * 7.0f) & 63u;\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    idx = (idx * 13u + 7u) & 63u;\n"
    "    p[idx] = p[idx] * 0.5f + p[(idx + 17u) & 63u] * 0.25f;\n"
    "  }\n"
    "  float s = 0.0f;\n"
    "  for (int i = 0; i < 64; i++) s += p[i];\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void pdouble(global const double *in, global double *out, int rounds) {\n"
    "  size_t g = get_global_id(0);\n"
    "  double p[24];\n"
    "  for (int i = 0; i < 24; i++) p[i] = in[g] * (double)(i + 1);\n"
    "  uint idx = (uint)g % 24u;\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    idx = (idx * 5u + 3u) % 24u;\n"
    "    p[idx] += p[(idx + 11u) % 24u] * 0.125;\n"
    "  }\n"
    "  out[g] = p[idx] + p[0];\n"
    "}\n"
    "kernel void pchar(global const uchar *in, global uint *out, int n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uchar h[32];\n"
    "  for (int i = 0; i < 32; i++) h[i] = 0;\n"
    "  for (int i = 0; i < n; i++) h[(in[g] + i * 7) & 31] += (uchar)i;\n"
    "  uint s = 0;\n"
    "  for (int i = 0; i < 32; i++) s = s * 31u + h[i];\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void pchain(global const float *in, global float *out, int n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  float t[16];\n"
    "  for (int i = 0; i < 16; i++) t[i] = 0.5f + in[g] * (float)i * 0.03f;\n"
    "  float a = 1.0f;\n"
    "  for (int k = 0; k < n; k++) a = fma(a, t[(k + g) & 15], 0.5f);\n"
    "  out[g] = a;\n"
    "}\n"
    "kernel void pwide(global const float *in, global float *out) {\n"
    "  size_t g = get_global_id(0);\n"
    "  float t[8];\n"
    "  for (int i = 0; i < 8; i++) t[i] = in[g] * (float)(i + 1);\n"
    "  float a = (float)(g % 13) * 0.125f, b = 0.5f + in[g];\n"
    "  for (int i = 0; i < 37; i++) {\n"
    "    a = fma(b, 0.5f, a); b = fma(a, -0.25f, b); a = fma(b, 0.75f, a); b = fma(a, -0.5f, b);\n"
    "  }\n"
    "  uint j = (uint)g * 5u;\n"
    "  float r = a * b;\n"
    "  float u = t[j & 7u] + t[(j + 3u) & 7u];\n"
    "  out[g] = r + u;\n"
    "}\n"
    "kernel void pbig(global const uint *in, global uint *out, int n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uint a[2048], b[2048], c[2048];\n"
    "  for (int i = 0; i < 2048; i++) { a[i] = in[g] + i; b[i] = in[g] ^ i; c[i] = i; }\n"
    "  uint j = in[g] & 2047u, s = 0;\n"
    "  for (int r = 0; r < n; r++) {\n"
    "    j = (j * 5u + 1u) & 2047u;\n"
    "    a[j] += b[(j + 7u) & 2047u];\n"
    "    c[(j + 3u) & 2047u] ^= a[j];\n"
    "    s += c[j];\n"
    "  }\n"
    "  out[g] = s + a[j] + b[j];\n"
    "}\n"
    "kernel void p2d(global const int *in, global int *out, int n) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
    "  int q[16];\n"
    "  for (int i = 0; i < 16; i++) q[i] = in[y * w + x] + i * y;\n"
    "  int acc = 0;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    int j = (x + i * 3) & 15;\n"
    "    acc += q[j];\n"
    "    q[(j + 1) & 15] = acc;\n"
    "  }\n"
    "  out[y * w + x] = acc;\n"
    "}\n";

static float ref_float(float x, int rounds) {
  float p[64];
  for (int i = 0; i < 64; i++)
    p[i] = x + (float)i;
  unsigned idx = (unsigned)(x * 7.0f) & 63u;
  for (int r = 0; r < rounds; r++) {
    idx = (idx * 13u + 7u) & 63u;
    p[idx] = p[idx] * 0.5f + p[(idx + 17u) & 63u] * 0.25f; /* exact products */
  }
  float s = 0.0f;
  for (int i = 0; i < 64; i++)
    s += p[i];
  return s;
}

static double ref_double(double x, size_t g, int rounds) {
  double p[24];
  for (int i = 0; i < 24; i++)
    p[i] = x * (double)(i + 1);
  unsigned idx = (unsigned)g % 24u;
  for (int r = 0; r < rounds; r++) {
    idx = (idx * 5u + 3u) % 24u;
    p[idx] += p[(idx + 11u) % 24u] * 0.125; /* exact product: fusing cannot change it */
  }
  return p[idx] + p[0];
}

static unsigned ref_char(unsigned char v, int n) {
  unsigned char h[32] = {0};
  for (int i = 0; i < n; i++)
    h[(v + i * 7) & 31] += (unsigned char)i;
  unsigned s = 0;
  for (int i = 0; i < 32; i++)
    s = s * 31u + h[i];
  return s;
}

static float ref_chain(float v, size_t g, int n) {
  float t[16];
  for (int i = 0; i < 16; i++)
    t[i] = 0.5f + v * (float)i * 0.03f; /* the kernel may fuse: compared with a tolerance */
  float a = 1.0f;
  for (int k = 0; k < n; k++)
    a = fmaf(a, t[(k + g) & 15], 0.5f);
  return a;
}

static float ref_wide(float v, size_t g) {
  float t[8];
  for (int i = 0; i < 8; i++)
    t[i] = v * (float)(i + 1);
  float a = (float)(g % 13) * 0.125f, b = 0.5f + v;
  for (int i = 0; i < 37; i++) {
    a = fmaf(b, 0.5f, a);
    b = fmaf(a, -0.25f, b);
    a = fmaf(b, 0.75f, a);
    b = fmaf(a, -0.5f, b);
  }
  unsigned j = (unsigned)g * 5u;
  float r = a * b;
  float u = t[j & 7u] + t[(j + 3u) & 7u];
  return r + u;
}

/* runs kernel `name`(in, out[, *arg]) on g work-items in groups of l (0:
 * the runtime's choice) and reads out back */
static void run_1d(struct test_env *env, cl_program p, const char *name, const void *in,
                   size_t in_bytes, void *out, size_t out_bytes, const int *arg, size_t g,
                   size_t l) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  cl_mem bi = test_buffer_with(env, in_bytes, in), bo = test_buffer_with(env, out_bytes, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  if (arg)
    CHECK_OK(clSetKernelArg(k, 2, sizeof *arg, arg));
  CHECK_OK(test_run(env, k, 1, NULL, &g, l ? &l : NULL));
  test_read_back(env, bo, out_bytes, out);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
}

static void test_float(struct test_env *env, cl_program p, size_t g, size_t l) {
  float *in = malloc(g * sizeof *in), *out = malloc(g * sizeof *out);
  uint64_t s = 11;
  for (size_t i = 0; i < g; i++)
    in[i] = (float)(test_xorshift64(&s) % 8000) / 1000.0f;
  int rounds = 300;
  run_1d(env, p, "pfloat", in, g * sizeof *in, out, g * sizeof *out, &rounds, g, l);
  int bad = 0;
  for (size_t i = 0; i < g; i++)
    bad += out[i] != ref_float(in[i], rounds); /* the sum's order is the kernel's */
  CHECK(bad == 0);
  free(in);
  free(out);
}

static void test_double(struct test_env *env, cl_program p, size_t g, size_t l) {
  double *in = malloc(g * sizeof *in), *out = malloc(g * sizeof *out);
  uint64_t s = 5;
  for (size_t i = 0; i < g; i++)
    in[i] = (double)(test_xorshift64(&s) % 100000) / 1024.0;
  int rounds = 77;
  run_1d(env, p, "pdouble", in, g * sizeof *in, out, g * sizeof *out, &rounds, g, l);
  int bad = 0;
  for (size_t i = 0; i < g; i++)
    bad += out[i] != ref_double(in[i], i, rounds);
  CHECK(bad == 0);
  free(in);
  free(out);
}

static void test_char(struct test_env *env, cl_program p, size_t g, size_t l) {
  unsigned char *in = malloc(g);
  cl_uint *out = malloc(g * sizeof *out);
  uint64_t s = 3;
  for (size_t i = 0; i < g; i++)
    in[i] = (unsigned char)test_xorshift64(&s);
  int n = 90;
  run_1d(env, p, "pchar", in, g, out, g * sizeof *out, &n, g, l);
  int bad = 0;
  for (size_t i = 0; i < g; i++)
    bad += out[i] != ref_char(in[i], n);
  CHECK(bad == 0);
  free(in);
  free(out);
}

static void test_chain(struct test_env *env, cl_program p, size_t g, size_t l) {
  float *in = malloc(g * sizeof *in), *out = malloc(g * sizeof *out);
  uint64_t s = 17;
  for (size_t i = 0; i < g; i++)
    in[i] = (float)(test_xorshift64(&s) % 1000) / 1000.0f;
  int n = 200;
  run_1d(env, p, "pchain", in, g * sizeof *in, out, g * sizeof *out, &n, g, l);
  int bad = 0;
  for (size_t i = 0; i < g; i++) {
    float want = ref_chain(in[i], i, n);
    bad += !(fabsf(out[i] - want) <= 1e-5f * fabsf(want));
  }
  CHECK(bad == 0);
  free(in);
  free(out);
}

/* chains of dependent multiply-adds: the work-item loop is several
 * registers wide and unrolled and jammed (vectorize/interleave_items.c), so
 * the array needs a copy for every work-item of all of them */
static void test_wide(struct test_env *env, cl_program p, size_t g, size_t l) {
  float *in = malloc(g * sizeof *in), *out = malloc(g * sizeof *out);
  uint64_t s = 23;
  for (size_t i = 0; i < g; i++)
    in[i] = (float)(test_xorshift64(&s) % 1000) / 4096.0f;
  run_1d(env, p, "pwide", in, g * sizeof *in, out, g * sizeof *out, NULL, g, l);
  int bad = 0;
  for (size_t i = 0; i < g; i++)
    bad += out[i] != ref_wide(in[i], i);
  CHECK(bad == 0);
  free(in);
  free(out);
}

/* three arrays of 8 KB: kept per lane they would take 384 KB of stack, over
 * the region's budget, so the region runs one work-item at a time, with the
 * same results */
static void test_big(struct test_env *env, cl_program p, size_t g, size_t l) {
  cl_uint *in = malloc(g * sizeof *in), *out = malloc(g * sizeof *out);
  uint64_t s = 29;
  for (size_t i = 0; i < g; i++)
    in[i] = (cl_uint)test_xorshift64(&s);
  int n = 300;
  run_1d(env, p, "pbig", in, g * sizeof *in, out, g * sizeof *out, &n, g, l);
  int bad = 0;
  static cl_uint a[2048], b[2048], c[2048];
  for (size_t k = 0; k < g; k++) {
    for (cl_uint i = 0; i < 2048; i++) {
      a[i] = in[k] + i;
      b[i] = in[k] ^ i;
      c[i] = i;
    }
    cl_uint j = in[k] & 2047u, sum = 0;
    for (int r = 0; r < n; r++) {
      j = (j * 5u + 1u) & 2047u;
      a[j] += b[(j + 7u) & 2047u];
      c[(j + 3u) & 2047u] ^= a[j];
      sum += c[j];
    }
    bad += out[k] != sum + a[j] + b[j];
  }
  CHECK(bad == 0);
  free(in);
  free(out);
}

static void test_2d(struct test_env *env, cl_program p, size_t w, size_t h, size_t lx, size_t ly) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "p2d", &err);
  CHECK_OK(err);
  int *in = malloc(w * h * sizeof *in), *out = malloc(w * h * sizeof *out);
  int *want = malloc(w * h * sizeof *want);
  test_pattern(in, w * h, 9);
  int n = 40;
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) {
      int q[16], acc = 0;
      for (int i = 0; i < 16; i++)
        q[i] = in[y * w + x] + i * (int)y;
      for (int i = 0; i < n; i++) {
        int j = ((int)x + i * 3) & 15;
        acc += q[j];
        q[(j + 1) & 15] = acc;
      }
      want[y * w + x] = acc;
    }
  cl_mem bi = test_buffer_with(env, w * h * sizeof *in, in);
  cl_mem bo = test_buffer_with(env, w * h * sizeof *out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 2, sizeof n, &n));
  size_t g[2] = {w, h}, l[2] = {lx, ly};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, bo, w * h * sizeof *out, out);
  CHECK(test_count_diff(out, want, w * h, "p2d") == 0);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(in);
  free(out);
  free(want);
}

int main(void) {
  char path[] = "/tmp/loomcl-lanes-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  struct test_env env;
  test_env_init(&env);
  test_set_config("LOOMCL_DUMP_IR_OPT", path);
  test_set_config("LOOMCL_CACHE", "0");
  cl_program p = test_program_from(&env, src, NULL);
  test_set_config("LOOMCL_DUMP_IR_OPT", NULL);
  if (p) {
    cl_uint width = 0;
    CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof width,
                             &width, NULL));
    /* the array is kept per lane and the work-item loop vectorised: the
     * per-lane indices are gathers from the lanes' copies, the fill and
     * the sum whole vectors */
    char *ir = test_read_file(path);
    const char *f = ir ? strstr(ir, "define void @pfloat.loom_wg(") : NULL;
    const char *end = f ? strstr(f + 1, "\ndefine ") : NULL;
    char *pf = f ? strndup(f, end ? (size_t)(end - f) : strlen(f)) : NULL;
    char gather[64], store[64];
    snprintf(gather, sizeof gather, "@llvm.masked.gather.v%uf32.v%up0(", width, width);
    snprintf(store, sizeof store, "store <%u x float>", width);
    CHECK(pf && !strstr(pf, "alloca [64 x float]"));
    f = ir ? strstr(ir, "define void @pbig.loom_wg(") : NULL;
    end = f ? strstr(f + 1, "\ndefine ") : NULL;
    char *pb = f ? strndup(f, end ? (size_t)(end - f) : strlen(f)) : NULL;
    CHECK(pb && !strstr(pb, "wide_private")); /* over the stack budget: not widened */
    free(pb);
    CHECK(width < 4 || (pf && strstr(pf, gather) && strstr(pf, store)));
    free(pf);
    free(ir);
    test_float(&env, p, 1024, 64);
    test_float(&env, p, 1000, 40); /* a remainder of 8 after each vector of 16 */
    test_float(&env, p, 37, 37);
    test_float(&env, p, 4096, 0);
    test_double(&env, p, 1000, 100);
    test_double(&env, p, 13, 13);
    test_char(&env, p, 999, 333);
    test_char(&env, p, 512, 256);
    test_chain(&env, p, 1024, 256);
    test_chain(&env, p, 300, 100);
    test_wide(&env, p, 512, 256);
    test_wide(&env, p, 390, 130); /* one wide round of 128, the rest narrow */
    test_wide(&env, p, 100, 100);
    test_big(&env, p, 200, 40);
    test_2d(&env, p, 48, 8, 16, 4);
    test_2d(&env, p, 30, 6, 10, 3);
    clReleaseProgram(p);
  }
  unlink(path);
  test_env_release(&env);
  return test_finish("test_private_lanes");
}
