/* Contexts: creation (by devices and by type), properties, queries,
 * reference counting, destructor callbacks, and every error path. */
#include "harness.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

static char junk[256]; /* a pointer that is no OpenCL object */
static cl_platform_id the_platform;
static cl_device_id the_device;

static void CL_CALLBACK notify(const char *info, const void *priv, size_t cb, void *user) {
  (void)info, (void)priv, (void)cb, (void)user;
}

static cl_uint ref_count(cl_context ctx) {
  cl_uint n = 0;
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL));
  return n;
}

static void test_create_and_query(void) {
  cl_int err = 1;
  cl_context ctx = clCreateContext(NULL, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(ctx != NULL);
  CHECK(ref_count(ctx) == 1);
  cl_uint n = 0;
  size_t size = 0;
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, &size));
  CHECK(n == 1 && size == sizeof(cl_uint));
  cl_device_id devs[2] = {NULL, NULL};
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &size));
  CHECK(size == sizeof(cl_device_id) && devs[0] == the_device && devs[1] == NULL);
  /* created with NULL properties: nothing to return */
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
  CHECK(size == 0);
  cl_context_properties props[4];
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof props, props, &size));
  CHECK(size == 0);

  /* query errors */
  CHECK_ERR(clGetContextInfo(ctx, 0x1234, sizeof n, &n, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n - 1, &n, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 0, devs, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clGetContextInfo((cl_context)junk, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clGetContextInfo((cl_context)the_device, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL),
            CL_INVALID_CONTEXT);
  CHECK_OK(clReleaseContext(ctx));

  /* errcode_ret may be NULL */
  ctx = clCreateContext(NULL, 1, &the_device, notify, &err, NULL);
  CHECK(ctx != NULL);
  CHECK_OK(clReleaseContext(ctx));

  /* duplicate devices are ignored */
  cl_device_id twice[2] = {the_device, the_device};
  ctx = clCreateContext(NULL, 2, twice, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL));
  CHECK(n == 1);
  CHECK_OK(clReleaseContext(ctx));
}

static void test_properties(void) {
  cl_int err = 1;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)the_platform,
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_context ctx = clCreateContext(props, 1, &the_device, notify, NULL, &err);
  CHECK_OK(err);
  cl_context_properties got[8];
  size_t size = 0;
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
  CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof props - 1, got, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clReleaseContext(ctx));

  cl_context_properties sync_only[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  ctx = clCreateContext(sync_only, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clReleaseContext(ctx));
  cl_context_properties empty[] = {0};
  ctx = clCreateContext(empty, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
  CHECK(size == sizeof(cl_context_properties) && got[0] == 0);
  CHECK_OK(clReleaseContext(ctx));
}

/* Every property error, for both creation functions. */
static void test_property_errors(void) {
  const cl_context_properties p = (cl_context_properties)the_platform;
  const struct {
    cl_context_properties props[7];
    cl_int err;
  } cases[] = {
      {{CL_CONTEXT_PLATFORM, (cl_context_properties)junk, 0}, CL_INVALID_PLATFORM},
      {{CL_CONTEXT_PLATFORM, 0, 0}, CL_INVALID_PLATFORM},
      {{CL_CONTEXT_PLATFORM, (cl_context_properties)the_device, 0}, CL_INVALID_PLATFORM},
      {{0x7777, 1, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_INTEROP_USER_SYNC, 5, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0},
       CL_INVALID_PROPERTY},
      {{CL_CONTEXT_PLATFORM, p, 0x1087 /* CL_CONTEXT_... unknown */, 0, 0}, CL_INVALID_PROPERTY},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cl_int err = 1;
    CHECK(clCreateContext(cases[i].props, 1, &the_device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, cases[i].err);
    err = 1;
    CHECK(clCreateContextFromType(cases[i].props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, cases[i].err);
  }
}

static void test_argument_errors(void) {
  cl_int err = 1;
  int data = 0;
  CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateContext(NULL, 0, &the_device, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateContext(NULL, 1, &the_device, NULL, &data, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  cl_device_id bad[2] = {the_device, (cl_device_id)junk};
  CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE);
  cl_device_id null_dev = NULL;
  CHECK(clCreateContext(NULL, 1, &null_dev, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE);
  cl_device_id platform_as_device = (cl_device_id)the_platform;
  CHECK(clCreateContext(NULL, 1, &platform_as_device, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE);
  CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, NULL) == NULL); /* no crash without errcode */
}

static void test_from_type(void) {
  const cl_device_type ok[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                               CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    cl_int err = 1;
    cl_context ctx = clCreateContextFromType(NULL, ok[i], NULL, NULL, &err);
    CHECK_OK(err);
    cl_device_id d = NULL;
    cl_uint n = 0;
    CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL));
    CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof d, &d, NULL));
    CHECK(n == 1 && d == the_device);
    CHECK_OK(clReleaseContext(ctx));
  }
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)the_platform, 0};
  cl_int err = 1;
  cl_context ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, notify, &err, &err);
  CHECK_OK(err);
  cl_context_properties got[4];
  size_t size = 0;
  CHECK_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size));
  CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
  CHECK_OK(clReleaseContext(ctx));

  CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_DEVICE_NOT_FOUND);
  CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_DEVICE_NOT_FOUND);
  CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CUSTOM, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_DEVICE_NOT_FOUND);
  CHECK(clCreateContextFromType(NULL, 0, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE_TYPE);
  CHECK(clCreateContextFromType(NULL, (cl_device_type)1 << 33, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE_TYPE);
  CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, &err, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
}

/* ---------- reference counting and destructor callbacks ---------- */

struct record {
  int order[8];
  int count;
  cl_context seen;
};

static void CL_CALLBACK destructor_a(cl_context ctx, void *user) {
  struct record *r = user;
  r->seen = ctx;
  r->order[r->count++] = 1;
}
static void CL_CALLBACK destructor_b(cl_context ctx, void *user) {
  (void)ctx;
  struct record *r = user;
  r->order[r->count++] = 2;
}
static void CL_CALLBACK destructor_c(cl_context ctx, void *user) {
  (void)ctx;
  struct record *r = user;
  r->order[r->count++] = 3;
}

static void test_refcount_and_destructors(void) {
  cl_int err;
  struct record rec = {{0}, 0, NULL};
  cl_context ctx = clCreateContext(NULL, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clSetContextDestructorCallback(ctx, destructor_a, &rec));
  CHECK_OK(clSetContextDestructorCallback(ctx, destructor_b, &rec));
  CHECK_OK(clSetContextDestructorCallback(ctx, destructor_c, &rec));
  CHECK_ERR(clSetContextDestructorCallback(ctx, NULL, &rec), CL_INVALID_VALUE);
  CHECK_ERR(clSetContextDestructorCallback(NULL, destructor_a, &rec), CL_INVALID_CONTEXT);
  CHECK_ERR(clSetContextDestructorCallback((cl_context)junk, destructor_a, &rec),
            CL_INVALID_CONTEXT);

  CHECK_OK(clRetainContext(ctx));
  CHECK_OK(clRetainContext(ctx));
  CHECK(ref_count(ctx) == 3);
  CHECK_OK(clReleaseContext(ctx));
  CHECK_OK(clReleaseContext(ctx));
  CHECK(ref_count(ctx) == 1);
  CHECK(rec.count == 0);
  CHECK_OK(clReleaseContext(ctx));
  /* called once each, newest first, with the context being destroyed */
  CHECK(rec.count == 3);
  CHECK(rec.order[0] == 3 && rec.order[1] == 2 && rec.order[2] == 1);
  CHECK(rec.seen == ctx);

  CHECK_ERR(clRetainContext(NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clRetainContext((cl_context)junk), CL_INVALID_CONTEXT);
  CHECK_ERR(clReleaseContext((cl_context)the_device), CL_INVALID_CONTEXT);
}

/* Objects created in a context keep it alive after the application's last
 * release: its destructors run only when the last of them goes. */
static void test_internal_references(void) {
  cl_int err;
  struct record rec = {{0}, 0, NULL};
  cl_context ctx = clCreateContext(NULL, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clSetContextDestructorCallback(ctx, destructor_a, &rec));
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clReleaseContext(ctx));
  CHECK(rec.count == 0);
  cl_context owner = NULL;
  CHECK_OK(clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof owner, &owner, NULL));
  CHECK(owner == ctx);
  CHECK_OK(clReleaseMemObject(buf));
  CHECK(rec.count == 1 && rec.seen == ctx);
}

#define THREADS 4
#define ROUNDS 10000

static void *retain_release_loop(void *arg) {
  cl_context ctx = arg;
  for (int i = 0; i < ROUNDS; i++) {
    clRetainContext(ctx);
    clReleaseContext(ctx);
  }
  return NULL;
}

static void test_concurrent_refcount(void) {
  cl_int err;
  struct record rec = {{0}, 0, NULL};
  cl_context ctx = clCreateContext(NULL, 1, &the_device, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clSetContextDestructorCallback(ctx, destructor_a, &rec));
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, retain_release_loop, ctx);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  CHECK(ref_count(ctx) == 1);
  CHECK(rec.count == 0);
  CHECK_OK(clReleaseContext(ctx));
  CHECK(rec.count == 1);
}

int main(void) {
  if (clGetPlatformIDs(1, &the_platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(the_platform, CL_DEVICE_TYPE_ALL, 1, &the_device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no LoomCL device\n");
    return 1;
  }
  test_create_and_query();
  test_properties();
  test_property_errors();
  test_argument_errors();
  test_from_type();
  test_refcount_and_destructors();
  test_internal_references();
  test_concurrent_refcount();
  return test_finish("test_context");
}
