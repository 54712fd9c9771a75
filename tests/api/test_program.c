/* Programs: creation from source and binaries, build options, build logs and
 * status, program queries, binary round trips, the disk cache, build
 * callbacks, reference counts and every error path. */
#include "program_util.h"
#include <dirent.h>
#include <time.h>
#include <unistd.h>

/* ---------- clCreateProgramWithSource ---------- */

static void test_create_with_source(struct test_env *env) {
  cl_int err = 1;
  const char *src = add_src;
  const char *null_str = NULL;
  CHECK(clCreateProgramWithSource(NULL, 1, &src, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithSource(BOGUS(cl_context), 1, &src, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithSource(env->context, 0, &src, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithSource(env->context, 1, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithSource(env->context, 1, &null_str, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  const char *two_with_null[2] = {src, NULL};
  CHECK(clCreateProgramWithSource(env->context, 2, two_with_null, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  /* errcode_ret may be NULL */
  CHECK(clCreateProgramWithSource(env->context, 0, &src, NULL, NULL) == NULL);
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, NULL);
  CHECK(p != NULL);
  if (p)
    clReleaseProgram(p);

  /* several strings, NUL-terminated (lengths NULL) */
  const char *parts[3] = {"kernel void add(global int *o, int v) {\n",
                          "  int i = (int)get_global_id(0);\n", "  o[i] = i * 2 + v;\n}\n"};
  p = clCreateProgramWithSource(env->context, 3, parts, NULL, &err);
  CHECK_OK(err);
  char got[512] = "";
  size_t size = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof got, got, &size));
  CHECK(!strcmp(got, add_src));
  CHECK(size == strlen(add_src) + 1);
  CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  check_add_program(env, p, 7);
  clReleaseProgram(p);

  /* explicit lengths cut strings short; a zero length means NUL-terminated */
  const char *padded[3] = {"kernel void add(global int *o, int v) {\n#error not cut\n",
                           "  int i = (int)get_global_id(0);\n",
                           "  o[i] = i * 2 + v;\n}\n garbage that is cut off"};
  size_t lengths[3] = {strlen("kernel void add(global int *o, int v) {\n"), 0,
                       strlen("  o[i] = i * 2 + v;\n}\n")};
  p = clCreateProgramWithSource(env->context, 3, padded, lengths, &err);
  CHECK_OK(err);
  memset(got, 0, sizeof got);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof got, got, &size));
  CHECK(!strcmp(got, add_src));
  CHECK(size == strlen(add_src) + 1);
  err = clBuildProgram(p, 0, NULL, "", NULL, NULL);
  CHECK_OK(err);
  if (err == CL_SUCCESS)
    check_add_program(env, p, -3);
  clReleaseProgram(p);

  /* lengths that include the terminating NULs: the concatenation strips them */
  size_t with_nul[3];
  for (int i = 0; i < 3; i++)
    with_nul[i] = strlen(parts[i]) + 1;
  p = clCreateProgramWithSource(env->context, 3, parts, with_nul, &err);
  CHECK_OK(err);
  memset(got, 0, sizeof got);
  size = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof got, got, &size));
  CHECK(!strcmp(got, add_src) && size == strlen(add_src) + 1);
  err = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
  CHECK_OK(err);
  if (err == CL_SUCCESS)
    check_add_program(env, p, 8);
  clReleaseProgram(p);
}

/* ---------- build options ---------- */

static const char *defs_src = "kernel void defs(global int *o) {\n"
                              "  o[0] = VALUE;\n"
                              "#ifdef FLAG\n"
                              "  o[1] = FLAG;\n"
                              "#else\n"
                              "  o[1] = -1;\n"
                              "#endif\n"
                              "  o[2] = EXPR * 2;\n"
                              "}\n";

static void test_define_options(struct test_env *env) {
  int out[3];
  cl_program p = build_expect(env, defs_src, "-D VALUE=42 -D FLAG -D EXPR=(3+4)", CL_SUCCESS);
  if (run_kernel(env, p, "defs", 1, out, 3, 0, 0) == 0)
    CHECK(out[0] == 42 && out[1] == 1 && out[2] == 14);
  clReleaseProgram(p);
  /* the joined form and no FLAG */
  p = build_expect(env, defs_src, "-DVALUE=-5 -DEXPR=1", CL_SUCCESS);
  if (run_kernel(env, p, "defs", 1, out, 3, 0, 0) == 0)
    CHECK(out[0] == -5 && out[1] == -1 && out[2] == 2);
  clReleaseProgram(p);
  /* a quoted definition holding spaces */
  p = build_expect(env, defs_src, "-D \"VALUE=(1 + 2) * 3\" -D EXPR=0", CL_SUCCESS);
  if (run_kernel(env, p, "defs", 1, out, 3, 0, 0) == 0)
    CHECK(out[0] == 9 && out[1] == -1 && out[2] == 0);
  clReleaseProgram(p);
  /* without the definitions the source does not compile */
  p = build_expect(env, defs_src, NULL, CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(p);
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fputs(text, f);
  fclose(f);
  return 0;
}

static void test_include_dir(struct test_env *env) {
  static const char *src = "#include \"loom_test_inc.h\"\n"
                           "kernel void inc(global int *o) { o[get_global_id(0)] = INC_VALUE; }\n";
  /* one plain folder and one whose name needs quoting */
  char plain[] = "/tmp/loomcl-inc-XXXXXX";
  char spaced[] = "/tmp/loomcl inc dir XXXXXX";
  char *dirs[2] = {mkdtemp(plain), mkdtemp(spaced)};
  CHECK(dirs[0] && dirs[1]);
  if (!dirs[0] || !dirs[1])
    return;
  for (int d = 0; d < 2; d++) {
    char path[256], opts[300], text[64];
    snprintf(path, sizeof path, "%s/loom_test_inc.h", dirs[d]);
    snprintf(text, sizeof text, "#define INC_VALUE %d\n", 77 + d);
    CHECK(write_text(path, text) == 0);
    if (d == 0)
      snprintf(opts, sizeof opts, "-I %s", dirs[d]);
    else
      snprintf(opts, sizeof opts, "-I \"%s\" -cl-std=CL1.2", dirs[d]);
    cl_program p = build_expect(env, src, opts, CL_SUCCESS);
    int out[4];
    if (run_kernel(env, p, "inc", 4, out, 4, 0, 0) == 0)
      CHECK(out[0] == 77 + d && out[3] == 77 + d);
    clReleaseProgram(p);
    /* the header changes: the same source and options now give other code
     * (a build cache must not serve the old result) */
    snprintf(text, sizeof text, "#define INC_VALUE %d\n", 500 + d);
    CHECK(write_text(path, text) == 0);
    p = build_expect(env, src, opts, CL_SUCCESS);
    if (run_kernel(env, p, "inc", 4, out, 4, 0, 0) == 0) {
      CHECK(out[0] == 500 + d && out[3] == 500 + d);
      if (out[0] != 500 + d)
        fprintf(stderr, "  edited header: got %d, expected %d\n", out[0], 500 + d);
    }
    clReleaseProgram(p);
    unlink(path);
    rmdir(dirs[d]);
  }
  /* without -I the header is not found: a build failure, not a crash */
  cl_program p = build_expect(env, src, "", CL_BUILD_PROGRAM_FAILURE);
  char *log = build_log(env, p);
  CHECK(strstr(log, "loom_test_inc.h") != NULL);
  free(log);
  clReleaseProgram(p);
}

static void test_std_options(struct test_env *env) {
  static const char *src = "kernel void ver(global int *o) { o[0] = __OPENCL_C_VERSION__; }\n";
  static const struct {
    const char *opts;
    int version;
  } cases[] = {{NULL, 120}, {"-cl-std=CL1.2", 120}, {"-cl-std=CL3.0", 300}};
  /* OpenCL C 2.0 is not in CL_DEVICE_OPENCL_C_ALL_VERSIONS (docs/DESIGN.md) */
  clReleaseProgram(build_expect(env, src, "-cl-std=CL2.0", CL_INVALID_BUILD_OPTIONS));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_program p = build_expect(env, src, cases[i].opts, CL_SUCCESS);
    int out[1];
    if (run_kernel(env, p, "ver", 1, out, 1, 0, 0) == 0) {
      CHECK(out[0] == cases[i].version);
      if (out[0] != cases[i].version)
        fprintf(stderr, "  %s: __OPENCL_C_VERSION__ %d\n", cases[i].opts, out[0]);
    }
    clReleaseProgram(p);
  }
}

/* the math and optimisation options build and keep results correct */
static void test_math_options(struct test_env *env) {
  static const char *src = "kernel void m(global int *o) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  float x = (float)i * 0.5f;\n"
                           "  float y = x * x + 1.5f;\n"
                           "  o[i] = (int)(y * 4.0f);\n"
                           "#ifdef __FAST_RELAXED_MATH__\n"
                           "  if (i == 0) o[0] = -1;\n"
                           "#endif\n"
                           "}\n";
  static const char *const opts[] = {"-cl-opt-disable",
                                     "-cl-fast-relaxed-math",
                                     "-cl-mad-enable",
                                     "-cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only",
                                     "-cl-unsafe-math-optimizations -cl-denorms-are-zero",
                                     "-cl-single-precision-constant"};
  for (size_t c = 0; c < sizeof opts / sizeof opts[0]; c++) {
    cl_program p = build_expect(env, src, opts[c], CL_SUCCESS);
    int out[N];
    if (run_kernel(env, p, "m", N, out, N, 0, 0) == 0) {
      int bad = 0;
      for (int i = 1; i < N; i++) {
        float x = (float)i * 0.5f;
        bad += out[i] != (int)((x * x + 1.5f) * 4.0f);
      }
      CHECK(bad == 0);
      /* -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__ */
      CHECK(out[0] == (strstr(opts[c], "fast-relaxed") ? -1 : 6));
    }
    clReleaseProgram(p);
  }
  /* -cl-opt-disable keeps barriers and __local memory working */
  static const char *barrier_src = "kernel void rev(global int *o) {\n"
                                   "  local int t[16];\n"
                                   "  int l = (int)get_local_id(0);\n"
                                   "  t[l] = (int)get_global_id(0);\n"
                                   "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                   "  o[get_global_id(0)] = t[15 - l];\n"
                                   "}\n";
  cl_program p = build_expect(env, barrier_src, "-cl-opt-disable", CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "rev", &err);
  CHECK_OK(err);
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  if (k) {
    size_t global = N, local = 16;
    int out[N];
    CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
      bad += out[i] != (i / 16) * 16 + 15 - i % 16;
    CHECK(bad == 0);
    clReleaseKernel(k);
  }
  clReleaseMemObject(buf);
  clReleaseProgram(p);
}

static void test_warning_options(struct test_env *env) {
  /* a float literal assigned to an int: a warning clang gives by default */
  static const char *src = "kernel void w(global int *o) {\n"
                           "  int truncated = 2.5f;\n"
                           "  o[0] = truncated;\n"
                           "}\n";
  /* the log has the warning, also when the second build of the same source
   * and options is served from the disk cache */
  for (int round = 0; round < 2; round++) {
    cl_program p = build_expect(env, src, NULL, CL_SUCCESS);
    char *log = build_log(env, p);
    CHECK(strstr(log, "warning") != NULL);
    if (!strstr(log, "warning"))
      fprintf(stderr, "  build %d: no warning in the log \"%s\"\n", round + 1, log);
    free(log);
    int out[1];
    if (run_kernel(env, p, "w", 1, out, 1, 0, 0) == 0)
      CHECK(out[0] == 2);
    clReleaseProgram(p);
  }

  /* -w: no warnings in the log */
  cl_program p = build_expect(env, src, "-w", CL_SUCCESS);
  char *log = build_log(env, p);
  CHECK(strstr(log, "warning") == NULL);
  free(log);
  clReleaseProgram(p);

  /* -Werror: the warning fails the build */
  p = build_expect(env, src, "-Werror", CL_BUILD_PROGRAM_FAILURE);
  log = build_log(env, p);
  CHECK(strstr(log, "error") != NULL);
  free(log);
  CHECK(build_status(env, p) == CL_BUILD_ERROR);
  cl_int err;
  CHECK(clCreateKernel(p, "w", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
}

static void test_invalid_options(struct test_env *env) {
  static const char *const bad[] = {"-cl-no-such-option",
                                    "-cl-std=CL4.2",
                                    "--loom-bogus",
                                    "-cl-mad-enable -cl-invalid-after-valid",
                                    "-D",
                                    "-I"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cl_program p = build_expect(env, add_src, bad[i], CL_INVALID_BUILD_OPTIONS);
    CHECK(build_status(env, p) == CL_BUILD_ERROR);
    cl_int err;
    CHECK(clCreateKernel(p, "add", &err) == NULL);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    /* the same program builds afterwards with good options */
    CHECK_OK(clBuildProgram(p, 1, &env->device, "-cl-mad-enable", NULL, NULL));
    CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
    check_add_program(env, p, 1);
    clReleaseProgram(p);
  }
}

static void test_syntax_error(struct test_env *env) {
  static const char *src = "kernel void bad(global int *o) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  o[i] = i +;\n"
                           "}\n";
  cl_program p = source_program(env, src);
  CHECK(build_status(env, p) == CL_BUILD_NONE);
  CHECK_ERR(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK(build_status(env, p) == CL_BUILD_ERROR);
  char *log = build_log(env, p);
  CHECK(strstr(log, ":3:") != NULL); /* the line of the error */
  CHECK(strstr(log, "error") != NULL);
  if (!strstr(log, ":3:"))
    fprintf(stderr, "  build log:\n%s\n", log);
  free(log);
  size_t n = 0;
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  cl_int err;
  CHECK(clCreateKernel(p, "bad", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);

  /* a semantic error (undeclared identifier) on line 2 */
  p = build_expect(env, "kernel void k(global int *o) {\n  o[0] = undeclared_thing;\n}\n", NULL,
                   CL_BUILD_PROGRAM_FAILURE);
  log = build_log(env, p);
  CHECK(strstr(log, ":2:") != NULL && strstr(log, "undeclared_thing") != NULL);
  free(log);
  clReleaseProgram(p);

  /* a call to a function that is declared but defined nowhere */
  p = build_expect(env,
                   "int nowhere(int x);\n"
                   "kernel void k(global int *o) { o[0] = nowhere(1); }\n",
                   NULL, CL_BUILD_PROGRAM_FAILURE);
  log = build_log(env, p);
  CHECK(strstr(log, "nowhere") != NULL);
  free(log);
  clReleaseProgram(p);
}

static void test_build_status_and_options(struct test_env *env) {
  cl_program p = source_program(env, add_src);
  char opts[256] = "x";
  size_t size = 0;
  CHECK(build_status(env, p) == CL_BUILD_NONE);
  CHECK(binary_type(env, p) == CL_PROGRAM_BINARY_TYPE_NONE);
  /* before any build: empty options and log */
  CHECK_OK(
      clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, &size));
  CHECK(opts[0] == 0 && size == 1);
  char *log = build_log(env, p);
  CHECK(log[0] == 0);
  free(log);

  const char *options = "-D UNUSED=1  -cl-mad-enable";
  CHECK_OK(clBuildProgram(p, 1, &env->device, options, NULL, NULL));
  CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
  CHECK(binary_type(env, p) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  CHECK_OK(
      clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, &size));
  CHECK(!strcmp(opts, options));
  CHECK(size == strlen(options) + 1);
  size_t gsize = 12345;
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof gsize, &gsize, &size));
  CHECK(size == sizeof(size_t) && gsize == 0);

  /* a rebuild with other options replaces the echo */
  CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  CHECK_OK(
      clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, &size));
  CHECK(opts[0] == 0);
  check_add_program(env, p, 2);

  /* clGetProgramBuildInfo errors */
  cl_build_status s;
  CHECK_ERR(clGetProgramBuildInfo(NULL, env->device, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clGetProgramBuildInfo(BOGUS(cl_program), env->device, CL_PROGRAM_BUILD_STATUS, sizeof s,
                                  &s, NULL),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL),
            CL_INVALID_DEVICE);
  CHECK_ERR(
      clGetProgramBuildInfo(p, BOGUS(cl_device_id), CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL),
      CL_INVALID_DEVICE);
  CHECK_ERR(clGetProgramBuildInfo(p, env->device, 0x7777, sizeof s, &s, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_STATUS, 1, &s, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_OPTIONS, 0, opts, NULL),
            CL_INVALID_VALUE);
  clReleaseProgram(p);
}

static void test_build_errors(struct test_env *env) {
  cl_program p = source_program(env, add_src);
  cl_device_id bogus = BOGUS(cl_device_id);
  int data = 0;
  CHECK_ERR(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  CHECK_ERR(clBuildProgram(BOGUS(cl_program), 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  CHECK_ERR(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 0, &env->device, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, &data), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);
  cl_device_id nulldev = NULL;
  CHECK_ERR(clBuildProgram(p, 1, &nulldev, NULL, NULL, NULL), CL_INVALID_DEVICE);
  /* none of these touched the build state */
  CHECK(build_status(env, p) == CL_BUILD_NONE);
  clReleaseProgram(p);

  /* clCompileProgram errors */
  p = source_program(env, add_src);
  cl_program hdr = source_program(env, "#define X 1\n");
  const char *name = "x.h";
  CHECK_ERR(clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  CHECK_ERR(clCompileProgram(p, 1, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, &env->device, NULL, 0, NULL, NULL, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 1, &bogus, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, &hdr, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, &name, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 1, NULL, &name, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 1, &hdr, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, &data), CL_INVALID_VALUE);
  CHECK_ERR(clCompileProgram(p, 0, NULL, "-cl-no-such-option", 0, NULL, NULL, NULL, NULL),
            CL_INVALID_COMPILER_OPTIONS);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  clReleaseProgram(hdr);
  clReleaseProgram(p);

  p = build_expect(env, "kernel void k(global int *o) {\n  o[0] = ;\n}\n", NULL,
                   CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(p);
  p = source_program(env, "kernel void k(global int *o) {\n  o[0] = ;\n}\n");
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
            CL_COMPILE_PROGRAM_FAILURE);
  CHECK(build_status(env, p) == CL_BUILD_ERROR);
  char *log = build_log(env, p);
  CHECK(strstr(log, ":2:") != NULL);
  free(log);
  clReleaseProgram(p);
}

/* ---------- clGetProgramInfo ---------- */

static void test_program_info(struct test_env *env) {
  cl_program p = source_program(env, "kernel void first(global int *o) { o[0] = 1; }\n"
                                     "void helper(void) {}\n"
                                     "kernel void second(global int *o) { o[0] = 2; }\n");
  size_t size = 0;
  cl_uint u = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, &size));
  CHECK(u == 1 && size == sizeof(cl_uint));
  cl_context ctx = NULL;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof ctx, &ctx, &size));
  CHECK(ctx == env->context && size == sizeof ctx);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof u, &u, &size));
  CHECK(u == 1 && size == sizeof(cl_uint));
  cl_device_id dev = NULL;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof dev, &dev, &size));
  CHECK(dev == env->device && size == sizeof dev);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &size));
  CHECK(size > 10);
  char marker = 'm';
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_IL, sizeof marker, &marker, &size));
  CHECK(size == 0 && marker == 'm');
  cl_bool b = CL_TRUE;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, &size));
  CHECK(b == CL_FALSE && size == sizeof b);
  b = CL_TRUE;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b, &size));
  CHECK(b == CL_FALSE && size == sizeof b);

  /* before the build: no binary and no kernels */
  size_t bin_size = 99;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, &size));
  CHECK(bin_size == 0 && size == sizeof(size_t));
  size_t nk = 99;
  char names[64];
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);

  CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, &size));
  CHECK(nk == 2 && size == sizeof(size_t));
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size));
  CHECK(size == strlen("first;second") + 1);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, &size));
  CHECK(!strcmp(names, "first;second") || !strcmp(names, "second;first"));
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, &size));
  CHECK(bin_size > 0);

  /* errors */
  CHECK_ERR(clGetProgramInfo(NULL, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clGetProgramInfo(BOGUS(cl_program), CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clGetProgramInfo(p, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 1, &u, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 3, names, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, 1, &nk, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, 1, &bin_size, NULL), CL_INVALID_VALUE);
  unsigned char *ptrs[1] = {NULL};
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 1, ptrs, NULL), CL_INVALID_VALUE);
  clReleaseProgram(p);

  /* a failed build has no kernels either */
  p = build_expect(env, "kernel void k( {", NULL, CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
}

/* ---------- binaries ---------- */

/* the binary of p's only device (caller frees) */

static void test_binary_round_trip(struct test_env *env) {
  cl_program src = build_expect(env, add_src, "-D UNUSED=3", CL_SUCCESS);
  size_t size;
  unsigned char *bin = get_binary(src, &size);
  CHECK(bin != NULL);
  size_t ret = 0;
  CHECK_OK(clGetProgramInfo(src, CL_PROGRAM_BINARIES, 0, NULL, &ret));
  CHECK(ret == sizeof(unsigned char *));
  /* a NULL entry in the pointer array is skipped */
  unsigned char *none[1] = {NULL};
  CHECK_OK(clGetProgramInfo(src, CL_PROGRAM_BINARIES, sizeof none, none, NULL));
  clReleaseProgram(src);
  if (!bin)
    return;

  cl_int err, status = 12345;
  const unsigned char *bins[1] = {bin};
  cl_program p =
      clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, &status, &err);
  CHECK_OK(err);
  CHECK(status == CL_SUCCESS);
  CHECK(p != NULL);
  if (p) {
    CHECK(binary_type(env, p) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK(build_status(env, p) == CL_BUILD_NONE);
    char s[8] = "x";
    size_t ret = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof s, s, &ret));
    CHECK(ret <= 1 || ret == strlen(add_src) + 1);
    /* clBuildProgram is still required before kernels can be made */
    CHECK(clCreateKernel(p, "add", &err) == NULL);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_OK(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL));
    CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
    size_t nk = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 1);
    check_add_program(env, p, 11);
    /* building it again (no kernels attached) is allowed and keeps it working */
    CHECK_OK(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL));
    CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
    check_add_program(env, p, 12);
    /* its binary can be read back and loaded again */
    size_t size2;
    unsigned char *bin2 = get_binary(p, &size2);
    clReleaseProgram(p);
    if (bin2) {
      const unsigned char *bins2[1] = {bin2};
      p = clCreateProgramWithBinary(env->context, 1, &env->device, &size2, bins2, NULL, &err);
      CHECK_OK(err);
      if (p) {
        CHECK_OK(clBuildProgram(p, 0, NULL, "", NULL, NULL));
        check_add_program(env, p, -20);
        clReleaseProgram(p);
      }
      free(bin2);
    }
  }

  /* errors */
  cl_device_id bogus = BOGUS(cl_device_id);
  size_t zero = 0;
  const unsigned char *null_bin[1] = {NULL};
  CHECK(clCreateProgramWithBinary(NULL, 1, &env->device, &size, bins, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithBinary(env->context, 0, &env->device, &size, bins, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(env->context, 1, NULL, &size, bins, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(env->context, 1, &bogus, &size, bins, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, NULL, bins, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &size, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  status = 12345;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &zero, bins, &status, &err) ==
        NULL);
  CHECK(err == CL_INVALID_VALUE && status == CL_INVALID_VALUE);
  status = 12345;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &size, null_bin, &status, &err) ==
        NULL);
  CHECK(err == CL_INVALID_VALUE && status == CL_INVALID_VALUE);

  /* garbage, a truncated binary and a corrupted one are invalid binaries */
  unsigned char junk[256];
  for (size_t i = 0; i < sizeof junk; i++)
    junk[i] = (unsigned char)(i * 37 + 11);
  const unsigned char *junk_bins[1] = {junk};
  size_t junk_size = sizeof junk;
  status = 12345;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &junk_size, junk_bins, &status,
                                  &err) == NULL);
  CHECK(err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
  size_t tiny = 3;
  status = 12345;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &tiny, bins, &status, &err) ==
        NULL);
  CHECK(err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
  size_t half = size / 2;
  status = 12345;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &half, bins, &status, &err) ==
        NULL);
  CHECK(err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
  size_t minus_one = size - 1;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &minus_one, bins, NULL, &err) ==
        NULL);
  CHECK(err == CL_INVALID_BINARY);
  /* a binary damaged anywhere must be refused, at creation or at the build,
   * and never reach the point where its code could run */
  int accepted = 0;
  for (int part = 1; part < 16; part++) {
    unsigned char *damaged = malloc(size);
    memcpy(damaged, bin, size);
    damaged[size * (size_t)part / 16] ^= 0x5A;
    const unsigned char *dbins[1] = {damaged};
    cl_program d =
        clCreateProgramWithBinary(env->context, 1, &env->device, &size, dbins, &status, &err);
    if (d) {
      CHECK(err == CL_SUCCESS && status == CL_SUCCESS);
      if (clBuildProgram(d, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS)
        accepted++;
      clReleaseProgram(d);
    } else {
      CHECK(err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
    }
    free(damaged);
  }
  CHECK(accepted == 0);
  if (accepted)
    fprintf(stderr, "  %d of 15 damaged binaries were accepted\n", accepted);
  free(bin);
}

/* ---------- kernels attached, rebuilds, the cache, callbacks ---------- */

static void test_build_with_kernels_attached(struct test_env *env) {
  cl_program p = build_expect(env, add_src, NULL, CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "add", &err);
  CHECK_OK(err);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  /* the refused build left the executable alone */
  CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
  cl_kernel k2 = clCreateKernel(p, "add", &err);
  CHECK_OK(err);
  if (k2)
    clReleaseKernel(k2);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  /* with every kernel released the program can be rebuilt */
  CHECK_OK(clBuildProgram(p, 0, NULL, "-D SOMETHING=1", NULL, NULL));
  check_add_program(env, p, 4);
  /* a clone counts as an attached kernel too */
  k = clCreateKernel(p, "add", &err);
  cl_kernel clone = clCloneKernel(k, &err);
  CHECK_OK(err);
  clReleaseKernel(k);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(clone);
  CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  clReleaseProgram(p);
}

/* cache entries in dir whose bytes contain text (NULL: all of them) */
static int entries_with(const char *dir, const char *text) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || strcmp(e->d_name + len - 4, ".lcb"))
      continue;
    if (!text) {
      n++;
      continue;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *bytes = NULL;
    size_t size = 0;
    FILE *f = fopen(path, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = (size_t)ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc(size)) && fread(bytes, 1, size, f) == size)
      n += memmem(bytes, size, text, strlen(text)) != NULL;
    free(bytes);
    if (f)
      fclose(f);
  }
  closedir(d);
  return n;
}

static void test_disk_cache(struct test_env *env) {
  static const char *src = "/* disk cache test */\n"
                           "kernel void add(global int *o, int v) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  o[i] = i * 2 + v;\n"
                           "}\n";
  /* the first build fills the cache (or finds it from an earlier run); the
   * second is served from it: both must give working programs */
  for (int round = 0; round < 3; round++) {
    cl_program p = build_expect(env, src, "-cl-mad-enable", CL_SUCCESS);
    CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
    char *log = build_log(env, p);
    CHECK(log != NULL);
    free(log);
    size_t nk = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 1);
    check_add_program(env, p, round);
    clReleaseProgram(p);
  }
  const char *dir = getenv("LOOMCL_CACHE_DIR");
  const char *enabled = getenv("LOOMCL_CACHE");
  if (!dir || !*dir || (enabled && !strcmp(enabled, "0")))
    return;
  CHECK(entries_with(dir, NULL) > 0);
  /* -I folders: a source without any include never reads them, so it is
   * cached (PyOpenCL passes its own folder to every build); one that may
   * include (here through __has_include) is not. A source new to the cache
   * each run: running it makes the code, and the entry is written then. */
  static const char *body = "kernel void add(global int *o, int v) {\n"
                            "  int i = (int)get_global_id(0);\n"
                            "  o[i] = i * 2 + v;\n"
                            "}\n";
  char own[] = "/tmp/loomcl-cache-I-XXXXXX";
  if (!mkdtemp(own)) {
    CHECK(!"mkdtemp");
    return;
  }
  char *saved = strdup(dir);
  test_set_config("LOOMCL_CACHE_DIR", own);
  /* a define of its own in each build's options, which its cache entry
   * records: programs compiled earlier may still write entries here */
  char marks[2][64];
  for (int may_include = 1; may_include >= 0; may_include--) {
    char src2[512], opts[128];
    snprintf(marks[may_include], sizeof marks[0], "LOOM_I_CACHE_%ld_%d",
             (long)getpid() * 1000003L + (long)time(NULL), may_include);
    snprintf(src2, sizeof src2, "%s%s",
             may_include ? "#if __has_include(\"loom_absent.h\")\n#endif\n" : "", body);
    snprintf(opts, sizeof opts, "-I /tmp -D%s", marks[may_include]);
    cl_program p = build_expect(env, src2, opts, CL_SUCCESS);
    check_add_program(env, p, 4);
    clReleaseProgram(p);
  }
  /* the compile thread writes an entry just after the code is handed over */
  for (int t = 0; t < 500 && entries_with(own, marks[0]) < 1; t++)
    usleep(10000);
  usleep(50000);
  CHECK(entries_with(own, marks[0]) == 1); /* no include: cached */
  CHECK(entries_with(own, marks[1]) == 0); /* __has_include and -I: not cached */
  test_set_config("LOOMCL_CACHE_DIR", saved);
  free(saved);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", own);
  CHECK(system(cmd) == 0);
}

static void test_build_callbacks(struct test_env *env) {
  struct notify_log nl = {0, NULL};
  cl_program p = source_program(env, add_src);
  cl_int err = clBuildProgram(p, 1, &env->device, NULL, on_built, &nl);
  CHECK_OK(err);
  wait_notified(&nl, 1);
  CHECK(atomic_load(&nl.calls) == 1);
  CHECK(atomic_load(&nl.program) == p);
  CHECK(build_status(env, p) == CL_BUILD_SUCCESS);
  check_add_program(env, p, 9);
  clReleaseProgram(p);

  /* user_data may be NULL; the callback also runs when the build fails */
  atomic_store(&no_data_log.calls, 0);
  atomic_store(&no_data_seen, (void *)1);
  p = source_program(env, "kernel void k( {");
  err = clBuildProgram(p, 0, NULL, NULL, on_built_no_data, NULL);
  CHECK(err == CL_BUILD_PROGRAM_FAILURE || err == CL_SUCCESS);
  wait_notified(&no_data_log, 1);
  CHECK(atomic_load(&no_data_log.calls) == 1);
  CHECK(atomic_load(&no_data_log.program) == p);
  CHECK(atomic_load(&no_data_seen) == NULL);
  CHECK(build_status(env, p) == CL_BUILD_ERROR);
  clReleaseProgram(p);

  /* argument errors are reported before any callback */
  struct notify_log none = {0, NULL};
  p = source_program(env, add_src);
  CHECK_ERR(clBuildProgram(p, 1, NULL, NULL, on_built, &none), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 0, NULL, "-cl-bogus-option", on_built, &none),
            CL_INVALID_BUILD_OPTIONS);
  struct timespec ts = {0, 20000000};
  nanosleep(&ts, NULL);
  CHECK(atomic_load(&none.calls) <= 1); /* an invalid option may be reported via the callback */
  clReleaseProgram(p);
}

static void test_refcounts(struct test_env *env) {
  cl_program p = source_program(env, add_src);
  CHECK(program_refs(p) == 1);
  CHECK_OK(clRetainProgram(p));
  CHECK(program_refs(p) == 2);
  CHECK_OK(clRetainProgram(p));
  CHECK(program_refs(p) == 3);
  CHECK_OK(clReleaseProgram(p));
  CHECK_OK(clReleaseProgram(p));
  CHECK(program_refs(p) == 1);
  CHECK_ERR(clRetainProgram(NULL), CL_INVALID_PROGRAM);
  CHECK_ERR(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  CHECK_ERR(clRetainProgram(BOGUS(cl_program)), CL_INVALID_PROGRAM);
  CHECK_ERR(clReleaseProgram(BOGUS(cl_program)), CL_INVALID_PROGRAM);

  /* kernels keep their program alive; the kernel does not add to the
   * application-visible count */
  CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  cl_int err;
  cl_kernel k = clCreateKernel(p, "add", &err);
  CHECK_OK(err);
  CHECK(program_refs(p) == 1);
  CHECK_OK(clReleaseProgram(p));
  cl_program kp = NULL;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL));
  CHECK(kp == p);
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  int v = 5, out[N];
  size_t n = N;
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  CHECK(out[0] == 5 && out[N - 1] == 2 * (N - 1) + 5);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
}

/* a context with a program whose kernels run after the application released
 * everything but the queue */
static void test_release_order(struct test_env *env) {
  cl_program p = build_expect(env, add_src, NULL, CL_SUCCESS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "add", &err);
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  int v = 1;
  size_t n = N;
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  cl_event gate = clCreateUserEvent(env->context, &err);
  cl_event done;
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &n, NULL, 1, &gate, &done));
  int *host = calloc(N, sizeof(int));
  cl_event read;
  CHECK_OK(
      clEnqueueReadBuffer(env->queue, buf, CL_FALSE, 0, N * sizeof(int), host, 1, &done, &read));
  /* everything released while the launch waits */
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(buf);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &read));
  CHECK(host[0] == 1 && host[N - 1] == 2 * (N - 1) + 1);
  free(host);
  clReleaseEvent(read);
  clReleaseEvent(done);
  clReleaseEvent(gate);
}


int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_create_with_source(&env);
  test_define_options(&env);
  test_include_dir(&env);
  test_std_options(&env);
  test_math_options(&env);
  test_warning_options(&env);
  test_invalid_options(&env);
  test_syntax_error(&env);
  test_build_status_and_options(&env);
  test_build_errors(&env);
  test_program_info(&env);
  test_binary_round_trip(&env);
  test_build_with_kernels_attached(&env);
  test_disk_cache(&env);
  test_build_callbacks(&env);
  test_refcounts(&env);
  test_release_order(&env);
  test_env_release(&env);
  return test_finish("test_program");
}
