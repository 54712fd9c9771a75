/* Separate compilation with embedded headers, linking objects and libraries,
 * link errors, and non-uniform work-group rules of linked programs. */
#include "program_util.h"
#include <dirent.h>
#include <unistd.h>

/* ---------- separate compilation, headers, linking ---------- */

static const char *kernel_src = "#include \"inc/defs.h\"\n"
                                "#include \"scale.h\"\n"
                                "kernel void linked(global int *o) {\n"
                                "  int i = (int)get_global_id(0);\n"
                                "  o[i] = helper_add(i * SCALE);\n"
                                "}\n";
static const char *helper_src = "#include \"inc/defs.h\"\n"
                                "int helper_add(int a) { return a + OFFSET; }\n";

static void check_linked(struct test_env *env, cl_program exe) {
  int out[N];
  if (run_kernel(env, exe, "linked", N, out, N, 0, 0) != 0)
    return;
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != i * 3 + 5;
  CHECK(bad == 0);
}

/* compiles src with the two embedded headers */
static cl_program compile_with_headers(struct test_env *env, const char *src, const char *options,
                                       struct notify_log *notify) {
  cl_program headers[2] = {source_program(env, "#define OFFSET 5\nint helper_add(int a);\n"),
                           source_program(env, "#define SCALE 3\n")};
  const char *names[2] = {"inc/defs.h", "scale.h"};
  cl_program p = source_program(env, src);
  cl_int err = clCompileProgram(p, 1, &env->device, options, 2, headers, names,
                                notify ? on_built : NULL, notify);
  CHECK_OK(err);
  if (notify)
    wait_notified(notify, 1);
  if (err != CL_SUCCESS || build_status(env, p) != CL_BUILD_SUCCESS) {
    char *log = build_log(env, p);
    fprintf(stderr, "  compile log:\n%s\n", log);
    free(log);
  }
  clReleaseProgram(headers[0]);
  clReleaseProgram(headers[1]);
  return p;
}

static void test_compile_and_link(struct test_env *env) {
  struct notify_log nl = {0, NULL};
  cl_program obj_k = compile_with_headers(env, kernel_src, "-D UNUSED_COMPILE_OPT", &nl);
  CHECK(atomic_load(&nl.calls) == 1 && atomic_load(&nl.program) == obj_k);
  cl_program obj_h = compile_with_headers(env, helper_src, NULL, NULL);
  CHECK(build_status(env, obj_k) == CL_BUILD_SUCCESS);
  CHECK(binary_type(env, obj_k) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  char opts[64] = "";
  CHECK_OK(
      clGetProgramBuildInfo(obj_k, env->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
  CHECK(!strcmp(opts, "-D UNUSED_COMPILE_OPT"));
  /* a compiled object is no executable */
  cl_int err;
  size_t nk;
  CHECK(clCreateKernel(obj_k, "linked", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_ERR(clGetProgramInfo(obj_k, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  size_t bin_size = 0;
  CHECK_OK(clGetProgramInfo(obj_k, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
  CHECK(bin_size > 0);

  /* link the two objects (with a callback) */
  cl_program inputs[2] = {obj_k, obj_h};
  struct notify_log link_nl = {0, NULL};
  cl_program exe =
      clLinkProgram(env->context, 1, &env->device, NULL, 2, inputs, on_built, &link_nl, &err);
  CHECK_OK(err);
  CHECK(exe != NULL);
  wait_notified(&link_nl, 1);
  CHECK(atomic_load(&link_nl.calls) == 1 && atomic_load(&link_nl.program) == exe);
  if (exe) {
    CHECK(build_status(env, exe) == CL_BUILD_SUCCESS);
    CHECK(binary_type(env, exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK_OK(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 1);
    check_linked(env, exe);
    /* a linked program was made by neither clCreateProgramWithSource nor
     * clCreateProgramWithBinary: clBuildProgram and clCompileProgram refuse it */
    CHECK_ERR(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clCompileProgram(exe, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
              CL_INVALID_OPERATION);
    check_linked(env, exe);
    clReleaseProgram(exe);
  }
  /* the other order, no device list */
  cl_program reversed[2] = {obj_h, obj_k};
  exe = clLinkProgram(env->context, 0, NULL, "", 2, reversed, NULL, NULL, &err);
  CHECK_OK(err);
  if (exe) {
    check_linked(env, exe);
    clReleaseProgram(exe);
  }

  /* a compiled object survives a binary round trip and links */
  size_t size;
  unsigned char *bin = get_binary(obj_h, &size);
  if (bin) {
    const unsigned char *bins[1] = {bin};
    cl_int status = 12345;
    cl_program obj_h2 =
        clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, &status, &err);
    CHECK_OK(err);
    CHECK(status == CL_SUCCESS);
    if (obj_h2) {
      CHECK(binary_type(env, obj_h2) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
      /* no source: clCompileProgram is refused */
      CHECK_ERR(clCompileProgram(obj_h2, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                CL_INVALID_OPERATION);
      cl_program in2[2] = {obj_k, obj_h2};
      exe = clLinkProgram(env->context, 0, NULL, NULL, 2, in2, NULL, NULL, &err);
      CHECK_OK(err);
      if (exe) {
        check_linked(env, exe);
        clReleaseProgram(exe);
      }
      clReleaseProgram(obj_h2);
    }
    free(bin);
  }

  /* a compiled object holding a kernel too: its kernel's metadata has no
   * sub-group size yet (the link chooses it), which its binary must accept */
  bin = get_binary(obj_k, &size);
  if (bin) {
    const unsigned char *bins[1] = {bin};
    cl_int status = 12345;
    cl_program obj_k2 =
        clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, &status, &err);
    CHECK_OK(err);
    CHECK(status == CL_SUCCESS);
    if (obj_k2) {
      CHECK(binary_type(env, obj_k2) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
      cl_program in2[2] = {obj_k2, obj_h};
      exe = clLinkProgram(env->context, 0, NULL, NULL, 2, in2, NULL, NULL, &err);
      CHECK_OK(err);
      if (exe) {
        check_linked(env, exe);
        clReleaseProgram(exe);
      }
      clReleaseProgram(obj_k2);
    }
    free(bin);
  }

  /* -create-library, then link the library with the kernel object */
  cl_program lib =
      clLinkProgram(env->context, 0, NULL, "-create-library", 1, &obj_h, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(lib != NULL);
  if (lib) {
    CHECK(binary_type(env, lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    CHECK(build_status(env, lib) == CL_BUILD_SUCCESS);
    CHECK(clCreateKernel(lib, "linked", &err) == NULL);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    cl_program in3[2] = {obj_k, lib};
    exe = clLinkProgram(env->context, 0, NULL, NULL, 2, in3, NULL, NULL, &err);
    CHECK_OK(err);
    if (exe) {
      check_linked(env, exe);
      clReleaseProgram(exe);
    }
    /* a library loaded from its binary links too */
    bin = get_binary(lib, &size);
    if (bin) {
      const unsigned char *bins[1] = {bin};
      cl_program lib2 =
          clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, NULL, &err);
      CHECK_OK(err);
      if (lib2) {
        CHECK(binary_type(env, lib2) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        cl_program in4[2] = {lib2, obj_k};
        exe = clLinkProgram(env->context, 0, NULL, NULL, 2, in4, NULL, NULL, &err);
        CHECK_OK(err);
        if (exe) {
          check_linked(env, exe);
          clReleaseProgram(exe);
        }
        clReleaseProgram(lib2);
      }
      free(bin);
    }
    clReleaseProgram(lib);
  }

  /* a library is no input for clBuildProgram either */
  lib = clLinkProgram(env->context, 0, NULL, "-create-library", 1, &obj_h, NULL, NULL, &err);
  CHECK_OK(err);
  if (lib) {
    CHECK_ERR(clBuildProgram(lib, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    CHECK(binary_type(env, lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    clReleaseProgram(lib);
  }

  /* link failure: helper_add is defined nowhere */
  exe = clLinkProgram(env->context, 0, NULL, NULL, 1, &obj_k, NULL, NULL, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE);
  CHECK(exe != NULL); /* the link could begin: a program holding the log */
  if (exe) {
    CHECK(build_status(env, exe) == CL_BUILD_ERROR);
    char *log = build_log(env, exe);
    CHECK(strstr(log, "helper_add") != NULL);
    free(log);
    CHECK(clCreateKernel(exe, "linked", &err) == NULL);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(exe);
  }
  /* a duplicate definition is a link failure too */
  cl_program dup[2] = {obj_h, obj_h};
  exe = clLinkProgram(env->context, 0, NULL, NULL, 2, dup, NULL, NULL, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE);
  if (exe)
    clReleaseProgram(exe);

  /* clLinkProgram errors */
  cl_program not_compiled = source_program(env, helper_src);
  cl_program bogus_prog = BOGUS(cl_program);
  cl_device_id bogus_dev = BOGUS(cl_device_id);
  int data;
  CHECK(clLinkProgram(NULL, 0, NULL, NULL, 2, inputs, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 0, inputs, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 0, NULL, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 2, NULL, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 1, NULL, NULL, 2, inputs, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 0, &env->device, NULL, 2, inputs, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 2, inputs, NULL, &data, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(env->context, 1, &bogus_dev, NULL, 2, inputs, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 1, &bogus_prog, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM);
  CHECK(clLinkProgram(env->context, 0, NULL, "-cl-no-such-link-option", 2, inputs, NULL, NULL,
                      &err) == NULL);
  CHECK(err == CL_INVALID_LINKER_OPTIONS);
  cl_program with_source[2] = {obj_k, not_compiled};
  CHECK(clLinkProgram(env->context, 0, NULL, NULL, 2, with_source, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_OPERATION);
  clReleaseProgram(not_compiled);

  clReleaseProgram(obj_k);
  clReleaseProgram(obj_h);
}

/* Launches kernel `sizes` (o[i] = get_local_size(0)) of exe over 1000 items
 * in groups of 64 and returns the enqueue status; on success the trailing
 * group must hold 40 items. */
static cl_int run_nonuniform(struct test_env *env, cl_program exe) {
  cl_int err;
  cl_kernel k = clCreateKernel(exe, "sizes", &err);
  CHECK_OK(err);
  if (!k)
    return err;
  size_t g = 1000, l = 64;
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, g * sizeof(int), NULL, &err);
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (err == CL_SUCCESS) {
    int out[1000];
    CHECK_OK(clEnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(out[0] == 64 && out[959] == 64 && out[960] == 40 && out[999] == 40);
  }
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  return err;
}

/* Whether non-uniform work-groups are allowed follows the options the code
 * was compiled with, through binaries and links. */
static void test_nonuniform_follows_options(struct test_env *env) {
  static const char *src =
      "kernel void sizes(global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }\n";
  cl_program p = build_expect(env, src, "-cl-std=CL3.0", CL_SUCCESS);
  CHECK_OK(run_nonuniform(env, p));
  /* the binary remembers the options; building it with NULL options keeps them */
  size_t size;
  unsigned char *bin = get_binary(p, &size);
  clReleaseProgram(p);
  if (bin) {
    cl_int err;
    const unsigned char *bins[1] = {bin};
    p = clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(run_nonuniform(env, p));
    clReleaseProgram(p);
    free(bin);
  }
  /* OpenCL C 1.2 code: uniform groups only */
  p = build_expect(env, src, NULL, CL_SUCCESS);
  CHECK_ERR(run_nonuniform(env, p), CL_INVALID_WORK_GROUP_SIZE);
  clReleaseProgram(p);

  /* linked from objects that were all compiled for OpenCL C 2.0 */
  static const char *helper = "int twice(int x) { return 2 * x; }\n";
  static const char *user = "int twice(int x);\n"
                            "kernel void sizes(global int *o) {\n"
                            "  o[get_global_id(0)] = twice((int)get_local_size(0)) / 2;\n"
                            "}\n";
  cl_int err;
  cl_program objs[2] = {clCreateProgramWithSource(env->context, 1, &user, NULL, &err),
                        clCreateProgramWithSource(env->context, 1, &helper, NULL, &err)};
  CHECK_OK(clCompileProgram(objs[0], 0, NULL, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
  CHECK_OK(clCompileProgram(objs[1], 0, NULL, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
  cl_program exe = clLinkProgram(env->context, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
  CHECK_OK(err);
  if (exe) {
    CHECK_OK(run_nonuniform(env, exe));
    clReleaseProgram(exe);
  }
  /* one of them compiled for OpenCL C 1.2: uniform only */
  CHECK_OK(clCompileProgram(objs[1], 0, NULL, "-cl-std=CL1.2", 0, NULL, NULL, NULL, NULL));
  exe = clLinkProgram(env->context, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
  CHECK_OK(err);
  if (exe) {
    CHECK_ERR(run_nonuniform(env, exe), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseProgram(exe);
  }
  clReleaseProgram(objs[0]);
  clReleaseProgram(objs[1]);
}

/* an embedded header whose name is not found is a compile error */
static void test_missing_header(struct test_env *env) {
  cl_program hdr = source_program(env, "#define OFFSET 5\n");
  const char *name = "other.h";
  cl_program p = source_program(env, kernel_src);
  CHECK_ERR(clCompileProgram(p, 0, NULL, NULL, 1, &hdr, &name, NULL, NULL),
            CL_COMPILE_PROGRAM_FAILURE);
  char *log = build_log(env, p);
  CHECK(strstr(log, "defs.h") != NULL);
  free(log);
  clReleaseProgram(p);
  clReleaseProgram(hdr);
}


int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_compile_and_link(&env);
  test_missing_header(&env);
  test_nonuniform_follows_options(&env);
  test_env_release(&env);
  return test_finish("test_program_link");
}
