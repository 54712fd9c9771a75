/* Image commands through the API: copies between images and between images
 * and buffers, fills of many formats against an independent host encoding
 * (and a sweep of fill colours per format), maps, and the errors of the
 * reads and writes, checked byte-exactly against a host model of the
 * pixels. Creation is tested in test_image_create.c. */
#include "harness.h"
#include "half_ref.h"
#include "image_api_util.h"
#include <math.h>

static struct test_env env;
static cl_context other_ctx;
static cl_command_queue other_queue;
static char junk[256]; /* a pointer that is no OpenCL object */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* ---------- copies ---------- */

static cl_mem image_with_model(cl_mem_object_type type, size_t w, size_t h, size_t dd,
                               size_t arr, struct model *m) {
  cl_image_desc d = make_desc(type, w, h, dd, arr);
  cl_int err;
  cl_mem img = clCreateImage(env.context, 0, &rgba8, &d, NULL, &err);
  CHECK_OK(err);
  model_init(m, &d, 4);
  fill_random(&rng, m->px, model_bytes(m));
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
  CHECK(image_matches(env.queue, i1, &m1));
  CHECK(image_matches(env.queue, i1a, &m1a));
  CHECK(image_matches(env.queue, i2, &m2));
  CHECK(image_matches(env.queue, i2a, &m2a));
  CHECK(image_matches(env.queue, i3, &m3));
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
  fill_random(&rng, bref, bsize);
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
  CHECK(image_matches(env.queue, i1a, &m1a));
  const size_t ao[3] = {1, 1, 2}, ar[3] = {5, 6, 3}; /* 2D array layers */
  cl_event ev;
  CHECK_OK(clEnqueueCopyBufferToImage(env.queue, b, i2a, 1000, ao, ar, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  cl_command_type ct = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
  CHECK(ct == CL_COMMAND_COPY_BUFFER_TO_IMAGE);
  clReleaseEvent(ev);
  model_put(&m2a, ao, ar, bref + 1000, 5 * 4, 5 * 4 * 6);
  CHECK(image_matches(env.queue, i2a, &m2a));
  CHECK(image_matches(env.queue, i3, &m3));
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
  fill_random(&rng, m.px, model_bytes(&m));
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
  if (!image_matches(env.queue, img, &m)) {
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
        uint16_t h = (uint16_t)rnd(&rng, 0x7c00);
        if (i % 3 == 0) /* halfway between two halves: ties go to even */
          v = (half_to_float(h) + half_to_float((uint16_t)(h + 1))) / 2;
        else if (i % 3 == 1) /* anything from below the subnormals to beyond the range */
          v = ldexpf((float)(rnd(&rng, 1u << 24) | (1u << 23)), (int)rnd(&rng, 48) - 50);
        else
          v = half_to_float(h) * (1.0f + (float)rnd(&rng, 2000) / 1e6f);
        if (rnd(&rng, 2))
          v = -v;
      } else {
        v = i % 2 ? (float)rnd(&rng, 70000) / 65535.0f : (float)rnd(&rng, 1000) / 400.0f - 1.25f;
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
  CHECK(image_matches(env.queue, img, &m));

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

  test_copies();
  test_fills();
  test_fill_sweep();
  test_maps();
  test_transfer_errors();

  clReleaseCommandQueue(other_queue);
  clReleaseContext(other_ctx);
  test_env_release(&env);
  return test_finish("test_image_commands");
}
