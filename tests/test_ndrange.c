/* Kernel execution: work-item functions in 1, 2 and 3 dimensions with and
 * without offsets, runtime-chosen and non-uniform work-groups, the launch
 * errors, barrier placements the work-group compiler must handle, private,
 * __local and __constant memory, helper functions, double and vector math,
 * large ranges, out-of-order queues and several host threads at once.
 * Every result is compared with a reference computed here on the host. */
#include "harness.h"
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

static cl_program build(struct test_env *env, const char *src, const char *options) {
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

/* builds src and creates kernel `name`; the program stays alive through the
 * kernel. NULL (with a recorded failure) if anything fails. */
static cl_kernel kernel_from(struct test_env *env, const char *src, const char *name,
                             const char *options) {
  cl_program p = build(env, src, options);
  if (!p)
    return NULL;
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  clReleaseProgram(p);
  return k;
}

static cl_mem buffer_with(struct test_env *env, size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                            size, (void *)data, &err);
  CHECK_OK(err);
  return m;
}

static void read_back(struct test_env *env, cl_mem m, size_t size, void *out) {
  CHECK_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static cl_int run(struct test_env *env, cl_kernel k, cl_uint dims, const size_t *offset,
                  const size_t *global, const size_t *local) {
  cl_int err = clEnqueueNDRangeKernel(env->queue, k, dims, offset, global, local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(env->queue);
  return err;
}

/* ---------- work-item functions ---------- */

#define W 32 /* values recorded per work-item */
static const char *ids_src =
    "kernel void ids(global ulong *o) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  global ulong *r = o + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 32;\n"
    "  for (uint d = 0; d < 3; d++) {\n"
    "    r[0 + d] = get_global_id(d);\n"
    "    r[3 + d] = get_local_id(d);\n"
    "    r[6 + d] = get_group_id(d);\n"
    "    r[9 + d] = get_num_groups(d);\n"
    "    r[12 + d] = get_local_size(d);\n"
    "    r[15 + d] = get_global_size(d);\n"
    "    r[18 + d] = get_global_offset(d);\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "    r[21 + d] = get_enqueued_local_size(d);\n"
    "#endif\n"
    "  }\n"
    "  r[24] = get_work_dim();\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "  r[25] = get_global_linear_id();\n"
    "  r[26] = get_local_linear_id();\n"
    "#endif\n"
    "  r[27] = get_global_id(3);\n"
    "  r[28] = get_local_size(3) + get_global_size(4) * 10 + get_num_groups(7) * 100;\n"
    "  r[29] = get_local_id(3) + get_group_id(3) + get_global_offset(3);\n"
    "  r[30] = 0;\n"
    "  r[31] = 0xC0FFEE;\n"
    "}\n";
static cl_kernel ids_kernel(struct test_env *env, const char *options) {
  return kernel_from(env, ids_src, "ids", options);
}

struct range {
  cl_uint dims;
  size_t offset[3], global[3], local[3];
  int has_offset, has_local;
};

/* Checks every work-item's record against the values the spec defines for
 * the range. local[] is the enqueued local size (chosen by the runtime when
 * the test passed none). Returns the number of wrong values. */
static int check_ids(const cl_ulong *o, const struct range *r, const size_t local[3], int cl20) {
  size_t g[3] = {1, 1, 1}, off[3] = {0, 0, 0}, l[3] = {1, 1, 1}, ng[3];
  for (cl_uint d = 0; d < r->dims; d++) {
    g[d] = r->global[d];
    l[d] = local[d];
    if (r->has_offset)
      off[d] = r->offset[d];
  }
  for (int d = 0; d < 3; d++)
    ng[d] = (g[d] + l[d] - 1) / l[d];
  int bad = 0;
  for (size_t z = 0; z < g[2]; z++)
    for (size_t y = 0; y < g[1]; y++)
      for (size_t x = 0; x < g[0]; x++) {
        size_t idx = (z * g[1] + y) * g[0] + x, pos[3] = {x, y, z}, lid[3], grp[3], lsz[3];
        const cl_ulong *rec = o + idx * W;
        for (int d = 0; d < 3; d++) {
          grp[d] = pos[d] / l[d];
          lid[d] = pos[d] % l[d];
          size_t left = g[d] - grp[d] * l[d];
          lsz[d] = left < l[d] ? left : l[d];
        }
        int wrong = rec[31] != 0xC0FFEE;
        for (int d = 0; d < 3 && !wrong; d++) {
          wrong |= rec[0 + d] != pos[d] + off[d];
          wrong |= rec[3 + d] != lid[d];
          wrong |= rec[6 + d] != grp[d];
          wrong |= rec[9 + d] != ng[d];
          wrong |= rec[12 + d] != lsz[d];
          wrong |= rec[15 + d] != g[d];
          wrong |= rec[18 + d] != off[d];
          if (cl20)
            wrong |= rec[21 + d] != l[d];
        }
        wrong |= rec[24] != r->dims;
        if (cl20) {
          wrong |= rec[25] != idx;
          wrong |= rec[26] != (lid[2] * lsz[1] + lid[1]) * lsz[0] + lid[0];
        }
        wrong |= rec[27] != 0 || rec[28] != 111 || rec[29] != 0;
        if (wrong && bad < 3) {
          fprintf(
              stderr,
              "  item (%zu,%zu,%zu) of dims %u: gid %llu,%llu,%llu lid %llu,%llu,%llu "
              "grp %llu,%llu,%llu lsz %llu,%llu,%llu enq %llu,%llu,%llu lin %llu/%llu\n",
              x, y, z, r->dims, (unsigned long long)rec[0], (unsigned long long)rec[1],
              (unsigned long long)rec[2], (unsigned long long)rec[3], (unsigned long long)rec[4],
              (unsigned long long)rec[5], (unsigned long long)rec[6], (unsigned long long)rec[7],
              (unsigned long long)rec[8], (unsigned long long)rec[12], (unsigned long long)rec[13],
              (unsigned long long)rec[14], (unsigned long long)rec[21], (unsigned long long)rec[22],
              (unsigned long long)rec[23], (unsigned long long)rec[25],
              (unsigned long long)rec[26]);
        }
        bad += wrong;
      }
  return bad;
}

/* Runs the ids kernel over r and checks it. With no local size the runtime's
 * choice (seen in work-item 0) is checked for consistency, and for being
 * uniform when the kernel does not allow non-uniform groups. */
static void run_ids(struct test_env *env, cl_kernel k, const struct range *r, int cl20,
                    int uniform) {
  size_t items = 1;
  for (cl_uint d = 0; d < r->dims; d++)
    items *= r->global[d];
  size_t bytes = items * W * sizeof(cl_ulong);
  cl_ulong *o = malloc(bytes);
  memset(o, 0xEE, bytes);
  cl_mem buf = buffer_with(env, bytes, o);
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  cl_int err = run(env, k, r->dims, r->has_offset ? r->offset : NULL, r->global,
                   r->has_local ? r->local : NULL);
  CHECK_OK(err);
  read_back(env, buf, bytes, o);
  size_t local[3] = {1, 1, 1};
  for (cl_uint d = 0; d < r->dims; d++) {
    if (r->has_local) {
      local[d] = r->local[d];
    } else {
      /* work-item 0 is in a full-sized group when the groups are uniform;
       * with OpenCL C 2.0 the enqueued size is recorded directly */
      local[d] = (size_t)(cl20 ? o[21 + d] : o[12 + d]);
      CHECK(local[d] >= 1 && local[d] <= r->global[d]);
      if (local[d] == 0)
        local[d] = 1;
      if (uniform)
        CHECK(r->global[d] % local[d] == 0);
    }
  }
  int bad = err == CL_SUCCESS ? check_ids(o, r, local, cl20) : 1;
  CHECK(bad == 0);
  if (bad)
    fprintf(stderr, "  range dims %u global %zu,%zu,%zu local %zu,%zu,%zu: %d wrong items\n",
            r->dims, r->global[0], r->global[1], r->global[2], local[0], local[1], local[2], bad);
  clReleaseMemObject(buf);
  free(o);
}

static void test_work_item_functions(struct test_env *env) {
  cl_kernel k20 = ids_kernel(env, "-cl-std=CL2.0");
  cl_kernel k12 = ids_kernel(env, NULL);
  if (!k20 || !k12)
    return;
  static const struct range uniform[] = {
      {1, {0}, {100}, {10}, 0, 1},
      {1, {7}, {100}, {20}, 1, 1},
      {1, {1000000000}, {96}, {32}, 1, 1},
      {1, {SIZE_MAX - 64}, {64}, {16}, 1, 1},
      {1, {0}, {64}, {64}, 0, 1},
      {1, {3}, {5}, {1}, 1, 1},
      {2, {0, 0}, {16, 12}, {4, 3}, 0, 1},
      {2, {5, 9}, {16, 12}, {4, 3}, 1, 1},
      {2, {2, 0}, {8, 16}, {8, 1}, 1, 1},
      {2, {0, 0}, {3, 64}, {1, 16}, 0, 1},
      {3, {0, 0, 0}, {8, 6, 4}, {2, 3, 2}, 0, 1},
      {3, {1, 2, 3}, {8, 6, 4}, {2, 3, 2}, 1, 1},
      {3, {0, 0, 0}, {16, 2, 3}, {8, 1, 1}, 0, 1},
      {3, {4, 4, 4}, {2, 2, 8}, {1, 2, 4}, 1, 1},
      /* the runtime picks the work-group size */
      {1, {0}, {1000}, {0}, 0, 0},
      {1, {11}, {97}, {0}, 1, 0},
      {2, {0, 0}, {30, 20}, {0}, 0, 0},
      {3, {1, 1, 1}, {7, 5, 3}, {0}, 1, 0},
      {3, {0, 0, 0}, {64, 4, 2}, {0}, 0, 0},
  };
  for (size_t i = 0; i < sizeof uniform / sizeof uniform[0]; i++) {
    run_ids(env, k12, &uniform[i], 0, 1);
    run_ids(env, k20, &uniform[i], 1, 0);
  }
  /* non-uniform work-groups (OpenCL C 2.0): the trailing groups are smaller */
  static const struct range nonuniform[] = {
      {1, {0}, {1000}, {64}, 0, 1},
      {1, {24}, {1000}, {64}, 1, 1},
      {1, {0}, {5}, {4}, 0, 1},
      {1, {0}, {3}, {8}, 0, 1},
      {2, {0, 0}, {37, 19}, {8, 4}, 0, 1},
      {2, {3, 1}, {37, 19}, {8, 4}, 1, 1},
      {3, {0, 0, 0}, {5, 7, 3}, {2, 2, 2}, 0, 1},
      {3, {0, 0, 0}, {9, 4, 5}, {4, 4, 4}, 0, 1},
      {1, {0}, {1001}, {0}, 0, 0},
      {2, {0, 0}, {37, 19}, {0}, 0, 0},
  };
  for (size_t i = 0; i < sizeof nonuniform / sizeof nonuniform[0]; i++)
    run_ids(env, k20, &nonuniform[i], 1, 0);

  /* spot-check the trailing groups' sizes of the two ranges the spec example uses */
  {
    size_t g = 1000, l = 64, bytes = g * W * sizeof(cl_ulong);
    cl_ulong *o = calloc(1, bytes);
    cl_mem buf = buffer_with(env, bytes, o);
    CHECK_OK(clSetKernelArg(k20, 0, sizeof buf, &buf));
    CHECK_OK(run(env, k20, 1, NULL, &g, &l));
    read_back(env, buf, bytes, o);
    CHECK(o[999 * W + 12] == 40 && o[999 * W + 21] == 64 && o[999 * W + 6] == 15);
    CHECK(o[959 * W + 12] == 64 && o[960 * W + 12] == 40 && o[999 * W + 9] == 16);
    clReleaseMemObject(buf);
    free(o);
  }
  {
    size_t g[2] = {37, 19}, l[2] = {8, 4}, bytes = 37 * 19 * W * sizeof(cl_ulong);
    cl_ulong *o = calloc(1, bytes);
    cl_mem buf = buffer_with(env, bytes, o);
    CHECK_OK(clSetKernelArg(k20, 0, sizeof buf, &buf));
    CHECK_OK(run(env, k20, 2, NULL, g, l));
    read_back(env, buf, bytes, o);
    const cl_ulong *last = o + (18 * 37 + 36) * W; /* item (36, 18) */
    CHECK(last[12] == 5 && last[13] == 3 && last[6] == 4 && last[7] == 4);
    CHECK(last[9] == 5 && last[10] == 5 && last[21] == 8 && last[22] == 4);
    CHECK(last[26] == (2 * 5) + 4);                 /* local id (4, 2) in a 5-wide group */
    const cl_ulong *corner = o + (18 * 37 + 0) * W; /* item (0, 18): full width, short height */
    CHECK(corner[12] == 8 && corner[13] == 3);
    clReleaseMemObject(buf);
    free(o);
  }

  /* without OpenCL C 2.0 the global size must be a multiple of the local size */
  size_t g1 = 1000, l1 = 64, g2[2] = {37, 19}, l2[2] = {8, 4};
  cl_mem dummy = buffer_with(env, 37 * 19 * W * sizeof(cl_ulong), NULL);
  CHECK_OK(clSetKernelArg(k12, 0, sizeof dummy, &dummy));
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k12, 1, NULL, &g1, &l1, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k12, 2, NULL, g2, l2, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);
  cl_kernel k12x = ids_kernel(env, "-cl-std=CL1.2");
  if (k12x) {
    CHECK_OK(clSetKernelArg(k12x, 0, sizeof dummy, &dummy));
    CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k12x, 1, NULL, &g1, &l1, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k12x);
  }
  /* nor with -cl-uniform-work-group-size */
  cl_kernel kuni = ids_kernel(env, "-cl-std=CL2.0 -cl-uniform-work-group-size");
  if (kuni) {
    CHECK_OK(clSetKernelArg(kuni, 0, sizeof dummy, &dummy));
    CHECK_ERR(clEnqueueNDRangeKernel(env->queue, kuni, 1, NULL, &g1, &l1, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(clEnqueueNDRangeKernel(env->queue, kuni, 2, NULL, g2, l2, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    /* with no local size the runtime must still pick uniform groups */
    struct range r = {1, {0}, {1000}, {0}, 0, 0};
    run_ids(env, kuni, &r, 1, 1);
    clReleaseKernel(kuni);
  }
  clReleaseMemObject(dummy);
  clReleaseKernel(k12);
  clReleaseKernel(k20);
}

/* byte and short stores of partial (non-uniform) groups and odd sizes stay
 * inside the range: nothing past the last work-item is written */
static void test_partial_group_stores(struct test_env *env) {
  cl_program p = build(env,
                       "kernel void bytes(global uchar *o) {\n"
                       "  o[get_global_id(0)] = (uchar)(get_global_id(0) * 3 + 1);\n"
                       "}\n"
                       "kernel void shorts(global short *o) {\n"
                       "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
                       "  o[i] = (short)(i * 7 - 5000);\n"
                       "}\n",
                       "-cl-std=CL2.0");
  if (!p)
    return;
  cl_int err;
  cl_kernel kb = clCreateKernel(p, "bytes", &err);
  cl_kernel ks = clCreateKernel(p, "shorts", &err);
  enum { CAP = 4096 };
  unsigned char *host = malloc(CAP);
  static const size_t sizes[][2] = {{1001, 64}, {1001, 0}, {17, 16}, {1, 0}, {4095, 128}};
  for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
    size_t g = sizes[c][0], l = sizes[c][1];
    memset(host, 0x55, CAP);
    cl_mem buf = buffer_with(env, CAP, host);
    CHECK_OK(clSetKernelArg(kb, 0, sizeof buf, &buf));
    CHECK_OK(run(env, kb, 1, NULL, &g, l ? &l : NULL));
    read_back(env, buf, CAP, host);
    int bad = 0;
    for (size_t i = 0; i < CAP; i++)
      bad += host[i] != (i < g ? (unsigned char)(i * 3 + 1) : 0x55);
    CHECK(bad == 0);
    if (bad)
      fprintf(stderr, "  bytes: global %zu local %zu: %d wrong\n", g, l, bad);
    clReleaseMemObject(buf);
  }
  /* 2D: 37 x 19 shorts in 8 x 4 groups */
  size_t g2[2] = {37, 19}, l2[2] = {8, 4};
  memset(host, 0x55, CAP);
  cl_mem buf = buffer_with(env, CAP, host);
  CHECK_OK(clSetKernelArg(ks, 0, sizeof buf, &buf));
  CHECK_OK(run(env, ks, 2, NULL, g2, l2));
  read_back(env, buf, CAP, host);
  int bad = 0;
  for (size_t i = 0; i < CAP / 2; i++) {
    short v;
    memcpy(&v, host + 2 * i, 2);
    bad += v != (i < 37 * 19 ? (short)(i * 7 - 5000) : (short)0x5555);
  }
  CHECK(bad == 0);
  clReleaseMemObject(buf);
  free(host);
  clReleaseKernel(kb);
  clReleaseKernel(ks);
  clReleaseProgram(p);
}

/* ---------- launch errors ---------- */

static void test_launch_errors(struct test_env *env) {
  cl_kernel k = kernel_from(env, "kernel void fill(global int *o) { o[get_global_id(0)] = 5; }\n",
                            "fill", NULL);
  cl_kernel req = kernel_from(env,
                              "kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
                              "void fixed(global int *o) {\n"
                              "  o[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
                              "      (int)(get_local_size(0) * 10 + get_local_size(1));\n"
                              "}\n",
                              "fixed", NULL);
  if (!k || !req)
    return;
  enum { CAP = 1 << 16 };
  int *host = malloc(CAP * sizeof(int));
  for (int i = 0; i < CAP; i++)
    host[i] = -1;
  cl_mem buf = buffer_with(env, CAP * sizeof(int), host);
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(req, 0, sizeof buf, &buf));
  size_t g[3] = {8, 8, 8}, l[3] = {2, 2, 2};

  CHECK_ERR(clEnqueueNDRangeKernel(NULL, k, 1, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNDRangeKernel(BOGUS(cl_command_queue), k, 1, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, NULL, 1, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_KERNEL);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, BOGUS(cl_kernel), 1, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_KERNEL);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 0, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_WORK_DIMENSION);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 4, NULL, g, NULL, 0, NULL, NULL),
            CL_INVALID_WORK_DIMENSION);
  /* a zero in the local size */
  size_t l0[2] = {2, 0};
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, g, l0 + 1, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 2, NULL, g, l0, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);

  /* the work-group size limits */
  size_t max_wg = 0, max_items[3] = {0, 0, 0}, kwg = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof max_items, max_items, NULL);
  CHECK_OK(
      clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
  CHECK(kwg >= 1 && kwg <= max_wg);
  {
    /* a product over the kernel's limit with every dimension within its own */
    size_t lg[2], gg[2];
    if (kwg + 1 <= max_items[0]) {
      lg[0] = kwg + 1;
      lg[1] = 1;
    } else {
      lg[0] = kwg;
      lg[1] = 2;
    }
    gg[0] = lg[0];
    gg[1] = lg[1];
    CHECK(lg[0] <= max_items[0] && lg[1] <= max_items[1]);
    CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 2, NULL, gg, lg, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
  }
  for (cl_uint d = 0; d < 3; d++) {
    /* one dimension over its work-item limit */
    size_t lg[3] = {1, 1, 1}, gg[3] = {1, 1, 1};
    lg[d] = gg[d] = max_items[d] + 1;
    cl_int err = clEnqueueNDRangeKernel(env->queue, k, 3, NULL, gg, lg, 0, NULL, NULL);
    if (max_items[d] + 1 <= kwg)
      CHECK_ERR(err, CL_INVALID_WORK_ITEM_SIZE);
    else /* the size breaks both limits; either error names it */
      CHECK(err == CL_INVALID_WORK_ITEM_SIZE || err == CL_INVALID_WORK_GROUP_SIZE);
  }

  /* reqd_work_group_size(4, 2, 1) */
  size_t rg[2] = {8, 4}, ok_local[2] = {4, 2}, swapped[2] = {2, 4}, half[2] = {2, 2};
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, req, 2, NULL, rg, swapped, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, req, 2, NULL, rg, half, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);
  size_t four = 4, eight = 8;
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, req, 1, NULL, &eight, &four, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE); /* the y size 2 cannot be met in 1D */
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, req, 1, NULL, &eight, NULL, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE); /* nor when the runtime picks the size */
  CHECK_OK(run(env, req, 2, NULL, rg, ok_local));
  int got[64];
  read_back(env, buf, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < 32; i++)
    bad += got[i] != 42;
  CHECK(bad == 0);
  /* without a local size the required one is used */
  for (int i = 0; i < 32; i++)
    host[i] = -1;
  CHECK_OK(
      clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, 0, 32 * sizeof(int), host, 0, NULL, NULL));
  CHECK_OK(run(env, req, 2, NULL, rg, NULL));
  read_back(env, buf, sizeof got, got);
  bad = 0;
  for (int i = 0; i < 32; i++)
    bad += got[i] != 42;
  CHECK(bad == 0);
  /* a global size the required size does not divide */
  size_t odd[2] = {6, 4};
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, req, 2, NULL, odd, NULL, 0, NULL, NULL),
            CL_INVALID_WORK_GROUP_SIZE);

  /* no global size, or a zero in it: trivially succeeds, nothing runs */
  for (int i = 0; i < 64; i++)
    host[i] = -1;
  CHECK_OK(
      clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, 0, 64 * sizeof(int), host, 0, NULL, NULL));
  cl_event e = NULL;
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, NULL, NULL, 0, NULL, &e));
  CHECK_OK(clWaitForEvents(1, &e));
  cl_int status = 1;
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(status == CL_COMPLETE && type == CL_COMMAND_NDRANGE_KERNEL);
  clReleaseEvent(e);
  size_t zero = 0, with_zero[3] = {4, 0, 4};
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &zero, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 3, NULL, with_zero, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 3, NULL, with_zero, l, 0, NULL, NULL));
  /* a trivial launch still waits for its wait list */
  cl_int err;
  cl_event gate = clCreateUserEvent(env->context, &err);
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &zero, NULL, 1, &gate, &e));
  status = 1;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  CHECK(status != CL_COMPLETE);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &e));
  clReleaseEvent(e);
  clReleaseEvent(gate);
  CHECK_OK(clFinish(env->queue));
  read_back(env, buf, 64 * sizeof(int), got);
  CHECK(got[0] == -1 && got[3] == -1);

  /* offsets that overflow size_t */
  size_t big_off = SIZE_MAX, two = 2;
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, &big_off, &two, NULL, 0, NULL, NULL),
            CL_INVALID_GLOBAL_OFFSET);

  /* wait lists */
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, g, NULL, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event bogus_ev = BOGUS(cl_event);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, g, NULL, 1, &bogus_ev, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, g, NULL, 0, &bogus_ev, NULL),
            CL_INVALID_EVENT_WAIT_LIST);

  /* a queue of another context */
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  cl_command_queue oq = clCreateCommandQueueWithProperties(other, env->device, NULL, &err);
  CHECK_ERR(clEnqueueNDRangeKernel(oq, k, 1, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
  cl_event foreign = clCreateUserEvent(other, &err);
  CHECK_ERR(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, g, NULL, 1, &foreign, NULL),
            CL_INVALID_CONTEXT);
  clReleaseEvent(foreign);
  clReleaseCommandQueue(oq);
  clReleaseContext(other);

  /* more __local memory than the device has */
  cl_kernel lk = kernel_from(env,
                             "kernel void big_local(global int *o, local int *t) {\n"
                             "  t[get_local_id(0)] = 1; o[get_global_id(0)] = t[0];\n"
                             "}\n",
                             "big_local", NULL);
  if (lk) {
    cl_ulong local_mem = 0;
    clGetDeviceInfo(env->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
    CHECK_OK(clSetKernelArg(lk, 0, sizeof buf, &buf));
    err = clSetKernelArg(lk, 1, (size_t)local_mem + 1, NULL);
    CHECK(err == CL_SUCCESS || err == CL_INVALID_ARG_SIZE);
    if (err == CL_SUCCESS)
      CHECK_ERR(clEnqueueNDRangeKernel(env->queue, lk, 1, NULL, g, l, 0, NULL, NULL),
                CL_OUT_OF_RESOURCES);
    /* the whole of it is fine */
    CHECK_OK(clSetKernelArg(lk, 1, (size_t)local_mem / 2, NULL));
    CHECK_OK(run(env, lk, 1, NULL, g, l));
    clReleaseKernel(lk);
  }
  clReleaseMemObject(buf);
  free(host);
  clReleaseKernel(k);
  clReleaseKernel(req);
}

/* ---------- barriers ---------- */

/* fills an int array with a deterministic pattern */
static void pattern(int *a, size_t n, int seed) {
  for (size_t i = 0; i < n; i++)
    a[i] = (int)((i * 2654435761u + (unsigned)seed * 40503u) % 1000u) - 300;
}

/* runs a 1D kernel whose arguments are (global int *out, global const int *in,
 * <extra args set by the caller>) and returns out */
static int *run_io(struct test_env *env, cl_kernel k, const int *in, size_t g, size_t l) {
  cl_mem out = buffer_with(env, g * sizeof(int), NULL);
  cl_mem inb = buffer_with(env, g * sizeof(int), in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  int *res = calloc(g, sizeof(int));
  CHECK_OK(run(env, k, 1, NULL, &g, l ? &l : NULL));
  read_back(env, out, g * sizeof(int), res);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  return res;
}

static int count_diff(const int *got, const int *want, size_t n, const char *what) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (bad < 3)
        fprintf(stderr, "  %s[%zu] = %d, expected %d\n", what, i, got[i], want[i]);
      bad++;
    }
  return bad;
}

static void test_barrier_reverse(struct test_env *env) {
  static const char *src = "kernel void rev(global int *o, global const int *in, local int *t) {\n"
                           "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                           "  t[l] = in[get_global_id(0)];\n"
                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  o[get_global_id(0)] = t[n - 1 - l];\n"
                           "}\n";
  cl_kernel k = kernel_from(env, src, "rev", NULL);
  cl_kernel k20 = kernel_from(env, src, "rev", "-cl-std=CL2.0");
  if (!k || !k20)
    return;
  enum { G = 1024 };
  int in[G], want[G];
  pattern(in, G, 1);
  static const size_t locals[] = {1, 2, 16, 64, 128, 256, 1024};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0]; c++) {
    size_t L = locals[c];
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    int *got = run_io(env, k, in, G, L);
    for (size_t i = 0; i < G; i++)
      want[i] = in[(i / L) * L + L - 1 - i % L];
    CHECK(count_diff(got, want, G, "rev") == 0);
    free(got);
  }
  /* in partial (non-uniform) groups the reversal uses the group's real size */
  size_t g = 1000, L = 64;
  CHECK_OK(clSetKernelArg(k20, 2, L * sizeof(int), NULL));
  int *got = run_io(env, k20, in, g, L);
  for (size_t i = 0; i < g; i++) {
    size_t base = (i / L) * L, n = g - base < L ? g - base : L;
    want[i] = in[base + n - 1 - (i - base)];
  }
  CHECK(count_diff(got, want, g, "rev_nonuniform") == 0);
  free(got);
  clReleaseKernel(k);
  clReleaseKernel(k20);
}

static void test_barrier_reduction(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void reduce(global int *o, global const int *in,\n"
                            "                   local int *t) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  t[l] = in[get_global_id(0)];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
                            "    if (l < s)\n"
                            "      t[l] += t[l + s];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  }\n"
                            "  o[get_global_id(0)] = t[0] + (int)l;\n"
                            "}\n",
                            "reduce", NULL);
  if (!k)
    return;
  enum { G = 4096 };
  static int in[G], want[G];
  pattern(in, G, 2);
  static const size_t locals[] = {1, 8, 256, 4096};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0]; c++) {
    size_t L = locals[c];
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    int *got = run_io(env, k, in, G, L);
    for (size_t base = 0; base < G; base += L) {
      int sum = 0;
      for (size_t i = 0; i < L; i++)
        sum += in[base + i];
      for (size_t i = 0; i < L; i++)
        want[base + i] = sum + (int)i;
    }
    CHECK(count_diff(got, want, G, "reduce") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

static void test_barrier_uniform_branch(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void branchy(global int *o, global const int *in,\n"
                            "                    local int *t, int flag) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = in[get_global_id(0)];\n"
                            "  if (flag) {\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[(l + 1) % n] * 2;\n"
                            "  } else {\n"
                            "    v = -v;\n"
                            "  }\n"
                            "  if (flag > 1) {\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v += t[n - 1 - l];\n"
                            "  }\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "branchy", NULL);
  if (!k)
    return;
  enum { G = 256, L = 32 };
  int in[G], want[G], first[G];
  pattern(in, G, 3);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  for (int flag = 0; flag <= 2; flag++) {
    CHECK_OK(clSetKernelArg(k, 3, sizeof flag, &flag));
    int *got = run_io(env, k, in, G, L);
    for (int i = 0; i < G; i++) {
      int base = i / L * L, l = i % L;
      first[i] = flag ? in[base + (l + 1) % L] * 2 : -in[i];
    }
    for (int i = 0; i < G; i++) {
      int base = i / L * L, l = i % L;
      want[i] = first[i] + (flag > 1 ? first[base + L - 1 - l] : 0);
    }
    CHECK(count_diff(got, want, G, "branchy") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

static void test_barrier_sequence(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void seq(global int *o, global const int *in, local int *a) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  a[l] = in[get_global_id(0)];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  int left = a[(l + n - 1) % n];\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  a[l] = left * 2;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
                            "  o[get_global_id(0)] = a[(l + 1) % n] + left;\n"
                            "}\n",
                            "seq", NULL);
  if (!k)
    return;
  enum { G = 512, L = 64 };
  int in[G], want[G];
  pattern(in, G, 4);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L;
    want[i] = 2 * in[i] + in[base + (l + L - 1) % L];
  }
  CHECK(count_diff(got, want, G, "seq") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_barrier_nested_loop(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void nested(global int *o, global const int *in,\n"
                            "                   local int *a, int outer, int inner) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int acc = in[get_global_id(0)];\n"
                            "  for (int i = 0; i < outer; i++) {\n"
                            "    for (int j = 0; j < inner; j++) {\n"
                            "      a[l] = acc + i * 10 + j;\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "      acc = a[(l + 1) % n];\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    }\n"
                            "    acc ^= i;\n"
                            "  }\n"
                            "  o[get_global_id(0)] = acc;\n"
                            "}\n",
                            "nested", NULL);
  if (!k)
    return;
  enum { G = 256, L = 16 };
  int in[G], want[G];
  pattern(in, G, 5);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  static const int shapes[][2] = {{3, 4}, {0, 5}, {2, 0}, {1, 1}, {5, 3}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int outer = shapes[s][0], inner = shapes[s][1];
    CHECK_OK(clSetKernelArg(k, 3, sizeof outer, &outer));
    CHECK_OK(clSetKernelArg(k, 4, sizeof inner, &inner));
    int *got = run_io(env, k, in, G, L);
    for (int base = 0; base < G; base += L) {
      int acc[L], a[L];
      for (int l = 0; l < L; l++)
        acc[l] = in[base + l];
      for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner; j++) {
          for (int l = 0; l < L; l++)
            a[l] = acc[l] + i * 10 + j;
          for (int l = 0; l < L; l++)
            acc[l] = a[(l + 1) % L];
        }
        for (int l = 0; l < L; l++)
          acc[l] ^= i;
      }
      for (int l = 0; l < L; l++)
        want[base + l] = acc[l];
    }
    CHECK(count_diff(got, want, G, "nested") == 0);
    free(got);
  }
  clReleaseKernel(k);
}

/* values computed before a barrier and used after it */
static void test_barrier_live_values(struct test_env *env) {
  cl_kernel k =
      kernel_from(env,
                  "typedef struct { int a; float b; } pair_t;\n"
                  "kernel void live(global int *o, global const int *in, local int *t) {\n"
                  "  size_t g = get_global_id(0), l = get_local_id(0);\n"
                  "  size_t n = get_local_size(0);\n"
                  "  int s1 = in[g] * 3;\n"
                  "  float s2 = (float)in[g] * 0.5f;\n"
                  "  long s3 = (long)in[g] << 33;\n"
                  "  int arr[8];\n"
                  "  for (int k = 0; k < 8; k++) arr[k] = in[g] + k * k;\n"
                  "  pair_t p = { in[g] - 1, 0.25f * (float)l };\n"
                  "  t[l] = s1;\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  int idx = in[g] & 7;\n"
                  "  arr[(idx + 1) & 7] += t[(l + 3) % n];\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  o[g] = t[(l + 3) % n] + s1 + (int)(s2 * 2.0f) + arr[idx]\n"
                  "       + arr[(idx + 1) & 7] + (int)(s3 >> 33) + p.a\n"
                  "       + (int)(p.b * 4.0f);\n"
                  "}\n",
                  "live", NULL);
  if (!k)
    return;
  enum { G = 384, L = 96 };
  int in[G], want[G];
  pattern(in, G, 6);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L, v = in[i];
    int idx = v & 7, other = in[base + (l + 3) % L] * 3;
    int arr[8];
    for (int q = 0; q < 8; q++)
      arr[q] = v + q * q;
    arr[(idx + 1) & 7] += other;
    want[i] = other + v * 3 + v + arr[idx] + arr[(idx + 1) & 7] + v + (v - 1) + l;
  }
  CHECK(count_diff(got, want, G, "live") == 0);
  free(got);
  clReleaseKernel(k);
}

/* __local arrays in the kernel and __local arguments at once */
static void test_local_mixed(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
                            "void mixed(global int *o, global const int *in, local int *la,\n"
                            "           local float *lb) {\n"
                            "  local int sa[64];\n"
                            "  local float sb[32];\n"
                            "  local char sc[3];\n"
                            "  int l = (int)get_local_id(0), v = in[get_global_id(0)];\n"
                            "  la[l] = v + 1000;\n"
                            "  lb[l] = (float)l * 0.5f;\n"
                            "  sa[l] = v * 7;\n"
                            "  if (l < 32) sb[l] = (float)-l;\n"
                            "  if (l < 3) sc[l] = (char)(l + 1);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  int r = 63 - l;\n"
                            "  o[get_global_id(0)] = la[r] + (int)(lb[r] * 2.0f) + sa[r]\n"
                            "      + (int)sb[r % 32] + sc[l % 3];\n"
                            "}\n",
                            "mixed", NULL);
  if (!k)
    return;
  enum { G = 1024, L = 64 };
  int in[G], want[G];
  pattern(in, G, 7);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  CHECK_OK(clSetKernelArg(k, 3, L * sizeof(float), NULL));
  cl_ulong local = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                    NULL));
  CHECK(local >= 64 * 4 + 32 * 4 + 3 + L * 4 + L * 4);
  int *got = run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L, r = 63 - l;
    want[i] = in[base + r] + 1000 + r + in[base + r] * 7 - (r % 32) + (l % 3 + 1);
  }
  CHECK(count_diff(got, want, G, "mixed") == 0);
  free(got);
  /* the runtime picks the required size when none is given */
  got = run_io(env, k, in, G, 0);
  CHECK(count_diff(got, want, G, "mixed_null_local") == 0);
  free(got);
  clReleaseKernel(k);
}

/* a 2D tile transpose through __local memory: barriers with 2D local ids */
static void test_barrier_2d(struct test_env *env) {
  cl_kernel k =
      kernel_from(env,
                  "kernel void transpose(global int *o, global const int *in) {\n"
                  "  local int tile[8][9];\n"
                  "  size_t lx = get_local_id(0), ly = get_local_id(1);\n"
                  "  size_t w = get_global_size(0), h = get_global_size(1);\n"
                  "  tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  size_t ox = get_group_id(1) * 8 + lx, oy = get_group_id(0) * 8 + ly;\n"
                  "  o[oy * h + ox] = tile[lx][ly];\n"
                  "}\n",
                  "transpose", NULL);
  if (!k)
    return;
  enum { WD = 64, HT = 32 };
  static int in[WD * HT], want[WD * HT], got[WD * HT];
  pattern(in, WD * HT, 8);
  cl_mem out = buffer_with(env, sizeof got, NULL), inb = buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  size_t g[2] = {WD, HT}, l[2] = {8, 8};
  CHECK_OK(run(env, k, 2, NULL, g, l));
  read_back(env, out, sizeof got, got);
  for (int y = 0; y < HT; y++)
    for (int x = 0; x < WD; x++)
      want[x * HT + y] = in[y * WD + x];
  CHECK(count_diff(got, want, WD * HT, "transpose") == 0);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

/* do/while, while(1) with break and switch, each holding barriers */
static void test_barrier_loop_shapes(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void shapes(global int *o, global const int *in,\n"
                            "                   local int *t, int n_iter, int sel) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = in[get_global_id(0)];\n"
                            "  int k = 0;\n"
                            "  do {\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[(l + 1) % n] + k;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    k++;\n"
                            "  } while (k < n_iter);\n"
                            "  while (1) {\n"
                            "    if (k >= 2 * n_iter)\n"
                            "      break;\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v += t[n - 1 - l];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    k++;\n"
                            "  }\n"
                            "  switch (sel) {\n"
                            "  case 0:\n"
                            "    v = -v;\n"
                            "    break;\n"
                            "  case 1:\n"
                            "    t[l] = v;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    v = t[0] + (int)l;\n"
                            "    break;\n"
                            "  default:\n"
                            "    for (int q = 0; q < 2; q++) {\n"
                            "      t[l] = v + q;\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "      v = t[(l + 2) % n];\n"
                            "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    }\n"
                            "  }\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "shapes", NULL);
  if (!k)
    return;
  enum { G = 192, L = 48 };
  int in[G], want[G];
  pattern(in, G, 14);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  for (int n_iter = 1; n_iter <= 3; n_iter++)
    for (int sel = 0; sel <= 2; sel++) {
      CHECK_OK(clSetKernelArg(k, 3, sizeof n_iter, &n_iter));
      CHECK_OK(clSetKernelArg(k, 4, sizeof sel, &sel));
      int *got = run_io(env, k, in, G, L);
      for (int base = 0; base < G; base += L) {
        int v[L], t[L], kk = 0;
        for (int l = 0; l < L; l++)
          v[l] = in[base + l];
        do {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] = t[(l + 1) % L] + kk;
          kk++;
        } while (kk < n_iter);
        while (kk < 2 * n_iter) {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] += t[L - 1 - l];
          kk++;
        }
        if (sel == 0) {
          for (int l = 0; l < L; l++)
            v[l] = -v[l];
        } else if (sel == 1) {
          memcpy(t, v, sizeof t);
          for (int l = 0; l < L; l++)
            v[l] = t[0] + l;
        } else {
          for (int q = 0; q < 2; q++) {
            for (int l = 0; l < L; l++)
              t[l] = v[l] + q;
            for (int l = 0; l < L; l++)
              v[l] = t[(l + 2) % L];
          }
        }
        for (int l = 0; l < L; l++)
          want[base + l] = v[l];
      }
      CHECK(count_diff(got, want, G, "shapes") == 0);
      free(got);
    }
  clReleaseKernel(k);
}

/* a uniform early return ahead of a barrier */
static void test_barrier_early_return(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void early(global int *o, global const int *in,\n"
                            "                  local int *t, int stop) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  if (stop)\n"
                            "    return;\n"
                            "  t[l] = in[get_global_id(0)] * 2;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  if (stop == 0 && get_local_size(0) > 1000)\n"
                            "    return;\n"
                            "  o[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n"
                            "}\n",
                            "early", NULL);
  if (!k)
    return;
  enum { G = 128, L = 32 };
  int in[G], want[G], init[G];
  pattern(in, G, 15);
  for (int i = 0; i < G; i++)
    init[i] = -7;
  cl_mem out = buffer_with(env, sizeof init, init), inb = buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  size_t g = G, l = L;
  for (int stop = 1; stop >= 0; stop--) {
    CHECK_OK(clSetKernelArg(k, 3, sizeof stop, &stop));
    CHECK_OK(run(env, k, 1, NULL, &g, &l));
    int got[G];
    read_back(env, out, sizeof got, got);
    for (int i = 0; i < G; i++)
      want[i] = stop ? -7 : in[i / L * L + L - 1 - i % L] * 2;
    CHECK(count_diff(got, want, G, "early") == 0);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

/* a barrier in a 3D work-group */
static void test_barrier_3d(struct test_env *env) {
  cl_kernel k =
      kernel_from(env,
                  "kernel void cube(global int *o, local int *t) {\n"
                  "  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);\n"
                  "  size_t nx = get_local_size(0), ny = get_local_size(1);\n"
                  "  size_t nz = get_local_size(2);\n"
                  "  t[(z * ny + y) * nx + x] = (int)(get_global_id(0)\n"
                  "      + 100 * get_global_id(1) + 10000 * get_global_id(2));\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  size_t rx = nx - 1 - x, ry = ny - 1 - y, rz = nz - 1 - z;\n"
                  "  o[(get_global_id(2) * get_global_size(1) + get_global_id(1))\n"
                  "    * get_global_size(0) + get_global_id(0)] =\n"
                  "      t[(rz * ny + ry) * nx + rx];\n"
                  "}\n",
                  "cube", NULL);
  if (!k)
    return;
  size_t g[3] = {8, 6, 4}, l[3] = {4, 3, 2};
  enum { N = 8 * 6 * 4 };
  int got[N], want[N];
  cl_mem out = buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, 4 * 3 * 2 * sizeof(int), NULL));
  CHECK_OK(run(env, k, 3, NULL, g, l));
  read_back(env, out, sizeof got, got);
  for (size_t z = 0; z < 4; z++)
    for (size_t y = 0; y < 6; y++)
      for (size_t x = 0; x < 8; x++) {
        size_t bx = x / 4 * 4, by = y / 3 * 3, bz = z / 2 * 2;
        size_t sx = bx + 3 - x % 4, sy = by + 2 - y % 3, sz = bz + 1 - z % 2;
        want[(z * 6 + y) * 8 + x] = (int)(sx + 100 * sy + 10000 * sz);
      }
  CHECK(count_diff(got, want, N, "cube") == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* vectors, doubles and a private variable whose address is taken, all live
 * across a barrier */
static void test_barrier_live_types(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "void bump(int *p, int by) { *p += by; }\n"
                            "kernel void vlive(global int *o, global const int *in,\n"
                            "                  local float *t) {\n"
                            "  size_t g = get_global_id(0), l = get_local_id(0);\n"
                            "  float f = (float)in[g];\n"
                            "  float4 v = (float4)(f, f * 2.0f, -f, 1.0f);\n"
                            "  double d = (double)in[g] * 0.125;\n"
                            "  int acc = 0;\n"
                            "  int *pa = &acc;\n"
                            "  bump(pa, (int)g);\n"
                            "  t[l] = v.x;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  bump(pa, 1);\n"
                            "  o[g] = (int)(v.x + v.y + v.z + v.w + (float)(d * 8.0)\n"
                            "       + t[(l + 1) % get_local_size(0)]) + acc;\n"
                            "}\n",
                            "vlive", NULL);
  if (!k)
    return;
  enum { G = 256, L = 64 };
  int in[G], want[G];
  pattern(in, G, 16);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(float), NULL));
  int *got = run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++)
    want[i] = 3 * in[i] + 1 + in[i / L * L + (i % L + 1) % L] + i + 1;
  CHECK(count_diff(got, want, G, "vlive") == 0);
  free(got);
  clReleaseKernel(k);
}

/* __local arguments of odd sizes followed by wider types stay aligned, and
 * vector accesses to them work */
static void test_local_alignment(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "kernel void align_local(global ulong *o, local char *c,\n"
                            "                        local double *d, local float4 *f) {\n"
                            "  local char sc;\n"
                            "  local double sd[2];\n"
                            "  local float4 sf[4];\n"
                            "  size_t l = get_local_id(0);\n"
                            "  if (l < 3) c[l] = (char)(l + 1);\n"
                            "  if (l == 0) { sc = 5; sd[1] = 2.5; }\n"
                            "  d[l] = (double)l * 0.5;\n"
                            "  f[l] = (float4)((float)l, 1.0f, 2.0f, 3.0f);\n"
                            "  sf[l % 4] = (float4)(4.0f);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  size_t r = get_local_size(0) - 1 - l;\n"
                            "  float4 s = f[r] + sf[l % 4];\n"
                            "  o[get_global_id(0) * 4] = (ulong)(s.x + s.y + s.z + s.w)\n"
                            "      + (ulong)(d[r] * 2.0) + (ulong)c[l % 3] + (ulong)sc\n"
                            "      + (ulong)sd[1];\n"
                            "  o[get_global_id(0) * 4 + 1] = (ulong)d % 8;\n"
                            "  o[get_global_id(0) * 4 + 2] = (ulong)f % 16;\n"
                            "  o[get_global_id(0) * 4 + 3] = (ulong)sd % 8 + (ulong)sf % 16;\n"
                            "}\n",
                            "align_local", NULL);
  if (!k)
    return;
  enum { G = 64, L = 16 };
  cl_ulong got[G * 4];
  cl_mem out = buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, 3, NULL));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(double), NULL));
  CHECK_OK(clSetKernelArg(k, 3, L * 4 * sizeof(float), NULL));
  size_t g = G, l = L;
  CHECK_OK(run(env, k, 1, NULL, &g, &l));
  read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int li = i % L, r = L - 1 - li;
    cl_ulong want = (cl_ulong)(r + 6 + 16) + (cl_ulong)r + (cl_ulong)(li % 3 + 1) + 5 + 2;
    bad += got[i * 4] != want;
    bad += got[i * 4 + 1] != 0 || got[i * 4 + 2] != 0 || got[i * 4 + 3] != 0;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* a kernel with many arguments of mixed sizes */
static void test_many_args(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void many(global long *o, char a, int b, short c, long d,\n"
                            "                 float e, uchar f, int g, double h, ushort i,\n"
                            "                 int2 j, char k, long l, float4 m, int n,\n"
                            "                 global const int *p, uint q, char r, long s) {\n"
                            "  o[0] = a + b + c + d + (long)e + f + g + (long)h + i + j.x\n"
                            "       + j.y + k + l + (long)(m.x + m.y + m.z + m.w) + n + p[1]\n"
                            "       + q + r;\n"
                            "  o[1] = s;\n"
                            "}\n",
                            "many", NULL);
  if (!k)
    return;
  cl_long got[2] = {0, 0};
  int pdata[2] = {0, 1000000};
  cl_mem out = buffer_with(env, sizeof got, NULL), pb = buffer_with(env, sizeof pdata, pdata);
  cl_char a = 1, kk = -2, r = 3;
  cl_int b = 20, g = 300, n = 4000;
  cl_short c = -5;
  cl_long d = 1LL << 40, l = -(1LL << 36), s = 0x7123456789abcdefLL;
  cl_float e = 6.0f;
  cl_uchar f = 255;
  cl_double h = 70.0;
  cl_ushort i = 65535;
  cl_int2 j = {{11, 12}};
  cl_float4 m = {{0.5f, 0.5f, 1.0f, 2.0f}};
  cl_uint q = 100000;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof a, &a));
  CHECK_OK(clSetKernelArg(k, 2, sizeof b, &b));
  CHECK_OK(clSetKernelArg(k, 3, sizeof c, &c));
  CHECK_OK(clSetKernelArg(k, 4, sizeof d, &d));
  CHECK_OK(clSetKernelArg(k, 5, sizeof e, &e));
  CHECK_OK(clSetKernelArg(k, 6, sizeof f, &f));
  CHECK_OK(clSetKernelArg(k, 7, sizeof g, &g));
  CHECK_OK(clSetKernelArg(k, 8, sizeof h, &h));
  CHECK_OK(clSetKernelArg(k, 9, sizeof i, &i));
  CHECK_OK(clSetKernelArg(k, 10, sizeof j, &j));
  CHECK_OK(clSetKernelArg(k, 11, sizeof kk, &kk));
  CHECK_OK(clSetKernelArg(k, 12, sizeof l, &l));
  CHECK_OK(clSetKernelArg(k, 13, sizeof m, &m));
  CHECK_OK(clSetKernelArg(k, 14, sizeof n, &n));
  CHECK_OK(clSetKernelArg(k, 15, sizeof pb, &pb));
  CHECK_OK(clSetKernelArg(k, 16, sizeof q, &q));
  CHECK_OK(clSetKernelArg(k, 17, sizeof r, &r));
  CHECK_OK(clSetKernelArg(k, 18, sizeof s, &s));
  size_t one = 1;
  CHECK_OK(run(env, k, 1, NULL, &one, NULL));
  read_back(env, out, sizeof got, got);
  cl_long want = 1 + 20 - 5 + (1LL << 40) + 6 + 255 + 300 + 70 + 65535 + 11 + 12 - 2 - (1LL << 36) +
                 4 + 4000 + 1000000 + 100000 + 3;
  CHECK(got[0] == want);
  CHECK(got[1] == s);
  clReleaseMemObject(out);
  clReleaseMemObject(pb);
  clReleaseKernel(k);
}

/* a loop whose (uniform) condition is read from __local memory */
static void test_barrier_data_loop(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void countdown(global int *o, local int *t, int start) {\n"
                            "  size_t l = get_local_id(0);\n"
                            "  local int left;\n"
                            "  if (l == 0) left = start + (int)get_group_id(0);\n"
                            "  t[l] = 0;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  while (left > 0) {\n"
                            "    t[l] += (int)l + left;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    if (l == 0) left--;\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  }\n"
                            "  o[get_global_id(0)] = t[l];\n"
                            "}\n",
                            "countdown", NULL);
  if (!k)
    return;
  enum { G = 128, L = 16 };
  int got[G];
  cl_mem out = buffer_with(env, sizeof got, NULL);
  int start = 3;
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(int), NULL));
  CHECK_OK(clSetKernelArg(k, 2, sizeof start, &start));
  size_t g = G, l = L;
  CHECK_OK(run(env, k, 1, NULL, &g, &l));
  read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    int n = start + i / L, want = 0;
    for (int left = n; left > 0; left--)
      want += i % L + left;
    bad += got[i] != want;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* straight-line code with many barriers */
static void test_many_barriers(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "#define STEP(i) t[l] = v + i; barrier(CLK_LOCAL_MEM_FENCE); \\\n"
                            "  v = t[(l + 1) % n]; barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "#define FOUR(i) STEP(i) STEP(i + 1) STEP(i + 2) STEP(i + 3)\n"
                            "kernel void chain(global int *o, local int *t) {\n"
                            "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                            "  int v = (int)get_global_id(0);\n"
                            "  FOUR(0) FOUR(4) FOUR(8) FOUR(12)\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "chain", NULL);
  if (!k)
    return;
  enum { G = 96, L = 24 };
  int got[G];
  cl_mem out = buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, L * sizeof(int), NULL));
  size_t g = G, l = L;
  CHECK_OK(run(env, k, 1, NULL, &g, &l));
  read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    /* after 16 steps each item holds the value of the item 16 places on
     * (modulo the group) plus 0 + 1 + ... + 15 */
    int base = i / L * L;
    bad += got[i] != base + (i % L + 16) % L + 120;
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

/* ---------- memory spaces, helpers, math ---------- */

static void test_private_memory(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "typedef struct { int a; float b; int arr[4]; } rec_t;\n"
                            "kernel void priv(global int *o, global const int *in) {\n"
                            "  size_t g = get_global_id(0);\n"
                            "  rec_t r;\n"
                            "  r.a = in[g];\n"
                            "  r.b = (float)r.a * 0.25f;\n"
                            "  for (int k = 0; k < 4; k++) r.arr[k] = r.a * k;\n"
                            "  int hist[16];\n"
                            "  for (int k = 0; k < 16; k++) hist[k] = 0;\n"
                            "  for (int k = 0; k < 10; k++) hist[(in[g] + k * k) & 15]++;\n"
                            "  int s = 0;\n"
                            "  for (int k = 0; k < 16; k++) s += hist[k] * k;\n"
                            "  rec_t copy = r;\n"
                            "  copy.arr[in[g] & 3] = 1000;\n"
                            "  o[g] = r.a + (int)(r.b * 4.0f) + r.arr[3] + s + r.arr[in[g] & 3]\n"
                            "       + copy.arr[in[g] & 3];\n"
                            "}\n",
                            "priv", NULL);
  if (!k)
    return;
  enum { G = 500 };
  int in[G], want[G];
  pattern(in, G, 9);
  int *got = run_io(env, k, in, G, 0);
  for (int i = 0; i < G; i++) {
    int v = in[i], hist[16] = {0}, s = 0;
    for (int q = 0; q < 10; q++)
      hist[(v + q * q) & 15]++;
    for (int q = 0; q < 16; q++)
      s += hist[q] * q;
    want[i] = v + v + v * 3 + s + v * (v & 3) + 1000;
  }
  CHECK(count_diff(got, want, G, "priv") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_constant_memory(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
                            "constant float ftab[4] = {0.5f, 1.5f, 2.5f, 3.5f};\n"
                            "constant struct { int k; short s[2]; } cs = {7, {-1, 2}};\n"
                            "kernel void consts(global int *o, global const int *in,\n"
                            "                   constant int *arg) {\n"
                            "  size_t g = get_global_id(0);\n"
                            "  o[g] = table[g & 7] * 10 + (int)(ftab[g & 3] * 2.0f) + cs.k\n"
                            "       + cs.s[g & 1] + arg[g % 5] + in[g];\n"
                            "}\n",
                            "consts", NULL);
  if (!k)
    return;
  enum { G = 200 };
  int in[G], want[G], arg[5] = {100, 200, 300, 400, 500};
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  pattern(in, G, 10);
  cl_mem argb = buffer_with(env, sizeof arg, arg);
  CHECK_OK(clSetKernelArg(k, 2, sizeof argb, &argb));
  int *got = run_io(env, k, in, G, 0);
  for (int i = 0; i < G; i++)
    want[i] = table[i & 7] * 10 + (int)((0.5f + (float)(i & 3)) * 2.0f) + 7 + (i & 1 ? 2 : -1) +
              arg[i % 5] + in[i];
  CHECK(count_diff(got, want, G, "consts") == 0);
  free(got);
  clReleaseMemObject(argb);
  clReleaseKernel(k);
}

static void test_helper_functions(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "int square(int x) { return x * x; }\n"
                            "static int twice(int x) { return square(x) * 2 / (x == 0 ? 1 : x); }\n"
                            "void stage(local int *a, int v) {\n"
                            "  a[get_local_id(0)] = v;\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "}\n"
                            "int neighbour(local int *a) {\n"
                            "  return a[(get_local_id(0) + 1) % get_local_size(0)];\n"
                            "}\n"
                            "kernel void helpers(global int *o, global const int *in,\n"
                            "                    local int *a) {\n"
                            "  int v = square(in[get_global_id(0)] % 100);\n"
                            "  stage(a, v);\n"
                            "  int n1 = neighbour(a);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  stage(a, n1 + 1);\n"
                            "  o[get_global_id(0)] = neighbour(a) + v + twice(3);\n"
                            "}\n",
                            "helpers", NULL);
  if (!k)
    return;
  enum { G = 256, L = 32 };
  int in[G], want[G];
  pattern(in, G, 11);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = run_io(env, k, in, G, L);
  for (int i = 0; i < G; i++) {
    int base = i / L * L, l = i % L;
    int v = (in[i] % 100) * (in[i] % 100);
    int n2 = base + (l + 2) % L;
    int second = (in[n2] % 100) * (in[n2] % 100) + 1;
    want[i] = second + v + 6;
  }
  CHECK(count_diff(got, want, G, "helpers") == 0);
  free(got);
  clReleaseKernel(k);
}

static void test_kernel_calls_kernel(struct test_env *env) {
  cl_program p = build(env,
                       "kernel void inner(global int *o, int v) { o[get_global_id(0)] += v; }\n"
                       "kernel void outer(global int *o) {\n"
                       "  o[get_global_id(0)] = (int)get_global_id(0);\n"
                       "  inner(o, 5);\n"
                       "  inner(o, 100);\n"
                       "}\n",
                       NULL);
  if (!p)
    return;
  cl_int err;
  cl_kernel outer = clCreateKernel(p, "outer", &err);
  CHECK_OK(err);
  cl_kernel inner = clCreateKernel(p, "inner", &err);
  CHECK_OK(err);
  enum { G = 64 };
  int got[G];
  cl_mem buf = buffer_with(env, sizeof got, NULL);
  size_t g = G;
  CHECK_OK(clSetKernelArg(outer, 0, sizeof buf, &buf));
  CHECK_OK(run(env, outer, 1, NULL, &g, NULL));
  read_back(env, buf, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != i + 105;
  CHECK(bad == 0);
  /* the called kernel still runs on its own */
  int v = -100;
  CHECK_OK(clSetKernelArg(inner, 0, sizeof buf, &buf));
  CHECK_OK(clSetKernelArg(inner, 1, sizeof v, &v));
  CHECK_OK(run(env, inner, 1, NULL, &g, NULL));
  read_back(env, buf, sizeof got, got);
  bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != i + 5;
  CHECK(bad == 0);
  clReleaseMemObject(buf);
  clReleaseKernel(outer);
  clReleaseKernel(inner);
  clReleaseProgram(p);
}

static int close_to(double got, double want, double rel) {
  double diff = fabs(got - want), mag = fabs(want) > 1.0 ? fabs(want) : 1.0;
  return diff <= rel * mag;
}

static void test_double_math(struct test_env *env) {
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  if (!fp64)
    return;
  cl_kernel k = kernel_from(env,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "kernel void dmath(global double *o, global const double *in) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  double x = in[i];\n"
                            "  global double *r = o + i * 8;\n"
                            "  r[0] = sqrt(x) + x / 3.0;\n"
                            "  r[1] = sin(x) * cos(x);\n"
                            "  r[2] = exp(-x) + log(1.0 + x);\n"
                            "  r[3] = pow(x, 1.5);\n"
                            "  r[4] = fma(x, 2.0, 1.0) + mad(x, x, -1.0);\n"
                            "  r[5] = floor(x * 3.7) + ceil(-x) + fabs(-x);\n"
                            "  r[6] = fmin(x, 2.5) + fmax(x, 2.5) + clamp(x, 1.0, 3.0);\n"
                            "  r[7] = (x + 1e-12) - x;\n"
                            "}\n",
                            "dmath", NULL);
  if (!k)
    return;
  enum { G = 128 };
  double in[G], got[G * 8];
  for (int i = 0; i < G; i++)
    in[i] = 0.03125 + i * 0.0625;
  cl_mem out = buffer_with(env, sizeof got, NULL), inb = buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  size_t g = G;
  CHECK_OK(run(env, k, 1, NULL, &g, NULL));
  read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    double x = in[i], want[8];
    want[0] = sqrt(x) + x / 3.0;
    want[1] = sin(x) * cos(x);
    want[2] = exp(-x) + log(1.0 + x);
    want[3] = pow(x, 1.5);
    want[4] = fma(x, 2.0, 1.0) + (x * x - 1.0);
    want[5] = floor(x * 3.7) + ceil(-x) + fabs(-x);
    want[6] = fmin(x, 2.5) + fmax(x, 2.5) + fmin(fmax(x, 1.0), 3.0);
    want[7] = (x + 1e-12) - x; /* only exact in double precision */
    for (int q = 0; q < 8; q++)
      if (!close_to(got[i * 8 + q], want[q], q == 7 ? 1e-3 : 1e-13)) {
        if (bad < 3)
          fprintf(stderr, "  dmath x=%g [%d]: %.17g vs %.17g\n", x, q, got[i * 8 + q], want[q]);
        bad++;
      }
  }
  CHECK(bad == 0);
  CHECK(got[7] > 0.9e-12 && got[7] < 1.1e-12);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
}

static void test_float4_math(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void vmath(global float4 *o, global const float4 *a,\n"
                            "                  global const float4 *b) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  float4 x = a[i], y = b[i];\n"
                            "  global float4 *r = o + i * 6;\n"
                            "  r[0] = x * y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
                            "  r[1] = (float4)(dot(x, y), length(x), distance(x, y),\n"
                            "                  dot(x.xyz, y.zyx));\n"
                            "  r[2] = normalize(x);\n"
                            "  r[3] = cross(x, y);\n"
                            "  r[4] = mad(x, y, x) + fmax(x, y) - min(x, y);\n"
                            "  r[5] = clamp(x.wzyx, -1.0f, 1.0f) + mix(x, y, 0.25f)\n"
                            "       + sqrt(fabs(y)) + (x > y ? (float4)1.0f : (float4)0.0f);\n"
                            "}\n",
                            "vmath", NULL);
  if (!k)
    return;
  enum { G = 100 };
  static cl_float4 a[G], b[G], got[G * 6];
  for (int i = 0; i < G; i++)
    for (int c = 0; c < 4; c++) {
      a[i].s[c] = (float)((i * 7 + c * 3) % 23) * 0.25f - 2.0f;
      b[i].s[c] = (float)((i * 5 + c * 11) % 19) * 0.5f - 4.0f;
    }
  a[0].s[0] = 1.0f; /* keep normalize away from zero vectors */
  cl_mem out = buffer_with(env, sizeof got, NULL);
  cl_mem ab = buffer_with(env, sizeof a, a), bb = buffer_with(env, sizeof b, b);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof ab, &ab));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bb, &bb));
  size_t g = G;
  CHECK_OK(run(env, k, 1, NULL, &g, NULL));
  read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    const float *x = a[i].s, *y = b[i].s;
    float want[6][4];
    float dot = 0, len = 0, dist = 0;
    for (int c = 0; c < 4; c++) {
      want[0][c] = x[c] * y[c] + (float)(c + 1);
      dot += x[c] * y[c];
      len += x[c] * x[c];
      dist += (x[c] - y[c]) * (x[c] - y[c]);
    }
    len = sqrtf(len);
    want[1][0] = dot;
    want[1][1] = len;
    want[1][2] = sqrtf(dist);
    want[1][3] = x[0] * y[2] + x[1] * y[1] + x[2] * y[0];
    for (int c = 0; c < 4; c++)
      want[2][c] = len > 0 ? x[c] / len : 0.0f;
    want[3][0] = x[1] * y[2] - x[2] * y[1];
    want[3][1] = x[2] * y[0] - x[0] * y[2];
    want[3][2] = x[0] * y[1] - x[1] * y[0];
    want[3][3] = 0.0f;
    for (int c = 0; c < 4; c++) {
      want[4][c] = x[c] * y[c] + x[c] + fmaxf(x[c], y[c]) - fminf(x[c], y[c]);
      float cl = fminf(fmaxf(x[3 - c], -1.0f), 1.0f);
      want[5][c] =
          cl + (x[c] + (y[c] - x[c]) * 0.25f) + sqrtf(fabsf(y[c])) + (x[c] > y[c] ? 1.0f : 0.0f);
    }
    if (len == 0)
      continue;
    for (int r = 0; r < 6; r++)
      for (int c = 0; c < 4; c++)
        if (!close_to(got[i * 6 + r].s[c], want[r][c], 1e-5)) {
          if (bad < 3)
            fprintf(stderr, "  vmath item %d row %d lane %d: %g vs %g\n", i, r, c,
                    got[i * 6 + r].s[c], want[r][c]);
          bad++;
        }
  }
  CHECK(bad == 0);
  clReleaseMemObject(out);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseKernel(k);
}

/* the scalar math and integer builtins the library provides */
static void test_builtin_functions(struct test_env *env) {
  cl_kernel fk = kernel_from(env,
                             "kernel void fmath(global float *o, global const float *in) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  float x = in[i];\n"
                             "  global float *r = o + i * 24;\n"
                             "  r[0] = sqrt(x); r[1] = fabs(-x); r[2] = floor(x); r[3] = ceil(x);\n"
                             "  r[4] = exp(x); r[5] = log(x); r[6] = sin(x); r[7] = cos(x);\n"
                             "  r[8] = pow(x, 1.3f); r[9] = fmin(x, 2.0f); r[10] = fmax(x, 2.0f);\n"
                             "  r[11] = fma(x, 3.0f, 1.0f); r[12] = mad(x, 3.0f, 1.0f);\n"
                             "  r[13] = rsqrt(x); r[14] = tan(x * 0.3f); r[15] = atan(x);\n"
                             "  r[16] = native_sin(x); r[17] = half_exp(x);\n"
                             "  r[18] = mix(x, 10.0f, 0.25f); r[19] = step(2.0f, x);\n"
                             "  r[20] = degrees(x); r[21] = radians(x);\n"
                             "  r[22] = clamp(x, 0.5f, 3.0f);\n"
                             "  float4 v = exp((float4)(x, x, x, x)) - (float4)(exp(x));\n"
                             "  r[23] = v.x + v.y + v.z + v.w + native_sqrt(x) + half_rsqrt(x);\n"
                             "}\n",
                             "fmath", NULL);
  cl_kernel ik = kernel_from(env,
                             "kernel void imath(global int *o, global const int *in) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  int x = in[i], y = in[(i * 7 + 3) % get_global_size(0)];\n"
                             "  global int *r = o + i * 10;\n"
                             "  r[0] = (int)abs(x); r[1] = min(x, y); r[2] = max(x, y);\n"
                             "  r[3] = clamp(x, -100, 100); r[4] = mad24(x, y, 5);\n"
                             "  r[5] = mul24(x, 3); r[6] = (int)min((uint)x, 1000u);\n"
                             "  r[7] = max((uchar)x, (uchar)y);\n"
                             "  uint4 a = abs((int4)(x, y, -x, -y));\n"
                             "  r[8] = (int)(a.x + a.y + a.z + a.w);\n"
                             "  r[9] = clamp(x, y - 10, y + 10) + (int)max((long)x, (long)y);\n"
                             "}\n",
                             "imath", NULL);
  if (!fk || !ik)
    return;
  enum { G = 64 };
  float fin[G], fgot[G * 24];
  for (int i = 0; i < G; i++)
    fin[i] = 0.1f + (float)i * 0.0625f;
  cl_mem fo = buffer_with(env, sizeof fgot, NULL), fi = buffer_with(env, sizeof fin, fin);
  CHECK_OK(clSetKernelArg(fk, 0, sizeof fo, &fo));
  CHECK_OK(clSetKernelArg(fk, 1, sizeof fi, &fi));
  size_t g = G;
  CHECK_OK(run(env, fk, 1, NULL, &g, NULL));
  read_back(env, fo, sizeof fgot, fgot);
  int bad = 0;
  for (int i = 0; i < G; i++) {
    float x = fin[i];
    double want[24] = {sqrtf(x),
                       x,
                       floorf(x),
                       ceilf(x),
                       expf(x),
                       logf(x),
                       sinf(x),
                       cosf(x),
                       powf(x, 1.3f),
                       fminf(x, 2.0f),
                       fmaxf(x, 2.0f),
                       fmaf(x, 3.0f, 1.0f),
                       x * 3.0f + 1.0f,
                       1.0 / sqrt(x),
                       tanf(x * 0.3f),
                       atanf(x),
                       sinf(x),
                       expf(x),
                       x + (10.0f - x) * 0.25f,
                       x < 2.0f ? 0.0f : 1.0f,
                       x * (180.0 / M_PI),
                       x * (M_PI / 180.0),
                       fminf(fmaxf(x, 0.5f), 3.0f),
                       sqrt(x) + 1.0 / sqrt(x)};
    for (int q = 0; q < 24; q++) {
      /* the native_ and half_ variants have looser bounds */
      double tol = (q == 16 || q == 17 || q == 23) ? 1e-3 : 4e-6;
      if (!close_to(fgot[i * 24 + q], want[q], tol)) {
        if (bad < 3)
          fprintf(stderr, "  fmath x=%g [%d]: %.9g vs %.9g\n", x, q, fgot[i * 24 + q], want[q]);
        bad++;
      }
    }
  }
  CHECK(bad == 0);

  int iin[G], igot[G * 10];
  pattern(iin, G, 17);
  cl_mem io = buffer_with(env, sizeof igot, NULL), ii = buffer_with(env, sizeof iin, iin);
  CHECK_OK(clSetKernelArg(ik, 0, sizeof io, &io));
  CHECK_OK(clSetKernelArg(ik, 1, sizeof ii, &ii));
  CHECK_OK(run(env, ik, 1, NULL, &g, NULL));
  read_back(env, io, sizeof igot, igot);
  bad = 0;
  for (int i = 0; i < G; i++) {
    int x = iin[i], y = iin[(i * 7 + 3) % G];
    unsigned char ux = (unsigned char)x, uy = (unsigned char)y;
    int lo = y - 10, hi = y + 10;
    int want[10] = {abs(x),
                    x < y ? x : y,
                    x > y ? x : y,
                    x < -100  ? -100
                    : x > 100 ? 100
                              : x,
                    x * y + 5,
                    x * 3,
                    (unsigned)x < 1000u ? x : 1000,
                    ux > uy ? ux : uy,
                    2 * abs(x) + 2 * abs(y),
                    (x < lo   ? lo
                     : x > hi ? hi
                              : x) +
                        (x > y ? x : y)};
    for (int q = 0; q < 10; q++)
      if (igot[i * 10 + q] != want[q]) {
        if (bad < 3)
          fprintf(stderr, "  imath x=%d y=%d [%d]: %d vs %d\n", x, y, q, igot[i * 10 + q], want[q]);
        bad++;
      }
  }
  CHECK(bad == 0);
  clReleaseMemObject(fo);
  clReleaseMemObject(fi);
  clReleaseMemObject(io);
  clReleaseMemObject(ii);
  clReleaseKernel(fk);
  clReleaseKernel(ik);
}

/* ---------- scale, queues, threads ---------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_large_range(struct test_env *env) {
  cl_kernel k = kernel_from(env,
                            "kernel void big(global int *o, global const int *in) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  o[i] = in[i] * 3 + (int)(i & 1023);\n"
                            "}\n",
                            "big", NULL);
  if (!k)
    return;
  enum { G = 1 << 20 };
  int *in = malloc(G * sizeof(int));
  pattern(in, G, 12);
  double t0 = now_s();
  int *got = run_io(env, k, in, G, 0);
  double t1 = now_s();
  int bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != in[i] * 3 + (i & 1023);
  CHECK(bad == 0);
  free(got);
  /* a second launch of the same size, timed without buffer setup */
  cl_mem out = buffer_with(env, (size_t)G * sizeof(int), NULL);
  cl_mem inb = buffer_with(env, (size_t)G * sizeof(int), in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  size_t g = G, l = 256;
  double t2 = now_s();
  for (int rep = 0; rep < 10; rep++)
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  double t3 = now_s();
  CHECK(t1 - t0 < 5.0);
  CHECK((t3 - t2) / 10 < 0.5); /* a 1M-item copy-like kernel well below 0.5 s */
  printf("1M work-items: first run with buffers %.1f ms, launch %.2f ms\n", (t1 - t0) * 1e3,
         (t3 - t2) * 1e2);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  free(in);
  clReleaseKernel(k);
}

/* kernel events carry ordered profiling times */
static void test_kernel_profiling(struct test_env *env) {
  cl_int err;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, qp, &err);
  CHECK_OK(err);
  cl_kernel k = kernel_from(env,
                            "kernel void spin(global float *o) {\n"
                            "  float v = (float)get_global_id(0);\n"
                            "  for (int i = 0; i < 200; i++) v = v * 0.999f + 1.0f;\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "spin", NULL);
  if (!q || !k)
    return;
  enum { G = 1 << 16 };
  cl_mem out = buffer_with(env, G * sizeof(float), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  size_t g = G;
  cl_event e;
  CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &e));
  CHECK_OK(clWaitForEvents(1, &e));
  cl_ulong t[5] = {0, 0, 0, 0, 0};
  static const cl_profiling_info names[5] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
      CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++)
    CHECK_OK(clGetEventProfilingInfo(e, names[i], sizeof t[i], &t[i], NULL));
  CHECK(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3] && t[3] <= t[4]);
  clReleaseEvent(e);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
}

static const char *step_src = "kernel void step(global int *a, int mul, int add) {\n"
                              "  size_t i = get_global_id(0);\n"
                              "  a[i] = a[i] * mul + add + (int)i;\n"
                              "}\n"
                              "kernel void copy_to(global int *dst, global const int *src) {\n"
                              "  dst[get_global_id(0)] = src[get_global_id(0)] * 2;\n"
                              "}\n";

static void test_out_of_order_queue(struct test_env *env) {
  cl_command_queue_properties props = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof props, &props, NULL);
  if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return;
  cl_int err;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, qp, &err);
  CHECK_OK(err);
  cl_program p = build(env, step_src, NULL);
  if (!p || !q)
    return;
  cl_kernel step = clCreateKernel(p, "step", &err);
  cl_kernel copy = clCreateKernel(p, "copy_to", &err);
  enum { G = 4096, STEPS = 8 };
  int *a0 = malloc(G * sizeof(int)), *want_a = malloc(G * sizeof(int));
  int *want_b = malloc(G * sizeof(int)), *got = malloc(G * sizeof(int));
  pattern(a0, G, 13);
  cl_mem a = buffer_with(env, G * sizeof(int), a0), b = buffer_with(env, G * sizeof(int), NULL);
  /* a gate holds the whole chain back until everything is enqueued */
  cl_event gate = clCreateUserEvent(env->context, &err), prev = gate, events[STEPS + 2];
  size_t g = G, l = 64;
  for (int s = 0; s < STEPS; s++) {
    int mul = s % 3 + 2, add = s * 7 - 20;
    CHECK_OK(clSetKernelArg(step, 0, sizeof a, &a));
    CHECK_OK(clSetKernelArg(step, 1, sizeof mul, &mul));
    CHECK_OK(clSetKernelArg(step, 2, sizeof add, &add));
    CHECK_OK(clEnqueueNDRangeKernel(q, step, 1, NULL, &g, s & 1 ? &l : NULL, 1, &prev, &events[s]));
    prev = events[s];
  }
  /* b = 2a after the chain, then a changes again after the copy */
  CHECK_OK(clSetKernelArg(copy, 0, sizeof b, &b));
  CHECK_OK(clSetKernelArg(copy, 1, sizeof a, &a));
  CHECK_OK(clEnqueueNDRangeKernel(q, copy, 1, NULL, &g, NULL, 1, &prev, &events[STEPS]));
  int mul = 1, add = 1000;
  CHECK_OK(clSetKernelArg(step, 1, sizeof mul, &mul));
  CHECK_OK(clSetKernelArg(step, 2, sizeof add, &add));
  CHECK_OK(
      clEnqueueNDRangeKernel(q, step, 1, NULL, &g, NULL, 1, &events[STEPS], &events[STEPS + 1]));
  /* nothing ran yet */
  cl_int status = 0;
  clGetEventInfo(events[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  CHECK(status != CL_COMPLETE);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &events[STEPS + 1]));

  for (int i = 0; i < G; i++) {
    int v = a0[i];
    for (int s = 0; s < STEPS; s++)
      v = v * (s % 3 + 2) + s * 7 - 20 + i;
    want_b[i] = v * 2;
    want_a[i] = v + 1000 + i;
  }
  CHECK_OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, G * sizeof(int), got, 0, NULL, NULL));
  CHECK(count_diff(got, want_a, G, "ooo_a") == 0);
  CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, G * sizeof(int), got, 0, NULL, NULL));
  CHECK(count_diff(got, want_b, G, "ooo_b") == 0);
  for (int s = 0; s < STEPS + 2; s++) {
    clGetEventInfo(events[s], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(events[s]);
  }
  clReleaseEvent(gate);

  /* independent launches on the out-of-order queue, joined by a barrier */
  cl_mem parts[4];
  for (int j = 0; j < 4; j++) {
    for (int i = 0; i < G; i++)
      a0[i] = i + j;
    parts[j] = buffer_with(env, G * sizeof(int), a0);
    int m = j + 1, ad = -j;
    CHECK_OK(clSetKernelArg(step, 0, sizeof parts[j], &parts[j]));
    CHECK_OK(clSetKernelArg(step, 1, sizeof m, &m));
    CHECK_OK(clSetKernelArg(step, 2, sizeof ad, &ad));
    CHECK_OK(clEnqueueNDRangeKernel(q, step, 1, NULL, &g, NULL, 0, NULL, NULL));
  }
  CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
  for (int j = 0; j < 4; j++) {
    CHECK_OK(clEnqueueReadBuffer(q, parts[j], CL_TRUE, 0, G * sizeof(int), got, 0, NULL, NULL));
    for (int i = 0; i < G; i++)
      want_a[i] = (i + j) * (j + 1) - j + i;
    CHECK(count_diff(got, want_a, G, "ooo_parts") == 0);
    clReleaseMemObject(parts[j]);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(step);
  clReleaseKernel(copy);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  free(a0);
  free(want_a);
  free(want_b);
  free(got);
}

struct thread_job {
  struct test_env *env;
  cl_program program;
  int id;
  int failures; /* counted here: CHECK is not thread-safe */
};

static void *thread_main(void *arg) {
  struct thread_job *j = arg;
  cl_int err;
  enum { G = 2048, ROUNDS = 25 };
  cl_command_queue q =
      clCreateCommandQueueWithProperties(j->env->context, j->env->device, NULL, &err);
  cl_kernel k = clCreateKernel(j->program, "step", &err);
  if (!q || !k) {
    j->failures++;
    return NULL;
  }
  int *host = malloc(G * sizeof(int));
  for (int i = 0; i < G; i++)
    host[i] = i * (j->id + 1);
  cl_mem buf = clCreateBuffer(j->env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              G * sizeof(int), host, &err);
  int mul = 1, add = j->id + 1;
  size_t g = G, l = 32;
  err = clSetKernelArg(k, 0, sizeof buf, &buf);
  err |= clSetKernelArg(k, 1, sizeof mul, &mul);
  err |= clSetKernelArg(k, 2, sizeof add, &add);
  for (int r = 0; r < ROUNDS && err == CL_SUCCESS; r++)
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, r & 1 ? &l : NULL, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, G * sizeof(int), host, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    j->failures++;
  for (int i = 0; i < G && err == CL_SUCCESS; i++)
    if (host[i] != i * (j->id + 1) + ROUNDS * (j->id + 1 + i))
      j->failures++;

  /* a build of its own at the same time as the other threads' launches */
  char src[256], opts[64];
  snprintf(src, sizeof src,
           "kernel void own(global int *o) { o[get_global_id(0)] = VALUE + %d; }\n", j->id);
  snprintf(opts, sizeof opts, "-D VALUE=%d", 1000 * (j->id + 1));
  const char *s = src;
  cl_program p = clCreateProgramWithSource(j->env->context, 1, &s, NULL, &err);
  if (clBuildProgram(p, 0, NULL, opts, NULL, NULL) != CL_SUCCESS) {
    j->failures++;
  } else {
    cl_kernel own = clCreateKernel(p, "own", &err);
    clSetKernelArg(own, 0, sizeof buf, &buf);
    if (clEnqueueNDRangeKernel(q, own, 1, NULL, &g, NULL, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, G * sizeof(int), host, 0, NULL, NULL) != CL_SUCCESS)
      j->failures++;
    else if (host[0] != 1000 * (j->id + 1) + j->id || host[G - 1] != host[0])
      j->failures++;
    clReleaseKernel(own);
  }
  clReleaseProgram(p);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  free(host);
  return NULL;
}

static void test_host_threads(struct test_env *env) {
  cl_program p = build(env, step_src, NULL);
  if (!p)
    return;
  enum { T = 4 };
  pthread_t th[T];
  struct thread_job jobs[T];
  for (int t = 0; t < T; t++) {
    jobs[t] = (struct thread_job){env, p, t, 0};
    CHECK(pthread_create(&th[t], NULL, thread_main, &jobs[t]) == 0);
  }
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    CHECK(jobs[t].failures == 0);
    if (jobs[t].failures)
      fprintf(stderr, "  thread %d: %d failures\n", t, jobs[t].failures);
  }
  clReleaseProgram(p);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_work_item_functions(&env);
  test_partial_group_stores(&env);
  test_launch_errors(&env);
  test_barrier_reverse(&env);
  test_barrier_reduction(&env);
  test_barrier_uniform_branch(&env);
  test_barrier_sequence(&env);
  test_barrier_nested_loop(&env);
  test_barrier_live_values(&env);
  test_local_mixed(&env);
  test_barrier_2d(&env);
  test_barrier_loop_shapes(&env);
  test_barrier_early_return(&env);
  test_barrier_3d(&env);
  test_barrier_live_types(&env);
  test_local_alignment(&env);
  test_many_args(&env);
  test_barrier_data_loop(&env);
  test_many_barriers(&env);
  test_private_memory(&env);
  test_constant_memory(&env);
  test_helper_functions(&env);
  test_kernel_calls_kernel(&env);
  test_double_math(&env);
  test_float4_math(&env);
  test_builtin_functions(&env);
  test_large_range(&env);
  test_kernel_profiling(&env);
  test_out_of_order_queue(&env);
  test_host_threads(&env);
  test_env_release(&env);
  return test_finish("test_ndrange");
}
