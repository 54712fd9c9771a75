/* Sub-buffers: creation, flag inheritance and conflicts, queries, aliasing
 * with the parent, copies between sub-buffers of one parent, lifetime, and
 * every error path of clCreateSubBuffer. */
#include "harness.h"
#include <stdbool.h>
#include <stdint.h>

static struct test_env env;
static size_t align; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */

#define PARENT_SIZE (64 * 1024)

static cl_mem sub(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                  cl_int *err) {
  cl_buffer_region r = {origin, size};
  return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, err);
}

static cl_mem_flags flags_of(cl_mem m) {
  cl_mem_flags f = 0;
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, NULL));
  return f;
}

static void test_info_and_aliasing(void) {
  cl_int err;
  unsigned char *host = malloc(PARENT_SIZE), *got = malloc(PARENT_SIZE);
  for (size_t i = 0; i < PARENT_SIZE; i++)
    host[i] = (unsigned char)(i ^ (i >> 7));
  cl_mem parent = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE,
                                 PARENT_SIZE, host, &err);
  CHECK_OK(err);
  size_t origin = 2 * align, size = 3 * align + 5;
  cl_mem s = sub(parent, 0, origin, size, &err);
  CHECK_OK(err);

  cl_mem assoc = NULL;
  size_t off = 0, sz = 0;
  void *hp = NULL;
  cl_context ctx = NULL;
  cl_mem_object_type type = 0;
  cl_uint refs = 0;
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(assoc == parent);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL));
  CHECK(off == origin);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof sz, &sz, NULL));
  CHECK(sz == size);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  CHECK(hp == host + origin);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL));
  CHECK(ctx == env.context);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_MEM_OBJECT_BUFFER);
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  /* the sub-buffer's internal reference does not show in the parent's count */
  CHECK_OK(clGetMemObjectInfo(parent, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  CHECK(flags_of(s) == (CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE));

  /* initial contents are the parent's */
  CHECK_OK(clEnqueueReadBuffer(env.queue, s, CL_TRUE, 0, size, got, 0, NULL, NULL));
  CHECK(memcmp(got, host + origin, size) == 0);

  /* write through the parent, read through the sub-buffer */
  unsigned char patch[64];
  memset(patch, 0xC3, sizeof patch);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, parent, CL_TRUE, origin + 10, sizeof patch, patch,
                                0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, s, CL_TRUE, 10, sizeof patch, got, 0, NULL, NULL));
  CHECK(memcmp(got, patch, sizeof patch) == 0);

  /* write through the sub-buffer, read through the parent */
  memset(patch, 0x3C, sizeof patch);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, s, CL_TRUE, size - sizeof patch, sizeof patch,
                                patch, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, parent, CL_TRUE, 0, PARENT_SIZE, got, 0, NULL, NULL));
  CHECK(memcmp(got + origin + size - sizeof patch, patch, sizeof patch) == 0);
  CHECK(memcmp(got, host, PARENT_SIZE) == 0); /* zero copy into host memory */

  /* fill through the sub-buffer stays inside it */
  cl_uint pat = 0xA1B2C3D4u;
  memcpy(got, host, PARENT_SIZE);
  CHECK_OK(clEnqueueFillBuffer(env.queue, s, &pat, 4, 0, size & ~(size_t)3, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  for (size_t i = 0; i < (size & ~(size_t)3); i += 4)
    memcpy(got + origin + i, &pat, 4);
  CHECK(memcmp(got, host, PARENT_SIZE) == 0);

  /* read-only sub-buffer of a read-write parent, host flags narrowed */
  cl_mem ro = sub(parent, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 0, align, &err);
  CHECK_OK(err);
  CHECK(flags_of(ro) == (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_USE_HOST_PTR));
  CHECK_ERR(clEnqueueWriteBuffer(env.queue, ro, CL_TRUE, 0, 4, patch, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  CHECK_OK(clEnqueueReadBuffer(env.queue, ro, CL_TRUE, 0, 4, got, 0, NULL, NULL));
  CHECK(memcmp(got, host, 4) == 0);

  clReleaseMemObject(ro);
  clReleaseMemObject(s);
  clReleaseMemObject(parent);
  free(host);
  free(got);
}

static void test_flag_inheritance(void) {
  cl_int err;
  cl_mem p = clCreateBuffer(env.context,
                            CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_WRITE_ONLY,
                            4 * align, NULL, &err);
  cl_mem s = sub(p, 0, align, align, &err);
  CHECK_OK(err);
  CHECK(flags_of(s) == (CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_WRITE_ONLY));
  void *hp = (void *)1;
  CHECK_OK(clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  CHECK(hp == NULL);
  clReleaseMemObject(s);
  s = sub(p, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, 0, align, &err);
  CHECK_OK(err);
  CHECK(flags_of(s) == (CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_NO_ACCESS));
  clReleaseMemObject(s);

  /* conflicts with the parent */
  static const cl_mem_flags bad_for_wo[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY,
                                            CL_MEM_HOST_READ_ONLY};
  for (size_t i = 0; i < 3; i++) {
    CHECK(sub(p, bad_for_wo[i], 0, align, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  clReleaseMemObject(p);

  p = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 4 * align, NULL,
                     &err);
  static const cl_mem_flags bad_for_ro[] = {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY,
                                            CL_MEM_HOST_WRITE_ONLY};
  for (size_t i = 0; i < 3; i++) {
    CHECK(sub(p, bad_for_ro[i], 0, align, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  s = sub(p, CL_MEM_HOST_NO_ACCESS, 0, align, &err);
  CHECK_OK(err);
  CHECK(flags_of(s) == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  clReleaseMemObject(s);
  clReleaseMemObject(p);

  p = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, 4 * align, NULL, &err);
  static const cl_mem_flags bad_for_hna[] = {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY};
  for (size_t i = 0; i < 2; i++) {
    CHECK(sub(p, bad_for_hna[i], 0, align, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  /* a READ_WRITE parent (flags 0) accepts any access flag */
  clReleaseMemObject(p);
  p = clCreateBuffer(env.context, 0, 4 * align, NULL, &err);
  s = sub(p, CL_MEM_WRITE_ONLY, 0, align, &err);
  CHECK_OK(err);
  CHECK(flags_of(s) == CL_MEM_WRITE_ONLY);
  clReleaseMemObject(s);
  s = sub(p, 0, 0, align, &err);
  CHECK(flags_of(s) == 0);
  clReleaseMemObject(s);
  clReleaseMemObject(p);
}

static void test_create_errors(void) {
  cl_int err;
  cl_mem p = clCreateBuffer(env.context, 0, 4 * align, NULL, &err);
  cl_buffer_region r = {0, align};

  CHECK(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
  CHECK(clCreateSubBuffer((cl_mem)env.context, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
        NULL);
  CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
  cl_mem s = sub(p, 0, 0, 2 * align, &err);
  CHECK_OK(err);
  CHECK(sub(s, 0, 0, align, &err) == NULL); /* a sub-buffer of a sub-buffer */
  CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(s);

  static const cl_mem_flags bad[] = {CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                     CL_MEM_COPY_HOST_PTR, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                     CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
                                     (cl_mem_flags)1 << 33};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    CHECK(sub(p, bad[i], 0, align, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  CHECK(clCreateSubBuffer(p, 0, 0x5555, &r, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(sub(p, 0, 0, 0, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK(sub(p, 0, align, 3 * align + 1, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(sub(p, 0, 5 * align, 1, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(sub(p, 0, align, SIZE_MAX, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  if (align > 1) {
    CHECK(sub(p, 0, align / 2, 1, &err) == NULL);
    CHECK_ERR(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  }
  /* the whole parent, and one ending exactly at its end */
  s = sub(p, 0, 0, 4 * align, &err);
  CHECK_OK(err);
  clReleaseMemObject(s);
  s = sub(p, 0, 3 * align, align, NULL);
  CHECK(s != NULL);
  clReleaseMemObject(s);
  clReleaseMemObject(p);
}

static void test_copies_between_siblings(void) {
  cl_int err;
  size_t size = 8 * align;
  unsigned char *init = malloc(size), *got = malloc(size), *ref = malloc(size);
  for (size_t i = 0; i < size; i++)
    init[i] = (unsigned char)(i * 13 + 1);
  cl_mem p = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, size, init, &err);
  cl_mem a = sub(p, 0, 0, 4 * align, &err);
  cl_mem b = sub(p, 0, 2 * align, 4 * align, &err); /* overlaps a's upper half */
  cl_mem c = sub(p, 0, 6 * align, 2 * align, &err);
  CHECK_OK(err);

  /* a[0, align) -> c[0, align): disjoint storage */
  CHECK_OK(clEnqueueCopyBuffer(env.queue, a, c, 0, 0, align, 0, NULL, NULL));
  memcpy(ref, init, size);
  memcpy(ref + 6 * align, ref, align);
  /* a[0, align) -> b[align, 2 align) is parent [3a,4a): no overlap with [0,a) */
  CHECK_OK(clEnqueueCopyBuffer(env.queue, a, b, 0, align, align, 0, NULL, NULL));
  memcpy(ref + 3 * align, ref, align);
  CHECK_OK(clEnqueueReadBuffer(env.queue, p, CL_TRUE, 0, size, got, 0, NULL, NULL));
  CHECK(memcmp(got, ref, size) == 0);

  /* a[2a, 3a) and b[0, a) are the same parent bytes */
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, a, b, 2 * align, 0, align, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, b, a, 0, 2 * align + 1, 4, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  /* a parent and its own sub-buffer share storage too */
  CHECK_ERR(clEnqueueCopyBuffer(env.queue, p, c, 6 * align + 8, 0, 16, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, p, c, 0, 0, 16, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));

  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseMemObject(p);
  free(init);
  free(got);
  free(ref);
}

static int freed[4];
static int nfreed;
static void CL_CALLBACK on_free(cl_mem m, void *data) {
  (void)m;
  freed[nfreed++] = (int)(intptr_t)data;
}

static void test_lifetime(void) {
  cl_int err;
  nfreed = 0;
  cl_mem p = clCreateBuffer(env.context, 0, 4 * align, NULL, &err);
  cl_mem s = sub(p, 0, align, align, &err);
  CHECK_OK(clSetMemObjectDestructorCallback(p, on_free, (void *)1));
  CHECK_OK(clSetMemObjectDestructorCallback(s, on_free, (void *)2));
  /* the parent lives on while a sub-buffer exists */
  CHECK_OK(clReleaseMemObject(p));
  CHECK(nfreed == 0);
  unsigned char v[4] = {1, 2, 3, 4}, got[4] = {0};
  CHECK_OK(clEnqueueWriteBuffer(env.queue, s, CL_TRUE, 0, 4, v, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, s, CL_TRUE, 0, 4, got, 0, NULL, NULL));
  CHECK(memcmp(v, got, 4) == 0);
  CHECK_OK(clReleaseMemObject(s));
  CHECK(nfreed == 2 && freed[0] == 2 && freed[1] == 1);
}

static void test_misaligned_enqueue(void) {
  /* Creation already requires alignment for a device of the context, and the
   * context has one device, so a misaligned sub-buffer cannot reach an
   * enqueue here; an aligned one must pass that check. */
  cl_int err;
  cl_mem p = clCreateBuffer(env.context, 0, 4 * align, NULL, &err);
  cl_mem s = sub(p, 0, align, align, &err);
  unsigned char b[16];
  CHECK_OK(clEnqueueReadBuffer(env.queue, s, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
  clReleaseMemObject(s);
  clReleaseMemObject(p);
}

int main(void) {
  test_env_init(&env);
  cl_uint bits = 0;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL));
  align = bits / 8;
  CHECK(align >= 1);
  if (align < 1)
    align = 1;
  test_info_and_aliasing();
  test_flag_inheritance();
  test_create_errors();
  test_copies_between_siblings();
  test_lifetime();
  test_misaligned_enqueue();
  test_env_release(&env);
  return test_finish("test_subbuffers");
}
