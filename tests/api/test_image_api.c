/* Image objects through the API: every image type created each way (own
 * storage, CL_MEM_COPY_HOST_PTR / CL_MEM_USE_HOST_PTR / CL_MEM_ALLOC_HOST_PTR
 * with padded pitches, 1D image buffers, 2D images from buffers, images from
 * images), reads and writes with origins, regions and pitches checked
 * byte-exactly against a host model, copies between images and between
 * images and buffers, fills of many formats against an independent host
 * encoding, maps, the queries, the supported format list, samplers, and the
 * error paths of every image entry point. */
#include "harness.h"
#include "half_ref.h"
#include <math.h>

static struct test_env env;
static cl_context other_ctx;
static cl_command_queue other_queue;
static char junk[256]; /* a pointer that is no OpenCL object */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static size_t rnd(size_t n) { return (size_t)(test_xorshift64(&rng) % n); }

static void fill_random(void *p, size_t n) {
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    b[i] = (unsigned char)rnd(256);
}

static cl_image_desc make_desc(cl_mem_object_type type, size_t w, size_t h, size_t d,
                               size_t arr) {
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = type;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = arr;
  return desc;
}

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

/* ---------- a host model of an image's pixels ---------- */

/* Pixels in origin coordinates (x, y, z): the layer is y for 1D arrays and
 * z for 2D arrays; stored tightly. */
struct model {
  cl_mem_object_type type;
  size_t ps;
  size_t ext[3];
  unsigned char *px;
};

static void model_init(struct model *m, const cl_image_desc *d, size_t ps) {
  m->type = d->image_type;
  m->ps = ps;
  m->ext[0] = d->image_width;
  m->ext[1] = m->ext[2] = 1;
  switch (d->image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    m->ext[1] = d->image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    m->ext[1] = d->image_height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    m->ext[1] = d->image_height;
    m->ext[2] = d->image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    m->ext[1] = d->image_height;
    m->ext[2] = d->image_depth;
    break;
  default:
    break;
  }
  m->px = calloc(m->ext[0] * m->ext[1] * m->ext[2], ps);
}

static unsigned char *model_at(struct model *m, size_t x, size_t y, size_t z) {
  return m->px + ((z * m->ext[1] + y) * m->ext[0] + x) * m->ps;
}

static size_t model_bytes(const struct model *m) {
  return m->ext[0] * m->ext[1] * m->ext[2] * m->ps;
}

/* Host memory of a rectangle: row y at ys * y, slice z at zs * z. */
static void model_put(struct model *m, const size_t org[3], const size_t reg[3],
                      const unsigned char *host, size_t ys, size_t zs) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(model_at(m, org[0], org[1] + y, org[2] + z), host + z * zs + y * ys,
             reg[0] * m->ps);
}

static void model_get(struct model *m, const size_t org[3], const size_t reg[3],
                      unsigned char *host, size_t ys, size_t zs) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(host + z * zs + y * ys, model_at(m, org[0], org[1] + y, org[2] + z),
             reg[0] * m->ps);
}

/* The host strides of a read or write of `type` with the given pitches, as
 * the spec defines their defaults (a 1D array's layers are slice_pitch
 * apart, row_pitch when that is 0). */
static void host_strides(cl_mem_object_type type, const size_t reg[3], size_t ps, size_t row,
                         size_t slice, size_t *ys, size_t *zs) {
  if (!row)
    row = reg[0] * ps;
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    *ys = slice ? slice : row;
    *zs = *ys * reg[1];
  } else {
    *ys = row;
    *zs = slice ? slice : row * reg[1];
  }
}

/* The whole image read back tightly must equal the model. */
static bool image_matches(cl_mem img, struct model *m) {
  size_t n = model_bytes(m);
  unsigned char *got = malloc(n);
  const size_t org[3] = {0, 0, 0};
  cl_int err = clEnqueueReadImage(env.queue, img, CL_TRUE, org, m->ext, 0, 0, got, 0, NULL,
                                  NULL);
  bool ok = err == CL_SUCCESS && memcmp(got, m->px, n) == 0;
  if (!ok)
    fprintf(stderr, "image differs from its model (read: %d)\n", err);
  free(got);
  return ok;
}

/* A random region inside the model and an origin for it. */
static void random_rect(const struct model *m, size_t org[3], size_t reg[3]) {
  for (int i = 0; i < 3; i++) {
    reg[i] = 1 + rnd(m->ext[i]);
    org[i] = rnd(m->ext[i] - reg[i] + 1);
  }
}

/* Writes a random rectangle with random host pitches, reads another back
 * with other pitches, and checks both against the model. */
static void random_write_read(cl_mem img, struct model *m) {
  size_t org[3], reg[3], ys, zs;
  random_rect(m, org, reg);
  bool has_slices = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                    m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE3D;
  size_t row = rnd(2) ? 0 : reg[0] * m->ps + rnd(3) * m->ps + rnd(2);
  size_t slice = 0;
  if (has_slices && rnd(2)) {
    size_t r = row ? row : reg[0] * m->ps;
    slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r + rnd(9) : r * reg[1] + rnd(9);
  }
  host_strides(m->type, reg, m->ps, row, slice, &ys, &zs);
  size_t hn = zs * reg[2] + ys * reg[1] + 16;
  unsigned char *host = malloc(hn);
  fill_random(host, hn);
  CHECK_OK(clEnqueueWriteImage(env.queue, img, rnd(2), org, reg, row, slice, host, 0, NULL,
                               NULL));
  model_put(m, org, reg, host, ys, zs);
  CHECK_OK(clFinish(env.queue));
  free(host);

  random_rect(m, org, reg);
  row = rnd(2) ? 0 : reg[0] * m->ps + rnd(5);
  slice = 0;
  if (has_slices && rnd(2)) {
    size_t r = row ? row : reg[0] * m->ps;
    slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r + rnd(7) : r * reg[1] + rnd(7);
  }
  host_strides(m->type, reg, m->ps, row, slice, &ys, &zs);
  hn = zs * reg[2] + ys * reg[1] + 16;
  unsigned char *got = malloc(hn), *want = malloc(hn);
  fill_random(got, hn);
  memcpy(want, got, hn);
  cl_event ev;
  CHECK_OK(clEnqueueReadImage(env.queue, img, CL_FALSE, org, reg, row, slice, got, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_READ_IMAGE);
  clReleaseEvent(ev);
  model_get(m, org, reg, want, ys, zs);
  CHECK(memcmp(got, want, hn) == 0); /* including the padding left alone */
  free(got);
  free(want);
  CHECK(image_matches(img, m));
}

/* Maps a random rectangle for writing, writes through the returned pitches,
 * unmaps and checks the image. Returns the mapped pointer's offset from
 * `base` for CL_MEM_USE_HOST_PTR checks (base may be NULL). */
static void map_write(cl_mem img, struct model *m, const unsigned char *use_ptr, size_t row_pitch,
                      size_t slice_pitch) {
  size_t org[3], reg[3], rp = 0, sp = 0;
  random_rect(m, org, reg);
  cl_int err;
  cl_event ev;
  bool has_slices = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                    m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE3D;
  unsigned char *p = clEnqueueMapImage(env.queue, img, CL_FALSE, CL_MAP_WRITE, org, reg, &rp,
                                       has_slices || rnd(2) ? &sp : NULL, 0, NULL, &ev, &err);
  CHECK_OK(err);
  CHECK(p != NULL);
  if (!p)
    return;
  CHECK_OK(clWaitForEvents(1, &ev));
  clReleaseEvent(ev);
  CHECK(rp == row_pitch);
  CHECK(sp == (has_slices ? slice_pitch : 0));
  cl_uint count = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  CHECK(count == 1);
  if (use_ptr) { /* zero copy: the pointer is into host_ptr */
    size_t ys = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch;
    size_t zs = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slice_pitch;
    CHECK(p == use_ptr + org[0] * m->ps + org[1] * ys + org[2] * zs);
  }
  size_t ys = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sp : rp;
  size_t zs = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : sp;
  size_t n = reg[0] * reg[1] * reg[2] * m->ps;
  unsigned char *data = malloc(n);
  fill_random(data, n);
  size_t w = reg[0] * m->ps;
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(p + z * zs + y * ys, data + (z * reg[1] + y) * w, w);
  model_put(m, org, reg, data, w, w * reg[1]);
  free(data);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, p, 0, NULL, NULL));
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  CHECK(count == 0);
  CHECK(image_matches(img, m));
}

/* ---------- creation of every type each way, info, round trips ---------- */

enum mode { PLAIN, COPY, USE, ALLOC, ALLOC_COPY, NUM_MODES };

static size_t info_size(cl_mem img, cl_image_info p) {
  size_t v = 12345;
  CHECK_OK(clGetImageInfo(img, p, sizeof v, &v, NULL));
  return v;
}

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
    fill_random(hp, host_bytes);
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
    CHECK(image_matches(img, &m));
  } else { /* contents undefined: give it some */
    fill_random(m.px, model_bytes(&m));
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
    random_write_read(img, &m);
  map_write(img, &m, mode == USE ? hp : NULL, row, slice);

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
  fill_random(host, sizeof host);
  cl_mem a = clCreateImage2D(env.context, CL_MEM_COPY_HOST_PTR, &rgba8, 8, 6, 0, host, &err);
  CHECK_OK(err);
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 8, 6, 0, 0);
  struct model m;
  model_init(&m, &d, 4);
  memcpy(m.px, host, 8 * 6 * 4);
  CHECK(image_matches(a, &m));
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
  CHECK(image_matches(b, &m));
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
  fill_random(data, sizeof data);
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
  fill_random(part, sizeof part);
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
  fill_random(bytes, sizeof bytes);
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

static cl_uint device_uint(cl_device_info p) {
  cl_uint v = 0;
  clGetDeviceInfo(env.device, p, sizeof v, &v, NULL);
  return v;
}

static void test_image2d_from_buffer(void) {
  cl_int err;
  const size_t w = 11, h = 6, ps = 4;
  cl_image_format fmt = {CL_RGBA, CL_SIGNED_INT8};
  cl_uint pitch_align = device_uint(CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  cl_uint base_align = device_uint(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  if (!pitch_align)
    pitch_align = 1;
  size_t unit = pitch_align * ps;
  size_t row = (w * ps + unit - 1) / unit * unit + unit; /* aligned, padded */
  cl_mem buf = clCreateBuffer(env.context, 0, row * h, NULL, &err);
  unsigned char data[2048];
  fill_random(data, sizeof data);
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
  CHECK(image_matches(img, &m));
  random_write_read(img, &m);
  /* the buffer sees the image's writes at the image's pitch */
  unsigned char back[2048];
  CHECK_OK(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, row * h, back, 0, NULL, NULL));
  unsigned char *want = malloc(row * h);
  memcpy(want, back, row * h);
  model_get(&m, org, m.ext, want, row, 0);
  CHECK(memcmp(want, back, row * h) == 0);
  free(want);
  map_write(img, &m, NULL, row, 0);
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
  fill_random(m.px, model_bytes(&m));
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
    CHECK(image_matches(view, &m));
    cl_mem got = NULL;
    CHECK_OK(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL));
    CHECK(got == base);
    CHECK_OK(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof got, &got, NULL));
    CHECK(got == NULL);
    cl_image_format f;
    CHECK_OK(clGetImageInfo(view, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
    CHECK(f.image_channel_order == CL_sRGBA);
    random_write_read(view, &m); /* writes through the view ... */
    CHECK(image_matches(base, &m)); /* ... are the base image's */
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

/* ---------- copies ---------- */

static cl_mem image_with_model(cl_mem_object_type type, size_t w, size_t h, size_t dd,
                               size_t arr, struct model *m) {
  cl_image_desc d = make_desc(type, w, h, dd, arr);
  cl_int err;
  cl_mem img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
  CHECK_OK(err);
  model_init(m, &d, 4);
  fill_random(m->px, model_bytes(m));
  const size_t org[3] = {0, 0, 0};
  CHECK_OK(clEnqueueWriteImage(env.queue, img, CL_TRUE, org, m->ext, 0, 0, m->px, 0, NULL, NULL));
  return img;
}

/* copies between the models as the API copies between the images */
static void model_copy(struct model *dst, const size_t dorg[3], struct model *src,
                       const size_t sorg[3], const size_t reg[3]) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memmove(model_at(dst, dorg[0], dorg[1] + y, dorg[2] + z),
              model_at(src, sorg[0], sorg[1] + y, sorg[2] + z), reg[0] * src->ps);
}

static void test_copies(void) {
  struct model m1, m1a, m2, m2a, m3;
  cl_mem i1 = image_with_model(CL_MEM_OBJECT_IMAGE1D, 40, 0, 0, 0, &m1);
  cl_mem i1a = image_with_model(CL_MEM_OBJECT_IMAGE1D_ARRAY, 20, 0, 0, 6, &m1a);
  cl_mem i2 = image_with_model(CL_MEM_OBJECT_IMAGE2D, 17, 9, 0, 0, &m2);
  cl_mem i2a = image_with_model(CL_MEM_OBJECT_IMAGE2D_ARRAY, 10, 8, 0, 5, &m2a);
  cl_mem i3 = image_with_model(CL_MEM_OBJECT_IMAGE3D, 12, 7, 6, 0, &m3);
  struct {
    cl_mem dst, src;
    struct model *md, *ms;
    size_t dorg[3], sorg[3], reg[3];
  } cases[] = {
      {i3, i2, &m3, &m2, {1, 2, 3}, {2, 1, 0}, {5, 4, 1}},    /* 2D into a 3D slice */
      {i2, i1a, &m2, &m1a, {0, 1, 0}, {3, 0, 0}, {15, 6, 1}}, /* 1D array rows into 2D */
      {i2a, i2, &m2a, &m2, {1, 0, 4}, {0, 1, 0}, {9, 8, 1}},  /* 2D into an array layer */
      {i1, i3, &m1, &m3, {20, 0, 0}, {0, 6, 5}, {12, 1, 1}},  /* a 3D row into 1D */
      {i3, i2a, &m3, &m2a, {0, 0, 0}, {0, 0, 0}, {10, 7, 5}}, /* array layers into slices */
      {i1a, i1, &m1a, &m1, {0, 5, 0}, {10, 0, 0}, {20, 1, 1}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    CHECK_OK(clEnqueueCopyImage(env.queue, cases[i].src, cases[i].dst, cases[i].sorg,
                                cases[i].dorg, cases[i].reg, 0, NULL, NULL));
    model_copy(cases[i].md, cases[i].dorg, cases[i].ms, cases[i].sorg, cases[i].reg);
  }
  /* within one image, regions that do not overlap */
  const size_t s[3] = {0, 0, 0}, dd[3] = {6, 3, 0}, r[3] = {6, 3, 1};
  CHECK_OK(clEnqueueCopyImage(env.queue, i2, i2, s, dd, r, 0, NULL, NULL));
  model_copy(&m2, dd, &m2, s, r);
  CHECK(image_matches(i1, &m1));
  CHECK(image_matches(i1a, &m1a));
  CHECK(image_matches(i2, &m2));
  CHECK(image_matches(i2a, &m2a));
  CHECK(image_matches(i3, &m3));
  /* CL_MEM_COPY_OVERLAP for the same image and overlapping regions */
  const size_t d2[3] = {5, 2, 0};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i2, s, d2, r, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  const size_t s3[3] = {0, 0, 1}, d3[3] = {2, 2, 2}, r3[3] = {4, 4, 2};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i3, i3, s3, d3, r3, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* region rules for each image's type, and bounds */
  const size_t r2[3] = {2, 2, 2};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, s, r2, 0, NULL, NULL), CL_INVALID_VALUE);
  const size_t rr[3] = {2, 2, 1};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i1, i2, s, s, rr, 0, NULL, NULL), CL_INVALID_VALUE);
  const size_t far[3] = {16, 0, 0};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, far, s, rr, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, s, rr, 0, NULL, NULL), CL_SUCCESS);
  model_copy(&m3, s, &m2, s, rr);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, NULL, s, rr, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, NULL, rr, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, s, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  const size_t r0[3] = {2, 0, 1};
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, s, r0, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_int err;
  cl_mem buf = clCreateBuffer(env.context, 0, 64, NULL, &err);
  CHECK_ERR(clEnqueueCopyImage(env.queue, buf, i3, s, s, rr, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, (cl_mem)junk, s, s, rr, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyImage((cl_command_queue)junk, i2, i3, s, s, rr, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i3, s, s, rr, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_image_format f16 = {CL_RGBA, CL_UNORM_INT16};
  cl_image_desc dd16 = make_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  cl_mem i16 = clCreateImage(env.context, 0, &f16, &dd16, NULL, &err);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, i16, s, s, rr, 0, NULL, NULL),
            CL_IMAGE_FORMAT_MISMATCH);
  cl_mem other_img = clCreateImage(other_ctx, 0, &rgba8, &dd16, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clEnqueueCopyImage(env.queue, i2, other_img, s, s, rr, 0, NULL, NULL),
            CL_INVALID_CONTEXT);

  /* image -> buffer -> image */
  size_t bsize = 4096;
  unsigned char *bref = malloc(bsize), *bgot = malloc(bsize);
  fill_random(bref, bsize);
  cl_mem b = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, bsize, bref, &err);
  const size_t so[3] = {2, 1, 1}, sr[3] = {7, 4, 3};
  size_t off = 100;
  CHECK_OK(clEnqueueCopyImageToBuffer(env.queue, i3, b, so, sr, off, 0, NULL, NULL));
  model_get(&m3, so, sr, bref + off, 7 * 4, 7 * 4 * 4);
  CHECK_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, bsize, bgot, 0, NULL, NULL));
  CHECK(memcmp(bgot, bref, bsize) == 0);
  const size_t lo[3] = {0, 2, 0}, lr[3] = {20, 3, 1}; /* 1D array layers from a buffer */
  CHECK_OK(clEnqueueCopyBufferToImage(env.queue, b, i1a, 8, lo, lr, 0, NULL, NULL));
  model_put(&m1a, lo, lr, bref + 8, 20 * 4, 0);
  CHECK(image_matches(i1a, &m1a));
  const size_t ao[3] = {1, 1, 2}, ar[3] = {5, 6, 3}; /* 2D array layers */
  cl_event ev;
  CHECK_OK(clEnqueueCopyBufferToImage(env.queue, b, i2a, 1000, ao, ar, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_COPY_BUFFER_TO_IMAGE);
  clReleaseEvent(ev);
  model_put(&m2a, ao, ar, bref + 1000, 5 * 4, 5 * 4 * 6);
  CHECK(image_matches(i2a, &m2a));
  CHECK(image_matches(i3, &m3));
  /* errors */
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, i3, b, so, sr, bsize - 10, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, b, i3, bsize - 10, so, sr, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, b, b, so, sr, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, i3, i2, so, sr, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, i2, i3, 0, so, sr, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, b, b, 0, so, sr, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  cl_mem other_buf = clCreateBuffer(other_ctx, 0, 4096, NULL, &err);
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, i3, other_buf, so, sr, 0, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, b, other_img, 0, s, rr, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  const size_t so2[3] = {2, 1, 0}; /* origin[2] of a 2D image */
  const size_t so2b[3] = {2, 1, 1};
  CHECK_ERR(clEnqueueCopyImageToBuffer(env.queue, i2, b, so2b, rr, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clEnqueueCopyImageToBuffer(env.queue, i2, b, so2, rr, 0, 0, NULL, NULL));
  CHECK_ERR(clEnqueueCopyImageToBuffer(NULL, i2, b, so2, rr, 0, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueCopyBufferToImage(env.queue, b, i2, 0, so2, rr, 0, (cl_event *)&junk, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_OK(clFinish(env.queue));
  free(bref);
  free(bgot);
  clReleaseMemObject(b);
  clReleaseMemObject(buf);
  clReleaseMemObject(other_buf);
  clReleaseMemObject(i16);
  clReleaseMemObject(other_img);
  cl_mem imgs[] = {i1, i1a, i2, i2a, i3};
  struct model *ms[] = {&m1, &m1a, &m2, &m2a, &m3};
  for (int i = 0; i < 5; i++) {
    clReleaseMemObject(imgs[i]);
    free(ms[i]->px);
  }
}

/* ---------- fills against an independent host encoding ---------- */

/* round to nearest even through the C library (the default rounding mode),
 * saturated; NaN gives 0 */
static long ref_sat(float x, long lo, long hi) {
  if (isnan(x))
    return 0;
  long double v = rintl((long double)x);
  return v < lo ? lo : v > hi ? hi : (long)v;
}

static unsigned ref_srgb(float c) {
  long double v = isnan(c) ? 0.0L : c;
  if (v >= 1.0L)
    v = 1.0L;
  else if (v <= 0.0L)
    v = 0.0L;
  else if (v < 0.0031308L)
    v *= 12.92L;
  else
    v = 1.055L * powl(v, 1.0L / 2.4L) - 0.055L;
  return (unsigned)floorl(v * 255.0L + 0.5L);
}

/* the channel of each slot in memory order: 'R', 'G', 'B', 'A', 'x' */
static const char *ref_layout(cl_channel_order o) {
  switch (o) {
  case CL_R: case CL_Rx: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return "R";
  case CL_A: return "A";
  case CL_RG: case CL_RGx: return "RG";
  case CL_RA: return "RA";
  case CL_RGBA: case CL_sRGBA: return "RGBA";
  case CL_BGRA: case CL_sBGRA: return "BGRA";
  case CL_ARGB: return "ARGB";
  case CL_ABGR: return "ABGR";
  case CL_sRGB: return "RGB";
  case CL_sRGBx: return "RGBA"; /* the ignored byte holds the fill's alpha, as in the CTS */
  default: return "";
  }
}

static size_t ref_encode(cl_image_format f, const void *color, unsigned char *out) {
  const float *fc = color;
  const int *ic = color;
  const unsigned *uc = color;
  cl_channel_type t = f.image_channel_data_type;
  cl_channel_order o = f.image_channel_order;
  if (t == CL_UNORM_SHORT_565) {
    uint16_t v = (uint16_t)(ref_sat(fc[0] * 31.0f, 0, 31) << 11 | ref_sat(fc[1] * 63.0f, 0, 63) << 5 |
                            ref_sat(fc[2] * 31.0f, 0, 31));
    memcpy(out, &v, 2);
    return 2;
  }
  if (t == CL_UNORM_SHORT_555) {
    uint16_t v = (uint16_t)(ref_sat(fc[0] * 31.0f, 0, 31) << 10 | ref_sat(fc[1] * 31.0f, 0, 31) << 5 |
                            ref_sat(fc[2] * 31.0f, 0, 31));
    memcpy(out, &v, 2);
    return 2;
  }
  if (t == CL_UNORM_INT_101010 || t == CL_UNORM_INT_101010_2) {
    uint32_t r = (uint32_t)ref_sat(fc[0] * 1023.0f, 0, 1023);
    uint32_t g = (uint32_t)ref_sat(fc[1] * 1023.0f, 0, 1023);
    uint32_t b = (uint32_t)ref_sat(fc[2] * 1023.0f, 0, 1023);
    uint32_t v = t == CL_UNORM_INT_101010
                     ? r << 20 | g << 10 | b
                     : r << 22 | g << 12 | b << 2 | (uint32_t)ref_sat(fc[3] * 3.0f, 0, 3);
    memcpy(out, &v, 4);
    return 4;
  }
  bool srgb = o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
  size_t n = 0;
  for (const char *s = ref_layout(o); *s; s++) {
    int c = *s == 'R' ? 0 : *s == 'G' ? 1 : *s == 'B' ? 2 : *s == 'A' ? 3 : -1;
    union {
      uint8_t b[4];
      uint16_t h;
      uint32_t w;
      float f;
    } v = {{0}};
    size_t sz;
    switch (t) {
    case CL_UNORM_INT8: sz = 1; v.b[0] = c < 0 ? 0 : srgb && c < 3 ? (uint8_t)ref_srgb(fc[c]) : (uint8_t)ref_sat(fc[c] * 255.0f, 0, 255); break;
    case CL_SNORM_INT8: sz = 1; v.b[0] = (uint8_t)(int8_t)ref_sat(fc[c] * 127.0f, -128, 127); break;
    case CL_UNORM_INT16: sz = 2; v.h = (uint16_t)ref_sat(fc[c] * 65535.0f, 0, 65535); break;
    case CL_SNORM_INT16: sz = 2; v.h = (uint16_t)(int16_t)ref_sat(fc[c] * 32767.0f, -32768, 32767); break;
    case CL_HALF_FLOAT: sz = 2; v.h = half_from_ld((long double)fc[c], H_RTE); break;
    case CL_FLOAT: sz = 4; v.f = fc[c]; break;
    case CL_SIGNED_INT8: sz = 1; v.b[0] = (uint8_t)(int8_t)(ic[c] < -128 ? -128 : ic[c] > 127 ? 127 : ic[c]); break;
    case CL_SIGNED_INT16: sz = 2; v.h = (uint16_t)(int16_t)(ic[c] < -32768 ? -32768 : ic[c] > 32767 ? 32767 : ic[c]); break;
    case CL_SIGNED_INT32: sz = 4; v.w = (uint32_t)ic[c]; break;
    case CL_UNSIGNED_INT8: sz = 1; v.b[0] = (uint8_t)(uc[c] > 255 ? 255 : uc[c]); break;
    case CL_UNSIGNED_INT16: sz = 2; v.h = (uint16_t)(uc[c] > 65535 ? 65535 : uc[c]); break;
    default: sz = 4; v.w = uc[c]; break;
    }
    memcpy(out + n, &v, sz);
    n += sz;
  }
  return n;
}

/* Fills a region of a 2D (or 2D array for depth) image whose pixels are
 * random, and checks the region holds the expected pixel and the rest is
 * untouched. */
static void fill_case(cl_image_format f, cl_mem_flags flags, const void *color,
                      const unsigned char *literal) {
  cl_int err;
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 9, 5, 0, 0);
  cl_mem img = clCreateImage(env.context, flags, &f, &d, NULL, &err);
  CHECK_OK(err);
  if (!img) {
    fprintf(stderr, "  format 0x%x 0x%x\n", f.image_channel_order, f.image_channel_data_type);
    return;
  }
  size_t ps = info_size(img, CL_IMAGE_ELEMENT_SIZE);
  struct model m;
  model_init(&m, &d, ps);
  fill_random(m.px, model_bytes(&m));
  const size_t org0[3] = {0, 0, 0};
  CHECK_OK(clEnqueueWriteImage(env.queue, img, CL_TRUE, org0, m.ext, 0, 0, m.px, 0, NULL, NULL));
  unsigned char want[16];
  size_t n = ref_encode(f, color, want);
  CHECK(n == ps);
  if (literal && memcmp(want, literal, ps) != 0) {
    CHECK(!"the reference encoding disagrees with the literal");
  }
  const size_t org[3] = {2, 1, 0}, reg[3] = {5, 3, 1};
  cl_event ev;
  CHECK_OK(clEnqueueFillImage(env.queue, img, color, org, reg, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_FILL_IMAGE);
  clReleaseEvent(ev);
  for (size_t y = 0; y < reg[1]; y++)
    for (size_t x = 0; x < reg[0]; x++)
      memcpy(model_at(&m, org[0] + x, org[1] + y, 0), want, ps);
  if (!image_matches(img, &m)) {
    CHECK(!"fill");
    fprintf(stderr, "  format 0x%x 0x%x\n", f.image_channel_order, f.image_channel_data_type);
  }
  clReleaseMemObject(img);
  free(m.px);
}

static void test_fills(void) {
  const float fa[4] = {0.2f, 0.5f, 0.75f, 1.0f};
  const float fb[4] = {-0.5f, 1.5f, NAN, 0.3f};
  const float fc[4] = {1.0f / 3.0f, 65520.0f, 1e-7f, -2.0f}; /* half rounding, overflow, subnormal */
  const float fd[4] = {0.0025f, 0.04f, 0.5f, 0.6f};          /* the sRGB curve's two pieces */
  const int ia[4] = {-300, 100, 70000, -5};
  const unsigned ua[4] = {300, 7, 70000, 0xffffffffu};
  const struct {
    cl_image_format f;
    cl_mem_flags flags;
    const void *color;
    const unsigned char *literal; /* hand-computed bytes, or NULL */
  } cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, 0, fa, (const unsigned char[]){51, 128, 191, 255}},
      {{CL_RGBA, CL_UNORM_INT8}, 0, fb, (const unsigned char[]){0, 255, 0, 76}}, /* 0.3f * 255 is 76.5 */
      {{CL_BGRA, CL_UNORM_INT8}, 0, fa, (const unsigned char[]){191, 128, 51, 255}},
      {{CL_ARGB, CL_SNORM_INT8}, 0, fb, (const unsigned char[]){38, 0xc0, 127, 0}},
      {{CL_ABGR, CL_UNSIGNED_INT8}, 0, ua, (const unsigned char[]){255, 255, 7, 255}},
      {{CL_ABGR, CL_SIGNED_INT8}, 0, ia, (const unsigned char[]){0xfb, 127, 100, 0x80}},
      {{CL_RG, CL_UNORM_INT16}, 0, fa, (const unsigned char[]){0x33, 0x33, 0x00, 0x80}},
      {{CL_RA, CL_SNORM_INT16}, 0, fb, NULL},
      {{CL_R, CL_HALF_FLOAT}, 0, fc, (const unsigned char[]){0x55, 0x35}},
      {{CL_RGBA, CL_HALF_FLOAT}, 0, fc, NULL},
      {{CL_RGBA, CL_HALF_FLOAT}, 0, fb, NULL},
      {{CL_RGBA, CL_FLOAT}, 0, fa, NULL},
      {{CL_A, CL_UNORM_INT8}, 0, fa, (const unsigned char[]){255}},
      {{CL_RGBA, CL_SIGNED_INT16}, 0, ia, NULL},
      {{CL_R, CL_SIGNED_INT32}, 0, ia, NULL},
      {{CL_RGBA, CL_UNSIGNED_INT16}, 0, ua, NULL},
      {{CL_RG, CL_UNSIGNED_INT32}, 0, ua, NULL},
      {{CL_RGB, CL_UNORM_SHORT_565}, 0, fa, (const unsigned char[]){0x17, 0x34}},
      {{CL_RGBx, CL_UNORM_SHORT_555}, 0, fb, NULL},
      {{CL_RGB, CL_UNORM_INT_101010}, 0, fa, NULL},
      {{CL_RGBA, CL_UNORM_INT_101010_2}, 0, fa, NULL},
      {{CL_INTENSITY, CL_UNORM_INT16}, 0, fa, NULL},
      {{CL_LUMINANCE, CL_FLOAT}, 0, fb, NULL},
      {{CL_Rx, CL_SNORM_INT8}, 0, fb, NULL},
      {{CL_RGx, CL_FLOAT}, 0, fa, NULL},
      {{CL_sRGBA, CL_UNORM_INT8}, CL_MEM_READ_ONLY, fa, (const unsigned char[]){124, 188, 225, 255}},
      {{CL_sBGRA, CL_UNORM_INT8}, CL_MEM_READ_ONLY, fd, NULL},
      {{CL_sRGB, CL_UNORM_INT8}, CL_MEM_READ_ONLY, fd, NULL},
      {{CL_sRGBx, CL_UNORM_INT8}, CL_MEM_READ_ONLY, fb, NULL},
      {{CL_DEPTH, CL_FLOAT}, 0, fc, NULL},
      {{CL_DEPTH, CL_UNORM_INT16}, 0, fa, (const unsigned char[]){0x33, 0x33}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    fill_case(cases[i].f, cases[i].flags, cases[i].color, cases[i].literal);

  /* fills of 3D images and arrays, and flags that forbid host access (the
   * fill ignores them) */
  cl_int err;
  cl_image_format f = {CL_RG, CL_SIGNED_INT16};
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE3D, 6, 5, 4, 0);
  cl_mem img = clCreateImage(env.context, CL_MEM_HOST_NO_ACCESS, &f, &d, NULL, &err);
  CHECK_OK(err);
  const size_t o[3] = {1, 1, 1}, r[3] = {4, 3, 2}, all[3] = {6, 5, 4}, zero[3] = {0, 0, 0};
  const int c0[4] = {0, 0, 0, 0}, c1[4] = {-7, 40000, 1, 1};
  CHECK_OK(clEnqueueFillImage(env.queue, img, c0, zero, all, 0, NULL, NULL));
  CHECK_OK(clEnqueueFillImage(env.queue, img, c1, o, r, 0, NULL, NULL));
  cl_mem b = clCreateBuffer(env.context, 0, 6 * 5 * 4 * 4, NULL, &err);
  CHECK_OK(clEnqueueCopyImageToBuffer(env.queue, img, b, zero, all, 0, 0, NULL, NULL));
  int16_t got[6 * 5 * 4 * 2];
  CHECK_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  int bad = 0;
  for (int z = 0; z < 4; z++)
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 6; x++) {
        bool in = x >= 1 && x < 5 && y >= 1 && y < 4 && z >= 1 && z < 3;
        int16_t *p = got + ((z * 5 + y) * 6 + x) * 2;
        bad += in ? !(p[0] == -7 && p[1] == 32767) : !(p[0] == 0 && p[1] == 0);
      }
  CHECK(bad == 0);
  clReleaseMemObject(img);
  clReleaseMemObject(b);

  cl_image_format u8 = {CL_R, CL_UNSIGNED_INT8};
  d = make_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 10, 0, 0, 4);
  img = clCreateImage(env.context, 0, &u8, &d, NULL, &err);
  const unsigned k0[4] = {0}, k1[4] = {9, 0, 0, 0};
  const size_t ao[3] = {3, 1, 0}, ar[3] = {5, 2, 1}, aall[3] = {10, 4, 1};
  CHECK_OK(clEnqueueFillImage(env.queue, img, k0, zero, aall, 0, NULL, NULL));
  CHECK_OK(clEnqueueFillImage(env.queue, img, k1, ao, ar, 0, NULL, NULL));
  unsigned char g8[40];
  CHECK_OK(clEnqueueReadImage(env.queue, img, CL_TRUE, zero, aall, 0, 0, g8, 0, NULL, NULL));
  bad = 0;
  for (int l = 0; l < 4; l++)
    for (int x = 0; x < 10; x++)
      bad += g8[l * 10 + x] != ((l >= 1 && l < 3 && x >= 3 && x < 8) ? 9 : 0);
  CHECK(bad == 0);
  /* errors */
  CHECK_ERR(clEnqueueFillImage(env.queue, img, NULL, ao, ar, 0, NULL, NULL), CL_INVALID_VALUE);
  const size_t ar_bad[3] = {5, 2, 2}, ao_bad[3] = {3, 3, 0};
  CHECK_ERR(clEnqueueFillImage(env.queue, img, k1, ao, ar_bad, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillImage(env.queue, img, k1, ao_bad, ar, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillImage(env.queue, img, k1, NULL, ar, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillImage(env.queue, img, k1, ao, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillImage((cl_command_queue)junk, img, k1, ao, ar, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueFillImage(other_queue, img, k1, ao, ar, 0, NULL, NULL), CL_INVALID_CONTEXT);
  cl_mem buf = clCreateBuffer(env.context, 0, 64, NULL, &err);
  CHECK_ERR(clEnqueueFillImage(env.queue, buf, k1, ao, ar, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueFillImage(env.queue, img, k1, ao, ar, 0, (cl_event *)&buf, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  clReleaseMemObject(buf);
  clReleaseMemObject(img);
}

/* Many fill colours through a one-pixel image per format: the encoding of
 * every value (half rounding ties, subnormals, overflow; normalised
 * rounding and saturation) against the host reference. */
static void test_fill_sweep(void) {
  const cl_image_format formats[] = {{CL_R, CL_HALF_FLOAT}, {CL_R, CL_UNORM_INT8},
                                     {CL_R, CL_SNORM_INT8},  {CL_R, CL_UNORM_INT16},
                                     {CL_R, CL_SNORM_INT16}, {CL_RGB, CL_UNORM_INT_101010}};
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE1D, 1, 0, 0, 0);
  const size_t org[3] = {0, 0, 0}, one[3] = {1, 1, 1};
  for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
    cl_int err;
    cl_mem img = clCreateImage(env.context, 0, &formats[f], &d, NULL, &err);
    CHECK_OK(err);
    int bad = 0;
    for (int i = 0; i < 3000; i++) {
      float v;
      if (formats[f].image_channel_data_type == CL_HALF_FLOAT) {
        uint16_t h = (uint16_t)rnd(0x7c00);
        if (i % 3 == 0) /* halfway between two halves: ties go to even */
          v = (half_to_float(h) + half_to_float((uint16_t)(h + 1))) / 2;
        else if (i % 3 == 1) /* anything from below the subnormals to beyond the range */
          v = ldexpf((float)(rnd(1u << 24) | (1u << 23)), (int)rnd(48) - 50);
        else
          v = half_to_float(h) * (1.0f + (float)rnd(2000) / 1e6f);
        if (rnd(2))
          v = -v;
      } else {
        v = i % 2 ? (float)rnd(70000) / 65535.0f : (float)rnd(1000) / 400.0f - 1.25f;
      }
      const float color[4] = {v, v, v, v};
      unsigned char got[4] = {0}, want[4] = {0};
      ref_encode(formats[f], color, want);
      if (clEnqueueFillImage(env.queue, img, color, org, one, 0, NULL, NULL) != CL_SUCCESS ||
          clEnqueueReadImage(env.queue, img, CL_TRUE, org, one, 0, 0, got, 0, NULL, NULL) !=
              CL_SUCCESS ||
          memcmp(got, want, sizeof got) != 0) {
        if (bad++ < 3)
          fprintf(stderr, "fill of %a in format 0x%x: got %02x%02x%02x%02x, want %02x%02x%02x%02x\n",
                  (double)v, formats[f].image_channel_data_type, got[3], got[2], got[1], got[0],
                  want[3], want[2], want[1], want[0]);
      }
    }
    CHECK(bad == 0);
    clReleaseMemObject(img);
  }
}

/* ---------- maps ---------- */

static void test_maps(void) {
  cl_int err;
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0);
  struct model m;
  cl_mem img = image_with_model(CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, &m);
  (void)d;
  size_t rp = 0, sp = 99;
  /* disjoint rectangles may both be mapped for writing, though their rows
   * interleave in memory */
  const size_t lo[3] = {0, 0, 0}, lr[3] = {8, 8, 1}, ro[3] = {8, 0, 0};
  unsigned char *a = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_WRITE, lo, lr, &rp, &sp, 0,
                                       NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(rp == 16 * 4 && sp == 0);
  unsigned char *b = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                       ro, lr, &rp, NULL, 0, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(b == a + 8 * 4);
  /* an overlapping map for writing is refused; for reading it is fine */
  const size_t mo[3] = {7, 3, 0}, mr[3] = {2, 1, 1};
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_WRITE, mo, mr, &rp, NULL, 0, NULL, NULL,
                          &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  unsigned char *c = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, mo, mr, &rp, NULL, 0,
                                       NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(c == a + 3 * 64 + 7 * 4);
  CHECK(memcmp(c, model_at(&m, 7, 3, 0), 8) == 0);
  cl_uint count = 0;
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  CHECK(count == 3);
  for (int y = 0; y < 8; y++) {
    memset(a + y * 64, y, 32);
    memset(b + y * 64, 100 + y, 32);
    memset(model_at(&m, 0, (size_t)y, 0), y, 32);
    memset(model_at(&m, 8, (size_t)y, 0), 100 + y, 32);
  }
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, a, 0, NULL, NULL));
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, b, 0, NULL, NULL));
  CHECK_ERR(clEnqueueUnmapMemObject(env.queue, img, b, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_event ev;
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, c, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_UNMAP_MEM_OBJECT);
  clReleaseEvent(ev);
  CHECK(image_matches(img, &m));

  /* a non-blocking map behind a user event */
  cl_event gate = clCreateUserEvent(env.context, &err);
  void *p = clEnqueueMapImage(env.queue, img, CL_FALSE, CL_MAP_READ, lo, lr, &rp, NULL, 1, &gate,
                              &ev, &err);
  CHECK_OK(err);
  cl_int st = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK(st != CL_COMPLETE);
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_MAP_IMAGE);
  CHECK_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &ev));
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, p, 0, NULL, NULL));
  clReleaseEvent(ev);
  clReleaseEvent(gate);

  /* errors */
  const size_t big[3] = {17, 1, 1}, z2[3] = {0, 0, 1}, r2[3] = {1, 1, 2};
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, big, &rp, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, z2, lr, &rp, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, r2, &rp, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, lr, NULL, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, 0x100, lo, lr, &rp, NULL, 0, NULL, NULL,
                          &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                          lo, lr, &rp, NULL, 0, NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, NULL, lr, &rp, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage((cl_command_queue)junk, img, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 0,
                          NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueMapImage(other_queue, img, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 0, NULL,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clEnqueueMapImage(env.queue, (cl_mem)junk, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 0,
                          NULL, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 1, NULL, NULL,
                          &err) == NULL);
  CHECK_ERR(err, CL_INVALID_EVENT_WAIT_LIST);
  /* a blocking map behind a failed event */
  cl_event failed = clCreateUserEvent(env.context, &err);
  CHECK_OK(clSetUserEventStatus(failed, -1));
  CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 1, &failed,
                          NULL, &err) == NULL);
  CHECK_ERR(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(failed);
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  CHECK(count == 0);
  clReleaseMemObject(img);
  free(m.px);

  /* image_slice_pitch may be NULL only for 1D and 2D images */
  const cl_mem_object_type sliced[] = {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                       CL_MEM_OBJECT_IMAGE2D_ARRAY};
  for (int i = 0; i < 3; i++) {
    d = make_desc(sliced[i], 4, 4, 4, 4);
    img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
    const size_t one[3] = {1, 1, 1};
    CHECK(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, one, &rp, NULL, 0, NULL,
                            NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    p = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, one, &rp, &sp, 0, NULL, NULL,
                          &err);
    CHECK_OK(err);
    CHECK(sp == (sliced[i] == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 16u : 64u));
    CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, p, 0, NULL, NULL));
    clReleaseMemObject(img);
  }
  d = make_desc(CL_MEM_OBJECT_IMAGE1D, 4, 0, 0, 0);
  img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
  const size_t one[3] = {1, 1, 1};
  p = clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, lo, one, &rp, NULL, 0, NULL, NULL,
                        &err);
  CHECK_OK(err);
  CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, p, 0, NULL, NULL));
  clReleaseMemObject(img);

  /* host access flags */
  d = make_desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  const cl_mem_flags hf[] = {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                             CL_MEM_HOST_NO_ACCESS};
  for (int i = 0; i < 3; i++) {
    img = clCreateImage(env.context, hf[i], &rgba8, &d, NULL, &err);
    cl_int er, ew, ei;
    const cl_map_flags mfl[3] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION};
    cl_int *errs[3] = {&er, &ew, &ei};
    for (int k = 0; k < 3; k++) {
      void *mp = clEnqueueMapImage(env.queue, img, CL_TRUE, mfl[k], lo, one, &rp, NULL, 0, NULL,
                                   NULL, errs[k]);
      CHECK((mp != NULL) == (*errs[k] == CL_SUCCESS));
      if (mp)
        CHECK_OK(clEnqueueUnmapMemObject(env.queue, img, mp, 0, NULL, NULL));
    }
    CHECK_ERR(er, hf[i] == CL_MEM_HOST_READ_ONLY ? CL_SUCCESS : CL_INVALID_OPERATION);
    CHECK_ERR(ew, hf[i] == CL_MEM_HOST_WRITE_ONLY ? CL_SUCCESS : CL_INVALID_OPERATION);
    CHECK_ERR(ei, hf[i] == CL_MEM_HOST_WRITE_ONLY ? CL_SUCCESS : CL_INVALID_OPERATION);
    unsigned char px[4] = {0};
    CHECK_ERR(clEnqueueReadImage(env.queue, img, CL_TRUE, lo, one, 0, 0, px, 0, NULL, NULL),
              hf[i] == CL_MEM_HOST_READ_ONLY ? CL_SUCCESS : CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteImage(env.queue, img, CL_TRUE, lo, one, 0, 0, px, 0, NULL, NULL),
              hf[i] == CL_MEM_HOST_WRITE_ONLY ? CL_SUCCESS : CL_INVALID_OPERATION);
    clReleaseMemObject(img);
  }
  CHECK_OK(clFinish(env.queue));
}

/* ---------- read and write errors ---------- */

static void test_transfer_errors(void) {
  cl_int err;
  cl_image_desc d = make_desc(CL_MEM_OBJECT_IMAGE2D, 8, 4, 0, 0);
  cl_mem img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
  cl_mem buf = clCreateBuffer(env.context, 0, 1024, NULL, &err);
  cl_mem other_img = clCreateImage(other_ctx, 0, &rgba8, &d, NULL, &err);
  unsigned char host[1024];
  const size_t o[3] = {0, 0, 0}, r[3] = {8, 4, 1};
  for (int w = 0; w < 2; w++) {
#define XFER(q, m, org, reg, row, slice, ptr, n, list)                                          \
  (w ? clEnqueueWriteImage((q), (m), CL_TRUE, (org), (reg), (row), (slice), (ptr), (n), (list), \
                           NULL)                                                                \
     : clEnqueueReadImage((q), (m), CL_TRUE, (org), (reg), (row), (slice), (ptr), (n), (list),  \
                          NULL))
    CHECK_OK(XFER(env.queue, img, o, r, 0, 0, host, 0, NULL));
    CHECK_OK(XFER(env.queue, img, o, r, 40, 0, host, 0, NULL));
    CHECK_ERR(XFER((cl_command_queue)junk, img, o, r, 0, 0, host, 0, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(XFER(NULL, img, o, r, 0, 0, host, 0, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(XFER(env.queue, buf, o, r, 0, 0, host, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(XFER(env.queue, (cl_mem)junk, o, r, 0, 0, host, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(XFER(env.queue, NULL, o, r, 0, 0, host, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(XFER(env.queue, other_img, o, r, 0, 0, host, 0, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(XFER(env.queue, img, NULL, r, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, NULL, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 0, NULL, 0, NULL), CL_INVALID_VALUE);
    const size_t r0[3] = {0, 4, 1}, r9[3] = {9, 4, 1}, rz[3] = {8, 4, 2}, o1[3] = {1, 0, 0},
                 oz[3] = {0, 0, 1}, oy[3] = {0, (size_t)-1, 0};
    CHECK_ERR(XFER(env.queue, img, o, r0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, r9, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o1, r, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, rz, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, oz, r, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, oy, r, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, r, 31, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 128, host, 0, NULL), CL_INVALID_VALUE); /* 2D: 0 */
    /* a host rectangle that wraps the address space */
    CHECK_ERR(XFER(env.queue, img, o, r, (size_t)-1 / 2, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 0, host, 1, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event none = NULL;
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 0, host, 0, &none), CL_INVALID_EVENT_WAIT_LIST);
    cl_event foreign = clCreateUserEvent(other_ctx, &err);
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 0, host, 1, &foreign), CL_INVALID_CONTEXT);
    CHECK_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
    clReleaseEvent(foreign);
    cl_event failed = clCreateUserEvent(env.context, &err);
    CHECK_OK(clSetUserEventStatus(failed, -5));
    CHECK_ERR(XFER(env.queue, img, o, r, 0, 0, host, 1, &failed),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(failed);
#undef XFER
  }
  /* slice pitches of arrays and 3D images */
  cl_image_desc d3 = make_desc(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0);
  cl_mem i3 = clCreateImage(env.context, 0, &rgba8, &d3, NULL, &err);
  const size_t r3[3] = {4, 3, 2};
  CHECK_ERR(clEnqueueWriteImage(env.queue, i3, CL_TRUE, o, r3, 16, 47, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clEnqueueWriteImage(env.queue, i3, CL_TRUE, o, r3, 16, 48, host, 0, NULL, NULL));
  cl_image_desc d1a = make_desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 3);
  cl_mem i1a = clCreateImage(env.context, 0, &rgba8, &d1a, NULL, &err);
  const size_t r1a[3] = {4, 3, 1};
  CHECK_ERR(clEnqueueReadImage(env.queue, i1a, CL_TRUE, o, r1a, 20, 19, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clEnqueueReadImage(env.queue, i1a, CL_TRUE, o, r1a, 20, 0, host, 0, NULL, NULL));
  const size_t r1a2[3] = {4, 3, 2};
  CHECK_ERR(clEnqueueReadImage(env.queue, i1a, CL_TRUE, o, r1a2, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
  clReleaseMemObject(i3);
  clReleaseMemObject(i1a);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
  clReleaseMemObject(other_img);
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

/* ---------- samplers ---------- */

static void test_samplers(void) {
  cl_int err = 1;
  cl_sampler s = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  CHECK_OK(err);
  cl_bool norm = 0;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  cl_context c = NULL;
  cl_uint refs = 0;
  size_t sz = 1;
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_TRUE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_REPEAT);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(fm == CL_FILTER_LINEAR);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL));
  CHECK(c == env.context);
  CHECK_OK(clRetainSampler(s));
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_OK(clReleaseSampler(s));
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &sz));
  CHECK(sz == 0);
  CHECK_ERR(clGetSamplerInfo(s, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, 1, &fm, NULL), CL_INVALID_VALUE);
  CHECK_OK(clReleaseSampler(s));

  const cl_sampler_properties good[] = {
      CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
      CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  s = clCreateSamplerWithProperties(env.context, good, &err);
  CHECK_OK(err);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_FALSE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_MIRRORED_REPEAT);
  cl_sampler_properties props[8] = {0};
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof props, props, &sz));
  CHECK(sz == sizeof good && memcmp(props, good, sizeof good) == 0);
  clReleaseSampler(s);
  /* defaults: normalized, clamp, nearest */
  s = clCreateSamplerWithProperties(env.context, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_TRUE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_CLAMP);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(fm == CL_FILTER_NEAREST);
  clReleaseSampler(s);
  const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                      CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  for (int i = 0; i < 5; i++) {
    s = clCreateSampler(env.context, CL_FALSE, modes[i], CL_FILTER_NEAREST, &err);
    CHECK_OK(err);
    clReleaseSampler(s);
  }
  s = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, NULL);
  CHECK(s != NULL);
  clReleaseSampler(s);

  /* errors */
  CHECK(clCreateSampler((cl_context)junk, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(env.context, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, 0x9999, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSamplerWithProperties((cl_context)junk, good, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  const cl_sampler_properties bad[][5] = {
      {0x7777, 1, 0},
      {CL_SAMPLER_NORMALIZED_COORDS, 3, 0},
      {CL_SAMPLER_ADDRESSING_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0},
      {CL_SAMPLER_MIP_FILTER_MODE, CL_FILTER_LINEAR, 0}, /* cl_khr_mipmap_image only */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err = 1;
    CHECK(clCreateSamplerWithProperties(env.context, bad[i], &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  CHECK_ERR(clRetainSampler((cl_sampler)junk), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler((cl_sampler)env.context), CL_INVALID_SAMPLER);
  CHECK_ERR(clGetSamplerInfo((cl_sampler)junk, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL),
            CL_INVALID_SAMPLER);
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
  other_queue = clCreateCommandQueueWithProperties(other_ctx, env.device, NULL, &err);
  CHECK_OK(err);

  test_supported_formats();
  test_create_and_transfer();
  test_legacy_create();
  test_image1d_buffer();
  test_image2d_from_buffer();
  test_image_from_image();
  test_copies();
  test_fills();
  test_fill_sweep();
  test_maps();
  test_transfer_errors();
  test_create_errors();
  test_samplers();

  clReleaseCommandQueue(other_queue);
  clReleaseContext(other_ctx);
  test_env_release(&env);
  return test_finish("test_image_api");
}
