/* Device partitioning (API 2.2 section 4.3): sub-devices equally, by counts
 * and by affinity domain, nested partitions, the queries, reference
 * counting (sub-devices live on in their contexts and queues), kernels
 * running on sub-devices and on their parent in one context, and every
 * error clCreateSubDevices names. */
#include "harness.h"

static struct test_env env;
static char junk[256]; /* a pointer that is no OpenCL object */
static cl_uint units;

static cl_uint u32(cl_device_id d, cl_device_info p) {
  cl_uint v = 0;
  CHECK_OK(clGetDeviceInfo(d, p, sizeof v, &v, NULL));
  return v;
}

static void release_all(cl_device_id *d, cl_uint n) {
  for (cl_uint i = 0; i < n; i++)
    CHECK_OK(clReleaseDevice(d[i]));
}

/* out[i] = i * 3 + tag on every device of devs, one queue each, in one
 * context: each sub-device runs kernels on its own cores */
static void run_on(cl_device_id *devs, cl_uint n) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, n, devs, NULL, NULL, &err);
  CHECK_OK(err);
  const char *src = "kernel void k(global int *o, int tag) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  o[i] = (int)i * 3 + tag;\n"
                    "}\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_OK(clBuildProgram(p, n, devs, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_OK(err);
  enum { items = 4096 };
  for (cl_uint d = 0; d < n; d++) {
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, devs[d], NULL, &err);
    CHECK_OK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, items * sizeof(int), NULL, &err);
    int tag = (int)d * 1000;
    clSetKernelArg(k, 0, sizeof b, &b);
    clSetKernelArg(k, 1, sizeof tag, &tag);
    size_t g = items, l = 64;
    CHECK_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    int out[items];
    CHECK_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < items; i++)
      bad += out[i] != i * 3 + tag;
    CHECK(bad == 0);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

static void test_equally(void) {
  const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint n = 0;
  /* one sub-device of every unit is no further partition */
  const cl_device_partition_property whole[] = {CL_DEVICE_PARTITION_EQUALLY, units, 0};
  CHECK_ERR(clCreateSubDevices(env.device, whole, 0, NULL, &n), CL_DEVICE_PARTITION_FAILED);
  if (units == 1) {
    CHECK_ERR(clCreateSubDevices(env.device, props, 0, NULL, &n), CL_DEVICE_PARTITION_FAILED);
    return;
  }
  CHECK_OK(clCreateSubDevices(env.device, props, 0, NULL, &n));
  CHECK(n == units);
  cl_device_id *subs = calloc(n + 1, sizeof *subs);
  CHECK_OK(clCreateSubDevices(env.device, props, n, subs, NULL));
  for (cl_uint i = 0; i < n; i++) {
    CHECK(u32(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    CHECK(u32(subs[i], CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 1);
    CHECK(u32(subs[i], CL_DEVICE_REFERENCE_COUNT) == 1);
    cl_device_id parent = NULL;
    CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == env.device);
    cl_device_partition_property type[4] = {0};
    size_t size = 0;
    CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size));
    CHECK(size == 3 * sizeof *type && type[0] == CL_DEVICE_PARTITION_EQUALLY && type[1] == 1 &&
          type[2] == 0);
    cl_device_type t = 0;
    CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_DEVICE_TYPE_CPU);
  }
  /* kernels on every sub-device, and on the parent beside them */
  subs[n] = env.device;
  run_on(subs, n + 1);
  /* counting: retain, release; a context keeps a released sub-device */
  CHECK_OK(clRetainDevice(subs[0]));
  CHECK(u32(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  CHECK_OK(clReleaseDevice(subs[0]));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &subs[0], NULL, NULL, &err);
  CHECK_OK(err);
  release_all(subs, n);
  cl_device_id in_ctx = NULL;
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof in_ctx, &in_ctx, NULL));
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, in_ctx, NULL, &err);
  CHECK_OK(err);
  CHECK(u32(in_ctx, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(subs);

  /* more units per sub-device than the device has */
  const cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_EQUALLY, units + 1, 0};
  CHECK_ERR(clCreateSubDevices(env.device, too_many, 0, NULL, &n),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  const cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
  CHECK_ERR(clCreateSubDevices(env.device, zero, 0, NULL, &n), CL_INVALID_VALUE);
}

static void test_by_counts(void) {
  /* all units in one sub-device, then (with 2 units or more) split 1 and
   * the rest, and that rest split again (nested) */
  const cl_device_partition_property all[] = {CL_DEVICE_PARTITION_BY_COUNTS, units,
                                              CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id one = NULL;
  cl_uint n = 0;
  CHECK_OK(clCreateSubDevices(env.device, all, 1, &one, &n));
  CHECK(n == 1 && u32(one, CL_DEVICE_MAX_COMPUTE_UNITS) == units);
  cl_device_partition_property type[8] = {0};
  size_t size = 0;
  CHECK_OK(clGetDeviceInfo(one, CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size));
  CHECK(size == sizeof all && memcmp(type, all, sizeof all) == 0);
  if (units >= 2) {
    const cl_device_partition_property split[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, units - 1,
                                                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id two[2];
    CHECK_OK(clCreateSubDevices(one, split, 2, two, &n));
    CHECK(n == 2);
    CHECK(u32(two[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    CHECK(u32(two[1], CL_DEVICE_MAX_COMPUTE_UNITS) == units - 1);
    cl_device_id parent = NULL;
    CHECK_OK(clGetDeviceInfo(two[1], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == one);
    const cl_device_partition_property each[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id grand[64];
    cl_uint gn = 0;
    if (units - 1 >= 2 && units - 1 <= 64) {
      CHECK_OK(clCreateSubDevices(two[1], each, 64, grand, &gn));
      CHECK(gn == units - 1);
      run_on(grand, gn);
      release_all(grand, gn);
    } else if (units - 1 == 1) { /* a one-unit device cannot be split */
      CHECK_ERR(clCreateSubDevices(two[1], each, 64, grand, &gn), CL_DEVICE_PARTITION_FAILED);
    }
    /* the parent of released sub-devices stays valid while they exist */
    run_on(two, 2);
    release_all(two, 2);
  }
  release_all(&one, 1);

  const cl_device_partition_property over[] = {CL_DEVICE_PARTITION_BY_COUNTS, units, 1,
                                               CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  CHECK_ERR(clCreateSubDevices(env.device, over, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  const cl_device_partition_property negative[] = {CL_DEVICE_PARTITION_BY_COUNTS, -1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  CHECK_ERR(clCreateSubDevices(env.device, negative, 0, NULL, &n),
            CL_INVALID_DEVICE_PARTITION_COUNT);
  const cl_device_partition_property none[] = {CL_DEVICE_PARTITION_BY_COUNTS,
                                               CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  CHECK_ERR(clCreateSubDevices(env.device, none, 0, NULL, &n), CL_INVALID_VALUE);
  cl_device_partition_property *many = calloc(units + 4, sizeof *many);
  many[0] = CL_DEVICE_PARTITION_BY_COUNTS;
  for (cl_uint i = 1; i <= units + 1; i++)
    many[i] = 1;
  CHECK_ERR(clCreateSubDevices(env.device, many, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  free(many);
}

static void test_affinity(void) {
  cl_device_affinity_domain domains = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains,
                           &domains, NULL));
  const cl_device_affinity_domain levels[] = {
      CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
      CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
      CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE};
  for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                  (cl_device_partition_property)levels[l], 0};
    cl_uint n = 0;
    cl_int err = clCreateSubDevices(env.device, props, 0, NULL, &n);
    /* a level the machine does not describe, or with one group (a shared
     * cache, one NUMA node), is not offered */
    if (!(domains & levels[l])) {
      CHECK_ERR(err, CL_INVALID_VALUE);
      continue;
    }
    CHECK_OK(err);
    if (err != CL_SUCCESS)
      continue;
    CHECK(n >= 2 && n <= units); /* offered levels split the device */
    cl_device_id *subs = calloc(n, sizeof *subs);
    CHECK_ERR(clCreateSubDevices(env.device, props, n - 1, subs, NULL), CL_INVALID_VALUE);
    CHECK_OK(clCreateSubDevices(env.device, props, n, subs, NULL));
    cl_uint sum = 0;
    for (cl_uint i = 0; i < n; i++) {
      sum += u32(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS);
      cl_device_partition_property type[4] = {0};
      CHECK_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, NULL));
      CHECK(type[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
      /* NEXT_PARTITIONABLE reports the level it used */
      CHECK(type[1] != CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE &&
            (type[1] == (cl_device_partition_property)levels[l] ||
             levels[l] == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
    }
    CHECK(sum == units);
    run_on(subs, n);
    release_all(subs, n);
    free(subs);
  }
  const cl_device_partition_property bad[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 3, 0};
  cl_uint n = 0;
  CHECK_ERR(clCreateSubDevices(env.device, bad, 0, NULL, &n), CL_INVALID_VALUE);
}

static void test_errors(void) {
  cl_device_id out[4];
  cl_uint n = 0;
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  const cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                              CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  const cl_device_partition_property unknown[] = {0x7777, 1, 0};
  const cl_device_partition_property empty[] = {0};
  CHECK_ERR(clCreateSubDevices(NULL, equally, 4, out, &n), CL_INVALID_DEVICE);
  CHECK_ERR(clCreateSubDevices((cl_device_id)junk, equally, 4, out, &n), CL_INVALID_DEVICE);
  CHECK_ERR(clCreateSubDevices(env.device, NULL, 4, out, &n), CL_INVALID_VALUE);
  CHECK_ERR(clCreateSubDevices(env.device, empty, 4, out, &n), CL_INVALID_VALUE);
  CHECK_ERR(clCreateSubDevices(env.device, unknown, 4, out, &n), CL_INVALID_VALUE);
  CHECK_ERR(clCreateSubDevices(env.device, two, 4, out, &n), CL_INVALID_VALUE);
  CHECK_ERR(clCreateSubDevices(env.device, equally, 0, out, &n), CL_INVALID_VALUE);
  if (units > 1)
    CHECK_ERR(clCreateSubDevices(env.device, equally, 1, out, &n), CL_INVALID_VALUE);
  CHECK_ERR(clRetainDevice((cl_device_id)junk), CL_INVALID_DEVICE);
  CHECK_ERR(clReleaseDevice((cl_device_id)junk), CL_INVALID_DEVICE);
}

int main(void) {
  test_env_init(&env);
  units = u32(env.device, CL_DEVICE_MAX_COMPUTE_UNITS);
  CHECK(units >= 1 && u32(env.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == units);
  test_equally();
  test_by_counts();
  test_affinity();
  test_errors();
  test_env_release(&env);
  return test_finish("test_sub_devices");
}
