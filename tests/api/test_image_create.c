/* Image objects through the API, their creation: every image type created
 * each way (own storage, CL_MEM_COPY_HOST_PTR / CL_MEM_USE_HOST_PTR /
 * CL_MEM_ALLOC_HOST_PTR with padded pitches, 1D image buffers, 2D images from
 * buffers, images from images), the queries, round trips through reads,
 * writes and maps checked byte-exactly against a host model, the deprecated
 * clCreateImage2D/3D, the supported format list, and the errors of
 * clCreateImage and clGetImageInfo. Copies, fills, maps and transfer errors
 * are in test_image_commands.c, samplers in test_sampler_api.c. */
#include "harness.h"
#include "image_api_util.h"

static struct test_env env;
static cl_context other_ctx; /* for another context's buffer */
static char junk[256]; /* a pointer that is no OpenCL object */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* ---------- creation of every type each way, info, round trips ---------- */

enum mode { PLAIN, COPY, USE, ALLOC, ALLOC_COPY, NUM_MODES };

static void test_type_mode(cl_mem_object_type type, enum mode mode, cl_image_format fmt,
                           size_t ps) {
  cl_image_desc d = make_desc(type, 13, 7, 5, 4);
  bool has_slices = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    type == CL_MEM_OBJECT_IMAGE3D;
  bool has_height = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    type == CL_MEM_OBJECT_IMAGE3D;
  size_t layers = type == CL_MEM_OBJECT_IMAGE3D ? d.image_depth
                  : (type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
                      ? d.image_array_size
                      : 1;
  size_t height = has_height ? d.image_height : 1;
  bool host = mode == COPY || mode == USE || mode == ALLOC_COPY;
  /* padded pitches with a host pointer; tight ones otherwise */
  size_t row = host ? d.image_width * ps + 3 * ps : d.image_width * ps;
  size_t slice = 0;
  if (has_slices)
    slice = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? (host ? row * 2 : row)
                                                 : (host ? row * (height + 1) : row * height);
  size_t host_bytes = has_slices ? slice * layers : row * height;
  unsigned char *hp = NULL;
  cl_mem_flags flags = 0;
  if (host) {
    d.image_row_pitch = row;
    d.image_slice_pitch = slice;
    hp = malloc(host_bytes);
    fill_random(&rng, hp, host_bytes);
  }
  switch (mode) {
  case COPY: flags = CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY; break;
  case USE: flags = CL_MEM_USE_HOST_PTR; break;
  case ALLOC: flags = CL_MEM_ALLOC_HOST_PTR | CL_MEM_WRITE_ONLY; break;
  case ALLOC_COPY: flags = CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_KERNEL_READ_AND_WRITE; break;
  default: flags = CL_MEM_READ_WRITE; break;
  }
  cl_int err = 1;
  cl_mem img = clCreateImage(env.context, flags, &fmt, &d, hp, &err);
  CHECK_OK(err);
  if (!img) {
    fprintf(stderr, "  type 0x%x mode %d\n", type, mode);
    free(hp);
    return;
  }
  struct model m;
  model_init(&m, &d, ps);
  if (host) {
    size_t ys = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    const size_t org[3] = {0, 0, 0};
    model_put(&m, org, m.ext, hp, ys, slice);
    CHECK(image_matches(env.queue, img, &m));
  } else { /* contents undefined: give it some */
    fill_random(&rng, m.px, model_bytes(&m));
    const size_t org[3] = {0, 0, 0};
    CHECK_OK(clEnqueueWriteImage(env.queue, img, CL_TRUE, org, m.ext, 0, 0, m.px, 0, NULL,
                                 NULL));
  }

  /* the queries */
  cl_image_format f = {0, 0};
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
  CHECK(f.image_channel_order == fmt.image_channel_order &&
        f.image_channel_data_type == fmt.image_channel_data_type);
  CHECK(info_size(img, CL_IMAGE_ELEMENT_SIZE) == ps);
  CHECK(info_size(img, CL_IMAGE_ROW_PITCH) == row);
  CHECK(info_size(img, CL_IMAGE_SLICE_PITCH) == slice);
  CHECK(info_size(img, CL_IMAGE_WIDTH) == d.image_width);
  CHECK(info_size(img, CL_IMAGE_HEIGHT) == (has_height ? d.image_height : 0));
  CHECK(info_size(img, CL_IMAGE_DEPTH) == (type == CL_MEM_OBJECT_IMAGE3D ? d.image_depth : 0));
  CHECK(info_size(img, CL_IMAGE_ARRAY_SIZE) ==
        ((type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
             ? d.image_array_size
             : 0));
  cl_mem buf = (cl_mem)junk;
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof buf, &buf, NULL));
  CHECK(buf == NULL);
  cl_uint u = 7;
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL));
  CHECK(u == 0);
  u = 7;
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_NUM_SAMPLES, sizeof u, &u, NULL));
  CHECK(u == 0);
  size_t sz = 0;
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_WIDTH, 0, NULL, &sz));
  CHECK(sz == sizeof(size_t));
  cl_mem_object_type mt = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof mt, &mt, NULL));
  CHECK(mt == type);
  cl_mem_flags mf = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof mf, &mf, NULL));
  CHECK(mf == flags);
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof sz, &sz, NULL));
  CHECK(sz >= (has_slices ? slice * layers : row * height));
  void *p = junk;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_HOST_PTR, sizeof p, &p, NULL));
  CHECK(p == (mode == USE ? (void *)hp : NULL));
  cl_mem assoc = (cl_mem)junk;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(assoc == NULL);
  cl_context c = NULL;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_CONTEXT, sizeof c, &c, NULL));
  CHECK(c == env.context);
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_OFFSET, sizeof sz, &sz, NULL));
  CHECK(sz == 0);

  for (int i = 0; i < 3; i++)
    random_write_read(env.queue, &rng, img, &m);
  map_write(env.queue, &rng, img, &m, mode == USE ? hp : NULL, row, slice);

  if (mode == USE) { /* zero copy: the application's memory is the image */
    CHECK_OK(clFinish(env.queue));
    unsigned char *want = malloc(host_bytes);
    memcpy(want, hp, host_bytes);
    size_t ys = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    const size_t org[3] = {0, 0, 0};
    model_get(&m, org, m.ext, want, ys, slice);
    CHECK(memcmp(want, hp, host_bytes) == 0);
    free(want);
  }
  CHECK_OK(clReleaseMemObject(img));
  free(m.px);
  free(hp);
}

static void test_create_and_transfer(void) {
  const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                      CL_MEM_OBJECT_IMAGE3D};
  const struct {
    cl_image_format f;
    size_t ps;
  } formats[] = {
      {{CL_RGBA, CL_UNORM_INT8}, 4},   {{CL_RG, CL_UNSIGNED_INT16}, 4},
      {{CL_RGBA, CL_FLOAT}, 16},       {{CL_R, CL_SIGNED_INT8}, 1},
      {{CL_RGB, CL_UNORM_SHORT_565}, 2}, {{CL_RGBA, CL_HALF_FLOAT}, 8},
  };
  size_t k = 0;
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (int mode = 0; mode < NUM_MODES; mode++, k++)
      test_type_mode(types[t], (enum mode)mode, formats[k % 6].f, formats[k % 6].ps);
}

/* the deprecated entry points */
static void test_legacy_create(void) {
  cl_int err = 1;
  unsigned char host[8 * 6 * 4 * 3];
  fill_random(&rng, host, sizeof host);
  cl_mem a = clCreateImage2D(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, 8, 6, 0, host, &err);
  CHECK_OK(err);
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 8, 6, 0, 0);
  struct model m;
  model_init(&m, &d, 4);
  memcpy(m.px, host, 8 * 6 * 4);
  CHECK(image_matches(env.queue, a, &m));
  cl_mem_object_type t = 0;
  CHECK_OK(clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_MEM_OBJECT_IMAGE2D);
  clReleaseMemObject(a);
  free(m.px);

  cl_mem b = clCreateImage3D(env.context, CL_MEM_USE_HOST_PTR, &rgba8, 4, 6, 3, 16, 96, host,
                             &err);
  CHECK_OK(err);
  d = make_desc(CL_MEM_OBJECT_IMAGE3D, 4, 6, 3, 0);
  model_init(&m, &d, 4);
  const size_t org[3] = {0, 0, 0};
  model_put(&m, org, m.ext, host, 16, 96);
  CHECK(image_matches(env.queue, b, &m));
  CHECK(info_size(b, CL_IMAGE_SLICE_PITCH) == 96);
  clReleaseMemObject(b);
  free(m.px);

  err = 1;
  CHECK(clCreateImage2D(env.context, 0, &rgba8, 0, 6, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D(env.context, 0, &rgba8, 8, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage3D(env.context, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  /* OpenCL 1.1: a row pitch against its rules is CL_INVALID_IMAGE_SIZE */
  CHECK(clCreateImage2D(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, 8, 6, 30, host, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D(env.context, 0, &rgba8, 8, 6, 32, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage3D(env.context, CL_MEM_USE_HOST_PTR, &rgba8, 4, 6, 3, 16, 80, host, &err) ==
        NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D((cl_context)junk, 0, &rgba8, 8, 6, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImage3D(NULL, 0, &rgba8, 4, 4, 4, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImage2D(env.context, 0, NULL, 8, 6, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_mem c = clCreateImage2D(env.context, 0, &rgba8, 8, 6, 0, NULL, NULL);
  CHECK(c != NULL);
  clReleaseMemObject(c);
}

/* ---------- images sharing storage: 1D image buffers, 2D images from
 * buffers, images from images ---------- */

static void CL_CALLBACK count_destructor(cl_mem m, void *user) {
  (void)m;
  int *order = user;
  order[0]++;
  order[order[0]] = order[8]++; /* records the sequence number of each call */
}

static void test_image1d_buffer(void) {
  cl_int err;
  const size_t w = 37, ps = 8; /* CL_RGBA, CL_UNSIGNED_INT16 */
  cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
                              w * ps + 24, NULL, &err);
  CHECK_OK(err);
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, w, 0, 0, 0);
  d.buffer = buf;
  cl_mem img = clCreateImage(env.context, 0, &fmt, &d, NULL, &err);
  CHECK_OK(err);
  if (!img) {
    clReleaseMemObject(buf);
    return;
  }
  cl_mem got = NULL;
  CHECK_OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof got, &got, NULL));
  CHECK(got == buf);
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL));
  CHECK(got == buf);
  cl_mem_flags f = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof f, &f, NULL));
  CHECK(f == (CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)); /* inherited */
  CHECK(info_size(img, CL_IMAGE_ROW_PITCH) == w * ps);
  CHECK(info_size(img, CL_IMAGE_SLICE_PITCH) == 0);
  CHECK(info_size(img, CL_IMAGE_HEIGHT) == 0);
  cl_mem_object_type t = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_MEM_OBJECT_IMAGE1D_BUFFER);

  /* one storage: what the buffer holds, the image shows, and back */
  unsigned char data[37 * 8], back[37 * 8];
  fill_random(&rng, data, sizeof data);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
  /* host write only (inherited): reads are refused, writes are not */
  const size_t org[3] = {0, 0, 0}, reg[3] = {w, 1, 1};
  CHECK_ERR(clEnqueueReadImage(env.queue, img, CL_TRUE, org, reg, 0, 0, back, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  cl_mem other = clCreateBuffer(env.context, 0, sizeof data, NULL, &err);
  CHECK_OK(clEnqueueCopyImageToBuffer(env.queue, img, other, org, reg, 0, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, other, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  CHECK(memcmp(back, data, sizeof data) == 0);
  const size_t o2[3] = {5, 0, 0}, r2[3] = {9, 1, 1};
  unsigned char part[9 * 8];
  fill_random(&rng, part, sizeof part);
  CHECK_OK(clEnqueueWriteImage(env.queue, img, CL_TRUE, o2, r2, 0, 0, part, 0, NULL, NULL));
  memcpy(data + 5 * ps, part, sizeof part);
  CHECK_OK(clEnqueueCopyBuffer(env.queue, buf, other, 0, 0, sizeof data, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, other, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  CHECK(memcmp(back, data, sizeof data) == 0);
  /* CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created
   * from dst_buffer (and the other way round) */
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, img, buf, org, reg, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, buf, img, 0, org, reg, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  /* 1D rules: region[1] must be 1, origin[1] 0 */
  const size_t bad_reg[3] = {w, 2, 1}, bad_org[3] = {0, 1, 0};
  CHECK_ERR(clEnqueueWriteImage(env.queue, img, CL_TRUE, org, bad_reg, 0, 0, data, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteImage(env.queue, img, CL_TRUE, bad_org, reg, 0, 0, data, 0, NULL, NULL),
            CL_INVALID_VALUE);

  /* the buffer lives until the image is gone: callbacks run image first */
  int order[10] = {0};
  CHECK_OK(clSetMemObjectDestructorCallback(buf, count_destructor, order));
  CHECK_OK(clSetMemObjectDestructorCallback(img, count_destructor, order));
  CHECK_OK(clReleaseMemObject(buf));
  CHECK(order[0] == 0); /* the image holds it */
  CHECK_OK(clReleaseMemObject(img));
  CHECK(order[0] == 2);
  clReleaseMemObject(other);

  /* errors particular to 1D image buffers */
  buf = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, 64, NULL, &err);
  d = make_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 9, 0, 0, 0); /* 72 bytes */
  d.buffer = buf;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  d.image_width = 8;
  CHECK(clCreateImage(env.context, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE); /* WRITE_ONLY buffer, READ_ONLY image */
  CHECK(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &fmt, &d, data, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateImage(env.context, 0, &fmt, &d, data, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_HOST_PTR);
  d.buffer = NULL;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  d.buffer = (cl_mem)junk;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  d.buffer = buf;
  d.image_row_pitch = 8 * ps + 4; /* not a multiple of the element size */
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 4 * ps; /* less than the width in bytes */
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 8 * ps; /* one row: any pitch of at least its width (the CTS passes one) */
  cl_mem one_row = clCreateImage(env.context, 0, &fmt, &d, NULL, &err);
  CHECK_OK(err);
  if (one_row)
    clReleaseMemObject(one_row);
  d.image_row_pitch = 0;
  /* a 1D image (not buffer) may not name a buffer */
  cl_image_desc d1 = make_desc(CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0);
  d1.buffer = buf;
  CHECK(clCreateImage(env.context, 0, &fmt, &d1, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  /* from a sub-buffer */
  cl_mem big = clCreateBuffer(env.context, 0, 4096, NULL, &err);
  cl_buffer_region br = {1024, 512};
  cl_mem sub = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &br, &err);
  CHECK_OK(err);
  d = make_desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  d.buffer = sub;
  cl_image_format r8 = {CL_R, CL_UNSIGNED_INT8};
  img = clCreateImage(env.context, 0, &r8, &d, NULL, &err);
  CHECK_OK(err);
  unsigned char bytes[64];
  fill_random(&rng, bytes, sizeof bytes);
  const size_t r64[3] = {64, 1, 1};
  CHECK_OK(clEnqueueWriteImage(env.queue, img, CL_TRUE, org, r64, 0, 0, bytes, 0, NULL, NULL));
  unsigned char all[4096];
  CHECK_OK(clEnqueueReadBuffer(env.queue, big, CL_TRUE, 0, sizeof all, all, 0, NULL, NULL));
  CHECK(memcmp(all + 1024, bytes, 64) == 0);
  /* a write map of the image and one of the parent buffer over the same
   * bytes conflict */
  size_t rp;
  cl_int e2;
  void *mp = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_WRITE, org, r64, &rp, NULL, 0,
                               NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(clEnqueueMapBuffer(env.queue, big, CL_TRUE, CL_MAP_WRITE, 1000, 100, 0, NULL, NULL,
                           &e2) == NULL);
  CHECK_ERR(e2, CL_INVALID_OPERATION);
  void *bp = clEnqueueMapBuffer(env.queue, big, CL_TRUE, CL_MAP_WRITE, 0, 1024, 0, NULL, NULL, &e2);
  CHECK_OK(e2);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, big, bp, 0, NULL, NULL));
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, big, mp, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, mp, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  clReleaseMemObject(img);
  clReleaseMemObject(sub);
  clReleaseMemObject(big);
  clReleaseMemObject(buf);
}

static void test_image2d_from_buffer(void) {
  cl_int err;
  const size_t w = 11, h = 6, ps = 4;
  cl_image_format fmt = {CL_RGBA, CL_SIGNED_INT8};
  cl_uint pitch_align = device_uint(env.device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  cl_uint base_align = device_uint(env.device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  if (!pitch_align)
    pitch_align = 1;
  size_t unit = pitch_align * ps;
  size_t row = (w * ps + unit - 1) / unit * unit + unit; /* aligned, padded */
  cl_mem buf = clCreateBuffer(env.context, 0, row * h, NULL, &err);
  unsigned char data[2048];
  fill_random(&rng, data, sizeof data);
  CHECK_OK(clEnqueueWriteBuffer(env.queue, buf, CL_TRUE, 0, row * h, data, 0, NULL, NULL));
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0);
  d.mem_object = buf;
  d.image_row_pitch = row;
  cl_mem img = clCreateImage(env.context, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err);
  CHECK_OK(err);
  if (!img) {
    clReleaseMemObject(buf);
    return;
  }
  CHECK(info_size(img, CL_IMAGE_ROW_PITCH) == row);
  cl_mem got = NULL;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL));
  CHECK(got == buf);
  struct model m;
  model_init(&m, &d, ps);
  const size_t org[3] = {0, 0, 0};
  model_put(&m, org, m.ext, data, row, 0);
  CHECK(image_matches(env.queue, img, &m));
  random_write_read(env.queue, &rng, img, &m);
  /* the buffer sees the image's writes at the image's pitch */
  unsigned char back[2048];
  CHECK_OK(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, row * h, back, 0, NULL, NULL));
  unsigned char *want = malloc(row * h);
  memcpy(want, back, row * h);
  model_get(&m, org, m.ext, want, row, 0);
  CHECK(memcmp(want, back, row * h) == 0);
  free(want);
  map_write(env.queue, &rng, img, &m, NULL, row, 0);
  clReleaseMemObject(img);
  free(m.px);

  /* row pitch 0: computed as width x element size */
  d.image_row_pitch = 0;
  img = clCreateImage(env.context, 0, &fmt, &d, NULL, &err);
  CHECK_OK(err);
  CHECK(info_size(img, CL_IMAGE_ROW_PITCH) == w * ps);
  clReleaseMemObject(img);

  /* the buffer must hold row_pitch x height bytes */
  d.image_row_pitch = row;
  d.image_height = h + 1;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_SIZE);
  d.image_height = h;
  /* a row pitch that is not a multiple of the element size */
  d.image_row_pitch = row + 1;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  if (pitch_align > 1) { /* a multiple of the element size but not of the alignment */
    d.image_row_pitch = row + ps;
    CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  if (base_align > 1) { /* a buffer whose storage is misaligned */
    unsigned char *mem = aligned_alloc(4096, 8192);
    cl_mem ub = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4096, mem + ps, &err);
    CHECK_OK(err);
    cl_image_desc d2 = make_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
    d2.mem_object = ub;
    CHECK(clCreateImage(env.context, 0, &fmt, &d2, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    clReleaseMemObject(ub);
    ub = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4096, mem, &err);
    d2.mem_object = ub;
    img = clCreateImage(env.context, 0, &fmt, &d2, NULL, &err);
    CHECK_OK(err);
    void *hp = NULL;
    CHECK_OK(clGetMemObjectInfo(img, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == mem); /* inherits CL_MEM_USE_HOST_PTR */
    clReleaseMemObject(img);
    clReleaseMemObject(ub);
    free(mem);
  } else {
    printf("note: CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT is %u: misaligned buffer not tested\n",
           base_align);
  }
  /* mem_object may only be a buffer for 1D image buffers and 2D images */
  cl_image_desc d3 = make_desc(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 0);
  d3.mem_object = buf;
  CHECK(clCreateImage(env.context, 0, &fmt, &d3, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  /* another context's buffer */
  cl_mem ob = clCreateBuffer(other_ctx, 0, 4096, NULL, &err);
  d.mem_object = ob;
  d.image_row_pitch = 0;
  CHECK(clCreateImage(env.context, 0, &fmt, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(ob);
  clReleaseMemObject(buf);
}

static void test_image_from_image(void) {
  cl_int err;
  /* an sRGBA view of an RGBA image: same pixels */
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 9, 5, 0, 0);
  cl_mem base = clCreateImage(env.context, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err);
  CHECK_OK(err);
  struct model m;
  model_init(&m, &d, 4);
  fill_random(&rng, m.px, model_bytes(&m));
  const size_t org[3] = {0, 0, 0};
  CHECK_OK(clEnqueueWriteImage(env.queue, base, CL_TRUE, org, m.ext, 0, 0, m.px, 0, NULL, NULL));
  cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
  d.mem_object = base;
  /* inheriting CL_MEM_READ_WRITE: kernels may write sRGB (cl_khr_srgb_image_writes) */
  cl_mem rw_view = clCreateImage(env.context, 0, &srgba, &d, NULL, &err);
  CHECK_OK(err);
  if (rw_view)
    clReleaseMemObject(rw_view);
  cl_mem view = clCreateImage(env.context, CL_MEM_READ_ONLY, &srgba, &d, NULL, &err);
  CHECK_OK(err);
  if (view) {
    CHECK(image_matches(env.queue, view, &m));
    cl_mem got = NULL;
    CHECK_OK(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL));
    CHECK(got == base);
    CHECK_OK(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof got, &got, NULL));
    CHECK(got == NULL);
    cl_image_format f;
    CHECK_OK(clGetImageInfo(view, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
    CHECK(f.image_channel_order == CL_sRGBA);
    random_write_read(env.queue, &rng, view, &m); /* writes through the view ... */
    CHECK(image_matches(env.queue, base, &m)); /* ... are the base image's */
    /* copies need equal formats: RGBA and sRGBA are not */
    const size_t r1[3] = {1, 1, 1}, o1[3] = {1, 0, 0};
    CHECK_ERR(clEnqueueCopyImage(env.queue, base, view, org, o1, r1, 0, NULL, NULL),
              CL_IMAGE_FORMAT_MISMATCH);
    clReleaseMemObject(view);
  }
  /* descriptor values must match mem_object's */
  d.image_width = 8;
  CHECK(clCreateImage(env.context, CL_MEM_READ_ONLY, &srgba, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_width = 9;
  d.image_row_pitch = 9 * 4 + 4;
  CHECK(clCreateImage(env.context, CL_MEM_READ_ONLY, &srgba, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_row_pitch = 9 * 4; /* its own pitch is fine */
  view = clCreateImage(env.context, CL_MEM_READ_ONLY, &srgba, &d, NULL, &err);
  CHECK_OK(err);
  clReleaseMemObject(view);
  d.image_row_pitch = 0;
  /* the data type must match, and the order be one of the spec's pairs */
  cl_image_format bad = {CL_sRGBA, CL_UNORM_INT16};
  CHECK(clCreateImage(env.context, CL_MEM_READ_ONLY, &bad, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format bgra = {CL_BGRA, CL_UNORM_INT8};
  CHECK(clCreateImage(env.context, 0, &bgra, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* host pointer flags are inherited, never given */
  CHECK(clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, m.px, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  clReleaseMemObject(base);
  free(m.px);

  /* a CL_DEPTH view of a CL_R float image */
  cl_image_format rf = {CL_R, CL_FLOAT}, depth = {CL_DEPTH, CL_FLOAT};
  d = make_desc(CL_MEM_OBJECT_IMAGE2D, 6, 4, 0, 0);
  float px[24];
  for (int i = 0; i < 24; i++)
    px[i] = (float)i * 0.25f;
  base = clCreateImage(env.context, CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_READ_ONLY, &rf, &d, px,
                       &err);
  CHECK_OK(err);
  d.mem_object = base;
  CHECK(clCreateImage(env.context, CL_MEM_HOST_WRITE_ONLY, &depth, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE); /* host access conflicts with mem_object's */
  view = clCreateImage(env.context, 0, &depth, &d, NULL, &err);
  CHECK_OK(err);
  float back[24] = {0};
  const size_t reg[3] = {6, 4, 1};
  CHECK_OK(clEnqueueReadImage(env.queue, view, CL_TRUE, org, reg, 0, 0, back, 0, NULL, NULL));
  CHECK(memcmp(back, px, sizeof px) == 0);
  /* the view inherited CL_MEM_HOST_READ_ONLY */
  CHECK_ERR(clEnqueueWriteImage(env.queue, view, CL_TRUE, org, reg, 0, 0, px, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  /* an image from a view of an image (CL_R from CL_DEPTH is not one of the
   * spec's pairs, the same order is) */
  CHECK(clCreateImage(env.context, 0, &rf, &(cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D,
                                                            .image_width = 6,
                                                            .image_height = 4,
                                                            .mem_object = view},
                      NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_mem view2 = clCreateImage(env.context, 0, &depth, &(cl_image_desc){.image_type =
                                                                         CL_MEM_OBJECT_IMAGE2D,
                                                                     .image_width = 6,
                                                                     .image_height = 4,
                                                                     .mem_object = view},
                               NULL, &err);
  CHECK_OK(err);
  int order[10] = {0};
  CHECK_OK(clSetMemObjectDestructorCallback(base, count_destructor, order));
  CHECK_OK(clSetMemObjectDestructorCallback(view, count_destructor, order));
  CHECK_OK(clSetMemObjectDestructorCallback(view2, count_destructor, order));
  clReleaseMemObject(base);
  clReleaseMemObject(view);
  CHECK(order[0] == 0);
  clReleaseMemObject(view2);
  CHECK(order[0] == 3);
  /* freed from the last view down: view2 (call 0), view (1), base (2) */

  /* a 3D image cannot be created from an image; a view needs a 2D image */
  cl_image_desc d3 = make_desc(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 0);
  cl_mem img3 = clCreateImage(env.context, 0, &rgba8, &d3, NULL, &err);
  d3.mem_object = img3;
  CHECK(clCreateImage(env.context, 0, &rgba8, &d3, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d2 = make_desc(CL_MEM_OBJECT_IMAGE2D, 2, 2, 0, 0);
  d2.mem_object = img3;
  CHECK(clCreateImage(env.context, 0, &rgba8, &d2, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  clReleaseMemObject(img3);
}

/* ---------- clCreateImage errors ---------- */

static void CL_CALLBACK noop_destructor(cl_mem m, void *user) {
  (void)m;
  (*(int *)user)++;
}

static void test_create_errors(void) {
  cl_int err = 1;
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
  unsigned char host[8 * 8 * 16];
#define FAILS(call, code)                                                                        \
  do {                                                                                           \
    err = 1;                                                                                     \
    cl_mem m_ = (call);                                                                          \
    CHECK(m_ == NULL);                                                                           \
    if (m_)                                                                                      \
      clReleaseMemObject(m_);                                                                    \
    CHECK_ERR(err, code);                                                                        \
  } while (0)
  FAILS(clCreateImage((cl_context)junk, 0, &rgba8, &d, NULL, &err), CL_INVALID_CONTEXT);
  FAILS(clCreateImage(NULL, 0, &rgba8, &d, NULL, &err), CL_INVALID_CONTEXT);
  FAILS(clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &d, NULL, &err),
        CL_INVALID_VALUE);
  FAILS(clCreateImage(env.context, (cl_mem_flags)1 << 40, &rgba8, &d, NULL, &err),
        CL_INVALID_VALUE);
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
                      &err),
        CL_INVALID_VALUE);
  FAILS(clCreateImage(env.context, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &rgba8, &d, NULL,
                      &err),
        CL_INVALID_VALUE);
  /* formats */
  FAILS(clCreateImage(env.context, 0, NULL, &d, NULL, &err), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format bad_formats[] = {
      {0x1234, CL_UNORM_INT8},          {CL_RGBA, 0x1234},
      {CL_RGB, CL_UNORM_INT8},          /* RGB only with packed types */
      {CL_RGBA, CL_UNORM_SHORT_565},    {CL_R, CL_UNORM_INT_101010_2},
      {CL_BGRA, CL_FLOAT},              {CL_INTENSITY, CL_SIGNED_INT8},
      {CL_sRGBA, CL_UNORM_INT16},       {CL_DEPTH, CL_UNORM_INT8},
      {CL_LUMINANCE, CL_UNSIGNED_INT32},
  };
  for (size_t i = 0; i < sizeof bad_formats / sizeof *bad_formats; i++)
    FAILS(clCreateImage(env.context, 0, &bad_formats[i], &d, NULL, &err),
          CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* descriptors */
  FAILS(clCreateImage(env.context, 0, &rgba8, NULL, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc bad;
  /* d with one field set to value (left in bad) */
#define FAILS_WITH(field, value)                                                                 \
  do {                                                                                           \
    bad = d;                                                                                     \
    bad.field = (value);                                                                         \
    FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR); \
  } while (0)
  FAILS_WITH(image_type, CL_MEM_OBJECT_BUFFER);
  FAILS_WITH(image_width, 0);
  FAILS_WITH(image_height, 0);
  bad = make_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 0);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
  bad = make_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_DESCRIPTOR);
  FAILS_WITH(num_mip_levels, 1);
  FAILS_WITH(num_samples, 2);
  FAILS_WITH(image_row_pitch, 64); /* without host_ptr */
#undef FAILS_WITH
  bad.image_row_pitch = 28; /* less than width x element size */
  FAILS(clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_DESCRIPTOR);
  bad.image_row_pitch = 34; /* not a multiple of the element size */
  FAILS(clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_DESCRIPTOR);
  bad = make_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  bad.image_row_pitch = 16;
  bad.image_slice_pitch = 48; /* < row pitch x height */
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_DESCRIPTOR);
  bad.image_slice_pitch = 72; /* not a multiple of the row pitch */
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_DESCRIPTOR);
  bad = make_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 2);
  bad.image_slice_pitch = 8; /* < row pitch */
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_DESCRIPTOR);
  /* sizes against the device's limits */
  size_t max2d = 0, max3d = 0, maxarr = 0;
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL);
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof max3d, &max3d, NULL);
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof maxarr, &maxarr, NULL);
  if (max2d == 0) { /* device.c does not report them yet: LoomCL's CPU values */
    max2d = 65536;
    max3d = 8192;
    maxarr = 2048;
  }
  bad = make_desc(CL_MEM_OBJECT_IMAGE2D, max2d + 1, 1, 0, 0);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
  bad = make_desc(CL_MEM_OBJECT_IMAGE1D, max2d + 1, 0, 0, 0);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
  bad = make_desc(CL_MEM_OBJECT_IMAGE3D, 1, 1, max3d + 1, 0);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
  bad = make_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 1, 0, 0, maxarr + 1);
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
  bad = make_desc(CL_MEM_OBJECT_IMAGE3D, max3d, max3d, max3d, 0); /* beyond max alloc */
  FAILS(clCreateImage(env.context, 0, &rgba8, &bad, NULL, &err), CL_INVALID_IMAGE_SIZE);
  bad = make_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  bad.image_row_pitch = (size_t)1 << 62; /* overflows with the height */
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &bad, host, &err),
        CL_INVALID_IMAGE_SIZE);
  /* host pointers */
  FAILS(clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, &d, NULL, &err),
        CL_INVALID_HOST_PTR);
  FAILS(clCreateImage(env.context, CL_MEM_USE_HOST_PTR, &rgba8, &d, NULL, &err),
        CL_INVALID_HOST_PTR);
  FAILS(clCreateImage(env.context, 0, &rgba8, &d, host, &err), CL_INVALID_HOST_PTR);
  FAILS(clCreateImage(env.context, CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, host, &err),
        CL_INVALID_HOST_PTR);
  /* valid formats the device does not support for this type or these flags */
  const cl_image_format depth = {CL_DEPTH, CL_FLOAT}, srgb = {CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc d3 = make_desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0);
  FAILS(clCreateImage(env.context, 0, &depth, &d3, NULL, &err), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_image_desc d1 = make_desc(CL_MEM_OBJECT_IMAGE1D, 4, 0, 0, 0);
  FAILS(clCreateImage(env.context, 0, &depth, &d1, NULL, &err), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  /* sRGB with every access (cl_khr_srgb_image_writes) */
  const cl_mem_flags srgb_flags[] = {0, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY,
                                     CL_MEM_READ_ONLY | CL_MEM_KERNEL_READ_AND_WRITE};
  for (size_t i = 0; i < sizeof srgb_flags / sizeof *srgb_flags; i++) {
    cl_mem ok = clCreateImage(env.context, srgb_flags[i], &srgb, &d, NULL, &err);
    CHECK_OK(err);
    if (ok)
      clReleaseMemObject(ok);
  }
  cl_image_desc d2a = make_desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 3);
  cl_mem ok = clCreateImage(env.context, 0, &depth, &d2a, NULL, &err);
  CHECK_OK(err);
  clReleaseMemObject(ok);
  /* properties: OpenCL 3.0 defines none for images */
  const cl_mem_properties none[] = {0}, some[] = {0x4242, 1, 0};
  FAILS(clCreateImageWithProperties(env.context, some, 0, &rgba8, &d, NULL, &err),
        CL_INVALID_PROPERTY);
  FAILS(clCreateImageWithProperties(NULL, none, 0, &rgba8, &d, NULL, &err), CL_INVALID_CONTEXT);
  ok = clCreateImageWithProperties(env.context, none, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err);
  CHECK_OK(err);
  cl_mem_properties props[4] = {9, 9, 9, 9};
  size_t sz = 0;
  CHECK_OK(clGetMemObjectInfo(ok, CL_MEM_PROPERTIES, sizeof props, props, &sz));
  CHECK(sz == sizeof(cl_mem_properties) && props[0] == 0);
  clReleaseMemObject(ok);
  ok = clCreateImageWithProperties(env.context, NULL, 0, &rgba8, &d, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clGetMemObjectInfo(ok, CL_MEM_PROPERTIES, 0, NULL, &sz));
  CHECK(sz == 0);
  /* retain, release and destructor callbacks apply to images */
  int calls = 0;
  CHECK_OK(clSetMemObjectDestructorCallback(ok, noop_destructor, &calls));
  CHECK_OK(clRetainMemObject(ok));
  cl_uint refs = 0;
  CHECK_OK(clGetMemObjectInfo(ok, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_OK(clReleaseMemObject(ok));
  CHECK(calls == 0);
  CHECK_OK(clReleaseMemObject(ok));
  CHECK(calls == 1);
  /* errcode_ret may be NULL */
  CHECK(clCreateImage(env.context, 0, NULL, &d, NULL, NULL) == NULL);
  ok = clCreateImage(env.context, 0, &rgba8, &d, NULL, NULL);
  CHECK(ok != NULL);
  clReleaseMemObject(ok);
#undef FAILS

  /* clGetImageInfo errors */
  cl_mem img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
  cl_mem buf = clCreateBuffer(env.context, 0, 64, NULL, &err);
  size_t v;
  CHECK_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo((cl_mem)junk, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo(img, 0x7777, sizeof v, &v, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetImageInfo(img, CL_IMAGE_WIDTH, 4, &v, NULL), CL_INVALID_VALUE);
  cl_image_format f;
  CHECK_ERR(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof f - 1, &f, NULL), CL_INVALID_VALUE);
  /* an image is not a buffer */
  CHECK_ERR(clEnqueueReadBuffer(env.queue, img, CL_TRUE, 0, 4, &v, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  cl_buffer_region br = {0, 4};
  CHECK(clCreateSubBuffer(img, 0, CL_BUFFER_CREATE_TYPE_REGION, &br, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
  cl_int e2;
  CHECK(clEnqueueMapBuffer(env.queue, img, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &e2) == NULL);
  CHECK_ERR(e2, CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
}

/* ---------- the supported formats ---------- */

static bool listed(const cl_image_format *list, cl_uint n, cl_channel_order o, cl_channel_type t) {
  for (cl_uint i = 0; i < n; i++)
    if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
      return true;
  return false;
}

static void test_supported_formats(void) {
  const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                      CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                      CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                CL_MEM_KERNEL_READ_AND_WRITE, 0};
  cl_image_format list[256];
  for (size_t t = 0; t < 6; t++)
    for (size_t f = 0; f < 5; f++) {
      cl_uint n = 0, n2 = 0;
      CHECK_OK(clGetSupportedImageFormats(env.context, flags[f], types[t], 0, NULL, &n));
      CHECK_OK(clGetSupportedImageFormats(env.context, flags[f], types[t], 256, list, &n2));
      CHECK(n == n2 && n > 100);
      bool two_d = types[t] == CL_MEM_OBJECT_IMAGE2D || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      CHECK(listed(list, n, CL_DEPTH, CL_FLOAT) == two_d);
      CHECK(listed(list, n, CL_DEPTH, CL_UNORM_INT16) == two_d);
      CHECK(listed(list, n, CL_sRGBA, CL_UNORM_INT8));
      CHECK(listed(list, n, CL_sBGRA, CL_UNORM_INT8));
      CHECK(listed(list, n, CL_sRGB, CL_UNORM_INT8));
      CHECK(n == 119u + (two_d ? 2 : 0));
      /* the minimum lists of the spec */
      const cl_channel_type all[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                                     CL_SNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
                                     CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                     CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
      for (size_t k = 0; k < 12; k++) {
        CHECK(listed(list, n, CL_R, all[k]));
        CHECK(listed(list, n, CL_RG, all[k]));
        CHECK(listed(list, n, CL_RGBA, all[k]));
      }
      CHECK(listed(list, n, CL_BGRA, CL_UNORM_INT8));
      CHECK(listed(list, n, CL_RGB, CL_UNORM_SHORT_565));
      CHECK(listed(list, n, CL_RGBA, CL_UNORM_INT_101010_2));
      CHECK(!listed(list, n, CL_RGB, CL_UNORM_INT8));
      /* every listed format can be created with those flags */
      for (cl_uint k = 0; k < n; k += 7) {
        cl_image_desc d = make_desc(types[t], 3, 2, 2, 2);
        cl_mem buf = NULL;
        cl_int err;
        if (types[t] == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
          buf = clCreateBuffer(env.context, 0, 64, NULL, &err);
          d.buffer = buf;
        }
        cl_mem img = clCreateImage(env.context, flags[f], &list[k], &d, NULL, &err);
        CHECK_OK(err);
        if (img)
          clReleaseMemObject(img);
        if (buf)
          clReleaseMemObject(buf);
      }
    }
  /* fewer entries than formats: the first ones, and the total */
  cl_image_format few[3];
  cl_uint n = 0;
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 3,
                                      few, &n));
  CHECK(n > 3);
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 256,
                                      list, NULL));
  CHECK(memcmp(few, list, sizeof few) == 0);
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 3,
                                      few, NULL));
  /* errors */
  CHECK_ERR(clGetSupportedImageFormats((cl_context)junk, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D,
                                       3, few, &n),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                       CL_MEM_OBJECT_IMAGE2D, 3, few, &n),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D,
                                       3, few, &n),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 3,
                                       few, &n),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_PIPE, 3, few,
                                       &n),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                       few, &n),
            CL_INVALID_VALUE);
}

int main(void) {
  test_env_init(&env);
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  if (!images)
    printf("note: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE (device.c); testing the images anyway\n");
  cl_int err;
  other_ctx = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  CHECK_OK(err);

  test_supported_formats();
  test_create_and_transfer();
  test_legacy_create();
  test_image1d_buffer();
  test_image2d_from_buffer();
  test_image_from_image();
  test_create_errors();

  clReleaseContext(other_ctx);
  test_env_release(&env);
  return test_finish("test_image_create");
}
