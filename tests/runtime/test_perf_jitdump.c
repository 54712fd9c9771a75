/* LOOMCL_PERF=1 (devices/cpu/cpu_jit.c): the JIT links through ORC's RTDyld
 * layer and LLVM's jitdump writer describes the code to Linux perf. Checked:
 * a kernel built and run that way gives the host's results, and
 * $JITDUMPDIR/.debug/jit/<session>/jit-<pid>.dump starts with the jitdump
 * magic and names the kernel's work-group function. (Set before the first
 * program loads: the JIT is created once per process.) */
#include "harness.h"
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *src =
    "kernel void perf_probe_kernel(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * 3 + 1;\n"
    "}\n";

/* the path of jit-<pid>.dump under dir, one or two levels down, or "" */
static void find_dump(const char *dir, int depth, const char *want, char *found, size_t cap) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while (!found[0] && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode) && depth < 4)
      find_dump(path, depth + 1, want, found, cap);
    else if (S_ISREG(st.st_mode) && !strcmp(e->d_name, want))
      snprintf(found, cap, "%s", path);
  }
  closedir(d);
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
      remove_tree(path);
    else
      unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

int main(void) {
  char dir[] = "/tmp/loomcl-perf-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  setenv("JITDUMPDIR", dir, 1);
  struct test_env env;
  test_env_init(&env);
  test_set_config("LOOMCL_PERF", "1");
  test_set_config("LOOMCL_CACHE", "0");

  cl_kernel k = test_kernel_from(&env, src, "perf_probe_kernel", NULL);
  enum { N = 1000 };
  int in[N], want[N];
  for (int i = 0; i < N; i++) {
    in[i] = i - 500;
    want[i] = in[i] * 3 + 1;
  }
  if (k) {
    cl_mem a = test_buffer_with(&env, sizeof in, in), b = test_buffer_with(&env, sizeof in, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 1, sizeof b, &b));
    size_t g = N;
    CHECK_OK(test_run(&env, k, 1, NULL, &g, NULL));
    int out[N];
    test_read_back(&env, b, sizeof out, out);
    CHECK(test_count_diff(out, want, N, "perf_probe_kernel") == 0);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
  }

  char name[64], path[1024] = "";
  snprintf(name, sizeof name, "jit-%d.dump", (int)getpid());
  find_dump(dir, 0, name, path, sizeof path);
  CHECK(path[0] != '\0');
  if (path[0]) {
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
      static char data[1 << 20];
      size_t n = fread(data, 1, sizeof data, f);
      fclose(f);
      uint32_t magic = 0;
      if (n >= 4)
        memcpy(&magic, data, 4);
      CHECK(magic == 0x4A695444); /* "JiTD" in the host's byte order */
      CHECK(memmem(data, n, "perf_probe_kernel.loom_wg", 25) != NULL);
    }
  }
  test_env_release(&env);
  remove_tree(dir);
  return test_finish("test_perf_jitdump");
}
