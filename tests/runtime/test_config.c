/* The LOOMCL_* configuration (src/config/): read once from the environment,
 * an invalid value reported by exactly one line on stderr that names the
 * variable, the value and the value used instead, and LoomCL working on
 * regardless; a valid value prints nothing. Each case runs in a child
 * process forked before this process touches OpenCL (the environment is
 * read once per process), with the variable set by setenv and stderr
 * going to a temporary file. Then, in this process, loomclSetConfig
 * (through clGetExtensionFunctionAddressForPlatform): CL_INVALID_VALUE for
 * an unknown name, a NULL name and values a variable's type rejects,
 * CL_SUCCESS for good ones, with or without the LOOMCL_ prefix. */
#include "harness.h"
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *src =
    "kernel void scale(global int *a, int k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = k * a[i] + (int)i;\n"
    "}\n";

#define N 1000

/* exit codes of a child */
enum { CHILD_OK = 0, CHILD_NO_PLATFORM = 10, CHILD_NO_CONTEXT, CHILD_NO_KERNEL, CHILD_WRONG };

/* The child: the whole way from clGetPlatformIDs to a kernel's results.
 * Diagnostics go to `diag` (the test's stderr), never to the captured
 * stderr, which must hold only what LoomCL printed. */
static int child_run(int diag) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
    return CHILD_NO_PLATFORM;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    return CHILD_NO_CONTEXT;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  if (err != CL_SUCCESS)
    return CHILD_NO_CONTEXT;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(p, 1, &device, NULL, NULL, NULL) != CL_SUCCESS) {
    dprintf(diag, "child: the build failed\n");
    return CHILD_NO_KERNEL;
  }
  cl_kernel k = clCreateKernel(p, "scale", &err);
  if (err != CL_SUCCESS)
    return CHILD_NO_KERNEL;
  int data[N];
  for (int i = 0; i < N; i++)
    data[i] = i % 7 - 3;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
  if (err != CL_SUCCESS)
    return CHILD_NO_KERNEL;
  int factor = 3;
  size_t global = N;
  if (clSetKernelArg(k, 0, sizeof m, &m) != CL_SUCCESS ||
      clSetKernelArg(k, 1, sizeof factor, &factor) != CL_SUCCESS ||
      clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
      clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL) != CL_SUCCESS)
    return CHILD_NO_KERNEL;
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (data[i] != factor * (i % 7 - 3) + i && bad++ < 3)
      dprintf(diag, "child: a[%d] = %d, want %d\n", i, data[i], factor * (i % 7 - 3) + i);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return bad ? CHILD_WRONG : CHILD_OK;
}

/* Runs child_run in a child with name=value in its environment; returns
 * what the child printed on stderr (free it), or NULL after a failure. */
static char *run_child_with(const char *name, const char *value) {
  char path[] = "/tmp/loomcl-test-config-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return NULL;
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    int diag = dup(2);
    if (diag < 0 || dup2(fd, 2) < 0)
      _exit(99);
    close(fd);
    if (setenv(name, value, 1) != 0)
      _exit(98);
    int rc = child_run(diag);
    fflush(stderr);
    _exit(rc);
  }
  close(fd);
  int status = 0;
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0)
      ;
  char *out = test_read_file(path);
  unlink(path);
  bool ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == CHILD_OK;
  if (!ok)
    fprintf(stderr, "%s=%s: the child %s %d; its stderr:\n%s\n", name, value,
            WIFEXITED(status) ? "exited with" : "died of signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), out ? out : "(none)");
  CHECK(ok); /* LoomCL works whatever the value */
  CHECK(out != NULL);
  return out;
}

/* An invalid value: one line, naming NAME=value and the value used. */
static void check_invalid(const char *name, const char *value, const char *used) {
  char *out = run_child_with(name, value);
  if (!out)
    return;
  char named[256];
  snprintf(named, sizeof named, "%s=%s", name, value);
  size_t len = strlen(out);
  char *nl = strchr(out, '\n');
  bool one_line = len > 0 && nl == out + len - 1;
  bool names_it = strstr(out, named) != NULL;
  bool says_used = strstr(out, used) != NULL;
  if (!one_line || !names_it || !says_used)
    fprintf(stderr, "%s: want one line naming \"%s\" and \"%s\", got:\n%s", named, named, used,
            out);
  CHECK(one_line);
  CHECK(names_it);
  CHECK(says_used);
  free(out);
}

/* A valid value: nothing on stderr. */
static void check_valid(const char *name, const char *value) {
  char *out = run_child_with(name, value);
  if (!out)
    return;
  if (*out)
    fprintf(stderr, "%s=%s: want no output, got:\n%s", name, value, out);
  CHECK(*out == 0);
  free(out);
}

typedef cl_int (*set_config_fn)(const char *name, const char *value);

int main(void) {
  /* children first: this process has not called OpenCL yet, so no worker
   * or compile thread exists at fork and each child reads its environment
   * afresh */
  check_invalid("LOOMCL_THREADS", "abc", "using the default");
  check_invalid("LOOMCL_CACHE", "maybe", "using 1");
  check_invalid("LOOMCL_SPECIALIZE", "sometimes", "using 1");
  check_valid("LOOMCL_THREADS", "3");
  check_valid("LOOMCL_CACHE", "0");
  check_valid("LOOMCL_SPECIALIZE", "0");

  /* loomclSetConfig in this process */
  cl_platform_id platform = NULL;
  CHECK_OK(clGetPlatformIDs(1, &platform, NULL));
  set_config_fn set =
      (set_config_fn)clGetExtensionFunctionAddressForPlatform(platform, "loomclSetConfig");
  CHECK(set != NULL);
  if (set) {
    /* unknown names, NULL name */
    CHECK_ERR(set("NO_SUCH_VARIABLE", "1"), CL_INVALID_VALUE);
    CHECK_ERR(set("LOOMCL_NO_SUCH_VARIABLE", "1"), CL_INVALID_VALUE);
    CHECK_ERR(set("", "1"), CL_INVALID_VALUE);
    CHECK_ERR(set("LOOMCL_", "1"), CL_INVALID_VALUE);
    CHECK_ERR(set(NULL, "1"), CL_INVALID_VALUE);
    CHECK_ERR(set(NULL, NULL), CL_INVALID_VALUE);
    /* numbers (AUTO rows) that are none */
    CHECK_ERR(set("THREADS", "abc"), CL_INVALID_VALUE);
    CHECK_ERR(set("LOOMCL_COMPILE_THREADS", "4x"), CL_INVALID_VALUE);
    CHECK_ERR(set("STREAMING_STORES", "-1"), CL_INVALID_VALUE);
    CHECK_ERR(set("LOOMCL_STREAMING_STORES", "1.5"), CL_INVALID_VALUE);
    /* FLAG and CHOICE rows */
    CHECK_ERR(set("CACHE", "maybe"), CL_INVALID_VALUE);
    CHECK_ERR(set("LOOMCL_CACHE", "2"), CL_INVALID_VALUE);
    CHECK_ERR(set("SPECIALIZE", "sometimes"), CL_INVALID_VALUE);
    /* good values, the prefix optional; NULL: as if unset */
    CHECK_OK(set("LOOMCL_TIME_BUILD", "0"));
    CHECK_OK(set("TIME_BUILD", "0"));
    CHECK_OK(set("TIME_BUILD", NULL));
    CHECK_OK(set("LOOMCL_STREAMING_STORES", "1048576"));
    CHECK_OK(set("STREAMING_STORES", NULL));
    CHECK_OK(set("SPECIALIZE", "verbose"));
    CHECK_OK(set("LOOMCL_SPECIALIZE", NULL));
    CHECK_OK(set("LOOMCL_CACHE", "1"));
    CHECK_OK(set("CACHE", NULL));
    CHECK_OK(set("DUMP_ASM", NULL));
  }

  /* and this process still runs kernels */
  struct test_env env;
  test_env_init(&env);
  cl_kernel k = test_kernel_from(&env, src, "scale", NULL);
  if (k) {
    int in[N], want[N];
    for (int i = 0; i < N; i++) {
      in[i] = i % 5;
      want[i] = 2 * in[i] + i;
    }
    cl_mem m = test_buffer_with(&env, sizeof in, in);
    int factor = 2;
    size_t global = N;
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_OK(clSetKernelArg(k, 1, sizeof factor, &factor));
    CHECK_OK(test_run(&env, k, 1, NULL, &global, NULL));
    int got[N];
    test_read_back(&env, m, sizeof got, got);
    CHECK(test_count_diff(got, want, N, "scale") == 0);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  test_env_release(&env);
  return test_finish("test_config");
}
