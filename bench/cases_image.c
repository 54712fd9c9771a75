/* Image cases: a 3x3 convolution and a resize through images and samplers,
 * the work of video filters (FFmpeg's *_opencl filters read and write 2D
 * images with an unnormalised nearest sampler) and of image pipelines
 * (normalised coordinates, bilinear filtering). Each runs for an 8-bit
 * RGBA image (CL_RGBA, CL_UNORM_INT8) and a one-channel float image
 * (CL_R, CL_FLOAT). The figure is output pixels per second. */
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *image_source =
    "constant float weights[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f,\n"
    "                             0.0625f, 0.125f, 0.0625f};\n"
    "kernel void conv3x3(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float4 acc = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++)\n"
    "    for (int dx = -1; dx <= 1; dx++)\n"
    "      acc += weights[(dy + 1) * 3 + dx + 1] * read_imagef(src, s, (int2)(x + dx, y + dy));\n"
    "  write_imagef(dst, (int2)(x, y), acc);\n"
    "}\n"
    "kernel void conv3x3_buffer(global const uchar4 *src, global uchar4 *dst, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float4 acc = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++)\n"
    "    for (int dx = -1; dx <= 1; dx++) {\n"
    "      int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);\n"
    "      acc += weights[(dy + 1) * 3 + dx + 1] * convert_float4(src[yy * w + xx]);\n"
    "    }\n"
    "  dst[y * w + x] = convert_uchar4_sat_rte(acc);\n"
    "}\n"
    "kernel void resize(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float2 at = (float2)((x + 0.5f) / get_image_width(dst), (y + 0.5f) / get_image_height(dst));\n"
    "  write_imagef(dst, (int2)(x, y), read_imagef(src, s, at));\n"
    "}\n";

enum image_op { OP_CONV, OP_RESIZE_NEAREST, OP_RESIZE_LINEAR, OP_CONV_BUFFER };

struct image_host {
  enum image_op op;
  bool rgba8; /* CL_RGBA/CL_UNORM_INT8, else CL_R/CL_FLOAT */
  size_t in_w, in_h, out_w, out_h;
  int repeat;
  void *in;   /* in_w x in_h pixels */
  float *want; /* out_w x out_h x channels, as floats in [0, 1] */
};

struct image_instance {
  struct instance base; /* buffers[0]: source image, buffers[1]: destination */
  cl_sampler sampler;
};

static size_t channels(const struct image_host *h) { return h->rgba8 ? 4 : 1; }

/* the source's channel c at (x, y), clamped to the edge, as read_imagef reads it */
static float texel(const struct image_host *h, long x, long y, size_t c) {
  x = x < 0 ? 0 : x >= (long)h->in_w ? (long)h->in_w - 1 : x;
  y = y < 0 ? 0 : y >= (long)h->in_h ? (long)h->in_h - 1 : y;
  size_t i = ((size_t)y * h->in_w + (size_t)x) * channels(h) + c;
  return h->rgba8 ? ((const unsigned char *)h->in)[i] / 255.0f : ((const float *)h->in)[i];
}

/* The reference, in the spec's arithmetic (chapter "Image Addressing and
 * Filtering" of the OpenCL C spec). */
static void image_reference(struct image_host *h) {
  static const float w[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f,
                             0.125f,  0.0625f, 0.125f, 0.0625f};
  size_t nc = channels(h);
  for (size_t y = 0; y < h->out_h; y++)
    for (size_t x = 0; x < h->out_w; x++)
      for (size_t c = 0; c < nc; c++) {
        float v = 0.0f;
        if (h->op == OP_CONV || h->op == OP_CONV_BUFFER) {
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
              v += w[(dy + 1) * 3 + dx + 1] * texel(h, (long)x + dx, (long)y + dy, c);
        } else {
          float u = ((float)x + 0.5f) / (float)h->out_w * (float)h->in_w;
          float t = ((float)y + 0.5f) / (float)h->out_h * (float)h->in_h;
          if (h->op == OP_RESIZE_NEAREST) {
            v = texel(h, (long)floorf(u), (long)floorf(t), c);
          } else {
            long i0 = (long)floorf(u - 0.5f), j0 = (long)floorf(t - 0.5f);
            float a = (u - 0.5f) - floorf(u - 0.5f), b = (t - 0.5f) - floorf(t - 0.5f);
            v = (1 - a) * (1 - b) * texel(h, i0, j0, c) + a * (1 - b) * texel(h, i0 + 1, j0, c) +
                (1 - a) * b * texel(h, i0, j0 + 1, c) + a * b * texel(h, i0 + 1, j0 + 1, c);
          }
        }
        h->want[(y * h->out_w + x) * nc + c] = v;
      }
}

static void *image_prepare(enum image_op op, bool rgba8, bool quick, struct case_work *wk) {
  struct image_host *h = calloc(1, sizeof *h);
  h->op = op;
  h->rgba8 = rgba8;
  h->in_w = h->in_h = quick ? 128 : 2048;
  h->out_w = h->out_h = op == OP_CONV || op == OP_CONV_BUFFER ? h->in_w : h->in_w * 3 / 2;
  h->repeat = quick ? 1 : 4;
  size_t n = h->in_w * h->in_h * channels(h);
  h->in = bench_alloc(n * (rgba8 ? 1 : sizeof(float)));
  unsigned seed = 21;
  for (size_t i = 0; i < n; i++) {
    if (rgba8)
      ((unsigned char *)h->in)[i] = (unsigned char)(bench_rand(&seed) >> 24);
    else
      ((float *)h->in)[i] = bench_randf(&seed, 0, 1);
  }
  h->want = bench_alloc(h->out_w * h->out_h * channels(h) * sizeof(float));
  image_reference(h);
  *wk = (struct case_work){.amount = (double)h->out_w * h->out_h * h->repeat,
                           .scale = 1e9,
                           .unit = "Gpixel/s"};
  return h;
}

static void *conv_rgba8_prepare(bool q, struct case_work *w) { return image_prepare(OP_CONV, true, q, w); }
static void *conv_rfloat_prepare(bool q, struct case_work *w) { return image_prepare(OP_CONV, false, q, w); }
static void *linear_rgba8_prepare(bool q, struct case_work *w) {
  return image_prepare(OP_RESIZE_LINEAR, true, q, w);
}
static void *conv_buffer_prepare(bool q, struct case_work *w) {
  return image_prepare(OP_CONV_BUFFER, true, q, w);
}
static void *nearest_rfloat_prepare(bool q, struct case_work *w) {
  return image_prepare(OP_RESIZE_NEAREST, false, q, w);
}

static void image_release(void *p) {
  struct image_host *h = p;
  free(h->in);
  free(h->want);
  free(h);
}

static cl_mem make_image(struct platform_env *env, const struct image_host *h, size_t w,
                         size_t ht, cl_mem_flags flags, void *data) {
  cl_image_format f = {h->rgba8 ? CL_RGBA : CL_R, h->rgba8 ? CL_UNORM_INT8 : CL_FLOAT};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = ht;
  cl_int err;
  cl_mem m = clCreateImage(env->ctx, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), &f, &d, data, &err);
  if (!m)
    bench_report_cl_error("clCreateImage", err);
  return m;
}

static void image_close(struct instance *in) {
  struct image_instance *ii = (struct image_instance *)in;
  if (ii->sampler)
    clReleaseSampler(ii->sampler);
  bench_close_instance(in);
}

/* the 3x3 filter through buffers of uchar4 (the image case's twin) */
static struct instance *conv_buffer_open(struct platform_env *env, void *host) {
  struct image_host *h = host;
  const char *names[] = {"conv3x3_buffer", NULL};
  struct instance *in = bench_open_instance(env, image_source, NULL, names);
  if (!in)
    return NULL;
  size_t bytes = h->in_w * h->in_h * 4;
  in->buffers[0] = bench_buffer(env, bytes, h->in);
  in->buffers[1] = bench_buffer(env, bytes, NULL);
  if (!in->buffers[0] || !in->buffers[1] ||
      !bench_args(in, 0, "bbii", 0, 1, (int)h->in_w, (int)h->in_h)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g[2] = {h->out_w, h->out_h}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  in->repeat = h->repeat;
  return in;
}

static struct instance *image_open(struct platform_env *env, void *host) {
  struct image_host *h = host;
  const char *names[] = {h->op == OP_CONV ? "conv3x3" : "resize", NULL};
  struct instance *base = bench_open_instance(env, image_source, NULL, names);
  if (!base)
    return NULL;
  /* the instance grows into an image_instance: base stays its first member */
  struct image_instance *ii = realloc(base, sizeof *ii);
  if (!ii) {
    bench_close_instance(base);
    return NULL;
  }
  ii->sampler = NULL;
  struct instance *in = &ii->base;
  cl_int err;
  bool normalized = h->op != OP_CONV;
  const cl_sampler_properties props[] = {
      CL_SAMPLER_NORMALIZED_COORDS, normalized, CL_SAMPLER_ADDRESSING_MODE,
      CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE,
      h->op == OP_RESIZE_LINEAR ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, 0};
  ii->sampler = clCreateSamplerWithProperties(env->ctx, props, &err);
  in->buffers[0] = make_image(env, h, h->in_w, h->in_h, CL_MEM_READ_ONLY, h->in);
  in->buffers[1] = make_image(env, h, h->out_w, h->out_h, CL_MEM_WRITE_ONLY, NULL);
  if (!ii->sampler || !in->buffers[0] || !in->buffers[1] ||
      clSetKernelArg(in->kernels[0], 0, sizeof(cl_mem), &in->buffers[0]) != CL_SUCCESS ||
      clSetKernelArg(in->kernels[0], 1, sizeof(cl_mem), &in->buffers[1]) != CL_SUCCESS ||
      clSetKernelArg(in->kernels[0], 2, sizeof(cl_sampler), &ii->sampler) != CL_SUCCESS) {
    if (!ii->sampler)
      bench_report_cl_error("clCreateSampler", err);
    image_close(in);
    return NULL;
  }
  size_t g[2] = {h->out_w, h->out_h}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  in->repeat = h->repeat;
  return in;
}

/* Every pixel (the buffer twin filters the bytes themselves: the same
 * values, scaled by 255): 8-bit results within one step (rounding of the last bit of
 * the filter arithmetic), floats within 1e-5; linear filtering may use
 * lower-precision weights (the spec allows it), so one step more there. */
static bool image_check(struct instance *in, void *host) {
  struct image_host *h = host;
  size_t n = h->out_w * h->out_h * channels(h);
  void *got = bench_alloc(n * (h->rgba8 ? 1 : sizeof(float)));
  size_t origin[3] = {0, 0, 0}, region[3] = {h->out_w, h->out_h, 1};
  cl_int err = h->op == OP_CONV_BUFFER
                   ? clEnqueueReadBuffer(in->env->queue, in->buffers[1], CL_TRUE, 0, n, got, 0,
                                         NULL, NULL)
                   : clEnqueueReadImage(in->env->queue, in->buffers[1], CL_TRUE, origin, region,
                                        0, 0, got, 0, NULL, NULL);
  bool ok = err == CL_SUCCESS;
  if (!ok)
    bench_report_cl_error("clEnqueueReadImage", err);
  double tol = h->rgba8 ? (h->op == OP_RESIZE_LINEAR ? 2.01 : 1.01) / 255.0 : 1e-5;
  for (size_t i = 0; ok && i < n; i++) {
    double v = h->rgba8 ? ((unsigned char *)got)[i] / 255.0 : ((float *)got)[i];
    if (fabs(v - h->want[i]) > tol) {
      fprintf(stderr, "    pixel value %zu: got %g, want %g\n", i, v, h->want[i]);
      ok = false;
    }
  }
  free(got);
  return ok;
}

/* ---- copies between an image and a buffer ---- */

struct copy_host {
  size_t w, h;
  int repeat;
  unsigned char *pixels; /* w x h RGBA8 */
};

static void *copy_prepare(bool quick, struct case_work *wk) {
  struct copy_host *h = calloc(1, sizeof *h);
  h->w = h->h = quick ? 256 : 4096;
  h->repeat = quick ? 1 : 4;
  size_t bytes = h->w * h->h * 4;
  h->pixels = bench_alloc(bytes);
  unsigned seed = 5;
  for (size_t i = 0; i < bytes; i++)
    h->pixels[i] = (unsigned char)(bench_rand(&seed) >> 24);
  /* each repetition copies image -> buffer and buffer -> image: every
   * byte read once and written once in each direction */
  *wk = (struct case_work){.amount = 4.0 * (double)bytes * h->repeat, .scale = 1e9,
                           .unit = "GB/s"};
  return h;
}

static void copy_release(void *p) {
  struct copy_host *h = p;
  free(h->pixels);
  free(h);
}

static struct instance *copy_open(struct platform_env *env, void *host) {
  struct copy_host *h = host;
  struct instance *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->env = env;
  in->repeat = h->repeat;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = h->w;
  d.image_height = h->h;
  cl_int err;
  in->buffers[0] = clCreateImage(env->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d,
                                 h->pixels, &err);
  if (!in->buffers[0])
    bench_report_cl_error("clCreateImage", err);
  in->buffers[1] = bench_buffer(env, h->w * h->h * 4, NULL);
  if (!in->buffers[0] || !in->buffers[1]) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

static double copy_run(struct instance *in, void *host) {
  struct copy_host *h = host;
  size_t origin[3] = {0, 0, 0}, region[3] = {h->w, h->h, 1};
  double t0 = bench_now();
  for (int r = 0; r < in->repeat; r++) {
    cl_int err = clEnqueueCopyImageToBuffer(in->env->queue, in->buffers[0], in->buffers[1], origin,
                                            region, 0, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clEnqueueCopyBufferToImage(in->env->queue, in->buffers[1], in->buffers[0], 0, origin,
                                       region, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      bench_report_cl_error("an image copy", err);
      return -1;
    }
  }
  if (clFinish(in->env->queue) != CL_SUCCESS)
    return -1;
  return bench_now() - t0;
}

static bool copy_check(struct instance *in, void *host) {
  struct copy_host *h = host;
  size_t bytes = h->w * h->h * 4;
  unsigned char *got = bench_alloc(bytes);
  bool ok = bench_read(in, 1, got, bytes) && memcmp(got, h->pixels, bytes) == 0;
  if (!ok)
    fprintf(stderr, "    the buffer does not hold the image's pixels\n");
  free(got);
  return ok;
}

const struct bench_case bench_image_cases[] = {
    {.name = "image_conv3x3_rgba8",
     .what = "2048^2 CL_RGBA/UNORM_INT8 image, 3x3 filter, nearest sampler, 4 times",
     .prepare = conv_rgba8_prepare, .open = image_open, .check = image_check,
     .close = image_close, .release_host = image_release},
    {.name = "image_conv3x3_rfloat",
     .what = "2048^2 CL_R/CL_FLOAT image, 3x3 filter, nearest sampler, 4 times",
     .prepare = conv_rfloat_prepare, .open = image_open, .check = image_check,
     .close = image_close, .release_host = image_release},
    {.name = "buffer_conv3x3_rgba8",
     .what = "the image_conv3x3_rgba8 filter through uchar4 buffers, clamped indices",
     .prepare = conv_buffer_prepare, .open = conv_buffer_open, .check = image_check,
     .release_host = image_release},
    {.name = "image_resize_linear_rgba8",
     .what = "2048^2 to 3072^2 CL_RGBA/UNORM_INT8, bilinear sampler, 4 times",
     .prepare = linear_rgba8_prepare, .open = image_open, .check = image_check,
     .close = image_close, .release_host = image_release},
    {.name = "image_resize_nearest_rfloat",
     .what = "2048^2 to 3072^2 CL_R/CL_FLOAT, nearest sampler, 4 times",
     .prepare = nearest_rfloat_prepare, .open = image_open, .check = image_check,
     .close = image_close, .release_host = image_release},
    {.name = "image_buffer_copy",
     .what = "4096^2 RGBA8 image copied to a buffer and back, 4 times",
     .limit = LIMIT_BANDWIDTH, .prepare = copy_prepare, .open = copy_open, .run = copy_run,
     .check = copy_check, .release_host = copy_release},
    {.name = NULL},
};
