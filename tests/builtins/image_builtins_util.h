/* Shared pieces of the image builtin tests (test_builtins_image_read.c and
 * test_builtins_image_write.c): the formats and image shapes tested, random
 * pixels, images created through the API from them, the get_image_* queries
 * (run on the images of both), and the comparison of results with the host
 * reference tests/image_ref.h, whose failures are tallied by kind.
 * Header-only (static inline); what the helpers use of a test program (its
 * environment, random numbers, failure tally) is its struct image_test,
 * passed to them. */
#ifndef LOOM_TEST_IMAGE_BUILTINS_UTIL_H
#define LOOM_TEST_IMAGE_BUILTINS_UTIL_H
#include "harness.h"
#include "image_ref.h"
#include <math.h>

/* failures per kind of check, summed up at the end with the first format
 * each was seen with */
struct tally {
  char what[48];
  cl_image_format first;
  int count;
};

/* one test program's state */
struct image_test {
  struct test_env env;
  uint64_t rng;
  cl_image_format formats[160]; /* list_formats */
  int num_formats;
  bool have_depth;
  cl_program query_prog;
  struct tally tally[64];
  int num_tally;
  int reported; /* failures printed so far */
};

static inline uint32_t rnd(struct image_test *ctx) {
  return (uint32_t)(test_xorshift64(&ctx->rng) >> 16);
}
static inline int rnd_int(struct image_test *ctx, int lo, int hi) {
  return lo + (int)(rnd(ctx) % (uint32_t)(hi - lo + 1));
}
static inline float rnd_unit(struct image_test *ctx) {
  return (float)(rnd(ctx) & 0xffffff) / 16777216.0f;
}

/* ------------------------------------------------------------------ */
/* formats and image shapes                                           */
/* ------------------------------------------------------------------ */

static inline void add_format(struct image_test *ctx, cl_channel_order o,
                              cl_channel_type t) {
  ctx->formats[ctx->num_formats].image_channel_order = o;
  ctx->formats[ctx->num_formats].image_channel_data_type = t;
  ctx->num_formats++;
}

/* the formats LoomCL supports */
static inline void list_formats(struct image_test *ctx) {
  static const cl_channel_type regular[] = {
      CL_SNORM_INT8,    CL_SNORM_INT16,    CL_UNORM_INT8,     CL_UNORM_INT16, CL_SIGNED_INT8,
      CL_SIGNED_INT16,  CL_SIGNED_INT32,   CL_UNSIGNED_INT8,  CL_UNSIGNED_INT16,
      CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  static const cl_channel_order regular_orders[] = {CL_R,    CL_A,  CL_RG, CL_RA,
                                                    CL_RGBA, CL_Rx, CL_RGx};
  static const cl_channel_type lum[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                                        CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT};
  static const cl_channel_type packed[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555,
                                           CL_UNORM_INT_101010};
  static const cl_channel_type bytes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8,
                                          CL_UNSIGNED_INT8};
  for (size_t o = 0; o < 7; o++)
    for (size_t t = 0; t < 12; t++)
      add_format(ctx, regular_orders[o], regular[t]);
  for (size_t t = 0; t < 6; t++) {
    add_format(ctx, CL_INTENSITY, lum[t]);
    add_format(ctx, CL_LUMINANCE, lum[t]);
  }
  for (size_t t = 0; t < 3; t++) {
    add_format(ctx, CL_RGB, packed[t]);
    add_format(ctx, CL_RGBx, packed[t]);
  }
  add_format(ctx, CL_RGBA, CL_UNORM_INT_101010_2);
  for (size_t t = 0; t < 4; t++) {
    add_format(ctx, CL_ARGB, bytes[t]);
    add_format(ctx, CL_BGRA, bytes[t]);
    add_format(ctx, CL_ABGR, bytes[t]);
  }
  add_format(ctx, CL_sRGB, CL_UNORM_INT8);
  add_format(ctx, CL_sRGBx, CL_UNORM_INT8);
  add_format(ctx, CL_sRGBA, CL_UNORM_INT8);
  add_format(ctx, CL_sBGRA, CL_UNORM_INT8);
  add_format(ctx, CL_DEPTH, CL_UNORM_INT16);
  add_format(ctx, CL_DEPTH, CL_FLOAT);
}

struct shape {
  cl_mem_object_type type;
  int w, h, d, layers;
  const char *name; /* kernel name part */
  bool depth;       /* image2d_depth_t, image2d_array_depth_t */
};

static const struct shape shapes[] = {
    {CL_MEM_OBJECT_IMAGE1D, 7, 1, 1, 1, "1d", false},
    {CL_MEM_OBJECT_IMAGE1D_BUFFER, 9, 1, 1, 1, "1db", false},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 1, 1, 3, "1da", false},
    {CL_MEM_OBJECT_IMAGE2D, 5, 4, 1, 1, "2d", false},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 3, 1, 3, "2da", false},
    {CL_MEM_OBJECT_IMAGE3D, 4, 3, 3, 1, "3d", false},
    {CL_MEM_OBJECT_IMAGE2D, 5, 4, 1, 1, "d2d", true},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 3, 1, 3, "d2da", true},
};
#define NUM_SHAPES (sizeof shapes / sizeof *shapes)

static inline bool shape_takes(const struct shape *s, const cl_image_format *f) {
  return s->depth == (f->image_channel_order == CL_DEPTH);
}

/* the kernel family of a format: f (read_imagef), i, u */
static inline char format_class(const cl_image_format *f) {
  return ref_is_int(f->image_channel_data_type)    ? 'i'
         : ref_is_uint(f->image_channel_data_type) ? 'u'
                                                   : 'f';
}

static inline const char *format_name(const cl_image_format *f) {
  static char buf[64];
  snprintf(buf, sizeof buf, "order 0x%x type 0x%x", (unsigned)f->image_channel_order,
           (unsigned)f->image_channel_data_type);
  return buf;
}

/* ------------------------------------------------------------------ */
/* images                                                             */
/* ------------------------------------------------------------------ */

/* one finite value of the channel type (bits), spread over the range */
static inline uint64_t random_channel(struct image_test *ctx, cl_channel_type t) {
  if (t == CL_HALF_FLOAT) {
    uint16_t h = (uint16_t)rnd(ctx);
    if (((h >> 10) & 31) == 31) /* no infinities or NaNs */
      h &= (uint16_t)~0x4000;
    return h;
  }
  if (t == CL_FLOAT) {
    float f = (rnd_unit(ctx) * 16.0f - 8.0f) * (rnd(ctx) % 4 == 0 ? 1e-3f : 1.0f);
    if (rnd(ctx) % 16 == 0)
      f = rnd(ctx) % 2 ? 0.0f : -0.0f;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
  }
  return ((uint64_t)rnd(ctx) << 32) | rnd(ctx);
}

/* random pixels for im (tight) */
static inline uint8_t *random_pixels(struct image_test *ctx, const struct ref_image *im) {
  size_t ps = ref_pixel_size(im), n = ref_num_pixels(im);
  uint8_t *data = malloc(ps * n);
  cl_channel_type t = im->format.image_channel_data_type;
  int size = ref_channel_size(t);
  for (size_t p = 0; p < n; p++) {
    uint8_t *px = data + p * ps;
    if (size == 0) {
      ref_store_int(px, (int)ps, random_channel(ctx, t));
      continue;
    }
    for (size_t c = 0; c < ps / (size_t)size; c++)
      ref_store_int(px + c * (size_t)size, size, random_channel(ctx, t));
  }
  return data;
}

/* the reference description of an image of shape s and format f (no data
 * yet), with the spec's channel layout */
static inline struct ref_image ref_of(const struct shape *s, const cl_image_format *f) {
  struct ref_image im;
  memset(&im, 0, sizeof im);
  im.type = s->type;
  im.format = *f;
  im.layout = ref_order_layout(f->image_channel_order);
  im.width = s->w;
  im.height = s->h;
  im.depth = s->d;
  im.array_size = s->layers;
  return im;
}

/* an image of im's shape and format holding im->data (flags: its access);
 * *buffer receives the buffer of a 1D image buffer */
static inline cl_mem create_image(struct test_env *env, const struct ref_image *im,
                                  cl_mem_flags flags, cl_mem *buffer) {
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = im->type;
  desc.image_width = (size_t)im->width;
  desc.image_height = ref_dims(im->type) > 1 ? (size_t)im->height : 0;
  desc.image_depth = im->type == CL_MEM_OBJECT_IMAGE3D ? (size_t)im->depth : 0;
  desc.image_array_size = ref_layer_coord(im->type) >= 0 ? (size_t)im->array_size : 0;
  cl_int err;
  *buffer = NULL;
  size_t bytes = ref_pixel_size(im) * ref_num_pixels(im);
  if (im->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    *buffer = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                             (void *)im->data, &err);
    CHECK_OK(err);
    desc.buffer = *buffer;
    cl_mem m = clCreateImage(env->context, flags, &im->format, &desc, NULL, &err);
    CHECK_OK(err);
    return m;
  }
  cl_mem m = clCreateImage(env->context, flags | CL_MEM_COPY_HOST_PTR, &im->format, &desc,
                           (void *)im->data, &err);
  if (err != CL_SUCCESS)
    fprintf(stderr, "clCreateImage %s, type 0x%x: %d\n", format_name(&im->format),
            (unsigned)im->type, err);
  CHECK_OK(err);
  return m;
}

static inline void release(cl_mem m) {
  if (m)
    clReleaseMemObject(m);
}

/* A new image of shape s and format f from random pixels: *im describes it
 * (its data, to free, in *data), *buffer is the buffer of a 1D image
 * buffer. CL_IMAGE_ELEMENT_SIZE must be the reference's pixel size. NULL on
 * failure. */
static inline cl_mem open_image(struct image_test *ctx, const struct shape *s,
                                const cl_image_format *f, cl_mem_flags flags,
                                struct ref_image *im, uint8_t **data, cl_mem *buffer) {
  *im = ref_of(s, f);
  *data = random_pixels(ctx, im);
  im->data = *data;
  cl_mem img = create_image(&ctx->env, im, flags, buffer);
  size_t element = 0;
  if (img)
    CHECK_OK(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, NULL));
  if (img && element == ref_pixel_size(im))
    return img;
  CHECK(element == ref_pixel_size(im));
  release(img);
  release(*buffer);
  *buffer = NULL;
  free(*data);
  *data = NULL;
  return NULL;
}

/* Runs k on n work-items and waits for it. false, a recorded failure, when
 * it could not run or did not complete (a kernel that faults, for example
 * by touching memory outside an image, ends with an error status). */
static inline bool launch(struct test_env *env, cl_kernel k, size_t n) {
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &n, NULL, 0, NULL, &ev);
  CHECK_OK(err);
  if (err != CL_SUCCESS)
    return false;
  clWaitForEvents(1, &ev);
  cl_int status = CL_QUEUED;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  clReleaseEvent(ev);
  CHECK(status == CL_COMPLETE);
  return status == CL_COMPLETE;
}

/* the kernel <prefix>_<shape>_<class> of p (NULL, a recorded failure, if absent) */
static inline cl_kernel kernel_of(cl_program p, const char *prefix, const struct shape *s,
                                  char cls) {
  char name[64];
  snprintf(name, sizeof name, "%s_%s_%c", prefix, s->name, cls);
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  return err == CL_SUCCESS ? k : NULL;
}

/* ------------------------------------------------------------------ */
/* comparisons                                                        */
/* ------------------------------------------------------------------ */

#define REPORT_MAX 60 /* failures printed */

/* counts a failure; true for the first few of its kind (to be shown) */
static inline bool count_failure(struct image_test *ctx, const char *what,
                                 const cl_image_format *f) {
  for (int i = 0; i < ctx->num_tally; i++)
    if (!strncmp(ctx->tally[i].what, what, sizeof ctx->tally[i].what - 1))
      return ++ctx->tally[i].count <= 3;
  if (ctx->num_tally < 64) {
    struct tally *t = &ctx->tally[ctx->num_tally++];
    /* cut to what[]: as long as the comparison above */
    snprintf(t->what, sizeof t->what, "%.*s", (int)sizeof t->what - 1, what);
    t->first = *f;
    t->count = 1;
  }
  return true;
}

static inline void report(struct image_test *ctx, const char *what, const struct ref_image *im,
                          unsigned smp, int p, const float *coord, const int *icoord,
                          const char *got, const char *want) {
  test_checks++;
  test_failures++;
  if (!count_failure(ctx, what, &im->format) || ctx->reported++ >= REPORT_MAX)
    return;
  fprintf(stderr, "%s: %s, type 0x%x, sampler 0x%x, point %d", what, format_name(&im->format),
          (unsigned)im->type, smp, p);
  if (coord)
    fprintf(stderr, " (%.9g, %.9g, %.9g, %.9g)", coord[0], coord[1], coord[2], coord[3]);
  if (icoord)
    fprintf(stderr, " (%d, %d, %d, %d)", icoord[0], icoord[1], icoord[2], icoord[3]);
  fprintf(stderr, ": got %s, want %s\n", got, want);
}

/* got == want, or within tol relative to scale (at least 1) */
static inline bool near_float(float got, float want, float tol, float scale) {
  if (isnan(want))
    return isnan(got);
  if (tol == 0.0f)
    return got == want;
  return fabsf(got - want) <= tol * (1.0f + scale);
}

static inline bool same_float(float got, float want, float tol) {
  return near_float(got, want, tol, fabsf(want));
}

static inline void fmt4f(char *buf, size_t n, const float *v, int count) {
  if (count == 1)
    snprintf(buf, n, "%.9g", v[0]);
  else
    snprintf(buf, n, "(%.9g, %.9g, %.9g, %.9g)", v[0], v[1], v[2], v[3]);
}

/* compares count (4, or 1 for depth) components of a read_imagef result;
 * mag: the scale of each component's rounding errors (NULL: |want|) */
static inline void check_f(struct image_test *ctx, const char *what, const struct ref_image *im,
                           unsigned smp, int p, const float *coord, const int *icoord,
                           const float *got, const float *want, const float *mag, int count,
                           float tol) {
  bool ok = true;
  for (int k = 0; k < count; k++)
    ok = ok && near_float(got[k], want[k], tol, mag ? mag[k] : fabsf(want[k]));
  if (ok) {
    test_checks++;
    return;
  }
  char g[128], w[128];
  fmt4f(g, sizeof g, got, count);
  fmt4f(w, sizeof w, want, count);
  report(ctx, what, im, smp, p, coord, icoord, g, w);
}

static inline void check_u(struct image_test *ctx, const char *what, const struct ref_image *im,
                           unsigned smp, int p, const float *coord, const int *icoord,
                           const uint32_t *got, const uint32_t *want) {
  if (!memcmp(got, want, 16)) {
    test_checks++;
    return;
  }
  char g[96], w[96];
  snprintf(g, sizeof g, "(%#x, %#x, %#x, %#x)", got[0], got[1], got[2], got[3]);
  snprintf(w, sizeof w, "(%#x, %#x, %#x, %#x)", want[0], want[1], want[2], want[3]);
  report(ctx, what, im, smp, p, coord, icoord, g, w);
}

/* read_imageh is read_imagef rounded to half */
static inline void check_h(struct image_test *ctx, const struct ref_image *im, unsigned smp,
                           int p, const uint16_t *got, const float *f) {
  for (int k = 0; k < 4; k++) {
    uint16_t want = half_from_ld((long double)f[k], H_RTE);
    if (got[k] == want || (half_is_nan(got[k]) && half_is_nan(want)))
      continue;
    char g[32], w[32];
    snprintf(g, sizeof g, "half %#x", got[k]);
    snprintf(w, sizeof w, "%#x (of %.9g)", want, f[k]);
    report(ctx, "read_imageh", im, smp, p, NULL, NULL, g, w);
    return;
  }
  test_checks++;
}

/* the tolerance of read_imagef with sampler bits smp: linear filtering and
 * the sRGB curve are computed differently by the reference */
static inline float tolerance(const struct ref_image *im, unsigned smp) {
  if (smp & REF_LINEAR)
    return 3e-6f;
  return ref_is_srgb(im->format.image_channel_order) ? 1e-6f : 0.0f;
}

/* an undefined nearest read must still be a pixel of the image or the
 * border colour */
static inline bool is_some_pixel_f(const struct ref_image *im, const float *got, int count) {
  float px[4];
  float border[4] = {0, 0, 0, (float)ref_border_alpha(im->format.image_channel_order)};
  bool match = true;
  for (int k = 0; k < count; k++)
    match = match && same_float(got[k], border[k], 0.0f);
  if (match)
    return true;
  size_t ps = ref_pixel_size(im), n = ref_num_pixels(im);
  for (size_t i = 0; i < n; i++) {
    ref_pixel_f(im, im->data + i * ps, px);
    match = true;
    for (int k = 0; k < count; k++)
      match = match && same_float(got[k], px[k], 1e-6f);
    if (match)
      return true;
  }
  return false;
}

static inline bool is_some_pixel_u(const struct ref_image *im, const uint32_t *got) {
  uint32_t px[4];
  uint32_t border[4] = {0, 0, 0, (uint32_t)ref_border_alpha(im->format.image_channel_order)};
  if (!memcmp(got, border, 16))
    return true;
  size_t ps = ref_pixel_size(im), n = ref_num_pixels(im);
  for (size_t i = 0; i < n; i++) {
    ref_pixel_u(im, im->data + i * ps, px);
    if (!memcmp(got, px, 16))
      return true;
  }
  return false;
}

/* ------------------------------------------------------------------ */
/* queries                                                            */
/* ------------------------------------------------------------------ */

/* Queries: o[0..2] width, data type, order; o[3] height; o[4..5] dim;
 * o[6] array size; o[7] depth; o[8..9] dim.zw of 3D images (-1: none). */
static const char *query_src =
    "#define Q_ALL o[0] = get_image_width(img); o[1] = get_image_channel_data_type(img); \\\n"
    "  o[2] = get_image_channel_order(img);\n"
    "#define Q_2D o[3] = get_image_height(img); o[4] = get_image_dim(img).x; \\\n"
    "  o[5] = get_image_dim(img).y;\n"
    "#define Q_ARRAY o[6] = (int)get_image_array_size(img);\n"
    "#define Q_3D o[3] = get_image_height(img); o[7] = get_image_depth(img); \\\n"
    "  int4 d = get_image_dim(img); o[4] = d.x; o[5] = d.y; o[8] = d.z; o[9] = d.w;\n"
    "#define Q(N, ACC, IMG, MORE) \\\n"
    "kernel void q_##N##_##ACC(ACC IMG img, global int *o) { Q_ALL MORE }\n"
    "#define QA(N, IMG, MORE) Q(N, read_only, IMG, MORE) Q(N, write_only, IMG, MORE) \\\n"
    "  Q(N, read_write, IMG, MORE)\n"
    "QA(1d, image1d_t, )\n"
    "QA(1db, image1d_buffer_t, )\n"
    "QA(1da, image1d_array_t, Q_ARRAY)\n"
    "QA(2d, image2d_t, Q_2D)\n"
    "QA(2da, image2d_array_t, Q_2D Q_ARRAY)\n"
    "QA(3d, image3d_t, Q_3D)\n"
    "#ifdef cl_khr_depth_images\n"
    "QA(d2d, image2d_depth_t, Q_2D)\n"
    "QA(d2da, image2d_array_depth_t, Q_2D Q_ARRAY)\n"
    "#endif\n";

/* runs query kernel `kernel` on img (of shape `shape`) and checks o[] */
static inline void test_queries(struct image_test *ctx, const struct ref_image *im, cl_mem img,
                                const char *kernel, const char *shape) {
  struct test_env *env = &ctx->env;
  if (!ctx->query_prog)
    return;
  cl_int err;
  cl_kernel k = clCreateKernel(ctx->query_prog, kernel, &err);
  CHECK_OK(err);
  if (!k)
    return;
  int init[10];
  for (int i = 0; i < 10; i++)
    init[i] = -1;
  cl_mem o = test_buffer_with(env, sizeof init, init);
  CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK_OK(clSetKernelArg(k, 1, sizeof o, &o));
  launch(env, k, 1);
  int got[10];
  test_read_back(env, o, sizeof got, got);
  int want[10];
  for (int i = 0; i < 10; i++)
    want[i] = -1;
  int dims = ref_dims(im->type);
  want[0] = im->width;
  want[1] = (int)im->format.image_channel_data_type;
  want[2] = (int)im->format.image_channel_order;
  if (dims > 1) {
    want[3] = im->height;
    want[4] = im->width;
    want[5] = im->height;
  }
  if (ref_layer_coord(im->type) >= 0)
    want[6] = im->array_size;
  if (dims == 3) {
    want[7] = im->depth;
    want[8] = im->depth;
    want[9] = 0;
  }
  for (int i = 0; i < 10; i++)
    if (got[i] != want[i]) {
      test_checks++;
      test_failures++;
      fprintf(stderr, "%s (%s, %s): o[%d] = %d, want %d\n", kernel, shape,
              format_name(&im->format), i, got[i], want[i]);
    } else {
      test_checks++;
    }
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

/* ------------------------------------------------------------------ */
/* programs                                                           */
/* ------------------------------------------------------------------ */

static inline cl_program build(struct image_test *ctx, const char *src) {
  return test_program_from(&ctx->env, src, "-cl-std=CL3.0");
}

/* Sets up a test program: its environment, the formats, the device's image
 * support (false without it: the program then only finishes) and the query
 * kernels. */
static inline bool image_test_init(struct image_test *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->rng = 0x2545f4914f6cdd1dull;
  test_env_init(&ctx->env);
  list_formats(ctx);

  cl_bool images = CL_FALSE;
  CHECK_OK(clGetDeviceInfo(ctx->env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images,
                           NULL));
  char ext[8192] = "";
  CHECK_OK(clGetDeviceInfo(ctx->env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  ctx->have_depth = strstr(ext, "cl_khr_depth_images") != NULL;
  CHECK(images);
  CHECK(ctx->have_depth);
  if (!images)
    return false;
  ctx->query_prog = build(ctx, query_src);
  return true;
}

/* Releases what image_test_init made, prints the failures per kind and the
 * summary; returns the exit status. */
static inline int image_test_finish(struct image_test *ctx, const char *name) {
  if (ctx->query_prog)
    clReleaseProgram(ctx->query_prog);
  for (int i = 0; i < ctx->num_tally; i++)
    fprintf(stderr, "%6d failures: %s (first: %s)\n", ctx->tally[i].count, ctx->tally[i].what,
            format_name(&ctx->tally[i].first));
  test_env_release(&ctx->env);
  return test_finish(name);
}

#endif
