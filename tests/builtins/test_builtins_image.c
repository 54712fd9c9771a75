/* Image builtins (OpenCL C 2.0, 6.13.14 and "Image Addressing and
 * Filtering"): images of every format LoomCL supports, of every type (1D,
 * 1D buffer, 1D array, 2D, 2D array, 3D, and 2D and 2D array depth
 * images), created through the API from random data, are
 * - read with every sampler (normalized coordinates or not, each
 *   addressing mode, nearest and linear filtering), with float coordinates
 *   and integer ones (in and out of range), and without a sampler, by
 *   read_image{f,i,ui} and read_imageh;
 * - written by write_image{f,i,ui,h}, in and out of range;
 * - read and written in one kernel through read_write images;
 * - queried by get_image_* with each access qualifier.
 * Results are compared with the host reference tests/image_ref.h: exactly
 * for nearest filtering, integer coordinates and writes, within a small
 * tolerance for linear filtering and sRGB. Reads the spec leaves undefined
 * (NaN or infinite coordinates, the repeating modes with unnormalized
 * coordinates) are checked only to return a pixel of the image or the
 * border colour (nearest) and not to crash. */
#include "harness.h"
#include "image_ref.h"
#include <math.h>

/* A read launch runs NPTS work-items on ordinary coordinates, then NWILD
 * on NaN, infinite and huge float coordinates (with ordinary integer ones). */
#define NPTS 64
#define NWILD 32
#define NALL (NPTS + NWILD)
#define NWRITE 48 /* work-items of a write launch */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void) { return (uint32_t)(test_xorshift64(&rng_state) >> 16); }
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static float rnd_unit(void) { return (float)(rnd() & 0xffffff) / 16777216.0f; }

/* ------------------------------------------------------------------ */
/* formats and image shapes                                           */
/* ------------------------------------------------------------------ */

static cl_image_format formats[160];
static int num_formats;

static void add_format(cl_channel_order o, cl_channel_type t) {
  formats[num_formats].image_channel_order = o;
  formats[num_formats].image_channel_data_type = t;
  num_formats++;
}

/* the formats LoomCL supports */
static void list_formats(void) {
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
      add_format(regular_orders[o], regular[t]);
  for (size_t t = 0; t < 6; t++) {
    add_format(CL_INTENSITY, lum[t]);
    add_format(CL_LUMINANCE, lum[t]);
  }
  for (size_t t = 0; t < 3; t++) {
    add_format(CL_RGB, packed[t]);
    add_format(CL_RGBx, packed[t]);
  }
  add_format(CL_RGBA, CL_UNORM_INT_101010_2);
  for (size_t t = 0; t < 4; t++) {
    add_format(CL_ARGB, bytes[t]);
    add_format(CL_BGRA, bytes[t]);
    add_format(CL_ABGR, bytes[t]);
  }
  add_format(CL_sRGB, CL_UNORM_INT8);
  add_format(CL_sRGBx, CL_UNORM_INT8);
  add_format(CL_sRGBA, CL_UNORM_INT8);
  add_format(CL_sBGRA, CL_UNORM_INT8);
  add_format(CL_DEPTH, CL_UNORM_INT16);
  add_format(CL_DEPTH, CL_FLOAT);
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

static bool shape_takes(const struct shape *s, const cl_image_format *f) {
  return s->depth == (f->image_channel_order == CL_DEPTH);
}

/* the kernel family of a format: f (read_imagef), i, u */
static char format_class(const cl_image_format *f) {
  return ref_is_int(f->image_channel_data_type)    ? 'i'
         : ref_is_uint(f->image_channel_data_type) ? 'u'
                                                   : 'f';
}

static const char *format_name(const cl_image_format *f) {
  static char buf[64];
  snprintf(buf, sizeof buf, "order 0x%x type 0x%x", (unsigned)f->image_channel_order,
           (unsigned)f->image_channel_data_type);
  return buf;
}

/* ------------------------------------------------------------------ */
/* kernels                                                            */
/* ------------------------------------------------------------------ */

/* Reads: o[3g] with the sampler and float coordinates, o[3g+1] with the
 * sampler and integer coordinates, o[3g+2] without a sampler; oh the same
 * through read_imageh. FC and IC pick the coordinate components the image
 * type takes. */
static const char *read_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define RD(NAME, IMG, T, F, HALF, FC, IC) \\\n"
    "kernel void NAME(read_only IMG img, sampler_t s, global const float4 *fc, \\\n"
    "                 global const int4 *ic, global T *o, global half4 *oh) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  o[3 * g] = F(img, s, fc[g].FC); \\\n"
    "  o[3 * g + 1] = F(img, s, ic[g].IC); \\\n"
    "  o[3 * g + 2] = F(img, ic[g].IC); \\\n"
    "  if (HALF) { \\\n"
    "    oh[3 * g] = read_imageh(img, s, fc[g].FC); \\\n"
    "    oh[3 * g + 1] = read_imageh(img, s, ic[g].IC); \\\n"
    "    oh[3 * g + 2] = read_imageh(img, ic[g].IC); } }\n"
    "#define RD3(N, IMG, FC, IC) RD(rd_##N##_f, IMG, float4, read_imagef, 1, FC, IC) \\\n"
    "  RD(rd_##N##_i, IMG, int4, read_imagei, 0, FC, IC) \\\n"
    "  RD(rd_##N##_u, IMG, uint4, read_imageui, 0, FC, IC)\n"
    "RD3(1d, image1d_t, x, x)\n"
    "RD3(1da, image1d_array_t, xy, xy)\n"
    "RD3(2d, image2d_t, xy, xy)\n"
    "RD3(2da, image2d_array_t, xyzw, xyzw)\n"
    "RD3(3d, image3d_t, xyzw, xyzw)\n"
    /* 1D image buffers: no sampler */
    "#define RDB(NAME, T, F, HALF) \\\n"
    "kernel void NAME(read_only image1d_buffer_t img, sampler_t s, global const float4 *fc, \\\n"
    "                 global const int4 *ic, global T *o, global half4 *oh) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  o[3 * g] = o[3 * g + 1] = o[3 * g + 2] = F(img, ic[g].x); \\\n"
    "  if (HALF) oh[3 * g] = oh[3 * g + 1] = oh[3 * g + 2] = \\\n"
    "    read_imageh(img, ic[g].x); }\n"
    "RDB(rd_1db_f, float4, read_imagef, 1)\n"
    "RDB(rd_1db_i, int4, read_imagei, 0)\n"
    "RDB(rd_1db_u, uint4, read_imageui, 0)\n"
    /* a program-scope and a kernel-scope constant sampler */
    "constant sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | \\\n"
    "  CLK_FILTER_LINEAR;\n"
    "kernel void rd_const_2d(read_only image2d_t img, global const float4 *fc, \\\n"
    "                        global const int4 *ic, global float4 *o) {\n"
    "  const sampler_t ks = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | \\\n"
    "    CLK_FILTER_NEAREST;\n"
    "  size_t g = get_global_id(0);\n"
    "  o[2 * g] = read_imagef(img, cs, fc[g].xy);\n"
    "  o[2 * g + 1] = read_imagef(img, ks, ic[g].xy); }\n";

/* the depth reads (cl_khr_depth_images) */
static const char *read_depth_src =
    "#define RDD(NAME, IMG, FC, IC) \\\n"
    "kernel void NAME(read_only IMG img, sampler_t s, global const float4 *fc, \\\n"
    "                 global const int4 *ic, global float *o, global half4 *oh) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  o[3 * g] = read_imagef(img, s, fc[g].FC); \\\n"
    "  o[3 * g + 1] = read_imagef(img, s, ic[g].IC); \\\n"
    "  o[3 * g + 2] = read_imagef(img, ic[g].IC); }\n"
    "RDD(rd_d2d_f, image2d_depth_t, xy, xy)\n"
    "RDD(rd_d2da_f, image2d_array_depth_t, xyzw, xyzw)\n";

/* Writes: work-item g writes v[g] at ic[g]; the f kernels write odd
 * work-items' colours through write_imageh. read_write kernels first read
 * the pixel they then write (o[g]; the odd f ones through read_imageh). */
static const char *write_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define WRF(NAME, ACC, IMG, IC) \\\n"
    "kernel void NAME(ACC IMG img, global const int4 *ic, global const float4 *v, \\\n"
    "                 global float4 *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  if (g & 1) write_imageh(img, ic[g].IC, convert_half4(v[g])); \\\n"
    "  else write_imagef(img, ic[g].IC, v[g]); }\n"
    "#define WR(NAME, ACC, IMG, T, F, IC) \\\n"
    "kernel void NAME(ACC IMG img, global const int4 *ic, global const T *v, \\\n"
    "                 global T *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  F(img, ic[g].IC, v[g]); }\n"
    "#define RWF(NAME, IMG, IC) \\\n"
    "kernel void NAME(read_write IMG img, global const int4 *ic, global const float4 *v, \\\n"
    "                 global float4 *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  if (g & 1) { \\\n"
    "    o[g] = convert_float4(read_imageh(img, ic[g].IC)); \\\n"
    "    write_imageh(img, ic[g].IC, convert_half4(v[g])); \\\n"
    "  } else { \\\n"
    "    o[g] = read_imagef(img, ic[g].IC); \\\n"
    "    write_imagef(img, ic[g].IC, v[g]); } }\n"
    "#define RW(NAME, IMG, T, R, F, IC) \\\n"
    "kernel void NAME(read_write IMG img, global const int4 *ic, global const T *v, \\\n"
    "                 global T *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  o[g] = R(img, ic[g].IC); \\\n"
    "  F(img, ic[g].IC, v[g]); }\n"
    "#define WR3(N, IMG, IC) \\\n"
    "  WRF(wr_##N##_f, write_only, IMG, IC) \\\n"
    "  WR(wr_##N##_i, write_only, IMG, int4, write_imagei, IC) \\\n"
    "  WR(wr_##N##_u, write_only, IMG, uint4, write_imageui, IC) \\\n"
    "  RWF(rw_##N##_f, IMG, IC) \\\n"
    "  RW(rw_##N##_i, IMG, int4, read_imagei, write_imagei, IC) \\\n"
    "  RW(rw_##N##_u, IMG, uint4, read_imageui, write_imageui, IC)\n"
    "WR3(1d, image1d_t, x)\n"
    "WR3(1db, image1d_buffer_t, x)\n"
    "WR3(1da, image1d_array_t, xy)\n"
    "WR3(2d, image2d_t, xy)\n"
    "WR3(2da, image2d_array_t, xyzw)\n"
    "WR3(3d, image3d_t, xyzw)\n";

static const char *write_depth_src =
    "#define WRD(NAME, ACC, IMG, IC) \\\n"
    "kernel void NAME(ACC IMG img, global const int4 *ic, global const float4 *v, \\\n"
    "                 global float4 *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  write_imagef(img, ic[g].IC, v[g].x); }\n"
    "#define RWD(NAME, IMG, IC) \\\n"
    "kernel void NAME(read_write IMG img, global const int4 *ic, global const float4 *v, \\\n"
    "                 global float4 *o) { \\\n"
    "  size_t g = get_global_id(0); \\\n"
    "  o[g] = (float4)(read_imagef(img, ic[g].IC), 0.0f, 0.0f, 1.0f); \\\n"
    "  write_imagef(img, ic[g].IC, v[g].x); }\n"
    "WRD(wr_d2d_f, write_only, image2d_depth_t, xy)\n"
    "WRD(wr_d2da_f, write_only, image2d_array_depth_t, xyzw)\n"
    "RWD(rw_d2d_f, image2d_depth_t, xy)\n"
    "RWD(rw_d2da_f, image2d_array_depth_t, xyzw)\n";

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

/* ------------------------------------------------------------------ */
/* images                                                             */
/* ------------------------------------------------------------------ */

static bool have_depth;
static cl_program read_prog, read_depth_prog, write_prog, write_depth_prog, query_prog;

/* one finite value of the channel type (bits), spread over the range */
static uint64_t random_channel(cl_channel_type t) {
  if (t == CL_HALF_FLOAT) {
    uint16_t h = (uint16_t)rnd();
    if (((h >> 10) & 31) == 31) /* no infinities or NaNs */
      h &= (uint16_t)~0x4000;
    return h;
  }
  if (t == CL_FLOAT) {
    float f = (rnd_unit() * 16.0f - 8.0f) * (rnd() % 4 == 0 ? 1e-3f : 1.0f);
    if (rnd() % 16 == 0)
      f = rnd() % 2 ? 0.0f : -0.0f;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
  }
  return ((uint64_t)rnd() << 32) | rnd();
}

/* random pixels for im (tight) */
static uint8_t *random_pixels(const struct ref_image *im) {
  size_t ps = ref_pixel_size(im), n = ref_num_pixels(im);
  uint8_t *data = malloc(ps * n);
  cl_channel_type t = im->format.image_channel_data_type;
  int size = ref_channel_size(t);
  for (size_t p = 0; p < n; p++) {
    uint8_t *px = data + p * ps;
    if (size == 0) {
      ref_store_int(px, (int)ps, random_channel(t));
      continue;
    }
    for (size_t c = 0; c < ps / (size_t)size; c++)
      ref_store_int(px + c * (size_t)size, size, random_channel(t));
  }
  return data;
}

/* the reference description of an image of shape s and format f (no data
 * yet), with the spec's channel layout */
static struct ref_image ref_of(const struct shape *s, const cl_image_format *f) {
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
static cl_mem create_image(struct test_env *env, const struct ref_image *im, cl_mem_flags flags,
                           cl_mem *buffer) {
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

static void release(cl_mem m) {
  if (m)
    clReleaseMemObject(m);
}

/* A new image of shape s and format f from random pixels: *im describes it
 * (its data, to free, in *data), *buffer is the buffer of a 1D image
 * buffer. CL_IMAGE_ELEMENT_SIZE must be the reference's pixel size. NULL on
 * failure. */
static cl_mem open_image(struct test_env *env, const struct shape *s, const cl_image_format *f,
                         cl_mem_flags flags, struct ref_image *im, uint8_t **data,
                         cl_mem *buffer) {
  *im = ref_of(s, f);
  *data = random_pixels(im);
  im->data = *data;
  cl_mem img = create_image(env, im, flags, buffer);
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
static bool launch(struct test_env *env, cl_kernel k, size_t n) {
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

/* ------------------------------------------------------------------ */
/* samplers and coordinates                                           */
/* ------------------------------------------------------------------ */

struct sampler {
  cl_sampler s;
  unsigned bits; /* CLK_* */
};
static struct sampler samplers[20];
static int num_samplers;

static void create_samplers(struct test_env *env) {
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                             CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                             CL_ADDRESS_MIRRORED_REPEAT};
  static const unsigned mode_bits[] = {REF_ADDRESS_NONE, REF_CLAMP_TO_EDGE, REF_CLAMP,
                                       REF_REPEAT, REF_MIRRORED_REPEAT};
  for (int norm = 0; norm < 2; norm++)
    for (int m = 0; m < 5; m++)
      for (int lin = 0; lin < 2; lin++) {
        cl_int err;
        cl_sampler s = clCreateSampler(env->context, (cl_bool)norm, modes[m],
                                       lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
        if (err != CL_SUCCESS)
          continue; /* an unnormalized repeating sampler may be refused */
        samplers[num_samplers].s = s;
        samplers[num_samplers].bits = (unsigned)norm | mode_bits[m] |
                                      (lin ? REF_LINEAR : REF_NEAREST);
        num_samplers++;
      }
  CHECK(num_samplers >= 16);
}

/* an unnormalized float coordinate on an axis of n pixels: pixel edges,
 * centres, other fractions, just below edges, and far outside */
static float random_coord(int n) {
  int k = rnd_int(-2, n + 1);
  switch (rnd() % 8) {
  case 0:
    return (float)k;
  case 1:
    return (float)k + 0.5f;
  case 2:
    return (float)k + rnd_unit();
  case 3:
    return (float)k - 1.0f / 1024.0f;
  default:
    return (rnd_unit() * 3.0f - 1.0f) * (float)n;
  }
}

/* a float layer coordinate around the layers (ties of rint included) */
static float random_layer(int layers) {
  switch (rnd() % 3) {
  case 0:
    return (float)rnd_int(-1, layers);
  case 1:
    return (float)rnd_int(-1, layers) + 0.5f;
  default:
    return rnd_unit() * (float)(layers + 2) - 1.5f;
  }
}

/* NPTS float coordinates for im, unnormalized (fu) and normalized (fn: the
 * same points over the sizes; layers stay unnormalized), and NALL integer
 * ones (ic). Components the image does not use hold garbage (NaN for
 * floats): they are ignored. */
static void random_coords(const struct ref_image *im, float *fu, float *fn, int *ic) {
  int dims = ref_dims(im->type), lc = ref_layer_coord(im->type);
  for (int p = 0; p < NALL; p++) {
    float c[4] = {NAN, NAN, NAN, NAN};
    for (int d = 0; d < 4; d++)
      ic[4 * p + d] = (int)rnd();
    for (int d = 0; d < dims; d++) {
      int n = ref_axis_size(im, d);
      c[d] = random_coord(n);
      ic[4 * p + d] = rnd_int(-2, n + 1);
    }
    if (lc >= 0) {
      c[lc] = random_layer(im->array_size);
      ic[4 * p + lc] = rnd_int(-1, im->array_size);
    }
    for (int d = 0; p < NPTS && d < 4; d++) {
      fu[4 * p + d] = c[d];
      fn[4 * p + d] = d < dims ? c[d] / (float)ref_axis_size(im, d) : c[d];
    }
  }
}

/* NWILD coordinates where reads are undefined: NaN, infinities, huge
 * values */
static void wild_coords(const struct ref_image *im, float *f) {
  static const float wild[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 3e9f, -3e9f, 0.5f};
  for (int p = 0; p < NWILD; p++)
    for (int d = 0; d < 4; d++)
      f[4 * p + d] = d < ref_dims(im->type) || d == ref_layer_coord(im->type)
                         ? wild[rnd() % 8]
                         : 0.0f;
}

/* ------------------------------------------------------------------ */
/* comparisons                                                        */
/* ------------------------------------------------------------------ */

static int reported;
#define REPORT_MAX 60

/* failures per kind of check, summed up at the end with the first format
 * each was seen with */
struct tally {
  char what[48];
  cl_image_format first;
  int count;
};
static struct tally tally[64];
static int num_tally;

/* counts a failure; true for the first few of its kind (to be shown) */
static bool count_failure(const char *what, const cl_image_format *f) {
  for (int i = 0; i < num_tally; i++)
    if (!strncmp(tally[i].what, what, sizeof tally[i].what - 1))
      return ++tally[i].count <= 3;
  if (num_tally < 64) {
    snprintf(tally[num_tally].what, sizeof tally[num_tally].what, "%s", what);
    tally[num_tally].first = *f;
    tally[num_tally++].count = 1;
  }
  return true;
}

static void report(const char *what, const struct ref_image *im, unsigned smp, int p,
                   const float *coord, const int *icoord, const char *got, const char *want) {
  test_checks++;
  test_failures++;
  if (!count_failure(what, &im->format) || reported++ >= REPORT_MAX)
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
static bool near_float(float got, float want, float tol, float scale) {
  if (isnan(want))
    return isnan(got);
  if (tol == 0.0f)
    return got == want;
  return fabsf(got - want) <= tol * (1.0f + scale);
}

static bool same_float(float got, float want, float tol) {
  return near_float(got, want, tol, fabsf(want));
}

static void fmt4f(char *buf, size_t n, const float *v, int count) {
  if (count == 1)
    snprintf(buf, n, "%.9g", v[0]);
  else
    snprintf(buf, n, "(%.9g, %.9g, %.9g, %.9g)", v[0], v[1], v[2], v[3]);
}

/* compares count (4, or 1 for depth) components of a read_imagef result;
 * mag: the scale of each component's rounding errors (NULL: |want|) */
static void check_f(const char *what, const struct ref_image *im, unsigned smp, int p,
                    const float *coord, const int *icoord, const float *got, const float *want,
                    const float *mag, int count, float tol) {
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
  report(what, im, smp, p, coord, icoord, g, w);
}

static void check_u(const char *what, const struct ref_image *im, unsigned smp, int p,
                    const float *coord, const int *icoord, const uint32_t *got,
                    const uint32_t *want) {
  if (!memcmp(got, want, 16)) {
    test_checks++;
    return;
  }
  char g[96], w[96];
  snprintf(g, sizeof g, "(%#x, %#x, %#x, %#x)", got[0], got[1], got[2], got[3]);
  snprintf(w, sizeof w, "(%#x, %#x, %#x, %#x)", want[0], want[1], want[2], want[3]);
  report(what, im, smp, p, coord, icoord, g, w);
}

/* read_imageh is read_imagef rounded to half */
static void check_h(const struct ref_image *im, unsigned smp, int p, const uint16_t *got,
                    const float *f) {
  for (int k = 0; k < 4; k++) {
    uint16_t want = half_from_ld((long double)f[k], H_RTE);
    if (got[k] == want || (half_is_nan(got[k]) && half_is_nan(want)))
      continue;
    char g[32], w[32];
    snprintf(g, sizeof g, "half %#x", got[k]);
    snprintf(w, sizeof w, "%#x (of %.9g)", want, f[k]);
    report("read_imageh", im, smp, p, NULL, NULL, g, w);
    return;
  }
  test_checks++;
}

/* the tolerance of read_imagef with sampler bits smp: linear filtering and
 * the sRGB curve are computed differently by the reference */
static float tolerance(const struct ref_image *im, unsigned smp) {
  if (smp & REF_LINEAR)
    return 3e-6f;
  return ref_is_srgb(im->format.image_channel_order) ? 1e-6f : 0.0f;
}

/* an undefined nearest read must still be a pixel of the image or the
 * border colour */
static bool is_some_pixel_f(const struct ref_image *im, const float *got, int count) {
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

static bool is_some_pixel_u(const struct ref_image *im, const uint32_t *got) {
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

static void test_queries(struct test_env *env, const struct ref_image *im, cl_mem img,
                  const char *kernel, const char *shape) {
  if (!query_prog)
    return;
  cl_int err;
  cl_kernel k = clCreateKernel(query_prog, kernel, &err);
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
/* reads                                                              */
/* ------------------------------------------------------------------ */

struct read_bufs {
  cl_mem fc, ic, o, oh;
  float fu[4 * NPTS], fn[4 * NPTS]; /* unnormalized and normalized */
  float fc_host[4 * NALL];          /* a launch's: fu or fn, then the wild ones */
  int ic_host[4 * NALL];
  float of[3 * 4 * NALL];
  uint16_t oh_host[3 * 4 * NALL];
};

static cl_kernel kernel_of(cl_program p, const char *prefix, const struct shape *s, char cls) {
  char name[64];
  snprintf(name, sizeof name, "%s_%s_%c", prefix, s->name, cls);
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  return err == CL_SUCCESS ? k : NULL;
}

/* one launch of read kernel k on img with sampler smp and the coordinates
 * in b; results in b->of and b->oh_host */
static bool run_read(struct test_env *env, cl_kernel k, cl_mem img, const struct sampler *smp,
                     struct read_bufs *b, size_t comps) {
  CHECK_OK(clEnqueueWriteBuffer(env->queue, b->fc, CL_TRUE, 0, sizeof b->fc_host, b->fc_host, 0,
                                NULL, NULL));
  CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK_OK(clSetKernelArg(k, 1, sizeof smp->s, &smp->s));
  CHECK_OK(clSetKernelArg(k, 2, sizeof b->fc, &b->fc));
  CHECK_OK(clSetKernelArg(k, 3, sizeof b->ic, &b->ic));
  CHECK_OK(clSetKernelArg(k, 4, sizeof b->o, &b->o));
  CHECK_OK(clSetKernelArg(k, 5, sizeof b->oh, &b->oh));
  if (!launch(env, k, NALL))
    return false;
  test_read_back(env, b->o, sizeof(float) * 3 * comps * NALL, b->of);
  test_read_back(env, b->oh, sizeof b->oh_host, b->oh_host);
  return true;
}

/* An undefined read (NaN, infinite or huge coordinates, or a repeating mode
 * without normalized coordinates) must still give a pixel of the image or
 * the border colour with nearest filtering, and touch nothing else. */
static void check_some_pixel(const struct ref_image *im, unsigned smp, int p, const float *c,
                             const float *got, char cls, int comps) {
  if (smp & REF_LINEAR && cls == 'f')
    return;
  const uint32_t *gu = (const uint32_t *)got;
  if (cls == 'f' ? is_some_pixel_f(im, got, comps) : is_some_pixel_u(im, gu)) {
    test_checks++;
    return;
  }
  char g[128];
  if (cls == 'f')
    fmt4f(g, sizeof g, got, comps);
  else
    snprintf(g, sizeof g, "(%#x, %#x, %#x, %#x)", gu[0], gu[1], gu[2], gu[3]);
  report("undefined read: not a pixel", im, smp, p, c, NULL, g, "a pixel or the border");
}

/* the results of one read launch against the reference */
static void check_reads(const struct ref_image *im, const struct sampler *smp,
                        const struct read_bufs *b, char cls, int comps, bool buffer) {
  unsigned bits = smp->bits;
  int mode = (int)(bits & REF_ADDRESS_MASK);
  bool undefined = !(bits & REF_NORMALIZED) && (mode == REF_REPEAT || mode == REF_MIRRORED_REPEAT);
  for (int p = 0; p < NALL; p++) {
    const float *c = b->fc_host + 4 * p;
    const int *ic = b->ic_host + 4 * p;
    const float *got = b->of + 3 * comps * p;
    if (!buffer && (undefined || p >= NPTS))
      check_some_pixel(im, bits, p, c, got, cls, comps);
    if (cls == 'f') {
      float want[4], mag[4];
      if (!buffer && !undefined && p < NPTS && ref_read_f(im, bits, c, want, mag))
        check_f("read_imagef(sampler, float)", im, bits, p, c, NULL, got, want, mag, comps,
                tolerance(im, bits));
      if (!buffer) {
        ref_read_f_int(im, bits, ic, want);
        check_f("read_imagef(sampler, int)", im, bits, p, NULL, ic, got + comps, want, NULL,
                comps, tolerance(im, REF_NEAREST));
      }
      ref_read_f_int(im, -1, ic, want);
      check_f("read_imagef(int)", im, bits, p, NULL, ic, got + 2 * comps, want, NULL, comps,
              tolerance(im, REF_NEAREST));
      if (comps == 4)
        for (int r = 0; r < 3; r++)
          check_h(im, bits, p, b->oh_host + 4 * (3 * p + r), got + 4 * r);
    } else {
      const uint32_t *gu = (const uint32_t *)got;
      uint32_t want[4];
      const char *fn = cls == 'i' ? "read_imagei" : "read_imageui";
      char what[64];
      if (!buffer && !undefined && p < NPTS && ref_read_u(im, bits, c, want)) {
        snprintf(what, sizeof what, "%s(sampler, float)", fn);
        check_u(what, im, bits, p, c, NULL, gu, want);
      }
      if (!buffer) {
        ref_read_u_int(im, bits, ic, want);
        snprintf(what, sizeof what, "%s(sampler, int)", fn);
        check_u(what, im, bits, p, NULL, ic, gu + 4, want);
      }
      ref_read_u_int(im, -1, ic, want);
      snprintf(what, sizeof what, "%s(int)", fn);
      check_u(what, im, bits, p, NULL, ic, gu + 8, want);
    }
  }
}

static void test_reads(struct test_env *env, const struct shape *s, const cl_image_format *f,
                       struct read_bufs *b) {
  cl_program prog = s->depth ? read_depth_prog : read_prog;
  if (!prog)
    return;
  char cls = format_class(f);
  int comps = s->depth ? 1 : 4;
  bool buffer = s->type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  struct ref_image im;
  uint8_t *data;
  cl_mem buf;
  cl_mem img = open_image(env, s, f, CL_MEM_READ_ONLY, &im, &data, &buf);
  if (!img)
    return;

  cl_kernel k = kernel_of(prog, "rd", s, cls);
  if (k) {
    random_coords(&im, b->fu, b->fn, b->ic_host);
    wild_coords(&im, b->fc_host + 4 * NPTS);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, b->ic, CL_TRUE, 0, sizeof b->ic_host, b->ic_host,
                                  0, NULL, NULL));
    for (int i = 0; i < num_samplers; i++) {
      const struct sampler *smp = &samplers[i];
      if (buffer && i > 0)
        break; /* no sampler: one launch is enough */
      memcpy(b->fc_host, smp->bits & REF_NORMALIZED ? b->fn : b->fu, sizeof b->fu);
      if (!run_read(env, k, img, smp, b, (size_t)comps))
        break;
      check_reads(&im, smp, b, cls, comps, buffer);
    }
    clReleaseKernel(k);
  }

  /* queries of a read-only image */
  char qname[32];
  snprintf(qname, sizeof qname, "q_%s_read_only", s->name);
  test_queries(env, &im, img, qname, s->name);

  release(img);
  release(buf);
  free(data);
}

/* ------------------------------------------------------------------ */
/* writes                                                             */
/* ------------------------------------------------------------------ */

/* one float colour component for format type t */
static float random_color(cl_channel_type t) {
  uint32_t r = rnd();
  if (t == CL_HALF_FLOAT || t == CL_FLOAT) {
    /* magnitudes from half subnormals to beyond half's range */
    float m = ldexpf(1.0f + rnd_unit(), rnd_int(-26, 17));
    if (r % 16 == 0)
      m = 0.0f;
    return r % 2 ? -m : m;
  }
  switch (r % 16) {
  case 0:
    return NAN;
  case 1:
    return 0.0f;
  case 2:
    return 1.0f;
  case 3: /* a rounding tie of the 8-bit types */
    return (float)rnd_int(0, 255) / 255.0f + 0.5f / 255.0f;
  default:
    return rnd_unit() * 1.6f - 0.3f;
  }
}

static uint32_t random_int_color(void) {
  uint32_t v = rnd();
  return rnd() % 2 ? v : (uint32_t)((int32_t)v >> rnd_int(0, 31));
}

/* NWRITE integer coordinates: distinct pixels of the image, then (unless
 * in_range_only) coordinates with one component just or far outside */
static int write_coords(const struct ref_image *im, int *ic, bool in_range_only) {
  int dims = ref_dims(im->type), lc = ref_layer_coord(im->type);
  int n = (int)ref_num_pixels(im);
  int *perm = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = rnd_int(0, i), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  int inside = in_range_only ? (n < NWRITE ? n : NWRITE) : (n < NWRITE - 12 ? n : NWRITE - 12);
  int total = in_range_only ? inside : NWRITE;
  for (int p = 0; p < total; p++) {
    int *c = ic + 4 * p;
    for (int d = 0; d < 4; d++)
      c[d] = (int)rnd(); /* unused components: garbage */
    int idx = perm[p % n];
    /* index -> (i, j, k, layer) in the order of ref_pixel */
    int sizes[4], coord_of[4];
    int num = 0;
    for (int d = 0; d < dims; d++) {
      sizes[num] = ref_axis_size(im, d);
      coord_of[num++] = d;
    }
    if (lc >= 0) {
      sizes[num] = im->array_size;
      coord_of[num++] = lc;
    }
    for (int a = 0; a < num; a++) {
      c[coord_of[a]] = idx % sizes[a];
      idx /= sizes[a];
    }
    if (p >= inside) { /* one component outside */
      int a = rnd_int(0, num - 1);
      int off = rnd() % 2 ? rnd_int(1, 3) : -rnd_int(1, 3);
      c[coord_of[a]] = off < 0 ? off : sizes[a] - 1 + off;
    }
  }
  free(perm);
  return total;
}

/* The image read back (tight) against expected, compared under mask */
static void check_image(struct test_env *env, const struct ref_image *im, cl_mem img,
                        const uint8_t *expected, const uint8_t *mask, const char *what) {
  size_t ps = ref_pixel_size(im), n = ref_num_pixels(im);
  uint8_t *got = malloc(ps * n);
  size_t origin[3] = {0, 0, 0};
  size_t region[3] = {(size_t)im->width, 1, 1};
  switch (im->type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    region[1] = (size_t)im->array_size;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    region[1] = (size_t)im->height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    region[1] = (size_t)im->height;
    region[2] = (size_t)im->array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    region[1] = (size_t)im->height;
    region[2] = (size_t)im->depth;
    break;
  default:
    break;
  }
  CHECK_OK(clEnqueueReadImage(env->queue, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL,
                              NULL));
  int bad = 0;
  for (size_t p = 0; p < n; p++) {
    bool ok = true;
    for (size_t b = 0; b < ps; b++)
      ok = ok && ((got[p * ps + b] ^ expected[p * ps + b]) & mask[p * ps + b]) == 0;
    test_checks++;
    if (ok)
      continue;
    test_failures++;
    if (count_failure(what, &im->format) && bad++ < 3 && reported++ < REPORT_MAX) {
      fprintf(stderr, "%s: %s, type 0x%x, pixel %zu: got", what, format_name(&im->format),
              (unsigned)im->type, p);
      for (size_t b = 0; b < ps; b++)
        fprintf(stderr, " %02x", got[p * ps + b]);
      fprintf(stderr, ", want");
      for (size_t b = 0; b < ps; b++)
        fprintf(stderr, " %02x", expected[p * ps + b]);
      fprintf(stderr, " (mask");
      for (size_t b = 0; b < ps; b++)
        fprintf(stderr, " %02x", mask[p * ps + b]);
      fprintf(stderr, ")\n");
    }
  }
  free(got);
}

/* round each component to half and back (the f kernels' odd work-items) */
static void through_half(float *v) {
  for (int k = 0; k < 4; k++)
    v[k] = half_to_float(half_from_ld((long double)v[k], H_RTE));
}

/* write_only (rw false) or read_write (rw true) kernel on a fresh image */
static void test_writes(struct test_env *env, const struct shape *s, const cl_image_format *f,
                        bool rw) {
  cl_program prog = s->depth ? write_depth_prog : write_prog;
  if (!prog)
    return;
  char cls = format_class(f);
  struct ref_image im;
  uint8_t *initial;
  cl_mem buf;
  cl_mem img = open_image(env, s, f, CL_MEM_READ_WRITE, &im, &initial, &buf);
  if (!img)
    return;

  int ic[4 * NWRITE];
  int total = write_coords(&im, ic, rw);
  float vf[4 * NWRITE];
  uint32_t vu[4 * NWRITE];
  for (int p = 0; p < total; p++)
    for (int k = 0; k < 4; k++) {
      vf[4 * p + k] = random_color(f->image_channel_data_type);
      vu[4 * p + k] = random_int_color();
    }
  if (cls == 'f' && !s->depth)
    for (int p = 1; p < total; p += 2)
      through_half(vf + 4 * p);

  cl_kernel k = kernel_of(prog, rw ? "rw" : "wr", s, cls);
  if (k) {
    cl_mem icb = test_buffer_with(env, sizeof(int) * 4 * (size_t)total, ic);
    cl_mem vb = test_buffer_with(env, sizeof(float) * 4 * (size_t)total,
                                 cls == 'f' ? (void *)vf : (void *)vu);
    cl_mem ob = test_buffer_with(env, sizeof(float) * 4 * (size_t)total, NULL);
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK_OK(clSetKernelArg(k, 1, sizeof icb, &icb));
    CHECK_OK(clSetKernelArg(k, 2, sizeof vb, &vb));
    CHECK_OK(clSetKernelArg(k, 3, sizeof ob, &ob));
    launch(env, k, (size_t)total);

    /* the expected image: the initial pixels, those written replaced */
    size_t ps = ref_pixel_size(&im), n = ref_num_pixels(&im);
    uint8_t *expected = malloc(ps * n), *mask = malloc(ps * n);
    memcpy(expected, initial, ps * n);
    memset(mask, 0xff, ps * n);
    for (int p = 0; p < total; p++) {
      uint8_t *px = ref_write_target(&im, expected, ic + 4 * p);
      if (!px)
        continue;
      uint8_t *m = mask + (px - expected);
      if (cls == 'f')
        ref_encode_f(&im, vf + 4 * p, px, m);
      else
        ref_encode_u(&im, vu + 4 * p, cls == 'i', px, m);
    }
    check_image(env, &im, img, expected, mask, rw ? "read_write write" : "write_image");

    if (rw) { /* what each work-item read before writing */
      float of[4 * NWRITE];
      test_read_back(env, ob, sizeof(float) * 4 * (size_t)total, of);
      for (int p = 0; p < total; p++) {
        if (cls == 'f') {
          float want[4];
          ref_read_f_int(&im, -1, ic + 4 * p, want);
          if (s->depth)
            want[1] = want[2] = 0.0f, want[3] = 1.0f;
          else if (p & 1)
            through_half(want);
          check_f("read_write read_imagef/h", &im, 0, p, NULL, ic + 4 * p, of + 4 * p, want,
                  NULL, 4, tolerance(&im, REF_NEAREST));
        } else {
          uint32_t want[4];
          ref_read_u_int(&im, -1, ic + 4 * p, want);
          check_u("read_write read_imagei/ui", &im, 0, p, NULL, ic + 4 * p,
                  (const uint32_t *)of + 4 * p, want);
        }
      }
    }
    free(expected);
    free(mask);
    clReleaseMemObject(icb);
    clReleaseMemObject(vb);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
  }

  char qname[32];
  snprintf(qname, sizeof qname, "q_%s_%s", s->name, rw ? "read_write" : "write_only");
  test_queries(env, &im, img, qname, s->name);
  release(img);
  release(buf);
  free(initial);
}

/* ------------------------------------------------------------------ */
/* constant samplers                                                  */
/* ------------------------------------------------------------------ */

static void test_constant_samplers(struct test_env *env, struct read_bufs *b) {
  static const cl_image_format f = {CL_RGBA, CL_UNORM_INT16};
  const struct shape *s = &shapes[3]; /* 2D */
  struct ref_image im = ref_of(s, &f);
  uint8_t *data = random_pixels(&im);
  im.data = data;
  cl_mem buf;
  cl_mem img = create_image(env, &im, CL_MEM_READ_ONLY, &buf);
  cl_int err;
  cl_kernel k = clCreateKernel(read_prog, "rd_const_2d", &err);
  CHECK_OK(err);
  if (img && k) {
    random_coords(&im, b->fu, b->fn, b->ic_host);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, b->fc, CL_TRUE, 0, sizeof b->fn, b->fn, 0, NULL,
                                  NULL));
    CHECK_OK(clEnqueueWriteBuffer(env->queue, b->ic, CL_TRUE, 0, sizeof b->ic_host, b->ic_host,
                                  0, NULL, NULL));
    CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK_OK(clSetKernelArg(k, 1, sizeof b->fc, &b->fc));
    CHECK_OK(clSetKernelArg(k, 2, sizeof b->ic, &b->ic));
    CHECK_OK(clSetKernelArg(k, 3, sizeof b->o, &b->o));
    launch(env, k, NPTS);
    test_read_back(env, b->o, sizeof(float) * 2 * 4 * NPTS, b->of);
    unsigned cs = REF_NORMALIZED | REF_REPEAT | REF_LINEAR, ks = REF_CLAMP | REF_NEAREST;
    for (int p = 0; p < NPTS; p++) {
      float want[4], mag[4];
      if (ref_read_f(&im, cs, b->fn + 4 * p, want, mag))
        check_f("constant sampler", &im, cs, p, b->fn + 4 * p, NULL, b->of + 8 * p, want, mag,
                4, tolerance(&im, cs));
      ref_read_f_int(&im, ks, b->ic_host + 4 * p, want);
      check_f("kernel-scope sampler", &im, ks, p, NULL, b->ic_host + 4 * p, b->of + 8 * p + 4,
              want, NULL, 4, 0.0f);
    }
  }
  if (k)
    clReleaseKernel(k);
  release(img);
  release(buf);
  free(data);
}

/* ------------------------------------------------------------------ */

static cl_program build(struct test_env *env, const char *src) {
  return test_program_from(env, src, "-cl-std=CL3.0");
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  list_formats();

  cl_bool images = CL_FALSE;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  char ext[8192] = "";
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  have_depth = strstr(ext, "cl_khr_depth_images") != NULL;
  CHECK(images);
  CHECK(have_depth);
  if (!images) {
    test_env_release(&env);
    return test_finish("test_builtins_image");
  }

  read_prog = build(&env, read_src);
  write_prog = build(&env, write_src);
  query_prog = build(&env, query_src);
  if (have_depth) {
    read_depth_prog = build(&env, read_depth_src);
    write_depth_prog = build(&env, write_depth_src);
  }
  create_samplers(&env);

  struct read_bufs *b = calloc(1, sizeof *b);
  cl_int err;
  b->fc = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof b->fc_host, NULL, &err);
  b->ic = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof b->ic_host, NULL, &err);
  b->o = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof b->of, NULL, &err);
  b->oh = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof b->oh_host, NULL, &err);

  for (size_t si = 0; si < NUM_SHAPES; si++) {
    const struct shape *s = &shapes[si];
    if (s->depth && !have_depth)
      continue;
    for (int fi = 0; fi < num_formats; fi++) {
      const cl_image_format *f = &formats[fi];
      if (!shape_takes(s, f))
        continue;
      test_reads(&env, s, f, b);
      test_writes(&env, s, f, false);
      test_writes(&env, s, f, true);
    }
  }
  if (read_prog)
    test_constant_samplers(&env, b);

  clReleaseMemObject(b->fc);
  clReleaseMemObject(b->ic);
  clReleaseMemObject(b->o);
  clReleaseMemObject(b->oh);
  free(b);
  for (int i = 0; i < num_samplers; i++)
    clReleaseSampler(samplers[i].s);
  cl_program progs[] = {read_prog, read_depth_prog, write_prog, write_depth_prog, query_prog};
  for (size_t i = 0; i < 5; i++)
    if (progs[i])
      clReleaseProgram(progs[i]);
  for (int i = 0; i < num_tally; i++)
    fprintf(stderr, "%6d failures: %s (first: %s)\n", tally[i].count, tally[i].what,
            format_name(&tally[i].first));
  test_env_release(&env);
  return test_finish("test_builtins_image");
}
