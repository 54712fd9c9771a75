/* cl_intel_unified_shared_memory as an application finds it: the entry
 * points through clGetExtensionFunctionAddressForPlatform, the device
 * capabilities, host/device/shared allocations with their properties,
 * clGetMemAllocInfoINTEL, the fill/copy/migrate/advise commands, kernel
 * arguments and execution information, blocking free, and every error. */
#include "harness.h"
#include <CL/cl_ext.h>

static struct test_env env;
static char junk[256]; /* a pointer that is no OpenCL object */

static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn set_arg;
static clEnqueueMemFillINTEL_fn mem_fill;
static clEnqueueMemsetINTEL_fn mem_set;
static clEnqueueMemcpyINTEL_fn mem_copy;
static clEnqueueMigrateMemINTEL_fn migrate;
static clEnqueueMemAdviseINTEL_fn advise;

static void *lookup(const char *name) {
  void *f = clGetExtensionFunctionAddressForPlatform(env.platform, name);
  CHECK(f != NULL);
  return f;
}

static bool test_discovery(void) {
  char ext[4096] = "";
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  CHECK(strstr(ext, "cl_intel_unified_shared_memory") != NULL);
  const cl_device_info caps[] = {
      CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
      CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
      CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
      CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL};
  for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
    cl_device_unified_shared_memory_capabilities_intel c = 0;
    CHECK_OK(clGetDeviceInfo(env.device, caps[i], sizeof c, &c, NULL));
    CHECK(c == (CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL));
  }
  host_alloc = (clHostMemAllocINTEL_fn)lookup("clHostMemAllocINTEL");
  device_alloc = (clDeviceMemAllocINTEL_fn)lookup("clDeviceMemAllocINTEL");
  shared_alloc = (clSharedMemAllocINTEL_fn)lookup("clSharedMemAllocINTEL");
  mem_free = (clMemFreeINTEL_fn)lookup("clMemFreeINTEL");
  blocking_free = (clMemBlockingFreeINTEL_fn)lookup("clMemBlockingFreeINTEL");
  alloc_info = (clGetMemAllocInfoINTEL_fn)lookup("clGetMemAllocInfoINTEL");
  set_arg = (clSetKernelArgMemPointerINTEL_fn)lookup("clSetKernelArgMemPointerINTEL");
  mem_fill = (clEnqueueMemFillINTEL_fn)lookup("clEnqueueMemFillINTEL");
  mem_set = (clEnqueueMemsetINTEL_fn)lookup("clEnqueueMemsetINTEL");
  mem_copy = (clEnqueueMemcpyINTEL_fn)lookup("clEnqueueMemcpyINTEL");
  migrate = (clEnqueueMigrateMemINTEL_fn)lookup("clEnqueueMigrateMemINTEL");
  advise = (clEnqueueMemAdviseINTEL_fn)lookup("clEnqueueMemAdviseINTEL");
  CHECK(clGetExtensionFunctionAddressForPlatform(env.platform, "clNoSuchThingINTEL") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(env.platform, NULL) == NULL);
  return host_alloc && device_alloc && shared_alloc && mem_free && blocking_free && alloc_info &&
         set_arg && mem_fill && mem_set && mem_copy && migrate && advise;
}

static void check_info(const void *p, cl_unified_shared_memory_type_intel type, const void *base,
                       size_t size, cl_device_id dev) {
  cl_unified_shared_memory_type_intel t = 0;
  void *b = junk;
  size_t s = 12345;
  cl_device_id d = (cl_device_id)junk;
  CHECK_OK(alloc_info(env.context, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof t, &t, NULL));
  CHECK_OK(alloc_info(env.context, p, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof b, &b, NULL));
  CHECK_OK(alloc_info(env.context, p, CL_MEM_ALLOC_SIZE_INTEL, sizeof s, &s, NULL));
  CHECK_OK(alloc_info(env.context, p, CL_MEM_ALLOC_DEVICE_INTEL, sizeof d, &d, NULL));
  CHECK(t == type && b == base && s == size && d == dev);
}

static void test_alloc(void) {
  cl_int err = 1;
  char *h = host_alloc(env.context, NULL, 1000, 0, &err);
  CHECK_OK(err);
  char *d = device_alloc(env.context, env.device, NULL, 2000, 64, &err);
  CHECK_OK(err);
  cl_mem_properties_intel props[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                     CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0};
  char *s = shared_alloc(env.context, NULL, props, 3000, 4096, &err);
  CHECK_OK(err);
  char *s2 = shared_alloc(env.context, env.device, NULL, 10, 0, NULL);
  CHECK(h && d && s && s2);
  if (!h || !d || !s || !s2)
    return;
  CHECK((uintptr_t)d % 64 == 0 && (uintptr_t)s % 4096 == 0 && (uintptr_t)h % 128 == 0);
  memset(h, 1, 1000); /* every kind is addressable by the host here */
  memset(d, 2, 2000);
  memset(s, 3, 3000);
  /* the queries, for any pointer inside an allocation */
  check_info(h, CL_MEM_TYPE_HOST_INTEL, h, 1000, NULL);
  check_info(h + 999, CL_MEM_TYPE_HOST_INTEL, h, 1000, NULL);
  check_info(d + 5, CL_MEM_TYPE_DEVICE_INTEL, d, 2000, env.device);
  check_info(s + 2999, CL_MEM_TYPE_SHARED_INTEL, s, 3000, NULL);
  check_info(s2, CL_MEM_TYPE_SHARED_INTEL, s2, 10, env.device);
  cl_mem_alloc_flags_intel flags = 0;
  CHECK_OK(alloc_info(env.context, s, CL_MEM_ALLOC_FLAGS_INTEL, sizeof flags, &flags, NULL));
  CHECK(flags == CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL);
  /* pointers outside every USM allocation: past the end, host memory, NULL,
   * an SVM allocation */
  int stack_var;
  check_info(h + 1000, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
  check_info(&stack_var, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
  check_info(NULL, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
  void *svm = clSVMAlloc(env.context, 0, 64, 0);
  check_info(svm, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL);
  clSVMFree(env.context, svm);
  size_t ret = 0;
  CHECK_OK(alloc_info(env.context, h, CL_MEM_ALLOC_SIZE_INTEL, 0, NULL, &ret));
  CHECK(ret == sizeof(size_t));
  cl_uint small;
  CHECK_ERR(alloc_info(env.context, h, CL_MEM_ALLOC_SIZE_INTEL, sizeof small, &small, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(alloc_info(env.context, h, 0x1234, sizeof ret, &ret, NULL), CL_INVALID_VALUE);
  CHECK_ERR(alloc_info((cl_context)junk, h, CL_MEM_ALLOC_SIZE_INTEL, sizeof ret, &ret, NULL),
            CL_INVALID_CONTEXT);

  /* allocation errors */
  cl_ulong max_alloc = 0;
  clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
  CHECK(host_alloc((cl_context)junk, NULL, 64, 0, &err) == NULL && err == CL_INVALID_CONTEXT);
  CHECK(device_alloc(env.context, NULL, NULL, 64, 0, &err) == NULL && err == CL_INVALID_DEVICE);
  CHECK(device_alloc(env.context, (cl_device_id)junk, NULL, 64, 0, &err) == NULL &&
        err == CL_INVALID_DEVICE);
  CHECK(shared_alloc(env.context, (cl_device_id)junk, NULL, 64, 0, &err) == NULL &&
        err == CL_INVALID_DEVICE);
  CHECK(host_alloc(env.context, NULL, 0, 0, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
  CHECK(device_alloc(env.context, env.device, NULL, max_alloc + 1, 0, &err) == NULL &&
        err == CL_INVALID_BUFFER_SIZE);
  CHECK(shared_alloc(env.context, NULL, NULL, 64, 24, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(host_alloc(env.context, NULL, 64, 1u << 30, &err) == NULL && err == CL_INVALID_VALUE);
  cl_mem_properties_intel unknown[] = {0x4242, 0, 0};
  cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
  cl_mem_properties_intel both[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                    CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL |
                                        CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL,
                                    0};
  cl_mem_properties_intel bad_flag[] = {CL_MEM_ALLOC_FLAGS_INTEL, 1 << 20, 0};
  CHECK(host_alloc(env.context, unknown, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
  CHECK(host_alloc(env.context, twice, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
  CHECK(shared_alloc(env.context, NULL, both, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
  CHECK(device_alloc(env.context, env.device, bad_flag, 64, 0, &err) == NULL &&
        err == CL_INVALID_PROPERTY);

  /* frees: NULL is nothing; not the start of an allocation, freed twice,
   * or another context's is CL_INVALID_VALUE and frees nothing */
  CHECK_OK(mem_free(env.context, NULL));
  CHECK_ERR(mem_free(env.context, h + 1), CL_INVALID_VALUE);
  CHECK_ERR(mem_free(env.context, &stack_var), CL_INVALID_VALUE);
  CHECK_ERR(mem_free((cl_context)junk, h), CL_INVALID_CONTEXT);
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, NULL);
  CHECK_ERR(mem_free(other, h), CL_INVALID_VALUE);
  void *leaked = host_alloc(other, NULL, 64, 0, NULL); /* freed with its context */
  CHECK(leaked != NULL);
  clReleaseContext(other);
  CHECK(h[999] == 1);
  CHECK_OK(mem_free(env.context, h));
  CHECK_ERR(mem_free(env.context, h), CL_INVALID_VALUE);
  CHECK_OK(mem_free(env.context, d));
  CHECK_OK(blocking_free(env.context, s));
  CHECK_OK(blocking_free(env.context, NULL));
  CHECK_ERR(blocking_free(env.context, s), CL_INVALID_VALUE);
  CHECK_OK(mem_free(env.context, s2));
}

static void test_commands(void) {
  enum { n = 8192 };
  unsigned char *d = device_alloc(env.context, env.device, NULL, n, 0, NULL);
  unsigned char *h = host_alloc(env.context, NULL, n, 0, NULL);
  unsigned char src[n], back[n];
  for (int i = 0; i < n; i++)
    src[i] = (unsigned char)(i ^ (i >> 8));
  cl_event ev = NULL;
  CHECK_OK(mem_copy(env.queue, CL_FALSE, d, src, n, 0, NULL, &ev));
  CHECK_OK(mem_copy(env.queue, CL_FALSE, h, d, n, 1, &ev, NULL));
  CHECK_OK(mem_copy(env.queue, CL_TRUE, back, h, n, 0, NULL, NULL));
  CHECK(memcmp(back, src, n) == 0);
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MEMCPY_INTEL);
  clReleaseEvent(ev);
  CHECK_ERR(mem_copy(env.queue, CL_TRUE, d, d + 1, 2, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_ERR(mem_copy(env.queue, CL_TRUE, NULL, d, 2, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_copy(env.queue, CL_TRUE, back, d + 1, n, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_copy((cl_command_queue)junk, CL_TRUE, back, d, 4, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);

  /* fills: every pattern size, and the byte memset */
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    unsigned char pattern[128];
    for (size_t i = 0; i < ps; i++)
      pattern[i] = (unsigned char)(200 - ps - i);
    CHECK_OK(mem_set(env.queue, d, 0x5A, n, 0, NULL, NULL));
    CHECK_OK(mem_fill(env.queue, d + 512, pattern, ps, 2048, 0, NULL, NULL));
    CHECK_OK(mem_copy(env.queue, CL_TRUE, back, d, n, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < n; i++)
      bad += back[i] != ((i >= 512 && i < 512 + 2048) ? pattern[(i - 512) % ps] : 0x5A);
    CHECK(bad == 0);
  }
  int pat = 1;
  CHECK_ERR(mem_fill(env.queue, d + 1, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, d, &pat, 4, 63, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, d, &pat, 5, 65, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, d, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, NULL, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, d, &pat, 4, n + 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_set(env.queue, d, 0, n + 1, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mem_fill(env.queue, d, &pat, 4, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

  /* migration and advice order like commands and change nothing */
  CHECK_OK(migrate(env.queue, d, n, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MIGRATEMEM_INTEL);
  clReleaseEvent(ev);
  CHECK_OK(advise(env.queue, h + 16, 64, 0, 0, NULL, &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MEMADVISE_INTEL);
  clReleaseEvent(ev);
  CHECK_ERR(migrate(env.queue, NULL, 4, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(migrate(env.queue, d, 4, (cl_mem_migration_flags)1 << 7, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(migrate(env.queue, d + 1, n, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(advise(env.queue, NULL, 4, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(advise((cl_command_queue)junk, h, 4, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_OK(mem_copy(env.queue, CL_TRUE, back, d, n, 0, NULL, NULL));
  CHECK(back[0] == 0x5A);
  mem_free(env.context, d);
  mem_free(env.context, h);
}

/* a kernel through USM pointers, and clMemBlockingFreeINTEL waiting for it */
static void test_kernel(void) {
  const char *src = "kernel void scale(global float *out, global const float *in, float f) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  float x = in[i];\n"
                    "  for (int k = 0; k < 200; k++) x = x * 0.5f + f;\n"
                    "  out[i] = x;\n"
                    "}\n";
  cl_kernel k = test_kernel_from(&env, src, "scale", NULL);
  if (!k)
    return;
  enum { n = 1 << 16 };
  float *in = shared_alloc(env.context, env.device, NULL, n * sizeof(float), 0, NULL);
  float *out = device_alloc(env.context, env.device, NULL, n * sizeof(float), 0, NULL);
  for (int i = 0; i < n; i++)
    in[i] = (float)i;
  float f = 1.0f;
  CHECK_OK(set_arg(k, 0, out));
  CHECK_OK(set_arg(k, 1, in));
  CHECK_OK(clSetKernelArg(k, 2, sizeof f, &f));
  CHECK_ERR(set_arg(k, 2, in), CL_INVALID_ARG_VALUE);
  CHECK_ERR(set_arg(k, 3, in), CL_INVALID_ARG_INDEX);
  CHECK_ERR(set_arg((cl_kernel)junk, 0, in), CL_INVALID_KERNEL);
  cl_bool on = CL_TRUE;
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof on, &on));
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, sizeof on, &on));
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, sizeof on, &on));
  void *ptrs[2] = {in, out};
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs));
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 3, ptrs), CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &on),
            CL_INVALID_VALUE);
  size_t g = n;
  cl_event ev = NULL;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, &ev));
  float *back = malloc(n * sizeof(float));
  CHECK_OK(mem_copy(env.queue, CL_TRUE, back, out, n * sizeof(float), 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float x = (float)i;
    for (int j = 0; j < 200; j++)
      x = x * 0.5f + f;
    bad += back[i] != x;
  }
  CHECK(bad == 0);
  clReleaseEvent(ev);
  /* the blocking free returns only once the kernel using `in` finished */
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, &ev));
  CHECK_OK(blocking_free(env.context, in));
  cl_int status = 1;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_COMPLETE);
  clReleaseEvent(ev);
  CHECK_OK(mem_free(env.context, out));
  free(back);
  clReleaseKernel(k);
}

int main(void) {
  test_env_init(&env);
  if (test_discovery()) {
    test_alloc();
    test_commands();
    test_kernel();
  }
  test_env_release(&env);
  return test_finish("test_usm_api");
}
