/* Groups narrower than a register, as tiled GEMMs run them: rows of
 * work-items jammed in the specialised code (vectorize/jam_rows.c), float4
 * tiles copied to local memory whole (vectorize/copy_groups.c) and unzipped
 * by two-source shuffles (vectorize/gather_groups.c), the group reshaped by
 * tid % 8 and tid / 8 made unsigned (workgroup/id_ranges.c). Every result
 * is checked against the host, for the specialised code (LOOMCL_SPECIALIZE
 * = always: the second launch of a size compiles and uses it) and the
 * generic one, for row counts the jam divides and those it does not, and
 * for copies whose lanes are not contiguous. */
#include "harness.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    /* CLBlast's Xgemm in small: 8 x 16 work-items, each a float4 of M by
     * two of N; A (K x M) and B (K x N) tiles copied to local memory as
     * float4 and float2 through the reshaped id */
    "#define KW 16\n"
    "kernel __attribute__((reqd_work_group_size(8, 16, 1)))\n"
    "void tgemm(int M, int N, int K, global const float4 *A, global const float2 *B,\n"
    "           global float *C) {\n"
    "  local float4 at[KW * 8];\n"
    "  local float2 bt[KW * 16];\n"
    "  int x = get_local_id(0), y = get_local_id(1), tid = x + 8 * y;\n"
    "  int gm = get_group_id(0) * 8, gn = get_group_id(1) * 16;\n"
    "  float4 c0 = 0.0f, c1 = 0.0f;\n"
    "  for (int k0 = 0; k0 < K; k0 += KW) {\n"
    "    at[(tid / 8) * 8 + tid % 8] = A[(k0 + tid / 8) * (M / 4) + gm + tid % 8];\n"
    "    for (int i = 0; i < 2; i++) {\n"
    "      int j = tid + 128 * i;\n"
    "      bt[(j / 16) * 16 + j % 16] = B[(k0 + j / 16) * (N / 2) + gn + j % 16];\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < KW; k++) {\n"
    "      float4 a = at[k * 8 + x];\n"
    "      float2 b = bt[k * 16 + y];\n"
    "      c0 = fma(a, (float4)(b.x), c0);\n"
    "      c1 = fma(a, (float4)(b.y), c1);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int m = (gm + x) * 4, n = (gn + y) * 2;\n"
    "  vstore4(c0, 0, C + n * M + m);\n"
    "  vstore4(c1, 0, C + (n + 1) * M + m);\n"
    "}\n"
    /* XgemmDirectTN's shape with CLBlast's Intel CPU parameters: 8 x 8
     * work-items, 4 x 4 results each, A's tile kept transposed (a work-item
     * reads its rows: gathers), a k loop of 16 trips left a loop. Its 8
     * rows run as 2 pairs, twice: the columns of A come from a table
     * (vectorize/row_tables.c) */
    "kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
    "void tn(int M, int N, int K, global const float *A, global const float *B,\n"
    "        global float *C) {\n"
    "  local float at[32 * 33], bt[32 * 33];\n"
    "  int x = get_local_id(0), y = get_local_id(1);\n"
    "  int gm = get_group_id(0) * 32, gn = get_group_id(1) * 32;\n"
    "  float c[16];\n"
    "  for (int i = 0; i < 16; i++) c[i] = 0.0f;\n"
    "  for (int k0 = 0; k0 < K; k0 += 32) {\n"
    "    for (int i = 0; i < 16; i++) {\n"
    "      int e = x + 8 * y + 64 * i, r = e / 32, col = e % 32;\n"
    "      at[r * 33 + col] = A[(gm + r) * K + k0 + col];\n"
    "      bt[r * 33 + col] = B[(k0 + r) * N + gn + col];\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    #pragma unroll 1\n"
    "    for (int k = 0; k < 32; k += 2) {\n"
    "      for (int kk = 0; kk < 2; kk++) {\n"
    "        float a[4], b[4];\n"
    "        for (int mi = 0; mi < 4; mi++) a[mi] = at[(x * 4 + mi) * 33 + k + kk];\n"
    "        for (int ni = 0; ni < 4; ni++) b[ni] = bt[(k + kk) * 33 + y * 4 + ni];\n"
    "        for (int ni = 0; ni < 4; ni++)\n"
    "          for (int mi = 0; mi < 4; mi++) c[ni * 4 + mi] = fma(a[mi], b[ni], c[ni * 4 + mi]);\n"
    "      }\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  for (int ni = 0; ni < 4; ni++)\n"
    "    for (int mi = 0; mi < 4; mi++)\n"
    "      C[(gn + y * 4 + ni) * M + gm + x * 4 + mi] = c[ni * 4 + mi];\n"
    "}\n"
    /* a row-invariant tile (t) and a row-varying vector (v) in the inner loop */
    "kernel void rows(global const float *w, global const float *v, global float *out, int K) {\n"
    "  local float t[64];\n"
    "  int x = get_local_id(0), y = get_local_id(1), lx = get_local_size(0);\n"
    "  for (int i = x + lx * y; i < 64; i += lx * (int)get_local_size(1)) t[i] = w[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int gy = get_global_id(1);\n"
    "  float acc = v[gy & 63];\n"
    "  for (int k = 0; k < K; k++)\n"
    "    acc = fma(t[(k * lx + x) & 63], v[(gy + k) & 63], acc);\n"
    "  out[gy * get_global_size(0) + get_global_id(0)] = acc;\n"
    "}\n"
    /* a float4 copy to local memory, contiguous (stride 1) or not */
    "kernel void copy4(global const float4 *in, global float4 *out, int stride) {\n"
    "  local float4 t[64];\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = in[get_group_id(0) * n * stride + l * stride];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[n - 1 - l] * 2.0f;\n"
    "}\n"
    /* XgemmDirect's store of a work-item's 4 x 4 results, C row-major (t)
     * or column-major: scatters of one element of every lane's four, the
     * index a select on t (vectorize/scatter_rows.c). S spaces the lanes
     * apart: with S = 64 and ldc = 2 a work-item's rows overlap (the
     * stores then keep their order) but never another's */
    "kernel void store44(global float *C, int t, int ldc, int S) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float c[16];\n"
    "  for (int i = 0; i < 16; i++) c[i] = (float)(x * 1000 + y * 100 + i);\n"
    "  for (int ni = 0; ni < 4; ni++)\n"
    "    for (int mi = 0; mi < 4; mi++) {\n"
    "      int idx = t ? (x * S + mi) * ldc + y * 4 + ni : (y * 4 + ni) * ldc + x * S + mi;\n"
    "      C[idx] = c[ni * 4 + mi];\n"
    "    }\n"
    "}\n"
    /* divisions of local-id arithmetic, negative ones too */
    "kernel void idm(global int *out) {\n"
    "  int x = get_local_id(0), y = get_local_id(1);\n"
    "  int tid = x + (int)get_local_size(0) * y;\n"
    "  int g = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[8 * g + 0] = (x - 3) % 4;\n"
    "  out[8 * g + 1] = (x - 3) / 4;\n"
    "  out[8 * g + 2] = (x - 5) >> 1;\n"
    "  out[8 * g + 3] = tid % 8;\n"
    "  out[8 * g + 4] = tid / 8;\n"
    "  out[8 * g + 5] = tid >> 2;\n"
    "  out[8 * g + 6] = (tid * 3 - 7) % 5;\n"
    "  out[8 * g + 7] = (y * 100) / 7;\n"
    "}\n";

static cl_kernel kernel_of(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  return k;
}

/* C (N x M) = A B through kernel `name`, twice (generic, then specialised
 * code): A is K x M (tgemm) or, with a_rows, M x K (tn); each work-item
 * computes 4 of M by `per_n` of N in groups of 8 x ly */
static void test_gemm(struct test_env *env, cl_program p, const char *name, bool a_rows,
                      int per_n, size_t ly, int M, int N, int K) {
  float *a = malloc(sizeof(float) * K * M), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * N * M);
  for (int i = 0; i < K * M; i++)
    a[i] = (float)((i * 7) % 11) - 5.0f;
  for (int i = 0; i < K * N; i++)
    b[i] = (float)((i * 5) % 13) - 6.0f;
  cl_kernel k = kernel_of(p, name);
  cl_mem ba = test_buffer_with(env, sizeof(float) * K * M, a);
  cl_mem bb = test_buffer_with(env, sizeof(float) * K * N, b);
  cl_mem bc = test_buffer_with(env, sizeof(float) * N * M, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof M, &M));
  CHECK_OK(clSetKernelArg(k, 1, sizeof N, &N));
  CHECK_OK(clSetKernelArg(k, 2, sizeof K, &K));
  CHECK_OK(clSetKernelArg(k, 3, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 4, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(k, 5, sizeof bc, &bc));
  size_t g[2] = {(size_t)M / 4, (size_t)(N / per_n)}, l[2] = {8, ly};
  for (int run = 0; run < 2; run++) {
    memset(c, 0, sizeof(float) * N * M);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, bc, CL_TRUE, 0, sizeof(float) * N * M, c, 0, NULL, NULL));
    CHECK_OK(test_run(env, k, 2, NULL, g, l));
    test_read_back(env, bc, sizeof(float) * N * M, c);
    int bad = 0;
    for (int n = 0; n < N; n++)
      for (int m = 0; m < M; m++) {
        float r = 0.0f; /* small integers: every order gives the same sum */
        for (int kk = 0; kk < K; kk++)
          r += a[a_rows ? m * K + kk : kk * M + m] * b[kk * N + n];
        bad += c[n * M + m] != r;
      }
    CHECK(bad == 0);
  }
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  free(a);
  free(b);
  free(c);
}

static void test_rows(struct test_env *env, cl_program p, size_t lx, size_t ly) {
  enum { K = 37 };
  size_t gx = 2 * lx, gy = 3 * ly;
  float w[64], v[64], *out = malloc(sizeof(float) * gx * gy);
  for (int i = 0; i < 64; i++) {
    w[i] = 0.25f * (float)((i * 3) % 17) - 2.0f;
    v[i] = 0.5f * (float)((i * 11) % 9) - 1.5f;
  }
  cl_kernel k = kernel_of(p, "rows");
  cl_mem bw = test_buffer_with(env, sizeof w, w), bv = test_buffer_with(env, sizeof v, v);
  cl_mem bo = test_buffer_with(env, sizeof(float) * gx * gy, NULL);
  int kk = K;
  CHECK_OK(clSetKernelArg(k, 0, sizeof bw, &bw));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bv, &bv));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 3, sizeof kk, &kk));
  size_t g[2] = {gx, gy}, l[2] = {lx, ly};
  for (int run = 0; run < 2; run++) {
    CHECK_OK(test_run(env, k, 2, NULL, g, l));
    test_read_back(env, bo, sizeof(float) * gx * gy, out);
    int bad = 0;
    for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++) {
        float acc = v[y & 63];
        for (int q = 0; q < K; q++)
          acc = fmaf(w[(q * (int)lx + (int)(x % lx)) & 63], v[(y + (size_t)q) & 63], acc);
        bad += out[y * gx + x] != acc;
      }
    CHECK(bad == 0);
  }
  clReleaseMemObject(bw);
  clReleaseMemObject(bv);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(out);
}

static void test_copy4(struct test_env *env, cl_program p, size_t l, int stride) {
  size_t groups = 3, g = groups * l, n = g * (size_t)stride * 4;
  float *in = malloc(sizeof(float) * n), *out = malloc(sizeof(float) * g * 4);
  for (size_t i = 0; i < n; i++)
    in[i] = (float)(i % 1000);
  cl_kernel k = kernel_of(p, "copy4");
  cl_mem bi = test_buffer_with(env, sizeof(float) * n, in);
  cl_mem bo = test_buffer_with(env, sizeof(float) * g * 4, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 2, sizeof stride, &stride));
  for (int run = 0; run < 2; run++) {
    CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
    test_read_back(env, bo, sizeof(float) * g * 4, out);
    int bad = 0;
    for (size_t i = 0; i < g; i++) {
      size_t grp = i / l, li = i % l, src = grp * l * (size_t)stride + (l - 1 - li) * (size_t)stride;
      for (int c = 0; c < 4; c++)
        bad += out[i * 4 + c] != 2.0f * in[src * 4 + c];
    }
    CHECK(bad == 0);
  }
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(in);
  free(out);
}

/* store44's element of work-item (x, y)'s result (mi, ni) */
static size_t store44_index(int t, int ldc, int S, size_t x, size_t y, int mi, int ni) {
  return t ? (x * (size_t)S + (size_t)mi) * (size_t)ldc + y * 4 + (size_t)ni
           : (y * 4 + (size_t)ni) * (size_t)ldc + x * (size_t)S + (size_t)mi;
}

/* store44 on gx x gy work-items (groups of 8 x 1) against the stores run
 * in order, work-item by work-item */
static void test_store44(struct test_env *env, cl_program p, int t, int ldc, int S, size_t gx, size_t gy) {
  size_t n = store44_index(t, ldc, S, gx - 1, gy - 1, 3, 3) + 1; /* the largest, both layouts */
  float *want = malloc(sizeof(float) * n), *got = malloc(sizeof(float) * n);
  for (size_t i = 0; i < n; i++)
    want[i] = -1.0f;
  for (size_t x = 0; x < gx; x++)
    for (size_t y = 0; y < gy; y++)
      for (int ni = 0; ni < 4; ni++)
        for (int mi = 0; mi < 4; mi++)
          want[store44_index(t, ldc, S, x, y, mi, ni)] = (float)(x * 1000 + y * 100) + (float)(ni * 4 + mi);
  cl_kernel k = kernel_of(p, "store44");
  cl_mem bc = test_buffer_with(env, sizeof(float) * n, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(k, 1, sizeof t, &t));
  CHECK_OK(clSetKernelArg(k, 2, sizeof ldc, &ldc));
  CHECK_OK(clSetKernelArg(k, 3, sizeof S, &S));
  size_t g[2] = {gx, gy}, l[2] = {8, 1};
  for (int run = 0; run < 2; run++) {
    for (size_t i = 0; i < n; i++)
      got[i] = -1.0f;
    CHECK_OK(clEnqueueWriteBuffer(env->queue, bc, CL_TRUE, 0, sizeof(float) * n, got, 0, NULL, NULL));
    CHECK_OK(test_run(env, k, 2, NULL, g, l));
    test_read_back(env, bc, sizeof(float) * n, got);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
      bad += got[i] != want[i];
    CHECK(bad == 0);
  }
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  free(want);
  free(got);
}

static void test_idm(struct test_env *env, cl_program p) {
  size_t g[2] = {16, 8}, l[2] = {8, 4}, n = 16 * 8 * 8;
  int *out = malloc(sizeof(int) * n);
  cl_kernel k = kernel_of(p, "idm");
  cl_mem bo = test_buffer_with(env, sizeof(int) * n, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  for (int run = 0; run < 2; run++) {
    CHECK_OK(test_run(env, k, 2, NULL, g, l));
    test_read_back(env, bo, sizeof(int) * n, out);
    int bad = 0;
    for (int gy = 0; gy < 8; gy++)
      for (int gx = 0; gx < 16; gx++) {
        int x = gx % 8, y = gy % 4, tid = x + 8 * y, gi = gx + 16 * gy;
        int want[8] = {(x - 3) % 4, (x - 3) / 4,  (x - 5) / 2 - ((x - 5) % 2 < 0),
                       tid % 8,     tid / 8,      tid >> 2,
                       (tid * 3 - 7) % 5, (y * 100) / 7};
        for (int i = 0; i < 8; i++)
          bad += out[8 * gi + i] != want[i];
      }
    CHECK(bad == 0);
  }
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(out);
}

int main(void) {
  setenv("LOOMCL_SPECIALIZE", "always", 1);
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, src, NULL);
  if (p) {
    test_gemm(&env, p, "tgemm", false, 2, 16, 64, 64, 48);
    test_gemm(&env, p, "tgemm", false, 2, 16, 32, 96, 16);
    test_gemm(&env, p, "tn", true, 4, 8, 64, 32, 96);
    test_rows(&env, p, 4, 6);  /* jammed by 2 */
    test_rows(&env, p, 8, 8);  /* by 4 */
    test_rows(&env, p, 4, 3);  /* 3 rows: not jammed */
    test_rows(&env, p, 16, 5); /* x fills the register */
    test_copy4(&env, p, 16, 1);
    test_copy4(&env, p, 16, 2);
    test_copy4(&env, p, 8, 1);
    test_copy4(&env, p, 64, 3);
    test_idm(&env, p);
    test_store44(&env, p, 1, 4 * 3 + 1, 4, 16, 3);  /* row-major: a store of 4 a lane */
    test_store44(&env, p, 0, 4 * 16 + 3, 4, 16, 3); /* column-major */
    test_store44(&env, p, 1, 2, 64, 16, 1);         /* a work-item's rows overlap */
    test_store44(&env, p, 0, 2, 64, 16, 1);
    clReleaseProgram(p);
  }
  test_env_release(&env);
  return test_finish("test_row_jam");
}
