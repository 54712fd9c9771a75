/* Shared pieces of the image API tests (test_image_create.c and
 * test_image_commands.c): random data, image descriptors, and a host model
 * of an image's pixels that reads, writes, copies, fills and maps are
 * checked byte-exactly against. Header-only (static inline); what the
 * helpers use of a test program (its queue, its random number state) is
 * passed to them. */
#ifndef LOOM_TEST_IMAGE_API_UTIL_H
#define LOOM_TEST_IMAGE_API_UTIL_H
#include "harness.h"

static inline size_t rnd(uint64_t *rng, size_t n) { return (size_t)(test_xorshift64(rng) % n); }

static inline void fill_random(uint64_t *rng, void *p, size_t n) {
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    b[i] = (unsigned char)rnd(rng, 256);
}

static inline cl_image_desc make_desc(cl_mem_object_type type, size_t w, size_t h, size_t d,
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

static inline void model_init(struct model *m, const cl_image_desc *d, size_t ps) {
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

static inline unsigned char *model_at(struct model *m, size_t x, size_t y, size_t z) {
  return m->px + ((z * m->ext[1] + y) * m->ext[0] + x) * m->ps;
}

static inline size_t model_bytes(const struct model *m) {
  return m->ext[0] * m->ext[1] * m->ext[2] * m->ps;
}

/* Host memory of a rectangle: row y at ys * y, slice z at zs * z. */
static inline void model_put(struct model *m, const size_t org[3], const size_t reg[3],
                             const unsigned char *host, size_t ys, size_t zs) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(model_at(m, org[0], org[1] + y, org[2] + z), host + z * zs + y * ys,
             reg[0] * m->ps);
}

static inline void model_get(struct model *m, const size_t org[3], const size_t reg[3],
                             unsigned char *host, size_t ys, size_t zs) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(host + z * zs + y * ys, model_at(m, org[0], org[1] + y, org[2] + z),
             reg[0] * m->ps);
}

/* The host strides of a read or write of `type` with the given pitches, as
 * the spec defines their defaults (a 1D array's layers are slice_pitch
 * apart, row_pitch when that is 0). */
static inline void host_strides(cl_mem_object_type type, const size_t reg[3], size_t ps,
                                size_t row, size_t slice, size_t *ys, size_t *zs) {
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
static inline bool image_matches(cl_command_queue queue, cl_mem img, struct model *m) {
  size_t n = model_bytes(m);
  unsigned char *got = malloc(n);
  const size_t org[3] = {0, 0, 0};
  cl_int err = clEnqueueReadImage(queue, img, CL_TRUE, org, m->ext, 0, 0, got, 0, NULL, NULL);
  bool ok = err == CL_SUCCESS && memcmp(got, m->px, n) == 0;
  if (!ok)
    fprintf(stderr, "image differs from its model (read: %d)\n", err);
  free(got);
  return ok;
}

/* A random region inside the model and an origin for it. */
static inline void random_rect(uint64_t *rng, const struct model *m, size_t org[3],
                               size_t reg[3]) {
  for (int i = 0; i < 3; i++) {
    reg[i] = 1 + rnd(rng, m->ext[i]);
    org[i] = rnd(rng, m->ext[i] - reg[i] + 1);
  }
}

/* Writes a random rectangle with random host pitches, reads another back
 * with other pitches, and checks both against the model. */
static inline void random_write_read(cl_command_queue queue, uint64_t *rng, cl_mem img,
                                     struct model *m) {
  size_t org[3], reg[3], ys, zs;
  random_rect(rng, m, org, reg);
  bool has_slices = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                    m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE3D;
  size_t row = rnd(rng, 2) ? 0 : reg[0] * m->ps + rnd(rng, 3) * m->ps + rnd(rng, 2);
  size_t slice = 0;
  if (has_slices && rnd(rng, 2)) {
    size_t r = row ? row : reg[0] * m->ps;
    slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r + rnd(rng, 9) : r * reg[1] + rnd(rng, 9);
  }
  host_strides(m->type, reg, m->ps, row, slice, &ys, &zs);
  size_t hn = zs * reg[2] + ys * reg[1] + 16;
  unsigned char *host = malloc(hn);
  fill_random(rng, host, hn);
  CHECK_OK(clEnqueueWriteImage(queue, img, rnd(rng, 2), org, reg, row, slice, host, 0, NULL,
                               NULL));
  model_put(m, org, reg, host, ys, zs);
  CHECK_OK(clFinish(queue));
  free(host);

  random_rect(rng, m, org, reg);
  row = rnd(rng, 2) ? 0 : reg[0] * m->ps + rnd(rng, 5);
  slice = 0;
  if (has_slices && rnd(rng, 2)) {
    size_t r = row ? row : reg[0] * m->ps;
    slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r + rnd(rng, 7) : r * reg[1] + rnd(rng, 7);
  }
  host_strides(m->type, reg, m->ps, row, slice, &ys, &zs);
  hn = zs * reg[2] + ys * reg[1] + 16;
  unsigned char *got = malloc(hn), *want = malloc(hn);
  fill_random(rng, got, hn);
  memcpy(want, got, hn);
  cl_event ev;
  CHECK_OK(clEnqueueReadImage(queue, img, CL_FALSE, org, reg, row, slice, got, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_READ_IMAGE);
  clReleaseEvent(ev);
  model_get(m, org, reg, want, ys, zs);
  CHECK(memcmp(got, want, hn) == 0); /* including the padding left alone */
  free(got);
  free(want);
  CHECK(image_matches(queue, img, m));
}

/* Maps a random rectangle for writing, checks the returned pitches against
 * row_pitch and slice_pitch (and, for CL_MEM_USE_HOST_PTR images, that the
 * pointer lies in use_ptr; NULL otherwise), writes through the pitches,
 * unmaps and checks the image. */
static inline void map_write(cl_command_queue queue, uint64_t *rng, cl_mem img, struct model *m,
                             const unsigned char *use_ptr, size_t row_pitch, size_t slice_pitch) {
  size_t org[3], reg[3], rp = 0, sp = 0;
  random_rect(rng, m, org, reg);
  cl_int err;
  cl_event ev;
  bool has_slices = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                    m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE3D;
  unsigned char *p = clEnqueueMapImage(queue, img, CL_FALSE, CL_MAP_WRITE, org, reg, &rp,
                                       has_slices || rnd(rng, 2) ? &sp : NULL, 0, NULL, &ev, &err);
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
  fill_random(rng, data, n);
  size_t w = reg[0] * m->ps;
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      memcpy(p + z * zs + y * ys, data + (z * reg[1] + y) * w, w);
  model_put(m, org, reg, data, w, w * reg[1]);
  free(data);
  CHECK_OK(clEnqueueUnmapMemObject(queue, img, p, 0, NULL, NULL));
  CHECK_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  CHECK(count == 0);
  CHECK(image_matches(queue, img, m));
}

/* a size_t query of an image */
static inline size_t info_size(cl_mem img, cl_image_info p) {
  size_t v = 12345;
  CHECK_OK(clGetImageInfo(img, p, sizeof v, &v, NULL));
  return v;
}

/* a cl_uint query of a device */
static inline cl_uint device_uint(cl_device_id device, cl_device_info p) {
  cl_uint v = 0;
  clGetDeviceInfo(device, p, sizeof v, &v, NULL);
  return v;
}

#endif
