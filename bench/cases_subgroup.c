/* Sub-group cases (cl_khr_subgroups and friends): a reduction, an
 * inclusive scan and a shuffle over 128 MiB of uints, each reading and
 * writing every element once, like stream_copy, so their GB/s compare with
 * a plain copy of the same data. The checks assume what both LoomCL and
 * PoCL do: 1D sub-groups are runs of consecutive work-items of the size
 * CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE reports. */
#include "suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SG_LOCAL = 256 };

static const char *sg_source =
    "kernel void sg_reduce(global const uint *in, global uint *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint s = sub_group_reduce_add(in[i]);\n"
    "  out[i] = get_sub_group_local_id() == 0 ? s : 0;\n"
    "}\n"
    "kernel void sg_scan(global const uint *in, global uint *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = sub_group_scan_inclusive_add(in[i]);\n"
    "}\n"
    "kernel void sg_shuffle(global const uint *in, global uint *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = sub_group_shuffle_xor(in[i], 1u);\n"
    "}\n";

struct sg_host {
  size_t n;
  uint32_t *in;
};

/* sub-groups: OpenCL 3.0's optional feature (CL_DEVICE_MAX_NUM_SUB_GROUPS
 * above 0) or cl_khr_subgroups */
static const char *sg_unsupported(struct platform_env *env) {
  cl_uint max = 0;
  if (clGetDeviceInfo(env->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max, &max, NULL) ==
          CL_SUCCESS && max > 0)
    return NULL;
  return bench_has_extension(env, "cl_khr_subgroups") ? NULL : "no sub-groups";
}

static void *sg_prepare(bool quick, struct case_work *w) {
  struct sg_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 20 : (size_t)32 << 20;
  h->in = bench_alloc(h->n * sizeof(uint32_t));
  unsigned st = 7;
  for (size_t i = 0; i < h->n; i++)
    h->in[i] = bench_rand(&st) & 0xffff;
  w->amount = 2.0 * (double)h->n * sizeof(uint32_t);
  w->scale = 1e9;
  w->unit = "GB/s";
  return h;
}

static void sg_release(void *p) {
  struct sg_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *sg_open(struct platform_env *env, void *host, const char *kernel) {
  struct sg_host *h = host;
  const char *names[] = {kernel, NULL};
  struct instance *in = bench_open_instance(env, sg_source, "-cl-std=CL3.0", names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, h->n * sizeof(uint32_t), h->in);
  in->buffers[1] = bench_buffer(env, h->n * sizeof(uint32_t), NULL);
  if (!in->buffers[0] || !in->buffers[1] || !bench_args(in, 0, "bb", 0, 1)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = h->n, l = SG_LOCAL;
  bench_add_launch(in, 0, 1, &g, &l);
  return in;
}

static struct instance *reduce_open(struct platform_env *env, void *h) { return sg_open(env, h, "sg_reduce"); }
static struct instance *scan_open(struct platform_env *env, void *h) { return sg_open(env, h, "sg_scan"); }
static struct instance *shuffle_open(struct platform_env *env, void *h) { return sg_open(env, h, "sg_shuffle"); }

/* the sub-group size of the instance's kernel for groups of SG_LOCAL */
static size_t sg_size(struct instance *in) {
  size_t l = SG_LOCAL, s = 0;
  if (clGetKernelSubGroupInfo(in->kernels[0], in->env->device,
                              CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof l, &l, sizeof s, &s,
                              NULL) != CL_SUCCESS || s == 0 || SG_LOCAL % s)
    return 0;
  return s;
}

/* kind: 0 reduce, 1 scan, 2 shuffle */
static bool sg_check(struct instance *in, void *host, int kind) {
  struct sg_host *h = host;
  size_t s = sg_size(in);
  if (!s) {
    fprintf(stderr, "    no usable sub-group size\n");
    return false;
  }
  uint32_t *got = bench_alloc(h->n * sizeof(uint32_t));
  bool ok = bench_read(in, 1, got, h->n * sizeof(uint32_t));
  for (size_t base = 0; ok && base < h->n; base += s) {
    uint32_t acc = 0, total = 0;
    for (size_t j = 0; j < s; j++)
      total += h->in[base + j];
    for (size_t j = 0; j < s && ok; j++) {
      acc += h->in[base + j];
      uint32_t want = kind == 0 ? (j == 0 ? total : 0) : kind == 1 ? acc : h->in[base + (j ^ 1)];
      if (got[base + j] != want) {
        fprintf(stderr, "    element %zu: got %u, want %u\n", base + j, got[base + j], want);
        ok = false;
      }
    }
  }
  free(got);
  return ok;
}

static bool reduce_check(struct instance *in, void *h) { return sg_check(in, h, 0); }
static bool scan_check(struct instance *in, void *h) { return sg_check(in, h, 1); }
static bool shuffle_check(struct instance *in, void *h) { return sg_check(in, h, 2); }

const struct bench_case bench_subgroup_cases[] = {
    {.name = "sg_reduce", .what = "sub_group_reduce_add of 32M uints, one sum per sub-group",
     .limit = LIMIT_BANDWIDTH, .unsupported = sg_unsupported, .prepare = sg_prepare,
     .open = reduce_open, .check = reduce_check, .release_host = sg_release},
    {.name = "sg_scan", .what = "sub_group_scan_inclusive_add of 32M uints",
     .limit = LIMIT_BANDWIDTH, .unsupported = sg_unsupported, .prepare = sg_prepare,
     .open = scan_open, .check = scan_check, .release_host = sg_release},
    {.name = "sg_shuffle", .what = "sub_group_shuffle_xor(x, 1) of 32M uints",
     .limit = LIMIT_BANDWIDTH, .unsupported = sg_unsupported, .prepare = sg_prepare,
     .open = shuffle_open, .check = shuffle_check, .release_host = sg_release},
    {.name = NULL},
};
