/* Sub-groups: every sub-group function (core, cl_khr_subgroup_*,
 * cl_intel_subgroups) against a host reference, for every sub-group size
 * the device offers and the default one, in 1D and 2D groups, partial
 * sub-groups and non-uniform groups; non-uniform calls in branches and
 * loops; sub-groups taking different paths around work-group barriers;
 * clGetKernelSubGroupInfo and its errors.
 *
 * LoomCL's mapping (builtins/subgroup.cl): a sub-group is a run of at most
 * S consecutive work-items along dimension 0 of one row of the group. */
#include "harness.h"
#include <CL/cl_ext.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

enum { NR = 48 }; /* results per work-item */

static const char *all_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#ifdef SGS\n"
    "__attribute__((intel_reqd_sub_group_size(SGS)))\n"
    "#endif\n"
    "kernel void all_fns(global int *o, global const int *in) {\n"
    "  size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  global int *r = o + gid * 48;\n"
    "  int v = in[gid];\n"
    "  uint lid = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "  r[0] = get_sub_group_id(); r[1] = lid; r[2] = n; r[3] = get_num_sub_groups();\n"
    "  r[4] = get_max_sub_group_size();\n"
    "  r[5] = sub_group_reduce_add(v); r[6] = sub_group_reduce_min(v);\n"
    "  r[7] = sub_group_reduce_max(v); r[8] = sub_group_scan_inclusive_add(v);\n"
    "  r[9] = sub_group_scan_exclusive_add(v); r[10] = sub_group_scan_inclusive_min(v);\n"
    "  r[11] = sub_group_scan_exclusive_max(v);\n"
    "  r[12] = sub_group_broadcast(v, n - 1);\n"
    "  r[13] = sub_group_all(v > 3); r[14] = sub_group_any(v > 11);\n"
    "  r[15] = (int)sub_group_reduce_add((float)v);\n"
    "  r[16] = (int)(sub_group_reduce_add((long)v << 33) >> 33);\n"
    "  r[17] = sub_group_shuffle(v, (lid + 3) % n);\n"
    "  r[18] = sub_group_shuffle_xor(v, 2u);\n"
    "  r[19] = sub_group_shuffle_up(v, 1u); r[20] = sub_group_shuffle_down(v, 1u);\n"
    "  r[21] = sub_group_rotate(v, 3); r[22] = sub_group_clustered_rotate(v, -1, 4u);\n"
    "  r[23] = sub_group_clustered_reduce_add(v, 4u);\n"
    "  uint4 b = sub_group_ballot(v & 1);\n"
    "  r[24] = b.x; r[25] = sub_group_ballot_bit_count(b);\n"
    "  r[26] = sub_group_ballot_inclusive_scan(b); r[27] = sub_group_inverse_ballot(b);\n"
    "  r[28] = sub_group_elect();\n"
    "  if (v & 1) r[29] = sub_group_non_uniform_reduce_add(v);\n"
    "  else r[29] = sub_group_non_uniform_scan_inclusive_mul(v | 1);\n"
    "  r[30] = v % 3 == 0 ? sub_group_broadcast_first(v) : -1;\n"
    "  r[31] = sub_group_non_uniform_all_equal(v >> 3);\n"
    "  r[32] = sub_group_non_uniform_reduce_and(v);\n"
    "  r[33] = sub_group_non_uniform_reduce_xor(v);\n"
    "  r[34] = sub_group_non_uniform_reduce_logical_or(v > 10);\n"
    "  r[35] = intel_sub_group_shuffle_down(v, v + 100, 2u);\n"
    "  r[36] = intel_sub_group_shuffle_up(v - 100, v, 1u);\n"
    "  r[37] = intel_sub_group_block_read((const global uint *)(in + gid - lid));\n"
    "  r[38] = sub_group_broadcast((char)v, 0u);\n"
    "  r[39] = sub_group_reduce_add((uchar)v);\n"
    "  r[40] = sub_group_scan_inclusive_max((short)-v);\n"
    "  r[41] = sub_group_broadcast((int4)(v, 2 * v, 3 * v, 4 * v), 1u % n).s2;\n"
    "  r[42] = (int)sub_group_reduce_add((half)v);\n"
    "  r[43] = (int)sub_group_reduce_max((double)v);\n"
    "  r[44] = intel_sub_group_shuffle((float2)(v, -v), (lid + 1) % n).y;\n"
    "  r[45] = sub_group_non_uniform_scan_exclusive_add(v);\n"
    "  r[46] = sub_group_clustered_reduce_max(v, 2u);\n"
    "  uint4 eq = get_sub_group_lt_mask();\n"
    "  r[47] = eq.x + eq.y;\n"
    "}\n";

struct sg_ref {
  size_t g[2], l[2], s; /* global and local size, sub-group size */
};

/* the global linear ids of sub-group members: fills m, returns the count;
 * (gx0, gy): the first member's global coordinates */
static size_t members(const struct sg_ref *c, size_t gid, size_t *m, size_t *lid_out) {
  size_t gx = gid % c->g[0], gy = gid / c->g[0];
  size_t grp_x = gx / c->l[0] * c->l[0];
  size_t lsize0 = c->g[0] - grp_x < c->l[0] ? c->g[0] - grp_x : c->l[0];
  size_t lx = gx - grp_x, xs = lx / c->s * c->s;
  size_t n = lsize0 - xs < c->s ? lsize0 - xs : c->s;
  for (size_t i = 0; i < n; i++)
    m[i] = gy * c->g[0] + grp_x + xs + i;
  *lid_out = lx - xs;
  return n;
}

static int check_all(const struct sg_ref *c, const int *in, const int *out) {
  size_t total = c->g[0] * c->g[1], bad = 0, m[128];
  for (size_t gid = 0; gid < total; gid++) {
    size_t lid, n = members(c, gid, m, &lid);
    const int *r = out + gid * NR;
    int v = in[gid];
    int32_t want[NR];
    bool known[NR];
    memset(known, 1, sizeof known);
    size_t gx = gid % c->g[0], gy = gid / c->g[0];
    size_t grp_x = gx / c->l[0] * c->l[0], grp_y = gy / c->l[1] * c->l[1];
    size_t ls0 = c->g[0] - grp_x < c->l[0] ? c->g[0] - grp_x : c->l[0];
    size_t ls1 = c->g[1] - grp_y < c->l[1] ? c->g[1] - grp_y : c->l[1];
    size_t per_row = (ls0 + c->s - 1) / c->s;
    want[0] = (int)((gy - grp_y) * per_row + (gx - grp_x) / c->s);
    want[1] = (int)lid;
    want[2] = (int)n;
    want[3] = (int)(per_row * ls1);
    want[4] = (int)(c->l[0] < c->s ? c->l[0] : c->s);
    uint32_t sum = 0, mn = UINT32_MAX, mx = 0, andv = ~0u, xorv = 0;
    int smn = INT32_MAX, smx = INT32_MIN;
    uint32_t incl = 0, excl = 0, ballot = 0, bits = 0, before = 0;
    int inmin = INT32_MAX, exmax = INT32_MIN;
    bool all3 = true, any11 = false, any10 = false;
    short smax = SHRT_MIN;
    (void)mn, (void)mx;
    for (size_t i = 0; i < n; i++) {
      int x = in[m[i]];
      sum += (uint32_t)x;
      smn = x < smn ? x : smn;
      smx = x > smx ? x : smx;
      andv &= (uint32_t)x;
      xorv ^= (uint32_t)x;
      all3 &= x > 3;
      any11 |= x > 11;
      any10 |= x > 10;
      if (x & 1) {
        ballot |= i < 32 ? 1u << i : 0;
        bits++;
        before += i <= lid;
      }
      if (i < lid)
        exmax = x > exmax ? x : exmax, excl += (uint32_t)x;
      if (i <= lid) {
        incl += (uint32_t)x;
        inmin = x < inmin ? x : inmin;
        smax = (short)-x > smax ? (short)-x : smax;
      }
    }
    want[5] = (int)sum, want[6] = smn, want[7] = smx;
    want[8] = (int)incl, want[9] = (int)excl, want[10] = inmin, want[11] = exmax;
    want[12] = in[m[n - 1]];
    want[13] = all3, want[14] = any11;
    want[15] = (int)sum, want[16] = (int)sum;
    want[17] = in[m[(lid + 3) % n]];
    known[18] = (lid ^ 2) < n;
    want[18] = known[18] ? in[m[lid ^ 2]] : 0;
    known[19] = lid >= 1;
    want[19] = lid >= 1 ? in[m[lid - 1]] : 0;
    known[20] = lid + 1 < n;
    want[20] = lid + 1 < n ? in[m[lid + 1]] : 0;
    want[21] = in[m[(lid + 3) % n]];
    size_t cb = lid / 4 * 4;
    known[22] = cb + 4 <= n;
    want[22] = known[22] ? in[m[cb + (lid - cb + 3) % 4]] : 0;
    uint32_t csum = 0;
    for (size_t i = cb; i < cb + 4 && i < n; i++)
      csum += (uint32_t)in[m[i]];
    want[23] = (int)csum;
    want[24] = (int)ballot, want[25] = (int)bits, want[26] = (int)before;
    want[27] = v & 1, want[28] = lid == 0;
    uint32_t nsum = 0, nmul = 1, nfirst = 0;
    bool have_first = false;
    for (size_t i = 0; i < n; i++) {
      int x = in[m[i]];
      if ((x & 1) && (v & 1))
        nsum += (uint32_t)x;
      if (!(x & 1) && !(v & 1) && i <= lid)
        nmul *= (uint32_t)(x | 1);
      if (x % 3 == 0 && !have_first)
        nfirst = (uint32_t)x, have_first = true;
    }
    want[29] = (v & 1) ? (int)nsum : (int)nmul;
    want[30] = v % 3 == 0 ? (int)nfirst : -1;
    bool eq = true;
    for (size_t i = 0; i < n; i++)
      eq &= (in[m[i]] >> 3) == (in[m[0]] >> 3);
    want[31] = eq;
    want[32] = (int)andv, want[33] = (int)xorv, want[34] = any10;
    /* intel shuffles with two values: the second continues the first at
     * the maximum sub-group size (only full sub-groups checked) */
    size_t dn = lid + 2, mxs = (size_t)want[4];
    known[35] = dn < n || (n == mxs && dn - mxs < n);
    want[35] = dn < n ? in[m[dn]] : known[35] ? in[m[dn - mxs]] + 100 : 0;
    known[36] = lid >= 1 || n == mxs;
    want[36] = lid >= 1 ? in[m[lid - 1]] : known[36] ? in[m[mxs - 1]] - 100 : 0;
    want[37] = v;
    want[38] = (int)(signed char)in[m[0]];
    want[39] = (int)(unsigned char)sum;
    want[40] = smax;
    want[41] = 3 * in[m[1 % n]];
    want[42] = (int)sum, want[43] = smx;
    want[44] = -in[m[(lid + 1) % n]];
    want[45] = (int)excl;
    size_t c2 = lid / 2 * 2;
    int cm = in[m[c2]];
    if (c2 + 1 < n && in[m[c2 + 1]] > cm)
      cm = in[m[c2 + 1]];
    want[46] = cm;
    want[47] = (int)lid; /* lt mask: lid bits, as x + y's bit counts: 2^lid - 1 */
    want[47] = lid >= 32 ? (int)(0xffffffffu + ((lid - 32 < 32) ? ((1u << (lid - 32)) - 1) : 0u))
                         : (int)((1u << lid) - 1);
    for (int j = 0; j < NR; j++)
      if (known[j] && r[j] != want[j] && bad++ < 8)
        printf("    sub-group S=%zu g=%zux%zu l=%zux%zu item %zu result %d: got %d, want %d\n", c->s,
               c->g[0], c->g[1], c->l[0], c->l[1], gid, j, r[j], want[j]);
  }
  return (int)bad;
}

static cl_kernel all_kernel(struct test_env *env, int sgs) {
  char opts[64];
  if (sgs)
    snprintf(opts, sizeof opts, "-cl-std=CL3.0 -DSGS=%d", sgs);
  else
    snprintf(opts, sizeof opts, "-cl-std=CL3.0");
  return test_kernel_from(env, all_src, "all_fns", opts);
}

static void run_all(struct test_env *env, cl_kernel k, size_t s, size_t g0, size_t g1, size_t l0,
                    size_t l1) {
  struct sg_ref c = {{g0, g1}, {l0, l1}, s};
  size_t total = g0 * g1;
  int *in = malloc(total * sizeof *in);
  for (size_t i = 0; i < total; i++)
    in[i] = (int)((i * 7 + i / 5) % 13);
  cl_mem bi = test_buffer_with(env, total * sizeof(int), in);
  cl_mem bo = test_buffer_with(env, total * NR * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bi, &bi));
  size_t g[2] = {g0, g1}, l[2] = {l0, l1};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  int *out = malloc(total * NR * sizeof *out);
  test_read_back(env, bo, total * NR * sizeof(int), out);
  CHECK(check_all(&c, in, out) == 0);
  free(in);
  free(out);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
}

/* every function, every size: 1D groups with full and partial sub-groups,
 * a non-uniform last group, 2D groups of rows narrower than a sub-group */
static void test_all_functions(struct test_env *env) {
  size_t sizes[8];
  size_t ret = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &ret));
  size_t ns = ret / sizeof(size_t);
  CHECK(ns >= 1);
  for (size_t i = 0; i <= ns; i++) {
    int sgs = i < ns ? (int)sizes[i] : 0;
    cl_kernel k = all_kernel(env, sgs);
    if (!k)
      continue;
    size_t big = 256, s = 0;
    CHECK_OK(clGetKernelSubGroupInfo(k, env->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof big, &big, sizeof s, &s, NULL));
    CHECK(sgs == 0 || s == (size_t)sgs);
    size_t reqd = 99;
    CHECK_OK(clGetKernelSubGroupInfo(k, env->device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                     NULL, sizeof reqd, &reqd, NULL));
    CHECK(reqd == (size_t)sgs);
    run_all(env, k, s, 128, 1, 128, 1);
    run_all(env, k, s, 120, 1, 40, 1);
    run_all(env, k, s, 200, 1, 96, 1); /* non-uniform: 96, 96, 8 */
    run_all(env, k, s, 30, 4, 10, 2);
    run_all(env, k, s, 3, 2, 3, 2);
    clReleaseKernel(k);
  }
}

/* Sub-groups take different paths: a sub-group barrier only odd sub-groups
 * reach, next to a work-group barrier all reach; a loop whose trip count
 * differs between sub-groups; __local memory exchanged through
 * sub_group_barrier. */
static void test_divergent_sub_groups(struct test_env *env) {
  static const char *src =
      "kernel void div(global int *o, global const int *in, local int *t) {\n"
      "  size_t l = get_local_id(0), g = get_global_id(0);\n"
      "  uint lid = get_sub_group_local_id(), sg = get_sub_group_id();\n"
      "  int v = in[g], a = 0;\n"
      "  if (sg & 1) a = sub_group_reduce_add(v);\n"
      "  t[l] = v;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int nb = t[get_local_size(0) - 1 - l];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int acc = 0, red = 0, odd = 0;\n"
      "  for (uint i = 0; i <= sg; i++) acc += sub_group_scan_inclusive_add(v + (int)i);\n"
      "  for (int it = 0; it < 3; it++) {\n"
      "    red += sub_group_reduce_add(1);\n"
      "    if (lid & 1) odd += sub_group_non_uniform_reduce_add(1);\n"
      "  }\n"
      "  t[l] = v * 2;\n"
      "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int next = t[l - lid + (lid + 1) % get_sub_group_size()];\n"
      "  o[4 * g] = a; o[4 * g + 1] = nb; o[4 * g + 2] = acc; o[4 * g + 3] = next;\n"
      "  o[4 * get_global_size(0) + 2 * g] = red; o[4 * get_global_size(0) + 2 * g + 1] = odd;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "div", "-cl-std=CL3.0");
  if (!k)
    return;
  size_t big = 256, s = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof big,
                                   &big, sizeof s, &s, NULL));
  enum { G = 240 };
  int in[G];
  for (int i = 0; i < G; i++)
    in[i] = (i * 5) % 11 - 3;
  static const size_t locals[] = {60, 80, 240, 7};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0]; c++) {
    size_t L = locals[c], g = G / L * L;
    cl_mem bi = test_buffer_with(env, sizeof in, in);
    cl_mem bo = test_buffer_with(env, 6 * G * sizeof(int), NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bi, &bi));
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &L));
    int out[6 * G];
    test_read_back(env, bo, 6 * g * sizeof(int), out);
    int bad = 0;
    for (size_t i = 0; i < g; i++) {
      size_t base = i / L * L, l = i - base, xs = l / s * s, sg = l / s;
      size_t n = L - xs < s ? L - xs : s, lid = l - xs;
      int sum = 0;
      for (size_t j = 0; j < n; j++)
        sum += in[base + xs + j];
      int acc = 0;
      for (size_t it = 0; it <= sg; it++)
        for (size_t j = 0; j <= lid; j++)
          acc += in[base + xs + j] + (int)it;
      int want[4] = {(sg & 1) ? sum : 0, in[base + L - 1 - l], acc,
                     2 * in[base + xs + (lid + 1) % n]};
      for (int j = 0; j < 4; j++)
        if (out[4 * i + j] != want[j] && bad++ < 6)
          printf("    divergent L=%zu item %zu result %d: got %d, want %d\n", L, i, j,
                 out[4 * i + j], want[j]);
      /* a uniform reduction in a loop around a branch with a non-uniform
       * one: each iteration's reduction folds the whole sub-group */
      int odds = (int)(n / 2);
      if (out[4 * g + 2 * i] != 3 * (int)n || out[4 * g + 2 * i + 1] != ((lid & 1) ? 3 * odds : 0))
        if (bad++ < 6)
          printf("    divergent L=%zu item %zu: reductions %d and %d\n", L, i, out[4 * g + 2 * i],
                 out[4 * g + 2 * i + 1]);
    }
    CHECK(bad == 0);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
  }
  clReleaseKernel(k);
}


/* cl_intel_subgroups' 2D image block reads and writes: two rows per read,
 * a read past the right edge (clamped to the last word), a write */
static void test_image_blocks(struct test_env *env) {
  static const char *src =
      "__attribute__((intel_reqd_sub_group_size(16)))\n"
      "kernel void blk(read_only image2d_t s, write_only image2d_t d, global uint *o) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  int base = x - (int)get_sub_group_local_id();\n"
      "  uint2 v = intel_sub_group_block_read2(s, (int2)(4 * base, 2 * y));\n"
      "  uint e = intel_sub_group_block_read(s, (int2)(4 * 24, y));\n"
      "  size_t i = (size_t)(y * 32 + x) * 3;\n"
      "  o[i] = v.x; o[i + 1] = v.y; o[i + 2] = e;\n"
      "  intel_sub_group_block_write(d, (int2)(4 * base, y), v.x + 1);\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "blk", "-cl-std=CL3.0");
  if (!k)
    return;
  enum { W = 32, H = 16 };
  static uint32_t px[W * H], back[W * H], out[W * 8 * 3];
  for (int i = 0; i < W * H; i++)
    px[i] = (uint32_t)(i * 2654435761u >> 7);
  cl_image_format f = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
  cl_int err;
  cl_mem si = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
  CHECK_OK(err);
  cl_mem di = clCreateImage(env->context, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
  CHECK_OK(err);
  cl_mem bo = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof si, &si));
  CHECK_OK(clSetKernelArg(k, 1, sizeof di, &di));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bo, &bo));
  size_t g[2] = {W, 8}, l[2] = {W, 1};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  test_read_back(env, bo, sizeof out, out);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, 8, 1};
  CHECK_OK(clEnqueueReadImage(env->queue, di, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
  int bad = 0;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < W; x++) {
      int lane = x % 16, col = 24 + lane < W ? 24 + lane : W - 1;
      uint32_t want[3] = {px[2 * y * W + x], px[(2 * y + 1) * W + x], px[y * W + col]};
      for (int j = 0; j < 3; j++)
        bad += out[(y * W + x) * 3 + j] != want[j];
      bad += back[y * W + x] != want[0] + 1;
    }
  CHECK(bad == 0);
  clReleaseMemObject(si);
  clReleaseMemObject(di);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
}

/* More than 63 barriers: the work-group function looks sub-group barriers
 * up in a table instead of a bit mask (sg_driver.c). 71 shuffles with the
 * neighbour, then a reduction. */
static void test_many_sub_group_barriers(struct test_env *env) {
  char src[4096];
  size_t len = (size_t)snprintf(src, sizeof src,
                                "kernel void many(global int *o) {\n"
                                "  int x = (int)get_global_id(0);\n");
  for (int i = 0; i < 71; i++)
    len += (size_t)snprintf(src + len, sizeof src - len, "  x = sub_group_shuffle_xor(x, 1u);\n");
  snprintf(src + len, sizeof src - len,
           "  o[get_global_id(0)] = x * 1000 + sub_group_reduce_max(x);\n}\n");
  cl_kernel k = test_kernel_from(env, src, "many", "-cl-std=CL3.0");
  if (!k)
    return;
  size_t big = 64, s = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof big,
                                   &big, sizeof s, &s, NULL));
  enum { G = 128 };
  int out[G];
  cl_mem b = test_buffer_with(env, sizeof out, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t g = G, l = 64;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, b, sizeof out, out);
  int bad = 0;
  for (int i = 0; i < G && s; i++) {
    int first = i / (int)s * (int)s, last = first + (int)s - 1;
    bad += out[i] != (i ^ 1) * 1000 + last;
  }
  CHECK(s > 1 && bad == 0);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* Broadcasts and shuffles of the widest values (double16, long8, char3) in
 * groups of 3 and 5 work-items: slots of 128 bytes per work-item whose
 * bases are odd multiples of their size */
static void test_wide_values(struct test_env *env) {
  static const char *src =
      "kernel void wide(global double *o, global long *p, global int *q) {\n"
      "  size_t g = get_global_id(0);\n"
      "  double16 d = (double16)(g) + (double16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);\n"
      "  long8 l = (long8)(g * 1000) + (long8)(0, 1, 2, 3, 4, 5, 6, 7);\n"
      "  char3 c = (char3)((char)g, (char)(g + 1), (char)(g + 2));\n"
      "  double16 db = sub_group_broadcast(d, 1u % get_sub_group_size());\n"
      "  long8 ls = intel_sub_group_shuffle(l, (get_sub_group_local_id() + 1) % get_sub_group_size());\n"
      "  char3 cb = sub_group_broadcast(c, 0u);\n"
      "  o[g] = db.s0 + db.sf; p[g] = ls.s0 + ls.s7; q[g] = cb.x + cb.y + cb.z;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "wide", "-cl-std=CL3.0");
  if (!k)
    return;
  size_t big = 64, s = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof big,
                                   &big, sizeof s, &s, NULL));
  enum { G = 60 };
  static const size_t locals[] = {3, 5, 60};
  for (size_t c = 0; c < sizeof locals / sizeof locals[0] && s; c++) {
    size_t L = locals[c], g = G;
    double od[G];
    cl_long ol[G];
    cl_int oq[G];
    cl_mem bd = test_buffer_with(env, sizeof od, NULL), bl = test_buffer_with(env, sizeof ol, NULL);
    cl_mem bq = test_buffer_with(env, sizeof oq, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof bd, &bd));
    CHECK_OK(clSetKernelArg(k, 1, sizeof bl, &bl));
    CHECK_OK(clSetKernelArg(k, 2, sizeof bq, &bq));
    CHECK_OK(test_run(env, k, 1, NULL, &g, &L));
    test_read_back(env, bd, sizeof od, od);
    test_read_back(env, bl, sizeof ol, ol);
    test_read_back(env, bq, sizeof oq, oq);
    int bad = 0;
    for (size_t i = 0; i < G; i++) {
      size_t base = i / L * L, xs = base + (i - base) / s * s;
      size_t n = base + L - xs < s ? base + L - xs : s, lid = i - xs;
      size_t b1 = xs + 1 % n, sh = xs + (lid + 1) % n;
      bad += od[i] != 2.0 * (double)b1 + 15.0;
      bad += ol[i] != (cl_long)(2 * 1000 * sh + 7);
      bad += oq[i] != 3 * (int)(signed char)xs + 3;
    }
    CHECK(bad == 0);
    clReleaseMemObject(bd);
    clReleaseMemObject(bl);
    clReleaseMemObject(bq);
  }
  clReleaseKernel(k);
}

static void test_sub_group_info(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                                 "__attribute__((intel_reqd_sub_group_size(8)))\n"
                                 "kernel void q(global int *o) { o[0] = get_sub_group_size(); }\n",
                                 "q", "-cl-std=CL3.0");
  if (!k)
    return;
  size_t l3[3] = {20, 3, 2}, v = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l3, l3,
                                   sizeof v, &v, NULL));
  CHECK(v == 3 * 3 * 2);
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                   sizeof(size_t), l3, sizeof v, &v, NULL));
  CHECK(v == 8);
  size_t count = 5, out3[3] = {9, 9, 9}, ret = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                   &count, sizeof out3, out3, &ret));
  CHECK(out3[0] == 40 && out3[1] == 1 && out3[2] == 1 && ret == sizeof out3);
  count = (size_t)1 << 40;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                   &count, sizeof out3, out3, NULL));
  CHECK(out3[0] == 0 && out3[1] == 0 && out3[2] == 0);
  size_t maxn = 0, wg = 0;
  CHECK_OK(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof maxn,
                                   &maxn, NULL));
  CHECK_OK(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CHECK(maxn == wg);
  cl_uint dev_max = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof dev_max, &dev_max, NULL));
  CHECK(dev_max == wg);
  /* errors */
  CHECK_ERR(clGetKernelSubGroupInfo(NULL, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v,
                                    NULL),
            CL_INVALID_KERNEL);
  CHECK_ERR(clGetKernelSubGroupInfo(k, (cl_device_id)k, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                    sizeof v, &v, NULL),
            CL_INVALID_DEVICE);
  CHECK_ERR(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, NULL,
                                    sizeof v, &v, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 4 * sizeof(size_t),
                                    l3, sizeof v, &v, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l3, l3,
                                    1, &v, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelSubGroupInfo(k, NULL, 0x1234, 0, NULL, sizeof v, &v, NULL), CL_INVALID_VALUE);
  clReleaseKernel(k);
  /* a size the device does not offer is a build error */
  cl_program p = NULL;
  const char *bad = "__attribute__((intel_reqd_sub_group_size(12)))\n"
                    "kernel void q(global int *o) { o[0] = 1; }\n";
  p = clCreateProgramWithSource(env->context, 1, &bad, NULL, NULL);
  CHECK(clBuildProgram(p, 1, &env->device, "-cl-std=CL3.0", NULL, NULL) == CL_BUILD_PROGRAM_FAILURE);
  char log[2048] = "";
  clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  CHECK(strstr(log, "intel_reqd_sub_group_size(12)") != NULL);
  clReleaseProgram(p);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_all_functions(&env);
  test_divergent_sub_groups(&env);
  test_image_blocks(&env);
  test_many_sub_group_barriers(&env);
  test_wide_values(&env);
  test_sub_group_info(&env);
  test_env_release(&env);
  return test_finish("test_subgroups");
}
