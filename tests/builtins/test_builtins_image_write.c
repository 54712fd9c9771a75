/* Image builtins (OpenCL C 2.0, 6.13.14), the writes: images of every
 * format LoomCL supports, of every type (1D, 1D buffer, 1D array, 2D, 2D
 * array, 3D, and 2D and 2D array depth images), created through the API
 * from random data, are
 * - written by write_image{f,i,ui,h}, in and out of range;
 * - read and written in one kernel through read_write images;
 * - queried by get_image_* as write_only and read_write images.
 * The images read back are compared exactly with the host reference
 * tests/image_ref.h, and so is what the read_write kernels read (within a
 * small tolerance for sRGB). The reads are in test_builtins_image_read.c. */
#include "image_builtins_util.h"

#define NWRITE 48 /* work-items of a write launch */

/* ------------------------------------------------------------------ */
/* kernels                                                            */
/* ------------------------------------------------------------------ */

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

static cl_program write_prog, write_depth_prog;

/* ------------------------------------------------------------------ */
/* writes                                                             */
/* ------------------------------------------------------------------ */

/* one float colour component for format type t */
static float random_color(struct image_test *ctx, cl_channel_type t) {
  uint32_t r = rnd(ctx);
  if (t == CL_HALF_FLOAT || t == CL_FLOAT) {
    /* magnitudes from half subnormals to beyond half's range */
    float m = ldexpf(1.0f + rnd_unit(ctx), rnd_int(ctx, -26, 17));
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
    return (float)rnd_int(ctx, 0, 255) / 255.0f + 0.5f / 255.0f;
  default:
    return rnd_unit(ctx) * 1.6f - 0.3f;
  }
}

static uint32_t random_int_color(struct image_test *ctx) {
  uint32_t v = rnd(ctx);
  return rnd(ctx) % 2 ? v : (uint32_t)((int32_t)v >> rnd_int(ctx, 0, 31));
}

/* NWRITE integer coordinates: distinct pixels of the image, then (unless
 * in_range_only) coordinates with one component just or far outside */
static int write_coords(struct image_test *ctx, const struct ref_image *im, int *ic,
                        bool in_range_only) {
  int dims = ref_dims(im->type), lc = ref_layer_coord(im->type);
  int n = (int)ref_num_pixels(im);
  int *perm = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = rnd_int(ctx, 0, i), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  int inside = in_range_only ? (n < NWRITE ? n : NWRITE) : (n < NWRITE - 12 ? n : NWRITE - 12);
  int total = in_range_only ? inside : NWRITE;
  for (int p = 0; p < total; p++) {
    int *c = ic + 4 * p;
    for (int d = 0; d < 4; d++)
      c[d] = (int)rnd(ctx); /* unused components: garbage */
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
      int a = rnd_int(ctx, 0, num - 1);
      int off = rnd(ctx) % 2 ? rnd_int(ctx, 1, 3) : -rnd_int(ctx, 1, 3);
      c[coord_of[a]] = off < 0 ? off : sizes[a] - 1 + off;
    }
  }
  free(perm);
  return total;
}

/* The image read back (tight) against expected, compared under mask */
static void check_image(struct image_test *ctx, const struct ref_image *im, cl_mem img,
                        const uint8_t *expected, const uint8_t *mask, const char *what) {
  struct test_env *env = &ctx->env;
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
    if (count_failure(ctx, what, &im->format) && bad++ < 3 && ctx->reported++ < REPORT_MAX) {
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
static void test_writes(struct image_test *ctx, const struct shape *s, const cl_image_format *f,
                        bool rw) {
  struct test_env *env = &ctx->env;
  cl_program prog = s->depth ? write_depth_prog : write_prog;
  if (!prog)
    return;
  char cls = format_class(f);
  struct ref_image im;
  uint8_t *initial;
  cl_mem buf;
  cl_mem img = open_image(ctx, s, f, CL_MEM_READ_WRITE, &im, &initial, &buf);
  if (!img)
    return;

  int ic[4 * NWRITE];
  int total = write_coords(ctx, &im, ic, rw);
  float vf[4 * NWRITE];
  uint32_t vu[4 * NWRITE];
  for (int p = 0; p < total; p++)
    for (int k = 0; k < 4; k++) {
      vf[4 * p + k] = random_color(ctx, f->image_channel_data_type);
      vu[4 * p + k] = random_int_color(ctx);
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
    check_image(ctx, &im, img, expected, mask, rw ? "read_write write" : "write_image");

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
          check_f(ctx, "read_write read_imagef/h", &im, 0, p, NULL, ic + 4 * p, of + 4 * p, want,
                  NULL, 4, tolerance(&im, REF_NEAREST));
        } else {
          uint32_t want[4];
          ref_read_u_int(&im, -1, ic + 4 * p, want);
          check_u(ctx, "read_write read_imagei/ui", &im, 0, p, NULL, ic + 4 * p,
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
  test_queries(ctx, &im, img, qname, s->name);
  release(img);
  release(buf);
  free(initial);
}

/* ------------------------------------------------------------------ */

int main(void) {
  struct image_test ctx;
  if (!image_test_init(&ctx))
    return image_test_finish(&ctx, "test_builtins_image_write");
  write_prog = build(&ctx, write_src);
  if (ctx.have_depth)
    write_depth_prog = build(&ctx, write_depth_src);

  for (size_t si = 0; si < NUM_SHAPES; si++) {
    const struct shape *s = &shapes[si];
    if (s->depth && !ctx.have_depth)
      continue;
    for (int fi = 0; fi < ctx.num_formats; fi++) {
      const cl_image_format *f = &ctx.formats[fi];
      if (!shape_takes(s, f))
        continue;
      test_writes(&ctx, s, f, false);
      test_writes(&ctx, s, f, true);
    }
  }

  if (write_prog)
    clReleaseProgram(write_prog);
  if (write_depth_prog)
    clReleaseProgram(write_depth_prog);
  return image_test_finish(&ctx, "test_builtins_image_write");
}
