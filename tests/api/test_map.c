/* clEnqueueMapBuffer / clEnqueueUnmapMemObject: zero-copy pointers
 * (USE_HOST_PTR maps return host_ptr + offset), map counts, blocking and
 * non-blocking maps, data visibility both ways, sub-buffers, overlapping maps
 * for writing, host access flags and every error path. */
#include "harness.h"
#include <stdbool.h>
#include <stdint.h>

static struct test_env env;

#define N 8192

static cl_uint map_count(cl_mem m) {
  cl_uint c = 99;
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof c, &c, NULL));
  return c;
}

static void test_use_host_ptr_zero_copy(void) {
  cl_int err = 1;
  unsigned char *host = malloc(N);
  for (size_t i = 0; i < N; i++)
    host[i] = (unsigned char)i;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, N, host, &err);
  CHECK_OK(err);

  err = 1;
  unsigned char *p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 100,
                                        200, 0, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(p == host + 100);
  CHECK(map_count(m) == 1);
  CHECK(p[0] == 100 && p[199] == (unsigned char)299);
  memset(p, 0xEE, 200);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, p, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  CHECK(map_count(m) == 0);
  unsigned char got[200];
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 100, 200, got, 0, NULL, NULL));
  CHECK(got[0] == 0xEE && got[199] == 0xEE);

  /* sub-buffer of a USE_HOST_PTR buffer maps into the same host memory */
  cl_uint bits = 0;
  clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  size_t align = bits / 8 ? bits / 8 : 1;
  cl_buffer_region r = {align, 2 * align};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_OK(err);
  unsigned char *q = clEnqueueMapBuffer(env.queue, s, CL_TRUE, CL_MAP_READ, 8, 16, 0, NULL,
                                        NULL, &err);
  CHECK_OK(err);
  CHECK(q == host + align + 8);
  CHECK(map_count(s) == 1 && map_count(m) == 0);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, s, q, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  clReleaseMemObject(s);
  clReleaseMemObject(m);
  free(host);
}

static void test_maps(void) {
  cl_int err;
  unsigned char init[N];
  for (size_t i = 0; i < N; i++)
    init[i] = (unsigned char)(i * 7);
  static const cl_mem_flags kinds[] = {0, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  for (size_t k = 0; k < 4; k++) {
    bool has = kinds[k] & CL_MEM_COPY_HOST_PTR;
    cl_mem m = clCreateBuffer(env.context, kinds[k], N, has ? init : NULL, &err);
    if (!has)
      CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, N, init, 0, NULL, NULL));

    /* blocking read map sees the contents */
    unsigned char *p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 0, N, 0, NULL,
                                          NULL, &err);
    CHECK_OK(err);
    CHECK(p && memcmp(p, init, N) == 0);
    /* several read maps of one region at once */
    unsigned char *p2 = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 16, 32, 0, NULL,
                                           NULL, &err);
    CHECK_OK(err);
    CHECK(p2 == p + 16);
    CHECK(map_count(m) == 2);
    CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, p2, 0, NULL, NULL));
    CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, p, 0, NULL, NULL));
    CHECK_OK(clFinish(env.queue));
    CHECK(map_count(m) == 0);

    /* non-blocking write map; writes visible to a later read */
    cl_event ev;
    unsigned char *w = clEnqueueMapBuffer(env.queue, m, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION,
                                          1000, 500, 0, NULL, &ev, &err);
    CHECK_OK(err);
    CHECK_OK(clWaitForEvents(1, &ev));
    cl_command_type type = 0;
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MAP_BUFFER);
    clReleaseEvent(ev);
    memset(w, 0x42, 500);
    CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, w, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(ev);
    unsigned char got[N];
    CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, N, got, 0, NULL, NULL));
    CHECK(memcmp(got, init, 1000) == 0);
    CHECK(got[1000] == 0x42 && got[1499] == 0x42);
    CHECK(memcmp(got + 1500, init + 1500, N - 1500) == 0);

    /* errcode_ret may be NULL */
    void *x = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, NULL);
    CHECK(x != NULL);
    CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, x, 0, NULL, NULL));
    CHECK_OK(clFinish(env.queue));
    clReleaseMemObject(m);
  }
}

static void test_map_waits_for_dependencies(void) {
  cl_int err;
  unsigned char data[64];
  memset(data, 0x77, sizeof data);
  cl_mem m = clCreateBuffer(env.context, 0, sizeof data, NULL, &err);
  cl_event gate = clCreateUserEvent(env.context, &err), wr, mp;
  CHECK_OK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof data, data, 1, &gate, &wr));
  unsigned char *p = clEnqueueMapBuffer(env.queue, m, CL_FALSE, CL_MAP_READ, 0, sizeof data, 1,
                                        &wr, &mp, &err);
  CHECK_OK(err);
  cl_int status = 0;
  CHECK_OK(clGetEventInfo(mp, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(status > CL_COMPLETE);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &mp));
  CHECK(p[0] == 0x77 && p[63] == 0x77);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, p, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  clReleaseEvent(gate);
  clReleaseEvent(wr);
  clReleaseEvent(mp);

  /* a blocking map whose wait list failed returns NULL and maps nothing */
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  gate = clCreateUserEvent(env.context, &err);
  CHECK_OK(clSetUserEventStatus(gate, -3));
  err = 0;
  CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 4, 1, &gate, NULL, &err) == NULL);
  CHECK_ERR(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(map_count(m) == 0);
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
  clReleaseMemObject(m);
}

static void test_write_overlap(void) {
  cl_int err;
  cl_uint bits = 0;
  clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  size_t align = bits / 8 ? bits / 8 : 1;
  cl_mem m = clCreateBuffer(env.context, 0, 8 * align, NULL, &err);
  void *a = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE, 0, 2 * align, 0, NULL, NULL,
                               &err);
  CHECK_OK(err);
  /* another map for writing that overlaps it */
  CHECK(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE, align, align, 0, NULL, NULL,
                           &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 1, 0, NULL,
                           NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  /* ... also through a sub-buffer of the same storage */
  cl_buffer_region r = {align, 2 * align};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(clEnqueueMapBuffer(env.queue, s, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4, 0, NULL,
                           NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(map_count(m) == 1 && map_count(s) == 0);
  /* next to it, or for reading, is fine */
  void *b = clEnqueueMapBuffer(env.queue, s, CL_TRUE, CL_MAP_WRITE, align, align, 0, NULL, NULL,
                               &err);
  CHECK_OK(err);
  void *c = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 0, 8 * align, 0, NULL, NULL,
                               &err);
  CHECK_OK(err);
  /* a pointer must be unmapped through the object that mapped it */
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m, b, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, s, b, 0, NULL, NULL));
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, c, 0, NULL, NULL));
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, a, 0, NULL, NULL));
  /* once unmapped, the region can be mapped for writing again */
  a = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE, align, align, 0, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, a, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));

  /* a buffer released while still mapped is freed cleanly */
  void *leak = clEnqueueMapBuffer(env.queue, s, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
  CHECK(leak != NULL);
  clReleaseMemObject(s);
  clReleaseMemObject(m);
}

static void test_errors(void) {
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, 0, N, NULL, &err);
  void *p;

#define MAP_FAILS(expr, code)                                                  \
  do {                                                                         \
    err = 0;                                                                   \
    p = (expr);                                                                \
    CHECK(p == NULL);                                                          \
    CHECK_ERR(err, code);                                                      \
  } while (0)

  MAP_FAILS(clEnqueueMapBuffer(NULL, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err),
            CL_INVALID_COMMAND_QUEUE);
  MAP_FAILS(clEnqueueMapBuffer((cl_command_queue)m, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL,
                               &err),
            CL_INVALID_COMMAND_QUEUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, NULL, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err),
            CL_INVALID_MEM_OBJECT);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, N - 3, 4, 0, NULL, NULL, &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, N + 1, 1, 0, NULL, NULL, &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, 1 << 7, 0, 4, 0, NULL, NULL, &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE,
                               CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL,
                               &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE,
                               CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL,
                               &err),
            CL_INVALID_VALUE);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 0, 4, 1, NULL, NULL, &err),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = NULL;
  MAP_FAILS(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, &none, NULL, &err),
            CL_INVALID_EVENT_WAIT_LIST);

  /* host access flags */
  static const struct {
    cl_mem_flags flags;
    cl_map_flags map;
    bool ok;
  } access[] = {
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ, false},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE, true},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, true},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ | CL_MAP_WRITE, false},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_READ, true},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE, false},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, false},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_READ, false},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE, false},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE_INVALIDATE_REGION, false},
  };
  for (size_t i = 0; i < sizeof access / sizeof *access; i++) {
    cl_mem h = clCreateBuffer(env.context, access[i].flags, 64, NULL, &err);
    err = 1;
    p = clEnqueueMapBuffer(env.queue, h, CL_TRUE, access[i].map, 0, 64, 0, NULL, NULL, &err);
    if (access[i].ok) {
      CHECK_OK(err);
      CHECK(p != NULL);
      CHECK_OK(clEnqueueUnmapMemObject(env.queue, h, p, 0, NULL, NULL));
    } else {
      CHECK(p == NULL);
      CHECK_ERR(err, CL_INVALID_OPERATION);
    }
    CHECK_OK(clFinish(env.queue));
    clReleaseMemObject(h);
  }

  /* contexts */
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  cl_mem om = clCreateBuffer(other, 0, 64, NULL, &err);
  MAP_FAILS(clEnqueueMapBuffer(env.queue, om, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err),
            CL_INVALID_CONTEXT);
  cl_command_queue oq = clCreateCommandQueueWithProperties(other, env.device, NULL, &err);
  void *op = clEnqueueMapBuffer(oq, om, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, om, op, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_OK(clEnqueueUnmapMemObject(oq, om, op, 0, NULL, NULL));
  CHECK_OK(clFinish(oq));
  clReleaseCommandQueue(oq);
  clReleaseMemObject(om);
  clReleaseContext(other);

  /* unmap */
  p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 64, 64, 0, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clEnqueueUnmapMemObject(NULL, m, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, (cl_mem)env.context, p, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m, (char *)p + 1, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem m2 = clCreateBuffer(env.context, 0, N, NULL, &err);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m2, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK(map_count(m) == 1); /* failed unmaps leave the map in place */
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, m, p, 0, NULL, NULL));
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_OK(clFinish(env.queue));
  clReleaseMemObject(m2);
  clReleaseMemObject(m);
#undef MAP_FAILS
}

int main(void) {
  test_env_init(&env);
  test_use_host_ptr_zero_copy();
  test_maps();
  test_map_waits_for_dependencies();
  test_write_overlap();
  test_errors();
  test_env_release(&env);
  return test_finish("test_map");
}
