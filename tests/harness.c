#include "harness.h"
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

int test_failures;
bool test_no_leak_check;

/* LeakSanitizer's hook: a program may define it to skip the check at exit */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void) { return test_no_leak_check; }
int test_checks;

void test_env_init(struct test_env *env) {
  cl_int err;
  memset(env, 0, sizeof *env);
  /* deterministic: a kernel with barriers runs its specialised code from its
   * second launch on, compiled then (core/variants.c); the default way, in
   * the background and timed, is test_specialize's. Also keeps background
   * compilations from writing LOOMCL_DUMP_IR_OPT while a test reads it. */
  setenv("LOOMCL_SPECIALIZE", "always", 0);
  if (clGetPlatformIDs(1, &env->platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 1, &env->device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no LoomCL platform/device\n");
    exit(1);
  }
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateContext failed: %d\n", err);
    exit(1);
  }
  env->queue = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateCommandQueueWithProperties failed: %d\n", err);
    exit(1);
  }
}

void test_env_release(struct test_env *env) {
  if (env->queue)
    clReleaseCommandQueue(env->queue);
  if (env->context)
    clReleaseContext(env->context);
}

cl_kernel test_build_kernel(struct test_env *env, const char *src,
                            const char *name, const char *options,
                            cl_program *program_out) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateProgramWithSource: %d\n", err);
    exit(1);
  }
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "clBuildProgram: %d\n%s\n", err, log);
    exit(1);
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateKernel(%s): %d\n", name, err);
    exit(1);
  }
  if (program_out)
    *program_out = p;
  else
    clReleaseProgram(p);
  return k;
}

cl_program test_program_from(struct test_env *env, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  CHECK_OK(err);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

cl_kernel test_kernel_from(struct test_env *env, const char *src, const char *name,
                             const char *options) {
  cl_program p = test_program_from(env, src, options);
  if (!p)
    return NULL;
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  clReleaseProgram(p);
  return k;
}

cl_mem test_buffer_with(struct test_env *env, size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                            size, (void *)data, &err);
  CHECK_OK(err);
  return m;
}

void test_read_back(struct test_env *env, cl_mem m, size_t size, void *out) {
  CHECK_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

cl_int test_run(struct test_env *env, cl_kernel k, cl_uint dims, const size_t *offset,
                  const size_t *global, const size_t *local) {
  cl_int err = clEnqueueNDRangeKernel(env->queue, k, dims, offset, global, local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(env->queue);
  return err;
}

void test_pattern(int *a, size_t n, int seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = (int)((i * 2654435761u + (unsigned)seed * 40503u) % 1000u) - 300;
}



int *test_run_io(struct test_env *env, cl_kernel k, const int *in, size_t g, size_t l) {
  cl_mem out = test_buffer_with(env, g * sizeof(int), NULL);
  cl_mem inb = test_buffer_with(env, g * sizeof(int), in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  int *res = calloc(g, sizeof(int));
  CHECK_OK(test_run(env, k, 1, NULL, &g, l ? &l : NULL));
  test_read_back(env, out, g * sizeof(int), res);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  return res;
}

void test_affine_run(struct test_env *env, int mul, int add) {
  enum { N = 256 };
  char src[256];
  snprintf(src, sizeof src,
           "kernel void affine(global int *out, global const int *in) {\n"
           "  size_t i = get_global_id(0);\n  out[i] = in[i] * %d + %d;\n}\n", mul, add);
  cl_kernel kern = test_kernel_from(env, src, "affine", "");
  CHECK(kern != NULL);
  if (!kern)
    return;
  int in[N], want[N];
  test_pattern(in, N, mul + add);
  for (int i = 0; i < N; i++)
    want[i] = in[i] * mul + add;
  int *got = test_run_io(env, kern, in, N, 64);
  CHECK(got && test_count_diff(got, want, N, "affine") == 0);
  free(got);
  clReleaseKernel(kern);
}

int test_count_diff(const int *got, const int *want, size_t n, const char *what) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (bad < 3)
        fprintf(stderr, "  %s[%zu] = %d, expected %d\n", what, i, got[i], want[i]);
      bad++;
    }
  return bad;
}

void test_appendf(char **s, size_t *len, size_t *cap, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*s + *len, *cap - *len, fmt, ap);
    va_end(ap);
    if ((size_t)n < *cap - *len) {
      *len += (size_t)n;
      return;
    }
    *cap = *cap * 2 + (size_t)n;
    *s = realloc(*s, *cap);
  }
}

uint64_t test_xorshift64(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

int test_finish(const char *name) {
  printf("%s: %d checks, %d passed, %d failed\n", name, test_checks,
         test_checks - test_failures, test_failures);
  return test_failures ? 1 : 0;
}

bool test_ir_fn_has_attr(const char *ir, const char *fn, const char *attr) {
  char head[160], group[64];
  snprintf(head, sizeof head, "define void @%s(", fn);
  const char *f = ir ? strstr(ir, head) : NULL;
  const char *hash = f ? strchr(f, '{') : NULL;
  while (hash && hash > f && *hash != '#')
    hash--;
  if (!hash || *hash != '#')
    return false;
  snprintf(group, sizeof group, "\nattributes #%d = {", atoi(hash + 1));
  const char *g = strstr(ir, group);
  const char *end = g ? strchr(g + 1, '\n') : NULL;
  const char *a = g ? strstr(g, attr) : NULL;
  return a && (!end || a < end);
}

char *test_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  size_t got = s ? fread(s, 1, (size_t)n, f) : 0;
  if (s)
    s[got] = 0;
  fclose(f);
  return s;
}

cl_kernel test_kernel_with_ir(struct test_env *env, const char *src, const char *name,
                              const char *options, char **ir) {
  *ir = NULL;
  char path[] = "/tmp/loomcl-ir-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return NULL;
  close(fd);
  test_set_config("LOOMCL_DUMP_IR_OPT", path);
  test_set_config("LOOMCL_CACHE", "0");
  cl_kernel k = test_kernel_from(env, src, name, options);
  test_set_config("LOOMCL_DUMP_IR_OPT", NULL);
  test_set_config("LOOMCL_CACHE", NULL);
  *ir = test_read_file(path);
  unlink(path);
  CHECK(*ir != NULL);
  return k;
}

void test_set_config(const char *name, const char *value) {
  typedef cl_int (*set_config_fn)(const char *, const char *);
  cl_platform_id platform = NULL;
  CHECK_OK(clGetPlatformIDs(1, &platform, NULL));
  set_config_fn set =
      (set_config_fn)clGetExtensionFunctionAddressForPlatform(platform, "loomclSetConfig");
  CHECK(set != NULL);
  if (set)
    CHECK_OK(set(name, value));
}
