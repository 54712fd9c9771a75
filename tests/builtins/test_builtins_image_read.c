/* Image builtins (OpenCL C 2.0, 6.13.14 and "Image Addressing and
 * Filtering"), the reads: images of every format LoomCL supports, of every
 * type (1D, 1D buffer, 1D array, 2D, 2D array, 3D, and 2D and 2D array
 * depth images), created through the API from random data, are read with
 * every sampler (normalized coordinates or not, each addressing mode,
 * nearest and linear filtering), with float coordinates and integer ones
 * (in and out of range), and without a sampler, by read_image{f,i,ui} and
 * read_imageh, and through program-scope and kernel-scope constant
 * samplers; read-only images are queried by get_image_*. Results are
 * compared with the host reference tests/image_ref.h: exactly for nearest
 * filtering and integer coordinates, within a small tolerance for linear
 * filtering and sRGB. Reads the spec leaves undefined (NaN or infinite
 * coordinates, the repeating modes with unnormalized coordinates) are
 * checked only to return a pixel of the image or the border colour
 * (nearest) and not to crash. The writes are in
 * test_builtins_image_write.c. */
#include "image_builtins_util.h"

/* A read launch runs NPTS work-items on ordinary coordinates, then NWILD
 * on NaN, infinite and huge float coordinates (with ordinary integer ones). */
#define NPTS 64
#define NWILD 32
#define NALL (NPTS + NWILD)

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

static cl_program read_prog, read_depth_prog;

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
static float random_coord(struct image_test *ctx, int n) {
  int k = rnd_int(ctx, -2, n + 1);
  switch (rnd(ctx) % 8) {
  case 0:
    return (float)k;
  case 1:
    return (float)k + 0.5f;
  case 2:
    return (float)k + rnd_unit(ctx);
  case 3:
    return (float)k - 1.0f / 1024.0f;
  default:
    return (rnd_unit(ctx) * 3.0f - 1.0f) * (float)n;
  }
}

/* a float layer coordinate around the layers (ties of rint included) */
static float random_layer(struct image_test *ctx, int layers) {
  switch (rnd(ctx) % 3) {
  case 0:
    return (float)rnd_int(ctx, -1, layers);
  case 1:
    return (float)rnd_int(ctx, -1, layers) + 0.5f;
  default:
    return rnd_unit(ctx) * (float)(layers + 2) - 1.5f;
  }
}

/* NPTS float coordinates for im, unnormalized (fu) and normalized (fn: the
 * same points over the sizes; layers stay unnormalized), and NALL integer
 * ones (ic). Components the image does not use hold garbage (NaN for
 * floats): they are ignored. */
static void random_coords(struct image_test *ctx, const struct ref_image *im, float *fu, float *fn,
                          int *ic) {
  int dims = ref_dims(im->type), lc = ref_layer_coord(im->type);
  for (int p = 0; p < NALL; p++) {
    float c[4] = {NAN, NAN, NAN, NAN};
    for (int d = 0; d < 4; d++)
      ic[4 * p + d] = (int)rnd(ctx);
    for (int d = 0; d < dims; d++) {
      int n = ref_axis_size(im, d);
      c[d] = random_coord(ctx, n);
      ic[4 * p + d] = rnd_int(ctx, -2, n + 1);
    }
    if (lc >= 0) {
      c[lc] = random_layer(ctx, im->array_size);
      ic[4 * p + lc] = rnd_int(ctx, -1, im->array_size);
    }
    for (int d = 0; p < NPTS && d < 4; d++) {
      fu[4 * p + d] = c[d];
      fn[4 * p + d] = d < dims ? c[d] / (float)ref_axis_size(im, d) : c[d];
    }
  }
}

/* NWILD coordinates where reads are undefined: NaN, infinities, huge
 * values */
static void wild_coords(struct image_test *ctx, const struct ref_image *im, float *f) {
  static const float wild[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 3e9f, -3e9f, 0.5f};
  for (int p = 0; p < NWILD; p++)
    for (int d = 0; d < 4; d++)
      f[4 * p + d] = d < ref_dims(im->type) || d == ref_layer_coord(im->type)
                         ? wild[rnd(ctx) % 8]
                         : 0.0f;
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
static void check_some_pixel(struct image_test *ctx, const struct ref_image *im, unsigned smp,
                             int p, const float *c, const float *got, char cls, int comps) {
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
  report(ctx, "undefined read: not a pixel", im, smp, p, c, NULL, g, "a pixel or the border");
}

/* the results of one read launch against the reference */
static void check_reads(struct image_test *ctx, const struct ref_image *im,
                        const struct sampler *smp, const struct read_bufs *b, char cls, int comps,
                        bool buffer) {
  unsigned bits = smp->bits;
  int mode = (int)(bits & REF_ADDRESS_MASK);
  bool undefined = !(bits & REF_NORMALIZED) && (mode == REF_REPEAT || mode == REF_MIRRORED_REPEAT);
  for (int p = 0; p < NALL; p++) {
    const float *c = b->fc_host + 4 * p;
    const int *ic = b->ic_host + 4 * p;
    const float *got = b->of + 3 * comps * p;
    if (!buffer && (undefined || p >= NPTS))
      check_some_pixel(ctx, im, bits, p, c, got, cls, comps);
    if (cls == 'f') {
      float want[4], mag[4];
      if (!buffer && !undefined && p < NPTS && ref_read_f(im, bits, c, want, mag))
        check_f(ctx, "read_imagef(sampler, float)", im, bits, p, c, NULL, got, want, mag, comps,
                tolerance(im, bits));
      if (!buffer) {
        ref_read_f_int(im, bits, ic, want);
        check_f(ctx, "read_imagef(sampler, int)", im, bits, p, NULL, ic, got + comps, want, NULL,
                comps, tolerance(im, REF_NEAREST));
      }
      ref_read_f_int(im, -1, ic, want);
      check_f(ctx, "read_imagef(int)", im, bits, p, NULL, ic, got + 2 * comps, want, NULL, comps,
              tolerance(im, REF_NEAREST));
      if (comps == 4)
        for (int r = 0; r < 3; r++)
          check_h(ctx, im, bits, p, b->oh_host + 4 * (3 * p + r), got + 4 * r);
    } else {
      const uint32_t *gu = (const uint32_t *)got;
      uint32_t want[4];
      const char *fn = cls == 'i' ? "read_imagei" : "read_imageui";
      char what[64];
      if (!buffer && !undefined && p < NPTS && ref_read_u(im, bits, c, want)) {
        snprintf(what, sizeof what, "%s(sampler, float)", fn);
        check_u(ctx, what, im, bits, p, c, NULL, gu, want);
      }
      if (!buffer) {
        ref_read_u_int(im, bits, ic, want);
        snprintf(what, sizeof what, "%s(sampler, int)", fn);
        check_u(ctx, what, im, bits, p, NULL, ic, gu + 4, want);
      }
      ref_read_u_int(im, -1, ic, want);
      snprintf(what, sizeof what, "%s(int)", fn);
      check_u(ctx, what, im, bits, p, NULL, ic, gu + 8, want);
    }
  }
}

static void test_reads(struct image_test *ctx, const struct shape *s, const cl_image_format *f,
                       struct read_bufs *b) {
  struct test_env *env = &ctx->env;
  cl_program prog = s->depth ? read_depth_prog : read_prog;
  if (!prog)
    return;
  char cls = format_class(f);
  int comps = s->depth ? 1 : 4;
  bool buffer = s->type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  struct ref_image im;
  uint8_t *data;
  cl_mem buf;
  cl_mem img = open_image(ctx, s, f, CL_MEM_READ_ONLY, &im, &data, &buf);
  if (!img)
    return;

  cl_kernel k = kernel_of(prog, "rd", s, cls);
  if (k) {
    random_coords(ctx, &im, b->fu, b->fn, b->ic_host);
    wild_coords(ctx, &im, b->fc_host + 4 * NPTS);
    CHECK_OK(clEnqueueWriteBuffer(env->queue, b->ic, CL_TRUE, 0, sizeof b->ic_host, b->ic_host,
                                  0, NULL, NULL));
    for (int i = 0; i < num_samplers; i++) {
      const struct sampler *smp = &samplers[i];
      if (buffer && i > 0)
        break; /* no sampler: one launch is enough */
      memcpy(b->fc_host, smp->bits & REF_NORMALIZED ? b->fn : b->fu, sizeof b->fu);
      if (!run_read(env, k, img, smp, b, (size_t)comps))
        break;
      check_reads(ctx, &im, smp, b, cls, comps, buffer);
    }
    clReleaseKernel(k);
  }

  /* queries of a read-only image */
  char qname[32];
  snprintf(qname, sizeof qname, "q_%s_read_only", s->name);
  test_queries(ctx, &im, img, qname, s->name);

  release(img);
  release(buf);
  free(data);
}

/* ------------------------------------------------------------------ */
/* constant samplers                                                  */
/* ------------------------------------------------------------------ */

static void test_constant_samplers(struct image_test *ctx, struct read_bufs *b) {
  struct test_env *env = &ctx->env;
  static const cl_image_format f = {CL_RGBA, CL_UNORM_INT16};
  const struct shape *s = &shapes[3]; /* 2D */
  struct ref_image im = ref_of(s, &f);
  uint8_t *data = random_pixels(ctx, &im);
  im.data = data;
  cl_mem buf;
  cl_mem img = create_image(env, &im, CL_MEM_READ_ONLY, &buf);
  cl_int err;
  cl_kernel k = clCreateKernel(read_prog, "rd_const_2d", &err);
  CHECK_OK(err);
  if (img && k) {
    random_coords(ctx, &im, b->fu, b->fn, b->ic_host);
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
        check_f(ctx, "constant sampler", &im, cs, p, b->fn + 4 * p, NULL, b->of + 8 * p, want, mag,
                4, tolerance(&im, cs));
      ref_read_f_int(&im, ks, b->ic_host + 4 * p, want);
      check_f(ctx, "kernel-scope sampler", &im, ks, p, NULL, b->ic_host + 4 * p, b->of + 8 * p + 4,
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

int main(void) {
  struct image_test ctx;
  if (!image_test_init(&ctx))
    return image_test_finish(&ctx, "test_builtins_image_read");
  read_prog = build(&ctx, read_src);
  if (ctx.have_depth)
    read_depth_prog = build(&ctx, read_depth_src);
  create_samplers(&ctx.env);

  struct read_bufs *b = calloc(1, sizeof *b);
  cl_int err;
  b->fc = clCreateBuffer(ctx.env.context, CL_MEM_READ_WRITE, sizeof b->fc_host, NULL, &err);
  b->ic = clCreateBuffer(ctx.env.context, CL_MEM_READ_WRITE, sizeof b->ic_host, NULL, &err);
  b->o = clCreateBuffer(ctx.env.context, CL_MEM_READ_WRITE, sizeof b->of, NULL, &err);
  b->oh = clCreateBuffer(ctx.env.context, CL_MEM_READ_WRITE, sizeof b->oh_host, NULL, &err);

  for (size_t si = 0; si < NUM_SHAPES; si++) {
    const struct shape *s = &shapes[si];
    if (s->depth && !ctx.have_depth)
      continue;
    for (int fi = 0; fi < ctx.num_formats; fi++) {
      const cl_image_format *f = &ctx.formats[fi];
      if (!shape_takes(s, f))
        continue;
      test_reads(&ctx, s, f, b);
    }
  }
  if (read_prog)
    test_constant_samplers(&ctx, b);

  clReleaseMemObject(b->fc);
  clReleaseMemObject(b->ic);
  clReleaseMemObject(b->o);
  clReleaseMemObject(b->oh);
  free(b);
  for (int i = 0; i < num_samplers; i++)
    clReleaseSampler(samplers[i].s);
  if (read_prog)
    clReleaseProgram(read_prog);
  if (read_depth_prog)
    clReleaseProgram(read_depth_prog);
  return image_test_finish(&ctx, "test_builtins_image_read");
}
