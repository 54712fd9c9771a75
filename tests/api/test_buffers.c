/* Buffers: creation with every flag combination, queries, reference counts,
 * destructor callbacks, read/write/copy/fill/migrate round trips and every
 * error path of those entry points. */
#include "harness.h"
#include <stdbool.h>
#include <stdint.h>

static struct test_env env;

#define N 4096

static void fill_bytes(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 31u + seed * 7u + (i >> 8));
}

static size_t info_size(cl_mem m, cl_mem_info what) {
  size_t n = 0;
  CHECK_OK(clGetMemObjectInfo(m, what, 0, NULL, &n));
  return n;
}

/* Reads a buffer whatever its host access flags, through a copy. */
static void read_any(cl_mem m, size_t size, void *out) {
  cl_int err;
  cl_mem tmp = clCreateBuffer(env.context, 0, size, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, m, tmp, 0, 0, size, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, tmp, CL_TRUE, 0, size, out, 0, NULL, NULL));
  clReleaseMemObject(tmp);
}

/* ---------- creation ---------- */

static void test_every_flag_combination(void) {
  static const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY,
                                        CL_MEM_READ_ONLY};
  static const cl_mem_flags hostptr[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                         CL_MEM_ALLOC_HOST_PTR,
                                         CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  static const cl_mem_flags hostacc[] = {0, CL_MEM_HOST_WRITE_ONLY,
                                         CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
  unsigned char *init = malloc(N), *host = malloc(N), *got = malloc(N), *next = malloc(N);
  unsigned seed = 1;
  for (size_t a = 0; a < 4; a++)
    for (size_t h = 0; h < 5; h++)
      for (size_t x = 0; x < 4; x++, seed++) {
        cl_mem_flags flags = access[a] | hostptr[h] | hostacc[x];
        bool has_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        fill_bytes(init, N, seed);
        memcpy(host, init, N);
        cl_int err = 1;
        cl_mem m = clCreateBuffer(env.context, flags, N, has_ptr ? host : NULL, &err);
        CHECK_OK(err);
        CHECK(m != NULL);
        if (!m)
          continue;

        cl_mem_object_type type = 0;
        cl_mem_flags got_flags = 0;
        size_t size = 0, offset = 1;
        void *hp = (void *)1;
        cl_uint refs = 0, maps = 1;
        cl_context ctx = NULL;
        cl_mem assoc = (cl_mem)1;
        cl_bool svm = CL_TRUE;
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_MEM_OBJECT_BUFFER);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got_flags, &got_flags, NULL));
        CHECK(got_flags == flags);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
        CHECK(size == N);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
        CHECK(hp == ((flags & CL_MEM_USE_HOST_PTR) ? (void *)host : NULL));
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
        CHECK(refs == 1);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
        CHECK(maps == 0);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL));
        CHECK(ctx == env.context);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
        CHECK(assoc == NULL);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof offset, &offset, NULL));
        CHECK(offset == 0);
        CHECK_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL));
        CHECK(svm == CL_FALSE);
        CHECK(info_size(m, CL_MEM_PROPERTIES) == 0);

        /* COPY_HOST_PTR: the application's memory is free for reuse at once */
        if (flags & CL_MEM_COPY_HOST_PTR)
          memset(host, 0xEE, N);
        if (has_ptr) {
          read_any(m, N, got);
          CHECK(memcmp(got, init, N) == 0);
        }

        /* host writes where allowed, else a device-side copy */
        fill_bytes(next, N, seed + 1000);
        if (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) {
          CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, N, next, 0, NULL, NULL),
                    CL_INVALID_OPERATION);
          cl_mem src = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, N, next, &err);
          CHECK_OK(clEnqueueCopyBuffer(env.queue, src, m, 0, 0, N, 0, NULL, NULL));
          clReleaseMemObject(src);
        } else {
          CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, N, next, 0, NULL, NULL));
        }
        if (flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) {
          CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, N, got, 0, NULL, NULL),
                    CL_INVALID_OPERATION);
          read_any(m, N, got);
        } else {
          memset(got, 0, N);
          CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, N, got, 0, NULL, NULL));
        }
        CHECK(memcmp(got, next, N) == 0);
        /* USE_HOST_PTR is zero copy: the host memory holds the bits */
        if (flags & CL_MEM_USE_HOST_PTR)
          CHECK(memcmp(host, next, N) == 0);
        CHECK_OK(clReleaseMemObject(m));
      }
  free(init);
  free(host);
  free(got);
  free(next);
}

static void test_create_errors(void) {
  unsigned char host[64];
  cl_int err;
  cl_ulong max_alloc = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                           &max_alloc, NULL));

  CHECK(clCreateBuffer(NULL, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateBuffer((cl_context)env.queue, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);

  static const cl_mem_flags bad_flags[] = {
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
      (cl_mem_flags)1 << 6,
      CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_KERNEL_READ_AND_WRITE,
      (cl_mem_flags)1 << 40,
  };
  for (size_t i = 0; i < sizeof bad_flags / sizeof *bad_flags; i++) {
    bool ptr = bad_flags[i] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    err = 0;
    CHECK(clCreateBuffer(env.context, bad_flags[i], 64, ptr ? host : NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }

  CHECK(clCreateBuffer(env.context, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  if (max_alloc < SIZE_MAX) {
    CHECK(clCreateBuffer(env.context, 0, (size_t)max_alloc + 1, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  }
  CHECK(clCreateBuffer(env.context, 0, SIZE_MAX, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);

  CHECK(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, NULL,
                       &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env.context, 0, 64, host, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env.context, CL_MEM_ALLOC_HOST_PTR, 64, host, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);

  /* errcode_ret may be NULL */
  CHECK(clCreateBuffer(env.context, 0, 0, NULL, NULL) == NULL);
  cl_mem m = clCreateBuffer(env.context, 0, 64, NULL, NULL);
  CHECK(m != NULL);
  clReleaseMemObject(m);
}

static void test_properties(void) {
  cl_int err;
  cl_mem m = clCreateBufferWithProperties(env.context, NULL, 0, 64, NULL, &err);
  CHECK_OK(err);
  CHECK(info_size(m, CL_MEM_PROPERTIES) == 0);
  clReleaseMemObject(m);

  const cl_mem_properties empty[] = {0};
  m = clCreateBufferWithProperties(env.context, empty, CL_MEM_READ_ONLY, 64, NULL, &err);
  CHECK_OK(err);
  CHECK(info_size(m, CL_MEM_PROPERTIES) == sizeof(cl_mem_properties));
  cl_mem_properties got[2] = {7, 7};
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, NULL));
  CHECK(got[0] == 0 && got[1] == 7);
  clReleaseMemObject(m);

  const cl_mem_properties unknown[] = {0x4242, 1, 0};
  CHECK(clCreateBufferWithProperties(env.context, unknown, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_PROPERTY);
  CHECK(clCreateBufferWithProperties(NULL, empty, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateBufferWithProperties(env.context, empty, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBufferWithProperties(env.context, empty, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                     64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
}

static void test_refcount_and_info_errors(void) {
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, 0, 64, NULL, &err);
  cl_uint refs = 0;
  CHECK_OK(clRetainMemObject(m));
  CHECK_OK(clRetainMemObject(m));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 3);
  CHECK_OK(clReleaseMemObject(m));
  CHECK_OK(clReleaseMemObject(m));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);

  CHECK_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clRetainMemObject((cl_mem)env.context), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clReleaseMemObject((cl_mem)env.queue), CL_INVALID_MEM_OBJECT);

  size_t size, ret = 0;
  CHECK_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof size, &size, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetMemObjectInfo((cl_mem)env.context, CL_MEM_SIZE, sizeof size, &size, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetMemObjectInfo(m, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size - 1, &size, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, &ret));
  CHECK(ret == sizeof(size_t));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, 0, NULL, &ret));
  CHECK(ret == sizeof(cl_mem_object_type));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, 0, NULL, &ret));
  CHECK(ret == sizeof(cl_mem_flags));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, 0, NULL, &ret));
  CHECK(ret == sizeof(cl_uint));
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, 0, NULL, &ret));
  CHECK(ret == sizeof(cl_bool));
  clReleaseMemObject(m);
}

/* ---------- destructor callbacks ---------- */

static int order[8];
static int norder;
static cl_mem seen_mem;
static void CL_CALLBACK record(cl_mem m, void *data) {
  seen_mem = m;
  order[norder++] = (int)(intptr_t)data;
}

static void test_destructor_callbacks(void) {
  cl_int err;
  unsigned char host[256];
  cl_mem m = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  norder = 0;
  CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetMemObjectDestructorCallback(NULL, record, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clSetMemObjectDestructorCallback((cl_mem)env.context, record, NULL),
            CL_INVALID_MEM_OBJECT);
  for (intptr_t i = 1; i <= 3; i++)
    CHECK_OK(clSetMemObjectDestructorCallback(m, record, (void *)i));
  CHECK_OK(clRetainMemObject(m));
  CHECK_OK(clReleaseMemObject(m));
  CHECK(norder == 0);
  CHECK_OK(clReleaseMemObject(m));
  CHECK(norder == 3);
  CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);
  CHECK(seen_mem == m);

  /* a command still using the buffer keeps it alive */
  cl_event gate = clCreateUserEvent(env.context, &err);
  CHECK_OK(err);
  m = clCreateBuffer(env.context, 0, sizeof host, NULL, &err);
  norder = 0;
  CHECK_OK(clSetMemObjectDestructorCallback(m, record, (void *)9));
  memset(host, 0x5A, sizeof host);
  cl_event wr;
  CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof host, host, 1, &gate, &wr));
  CHECK_OK(clReleaseMemObject(m));
  CHECK(norder == 0);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &wr));
  CHECK_OK(clFinish(env.queue));
  CHECK(norder == 1 && order[0] == 9);
  clReleaseEvent(wr);
  clReleaseEvent(gate);
}

/* ---------- read / write ---------- */

static void test_read_write(void) {
  cl_int err;
  unsigned char a[N], b[N];
  fill_bytes(a, N, 3);
  cl_mem m = clCreateBuffer(env.context, 0, N, NULL, &err);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, N, a, 0, NULL, NULL));
  /* partial writes at odd offsets */
  unsigned char patch[100];
  memset(patch, 0xAB, sizeof patch);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 1001, sizeof patch, patch, 0, NULL, NULL));
  memcpy(a + 1001, patch, sizeof patch);
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, N, b, 0, NULL, NULL));
  CHECK(memcmp(a, b, N) == 0);
  memset(b, 0, N);
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 17, 333, b, 0, NULL, NULL));
  CHECK(memcmp(a + 17, b, 333) == 0);
  /* the last byte, and an empty transfer at the end */
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, N - 1, 1, b, 0, NULL, NULL));
  CHECK(b[0] == a[N - 1]);
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, N, 0, b, 0, NULL, NULL));

  /* non-blocking, chained by events */
  cl_event w, r;
  unsigned char c[N];
  fill_bytes(c, N, 77);
  memset(b, 0, N);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, N, c, 0, NULL, &w));
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_FALSE, 0, N, b, 1, &w, &r));
  CHECK_OK(clWaitForEvents(1, &r));
  CHECK(memcmp(b, c, N) == 0);
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(w, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_WRITE_BUFFER);
  CHECK_OK(clGetEventInfo(r, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_READ_BUFFER);
  clReleaseEvent(w);
  clReleaseEvent(r);

  /* errors */
  CHECK_ERR(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueWriteBuffer((cl_command_queue)m, m, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, NULL, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, (cl_mem)env.queue, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, N - 3, 4, b, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, N + 1, 0, b, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 8, SIZE_MAX - 4, b, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
            CL_INVALID_VALUE);
  cl_event none = NULL;
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, b, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 4, b, 0, &none, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 4, b, 1, &none, NULL),
            CL_INVALID_EVENT_WAIT_LIST);

  /* another context */
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  CHECK_OK(err);
  cl_mem om = clCreateBuffer(other, 0, N, NULL, &err);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, om, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, om, CL_TRUE, 0, 4, b, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  cl_event oev = clCreateUserEvent(other, &err);
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, b, 1, &oev, NULL),
            CL_INVALID_CONTEXT);
  clSetUserEventStatus(oev, CL_COMPLETE);
  clReleaseEvent(oev);
  clReleaseMemObject(om);
  clReleaseContext(other);

  /* a blocking call whose wait list failed */
  cl_event gate = clCreateUserEvent(env.context, &err);
  CHECK_OK(clSetUserEventStatus(gate, -5));
  CHECK_ERR(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, b, 1, &gate, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 4, b, 1, &gate, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  /* the queue may hold the failure in its order; start a fresh one */
  clReleaseCommandQueue(env.queue);
  env.queue = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_OK(err);
}

/* ---------- copy ---------- */

static void test_copy(void) {
  cl_int err;
  unsigned char a[N], b[N], ref[N];
  fill_bytes(a, N, 11);
  cl_mem s = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, N, a, &err);
  cl_mem d = clCreateBuffer(env.context, CL_MEM_ALLOC_HOST_PTR, N, NULL, &err);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, s, d, 0, 0, N, 0, NULL, NULL));
  CHECK_OK(clEnqueueCopyBuffer(env.queue, s, d, 100, 3000, 1000, 0, NULL, NULL));
  memcpy(ref, a, N);
  memcpy(ref + 3000, a + 100, 1000);
  CHECK_OK(clEnqueueReadBuffer(env.queue, d, CL_TRUE, 0, N, b, 0, NULL, NULL));
  CHECK(memcmp(b, ref, N) == 0);

  /* within one buffer, not overlapping (regions touch) */
  CHECK_OK(clEnqueueCopyBuffer(env.queue, d, d, 0, 512, 512, 0, NULL, NULL));
  memcpy(ref + 512, ref, 512);
  CHECK_OK(clEnqueueReadBuffer(env.queue, d, CL_TRUE, 0, N, b, 0, NULL, NULL));
  CHECK(memcmp(b, ref, N) == 0);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, d, d, 0, 0, 0, 0, NULL, NULL));

  CHECK_ERR(clEnqueueCopyBuffer(env.queue, d, d, 0, 511, 512, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, d, d, 511, 0, 512, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, d, d, 10, 10, 1, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);

  CHECK_ERR(clEnqueueCopyBuffer(NULL, s, d, 0, 0, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, NULL, d, 0, 0, 4, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, NULL, 0, 0, 4, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, d, N - 3, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, d, 0, N - 3, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, d, N + 1, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, d, 0, 0, N + 1, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, d, 0, 0, 4, 2, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);

  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  cl_mem om = clCreateBuffer(other, 0, N, NULL, &err);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, om, d, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, s, om, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseMemObject(om);
  clReleaseContext(other);

  /* host access flags do not restrict copies */
  cl_mem hna = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, N, NULL, &err);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, s, hna, 0, 0, N, 0, NULL, NULL));
  CHECK_OK(clEnqueueCopyBuffer(env.queue, hna, d, 0, 0, N, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, d, CL_TRUE, 0, N, b, 0, NULL, NULL));
  CHECK(memcmp(b, a, N) == 0);
  clReleaseMemObject(hna);

  /* the copy keeps its buffers alive after the application released them */
  cl_event gate = clCreateUserEvent(env.context, &err), done;
  cl_mem s2 = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, N, a, &err);
  cl_mem d2 = clCreateBuffer(env.context, 0, N, NULL, &err);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, s2, d2, 0, 0, N, 1, &gate, &done));
  CHECK_OK(clRetainMemObject(d2));
  CHECK_OK(clReleaseMemObject(s2));
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &done));
  memset(b, 0, N);
  CHECK_OK(clEnqueueReadBuffer(env.queue, d2, CL_TRUE, 0, N, b, 0, NULL, NULL));
  CHECK(memcmp(b, a, N) == 0);
  clReleaseMemObject(d2);
  clReleaseMemObject(d2);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(s);
  clReleaseMemObject(d);
}

/* ---------- fill ---------- */

static void test_fill(void) {
  cl_int err;
  unsigned char b[N], ref[N], pattern[128];
  for (size_t i = 0; i < sizeof pattern; i++)
    pattern[i] = (unsigned char)(0x80 + i * 3);
  /* host-no-access: fills ignore host access flags */
  cl_mem m = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, N, NULL, &err);
  cl_mem out = clCreateBuffer(env.context, 0, N, NULL, &err);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    memset(ref, 0x11, N);
    CHECK_OK(clEnqueueFillBuffer(env.queue, m, ref, 1, 0, N, 0, NULL, NULL));
    size_t off = ps * 3, size = ps * 21;
    cl_event ev;
    CHECK_OK(clEnqueueFillBuffer(env.queue, m, pattern, ps, off, size, 0, NULL, &ev));
    for (size_t i = 0; i < size; i++)
      ref[off + i] = pattern[i % ps];
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_FILL_BUFFER);
    clReleaseEvent(ev);
    CHECK_OK(clEnqueueCopyBuffer(env.queue, m, out, 0, 0, N, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, N, b, 0, NULL, NULL));
    CHECK(memcmp(b, ref, N) == 0);
    /* the whole buffer */
    CHECK_OK(clEnqueueFillBuffer(env.queue, out, pattern, ps, 0, N, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, N, b, 0, NULL, NULL));
    bool ok = true;
    for (size_t i = 0; i < N; i++)
      ok = ok && b[i] == pattern[i % ps];
    CHECK(ok);
  }
  /* a fill larger than the internal chunk size */
  size_t big = (size_t)1 << 20;
  cl_mem bm = clCreateBuffer(env.context, 0, big, NULL, &err);
  unsigned char *bb = malloc(big);
  CHECK_OK(clEnqueueFillBuffer(env.queue, bm, pattern, 16, 16, big - 32, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, bm, CL_TRUE, 0, big, bb, 0, NULL, NULL));
  bool ok = true;
  for (size_t i = 16; i < big - 16; i++)
    ok = ok && bb[i] == pattern[i % 16];
  CHECK(ok);
  free(bb);
  clReleaseMemObject(bm);

  CHECK_ERR(clEnqueueFillBuffer(NULL, m, pattern, 4, 0, 16, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, NULL, pattern, 4, 0, 16, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  static const size_t bad_sizes[] = {0, 3, 5, 12, 24, 256};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++)
    CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, bad_sizes[i], 0, 768, 0, NULL, NULL),
              CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, 4, 2, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, 4, 0, 18, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, 4, N - 4, 8, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, 4, N + 4, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, m, pattern, 4, 0, 16, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  cl_mem om = clCreateBuffer(other, 0, N, NULL, &err);
  CHECK_ERR(clEnqueueFillBuffer(env.queue, om, pattern, 4, 0, 16, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  clReleaseMemObject(om);
  clReleaseContext(other);
  clReleaseMemObject(m);
  clReleaseMemObject(out);
}

/* ---------- migrate ---------- */

static void test_migrate(void) {
  cl_int err;
  unsigned char a[256], b[256];
  fill_bytes(a, sizeof a, 5);
  cl_mem m[2];
  m[0] = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  m[1] = clCreateBuffer(env.context, 0, sizeof a, NULL, &err);
  cl_event ev;
  CHECK_OK(clEnqueueMigrateMemObjects(env.queue, 2, m, 0, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
  clReleaseEvent(ev);
  CHECK_OK(clEnqueueMigrateMemObjects(env.queue, 1, m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
  CHECK_OK(clEnqueueMigrateMemObjects(env.queue, 2, m,
                                      CL_MIGRATE_MEM_OBJECT_HOST |
                                          CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                      0, NULL, NULL));
  /* contents stay (CONTENT_UNDEFINED was only given for m[1]'s sake) */
  CHECK_OK(clEnqueueReadBuffer(env.queue, m[0], CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
  CHECK(memcmp(a, b, sizeof a) == 0);
  /* more objects than fit in a command's inline arguments */
  cl_mem many[40];
  for (int i = 0; i < 40; i++)
    many[i] = m[i & 1];
  CHECK_OK(clEnqueueMigrateMemObjects(env.queue, 40, many, 0, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));

  CHECK_ERR(clEnqueueMigrateMemObjects(NULL, 1, m, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 0, m, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 1, m, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem bad[2] = {m[0], NULL};
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 2, bad, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 1, m, 0, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  cl_mem om = clCreateBuffer(other, 0, 64, NULL, &err);
  cl_mem mixed[2] = {m[0], om};
  CHECK_ERR(clEnqueueMigrateMemObjects(env.queue, 2, mixed, 0, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  clReleaseMemObject(om);
  clReleaseContext(other);
  clReleaseMemObject(m[0]);
  clReleaseMemObject(m[1]);
}

int main(void) {
  test_env_init(&env);
  test_every_flag_combination();
  test_create_errors();
  test_properties();
  test_refcount_and_info_errors();
  test_destructor_callbacks();
  test_read_write();
  test_copy();
  test_fill();
  test_migrate();
  test_env_release(&env);
  return test_finish("test_buffers");
}
