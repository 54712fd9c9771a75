/* LOOMCL_LOG=api: every error an entry point returns is explained by one
 * line on stderr, "LoomCL api: <function>: <error>: <rule>". The test
 * captures stderr around each failing call (dup2 onto a temporary file),
 * checks the returned code and the line, and that nothing is logged for
 * calls that succeed or once the log is turned off again. It also checks
 * that loomclSetConfig refuses unknown variables and invalid values. */
#include "harness.h"
#include <unistd.h>

static FILE *capture_file;
static int saved_stderr = -1;

/* From here until capture_end, what the library writes on stderr goes to
 * the temporary file (emptied first). */
static void capture_begin(void) {
  fflush(stderr);
  int fd = fileno(capture_file);
  CHECK(ftruncate(fd, 0) == 0);
  lseek(fd, 0, SEEK_SET);
  CHECK(dup2(fd, STDERR_FILENO) == STDERR_FILENO);
}

/* Restores stderr; returns what was captured (free it). */
static char *capture_end(void) {
  fflush(stderr);
  CHECK(dup2(saved_stderr, STDERR_FILENO) == STDERR_FILENO);
  int fd = fileno(capture_file);
  off_t size = lseek(fd, 0, SEEK_END);
  char *text = calloc((size_t)(size > 0 ? size : 0) + 1, 1);
  if (text && size > 0 && pread(fd, text, (size_t)size, 0) != (ssize_t)size)
    text[0] = 0;
  return text;
}

/* true when log holds a line "LoomCL api: fn: error: rule" whose rule is
 * not empty and contains rule_part; fn may list alternatives ("a|b"). */
static bool has_line(const char *log, const char *fn, const char *error,
                     const char *rule_part) {
  for (const char *line = log; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    for (const char *f = fn; f && *f;) {
      const char *bar = strchr(f, '|');
      size_t flen = bar ? (size_t)(bar - f) : strlen(f);
      char prefix[256];
      snprintf(prefix, sizeof prefix, "LoomCL api: %.*s: %s: ", (int)flen, f, error);
      size_t plen = strlen(prefix);
      if (len > plen && strncmp(line, prefix, plen) == 0) {
        char rule[1024];
        snprintf(rule, sizeof rule, "%.*s", (int)(len - plen), line + plen);
        if (!rule_part || strstr(rule, rule_part))
          return true;
      }
      f = bar ? bar + 1 : NULL;
    }
    line = end ? end + 1 : NULL;
  }
  return false;
}

/* Checks the captured log of one call, printing it when it lacks the line. */
#define CHECK_LOG(log, fn, error, rule_part)                                   \
  do {                                                                         \
    bool found_ = has_line((log), (fn), (error), (rule_part));                 \
    CHECK(found_);                                                             \
    if (!found_)                                                               \
      fprintf(stderr, "  wanted %s: %s: ...%s...; the log was:\n%s", (fn),     \
              (error), (rule_part) ? (rule_part) : "", (log));                 \
  } while (0)

static const char *kernel_src = "kernel void k(global int *o, int v) { o[get_global_id(0)] = v; }\n";

static void test_buffers(struct test_env *env) {
  cl_int err = CL_SUCCESS;
  capture_begin();
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 0, NULL, &err);
  char *log = capture_end();
  CHECK(m == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK_LOG(log, "clCreateBuffer", "CL_INVALID_BUFFER_SIZE", "size is 0");
  free(log);

  capture_begin();
  m = clCreateBuffer(env->context, CL_MEM_USE_HOST_PTR, 64, NULL, &err);
  log = capture_end();
  CHECK(m == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  CHECK_LOG(log, "clCreateBuffer", "CL_INVALID_HOST_PTR", "host_ptr is NULL");
  free(log);

  /* the entry point named is the one the application called */
  cl_mem_properties props[] = {0};
  capture_begin();
  m = clCreateBufferWithProperties(env->context, props, CL_MEM_READ_WRITE, 0, NULL, &err);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK_LOG(log, "clCreateBufferWithProperties", "CL_INVALID_BUFFER_SIZE", "size is 0");
  free(log);

  /* a call that succeeds logs nothing */
  capture_begin();
  m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, NULL, &err);
  log = capture_end();
  CHECK_OK(err);
  CHECK(log && log[0] == 0);
  free(log);

  /* an enqueue's wait list is checked on its behalf */
  int host[16];
  capture_begin();
  err = clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, sizeof host, host, 1, NULL, NULL);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_EVENT_WAIT_LIST);
  CHECK_LOG(log, "clEnqueueReadBuffer", "CL_INVALID_EVENT_WAIT_LIST", "event_wait_list is NULL");
  free(log);

  /* out of bounds */
  capture_begin();
  err = clEnqueueReadBuffer(env->queue, m, CL_TRUE, 32, sizeof host, host, 0, NULL, NULL);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK_LOG(log, "clEnqueueReadBuffer", "CL_INVALID_VALUE", "out of bounds");
  free(log);
  clReleaseMemObject(m);
}

static void test_kernel_args(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, kernel_src, "k", NULL);
  if (!k)
    return;
  short small = 1;
  capture_begin();
  cl_int err = clSetKernelArg(k, 1, sizeof small, &small);
  char *log = capture_end();
  CHECK_ERR(err, CL_INVALID_ARG_SIZE);
  CHECK_LOG(log, "clSetKernelArg", "CL_INVALID_ARG_SIZE", "arg_size");
  free(log);

  int v = 1;
  capture_begin();
  err = clSetKernelArg(k, 7, sizeof v, &v);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_ARG_INDEX);
  CHECK_LOG(log, "clSetKernelArg", "CL_INVALID_ARG_INDEX", "arg_index");
  free(log);

  /* a kernel name the program lacks */
  cl_program p = NULL;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL));
  capture_begin();
  cl_kernel none = clCreateKernel(p, "no_such_kernel", &err);
  log = capture_end();
  CHECK(none == NULL);
  CHECK_ERR(err, CL_INVALID_KERNEL_NAME);
  CHECK_LOG(log, "clCreateKernel", "CL_INVALID_KERNEL_NAME", "kernel_name");
  free(log);
  clReleaseKernel(k);
}

static cl_program source_program(struct test_env *env, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  return p;
}

static void test_builds(struct test_env *env) {
  cl_program p = source_program(env, "kernel void k(global int *o) {\n  o[0] = ;\n}\n");
  capture_begin();
  cl_int err = clBuildProgram(p, 1, &env->device, NULL, NULL, NULL);
  char *log = capture_end();
  CHECK_ERR(err, CL_BUILD_PROGRAM_FAILURE);
  CHECK_LOG(log, "clBuildProgram", "CL_BUILD_PROGRAM_FAILURE", "CL_PROGRAM_BUILD_LOG");
  /* and the step of the build that failed, from the core */
  CHECK(strstr(log, "CL_BUILD_PROGRAM_FAILURE: the source did not compile") != NULL);
  free(log);
  clReleaseProgram(p);

  p = source_program(env, kernel_src);
  capture_begin();
  err = clBuildProgram(p, 1, &env->device, "-cl-no-such-option", NULL, NULL);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_BUILD_OPTIONS);
  CHECK_LOG(log, "clBuildProgram", "CL_INVALID_BUILD_OPTIONS", "options");
  free(log);

  /* an argument check before any build */
  int data = 0;
  capture_begin();
  err = clBuildProgram(p, 0, NULL, NULL, NULL, &data);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK_LOG(log, "clBuildProgram", "CL_INVALID_VALUE", "pfn_notify is NULL");
  free(log);
  clReleaseProgram(p);

  capture_begin();
  p = clCreateProgramWithSource(env->context, 0, NULL, NULL, &err);
  log = capture_end();
  CHECK(p == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK_LOG(log, "clCreateProgramWithSource", "CL_INVALID_VALUE", "count is 0");
  free(log);
}

static void test_ndrange(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, kernel_src, "k", "-cl-std=CL1.2");
  if (!k)
    return;
  cl_mem m = test_buffer_with(env, 64 * sizeof(int), NULL);
  int v = 3;
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  /* the rules of work-group sizes are checked in a helper of the entry point */
  const char *fns = "clEnqueueNDRangeKernel|check_local_size";

  size_t global = 10, local = 3;
  capture_begin();
  cl_int err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  char *log = capture_end();
  CHECK_ERR(err, CL_INVALID_WORK_GROUP_SIZE);
  CHECK_LOG(log, fns, "CL_INVALID_WORK_GROUP_SIZE", "not a multiple of local_work_size");
  free(log);

  local = 0;
  capture_begin();
  err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  log = capture_end();
  CHECK_ERR(err, CL_INVALID_WORK_GROUP_SIZE);
  CHECK_LOG(log, fns, "CL_INVALID_WORK_GROUP_SIZE", "is 0");
  free(log);

  /* a launch that is valid logs nothing */
  global = 64;
  local = 16;
  capture_begin();
  err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  CHECK_OK(clFinish(env->queue));
  log = capture_end();
  CHECK_OK(err);
  CHECK(log && log[0] == 0);
  free(log);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* With the log turned off, failing calls say nothing. */
static void test_log_off(struct test_env *env) {
  test_set_config("LOOMCL_LOG", NULL);
  cl_int err;
  capture_begin();
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 0, NULL, &err);
  cl_int arg_err = clSetKernelArg(NULL, 0, 0, NULL);
  char *log = capture_end();
  CHECK(m == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK_ERR(arg_err, CL_INVALID_KERNEL);
  CHECK(log && log[0] == 0);
  if (log && log[0])
    fprintf(stderr, "  logged with LOOMCL_LOG unset:\n%s", log);
  free(log);
}

/* loomclSetConfig refuses what the configuration table does not allow. */
static void test_set_config_refusals(struct test_env *env) {
  typedef cl_int (*set_config_fn)(const char *, const char *);
  set_config_fn set =
      (set_config_fn)clGetExtensionFunctionAddressForPlatform(env->platform, "loomclSetConfig");
  CHECK(set != NULL);
  if (!set)
    return;
  CHECK_ERR(set("LOOMCL_CACHE", "maybe"), CL_INVALID_VALUE);
  CHECK_ERR(set("LOOMCL_NO_SUCH", "1"), CL_INVALID_VALUE);
  CHECK_ERR(set(NULL, "1"), CL_INVALID_VALUE);
  /* a valid value is taken, and unsetting restores the default */
  CHECK_OK(set("LOOMCL_CACHE", "1"));
  CHECK_OK(set("LOOMCL_CACHE", NULL));
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  capture_file = tmpfile();
  saved_stderr = dup(STDERR_FILENO);
  if (!capture_file || saved_stderr < 0) {
    fprintf(stderr, "cannot capture stderr\n");
    return 1;
  }
  test_set_config("LOOMCL_LOG", "api");
  test_buffers(&env);
  test_kernel_args(&env);
  test_builds(&env);
  test_ndrange(&env);
  test_log_off(&env);
  test_set_config_refusals(&env);
  fclose(capture_file);
  close(saved_stderr);
  test_env_release(&env);
  return test_finish("test_api_log");
}
