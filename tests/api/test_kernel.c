/* Kernels: creation, arguments of every kind (buffers, scalars of each size,
 * vectors, structs by value, __local sizes), kernel/argument/work-group
 * queries, cloning, launches with missing arguments, clEnqueueTask and
 * every error path. Kernel results are checked against host values. */
#include "harness.h"
#include <stdint.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

static cl_kernel make_kernel(cl_program p, const char *name) {
  if (!p)
    return NULL;
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  return k;
}

static cl_mem make_buffer(struct test_env *env, size_t size) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, size, NULL, &err);
  CHECK_OK(err);
  /* a recognisable pattern so that unwritten elements show */
  unsigned char fill = 0xAB;
  CHECK_OK(clEnqueueFillBuffer(env->queue, m, &fill, 1, 0, size, 0, NULL, NULL));
  return m;
}

static void read_buffer(struct test_env *env, cl_mem m, size_t size, void *out) {
  CHECK_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

/* runs k over `global` work-items (local size chosen by the runtime unless
 * local != 0) and waits */
static cl_int launch(struct test_env *env, cl_kernel k, size_t global, size_t local) {
  cl_int err =
      clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(env->queue);
  return err;
}

/* ---------- clCreateKernel / clCreateKernelsInProgram ---------- */

static const char *three_src =
    "kernel void alpha(global int *o) { o[get_global_id(0)] = 1; }\n"
    "int not_a_kernel(int x) { return x + 1; }\n"
    "kernel void beta(global int *o) { o[get_global_id(0)] = not_a_kernel(1); }\n"
    "kernel void gamma(global int *o) { o[get_global_id(0)] = 3; }\n";

static void test_create_kernel(struct test_env *env) {
  cl_int err = 1;
  cl_program unbuilt = clCreateProgramWithSource(env->context, 1, &three_src, NULL, &err);
  CHECK(clCreateKernel(unbuilt, "alpha", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  cl_uint n = 99;
  CHECK_ERR(clCreateKernelsInProgram(unbuilt, 0, NULL, &n), CL_INVALID_PROGRAM_EXECUTABLE);
  /* a failed build is no executable either */
  const char *broken = "kernel void alpha(global int *o) { o[0] = }";
  cl_program failed = clCreateProgramWithSource(env->context, 1, &broken, NULL, &err);
  CHECK_ERR(clBuildProgram(failed, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK(clCreateKernel(failed, "alpha", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(failed);

  CHECK(clCreateKernel(NULL, "alpha", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM);
  CHECK(clCreateKernel(BOGUS(cl_program), "alpha", &err) == NULL);
  CHECK(err == CL_INVALID_PROGRAM);
  CHECK_ERR(clCreateKernelsInProgram(NULL, 0, NULL, &n), CL_INVALID_PROGRAM);

  cl_program p = test_program_from(env, three_src, NULL);
  clReleaseProgram(unbuilt);
  if (!p)
    return;
  CHECK(clCreateKernel(p, "delta", &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(p, "not_a_kernel", &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(p, "alph", &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(p, "", &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(p, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateKernel(p, "delta", NULL) == NULL); /* errcode_ret may be NULL */
  cl_kernel k = clCreateKernel(p, "beta", NULL);
  CHECK(k != NULL);
  if (k)
    clReleaseKernel(k);

  /* clCreateKernelsInProgram */
  n = 0;
  CHECK_OK(clCreateKernelsInProgram(p, 0, NULL, &n));
  CHECK(n == 3);
  cl_kernel ks[4] = {NULL, NULL, NULL, NULL};
  CHECK_ERR(clCreateKernelsInProgram(p, 2, ks, &n), CL_INVALID_VALUE);
  CHECK(ks[0] == NULL && ks[1] == NULL);
  CHECK_ERR(clCreateKernelsInProgram(p, 0, ks, NULL), CL_INVALID_VALUE);
  n = 0;
  CHECK_OK(clCreateKernelsInProgram(p, 4, ks, &n));
  CHECK(n == 3 && ks[3] == NULL);
  int seen = 0;
  for (int i = 0; i < 3; i++) {
    char name[32] = "";
    CHECK_OK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    if (!strcmp(name, "alpha"))
      seen |= 1;
    else if (!strcmp(name, "beta"))
      seen |= 2;
    else if (!strcmp(name, "gamma"))
      seen |= 4;
  }
  CHECK(seen == 7);
  /* each one runs its own function */
  cl_mem buf = make_buffer(env, 3 * sizeof(int));
  for (int i = 0; i < 3; i++) {
    char name[32] = "";
    clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    int expect = name[0] == 'a' ? 1 : name[0] == 'b' ? 2 : 3;
    CHECK_OK(clSetKernelArg(ks[i], 0, sizeof buf, &buf));
    size_t one = 1, off = (size_t)expect - 1;
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, ks[i], 1, &off, &one, NULL, 0, NULL, NULL));
  }
  int got[3];
  read_buffer(env, buf, sizeof got, got);
  CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3);
  clReleaseMemObject(buf);
  for (int i = 0; i < 3; i++)
    clReleaseKernel(ks[i]);
  /* num_kernels_ret may be NULL */
  CHECK_OK(clCreateKernelsInProgram(p, 3, ks, NULL));
  for (int i = 0; i < 3; i++)
    clReleaseKernel(ks[i]);
  clReleaseProgram(p);

  /* a program without kernels */
  cl_program empty = test_program_from(env, "int f(int x) { return x; }\n", NULL);
  if (empty) {
    n = 99;
    CHECK_OK(clCreateKernelsInProgram(empty, 0, NULL, &n));
    CHECK(n == 0);
    CHECK(clCreateKernel(empty, "f", &err) == NULL);
    CHECK(err == CL_INVALID_KERNEL_NAME);
    clReleaseProgram(empty);
  }
}

/* ---------- clSetKernelArg ---------- */

static void test_buffer_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void nullbuf(global int *o, global const int *maybe,"
                       "                    constant int *c) {\n"
                       "  o[0] = maybe == 0 ? -1 : maybe[1];\n"
                       "  o[1] = c == 0 ? -1 : c[2];\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "nullbuf");
  if (!k)
    return;
  cl_mem out = make_buffer(env, 2 * sizeof(int));
  int in_data[4] = {10, 20, 30, 40};
  cl_int err;
  cl_mem in = clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in_data,
                             in_data, &err);
  cl_mem none = NULL;
  int got[2];
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  /* a NULL buffer: arg_value pointing to NULL, or arg_value NULL */
  CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &none));
  CHECK_OK(clSetKernelArg(k, 2, sizeof(cl_mem), NULL));
  CHECK_OK(launch(env, k, 1, 1));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == -1 && got[1] == -1);
  CHECK_OK(clSetKernelArg(k, 1, sizeof in, &in));
  CHECK_OK(clSetKernelArg(k, 2, sizeof in, &in));
  CHECK_OK(launch(env, k, 1, 1));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == 20 && got[1] == 30);
  /* back to NULL */
  CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_mem), NULL));
  CHECK_OK(launch(env, k, 1, 1));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == -1 && got[1] == 30);
  /* a sub-buffer is a buffer argument whose data starts at its origin */
  cl_uint align_bits = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t origin = align_bits / 8, count = origin / sizeof(int) + 8;
  int *big_data = malloc(count * sizeof(int));
  for (size_t i = 0; i < count; i++)
    big_data[i] = (int)i * 3;
  cl_mem big = clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              count * sizeof(int), big_data, &err);
  CHECK_OK(err);
  cl_buffer_region region = {origin, 4 * sizeof(int)};
  cl_mem sub =
      clCreateSubBuffer(big, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(k, 1, sizeof sub, &sub));
  CHECK_OK(launch(env, k, 1, 1));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == (int)(origin / sizeof(int) + 1) * 3 && got[1] == 30);
  CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_mem), NULL));
  clReleaseMemObject(sub);
  clReleaseMemObject(big);
  free(big_data);

  /* errors */
  cl_mem bogus = BOGUS(cl_mem);
  cl_command_queue q = env->queue;
  CHECK_ERR(clSetKernelArg(NULL, 0, sizeof out, &out), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArg(BOGUS(cl_kernel), 0, sizeof out, &out), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof out, &out), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelArg(k, 100000, sizeof out, &out), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof out - 1, &out), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 0, 0, &out), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof q, &q), CL_INVALID_MEM_OBJECT);
  /* the failed calls did not change the arguments */
  CHECK_OK(launch(env, k, 1, 1));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == -1 && got[1] == 30);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

struct scalar_values {
  cl_char c;
  cl_short s;
  cl_int i;
  cl_long l;
  cl_float f;
  cl_double d;
  cl_uchar uc;
  cl_ushort us;
  cl_uint ui;
  cl_ulong ul;
};

static void test_scalar_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                       "kernel void scalars(global long *o, char c, short s, int i, long l,\n"
                       "                    float f, double d, uchar uc, ushort us, uint ui,\n"
                       "                    ulong ul) {\n"
                       "  o[0] = c; o[1] = s; o[2] = i; o[3] = l;\n"
                       "  o[4] = as_int(f); o[5] = as_long(d);\n"
                       "  o[6] = uc; o[7] = us; o[8] = ui; o[9] = as_long(ul);\n"
                       "  o[10] = (long)(f * 4.0f) + (long)(d * 2.0);\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "scalars");
  if (!k)
    return;
  cl_mem out = make_buffer(env, 11 * sizeof(cl_long));
  const struct scalar_values sets[2] = {
      {-7, -300, -100000, 0x123456789abLL, 1.25f, -2.5e100, 200, 60000, 4000000000u,
       0xfedcba9876543210ULL},
      {127, 32767, 2147483647, -9223372036854775807LL - 1, -0.5f, 3.0, 0, 1, 0, 1}};
  for (int t = 0; t < 2; t++) {
    const struct scalar_values *v = &sets[t];
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 1, sizeof v->c, &v->c));
    CHECK_OK(clSetKernelArg(k, 2, sizeof v->s, &v->s));
    CHECK_OK(clSetKernelArg(k, 3, sizeof v->i, &v->i));
    CHECK_OK(clSetKernelArg(k, 4, sizeof v->l, &v->l));
    CHECK_OK(clSetKernelArg(k, 5, sizeof v->f, &v->f));
    CHECK_OK(clSetKernelArg(k, 6, sizeof v->d, &v->d));
    CHECK_OK(clSetKernelArg(k, 7, sizeof v->uc, &v->uc));
    CHECK_OK(clSetKernelArg(k, 8, sizeof v->us, &v->us));
    CHECK_OK(clSetKernelArg(k, 9, sizeof v->ui, &v->ui));
    CHECK_OK(clSetKernelArg(k, 10, sizeof v->ul, &v->ul));
    CHECK_OK(launch(env, k, 1, 1));
    cl_long got[11];
    read_buffer(env, out, sizeof got, got);
    int32_t fbits;
    int64_t dbits, ulbits;
    memcpy(&fbits, &v->f, 4);
    memcpy(&dbits, &v->d, 8);
    memcpy(&ulbits, &v->ul, 8);
    CHECK(got[0] == v->c);
    CHECK(got[1] == v->s);
    CHECK(got[2] == v->i);
    CHECK(got[3] == v->l);
    CHECK(got[4] == fbits);
    CHECK(got[5] == dbits);
    CHECK(got[6] == v->uc);
    CHECK(got[7] == v->us);
    CHECK(got[8] == (cl_long)v->ui);
    CHECK(got[9] == ulbits);
    if (t == 1)
      CHECK(got[10] == -2 + 6);
  }

  /* sizes must match the declared types exactly */
  cl_long big = 0;
  CHECK_ERR(clSetKernelArg(k, 1, 2, &big), CL_INVALID_ARG_SIZE); /* char */
  CHECK_ERR(clSetKernelArg(k, 2, 4, &big), CL_INVALID_ARG_SIZE); /* short */
  CHECK_ERR(clSetKernelArg(k, 3, 8, &big), CL_INVALID_ARG_SIZE); /* int */
  CHECK_ERR(clSetKernelArg(k, 4, 4, &big), CL_INVALID_ARG_SIZE); /* long */
  CHECK_ERR(clSetKernelArg(k, 5, 8, &big), CL_INVALID_ARG_SIZE); /* float */
  CHECK_ERR(clSetKernelArg(k, 6, 4, &big), CL_INVALID_ARG_SIZE); /* double */
  CHECK_ERR(clSetKernelArg(k, 3, 0, &big), CL_INVALID_ARG_SIZE);
  /* a scalar needs a value */
  CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_int), NULL), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 6, sizeof(cl_double), NULL), CL_INVALID_ARG_VALUE);
  /* a buffer argument given a scalar's size */
  CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_int), &big), CL_INVALID_ARG_SIZE);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_vector_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                       "kernel void vectors(global int *o, float4 a, int8 b, float3 c,\n"
                       "                    uchar16 d, short2 e, int3 f, char3 h,\n"
                       "                    double2 dd) {\n"
                       "  for (int i = 0; i < 4; i++) o[i] = as_int(a[i]);\n"
                       "  o[4] = b.s0; o[5] = b.s1; o[6] = b.s2; o[7] = b.s3;\n"
                       "  o[8] = b.s4; o[9] = b.s5; o[10] = b.s6; o[11] = b.s7;\n"
                       "  o[12] = as_int(c.x); o[13] = as_int(c.y); o[14] = as_int(c.z);\n"
                       "  o[15] = d.s0 + d.s5 * 256 + d.sf * 65536;\n"
                       "  o[16] = e.x; o[17] = e.y;\n"
                       "  float4 sum = a + (float4)(c, 1.0f);\n"
                       "  o[18] = (int)(sum.x + sum.y + sum.z + sum.w);\n"
                       "  o[19] = f.x; o[20] = f.y; o[21] = f.z;\n"
                       "  o[22] = h.x; o[23] = h.y; o[24] = h.z;\n"
                       "  o[25] = (int)dd.x; o[26] = (int)(dd.y * 4.0);\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "vectors");
  if (!k)
    return;
  cl_mem out = make_buffer(env, 27 * sizeof(int));
  cl_float4 a = {{1.5f, -2.0f, 3.25f, 100.0f}};
  cl_int8 b = {{1, -2, 3, -4, 5, -6, 7, 2147483647}};
  cl_float3 c = {{10.0f, 20.0f, 30.0f}};
  c.s[3] = 12345.0f; /* padding: never read */
  cl_uchar16 d;
  for (int i = 0; i < 16; i++)
    d.s[i] = (cl_uchar)(i * 10 + 5);
  cl_short2 e = {{-32768, 1234}};
  cl_int3 f = {{-1, 2000000000, 3}};
  cl_char3 h = {{-128, 0, 127}};
  cl_double2 dd = {{-7.0, 0.75}};
  CHECK(sizeof(cl_float3) == 16 && sizeof(cl_int3) == 16 && sizeof(cl_char3) == 4);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, &a));
  CHECK_OK(clSetKernelArg(k, 2, sizeof b, &b));
  CHECK_OK(clSetKernelArg(k, 3, sizeof c, &c));
  CHECK_OK(clSetKernelArg(k, 4, sizeof d, &d));
  CHECK_OK(clSetKernelArg(k, 5, sizeof e, &e));
  CHECK_OK(clSetKernelArg(k, 6, sizeof f, &f));
  CHECK_OK(clSetKernelArg(k, 7, sizeof h, &h));
  CHECK_OK(clSetKernelArg(k, 8, sizeof dd, &dd));
  CHECK_OK(launch(env, k, 1, 1));
  int got[27];
  read_buffer(env, out, sizeof got, got);
  for (int i = 0; i < 4; i++) {
    int bits;
    memcpy(&bits, &a.s[i], 4);
    CHECK(got[i] == bits);
  }
  for (int i = 0; i < 8; i++)
    CHECK(got[4 + i] == b.s[i]);
  for (int i = 0; i < 3; i++) {
    int bits;
    memcpy(&bits, &c.s[i], 4);
    CHECK(got[12 + i] == bits);
  }
  CHECK(got[15] == 5 + 55 * 256 + 155 * 65536);
  CHECK(got[16] == -32768 && got[17] == 1234);
  CHECK(got[18] == (int)(11.5f + 18.0f + 33.25f + 101.0f));
  CHECK(got[19] == -1 && got[20] == 2000000000 && got[21] == 3);
  CHECK(got[22] == -128 && got[23] == 0 && got[24] == 127);
  CHECK(got[25] == -7 && got[26] == 3);

  /* a float3 is passed as 16 bytes, never 12 */
  CHECK_ERR(clSetKernelArg(k, 3, 3 * sizeof(cl_float), &c), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 1, sizeof(cl_float2), &a), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 2, sizeof(cl_int4), &b), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 2, sizeof b, NULL), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 6, 3 * sizeof(cl_int), &f), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 7, 3, &h), CL_INVALID_ARG_SIZE);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* host layouts of the OpenCL C structs below */
struct small_struct {
  cl_char c;
  cl_int i;
  cl_float f;
};
struct padded_struct {
  cl_int a[5];
  cl_long l;
  cl_char tail;
};

static void test_struct_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "typedef struct { char c; int i; float f; } small_t;\n"
                       "typedef struct { int a[5]; long l; char tail; } padded_t;\n"
                       "kernel void structs(global long *o, small_t s, int after, padded_t q) {\n"
                       "  o[0] = s.c; o[1] = s.i; o[2] = as_int(s.f); o[3] = after;\n"
                       "  for (int k = 0; k < 5; k++) o[4 + k] = q.a[k];\n"
                       "  o[9] = q.l; o[10] = q.tail;\n"
                       "  o[11] = sizeof(small_t); o[12] = sizeof(padded_t);\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "structs");
  if (!k)
    return;
  cl_mem out = make_buffer(env, 13 * sizeof(cl_long));
  struct small_struct s;
  memset(&s, 0x5a, sizeof s); /* padding holds junk */
  s.c = -100;
  s.i = 123456789;
  s.f = 6.5f;
  struct padded_struct q;
  memset(&q, 0x33, sizeof q);
  for (int i = 0; i < 5; i++)
    q.a[i] = i * i - 7;
  q.l = -0x1234567890LL;
  q.tail = 99;
  cl_int after = -42;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof s, &s));
  CHECK_OK(clSetKernelArg(k, 2, sizeof after, &after));
  CHECK_OK(clSetKernelArg(k, 3, sizeof q, &q));
  CHECK_OK(launch(env, k, 1, 1));
  cl_long got[13];
  read_buffer(env, out, sizeof got, got);
  int fbits;
  memcpy(&fbits, &s.f, 4);
  CHECK(got[0] == -100);
  CHECK(got[1] == 123456789);
  CHECK(got[2] == fbits);
  CHECK(got[3] == -42);
  for (int i = 0; i < 5; i++)
    CHECK(got[4 + i] == i * i - 7);
  CHECK(got[9] == -0x1234567890LL);
  CHECK(got[10] == 99);
  CHECK(got[11] == (cl_long)sizeof(struct small_struct));
  CHECK(got[12] == (cl_long)sizeof(struct padded_struct));

  CHECK_ERR(clSetKernelArg(k, 1, sizeof s - 4, &s), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 1, sizeof s + 4, &s), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof q - 8, &q), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 1, sizeof s, NULL), CL_INVALID_ARG_VALUE);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_local_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void locals(global int *o, local int *a, local short *b) {\n"
                       "  int l = (int)get_local_id(0), n = (int)get_local_size(0);\n"
                       "  a[l] = l * 3;\n"
                       "  b[l] = (short)(1000 + l);\n"
                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                       "  o[get_global_id(0)] = a[(l + 1) % n] + b[n - 1 - l];\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "locals");
  if (!k)
    return;
  enum { G = 256, L = 64 };
  cl_mem out = make_buffer(env, G * sizeof(int));
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(cl_int), NULL));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(cl_short), NULL));
  cl_ulong local_size = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_size,
                                    &local_size, NULL));
  CHECK(local_size >= L * (sizeof(cl_int) + sizeof(cl_short)));
  CHECK_OK(launch(env, k, G, L));
  int got[G];
  read_buffer(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int l = i % L;
    bad += got[i] != ((l + 1) % L) * 3 + 1000 + (L - 1 - l);
  }
  CHECK(bad == 0);

  /* larger __local sizes than needed are fine; the size shows in the query */
  CHECK_OK(clSetKernelArg(k, 1, 16384, NULL));
  cl_ulong bigger = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof bigger,
                                    &bigger, NULL));
  CHECK(bigger >= 16384 + L * sizeof(cl_short));
  CHECK_OK(launch(env, k, G, L));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == 3 + 1000 + L - 1);

  /* errors: a __local argument takes a size and no value */
  int value = 0;
  CHECK_ERR(clSetKernelArg(k, 1, 64, &value), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE);
  /* the global pointer argument is not a __local one */
  CHECK_ERR(clSetKernelArg(k, 0, 64, NULL), CL_INVALID_ARG_SIZE);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* arguments are captured at enqueue time: later clSetKernelArg calls do not
 * change a launch that is still waiting */
static void test_args_snapshot(struct test_env *env) {
  cl_program p =
      test_program_from(env, "kernel void put(global int *o, int v) { o[get_global_id(0)] = v; }\n", NULL);
  cl_kernel k = make_kernel(p, "put");
  if (!k)
    return;
  cl_int err;
  cl_mem a = make_buffer(env, 4 * sizeof(int)), b = make_buffer(env, 4 * sizeof(int));
  CHECK_OK(clFinish(env->queue));
  cl_event gate = clCreateUserEvent(env->context, &err);
  int v = 1;
  CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  size_t g = 4;
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, NULL, 1, &gate, NULL));
  v = 2;
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clFinish(env->queue));
  int ga[4], gb[4];
  read_buffer(env, a, sizeof ga, ga);
  read_buffer(env, b, sizeof gb, gb);
  CHECK(ga[0] == 1 && ga[3] == 1 && gb[0] == 2 && gb[3] == 2);
  clReleaseEvent(gate);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---------- queries ---------- */

static void test_kernel_info(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void plain(global int *o, int v) { o[0] = v; }\n"
                       "kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
                       "void fixed(global int *o) { o[get_global_id(0)] = 1; }\n"
                       "kernel __attribute__((work_group_size_hint(8, 1, 1)))\n"
                       "__attribute__((vec_type_hint(float4)))\n"
                       "void hinted(global int *o) { o[0] = 1; }\n",
                       NULL);
  cl_kernel k = make_kernel(p, "plain");
  cl_kernel fixed = make_kernel(p, "fixed");
  cl_kernel hinted = make_kernel(p, "hinted");
  if (!k || !fixed || !hinted)
    return;
  char name[64] = "";
  size_t size = 0;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, &size));
  CHECK(!strcmp(name, "plain") && size == 6);
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, NULL, &size));
  CHECK(size == 6);
  cl_uint u = 0;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof u, &u, &size));
  CHECK(u == 2 && size == sizeof(cl_uint));
  CHECK_OK(clGetKernelInfo(fixed, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL));
  CHECK(u == 1);
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, &size));
  CHECK(u == 1 && size == sizeof(cl_uint));
  CHECK_OK(clRetainKernel(k));
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, NULL));
  CHECK(u == 2);
  CHECK_OK(clReleaseKernel(k));
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, NULL));
  CHECK(u == 1);
  cl_context ctx = NULL;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, &size));
  CHECK(ctx == env->context && size == sizeof ctx);
  cl_program kp = NULL;
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, &size));
  CHECK(kp == p && size == sizeof kp);
  char attrs[256] = "x";
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, &size));
  CHECK(attrs[0] == 0 && size == 1);
  CHECK_OK(clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, &size));
  CHECK(strstr(attrs, "reqd_work_group_size(4,2,1)") != NULL);
  CHECK(size == strlen(attrs) + 1);
  CHECK_OK(clGetKernelInfo(hinted, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, &size));
  CHECK(strstr(attrs, "work_group_size_hint(8,1,1)") != NULL);
  CHECK(strstr(attrs, "vec_type_hint(float4)") != NULL);

  /* errors */
  CHECK_ERR(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clGetKernelInfo(BOGUS(cl_kernel), CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL),
            CL_INVALID_KERNEL);
  CHECK_ERR(clGetKernelInfo(k, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 2, &u, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 3, name, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_CONTEXT, 4, &ctx, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clRetainKernel(NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clReleaseKernel(NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clRetainKernel(BOGUS(cl_kernel)), CL_INVALID_KERNEL);
  CHECK_ERR(clReleaseKernel(BOGUS(cl_kernel)), CL_INVALID_KERNEL);

  /* clGetKernelWorkGroupInfo */
  size_t max_wg = 0, wg = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
  CHECK_OK(
      clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, &size));
  CHECK(wg >= 1 && wg <= max_wg && size == sizeof(size_t));
  /* device may be NULL when the kernel has a single device */
  size_t wg2 = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg2, &wg2, NULL));
  CHECK(wg2 == wg);
  size_t cwg[3] = {9, 9, 9};
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg,
                                    cwg, &size));
  CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0 && size == sizeof cwg);
  CHECK_OK(clGetKernelWorkGroupInfo(fixed, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                    sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 4 && cwg[1] == 2 && cwg[2] == 1);
  CHECK_OK(clGetKernelWorkGroupInfo(hinted, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                    sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
  size_t multiple = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                    sizeof multiple, &multiple, &size));
  CHECK(multiple >= 1 && multiple <= wg && size == sizeof(size_t));
  cl_ulong local = 99, priv = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                    &size));
  CHECK(local == 0 && size == sizeof(cl_ulong));
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                    &size));
  CHECK(size == sizeof(cl_ulong));
  size_t gws[3];
  /* only for custom devices and built-in kernels */
  CHECK_ERR(
      clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof gws, gws, NULL),
      CL_INVALID_VALUE);
  CHECK_ERR(
      clGetKernelWorkGroupInfo(NULL, env->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_INVALID_KERNEL);
  CHECK_ERR(clGetKernelWorkGroupInfo(k, BOGUS(cl_device_id), CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                                     &wg, NULL),
            CL_INVALID_DEVICE);
  CHECK_ERR(clGetKernelWorkGroupInfo(k, env->device, 0x7777, sizeof wg, &wg, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_WORK_GROUP_SIZE, 1, &wg, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof(size_t), cwg, NULL),
            CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseKernel(fixed);
  clReleaseKernel(hinted);
  clReleaseProgram(p);

  /* private arrays count in CL_KERNEL_PRIVATE_MEM_SIZE, with and without a
   * barrier they have to survive */
  p = test_program_from(env,
            "kernel void priv(global int *o, int n) {\n"
            "  int arr[64];\n"
            "  for (int i = 0; i < 64; i++) arr[i] = o[i] + n;\n"
            "  o[get_global_id(0)] = arr[o[64] & 63];\n"
            "}\n"
            "kernel void priv_barrier(global int *o, int n) {\n"
            "  int arr[64];\n"
            "  for (int i = 0; i < 64; i++) arr[i] = o[i] + n;\n"
            "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
            "  o[get_global_id(0)] = arr[o[64] & 63];\n"
            "}\n",
            NULL);
  static const char *const priv_names[2] = {"priv", "priv_barrier"};
  for (int i = 0; i < 2 && p; i++) {
    k = make_kernel(p, priv_names[i]);
    if (!k)
      continue;
    priv = 0;
    CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv,
                                      &priv, NULL));
    CHECK(priv >= 64 * sizeof(int));
    if (priv < 64 * sizeof(int))
      fprintf(stderr, "  %s: CL_KERNEL_PRIVATE_MEM_SIZE %llu\n", priv_names[i],
              (unsigned long long)priv);
    clReleaseKernel(k);
  }
  if (p)
    clReleaseProgram(p);

  /* static __local variables count in CL_KERNEL_LOCAL_MEM_SIZE */
  p = test_program_from(env,
            "kernel void with_local(global float *o) {\n"
            "  local float tile[256];\n"
            "  tile[get_local_id(0)] = 1.0f;\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
            "  o[get_global_id(0)] = tile[0];\n"
            "}\n",
            NULL);
  k = make_kernel(p, "with_local");
  if (k) {
    CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local,
                                      &local, NULL));
    CHECK(local >= 256 * sizeof(float));
    clReleaseKernel(k);
  }
  if (p)
    clReleaseProgram(p);
}

static const char *arg_info_src =
    "typedef struct { int x; } pair_t;\n"
    "kernel void info(global const float *restrict in, local int *scratch,\n"
    "                 constant int *table, float4 v, volatile global uint *vol,\n"
    "                 int plain, pair_t pr) {\n"
    "  scratch[0] = table[0] + plain + pr.x;\n"
    "  vol[0] = (uint)(in[0] + v.x) + scratch[0];\n"
    "}\n";

static void test_arg_info(struct test_env *env) {
  cl_program p = test_program_from(env, arg_info_src, "-cl-kernel-arg-info");
  cl_kernel k = make_kernel(p, "info");
  if (!k)
    return;
  static const struct {
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier type_qual;
    const char *type_name;
    const char *name;
  } expect[7] = {
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
       "float*", "in"},
      {CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE, "int*", "scratch"},
      {CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST, "int*", "table"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "float4", "v"},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE, "uint*", "vol"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "int", "plain"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE, "pair_t", "pr"},
  };
  for (cl_uint i = 0; i < 7; i++) {
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_access_qualifier acc = 0;
    cl_kernel_arg_type_qualifier tq = 99;
    char type_name[64] = "", name[64] = "";
    size_t size = 0;
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, &size));
    CHECK(aq == expect[i].address && size == sizeof aq);
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, &size));
    CHECK(acc == CL_KERNEL_ARG_ACCESS_NONE && size == sizeof acc);
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, &size));
    CHECK(tq == expect[i].type_qual && size == sizeof tq);
    if (tq != expect[i].type_qual)
      fprintf(stderr, "  arg %u: type qualifier %llx\n", i, (unsigned long long)tq);
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type_name, type_name, &size));
    CHECK(!strcmp(type_name, expect[i].type_name) && size == strlen(type_name) + 1);
    if (strcmp(type_name, expect[i].type_name))
      fprintf(stderr, "  arg %u: type name '%s'\n", i, type_name);
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, &size));
    CHECK(!strcmp(name, expect[i].name) && size == strlen(name) + 1);
    CHECK_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, 0, NULL, &size));
    CHECK(size == strlen(expect[i].name) + 1);
  }
  cl_kernel_arg_address_qualifier aq;
  char small[2];
  CHECK_ERR(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
            CL_INVALID_ARG_INDEX);
  CHECK_ERR(clGetKernelArgInfo(k, 0, 0x7777, sizeof aq, &aq, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 1, &aq, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof small, small, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, 0, NULL, NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clGetKernelArgInfo(BOGUS(cl_kernel), 0, CL_KERNEL_ARG_NAME, 0, NULL, NULL),
            CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clReleaseProgram(p);

  /* without -cl-kernel-arg-info the information is not available */
  p = test_program_from(env, arg_info_src, NULL);
  k = make_kernel(p, "info");
  if (!k)
    return;
  static const cl_kernel_arg_info queries[5] = {
      CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME,
      CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_NAME};
  for (int q = 0; q < 5; q++) {
    char buf[64];
    size_t size = 0;
    CHECK_ERR(clGetKernelArgInfo(k, 0, queries[q], sizeof buf, buf, &size),
              CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  }
  CHECK_ERR(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof small, small, NULL),
            CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---------- cloning ---------- */

static void test_clone(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void affine(global int *o, int v, local int *t) {\n"
                       "  int l = (int)get_local_id(0);\n"
                       "  t[l] = l;\n"
                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                       "  o[get_global_id(0)] = t[get_local_size(0) - 1 - l] * 10 + v;\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "affine");
  if (!k)
    return;
  enum { G = 32, L = 8 };
  cl_mem a = make_buffer(env, G * sizeof(int)), b = make_buffer(env, G * sizeof(int));
  int v = 5;
  CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  cl_int err = 1;
  CHECK(clCloneKernel(NULL, &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL);
  CHECK(clCloneKernel(BOGUS(cl_kernel), &err) == NULL);
  CHECK(err == CL_INVALID_KERNEL);
  cl_kernel c = clCloneKernel(k, &err);
  CHECK_OK(err);
  if (!c)
    return;
  cl_uint refs = 0;
  CHECK_OK(clGetKernelInfo(c, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  CHECK_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  char name[32] = "";
  cl_program cp = NULL;
  CHECK_OK(clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  CHECK_OK(clGetKernelInfo(c, CL_KERNEL_PROGRAM, sizeof cp, &cp, NULL));
  CHECK(!strcmp(name, "affine") && cp == p);

  /* the clone is ready to run with the source kernel's arguments; changing
   * the clone's arguments leaves the source kernel alone */
  int v2 = 7;
  CHECK_OK(clSetKernelArg(c, 0, sizeof b, &b));
  CHECK_OK(clSetKernelArg(c, 1, sizeof v2, &v2));
  CHECK_OK(launch(env, k, G, L));
  CHECK_OK(launch(env, c, G, L));
  int ga[G], gb[G];
  read_buffer(env, a, sizeof ga, ga);
  read_buffer(env, b, sizeof gb, gb);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int l = i % L;
    bad += ga[i] != (L - 1 - l) * 10 + 5;
    bad += gb[i] != (L - 1 - l) * 10 + 7;
  }
  CHECK(bad == 0);

  /* a clone of a clone, run after its source is gone */
  cl_kernel c2 = clCloneKernel(c, &err);
  CHECK_OK(err);
  clReleaseKernel(c);
  clReleaseKernel(k);
  int zero[G] = {0};
  CHECK_OK(clEnqueueWriteBuffer(env->queue, b, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
  CHECK_OK(launch(env, c2, G, L));
  read_buffer(env, b, sizeof gb, gb);
  CHECK(gb[0] == (L - 1) * 10 + 7 && gb[G - 1] == 7);
  clReleaseKernel(c2);

  /* a clone of a kernel with missing arguments is just as incomplete */
  k = make_kernel(p, "affine");
  CHECK_OK(clSetKernelArg(k, 0, sizeof a, &a));
  c = clCloneKernel(k, &err);
  CHECK_OK(err);
  size_t g = G, l = L;
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, c, 1, NULL, &g, &l, 0, NULL, NULL),
            CL_INVALID_KERNEL_ARGS);
  clReleaseKernel(c);
  clReleaseKernel(k);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseProgram(p);
}

/* ---------- launches ---------- */

static void test_missing_args(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void three(global int *o, int a, local int *t) {\n"
                       "  t[0] = a; o[0] = t[0];\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "three");
  if (!k)
    return;
  size_t g = 1;
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL),
            CL_INVALID_KERNEL_ARGS);
  CHECK_ERR(clEnqueueTask(env->queue, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  cl_mem out = make_buffer(env, sizeof(int));
  int a = 17;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, &a));
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL),
            CL_INVALID_KERNEL_ARGS);
  /* a failed clSetKernelArg does not count as set */
  CHECK_ERR(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, NULL, 0, NULL, NULL),
            CL_INVALID_KERNEL_ARGS);
  CHECK_OK(clSetKernelArg(k, 2, sizeof(int), NULL));
  CHECK_OK(launch(env, k, 1, 1));
  int got = 0;
  read_buffer(env, out, sizeof got, &got);
  CHECK(got == 17);
  clReleaseMemObject(out);
  clReleaseKernel(k);

  /* a kernel without arguments needs none */
  clReleaseProgram(p);
  p = test_program_from(env, "kernel void noargs(void) { }\n", NULL);
  k = make_kernel(p, "noargs");
  if (k) {
    cl_uint n = 99;
    CHECK_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
    CHECK(n == 0);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(int), &a), CL_INVALID_ARG_INDEX);
    CHECK_OK(launch(env, k, 100, 0));
    clReleaseKernel(k);
  }
  if (p)
    clReleaseProgram(p);
}

static void test_enqueue_task(struct test_env *env) {
  cl_program p = test_program_from(env,
                       "kernel void task(global long *o, int v) {\n"
                       "  o[0] = get_work_dim(); o[1] = get_global_size(0);\n"
                       "  o[2] = get_local_size(0); o[3] = get_global_id(0);\n"
                       "  o[4] = get_num_groups(0); o[5] = get_global_size(1);\n"
                       "  o[6] = get_global_offset(0); o[7] = v;\n"
                       "}\n",
                       NULL);
  cl_kernel k = make_kernel(p, "task");
  if (!k)
    return;
  cl_mem out = make_buffer(env, 8 * sizeof(cl_long));
  int v = 31;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  cl_event e = NULL;
  CHECK_OK(clEnqueueTask(env->queue, k, 0, NULL, &e));
  CHECK_OK(clWaitForEvents(1, &e));
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  /* OpenCL 1.2 named this CL_COMMAND_TASK; 2.x lists only NDRANGE_KERNEL */
  CHECK(type == CL_COMMAND_TASK || type == CL_COMMAND_NDRANGE_KERNEL);
  cl_int status = 1;
  CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_COMPLETE);
  clReleaseEvent(e);
  cl_long got[8];
  read_buffer(env, out, sizeof got, got);
  CHECK(got[0] == 1 && got[1] == 1 && got[2] == 1 && got[3] == 0);
  CHECK(got[4] == 1 && got[5] == 1 && got[6] == 0 && got[7] == 31);

  /* waiting on an event */
  cl_int err;
  cl_event gate = clCreateUserEvent(env->context, &err);
  v = 32;
  CHECK_OK(clSetKernelArg(k, 1, sizeof v, &v));
  CHECK_OK(clEnqueueTask(env->queue, k, 1, &gate, &e));
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &e));
  read_buffer(env, out, sizeof got, got);
  CHECK(got[7] == 32);
  clReleaseEvent(e);
  clReleaseEvent(gate);

  /* errors */
  CHECK_ERR(clEnqueueTask(NULL, k, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueTask(env->queue, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clEnqueueTask(env->queue, BOGUS(cl_kernel), 0, NULL, NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clEnqueueTask(env->queue, k, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueTask(env->queue, k, 0, &gate, NULL), CL_INVALID_EVENT_WAIT_LIST);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);

  /* a task of a kernel that requires a larger work-group cannot run */
  p = test_program_from(env,
            "kernel __attribute__((reqd_work_group_size(2, 1, 1)))\n"
            "void pair(global int *o) { o[get_global_id(0)] = 1; }\n",
            NULL);
  k = make_kernel(p, "pair");
  if (k) {
    cl_mem o = make_buffer(env, 2 * sizeof(int));
    CHECK_OK(clSetKernelArg(k, 0, sizeof o, &o));
    CHECK_ERR(clEnqueueTask(env->queue, k, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(o);
    clReleaseKernel(k);
  }
  if (p)
    clReleaseProgram(p);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_create_kernel(&env);
  test_buffer_args(&env);
  test_scalar_args(&env);
  test_vector_args(&env);
  test_struct_args(&env);
  test_local_args(&env);
  test_args_snapshot(&env);
  test_kernel_info(&env);
  test_arg_info(&env);
  test_clone(&env);
  test_missing_args(&env);
  test_enqueue_task(&env);
  test_env_release(&env);
  return test_finish("test_kernel");
}
