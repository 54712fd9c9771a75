/* Released large buffers are kept for the next buffer of the same length
 * (devices/cpu/cpu_device.c: at most 8 mappings, 256 MiB in all). Checked:
 *  - a buffer made, filled by a kernel, released and made again with the
 *    same size (the kept mapping) holds what COPY_HOST_PTR or a kernel puts
 *    there, every time;
 *  - buffers of 40 different sizes of 24-63 MiB, each filled and released in
 *    turn, leave the process at most the kept 256 MiB (and slack) above
 *    where it started: the cache is bounded, not a leak;
 *  - a sub-buffer of a reused buffer reads its parent's bytes. */
#include "harness.h"
#include <string.h>
#include <unistd.h>

static const char *src =
    "kernel void fill(global uint *p, uint seed) {\n"
    "  size_t i = get_global_id(0);\n"
    "  p[i] = (uint)i * 2654435761u ^ seed;\n"
    "}\n";

/* resident set size in bytes (/proc/self/statm), 0 if unknown */
static size_t resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long size = 0, resident = 0;
  int n = fscanf(f, "%lu %lu", &size, &resident);
  fclose(f);
  return n == 2 ? resident * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

static int check_fill(struct test_env *env, cl_mem m, size_t n, cl_uint seed) {
  cl_uint *got = malloc(n * sizeof *got);
  test_read_back(env, m, n * sizeof *got, got);
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != ((cl_uint)i * 2654435761u ^ seed) && bad++ < 3)
      fprintf(stderr, "element %zu: %u\n", i, got[i]);
  free(got);
  return bad;
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_kernel k = test_kernel_from(&env, src, "fill", NULL);
  if (!k)
    return test_finish("test_buffer_reuse");

  /* the same 40 MiB length three times: the second and third get the
   * mapping the first released */
  size_t n = (40u << 20) / sizeof(cl_uint);
  cl_uint *host = malloc(n * sizeof *host);
  for (int round = 0; round < 3; round++) {
    cl_uint seed = 0x1234u + (cl_uint)round;
    cl_mem m = test_buffer_with(&env, n * sizeof(cl_uint), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clSetKernelArg(k, 1, sizeof seed, &seed));
    CHECK_OK(test_run(&env, k, 1, NULL, &n, NULL));
    CHECK(check_fill(&env, m, n, seed) == 0);
    /* a sub-buffer of the reused mapping */
    cl_buffer_region r = {4096, 8192};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_OK(err);
    if (sub) {
      cl_uint part[2048];
      test_read_back(&env, sub, sizeof part, part);
      int bad = 0;
      for (size_t i = 0; i < 2048; i++)
        bad += part[i] != ((cl_uint)(i + 1024) * 2654435761u ^ seed);
      CHECK(bad == 0);
      clReleaseMemObject(sub);
    }
    clReleaseMemObject(m);
    /* copied from the host into a kept mapping */
    for (size_t i = 0; i < n; i++)
      host[i] = (cl_uint)(i * 7 + (size_t)round);
    cl_mem c = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              n * sizeof(cl_uint), host, &err);
    CHECK_OK(err);
    if (c) {
      cl_uint *back = malloc(n * sizeof *back);
      test_read_back(&env, c, n * sizeof *back, back);
      CHECK(memcmp(back, host, n * sizeof *back) == 0);
      free(back);
      clReleaseMemObject(c);
    }
  }
  free(host);

  /* many lengths, each touched in full and released: bounded growth */
  size_t before = resident_bytes();
  for (int i = 0; i < 40; i++) {
    size_t bytes = ((size_t)24 << 20) + (size_t)i * (1u << 20) + 4096 * (size_t)i;
    size_t count = bytes / sizeof(cl_uint);
    cl_uint seed = (cl_uint)i;
    cl_mem m = test_buffer_with(&env, bytes, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clSetKernelArg(k, 1, sizeof seed, &seed));
    CHECK_OK(test_run(&env, k, 1, NULL, &count, NULL));
    clReleaseMemObject(m);
  }
  size_t after = resident_bytes();
  if (before && after) {
    size_t grown = after > before ? after - before : 0;
    if (grown > ((size_t)256 + 128) << 20)
      fprintf(stderr, "resident set grew by %zu MiB\n", grown >> 20);
    CHECK(grown <= ((size_t)256 + 128) << 20);
  }
  clReleaseKernel(k);
  test_env_release(&env);
  return test_finish("test_buffer_reuse");
}
