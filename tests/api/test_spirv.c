/* SPIR-V programs (clCreateProgramWithIL, cl_khr_il_program): modules as
 * Debian 12's clang-15 + llvm-spirv-15 make them from OpenCL C and as
 * written by hand (the .spvasm files of tests/spirv, assembled by the build), SPIR-V
 * 1.0 to 1.5, specialization constants of every scalar type, SPIR-V
 * libraries linked with OpenCL C, the queries, and every malformed or
 * unsupported module refused with CL_INVALID_VALUE (at creation) or
 * CL_BUILD_PROGRAM_FAILURE, never a crash. Results against host
 * references. */
#include "harness.h"
#include <CL/cl_ext.h>
#include <math.h>

static struct test_env env;
static char junk[256]; /* a pointer that is no OpenCL object */

/* the words of build/spirv/<name>.spv (free them) */
static uint32_t *load_module(const char *name, size_t *size) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.spv", LOOMCL_SPIRV_TEST_DIR, name);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (!f) {
    fprintf(stderr, "cannot open %s (spirv-as missing at build time?)\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t *w = malloc(*size + 4);
  CHECK(fread(w, 1, *size, f) == *size);
  fclose(f);
  return w;
}

static cl_program il_program(const void *il, size_t size) {
  cl_int err = 1;
  cl_program p = clCreateProgramWithIL(env.context, il, size, &err);
  CHECK_OK(err);
  return p;
}

static char *build_log(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(n + 1, 1);
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}

static cl_int build(cl_program p) {
  cl_int err = clBuildProgram(p, 1, &env.device, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    char *log = build_log(p);
    fprintf(stderr, "build log: %s\n", log);
    free(log);
  }
  return err;
}

/* kernel `kernel` of build/spirv/<module>.spv, built; NULL (a recorded
 * failure) if anything fails. The program lives as long as the kernel. */
static cl_kernel spirv_kernel(const char *module, const char *kernel) {
  size_t size = 0;
  uint32_t *w = load_module(module, &size);
  if (!w)
    return NULL;
  cl_program p = il_program(w, size);
  free(w);
  cl_int err = build(p);
  CHECK_OK(err);
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, kernel, &err) : NULL;
  clReleaseProgram(p);
  return k;
}

/* runs k over n work-items with buffer b as argument 0, then reads the
 * first bytes of b into out */
static void run_with_buffer(cl_kernel k, cl_mem b, size_t n, void *out, size_t bytes) {
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK_OK(test_run(&env, k, 1, NULL, &n, NULL));
  test_read_back(&env, b, bytes, out);
}

static void test_queries(void) {
  char ext[4096] = "", il[256] = "";
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  CHECK(strstr(ext, "cl_khr_il_program") != NULL);
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_IL_VERSION, sizeof il, il, NULL));
  CHECK(strcmp(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5") == 0);
  cl_name_version ils[8];
  size_t n = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_ILS_WITH_VERSION, sizeof ils, ils, &n));
  CHECK(n == 6 * sizeof(cl_name_version));
  for (int i = 0; i < 6; i++)
    CHECK(strcmp(ils[i].name, "SPIR-V") == 0 && ils[i].version == CL_MAKE_VERSION(1, i, 0));
  /* the extension's entry point is the core one */
  typedef cl_program (*create_fn)(cl_context, const void *, size_t, cl_int *);
  create_fn khr = (create_fn)clGetExtensionFunctionAddressForPlatform(env.platform,
                                                                     "clCreateProgramWithILKHR");
  CHECK(khr != NULL);
  size_t size = 0;
  uint32_t *w = load_module("add1-1.0", &size);
  if (khr && w) {
    cl_int err = 1;
    cl_program p = khr(env.context, w, size, &err);
    CHECK_OK(err);
    /* CL_PROGRAM_IL returns the module as given; the source is empty */
    size_t got = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &got));
    CHECK(got == size);
    unsigned char *back = malloc(size);
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_IL, size, back, NULL));
    CHECK(memcmp(back, w, size) == 0);
    free(back);
    char src[4] = "x";
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &got));
    CHECK(got == 1 && src[0] == 0);
    clReleaseProgram(p);
  }
  /* an OpenCL C program has no IL */
  cl_program c = test_program_from(&env, "kernel void k(global int *p) { p[0] = 1; }", NULL);
  size_t got = 1;
  CHECK_OK(clGetProgramInfo(c, CL_PROGRAM_IL, 0, NULL, &got));
  CHECK(got == 0);
  CHECK_ERR(clSetProgramSpecializationConstant(c, 0, 4, &got), CL_INVALID_PROGRAM);
  clReleaseProgram(c);
  free(w);
}

/* p[i] += 1, from SPIR-V 1.0 and 1.5, through clBuildProgram and through
 * clCompileProgram + clLinkProgram */
static void run_add1(cl_program p, const char *what) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "add1", &err);
  CHECK_OK(err);
  if (err != CL_SUCCESS)
    return;
  enum { n = 1000 };
  int host[n];
  for (int i = 0; i < n; i++)
    host[i] = i * 7 - 300;
  cl_mem b = test_buffer_with(&env, sizeof host, host);
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t g = n;
  CHECK_OK(test_run(&env, k, 1, NULL, &g, NULL));
  int out[n], want[n];
  test_read_back(&env, b, sizeof out, out);
  for (int i = 0; i < n; i++)
    want[i] = host[i] + 1;
  CHECK(test_count_diff(out, want, n, what) == 0);
  cl_uint nargs = 0;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  CHECK(nargs == 1);
  /* SPIR-V programs allow non-uniform work-groups (no -cl-std needed):
   * 1000 work-items in groups of 64 */
  size_t l = 64;
  CHECK_OK(test_run(&env, k, 1, NULL, &g, &l));
  test_read_back(&env, b, sizeof out, out);
  for (int i = 0; i < n; i++)
    want[i] = host[i] + 2;
  CHECK(test_count_diff(out, want, n, what) == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

static void test_versions(void) {
  const char *names[] = {"add1-1.0", "add1-1.5"};
  for (int v = 0; v < 2; v++) {
    size_t size = 0;
    uint32_t *w = load_module(names[v], &size);
    if (!w)
      continue;
    CHECK(w[1] == (v ? 0x00010500u : 0x00010000u));
    cl_program p = il_program(w, size);
    CHECK_OK(build(p));
    run_add1(p, names[v]);
    clReleaseProgram(p);
    /* compile, then link */
    p = il_program(w, size);
    CHECK_OK(clCompileProgram(p, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program_binary_type type = 0;
    CHECK_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type,
                                   NULL));
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_int err;
    cl_program linked = clLinkProgram(env.context, 1, &env.device, NULL, 1, &p, NULL, NULL, &err);
    CHECK_OK(err);
    if (linked)
      run_add1(linked, names[v]);
    clReleaseProgram(linked);
    clReleaseProgram(p);
    /* the module of the other endianness */
    for (size_t i = 0; i < size / 4; i++)
      w[i] = __builtin_bswap32(w[i]);
    p = il_program(w, size);
    CHECK_OK(build(p));
    run_add1(p, "byte-swapped module");
    clReleaseProgram(p);
    free(w);
  }
}

/* SPIR-V forms rewritten for the translator: a string decoration,
 * OpCopyMemorySized with two sets of memory operands, OpCopyMemory */
static void test_spirv14_rewrites(void) {
  cl_kernel k = spirv_kernel("spirv14-1.4", "copy14");
  if (k) {
    enum { n = 300 };
    int src[n], out[n];
    for (int i = 0; i < n; i++)
      src[i] = i * i - 7;
    cl_mem bd = test_buffer_with(&env, sizeof out, NULL), bs = test_buffer_with(&env, sizeof src, src);
    cl_mem bd2 = test_buffer_with(&env, sizeof out, NULL);
    clSetKernelArg(k, 0, sizeof bd, &bd);
    clSetKernelArg(k, 1, sizeof bs, &bs);
    clSetKernelArg(k, 2, sizeof bd2, &bd2);
    size_t g = n;
    CHECK_OK(test_run(&env, k, 1, NULL, &g, NULL));
    test_read_back(&env, bd, sizeof out, out);
    CHECK(test_count_diff(out, src, n, "copy14 (OpCopyMemorySized)") == 0);
    test_read_back(&env, bd2, sizeof out, out);
    CHECK(test_count_diff(out, src, n, "copy14 (OpCopyMemory)") == 0);
    clReleaseMemObject(bd2);
    clReleaseMemObject(bd);
    clReleaseMemObject(bs);
    clReleaseKernel(k);
  }
}

/* the kernel of tests/spirv/mix.cl, as clang-15 and llvm-spirv-15 made it:
 * work-item functions, local memory and a barrier, math, vload4, a
 * conversion, a work-group reduction, 1.x and 2.0 atomics */
static void test_translator_output(void) {
  size_t size = 0;
  uint32_t *w = load_module("mix-1.0", &size);
  if (!w)
    return;
  cl_program p = il_program(w, size);
  free(w);
  if (build(p) != CL_SUCCESS) {
    CHECK(!"mix did not build");
    clReleaseProgram(p);
    return;
  }
  cl_int err;
  cl_kernel k = clCreateKernel(p, "mix", &err);
  CHECK_OK(err);
  /* SPIR-V carries no argument names: no argument information */
  cl_kernel_arg_type_qualifier q = 0;
  CHECK_ERR(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  enum { n = 1024, local = 64 };
  float in[n], out[n];
  for (int i = 0; i < n; i++)
    in[i] = (float)((i * 37) % 101 - 50) / 8.0f;
  int counters[2] = {0, 0}, limit = 1000;
  cl_mem bout = test_buffer_with(&env, sizeof out, NULL);
  cl_mem bin = test_buffer_with(&env, sizeof in, in);
  cl_mem bcnt = test_buffer_with(&env, sizeof counters, counters);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bout, &bout));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bin, &bin));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bcnt, &bcnt));
  CHECK_OK(clSetKernelArg(k, 3, local * sizeof(float), NULL));
  CHECK_OK(clSetKernelArg(k, 4, sizeof limit, &limit));
  size_t g = n, l = local;
  CHECK_OK(test_run(&env, k, 1, NULL, &g, &l));
  test_read_back(&env, bout, sizeof out, out);
  test_read_back(&env, bcnt, sizeof counters, counters);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int group = i / local, lid = i % local, total = 0;
    for (int j = 0; j < local; j++)
      total += in[group * local + j] > 0.0f;
    float x = in[i], nb = in[group * local + (lid + 1) % local];
    const float *v = &in[(i / 4) * 4];
    float d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    float want = sinf(x) * 0.5f + sqrtf(fabsf(nb)) + d + (float)(int)(x * 3.0f) + (float)total +
                 (i < limit ? 1.0f : 0.0f);
    if (fabsf(out[i] - want) > 1e-4f * (1.0f + fabsf(want))) {
      if (bad++ < 5)
        fprintf(stderr, "mix[%d] = %g, want %g\n", i, out[i], want);
    }
  }
  CHECK(bad == 0);
  CHECK(counters[0] == n);
  CHECK(counters[1] == (n / local) * (local * (local - 1) / 2));
  clReleaseMemObject(bout);
  clReleaseMemObject(bin);
  clReleaseMemObject(bcnt);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* SPIR-V 1.4 pointer comparisons and differences (rewritten for the
 * translator): one buffer passed twice, then two SVM addresses 48 bytes
 * (12 uints) apart */
static void test_pointer_ops(void) {
  cl_kernel k = spirv_kernel("ptrops-1.4", "ptrops");
  if (k) {
    cl_mem out = test_buffer_with(&env, 3 * sizeof(cl_uint), NULL);
    cl_mem buf = test_buffer_with(&env, 4096, NULL);
    cl_uint got[3];
    size_t one = 1;
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof buf, &buf);
    clSetKernelArg(k, 2, sizeof buf, &buf);
    CHECK_OK(test_run(&env, k, 1, NULL, &one, NULL));
    test_read_back(&env, out, sizeof got, got);
    CHECK(got[0] == 1 && got[1] == 0 && got[2] == 0);
    char *svm = clSVMAlloc(env.context, 0, 4096, 0);
    CHECK_OK(clSetKernelArgSVMPointer(k, 1, svm + 48));
    CHECK_OK(clSetKernelArgSVMPointer(k, 2, svm));
    CHECK_OK(test_run(&env, k, 1, NULL, &one, NULL));
    test_read_back(&env, out, sizeof got, got);
    CHECK(got[0] == 0 && got[1] == 1 && got[2] == 12);
    clSVMFree(env.context, svm);
    clReleaseMemObject(buf);
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }
}

/* SPIR-V 1.4's OpCopyLogical (rewritten for the translator) */
static void test_copy_logical(void) {
  cl_kernel k = spirv_kernel("copylogical-1.4", "copylogical");
  if (!k)
    return;
  enum { n = 100 };
  struct {
    cl_uint u;
    cl_float f;
  } out[n];
  cl_mem b = test_buffer_with(&env, sizeof out, NULL);
  run_with_buffer(k, b, n, out, sizeof out);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += out[i].u != (cl_uint)i + 7 || out[i].f != (float)i * 0.5f;
  CHECK(bad == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* tests/spirv/subgroups.cl from the translator: OpGroupIAdd, a non-uniform
 * scan, a ballot and SPV_INTEL_subgroups' shuffle, in groups of 40 */
static void test_sub_groups(void) {
  cl_kernel k = spirv_kernel("subgroups-1.3", "sg");
  if (!k)
    return;
  enum { n = 120, L = 40 };
  cl_int out[4 * n];
  size_t g = n, l = L, big = L, s = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof big,
                                   &big, sizeof s, &s, NULL));
  cl_mem b = test_buffer_with(&env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK_OK(test_run(&env, k, 1, NULL, &g, &l));
  test_read_back(&env, b, sizeof out, out);
  int bad = 0;
  for (size_t i = 0; i < n && s; i++) {
    size_t first = i / L * L + (i % L) / s * s, end = first + s < i / L * L + L ? first + s : i / L * L + L;
    int sum = 0, scan = 0;
    unsigned ballot = 0;
    for (size_t j = first; j < end; j++) {
      int v = (int)(j * 3 % 7);
      sum += v;
      scan += j <= i ? v : 0;
      ballot |= v > 3 ? 1u << (j - first) : 0;
    }
    size_t src = first + 1 < end ? first + 1 : first;
    int want[4] = {sum, scan, (int)ballot, (int)(src * 3 % 7)};
    for (int c = 0; c < 4; c++)
      bad += out[4 * i + c] != want[c];
  }
  CHECK(s > 0 && bad == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);

  /* execution mode SubgroupSize 8: the kernel's required sub-group size */
  k = spirv_kernel("subgroups-1.3", "sg8");
  if (!k)
    return;
  size_t reqd = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                   sizeof reqd, &reqd, NULL));
  CHECK(reqd == 8);
  cl_int out8[2 * n];
  b = test_buffer_with(&env, sizeof out8, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK_OK(test_run(&env, k, 1, NULL, &g, &l));
  test_read_back(&env, b, sizeof out8, out8);
  bad = 0;
  for (int i = 0; i < n; i++) {
    int first = i / 8 * 8, sum = 8 * first + 28; /* first + ... + first + 7 */
    bad += out8[2 * i] != 8 || out8[2 * i + 1] != sum;
  }
  CHECK(bad == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* tests/spirv/async_copy.cl from the translator: its events are pointers,
 * the builtin library's target("spirv.Event") (a crash in the code
 * generator before frontend/event_calls.c) */
static void test_async_copies(void) {
  cl_kernel k = spirv_kernel("async_copy-1.4", "async_copy");
  if (!k)
    return;
  enum { n = 64, L = 16 };
  cl_int in[n], out[n];
  for (int i = 0; i < n; i++)
    in[i] = i * 3 - 50;
  cl_mem bi = test_buffer_with(&env, sizeof in, in), bo = test_buffer_with(&env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(cl_int), NULL));
  size_t g = n, l = L;
  CHECK_OK(test_run(&env, k, 1, NULL, &g, &l));
  test_read_back(&env, bo, sizeof out, out);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += out[i] != in[i] * 2 + 1;
  CHECK(bad == 0);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
}

/* tests/spirv/dims.cl from the translator: work-item functions of a
 * run-time dimension give OpenCL C's answers past the third (1 for sizes,
 * 0 for ids), also for a constant one past the built-in vector */
static void test_dynamic_dims(void) {
  cl_kernel k = spirv_kernel("dims-1.0", "dims");
  if (!k)
    return;
  size_t g[2] = {8, 6}, l[2] = {4, 3};
  for (cl_uint d = 0; d < 6; d++) {
    cl_ulong out[5];
    cl_mem b = test_buffer_with(&env, sizeof out, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
    CHECK_OK(clSetKernelArg(k, 1, sizeof d, &d));
    CHECK_OK(test_run(&env, k, 2, NULL, g, l));
    test_read_back(&env, b, sizeof out, out);
    cl_ulong want[5] = {d < 2 ? g[d] : 1, d < 2 ? l[d] : 1, 0, d < 2 ? g[d] / l[d] : 1, 1};
    int bad = 0;
    for (int j = 0; j < 5; j++)
      if (out[j] != want[j] && bad++ < 4)
        printf("    dims d=%u result %d: got %llu, want %llu\n", d, j, (unsigned long long)out[j],
               (unsigned long long)want[j]);
    CHECK(bad == 0);
    clReleaseMemObject(b);
  }
  clReleaseKernel(k);
}

/* tests/spirv/kernel_call.cl at -O0 through the translator: a kernel calls
 * another, the call marked noinline (its work-item functions were left
 * unresolved: the program's code could not be loaded) */
static void test_kernel_calls_kernel(void) {
  cl_kernel k = spirv_kernel("kernel_call-1.0", "caller");
  if (!k)
    return;
  cl_int out[8] = {0};
  cl_mem b = test_buffer_with(&env, sizeof out, out);
  run_with_buffer(k, b, 8, out, sizeof out);
  int bad = 0;
  for (int i = 0; i < 8; i++)
    bad += out[i] != 43;
  CHECK(bad == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* tests/spirv/image.cl through SPIR-V and as OpenCL C: the same pixels
 * (the image builtins themselves are checked against a host reference in
 * tests/builtins) */
static void test_images(void) {
  size_t size = 0;
  uint32_t *w = load_module("image-1.0", &size);
  char *src = test_read_file(LOOMCL_SOURCE_DIR "/tests/spirv/image.cl");
  CHECK(src != NULL);
  if (!w || !src) {
    free(w), free(src);
    return;
  }
  cl_program progs[2] = {il_program(w, size), test_program_from(&env, src, "-cl-std=CL3.0")};
  free(w), free(src);
  enum { width = 48, height = 20 };
  float in[height][width][4], out[2][height][width][4];
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < 4; c++)
        in[y][x][c] = (float)((x * 7 + y * 13 + c * 29) % 97) / 97.0f;
  cl_image_format fmt = {CL_RGBA, CL_FLOAT};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = width,
                        .image_height = height};
  cl_int err;
  cl_sampler linear = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE,
                                      CL_FILTER_LINEAR, &err);
  for (int p = 0; p < 2; p++) {
    if (!progs[p] || (p == 0 && build(progs[p]) != CL_SUCCESS)) {
      CHECK(!"the image program did not build");
      continue;
    }
    cl_kernel k = clCreateKernel(progs[p], "blur", &err);
    CHECK_OK(err);
    cl_uint nargs = 0;
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 3);
    cl_mem a = clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc,
                             in, &err);
    cl_mem b = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err);
    CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(k, 1, sizeof b, &b));
    CHECK_OK(clSetKernelArg(k, 2, sizeof linear, &linear));
    size_t g[2] = {width, height}, origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
    CHECK_OK(test_run(&env, k, 2, NULL, g, NULL));
    CHECK_OK(clEnqueueReadImage(env.queue, b, CL_TRUE, origin, region, 0, 0, out[p], 0, NULL,
                                NULL));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
  }
  CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0);
  /* and against the host: nearest reads at x - 1 and x + 1 clamped to the
   * edge, a linear read at the pixel's centre (which is the pixel) */
  int bad = 0;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < 4; c++) {
        int l = x > 0 ? x - 1 : 0, r = x + 1 < width ? x + 1 : width - 1;
        float want = 0.25f * in[y][l][c] + 0.25f * in[y][r][c] + 0.5f * in[y][x][c];
        if (fabsf(out[0][y][x][c] - want) > 1e-5f && bad++ < 4)
          fprintf(stderr, "blur (%d,%d).%d = %g / %g, want %g\n", x, y, c, out[0][y][x][c],
                  out[1][y][x][c], want);
      }
  CHECK(bad == 0);
  clReleaseSampler(linear);
  clReleaseProgram(progs[0]);
  clReleaseProgram(progs[1]);
}

/* runs "spec" and checks out[] and outl[] against the constants' values */
static void run_spec(cl_program p, int a, float b, int c, uint64_t d, int16_t e, uint8_t f,
                     double g) {
  cl_int err = build(p);
  CHECK_OK(err);
  if (err != CL_SUCCESS)
    return;
  cl_kernel k = clCreateKernel(p, "spec", &err);
  enum { n = 64 };
  float out[n];
  uint64_t outl[4] = {0};
  cl_mem bo = test_buffer_with(&env, sizeof out, NULL);
  cl_mem bl = test_buffer_with(&env, sizeof outl, outl);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  clSetKernelArg(k, 1, sizeof bl, &bl);
  size_t g_size = n;
  CHECK_OK(test_run(&env, k, 1, NULL, &g_size, NULL));
  test_read_back(&env, bo, sizeof out, out);
  test_read_back(&env, bl, sizeof outl, outl);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += out[i] != (c ? -1.0f : 1.0f) * ((float)i * (float)a + b);
  CHECK(bad == 0);
  uint64_t gbits;
  memcpy(&gbits, &g, sizeof gbits);
  CHECK(outl[0] == d && (int64_t)outl[1] == e && outl[2] == f && outl[3] == gbits);
  clReleaseMemObject(bo);
  clReleaseMemObject(bl);
  clReleaseKernel(k);
}

static void test_spec_constants(void) {
  size_t size = 0;
  uint32_t *w = load_module("spec_constants-1.2", &size);
  if (!w)
    return;
  /* the module's defaults */
  cl_program p = il_program(w, size);
  run_spec(p, 2, 0.5f, 0, 7, -3, 200, 1.25);
  clReleaseProgram(p);
  /* every one set, some twice (the last value counts) */
  p = il_program(w, size);
  int a = 5, a2 = -4;
  float b = -2.25f;
  cl_bool c = CL_TRUE; /* a boolean is one byte */
  unsigned char c1 = 1;
  uint64_t d = 0x123456789abcdefull;
  int16_t e = -32768;
  uint8_t f = 255;
  double g = -0.1;
  CHECK_OK(clSetProgramSpecializationConstant(p, 0, sizeof a, &a));
  CHECK_OK(clSetProgramSpecializationConstant(p, 0, sizeof a2, &a2));
  CHECK_OK(clSetProgramSpecializationConstant(p, 1, sizeof b, &b));
  CHECK_ERR(clSetProgramSpecializationConstant(p, 2, sizeof c, &c), CL_INVALID_VALUE);
  CHECK_OK(clSetProgramSpecializationConstant(p, 2, 1, &c1));
  CHECK_OK(clSetProgramSpecializationConstant(p, 3, sizeof d, &d));
  CHECK_OK(clSetProgramSpecializationConstant(p, 4, sizeof e, &e));
  CHECK_OK(clSetProgramSpecializationConstant(p, 5, sizeof f, &f));
  CHECK_OK(clSetProgramSpecializationConstant(p, 6, sizeof g, &g));
  run_spec(p, a2, b, 1, d, e, f, g);
  /* changed after a build, rebuilt: the new values */
  int a3 = 3;
  unsigned char c0 = 0;
  CHECK_OK(clSetProgramSpecializationConstant(p, 0, sizeof a3, &a3));
  CHECK_OK(clSetProgramSpecializationConstant(p, 2, 1, &c0));
  run_spec(p, a3, b, 0, d, e, f, g);
  /* errors */
  CHECK_ERR(clSetProgramSpecializationConstant(p, 7, sizeof a, &a), CL_INVALID_SPEC_ID);
  CHECK_ERR(clSetProgramSpecializationConstant(p, 0, 8, &d), CL_INVALID_VALUE);
  CHECK_ERR(clSetProgramSpecializationConstant(p, 4, 4, &a), CL_INVALID_VALUE);
  CHECK_ERR(clSetProgramSpecializationConstant(p, 0, sizeof a, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetProgramSpecializationConstant((cl_program)junk, 0, sizeof a, &a),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clSetProgramSpecializationConstant(NULL, 0, sizeof a, &a), CL_INVALID_PROGRAM);
  clReleaseProgram(p);
  free(w);
}

/* a SPIR-V library exporting helper(), linked with OpenCL C calling it */
static void test_link_with_opencl_c(void) {
  size_t size = 0;
  uint32_t *w = load_module("helper_lib-1.1", &size);
  if (!w)
    return;
  cl_program lib = il_program(w, size);
  free(w);
  CHECK_OK(clCompileProgram(lib, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL));
  const char *src = "float helper(float x);\n"
                    "kernel void use(global float *p) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  p[i] = helper(p[i]);\n"
                    "}\n";
  cl_int err;
  cl_program c = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
  CHECK_OK(clCompileProgram(c, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program both[2] = {c, lib};
  cl_program exe = clLinkProgram(env.context, 1, &env.device, NULL, 2, both, NULL, NULL, &err);
  CHECK_OK(err);
  if (exe) {
    cl_kernel k = clCreateKernel(exe, "use", &err);
    CHECK_OK(err);
    enum { n = 256 };
    float host[n], out[n];
    for (int i = 0; i < n; i++)
      host[i] = (float)i / 16.0f - 3.0f;
    cl_mem b = test_buffer_with(&env, sizeof host, host);
    run_with_buffer(k, b, n, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < n; i++)
      bad += out[i] != host[i] * host[i] + 1.0f;
    CHECK(bad == 0);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(exe);
  }
  clReleaseProgram(c);
  clReleaseProgram(lib);
}

/* a copy of add1-1.0 with word `at` replaced by `value` (or cut to `cut`
 * bytes when cut is not 0): CL_INVALID_VALUE at creation */
static void refused(const uint32_t *w, size_t size, size_t at, uint32_t value, size_t cut,
                    const char *what) {
  uint32_t *copy = malloc(size);
  memcpy(copy, w, size);
  if (at < size / 4)
    copy[at] = value;
  cl_int err = 1;
  cl_program p = clCreateProgramWithIL(env.context, copy, cut ? cut : size, &err);
  if (p || err != CL_INVALID_VALUE)
    fprintf(stderr, "%s: accepted (err %d)\n", what, err);
  CHECK(p == NULL && err == CL_INVALID_VALUE);
  free(copy);
}

static void test_bad_modules(void) {
  size_t size = 0;
  uint32_t *w = load_module("add1-1.0", &size);
  if (!w)
    return;
  cl_int err = 1;
  CHECK(clCreateProgramWithIL((cl_context)junk, w, size, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithIL(env.context, NULL, size, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateProgramWithIL(env.context, w, 0, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  refused(w, size, 0, 0xdeadbeef, 0, "bad magic");
  refused(w, size, 1, 0x00010600, 0, "SPIR-V 1.6");
  refused(w, size, 1, 0x00020000, 0, "SPIR-V 2.0");
  refused(w, size, 3, 0, 0, "bound 0");
  refused(w, size, 4, 1, 0, "schema not 0");
  refused(w, size, 99, 0, 18, "3 words");
  refused(w, size, 99, 0, size - 2, "not whole words");
  refused(w, size, 99, 0, 24, "truncated inside an instruction");
  /* the first instruction is OpCapability Addresses: make its word count 0,
   * then 200 (past the end), then the capability Shader and an unknown one */
  refused(w, size, 5, 0x00000011, 0, "word count 0");
  refused(w, size, 5, (200u << 16) | 17, 0, "word count past the end");
  refused(w, size, 6, 1, 0, "capability Shader");
  refused(w, size, 6, 4444, 0, "unknown capability");
  refused(w, size, 6, 15, 0, "capability ImageMipmap");
  /* word 8 is OpMemoryModel's addressing model (after 3 capabilities of 2
   * words): Physical32 and Logical */
  CHECK((w[11] & 0xffff) == 14);
  refused(w, size, 12, 1, 0, "Physical32");
  refused(w, size, 12, 0, 0, "Logical addressing");
  refused(w, size, 13, 1, 0, "GLSL450 memory model");

  /* well-formed for LoomCL's checks but not for the translator: the
   * build fails with the translator's reason in the log, the process
   * lives on. Here the load's result type is an id that is no type. */
  uint32_t *bad = malloc(size);
  memcpy(bad, w, size);
  size_t n = size / 4, at = 5;
  while (at < n && (bad[at] & 0xffff) != 61 /* OpLoad */)
    at += bad[at] >> 16;
  CHECK(at < n);
  if (at < n) {
    bad[at + 1] = w[3] - 1; /* the last id: the store's result, not a type */
    cl_program p = il_program(bad, size);
    CHECK_ERR(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(p);
    CHECK(strlen(log) > 0);
    cl_build_status st = 0;
    CHECK_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_ERROR);
    free(log);
    clReleaseProgram(p);
  }
  free(bad);
  /* cut after a whole instruction (no OpFunctionEnd): the stream is
   * intact, the module is not; the translator says so at build time */
  cl_program p = il_program(w, size - 8);
  CHECK_ERR(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(p);
  free(w);
}

/* Damaged modules: words of mix-1.0 changed at random (a fixed seed). Each
 * is refused when created, fails to build, or builds; LoomCL lives on
 * (the translator runs in a child process, and what it returns is
 * verified before use). */
static void test_mutations(void) {
  size_t size = 0;
  uint32_t *w = load_module("mix-1.0", &size);
  if (!w)
    return;
  uint64_t rng = 0x5eed5eedull;
  size_t n = size / 4;
  uint32_t *copy = malloc(size);
  int refused = 0, failed = 0, built = 0;
  for (int round = 0; round < 40; round++) {
    memcpy(copy, w, size);
    int changes = 1 + (int)(test_xorshift64(&rng) % 3);
    for (int c = 0; c < changes; c++) {
      size_t at = 5 + (size_t)(test_xorshift64(&rng) % (n - 5));
      uint64_t r = test_xorshift64(&rng);
      /* a small change to an operand, a random word, or one flipped bit */
      copy[at] = r % 3 == 0 ? copy[at] + 1 : r % 3 == 1 ? (uint32_t)(r >> 32) : copy[at] ^ (1u << (r >> 59));
    }
    cl_int err;
    cl_program p = clCreateProgramWithIL(env.context, copy, size, &err);
    if (!p) {
      CHECK(err == CL_INVALID_VALUE);
      refused++;
      continue;
    }
    err = clBuildProgram(p, 1, &env.device, NULL, NULL, NULL);
    CHECK(err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE);
    if (err == CL_SUCCESS)
      built++;
    else
      failed++;
    clReleaseProgram(p);
  }
  CHECK(refused + failed + built == 40);
  printf("damaged modules: %d refused, %d failed to build, %d built\n", refused, failed, built);
  free(copy);
  free(w);
}

int main(void) {
  test_env_init(&env);
  test_queries();
  test_versions();
  test_translator_output();
  test_spirv14_rewrites();
  test_images();
  test_pointer_ops();
  test_copy_logical();
  test_sub_groups();
  test_async_copies();
  test_dynamic_dims();
  test_kernel_calls_kernel();
  test_spec_constants();
  test_link_with_opencl_c();
  test_bad_modules();
  test_mutations();
  test_env_release(&env);
  return test_finish("test_spirv");
}
