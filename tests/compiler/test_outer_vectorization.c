/* Work-item loops whose body holds a loop are vectorised as outer loops
 * (VPlan's native path, then uniform recurrences turned back to scalars).
 * Each kernel here has inner loops of some shape: uniform trip counts (the
 * vectorised case: n-body with float4 values, a naive matrix product, nested
 * loops, zero-trip loops, gathers of per-work-item addresses, uniform loads
 * of one address, rows zeroed and copied per work-item, which O3 would turn
 * into memset/memcpy calls), and trip counts that differ per work-item (which must stay
 * correct whatever the compiler does). Local sizes that are not multiples of
 * the vector width exercise the remainder; results against host references.
 * The n-body kernel's optimised IR must hold 512-bit float vectors on
 * AVX-512 machines. */
#include "harness.h"
#include <math.h>
#include <unistd.h>

static const char *src =
    "kernel void nbody(global const float4 *pos, global float4 *acc, int n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 p = pos[i], a = (float4)(0.0f);\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 d = pos[j] - p;\n"
    "    float inv = rsqrt(dot(d.xyz, d.xyz) + 0.01f);\n"
    "    a += d * (inv * inv * inv);\n"
    "  }\n"
    "  acc[i] = a;\n"
    "}\n"
    "kernel void matmul(global const float *A, global const float *B, global float *C,\n"
    "                   int n) {\n"
    "  int r = get_global_id(1), c = get_global_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < n; k++) s += A[r * n + k] * B[k * n + c];\n"
    "  C[r * n + c] = s;\n"
    "}\n"
    "kernel void nested(global const int *in, global int *out, int n, int m) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int s = 0;\n"
    "  for (int a = 0; a < n; a++)\n"
    "    for (int b = 0; b < m; b++) s += in[(i + a * 7 + b) % 97] * (a - b);\n"
    "  out[i] = s;\n"
    "}\n"
    "kernel void divergent(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int s = 0;\n"
    "  for (int k = 0; k < (int)(i % 13); k++) s += in[k] ^ (int)i;\n"
    "  out[i] = s;\n"
    "}\n"
    "kernel void with_barrier(global const float *in, global float *out, local float *t,\n"
    "                         int n) {\n"
    "  size_t l = get_local_id(0), g = get_global_id(0);\n"
    "  t[l] = in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < n; k++) s += t[(l + k) % get_local_size(0)] * (float)k;\n"
    "  out[g] = s;\n"
    "}\n"
    "kernel void chains(global uint *u, global float *f, int n) {\n"
    "  size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
    "  uint x = (uint)g + 1, y = (uint)get_local_id(0) * 3 + 7;\n"
    "  float a = (float)(g % 17) * 0.25f, b = 1.0f + (float)get_local_id(0) * 0.125f;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    x = y * x + y; y = x * y + x;\n"
    "    a = fma(b, 0.5f, a); b = fma(a, -0.25f, b);\n"
    "  }\n"
    "  u[g] = x ^ y;\n"
    "  f[g] = a + b;\n"
    "}\n"
    "kernel void jchain(global float *f, int n) {\n"
    "  size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
    "  float a = (float)(g % 13) * 0.125f, b = 0.5f + (float)get_local_id(0) * 0.25f;\n"
    "  for (int i = 0; i < 37; i++) {\n"
    "    a = fma(b, 0.5f, a); b = fma(a, -0.25f, b); a = fma(b, 0.75f, a); b = fma(a, -0.5f, b);\n"
    "  }\n"
    "  f[g] = a * b;\n"
    "}\n"
    "kernel void fchain(global float *f, int n) {\n"
    "  size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
    "  float a = (float)(g % 17) * 0.25f, b = 1.0f + (float)get_local_id(0) * 0.125f;\n"
    "  for (int i = 0; i < n; i++) { a = fma(b, 0.5f, a); b = fma(a, -0.25f, b); }\n"
    "  f[g] = a - b;\n"
    "}\n"
    "kernel void counted(global const int *in, global int *out, int a, int b, uint u,\n"
    "                    long lo, long hi) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int s = 0;\n"
    "  for (int k = a; k < b; k += 3) s += in[(i + k + 64) % 97] * k;\n"
    "  for (int k = b; k > a; k -= 2) s ^= in[(i * 3 + k + 64) % 97] + k;\n"
    "  for (int k = a; k <= b; k += 4) s += k * (int)i;\n"
    "  for (uint k = 1; k < u; k += 5) s += in[(i + k) % 97] >> 1;\n"
    "  for (int k = b; k >= a; k--) s -= k;\n"
    "  for (long k = lo; k < hi; k += 1L << 60) s += (int)(k >> 58);\n"
    "  out[i] = s;\n"
    "}\n"
    "kernel void tile_gemm(global const float4 *A, global const float *B, global float4 *C,\n"
    "                      int K, int M4, int N) {\n"
    "  int m = get_global_id(0), n0 = get_global_id(1) * 4;\n"
    "  float4 acc[4], a[1];\n"
    "  float b[4];\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < 4; j++) acc[j] = (float4)(0.0f);\n"
    "  for (int k = 0; k < K; k += 2) {\n"
    "    _Pragma(\"unroll\") for (int kk = 0; kk < 2; kk++) {\n"
    "      a[0] = A[(k + kk) * M4 + m];\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < 4; j++) b[j] = B[(k + kk) * N + n0 + j];\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < 4; j++) acc[j] = mad(a[0], (float4)(b[j]), acc[j]);\n"
    "    }\n"
    "  }\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < 4; j++) C[(n0 + j) * M4 + m] = acc[j];\n"
    "}\n"
    "kernel void tiled(global const float *A, global const float *B, global float *C, int K,\n"
    "                  int T, local float *tb) {\n"
    "  int l = get_local_id(0), g = get_global_id(0), n = get_global_size(0);\n"
    "  volatile int vl = l;\n"
    "  float acc = 0.0f;\n"
    "  int kw = 0;\n"
    "  for (; kw + T <= K; kw += T) {\n"
    "    if (vl < T) tb[vl] = B[kw + vl];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int p = 0; p < T; p++) acc += tb[p] * A[(kw + p) * n + g];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  for (; kw < K; kw++) acc += B[kw] * A[kw * n + g];\n"
    "  C[g] = acc;\n"
    "}\n"
    "kernel void twoexit(global const float *A, global float *C, int K, int R, local float *t) {\n"
    "  int g = get_global_id(0), l = get_local_id(0), n = get_global_size(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int r = 0; r < R; r++) {\n"
    "    t[l] = A[r * n + g];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    acc *= 0.5f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < K; k++) acc += A[r * n + (g + k) % n] * (float)(k + t[l]);\n"
    "  }\n"
    "  C[g] = acc;\n"
    "}\n"
    "kernel void colscan(global const int *in, global int *out, global uchar *flag, int K) {\n"
    "  local int ld[64][17];\n"
    "  int lid = get_local_id(0), W = get_local_size(0);\n"
    "  long base = get_group_id(0) * (long)(K * W);\n"
    "  for (long k = 0; k < K; k++) {\n"
    "    long off = k * W + lid;\n"
    "    ld[off % K][off / K] = in[base + off];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (int k = 0; k < K; k++) { s += ld[k][lid]; ld[k][lid] = s; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int k = 0; k < K; k++) {\n"
    "    int off = k * W + lid;\n"
    "    out[base + off] = ld[off % K][off / K];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int k = 0; k < K; k++) flag[get_global_id(0) * K + k] = (uchar)s;\n"
    "}\n"
    "kernel void rows(global ushort8 *dst, local ushort8 *l, int per) {\n"
    "  for (int i = 0; i < per; i++) l[get_local_id(0) * per + i] = (ushort8)(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = 0; i < per; i++)\n"
    "    dst[get_global_id(0) * per + i] = l[get_local_id(0) * per + i] + (ushort8)((ushort)i);\n"
    "}\n";

/* a copy of function name's definition in the module text ir, or NULL */
static char *function_text(const char *ir, const char *name) {
  char head[128];
  snprintf(head, sizeof head, "define void @%s(", name);
  const char *f = ir ? strstr(ir, head) : NULL;
  if (!f)
    return NULL;
  const char *end = strstr(f + 1, "\ndefine ");
  return strndup(f, end ? (size_t)(end - f) : strlen(f));
}

static bool close_to(float got, double want, double tol) {
  return fabs((double)got - want) <= tol * (1.0 + fabs(want));
}

static void test_nbody(struct test_env *env, cl_program p, int n, size_t local) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "nbody", &err);
  CHECK_OK(err);
  float *pos = malloc(sizeof(float) * 4 * (size_t)n);
  for (int i = 0; i < 4 * n; i++)
    pos[i] = (float)((i * 37 % 101) - 50) / 10.0f;
  cl_mem bp = test_buffer_with(env, sizeof(float) * 4 * (size_t)n, pos);
  cl_mem ba = test_buffer_with(env, sizeof(float) * 4 * (size_t)n, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bp, &bp));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 2, sizeof n, &n));
  size_t g = (size_t)n;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &local));
  float *acc = malloc(sizeof(float) * 4 * (size_t)n);
  test_read_back(env, ba, sizeof(float) * 4 * (size_t)n, acc);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double a[4] = {0, 0, 0, 0};
    for (int j = 0; j < n; j++) {
      double d[4];
      for (int c = 0; c < 4; c++)
        d[c] = (double)pos[4 * j + c] - (double)pos[4 * i + c];
      double inv = 1.0 / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01);
      for (int c = 0; c < 4; c++)
        a[c] += d[c] * inv * inv * inv;
    }
    for (int c = 0; c < 4; c++)
      if (!close_to(acc[4 * i + c], a[c], 1e-3) && bad++ < 4)
        fprintf(stderr, "nbody n=%d body %d[%d]: got %g want %g\n", n, i, c, acc[4 * i + c],
                a[c]);
  }
  CHECK(bad == 0);
  free(pos);
  free(acc);
  clReleaseMemObject(bp);
  clReleaseMemObject(ba);
  clReleaseKernel(k);
}

static void test_matmul(struct test_env *env, cl_program p, int n, size_t lx, size_t ly) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "matmul", &err);
  CHECK_OK(err);
  size_t bytes = sizeof(float) * (size_t)n * (size_t)n;
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  for (int i = 0; i < n * n; i++) {
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) * 0.5f;
  }
  cl_mem ba = test_buffer_with(env, bytes, a), bb = test_buffer_with(env, bytes, b),
         bc = test_buffer_with(env, bytes, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t g[2] = {(size_t)n, (size_t)n}, l[2] = {lx, ly};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, bc, bytes, c);
  int bad = 0;
  for (int r = 0; r < n; r++)
    for (int col = 0; col < n; col++) {
      float s = 0; /* small integers and halves: exact in float */
      for (int kk = 0; kk < n; kk++)
        s += a[r * n + kk] * b[kk * n + col];
      if (c[r * n + col] != s && bad++ < 4)
        fprintf(stderr, "matmul n=%d [%d][%d]: got %g want %g\n", n, r, col, c[r * n + col], s);
    }
  CHECK(bad == 0);
  free(a);
  free(b);
  free(c);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
}

static void test_int_kernels(struct test_env *env, cl_program p) {
  enum { N = 200 };
  int in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 2654435761u) >> 20;
  cl_mem bi = test_buffer_with(env, sizeof in, in);
  cl_mem bo = test_buffer_with(env, sizeof out, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "nested", &err);
  CHECK_OK(err);
  const int shapes[][2] = {{3, 5}, {0, 4}, {4, 0}, {1, 1}, {9, 17}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int n = shapes[s][0], m = shapes[s][1];
    CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 2, sizeof n, &n));
    CHECK_OK(clSetKernelArg(k, 3, sizeof m, &m));
    size_t g = N, l = 40;
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bo, sizeof out, out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      int want = 0;
      for (int a = 0; a < n; a++)
        for (int b = 0; b < m; b++)
          want += in[(i + a * 7 + b) % 97] * (a - b);
      bad += out[i] != want;
    }
    CHECK(bad == 0);
  }
  clReleaseKernel(k);
  k = clCreateKernel(p, "divergent", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  size_t g = N, l = 25;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, bo, sizeof out, out);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int kk = 0; kk < i % 13; kk++)
      want += in[kk] ^ i;
    bad += out[i] != want;
  }
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
}

/* inner loops counted every way (steps up and down, strict and not,
 * unsigned, negative and empty ranges): vectorised, they run with a
 * canonical counter and a trip count computed before the loop
 * (vectorize/outer_prepare.c) */
static void test_counted(struct test_env *env, cl_program p) {
  enum { N = 150 };
  int in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (int)((i * 2654435761u) >> 22) - 300;
  cl_mem bi = test_buffer_with(env, sizeof in, in);
  cl_mem bo = test_buffer_with(env, sizeof out, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "counted", &err);
  CHECK_OK(err);
  const int shapes[][3] = {{-7, 20, 30}, {5, 5, 0}, {10, -3, 1}, {0, 1, 6}, {-40, -33, 101}, {3, 4, 2}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
    int a = shapes[sh][0], b = shapes[sh][1];
    cl_uint u = (cl_uint)shapes[sh][2];
    CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 2, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 3, sizeof b, &b));
    CHECK_OK(clSetKernelArg(k, 4, sizeof u, &u));
    /* a 64-bit range wider than 2^63 (12 iterations): such counters keep
     * their form (a signed 64-bit difference would take it for empty) */
    cl_long lo = sh % 2 ? INT64_MIN : 0, hi = sh % 2 ? (cl_long)1 << 62 : (cl_long)3 << 60;
    CHECK_OK(clSetKernelArg(k, 5, sizeof lo, &lo));
    CHECK_OK(clSetKernelArg(k, 6, sizeof hi, &hi));
    size_t g = N, l = 50;
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bo, sizeof out, out);
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
      int s = 0;
      for (int kk = a; kk < b; kk += 3)
        s += in[(i + (size_t)kk + 64) % 97] * kk;
      for (int kk = b; kk > a; kk -= 2)
        s ^= in[(i * 3 + (size_t)kk + 64) % 97] + kk;
      for (int kk = a; kk <= b; kk += 4)
        s += kk * (int)i;
      for (cl_uint kk = 1; kk < u; kk += 5)
        s += in[(i + kk) % 97] >> 1;
      for (int kk = b; kk >= a; kk--)
        s -= kk;
      for (cl_long kk = lo; kk < hi; kk += (cl_long)1 << 60)
        s += (int)(kk >> 58);
      bad += out[i] != s;
    }
    CHECK(bad == 0);
  }
  clReleaseKernel(k);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
}

/* a register-tiled product in CLBlast's style: private arrays indexed by
 * the counters of unrolled loops (workgroup/private_arrays.c), an inner
 * loop stepping by 2 */
static void test_tile_gemm(struct test_env *env, cl_program p, int K, int M4, int N, size_t lx,
                           size_t ly) {
  int M = 4 * M4;
  float *A = malloc(sizeof(float) * K * M), *B = malloc(sizeof(float) * K * N);
  float *C = malloc(sizeof(float) * N * M);
  for (int i = 0; i < K * M; i++)
    A[i] = (float)((i * 37) % 19) * 0.125f - 1.0f;
  for (int i = 0; i < K * N; i++)
    B[i] = (float)((i * 11) % 23) * 0.0625f - 0.5f;
  cl_mem ba = test_buffer_with(env, sizeof(float) * K * M, A);
  cl_mem bb = test_buffer_with(env, sizeof(float) * K * N, B);
  cl_mem bc = test_buffer_with(env, sizeof(float) * N * M, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "tile_gemm", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(k, 3, sizeof K, &K));
  CHECK_OK(clSetKernelArg(k, 4, sizeof M4, &M4));
  CHECK_OK(clSetKernelArg(k, 5, sizeof N, &N));
  size_t g[2] = {(size_t)M4, (size_t)N / 4}, l[2] = {lx, ly};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, bc, sizeof(float) * N * M, C);
  int bad = 0;
  for (int n = 0; n < N; n++)
    for (int m = 0; m < M; m++) {
      double want = 0;
      for (int kk = 0; kk < K; kk++)
        want += (double)A[kk * M + m] * B[kk * N + n];
      bad += !close_to(C[n * M + m], want, 1e-4);
    }
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  free(A);
  free(B);
  free(C);
}

/* a loop around barriers (CLBlast's local-memory GEMMs): the region
 * between them runs an inner loop with the loop's counter kw, a value the
 * whole group shares (a uniform view), vectorised as an outer loop; the
 * region after the second barrier ends either back at the first or past the
 * loop, so it is not (outer_loop.c, one_result); a volatile private
 * variable is a plain one (private_arrays.c) */
static void test_tiled(struct test_env *env, cl_program p) {
  enum { N = 48, KMAX = 70 };
  float *A = malloc(sizeof(float) * KMAX * N), B[KMAX], C[N];
  for (int i = 0; i < KMAX * N; i++)
    A[i] = (float)((i * 13) % 17) * 0.25f - 2.0f;
  for (int i = 0; i < KMAX; i++)
    B[i] = (float)(i % 5) - 1.5f;
  cl_mem ba = test_buffer_with(env, sizeof(float) * KMAX * N, A);
  cl_mem bb = test_buffer_with(env, sizeof B, B);
  cl_mem bc = test_buffer_with(env, sizeof C, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "tiled", &err);
  CHECK_OK(err);
  const int shapes[][3] = {{0, 8, 16}, {5, 8, 16}, {16, 8, 16}, {37, 8, 24}, {64, 8, 16}, {70, 16, 48}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
    int K = shapes[sh][0], T = shapes[sh][1];
    size_t g = N, l = (size_t)shapes[sh][2];
    CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
    CHECK_OK(clSetKernelArg(k, 3, sizeof K, &K));
    CHECK_OK(clSetKernelArg(k, 4, sizeof T, &T));
    CHECK_OK(clSetKernelArg(k, 5, sizeof(float) * T, NULL));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bc, sizeof C, C);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      double want = 0;
      for (int kk = 0; kk < K; kk++)
        want += (double)B[kk] * A[kk * N + i];
      bad += !close_to(C[i], want, 1e-5);
    }
    CHECK(bad == 0);
  }
  clReleaseKernel(k);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  free(A);
}

/* a region that runs an inner loop and then ends at either of two places
 * (back to the top of the loop around the barriers, or past it): as one
 * outer loop, LLVM 19 got the region's result wrong and the kernel ended
 * after one round (outer_loop.c, one_result); the group-uniform `r < R`
 * now gives each side its own region function, an outer loop of one
 * result (workgroup/region_versions.c) */
/* PyOpenCL's scan, in short: an interval copied through local memory
 * transposed (`ld[off % K][off / K]`), each work-item's column scanned in
 * place, copied back. The loops store inside the work-item loop: a loaded
 * value 16 elements apart, a computed one, a loaded value at consecutive
 * addresses of a 64-bit and a 32-bit counter (outer-vectorised: none can
 * become a memcpy), and bytes at consecutive addresses, which could (a
 * memset), so that region stays scalar. Every group size up to 16 and K. */
static void test_colscan(struct test_env *env, cl_program p) {
  enum { KMAX = 64, WMAX = 16, GROUPS = 5, N = KMAX * WMAX * GROUPS };
  static int in[N], out[N];
  static unsigned char flag[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 37) % 101 - 50;
  cl_mem bi = test_buffer_with(env, sizeof in, in);
  cl_mem bo = test_buffer_with(env, sizeof out, NULL);
  cl_mem bf = test_buffer_with(env, sizeof flag, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "colscan", &err);
  CHECK_OK(err);
  const int shapes[][2] = {{16, 64}, {16, 16}, {8, 32}, {5, 20}, {16, 17}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
    int W = shapes[sh][0], K = shapes[sh][1];
    size_t g = (size_t)W * GROUPS, l = (size_t)W;
    CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 2, sizeof bf, &bf));
    CHECK_OK(clSetKernelArg(k, 3, sizeof K, &K));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bo, sizeof out, out);
    test_read_back(env, bf, sizeof flag, flag);
    /* column j of a group's K x W block is its elements j*K .. j*K+K-1 */
    int bad = 0;
    for (int grp = 0; grp < GROUPS; grp++)
      for (int j = 0; j < W; j++) {
        int s = 0, base = grp * K * W;
        for (int i = 0; i < K; i++) {
          s += in[base + j * K + i];
          bad += out[base + j * K + i] != s;
        }
        for (int i = 0; i < K; i++)
          bad += flag[(grp * W + j) * K + i] != (unsigned char)s;
      }
    if (bad)
      fprintf(stderr, "colscan W %d K %d: %d wrong\n", W, K, bad);
    CHECK(bad == 0);
  }
  clReleaseKernel(k);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseMemObject(bf);
}

static void test_two_exits(struct test_env *env, cl_program p) {
  enum { N = 64, RMAX = 5 };
  float A[RMAX * N], C[N];
  for (int i = 0; i < RMAX * N; i++)
    A[i] = (float)((i * 7) % 11) * 0.5f - 2.0f;
  cl_mem ba = test_buffer_with(env, sizeof A, A);
  cl_mem bc = test_buffer_with(env, sizeof C, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "twoexit", &err);
  CHECK_OK(err);
  const int shapes[][2] = {{3, 1}, {5, 3}, {0, 4}, {7, 5}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
    int K = shapes[sh][0], R = shapes[sh][1];
    size_t g = N, l = 32;
    CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CHECK_OK(clSetKernelArg(k, 2, sizeof K, &K));
    CHECK_OK(clSetKernelArg(k, 3, sizeof R, &R));
    CHECK_OK(clSetKernelArg(k, 4, sizeof(float) * l, NULL));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bc, sizeof C, C);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      double acc = 0;
      for (int r = 0; r < R; r++) {
        acc *= 0.5;
        for (int kk = 0; kk < K; kk++)
          acc += (double)A[r * N + (i + kk) % N] * (kk + A[r * N + i]);
      }
      bad += !close_to(C[i], acc, 1e-5);
    }
    CHECK(bad == 0);
  }
  clReleaseKernel(k);
  clReleaseMemObject(ba);
  clReleaseMemObject(bc);
}

static void test_with_barrier(struct test_env *env, cl_program p) {
  enum { N = 96 };
  float in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 11);
  cl_mem bi = test_buffer_with(env, sizeof in, in);
  cl_mem bo = test_buffer_with(env, sizeof out, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "with_barrier", &err);
  CHECK_OK(err);
  size_t l = 24;
  int n = 30;
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 2, sizeof(float) * l, NULL));
  CHECK_OK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, bo, sizeof out, out);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    size_t base = (size_t)i / l * l, li = (size_t)i % l;
    float s = 0;
    for (int kk = 0; kk < n; kk++)
      s += in[base + (li + (size_t)kk) % l] * (float)kk;
    bad += out[i] != s;
  }
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
}

/* Inner loops bound by a chain of dependent operations run several
 * registers of work-items side by side (vectorize/interleave_items.c): a
 * wide loop over the largest multiple of its width (32 work-items for
 * "chains", 64 for "fchain" with AVX-512; 64 unrolled and jammed twice,
 * so 128, for "jchain", whose inner loop has a constant trip count: LLVM
 * 19's unroll-and-jam refuses the guarded inner loop a run-time count
 * leaves), the ordinary one over the rest.
 * Group sizes below, at and around those widths, in one and two
 * dimensions; exact results (wrapping integers, fused multiply-adds). */
static void test_chains(struct test_env *env, cl_program p) {
  static const size_t shapes[][4] = {{1, 1, 7, 1},     {17, 1, 34, 1},   {63, 1, 126, 1},
                                     {64, 1, 256, 1},  {65, 1, 130, 1},  {100, 1, 300, 1},
                                     {128, 1, 256, 1}, {200, 1, 400, 1}, {256, 1, 512, 1},
                                     {65, 3, 130, 6},  {32, 2, 96, 4},   {192, 2, 384, 4}};
  enum { N = 37, MAX = 2048 };
  cl_int err;
  cl_kernel kc = clCreateKernel(p, "chains", &err);
  CHECK_OK(err);
  cl_kernel kf = clCreateKernel(p, "fchain", &err);
  CHECK_OK(err);
  cl_kernel kj = clCreateKernel(p, "jchain", &err);
  CHECK_OK(err);
  cl_mem bu = test_buffer_with(env, sizeof(cl_uint) * MAX, NULL);
  cl_mem bf = test_buffer_with(env, sizeof(float) * MAX, NULL);
  cl_mem bg = test_buffer_with(env, sizeof(float) * MAX, NULL);
  cl_mem bj = test_buffer_with(env, sizeof(float) * MAX, NULL);
  int n = N;
  CHECK_OK(clSetKernelArg(kc, 0, sizeof bu, &bu));
  CHECK_OK(clSetKernelArg(kc, 1, sizeof bf, &bf));
  CHECK_OK(clSetKernelArg(kc, 2, sizeof n, &n));
  CHECK_OK(clSetKernelArg(kf, 0, sizeof bg, &bg));
  CHECK_OK(clSetKernelArg(kf, 1, sizeof n, &n));
  CHECK_OK(clSetKernelArg(kj, 0, sizeof bj, &bj));
  CHECK_OK(clSetKernelArg(kj, 1, sizeof n, &n));
  static cl_uint u[MAX];
  static float f[MAX], h[MAX], jv[MAX];
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    size_t l[2] = {shapes[s][0], shapes[s][1]}, g[2] = {shapes[s][2], shapes[s][3]};
    size_t items = g[0] * g[1];
    CHECK(items <= MAX);
    CHECK_OK(test_run(env, kc, 2, NULL, g, l));
    CHECK_OK(test_run(env, kf, 2, NULL, g, l));
    CHECK_OK(test_run(env, kj, 2, NULL, g, l));
    test_read_back(env, bu, sizeof(cl_uint) * items, u);
    test_read_back(env, bf, sizeof(float) * items, f);
    test_read_back(env, bg, sizeof(float) * items, h);
    test_read_back(env, bj, sizeof(float) * items, jv);
    int bad = 0;
    for (size_t i = 0; i < items; i++) {
      size_t lid = i % g[0] % l[0];
      cl_uint x = (cl_uint)i + 1, y = (cl_uint)lid * 3 + 7;
      float a = (float)(i % 17) * 0.25f, b = 1.0f + (float)lid * 0.125f;
      for (int k = 0; k < N; k++) {
        x = y * x + y;
        y = x * y + x;
        a = fmaf(b, 0.5f, a);
        b = fmaf(a, -0.25f, b);
      }
      bad += u[i] != (x ^ y) || f[i] != a + b || h[i] != a - b;
      float ja = (float)(i % 13) * 0.125f, jb = 0.5f + (float)lid * 0.25f;
      for (int k = 0; k < N; k++) {
        ja = fmaf(jb, 0.5f, ja);
        jb = fmaf(ja, -0.25f, jb);
        ja = fmaf(jb, 0.75f, ja);
        jb = fmaf(ja, -0.5f, jb);
      }
      bad += jv[i] != ja * jb;
    }
    if (bad)
      fprintf(stderr, "chains: %d wrong with local size %zux%zu\n", bad, l[0], l[1]);
    CHECK(bad == 0);
  }
  clReleaseMemObject(bu);
  clReleaseMemObject(bf);
  clReleaseMemObject(bg);
  clReleaseMemObject(bj);
  clReleaseKernel(kc);
  clReleaseKernel(kf);
  clReleaseKernel(kj);
}

/* Vectors read per work-item in a loop: each component is gathered across
 * work-items, and families of such gathers become whole loads and shuffles
 * when their lanes are contiguous (vectorize/gather_groups.c), else stay
 * gathers (the permuted reads). Every width of int, float and double; the
 * sums are exact. */
static void test_vector_reads(struct test_env *env) {
  static const char *fmt =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void rd(global const T *a, global const int *perm, global T *o, global T *q, int n) {\n"
      "  size_t g = get_global_id(0);\n"
      "  T s = 0, t = 0;\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    s += a[g + i * get_global_size(0)] * (T)(i + 1);\n"
      "    t += a[perm[g] + i * get_global_size(0)];\n"
      "  }\n"
      "  o[g] = s;\n"
      "  q[g] = t;\n"
      "}\n";
  static const char *const types[] = {"int2", "int4", "int8", "int16", "float2", "float4",
                                      "float8", "float16", "double2", "double4", "double8"};
  enum { G = 100, N = 5, L = 50 };
  for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
    bool is_double = types[t][0] == 'd', is_float = types[t][0] == 'f';
    unsigned width = (unsigned)atoi(types[t] + (is_double ? 6 : is_float ? 5 : 3));
    size_t elem = is_double ? 8 : 4, count = (size_t)G * N * width;
    char src[1024], opt[64];
    snprintf(src, sizeof src, "%s", fmt);
    snprintf(opt, sizeof opt, "-DT=%s", types[t]);
    cl_kernel k = test_kernel_from(env, src, "rd", opt);
    if (!k)
      continue;
    unsigned char *a = malloc(count * elem), *o = malloc((size_t)G * width * elem),
                  *q = malloc((size_t)G * width * elem);
    int perm[G];
    for (int i = 0; i < G; i++)
      perm[i] = (i * 37 + 11) % G;
    for (size_t i = 0; i < count; i++) {
      int v = (int)((i * 7919) % 1000) - 500;
      if (is_double)
        ((double *)a)[i] = v;
      else if (is_float)
        ((float *)a)[i] = (float)v;
      else
        ((int *)a)[i] = v;
    }
    cl_mem ma = test_buffer_with(env, count * elem, a), mp = test_buffer_with(env, sizeof perm, perm);
    cl_mem mo = test_buffer_with(env, (size_t)G * width * elem, NULL);
    cl_mem mq = test_buffer_with(env, (size_t)G * width * elem, NULL);
    int n = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK_OK(clSetKernelArg(k, 1, sizeof mp, &mp));
    CHECK_OK(clSetKernelArg(k, 2, sizeof mo, &mo));
    CHECK_OK(clSetKernelArg(k, 3, sizeof mq, &mq));
    CHECK_OK(clSetKernelArg(k, 4, sizeof n, &n));
    size_t g = G, l = L;
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, mo, (size_t)G * width * elem, o);
    test_read_back(env, mq, (size_t)G * width * elem, q);
    int bad = 0;
    for (size_t item = 0; item < G; item++)
      for (unsigned c = 0; c < width; c++) {
        double ws = 0, wt = 0, gs, gt;
        for (int i = 0; i < N; i++) {
          size_t at = (item + (size_t)i * G) * width + c, pt = ((size_t)perm[item] + (size_t)i * G) * width + c;
          double va = is_double ? ((double *)a)[at] : is_float ? ((float *)a)[at] : ((int *)a)[at];
          double vp = is_double ? ((double *)a)[pt] : is_float ? ((float *)a)[pt] : ((int *)a)[pt];
          ws += va * (i + 1);
          wt += vp;
        }
        size_t r = item * width + c;
        gs = is_double ? ((double *)o)[r] : is_float ? ((float *)o)[r] : ((int *)o)[r];
        gt = is_double ? ((double *)q)[r] : is_float ? ((float *)q)[r] : ((int *)q)[r];
        bad += gs != ws || gt != wt;
      }
    if (bad)
      fprintf(stderr, "vector reads %s: %d wrong\n", types[t], bad);
    CHECK(bad == 0);
    clReleaseMemObject(ma);
    clReleaseMemObject(mp);
    clReleaseMemObject(mo);
    clReleaseMemObject(mq);
    clReleaseKernel(k);
    free(a);
    free(o);
    free(q);
  }
}

static void test_rows(struct test_env *env, cl_program p) {
  enum { PER = 13, L = 30, N = 90 };
  cl_int err;
  cl_kernel k = clCreateKernel(p, "rows", &err);
  CHECK_OK(err);
  cl_mem bd = test_buffer_with(env, sizeof(cl_ushort8) * N * PER, NULL);
  int per = PER;
  CHECK_OK(clSetKernelArg(k, 0, sizeof bd, &bd));
  CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_ushort8) * L * PER, NULL));
  CHECK_OK(clSetKernelArg(k, 2, sizeof per, &per));
  size_t g = N, l = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  cl_ushort *out = malloc(sizeof(cl_ushort8) * N * PER);
  test_read_back(env, bd, sizeof(cl_ushort8) * N * PER, out);
  int bad = 0;
  for (int i = 0; i < N * PER * 8; i++)
    bad += out[i] != (cl_ushort)((i / 8) % PER);
  CHECK(bad == 0);
  free(out);
  clReleaseMemObject(bd);
  clReleaseKernel(k);
}

/* a constant vector store beside an inner loop: O3 makes the store a
 * memset, which the outer-loop vectoriser must never see (it crashed on
 * this shape, from the CTS generic address space tests) */
static void test_splat_store(struct test_env *env) {
  const char *k_src =
      "global char a[100] = {5, 6, 7};\n"
      "global char b[100] = {5, 6, 7};\n"
      "kernel void splat(global int *res) {\n"
      "  size_t i = get_global_id(0);\n"
      "  char *p = a;\n"
      "  vstore16((char16)(1), 2, p);\n"
      "  vstore16((char16)(1), 2, b);\n"
      "  int s = 0;\n"
      "  for (int j = 0; j < 100; j++)\n"
      "    if (a[j] == b[j])\n"
      "      s++;\n"
      "  res[i] = s;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, k_src, "splat", "-cl-std=CL3.0");
  if (!k)
    return;
  enum { G = 40 };
  cl_mem br = test_buffer_with(env, sizeof(int) * G, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof br, &br));
  size_t g = G, l = 20;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  int res[G];
  test_read_back(env, br, sizeof res, res);
  int bad = 0;
  for (int i = 0; i < G; i++)
    bad += res[i] != 100; /* every work-item stores the same 16 ones in both */
  CHECK(bad == 0);
  clReleaseMemObject(br);
  clReleaseKernel(k);
}

int main(void) {
  char path[] = "/tmp/loomcl-outer-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  test_set_config("LOOMCL_DUMP_IR_OPT", path);
  test_set_config("LOOMCL_CACHE", "0");
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, src, NULL);
  test_set_config("LOOMCL_DUMP_IR_OPT", NULL);
  if (p) {
    cl_uint width = 0;
    CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                             sizeof width, &width, NULL));
    char *ir = test_read_file(path);
    char *nb = function_text(ir, "nbody.loom_wg");
    /* the inner loop runs in SIMD lanes: its 1 / sqrt is a vector square
     * root, or on AVX-512 a vector reciprocal square root (fast_rsqrt.c) */
    char want[64], want_rsqrt[64];
    snprintf(want, sizeof want, "@llvm.sqrt.v%uf32", width);
    snprintf(want_rsqrt, sizeof want_rsqrt, "@llvm.x86.avx512.rsqrt14.ps.%u", width * 32);
    CHECK(nb && (strstr(nb, want) != NULL || strstr(nb, want_rsqrt) != NULL));
    /* fchain's chains run four registers of work-items together */
    char *fc = function_text(ir, "fchain.loom_wg");
    CHECK(width != 16 || (fc && strstr(fc, "<64 x float>")));
    /* jchain's are also unrolled and jammed: two copies of the chain */
    char *jc = function_text(ir, "jchain.loom_wg");
    size_t fmas = 0;
    for (const char *q = jc; q && (q = strstr(q, "@llvm.fma.v64f32")); q++)
      fmas++;
    CHECK(width != 16 || fmas >= 8);
    /* the register tiles became values and the work-item loop around the
     * k loop is vectorised: whole-register multiply-adds */
    char *tg = function_text(ir, "tile_gemm.loom_wg");
    char want_fma[64];
    snprintf(want_fma, sizeof want_fma, "@llvm.fmuladd.v%uf32", width);
    CHECK(width < 4 || (tg && strstr(tg, want_fma)));
    free(tg);
    /* tiled's inner loop region, with the group's kw, is an outer loop */
    CHECK(test_ir_fn_has_attr(ir, "tiled.loom_wg", "\"loom-outer-loops\""));
    free(jc);
    free(nb);
    free(fc);
    free(ir);
    test_chains(&env, p);
    test_nbody(&env, p, 256, 64);
    test_nbody(&env, p, 100, 20); /* remainder lanes */
    test_nbody(&env, p, 37, 37);
    test_matmul(&env, p, 48, 16, 4);
    test_matmul(&env, p, 30, 10, 3);
    test_int_kernels(&env, p);
    test_counted(&env, p);
    test_tiled(&env, p);
    test_two_exits(&env, p);
    test_colscan(&env, p);
    test_tile_gemm(&env, p, 64, 16, 32, 16, 4);
    test_tile_gemm(&env, p, 10, 5, 12, 5, 3); /* remainder lanes */
    test_with_barrier(&env, p);
    test_rows(&env, p);
    clReleaseProgram(p);
  }
  test_splat_store(&env);
  test_vector_reads(&env);
  unlink(path);
  test_env_release(&env);
  return test_finish("test_outer_vectorization");
}
