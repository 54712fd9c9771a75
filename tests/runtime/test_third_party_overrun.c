/* Issue 17: kernels of real applications write past the end of small
 * buffers (piglit's bswap: 24 work-items on a ushort2[8] buffer;
 * clz-optimizations likewise). That must never corrupt the process: buffer
 * storage is kept out of the malloc heap and padded, so a small overrun
 * lands in the buffer's own padding; neighbouring buffers keep their data
 * and the malloc heap survives (glibc used to abort with "corrupted size vs.
 * prev_size" at the next free). */
#include "harness.h"
#include <unistd.h>

static const char *src =
    "kernel void over(global uint *out, uint n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  out[g] = 0xDEAD0000u | (uint)g; /* launched on more items than out holds */\n"
    "}\n";

static void test_small_overruns(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, src, "over", NULL);
  if (!k)
    return;
  enum { BUFS = 64 };
  cl_mem victims[BUFS], targets[BUFS];
  void *heap[BUFS];
  uint32_t pattern[8];
  for (int i = 0; i < 8; i++)
    pattern[i] = 0x11110000u + (uint32_t)i;
  for (int round = 0; round < 4; round++) {
    /* interleave buffers of every small size with malloc'd blocks */
    for (int b = 0; b < BUFS; b++) {
      size_t size = 4 + (size_t)((b * 28 + round * 12) % 4096) / 4 * 4;
      targets[b] = test_buffer_with(env, size, NULL);
      heap[b] = malloc(16 + (size_t)b * 8);
      memset(heap[b], 0x5A, 16 + (size_t)b * 8);
      victims[b] = test_buffer_with(env, sizeof pattern, pattern);
    }
    for (int b = 0; b < BUFS; b++) {
      size_t size;
      CHECK_OK(clGetMemObjectInfo(targets[b], CL_MEM_SIZE, sizeof size, &size, NULL));
      cl_uint n = (cl_uint)(size / 4);
      /* up to a page past the end, as piglit's kernels do (3x the buffer) */
      size_t g = n * 3 > n + 1024 ? n + 1024 : n * 3;
      CHECK_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &targets[b]));
      CHECK_OK(clSetKernelArg(k, 1, sizeof n, &n));
      CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
      uint32_t got[BUFS];
      size_t m = n < BUFS ? n : BUFS;
      test_read_back(env, targets[b], m * 4, got);
      for (size_t i = 0; i < m; i++)
        CHECK(got[i] == (0xDEAD0000u | (uint32_t)i));
    }
    for (int b = 0; b < BUFS; b++) {
      uint32_t got[8];
      test_read_back(env, victims[b], sizeof got, got);
      CHECK(memcmp(got, pattern, sizeof got) == 0); /* neighbours untouched */
      const unsigned char *h = heap[b];
      bool intact = true;
      for (size_t i = 0; i < 16 + (size_t)b * 8; i++)
        intact &= h[i] == 0x5A;
      CHECK(intact);
    }
    /* frees in an order that makes glibc check its chunks' headers */
    for (int b = 0; b < BUFS; b += 2) {
      CHECK_OK(clReleaseMemObject(targets[b]));
      free(heap[b]);
    }
    for (int b = 1; b < BUFS; b += 2) {
      CHECK_OK(clReleaseMemObject(targets[b]));
      free(heap[b]);
    }
    for (int b = 0; b < BUFS; b++)
      CHECK_OK(clReleaseMemObject(victims[b]));
    void *churn[256];
    for (int i = 0; i < 256; i++)
      churn[i] = malloc((size_t)(i % 61) * 24 + 8);
    for (int i = 0; i < 256; i++)
      free(churn[i]);
  }
  clReleaseKernel(k);
}

/* the debug mode that names overruns (LOOMCL_CHECK_OVERRUN): the report
 * goes to stderr when the buffer is released */
static void test_overrun_report(struct test_env *env) {
  typedef cl_int (*set_config_fn)(const char *, const char *);
  set_config_fn set = (set_config_fn)clGetExtensionFunctionAddressForPlatform(
      env->platform, "loomclSetConfig");
  CHECK(set != NULL);
  if (!set)
    return;
  CHECK_OK(set("LOOMCL_CHECK_OVERRUN", "1"));
  cl_kernel k = test_kernel_from(env, src, "over", NULL);
  if (!k)
    return;
  cl_mem m = test_buffer_with(env, 32, NULL);
  cl_uint n = 8;
  size_t g = 24;
  CHECK_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &m));
  CHECK_OK(clSetKernelArg(k, 1, sizeof n, &n));
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  fflush(stderr);
  FILE *log = tmpfile();
  int saved = dup(2);
  dup2(fileno(log), 2);
  CHECK_OK(clReleaseMemObject(m));
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char text[512] = {0};
  rewind(log);
  size_t got = fread(text, 1, sizeof text - 1, log);
  fclose(log);
  CHECK(got > 0 && strstr(text, "32 bytes") && strstr(text, "bytes 0 to 63 after it"));
  if (got)
    fputs(text, stdout);
  clReleaseKernel(k);
  CHECK_OK(set("LOOMCL_CHECK_OVERRUN", NULL));
}

/* many small buffers alive at once and released in bulk: the storage table
 * grows and shrinks, and every buffer's data stays its own */
static void test_many_buffers(struct test_env *env) {
  enum { N = 3000 };
  cl_mem *m = calloc(N, sizeof *m);
  for (int i = 0; i < N; i++) {
    /* 12 to 412 bytes, the first three ints set */
    int v[3 + 4 * 25] = {i, -i, i * 7};
    m[i] = test_buffer_with(env, 3 * sizeof(int) + (size_t)(i % 5) * 100, v);
  }
  for (int i = 0; i < N; i += 97) {
    int v[3];
    test_read_back(env, m[i], sizeof v, v);
    CHECK(v[0] == i && v[1] == -i && v[2] == i * 7);
  }
  for (int i = 0; i < N; i++)
    CHECK_OK(clReleaseMemObject(m[i]));
  free(m);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_small_overruns(&env);
  test_overrun_report(&env);
  test_many_buffers(&env);
  test_env_release(&env);
  return test_finish("third_party_overrun");
}
