/* The generic address space and program-scope variables (OpenCL C 2.0+,
 * compiled with -cl-std=CL3.0): to_global, to_local, to_private and
 * get_fence on pointers into global buffers, program-scope variables,
 * __local variables and arguments, private variables (also ones that live
 * across barriers) and NULL; generic pointers that are chosen per work-item
 * between __local and __global memory; program-scope variables that are
 * initialised once per program, persist across launches, are separate per
 * program and per binary load, link across separately compiled modules, and
 * are counted by CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE. OpenCL C 1.2
 * programs see none of it. */
#include "harness.h"

#define ITEMS 1024
#define LOCAL 64

/* Each work-item classifies pointers of every origin; bit b of the result
 * is set when check b holds, and all of them must. */
static const char *classify_src =
    "global int gvar = 5;\n"
    "global int garr[16] = {1, 2, 3};\n"
    "int classify(int *p) {\n"
    "  return (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2;\n"
    "}\n"
    "int fence(const void *p) { return get_fence(p); }\n"
    "kernel void k(global int *out, global int *buf, local int *larg) {\n"
    "  local int lvar[8];\n"
    "  int priv[4] = {(int)get_local_id(0), 1, 2, 3};\n"
    "  int lid = (int)get_local_id(0), i = (int)get_global_id(0), bits = 0, b = 0;\n"
    "  larg[lid] = lid;\n"
    "  if (lid < 8) lvar[lid] = lid;\n"
    "#define EXPECT(cond) bits |= (cond) ? 1 << b : 0; b++;\n"
    "  EXPECT(classify(&buf[i]) == 1)\n"
    "  EXPECT(classify(&gvar) == 1)\n"
    "  EXPECT(classify(&garr[lid % 16]) == 1)\n"
    "  EXPECT(classify(&lvar[lid % 8]) == 2)\n"
    "  EXPECT(classify(&larg[lid]) == 2)\n"
    "  EXPECT(classify(&larg[LOCAL - 1]) == 2)\n"
    "  EXPECT(classify(&priv[lid % 4]) == 4)\n"
    "  EXPECT(classify(0) == 0)\n"
    "  EXPECT(fence(&buf[i]) == CLK_GLOBAL_MEM_FENCE)\n"
    "  EXPECT(fence(&larg[lid]) == CLK_LOCAL_MEM_FENCE)\n"
    "  EXPECT(fence(&lvar[1]) == CLK_LOCAL_MEM_FENCE)\n"
    "  EXPECT(fence(&priv[1]) == CLK_GLOBAL_MEM_FENCE)\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    /* after a barrier private variables live in the group's scratch */
    "  int *pp = &priv[(lid + 1) % 4];\n"
    "  EXPECT(classify(pp) == 4)\n"
    "  EXPECT(priv[0] == lid && *to_private(&priv[0]) == lid)\n"
    "  EXPECT(*to_local(&larg[LOCAL - 1 - lid]) == LOCAL - 1 - lid)\n"
    "  EXPECT(*to_global(&gvar) == 5 && to_global(&garr[2])[0] == 3)\n"
    "  EXPECT(to_global(&buf[i]) == &buf[i] && to_local(&larg[3]) == &larg[3])\n"
    "  out[i] = bits | b << 24;\n"
    "}\n";

static void test_classify(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, classify_src, "k", "-cl-std=CL3.0 -DLOCAL=64");
  if (!k)
    return;
  cl_mem out = test_buffer_with(env, ITEMS * sizeof(int), NULL);
  cl_mem buf = test_buffer_with(env, ITEMS * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(k, 2, LOCAL * sizeof(int), NULL));
  size_t g = ITEMS, l = LOCAL;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  int res[ITEMS];
  test_read_back(env, out, sizeof res, res);
  const int checks = 17, want = (1 << checks) - 1;
  int bad = 0;
  for (int i = 0; i < ITEMS; i++)
    if (res[i] != (want | checks << 24)) {
      if (bad++ < 3)
        fprintf(stderr, "  item %d: checks %#x of %#x\n", i, res[i] & 0xffffff, want);
    }
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseMemObject(buf);
}

/* a generic pointer chosen per work-item (odd items: the group's __local
 * counter, even ones: a __global one), used for atomics and plain accesses
 * through one helper function */
static const char *select_src =
    "void bump(volatile atomic_int *c, int *plain, int v) {\n"
    "  atomic_fetch_add_explicit(c, v, memory_order_relaxed, memory_scope_work_group);\n"
    "  *plain = v;\n"
    "}\n"
    "kernel void k(global atomic_int *gc, global int *gplain, global int *out) {\n"
    "  local atomic_int lc;\n"
    "  local int lplain[LOCAL];\n"
    "  size_t lid = get_local_id(0), grp = get_group_id(0);\n"
    "  if (lid == 0) atomic_init(&lc, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  volatile atomic_int *c = &gc[grp];\n"
    "  int *plain = &gplain[get_global_id(0)];\n"
    "  if (lid & 1) {\n"
    "    c = &lc;\n"
    "    plain = &lplain[lid];\n"
    "  }\n"
    "  bump(c, plain, (int)lid);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid & 1) out[get_global_id(0)] = lplain[lid];\n"
    "  if (lid == 0) out[get_global_size(0) + grp] = atomic_load(&lc);\n"
    "}\n";

static void test_selected_pointers(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, select_src, "k", "-cl-std=CL3.0 -DLOCAL=64");
  if (!k)
    return;
  enum { G = ITEMS / LOCAL };
  int zero[G] = {0};
  cl_mem gc = test_buffer_with(env, sizeof zero, zero);
  cl_mem gp = test_buffer_with(env, ITEMS * sizeof(int), NULL);
  cl_mem out = test_buffer_with(env, (ITEMS + G) * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof gc, &gc));
  CHECK_OK(clSetKernelArg(k, 1, sizeof gp, &gp));
  CHECK_OK(clSetKernelArg(k, 2, sizeof out, &out));
  size_t g = ITEMS, l = LOCAL;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  int counters[G], plain[ITEMS], res[ITEMS + G];
  test_read_back(env, gc, sizeof counters, counters);
  test_read_back(env, gp, sizeof plain, plain);
  test_read_back(env, out, sizeof res, res);
  int even = 0, odd = 0; /* sums of the even and odd local ids */
  for (int lid = 0; lid < LOCAL; lid++)
    *(lid & 1 ? &odd : &even) += lid;
  int bad = 0;
  for (int grp = 0; grp < G; grp++) {
    bad += counters[grp] != even || res[ITEMS + grp] != odd;
    for (int lid = 0; lid < LOCAL; lid++) {
      int i = grp * LOCAL + lid;
      bad += (lid & 1) ? res[i] != lid : plain[i] != lid;
    }
  }
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(gc);
  clReleaseMemObject(gp);
  clReleaseMemObject(out);
}

/* Program-scope variables: initialised when the program is built (or its
 * binary loaded), kept across launches, one copy per program. */
static const char *progvar_src =
    "typedef struct { char c; long l; int a[3]; } rec;\n"
    "global int counter = 40;\n"
    "global rec r = {'x', -5, {7, 8, 9}};\n"
    "global float table[100] = {0.5f, 1.5f};\n"
    "constant int not_counted[50] = {1};\n"
    "kernel void step(global int *out) {\n"
    "  static global int calls = 100;\n"
    "  out[0] = counter++;\n"
    "  out[1] = calls++;\n"
    "  out[2] = r.c + (int)r.l + r.a[2];\n"
    "  out[3] = (int)(table[0] * 2.0f + table[1] * 2.0f) + (int)table[99] + not_counted[0];\n"
    "  r.a[2] += 1;\n"
    "}\n";

static void run_step(struct test_env *env, cl_program p, int out[4]) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "step", &err);
  CHECK_OK(err);
  cl_mem m = test_buffer_with(env, 4 * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t g = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, m, 4 * sizeof(int), out);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

static void test_program_scope_variables(struct test_env *env) {
  cl_program a = test_program_from(env, progvar_src, "-cl-std=CL3.0");
  cl_program b = test_program_from(env, progvar_src, "-cl-std=CL3.0");
  if (!a || !b)
    return;
  int out[4];
  run_step(env, a, out);
  CHECK(out[0] == 40 && out[1] == 100 && out[2] == 'x' - 5 + 9 && out[3] == 5);
  run_step(env, a, out);
  CHECK(out[0] == 41 && out[1] == 101 && out[2] == 'x' - 5 + 10);
  run_step(env, b, out); /* b has its own copy */
  CHECK(out[0] == 40 && out[1] == 100 && out[2] == 'x' - 5 + 9);

  /* rec = 1 + 7 padding + 8 + 12 + 4 tail padding = 32 bytes */
  size_t size = 0, ret = 0;
  CHECK_OK(clGetProgramBuildInfo(a, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof size, &size, &ret));
  CHECK(ret == sizeof(size_t));
  CHECK(size == 4 + 32 + 400 + 4);
  CHECK_ERR(clGetProgramBuildInfo(a, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof size - 1, &size, NULL),
            CL_INVALID_VALUE);

  /* a program loaded from a's binary starts from the initial values */
  size_t bin_size = 0;
  CHECK_OK(clGetProgramInfo(a, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
  unsigned char *bin = malloc(bin_size);
  CHECK_OK(clGetProgramInfo(a, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_int err, st;
  const unsigned char *cbin = bin;
  cl_program c = clCreateProgramWithBinary(env->context, 1, &env->device, &bin_size, &cbin, &st, &err);
  CHECK_OK(err);
  CHECK_OK(clBuildProgram(c, 1, &env->device, NULL, NULL, NULL));
  run_step(env, c, out);
  CHECK(out[0] == 40 && out[1] == 100);
  size = 0;
  CHECK_OK(clGetProgramBuildInfo(c, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof size, &size, NULL));
  CHECK(size == 440);
  run_step(env, a, out);
  CHECK(out[0] == 42);
  free(bin);
  clReleaseProgram(a);
  clReleaseProgram(b);
  clReleaseProgram(c);

  /* a program without variables, and one that is not built yet */
  cl_program none = test_program_from(env, "kernel void k(global int *o) { o[0] = 1; }\n",
                                      "-cl-std=CL3.0");
  if (none) {
    CHECK_OK(clGetProgramBuildInfo(none, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof size, &size, NULL));
    CHECK(size == 0);
    clReleaseProgram(none);
  }
  cl_program unbuilt = clCreateProgramWithSource(env->context, 1, &progvar_src, NULL, &err);
  CHECK_OK(err);
  size = 1;
  CHECK_OK(clGetProgramBuildInfo(unbuilt, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof size, &size, NULL));
  CHECK(size == 0);
  clReleaseProgram(unbuilt);
}

/* a variable defined in one compiled module and used through extern from
 * another, linked into one executable */
static void test_linked_variables(struct test_env *env) {
  static const char *def = "global int shared_var[4] = {10, 20, 30, 40};\n"
                           "int read_shared(int i) { return shared_var[i]; }\n";
  static const char *use = "extern global int shared_var[4];\n"
                           "int read_shared(int i);\n"
                           "kernel void k(global int *o) {\n"
                           "  int i = (int)get_global_id(0);\n"
                           "  shared_var[i] += 1;\n"
                           "  o[i] = read_shared(i) + shared_var[i];\n"
                           "}\n";
  cl_int err;
  cl_program objs[2];
  const char *srcs[2] = {def, use};
  for (int i = 0; i < 2; i++) {
    objs[i] = clCreateProgramWithSource(env->context, 1, &srcs[i], NULL, &err);
    CHECK_OK(err);
    CHECK_OK(clCompileProgram(objs[i], 1, &env->device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
  }
  cl_program exe = clLinkProgram(env->context, 1, &env->device, NULL, 2, objs, NULL, NULL, &err);
  CHECK_OK(err);
  if (exe) {
    cl_kernel k = clCreateKernel(exe, "k", &err);
    CHECK_OK(err);
    cl_mem m = test_buffer_with(env, 4 * sizeof(int), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 4;
    int o[4];
    for (int run = 1; run <= 2; run++) {
      CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
      test_read_back(env, m, sizeof o, o);
      for (int i = 0; i < 4; i++)
        CHECK(o[i] == 2 * (10 * (i + 1) + run));
    }
    size_t size = 0;
    CHECK_OK(clGetProgramBuildInfo(exe, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof size, &size, NULL));
    CHECK(size == 16);
    clReleaseKernel(k);
    clReleaseMemObject(m);
    clReleaseProgram(exe);
  }
  clReleaseProgram(objs[0]);
  clReleaseProgram(objs[1]);
}

/* the largest variable the device reports, written and read back whole */
static void test_max_size_variable(struct test_env *env) {
  size_t max = 0, pref = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max, &max, NULL));
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof pref,
                           &pref, NULL));
  CHECK(max >= 64 * 1024 && pref >= max);
  char opts[64];
  snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DN=%zu", max);
  static const char *src = "uchar big[N];\n"
                           "kernel void w(global const uchar *in) { big[get_global_id(0)] = in[get_global_id(0)]; }\n"
                           "kernel void r(global uchar *out) { out[get_global_id(0)] = big[N - 1 - get_global_id(0)]; }\n";
  cl_program p = test_program_from(env, src, opts);
  if (!p)
    return;
  cl_int err;
  unsigned char *in = malloc(max), *out = malloc(max);
  for (size_t i = 0; i < max; i++)
    in[i] = (unsigned char)(i * 131 + (i >> 9));
  cl_mem mi = test_buffer_with(env, max, in), mo = test_buffer_with(env, max, NULL);
  cl_kernel w = clCreateKernel(p, "w", &err), r = clCreateKernel(p, "r", &err);
  CHECK_OK(clSetKernelArg(w, 0, sizeof mi, &mi));
  CHECK_OK(clSetKernelArg(r, 0, sizeof mo, &mo));
  CHECK_OK(test_run(env, w, 1, NULL, &max, NULL));
  CHECK_OK(test_run(env, r, 1, NULL, &max, NULL));
  test_read_back(env, mo, max, out);
  size_t bad = 0;
  for (size_t i = 0; i < max; i++)
    bad += out[i] != in[max - 1 - i];
  CHECK(bad == 0);
  size_t size = 0;
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof size, &size, NULL));
  CHECK(size == max);
  clReleaseKernel(w);
  clReleaseKernel(r);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseProgram(p);
  free(in);
  free(out);
}

static cl_int build_status_of(struct test_env *env, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  clReleaseProgram(p);
  return err;
}

/* OpenCL C 1.2 has no generic address space and no program-scope variables
 * outside __constant; the device reports both for OpenCL C 3.0 */
static void test_versions_and_queries(struct test_env *env) {
  static const char *progvar = "global int v = 1;\nkernel void k(global int *o) { o[0] = v; }\n";
  static const char *to_glob = "kernel void k(global int *o) { int *p = o; o[0] = to_global(p) != 0; }\n";
  CHECK_ERR(build_status_of(env, progvar, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(build_status_of(env, to_glob, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK_OK(build_status_of(env, progvar, "-cl-std=CL3.0"));
  CHECK_OK(build_status_of(env, to_glob, "-cl-std=CL3.0"));
  CHECK_OK(build_status_of(env, to_glob, "-cl-std=CL3.0"));
  /* to_global needs a pointer: a build error, not a crash */
  CHECK_ERR(build_status_of(env, "kernel void k(global int *o) { o[0] = to_global(o[1]) != 0; }\n",
                            "-cl-std=CL3.0"),
            CL_BUILD_PROGRAM_FAILURE);
  static const char *macros = "kernel void k(global int *o) {\n"
                              "  int n = 0;\n"
                              "#ifdef __opencl_c_generic_address_space\n  n |= 1;\n#endif\n"
                              "#ifdef __opencl_c_program_scope_global_variables\n  n |= 2;\n#endif\n"
                              "  o[0] = n;\n"
                              "}\n";
  const char *opts[2] = {"-cl-std=CL1.2", "-cl-std=CL3.0"};
  for (int v = 0; v < 2; v++) {
    cl_kernel k = test_kernel_from(env, macros, "k", opts[v]);
    if (!k)
      continue;
    int n = -1;
    cl_mem m = test_buffer_with(env, sizeof n, &n);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 1;
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, m, sizeof n, &n);
    CHECK(n == (v ? 3 : 0));
    clReleaseKernel(k);
    clReleaseMemObject(m);
  }
  cl_bool generic = CL_FALSE;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic,
                           &generic, NULL));
  CHECK(generic == CL_TRUE);
  CHECK_ERR(clGetDeviceInfo(env->device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, 1, &generic, NULL),
            CL_INVALID_VALUE);
  size_t size = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
  cl_name_version *f = malloc(size);
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL));
  int found = 0;
  for (size_t i = 0; i < size / sizeof *f; i++)
    found += !strcmp(f[i].name, "__opencl_c_generic_address_space") +
             !strcmp(f[i].name, "__opencl_c_program_scope_global_variables");
  CHECK(found == 2);
  free(f);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_classify(&env);
  test_selected_pointers(&env);
  test_program_scope_variables(&env);
  test_linked_variables(&env);
  test_max_size_variable(&env);
  test_versions_and_queries(&env);
  test_env_release(&env);
  return test_finish("test_generic_address_space");
}
