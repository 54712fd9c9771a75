/* A tile loop around barriers with a remainder loop after it, the shape of
 * CLBlast's XgemmDirect: the region after the loop's last barrier either
 * copies the next tiles (back to the first barrier) or leaves into the
 * remainder and the stores, by the group-uniform tile counter. Such a
 * region gets one copy per side of that test (workgroup/region_versions.c),
 * and each work-item's 2x2 elements, addressed by their own 32-bit
 * indices, are copied as whole rows (vectorize/index_families.c,
 * copy_groups.c: four interleaved families of one block at once).
 *
 * C = A B over 16x16 tiles of 8x8 groups: A is M x K (row pitch lda), B is
 * K x P (pitch ldb), K from 0 (no tile) through several tiles plus a
 * remainder, row pitches that are and are not multiples of the tile.
 * Small integers: exact results, from the versioned regions of the
 * specialised kernel. Its optimised IR must hold the copies as whole-row
 * loads (copy.rows). tests/ir/wg-function/region-versions.ll checks the
 * versions themselves (in a kernel this small LLVM's loop unswitching
 * also splits the work-item loop; in CLBlast's XgemmDirectTN it did not).
 *
 * tiles4 copies its tile of A as float4 where the row pitch allows it and
 * element by element otherwise, as CLBlast's GlobalToLocalDirectA does: a
 * group-uniform if-else inside the copy region. The regions around the
 * tile loop's barriers get a third version, the copy side with that test
 * true too (no branch left in its work-item loop): the work-group
 * function picks one of three by two tests
 * (tests/ir/wg-function/uniform-versions.ll). Pitches that are multiples
 * of 4 and ones that are not run both (the element-by-element side doubles
 * A, so a wrong pick shows). */
#include "harness.h"
#include <unistd.h>

static const char *src =
    /* the tiles, the ids, the results; the tile loop's start */
    "#define TILE_LOOP \\\n"
    "  local float at[16 * 17], bt[16 * 17]; \\\n"
    "  int lx = get_local_id(0), ly = get_local_id(1); \\\n"
    "  int gm = get_group_id(0) * 16, gp = get_group_id(1) * 16; \\\n"
    "  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}}; \\\n"
    "  int k = 0; \\\n"
    "  for (; k + 16 <= K; k += 16) {\n"
    /* the tile's product, the tile loop's end, the remainder and the stores */
    "#define MULTIPLY_AND_STORE \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    for (int kk = 0; kk < 16; kk++) \\\n"
    "      for (int j = 0; j < 2; j++) \\\n"
    "        for (int i = 0; i < 2; i++) \\\n"
    "          acc[j][i] += at[(2 * lx + i) * 17 + kk] * bt[kk * 17 + 2 * ly + j]; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  } \\\n"
    "  for (; k < K; k++) \\\n"
    "    for (int j = 0; j < 2; j++) \\\n"
    "      for (int i = 0; i < 2; i++) \\\n"
    "        acc[j][i] += A[(gm + 2 * lx + i) * lda + k] * B[k * ldb + gp + 2 * ly + j]; \\\n"
    "  for (int j = 0; j < 2; j++) \\\n"
    "    for (int i = 0; i < 2; i++) \\\n"
    "      C[(gm + 2 * lx + i) * ldb + gp + 2 * ly + j] = acc[j][i];\n"
    "kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
    "void tiles(global const float *A, global const float *B, global float *C,\n"
    "           int K, int lda, int ldb) {\n"
    "  TILE_LOOP\n"
    "    for (int j = 0; j < 2; j++)\n"
    "      for (int i = 0; i < 2; i++) {\n"
    "        at[(2 * ly + j) * 17 + 2 * lx + i] = A[(gm + 2 * ly + j) * lda + k + 2 * lx + i];\n"
    "        bt[(2 * ly + j) * 17 + 2 * lx + i] = B[(k + 2 * ly + j) * ldb + gp + 2 * lx + i];\n"
    "      }\n"
    "  MULTIPLY_AND_STORE\n"
    "}\n"
    "kernel __attribute__((reqd_work_group_size(8, 8, 1)))\n"
    "void tiles4(global const float *A, global const float *B, global float *C,\n"
    "            int K, int lda, int ldb) {\n"
    "  TILE_LOOP\n"
    "    int tid = lx + 8 * ly, r = tid / 4, c = tid % 4 * 4;\n"
    "    if (lda % 4 == 0) {\n"
    "      float4 v = vload4(0, A + (gm + r) * lda + k + c);\n"
    "      at[r * 17 + c] = v.x;\n"
    "      at[r * 17 + c + 1] = v.y;\n"
    "      at[r * 17 + c + 2] = v.z;\n"
    "      at[r * 17 + c + 3] = v.w;\n"
    "    } else {\n"
    "      for (int i = 0; i < 4; i++)\n"
    "        at[r * 17 + c + i] = 2.0f * A[(gm + r) * lda + k + c + i];\n"
    "    }\n"
    "    for (int j = 0; j < 2; j++)\n"
    "      for (int i = 0; i < 2; i++)\n"
    "        bt[(2 * ly + j) * 17 + 2 * lx + i] = B[(k + 2 * ly + j) * ldb + gp + 2 * lx + i];\n"
    "  MULTIPLY_AND_STORE\n"
    "}\n";

/* odd: the tile part of the sum counts twice where lda is not a multiple
 * of 4 (tiles4's element-by-element copy doubles A, so that running the
 * wrong side of its test shows) */
static void run_tiles(struct test_env *env, cl_kernel k, bool odd, int M, int P, int K, int lda,
                      int ldb) {
  size_t na = (size_t)M * lda, nb = (size_t)(K ? K : 1) * ldb, nc = (size_t)M * ldb;
  float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B), *C = malloc(nc * sizeof *C);
  for (size_t i = 0; i < na; i++)
    A[i] = (float)((int)(i * 7 % 13) - 6);
  for (size_t i = 0; i < nb; i++)
    B[i] = (float)((int)(i * 5 % 11) - 5);
  cl_mem ba = test_buffer_with(env, na * sizeof *A, A);
  cl_mem bb = test_buffer_with(env, nb * sizeof *B, B);
  cl_mem bc = test_buffer_with(env, nc * sizeof *C, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(k, 3, sizeof K, &K));
  CHECK_OK(clSetKernelArg(k, 4, sizeof lda, &lda));
  CHECK_OK(clSetKernelArg(k, 5, sizeof ldb, &ldb));
  size_t g[2] = {(size_t)M / 2, (size_t)P / 2}, l[2] = {8, 8};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, bc, nc * sizeof *C, C);
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int p = 0; p < P; p++) {
      double s = 0;
      for (int kk = 0; kk < K; kk++)
        s += (odd && lda % 4 && kk < K / 16 * 16 ? 2.0 : 1.0) * A[(size_t)m * lda + kk] *
             B[(size_t)kk * ldb + p];
      if (C[(size_t)m * ldb + p] != (float)s && bad++ < 3)
        fprintf(stderr, "tiles K=%d lda=%d: C[%d][%d] = %g, want %g\n", K, lda, m, p,
                C[(size_t)m * ldb + p], s);
    }
  CHECK(bad == 0);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  free(A);
  free(B);
  free(C);
}

int main(void) {
  /* the specialised code (8x8 groups, each region's loops 8 lanes wide)
   * runs from the first launch, deterministically */
  setenv("LOOMCL_SPECIALIZE", "always", 1);
  char path[] = "/tmp/loomcl-versions-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  test_set_config("LOOMCL_CACHE", "0");
  struct test_env env;
  test_env_init(&env);
  cl_program p = test_program_from(&env, src, NULL);
  if (p) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, "tiles", &err);
    CHECK_OK(err);
    static const int shapes[][5] = {
        /* M, P, K, lda, ldb */
        {32, 32, 48, 48, 32}, {32, 32, 0, 32, 32},  {32, 32, 5, 32, 32},  {32, 32, 16, 32, 32},
        {32, 48, 37, 40, 48}, {16, 16, 70, 75, 19}, {48, 16, 33, 33, 16},
    };
    /* the first launch compiles the specialisation: its optimised IR */
    test_set_config("LOOMCL_DUMP_IR_OPT", path);
    run_tiles(&env, k, false, shapes[0][0], shapes[0][1], shapes[0][2], shapes[0][3], shapes[0][4]);
    test_set_config("LOOMCL_DUMP_IR_OPT", NULL);
    char *ir = test_read_file(path);
    /* the tile copies as whole rows: the 2x2 elements' interleaved
     * families, each member with its own index, combined at once */
    CHECK(ir && strstr(ir, "copy.rows"));
    free(ir);
    for (size_t i = 1; i < sizeof shapes / sizeof shapes[0]; i++)
      run_tiles(&env, k, false, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
    clReleaseKernel(k);
    k = clCreateKernel(p, "tiles4", &err);
    CHECK_OK(err);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
      run_tiles(&env, k, true, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  unlink(path);
  test_env_release(&env);
  return test_finish("test_region_versions");
}
