/* Shared virtual memory entry points (API 2.2 section 5.6): allocation,
 * free, the enqueued copy, fill, map, unmap, migrate and free commands,
 * SVM kernel arguments and execution information, buffers over SVM, and
 * every error the spec names for them. Kernels walking SVM data are in
 * tests/runtime/test_svm_kernels.c, USM in test_usm_api.c. */
#include "harness.h"
#include <stdatomic.h>

static struct test_env env;
static char junk[256]; /* a pointer that is no OpenCL object */

static const char *src = "kernel void k(global int *p, int v, local int *l, constant int *c) {\n"
                         "  p[get_global_id(0)] = v + c[0];\n"
                         "}\n";

static void test_capabilities(void) {
  cl_device_svm_capabilities caps = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
  CHECK(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                 CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
}

static void test_alloc(void) {
  cl_ulong max_alloc = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                           &max_alloc, NULL));
  const cl_svm_mem_flags good[] = {
      0,
      CL_MEM_READ_WRITE,
      CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY,
      CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    unsigned char *p = clSVMAlloc(env.context, good[i], 1000, 0);
    CHECK(p != NULL);
    if (!p)
      continue;
    CHECK((uintptr_t)p % 128 == 0); /* the default: the size of long16 */
    memset(p, (int)i, 1000);        /* the host owns every byte */
    CHECK(p[999] == (unsigned char)i);
    clSVMFree(env.context, p);
  }
  /* requested alignments, up to 2 MiB */
  for (cl_uint align = 1; align <= (2u << 20); align *= 4) {
    void *p = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 3000, align);
    CHECK(p && (uintptr_t)p % align == 0);
    clSVMFree(env.context, p);
  }
  /* every failure is NULL: not a context; bits that are no SVM flag; two
   * access flags; atomics without fine grain; size 0 or above the maximum;
   * an alignment that is no power of two or too large */
  CHECK(clSVMAlloc((cl_context)junk, 0, 64, 0) == NULL);
  CHECK(clSVMAlloc(NULL, 0, 64, 0) == NULL);
  CHECK(clSVMAlloc(env.context, CL_MEM_USE_HOST_PTR, 64, 0) == NULL);
  CHECK(clSVMAlloc(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == NULL);
  CHECK(clSVMAlloc(env.context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == NULL);
  CHECK(clSVMAlloc(env.context, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
  CHECK(clSVMAlloc(env.context, 0, 0, 0) == NULL);
  CHECK(clSVMAlloc(env.context, 0, max_alloc + 1, 0) == NULL);
  CHECK(clSVMAlloc(env.context, 0, SIZE_MAX, 0) == NULL);
  CHECK(clSVMAlloc(env.context, 0, 64, 3) == NULL);
  CHECK(clSVMAlloc(env.context, 0, 64, 4u << 20) == NULL);

  /* clSVMFree: NULL does nothing; a pointer clSVMAlloc did not return
   * (stack memory, the middle of an allocation, a freed one, another
   * context's) is left alone */
  clSVMFree(env.context, NULL);
  clSVMFree((cl_context)junk, NULL);
  int local_var = 7;
  clSVMFree(env.context, &local_var);
  CHECK(local_var == 7);
  int *p = clSVMAlloc(env.context, 0, 64 * sizeof(int), 0);
  CHECK(p != NULL);
  if (p) {
    clSVMFree(env.context, p + 1); /* not its start: ignored, p still valid */
    p[63] = 5;
    CHECK(p[63] == 5);
    cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, NULL);
    clSVMFree(other, p); /* not other's */
    clReleaseContext(other);
    p[0] = 1;
    clSVMFree(env.context, p);
    clSVMFree(env.context, p); /* twice: the second is ignored */
  }
  /* releasing a context frees what the application did not free (the
   * suite runs under LeakSanitizer) */
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, NULL);
  CHECK(clSVMAlloc(other, 0, 4096, 0) != NULL);
  CHECK(clSVMAlloc(other, CL_MEM_SVM_FINE_GRAIN_BUFFER, 100, 0) != NULL);
  clReleaseContext(other);
}

static void test_memcpy_fill(void) {
  enum { n = 4096 };
  unsigned char *a = clSVMAlloc(env.context, 0, n, 0);
  unsigned char *b = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, n, 0);
  unsigned char host[n], back[n];
  for (int i = 0; i < n; i++)
    host[i] = (unsigned char)(i * 7 + 3);
  /* host -> SVM -> SVM -> host, blocking and not */
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, host, n, 0, NULL, NULL));
  cl_event ev = NULL;
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_FALSE, b, a, n, 0, NULL, &ev));
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_SVM_MEMCPY);
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, back, b, n, 1, &ev, NULL));
  CHECK(memcmp(back, host, n) == 0);
  clReleaseEvent(ev);
  /* inside the allocation, at an offset; size 0 is a command that does
   * nothing */
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a + 100, host, 50, 0, NULL, NULL));
  CHECK(memcmp(a + 100, host, 50) == 0);
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, b, 0, 0, NULL, NULL));

  /* errors: the queue, the wait list, NULL pointers, overlap, and a range
   * running past the end of its allocation */
  CHECK_ERR(clEnqueueSVMMemcpy((cl_command_queue)junk, CL_TRUE, a, b, 4, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMMemcpy(NULL, CL_TRUE, a, b, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, b, 4, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, b, 4, 0, &ev, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, NULL, b, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a + 10, a, 11, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, a + 10, 11, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, a, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, a + 10, 10, 0, NULL, NULL));
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a + n - 8, host, 9, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, back, b + 1, n, 0, NULL, NULL),
            CL_INVALID_VALUE);
  /* so large that every pair of pointers overlaps */
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, host, SIZE_MAX, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);

  /* fills with every pattern size */
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    unsigned char pattern[128];
    for (size_t i = 0; i < ps; i++)
      pattern[i] = (unsigned char)(ps + i * 13);
    memset(a, 0xEE, n);
    CHECK_OK(clEnqueueSVMMemFill(env.queue, a + 256, pattern, ps, 1024, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_SVM_MEMFILL);
    clReleaseEvent(ev);
    int bad = 0;
    for (int i = 0; i < n; i++) {
      unsigned char want = (i >= 256 && i < 256 + 1024) ? pattern[(i - 256) % ps] : 0xEE;
      bad += a[i] != want;
    }
    CHECK(bad == 0);
  }
  int pat = 5;
  CHECK_ERR(clEnqueueSVMMemFill((cl_command_queue)junk, a, &pat, 4, 64, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, NULL, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, &pat, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, &pat, 3, 63, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, junk, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a + 2, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, &pat, 4, 62, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, &pat, 4, n + 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMemFill(env.queue, a, &pat, 4, 64, 2, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  clSVMFree(env.context, a);
  clSVMFree(env.context, b);
}

/* Copies of several MiB run on every core (the device's mem_copy): a
 * kernel fills one allocation and an in-order copy, which becomes ready on
 * the worker that ends the kernel, copies it into another; then a
 * 9 MiB + 7 bytes copy from the host with an odd start */
static void test_large_copies(void) {
  enum { n = 3 << 20 }; /* uints: 12 MiB */
  cl_kernel k = test_kernel_from(&env, "kernel void fill(global uint *p) {\n"
                                       "  size_t i = get_global_id(0);\n"
                                       "  p[i] = (uint)(i * 2654435761u);\n"
                                       "}\n",
                                 "fill", NULL);
  cl_uint *a = clSVMAlloc(env.context, 0, n * sizeof *a, 0);
  cl_uint *b = clSVMAlloc(env.context, 0, n * sizeof *b, 0);
  if (!k || !a || !b) {
    CHECK(!"setup failed");
    return;
  }
  CHECK_OK(clSetKernelArgSVMPointer(k, 0, a));
  size_t g = n;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_FALSE, b, a, n * sizeof *a, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += b[i] != (cl_uint)(i * 2654435761u);
  CHECK(bad == 0);
  size_t bytes = (9 << 20) + 7;
  unsigned char *host = malloc(bytes + 1);
  for (size_t i = 0; i < bytes + 1; i++)
    host[i] = (unsigned char)(i * 31 + 7);
  CHECK_OK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, (char *)a + 1, host + 1, bytes, 0, NULL, NULL));
  CHECK(memcmp((char *)a + 1, host + 1, bytes) == 0);
  free(host);
  /* large fills, on every core too: each pattern size, a size that is no
   * whole number of chunks */
  for (size_t ps = 1; ps <= 128; ps *= 8) {
    unsigned char pattern[128];
    for (size_t i = 0; i < ps; i++)
      pattern[i] = (unsigned char)(ps * 3 + i);
    size_t fill = (n * sizeof *a / 2 / ps) * ps + ps; /* about 6 MiB */
    memset(a, 0, n * sizeof *a);
    CHECK_OK(clEnqueueSVMMemFill(env.queue, (char *)a + 128, pattern, ps, fill, 0, NULL, NULL));
    CHECK_OK(clFinish(env.queue));
    const unsigned char *bytes_a = (const unsigned char *)a;
    int bad_fill = 0;
    for (size_t i = 0; i < n * sizeof *a; i++)
      bad_fill += bytes_a[i] != (i >= 128 && i < 128 + fill ? pattern[(i - 128) % ps] : 0);
    CHECK(bad_fill == 0);
  }
  clSVMFree(env.context, a);
  clSVMFree(env.context, b);
  clReleaseKernel(k);
}

static void test_map_migrate(void) {
  int *p = clSVMAlloc(env.context, 0, 256 * sizeof(int), 0);
  cl_event ev = NULL;
  CHECK_OK(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE, p, 256 * sizeof(int), 0, NULL, NULL));
  for (int i = 0; i < 256; i++)
    p[i] = i;
  CHECK_OK(clEnqueueSVMUnmap(env.queue, p, 0, NULL, &ev));
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_SVM_UNMAP);
  CHECK_OK(clEnqueueSVMMap(env.queue, CL_FALSE, CL_MAP_READ, p + 10, 4, 1, &ev, NULL));
  clReleaseEvent(ev);
  CHECK_OK(clFinish(env.queue));
  CHECK_OK(clEnqueueSVMUnmap(env.queue, p + 10, 0, NULL, NULL));
  CHECK_ERR(clEnqueueSVMMap((cl_command_queue)junk, CL_TRUE, CL_MAP_READ, p, 4, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, NULL, 4, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, (cl_map_flags)1 << 40, p, 4, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p,
                            4, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, 257 * sizeof(int), 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, 4, 0, (cl_event *)junk, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueSVMUnmap((cl_command_queue)junk, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMUnmap(env.queue, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMUnmap(env.queue, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

  /* migration: whole allocations (sizes NULL or 0) or ranges inside one */
  const void *ptrs[2] = {p, p + 100};
  size_t sizes[2] = {0, 16};
  CHECK_OK(clEnqueueSVMMigrateMem(env.queue, 2, ptrs, NULL, 0, 0, NULL, NULL));
  CHECK_OK(clEnqueueSVMMigrateMem(env.queue, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL,
                                  &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_SVM_MIGRATE_MEM);
  clReleaseEvent(ev);
  CHECK_ERR(clEnqueueSVMMigrateMem((cl_command_queue)junk, 1, ptrs, NULL, 0, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMMigrateMem(env.queue, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMigrateMem(env.queue, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMMigrateMem(env.queue, 1, ptrs, NULL, (cl_mem_migration_flags)1 << 9, 0,
                                   NULL, NULL),
            CL_INVALID_VALUE);
  size_t too_big[2] = {257 * sizeof(int), 4};
  CHECK_ERR(clEnqueueSVMMigrateMem(env.queue, 2, ptrs, too_big, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  int host_var = 0;
  const void *stray[1] = {&host_var};
  size_t one[1] = {4};
  CHECK_ERR(clEnqueueSVMMigrateMem(env.queue, 1, stray, one, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_OK(clFinish(env.queue));
  clSVMFree(env.context, p);
}

/* clEnqueueSVMFree's callback */
struct free_record {
  atomic_int calls;
  cl_command_queue queue;
  cl_uint n;
  void *first, *second;
};
static void CL_CALLBACK record_free(cl_command_queue q, cl_uint n, void *ptrs[], void *user) {
  struct free_record *r = user;
  r->queue = q;
  r->n = n;
  r->first = ptrs[0];
  r->second = n > 1 ? ptrs[1] : NULL;
  for (cl_uint i = 0; i < n; i++)
    clSVMFree(env.context, ptrs[i]);
  atomic_fetch_add(&r->calls, 1);
}

static void test_enqueue_free(void) {
  struct free_record r = {0};
  void *ptrs[2] = {clSVMAlloc(env.context, 0, 100, 0), clSVMAlloc(env.context, 0, 200, 0)};
  /* the wait list gates the free: nothing happens until the user event */
  cl_event gate = clCreateUserEvent(env.context, NULL), ev = NULL;
  CHECK_OK(clEnqueueSVMFree(env.queue, 2, ptrs, record_free, &r, 1, &gate, &ev));
  ptrs[0] = ptrs[1] = NULL; /* the command copied the list */
  CHECK(atomic_load(&r.calls) == 0);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &ev));
  CHECK(atomic_load(&r.calls) == 1 && r.queue == env.queue && r.n == 2);
  CHECK(r.first != NULL && r.second != NULL);
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_SVM_FREE);
  clReleaseEvent(ev);
  clReleaseEvent(gate);

  /* without a callback LoomCL frees them; a NULL entry is allowed */
  void *many[40];
  for (int i = 0; i < 40; i++)
    many[i] = i == 7 ? NULL : clSVMAlloc(env.context, 0, 64, 0);
  CHECK_OK(clEnqueueSVMFree(env.queue, 40, many, NULL, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  /* an empty list orders like a marker */
  CHECK_OK(clEnqueueSVMFree(env.queue, 0, NULL, NULL, NULL, 0, NULL, NULL));

  CHECK_ERR(clEnqueueSVMFree((cl_command_queue)junk, 1, many, NULL, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueSVMFree(env.queue, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMFree(env.queue, 0, many, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueSVMFree(env.queue, 0, NULL, NULL, NULL, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, NULL);
  cl_event foreign = clCreateUserEvent(other, NULL);
  CHECK_ERR(clEnqueueSVMFree(env.queue, 0, NULL, NULL, NULL, 1, &foreign, NULL),
            CL_INVALID_CONTEXT);
  clReleaseEvent(foreign);
  clReleaseContext(other);
}

static void test_buffer_over_svm(void) {
  char *p = clSVMAlloc(env.context, 0, 1024, 0);
  cl_int err;
  cl_mem b = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 1024, p, &err);
  CHECK_OK(err);
  cl_bool uses = CL_FALSE;
  CHECK_OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  CHECK(uses == CL_TRUE);
  cl_buffer_region region = {128, 256};
  cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_OK(err);
  uses = CL_FALSE;
  CHECK_OK(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  CHECK(uses == CL_TRUE);
  /* the buffer's storage is the SVM memory */
  int v = 0x01020304;
  CHECK_OK(clEnqueueWriteBuffer(env.queue, sub, CL_TRUE, 4, sizeof v, &v, 0, NULL, NULL));
  CHECK(memcmp(p + 132, &v, sizeof v) == 0);
  clReleaseMemObject(sub);
  clReleaseMemObject(b);
  /* a buffer larger than the SVM allocation it would use */
  CHECK(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 1025, p, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 1000, p + 100, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  b = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 924, p + 100, &err);
  CHECK_OK(err);
  clReleaseMemObject(b);
  /* a host pointer that is not SVM, and a buffer without a host pointer */
  char host[64];
  b = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  CHECK_OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  CHECK(uses == CL_FALSE);
  clReleaseMemObject(b);
  b = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, 64, p, &err);
  CHECK_OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  CHECK(uses == CL_FALSE);
  clReleaseMemObject(b);
  clSVMFree(env.context, p);
}

static void test_kernel_args(void) {
  cl_kernel k = test_kernel_from(&env, src, "k", NULL);
  if (!k)
    return;
  int *p = clSVMAlloc(env.context, 0, 64, 0);
  CHECK_OK(clSetKernelArgSVMPointer(k, 0, p));
  CHECK_OK(clSetKernelArgSVMPointer(k, 0, p + 3)); /* inside the allocation */
  CHECK_OK(clSetKernelArgSVMPointer(k, 0, NULL));
  CHECK_OK(clSetKernelArgSVMPointer(k, 3, p)); /* constant memory */
  int host_var = 0;
  CHECK_OK(clSetKernelArgSVMPointer(k, 0, &host_var)); /* fine-grain system SVM */
  CHECK_ERR(clSetKernelArgSVMPointer((cl_kernel)junk, 0, p), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArgSVMPointer(NULL, 0, p), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArgSVMPointer(k, 4, p), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelArgSVMPointer(k, 1, p), CL_INVALID_ARG_VALUE); /* an int */
  CHECK_ERR(clSetKernelArgSVMPointer(k, 2, p), CL_INVALID_ARG_VALUE); /* local memory */

  void *list[3] = {p, p + 1, &host_var};
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list));
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 5, list), CL_INVALID_VALUE);
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL)); /* unsets */
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, NULL),
            CL_INVALID_VALUE);
  cl_bool on = CL_TRUE, off = CL_FALSE, odd = 7;
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
  CHECK_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof off, &off));
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &on),
            CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof odd, &odd),
            CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo(k, 0x1234, sizeof on, &on), CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo((cl_kernel)junk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list),
            CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clSVMFree(env.context, p);
}

int main(void) {
  test_env_init(&env);
  test_capabilities();
  test_alloc();
  test_memcpy_fill();
  test_large_copies();
  test_map_migrate();
  test_enqueue_free();
  test_buffer_over_svm();
  test_kernel_args();
  test_env_release(&env);
  return test_finish("test_svm_api");
}
