/* Kernel execution: work-item functions in 1, 2 and 3 dimensions with and
 * without offsets, runtime-chosen and non-uniform work-groups, the launch
 * errors, large ranges, out-of-order queues and several host threads at once.
 * Every result is compared with a reference computed here on the host. */
#include "harness.h"
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

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
  return test_kernel_from(env, ids_src, "ids", options);
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
  cl_mem buf = test_buffer_with(env, bytes, o);
  CHECK_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
  cl_int err = test_run(env, k, r->dims, r->has_offset ? r->offset : NULL, r->global,
                   r->has_local ? r->local : NULL);
  CHECK_OK(err);
  test_read_back(env, buf, bytes, o);
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
  cl_kernel k20 = ids_kernel(env, "-cl-std=CL3.0");
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
    cl_mem buf = test_buffer_with(env, bytes, o);
    CHECK_OK(clSetKernelArg(k20, 0, sizeof buf, &buf));
    CHECK_OK(test_run(env, k20, 1, NULL, &g, &l));
    test_read_back(env, buf, bytes, o);
    CHECK(o[999 * W + 12] == 40 && o[999 * W + 21] == 64 && o[999 * W + 6] == 15);
    CHECK(o[959 * W + 12] == 64 && o[960 * W + 12] == 40 && o[999 * W + 9] == 16);
    clReleaseMemObject(buf);
    free(o);
  }
  {
    size_t g[2] = {37, 19}, l[2] = {8, 4}, bytes = 37 * 19 * W * sizeof(cl_ulong);
    cl_ulong *o = calloc(1, bytes);
    cl_mem buf = test_buffer_with(env, bytes, o);
    CHECK_OK(clSetKernelArg(k20, 0, sizeof buf, &buf));
    CHECK_OK(test_run(env, k20, 2, NULL, g, l));
    test_read_back(env, buf, bytes, o);
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
  cl_mem dummy = test_buffer_with(env, 37 * 19 * W * sizeof(cl_ulong), NULL);
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
  cl_kernel kuni = ids_kernel(env, "-cl-std=CL3.0 -cl-uniform-work-group-size");
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
  cl_program p = test_program_from(env,
                       "kernel void bytes(global uchar *o) {\n"
                       "  o[get_global_id(0)] = (uchar)(get_global_id(0) * 3 + 1);\n"
                       "}\n"
                       "kernel void shorts(global short *o) {\n"
                       "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
                       "  o[i] = (short)(i * 7 - 5000);\n"
                       "}\n",
                       "-cl-std=CL3.0");
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
    cl_mem buf = test_buffer_with(env, CAP, host);
    CHECK_OK(clSetKernelArg(kb, 0, sizeof buf, &buf));
    CHECK_OK(test_run(env, kb, 1, NULL, &g, l ? &l : NULL));
    test_read_back(env, buf, CAP, host);
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
  cl_mem buf = test_buffer_with(env, CAP, host);
  CHECK_OK(clSetKernelArg(ks, 0, sizeof buf, &buf));
  CHECK_OK(test_run(env, ks, 2, NULL, g2, l2));
  test_read_back(env, buf, CAP, host);
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
  cl_kernel k = test_kernel_from(env, "kernel void fill(global int *o) { o[get_global_id(0)] = 5; }\n",
                            "fill", NULL);
  cl_kernel req = test_kernel_from(env,
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
  cl_mem buf = test_buffer_with(env, CAP * sizeof(int), host);
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
  CHECK_OK(test_run(env, req, 2, NULL, rg, ok_local));
  int got[64];
  test_read_back(env, buf, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < 32; i++)
    bad += got[i] != 42;
  CHECK(bad == 0);
  /* without a local size the required one is used */
  for (int i = 0; i < 32; i++)
    host[i] = -1;
  CHECK_OK(
      clEnqueueWriteBuffer(env->queue, buf, CL_TRUE, 0, 32 * sizeof(int), host, 0, NULL, NULL));
  CHECK_OK(test_run(env, req, 2, NULL, rg, NULL));
  test_read_back(env, buf, sizeof got, got);
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
  test_read_back(env, buf, 64 * sizeof(int), got);
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
  cl_kernel lk = test_kernel_from(env,
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
    CHECK_OK(test_run(env, lk, 1, NULL, g, l));
    clReleaseKernel(lk);
  }
  clReleaseMemObject(buf);
  free(host);
  clReleaseKernel(k);
  clReleaseKernel(req);
}

/* ---------- scale, queues, threads ---------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every work-group of a launch runs exactly once, whatever the number of
 * groups and however unequal their work: the pool hands out shrinking
 * chunks of groups, and the last claims are the ones that go wrong. */
static void test_every_group_once(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                                 "kernel void once(global int *runs, global int *out) {\n"
                                 "  size_t g = get_group_id(0);\n"
                                 "  int acc = 0;\n"
                                 "  for (size_t i = 0; i < (g * 7919u) % 613u; i++)\n"
                                 "    acc += (int)(i ^ g);\n"
                                 "  out[get_global_id(0)] = acc;\n"
                                 "  if (get_local_id(0) == 0)\n"
                                 "    atomic_inc(&runs[g]);\n"
                                 "}\n",
                                 "once", NULL);
  if (!k)
    return;
  static const size_t group_counts[] = {1, 2, 3, 7, 64, 127, 1000, 4099, 65537};
  for (size_t c = 0; c < sizeof group_counts / sizeof *group_counts; c++) {
    size_t groups = group_counts[c], local = groups > 5000 ? 1 : 4, global = groups * local;
    int *zero = calloc(groups, sizeof(int));
    cl_mem runs = test_buffer_with(env, groups * sizeof(int), zero);
    cl_mem out = test_buffer_with(env, global * sizeof(int), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof runs, &runs));
    CHECK_OK(clSetKernelArg(k, 1, sizeof out, &out));
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    int *got = malloc(groups * sizeof(int)), *vals = malloc(global * sizeof(int));
    test_read_back(env, runs, groups * sizeof(int), got);
    test_read_back(env, out, global * sizeof(int), vals);
    size_t wrong = 0;
    for (size_t g = 0; g < groups; g++) {
      int acc = 0;
      for (size_t i = 0; i < (g * 7919u) % 613u; i++)
        acc += (int)(i ^ g);
      wrong += got[g] != 1;
      for (size_t l = 0; l < local; l++)
        wrong += vals[g * local + l] != acc;
    }
    if (wrong)
      printf("  %zu groups: %zu wrong\n", groups, wrong);
    CHECK(wrong == 0);
    free(got);
    free(vals);
    free(zero);
    clReleaseMemObject(runs);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

static void test_large_range(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                            "kernel void big(global int *o, global const int *in) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  o[i] = in[i] * 3 + (int)(i & 1023);\n"
                            "}\n",
                            "big", NULL);
  if (!k)
    return;
  enum { G = 1 << 20 };
  int *in = malloc(G * sizeof(int));
  test_pattern(in, G, 12);
  double t0 = now_s();
  int *got = test_run_io(env, k, in, G, 0);
  double t1 = now_s();
  int bad = 0;
  for (int i = 0; i < G; i++)
    bad += got[i] != in[i] * 3 + (i & 1023);
  CHECK(bad == 0);
  free(got);
  /* a second launch of the same size, timed without buffer setup */
  cl_mem out = test_buffer_with(env, (size_t)G * sizeof(int), NULL);
  cl_mem inb = test_buffer_with(env, (size_t)G * sizeof(int), in);
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
  cl_kernel k = test_kernel_from(env,
                            "kernel void spin(global float *o) {\n"
                            "  float v = (float)get_global_id(0);\n"
                            "  for (int i = 0; i < 200; i++) v = v * 0.999f + 1.0f;\n"
                            "  o[get_global_id(0)] = v;\n"
                            "}\n",
                            "spin", NULL);
  if (!q || !k)
    return;
  enum { G = 1 << 16 };
  cl_mem out = test_buffer_with(env, G * sizeof(float), NULL);
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
  cl_program p = test_program_from(env, step_src, NULL);
  if (!p || !q)
    return;
  cl_kernel step = clCreateKernel(p, "step", &err);
  cl_kernel copy = clCreateKernel(p, "copy_to", &err);
  enum { G = 4096, STEPS = 8 };
  int *a0 = malloc(G * sizeof(int)), *want_a = malloc(G * sizeof(int));
  int *want_b = malloc(G * sizeof(int)), *got = malloc(G * sizeof(int));
  test_pattern(a0, G, 13);
  cl_mem a = test_buffer_with(env, G * sizeof(int), a0), b = test_buffer_with(env, G * sizeof(int), NULL);
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
  CHECK(test_count_diff(got, want_a, G, "ooo_a") == 0);
  CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, G * sizeof(int), got, 0, NULL, NULL));
  CHECK(test_count_diff(got, want_b, G, "ooo_b") == 0);
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
    parts[j] = test_buffer_with(env, G * sizeof(int), a0);
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
    CHECK(test_count_diff(got, want_a, G, "ooo_parts") == 0);
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
  cl_program p = test_program_from(env, step_src, NULL);
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
  test_every_group_once(&env);
  test_large_range(&env);
  test_kernel_profiling(&env);
  test_out_of_order_queue(&env);
  test_host_threads(&env);
  test_env_release(&env);
  return test_finish("test_ndrange");
}
