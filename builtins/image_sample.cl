/* Image coordinates: addressing modes, nearest and linear filtering, array
 * layer selection (OpenCL C 2.0, chapter "Image Addressing and Filtering"),
 * and the sampler-less reads and the writes (6.13.14).
 *
 * The axes of a coordinate are handled together, as the lanes of an int4 or
 * float4 (x, y, z): lanes an image does not filter get coordinate 0 and
 * extent 1, and the layer of an array image goes to lane z afterwards (see
 * image_impl.h). The addressing mode and the other sampler fields are the
 * same for every work-item of a launch, usually constants, so they are
 * tested with branches; what depends on the coordinate is selects. */
#include "image_impl.h"

#define EMIN(a, b) __builtin_elementwise_min(a, b)
#define EMAX(a, b) __builtin_elementwise_max(a, b)
#define FLOOR(x) __builtin_elementwise_floor(x)

/* (width, height, depth) of the image as (i, j, k) address it: the layer
 * count in k for arrays, 1 for the dimensions the shape lacks */
static INLINE int4 loom_smp_extent(loom_img_t img, int shape) {
  int dims = LOOM_SHAPE_DIMS(shape);
  int k = dims == 3 ? img->depth : LOOM_SHAPE_LAYER(shape) ? img->array_size : 1;
  /* at least 1: a descriptor with a zero size must still clamp into it */
  return max((int4)(img->width, dims > 1 ? img->height : 1, k, 1), 1);
}

/* lanes < dims: -1, others 0 */
static INLINE int4 loom_smp_used(int shape) {
  return (int4)(0, 1, 2, 3) < LOOM_SHAPE_DIMS(shape);
}

/* (int)x for x rounded to an integer, saturated to +-2^30 so that the index
 * arithmetic after it cannot overflow; NaN gives -2^30 (maxnum ignores it).
 * "If values in (u,v,w) are INF or NaN, the behavior of read_image{f|i|ui}
 * is undefined": here it is some pixel of the image or the border. */
static INLINE int4 loom_smp_to_int(float4 x) {
  return convert_int4(EMIN(EMAX(x, (float4)-0x1p30f), (float4)0x1p30f));
}

/* ---- layers ---- */

/* "When read using a sampler, the 2D image layer selected is computed as:
 * layer = clamp(rint(w), 0, dt - 1)" (and for 1D arrays from v). NaN gives
 * layer 0. */
static INLINE int loom_smp_layer_f(float w, int layers) {
  float r = __builtin_elementwise_roundeven(w);
  return (int)EMIN(EMAX(r, 0.0f), (float)(layers - 1));
}

/* puts the layer of an array image into lane z of ijk */
static INLINE int4 loom_smp_with_layer(int4 ijk, int layer, int shape) {
  return LOOM_SHAPE_LAYER(shape) ? (int4)(ijk.x, ijk.y, layer, ijk.w) : ijk;
}

/* ---- integer coordinates ---- */

/* (i, j, k) of an integer coordinate: the filtered axes, then the layer
 * ("layer = w (since w is already an integer)") in k */
static INLINE int4 loom_smp_ijk(int4 c, int shape) {
  int4 ijk = loom_smp_used(shape) ? c : 0;
  int l = LOOM_SHAPE_LAYER(shape);
  return l ? (int4)(ijk.x, ijk.y, l == 1 ? c.y : c.z, 0) : ijk;
}

/* x mod n in [0, n) */
static INLINE int4 loom_smp_wrap(int4 x, int4 n) {
  int4 m = x % n;
  return m < 0 ? m + n : m;
}

/* The addressing mode applied to the integer coordinate c of extent n.
 * "The read_imagef calls that take integer coordinates must use a sampler
 * with filter mode set to CLK_FILTER_NEAREST, normalized coordinates set to
 * CLK_NORMALIZED_COORDS_FALSE and addressing mode set to
 * CLK_ADDRESS_CLAMP_TO_EDGE, CLK_ADDRESS_CLAMP or CLK_ADDRESS_NONE":
 * integer coordinates are read as unnormalized, nearest, whatever the
 * sampler says about those two. *out: the lanes that read the border
 * (CLK_ADDRESS_CLAMP); the caller keeps only those of filtered axes ("The
 * addressing mode for the coordinate which specifies the array index is
 * always CLK_ADDRESS_CLAMP_TO_EDGE"). */
static INLINE int4 loom_smp_address_int(int4 c, int4 n, int smp, int4 *out) {
  int mode = smp & LOOM_SAMPLER_ADDRESS_MASK;
  int4 i = c;
  *out = 0;
  if (mode == LOOM_SAMPLER_ADDRESS_REPEAT) {
    /* The spec defines integer coordinates only with CLK_ADDRESS_NONE,
     * CLAMP_TO_EDGE and CLAMP; the repeating modes tile the image as they
     * do for normalized coordinates, with a period of n and 2n pixels. */
    i = loom_smp_wrap(c, n);
  } else if (mode == LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    int4 m = loom_smp_wrap(c, 2 * n);
    i = m < n ? m : 2 * n - 1 - m;
  } else if (mode == LOOM_SAMPLER_ADDRESS_CLAMP) {
    /* "CLK_ADDRESS_CLAMP: clamp (coord, -1, size)", and "If the selected
     * texel location (i,j,k) refers to a location outside the image, the
     * border color is used" */
    *out = c < 0 || c >= n;
  }
  /* "CLK_ADDRESS_CLAMP_TO_EDGE: clamp (coord, 0, size - 1)"; CLK_ADDRESS_NONE
   * out of the image ("the results are undefined") does the same; the
   * other modes are in range already */
  return clamp(i, (int4)0, n - 1);
}

/* ---- float coordinates ---- */

/* The repeating modes work on the normalized coordinate s. "This addressing
 * mode can only be used with normalized coordinates. If normalized
 * coordinates are not used, this addressing mode may generate image
 * coordinates that are undefined": unnormalized ones are normalized first. */
static INLINE float4 loom_smp_normalized(float4 s, float4 nf, int smp) {
  return (smp & LOOM_SAMPLER_NORMALIZED) ? s : s / nf;
}

/* "If image coordinates specified to read_image{f|i|ui} are normalized (as
 * specified in the sampler), the s, t, and r coordinate values are
 * multiplied by wt, ht, and dt respectively to generate the unnormalized
 * coordinate values." */
static INLINE float4 loom_smp_unnormalized(float4 s, float4 nf, int smp) {
  return (smp & LOOM_SAMPLER_NORMALIZED) ? s * nf : s;
}

/* "s' = 2.0f * rint(0.5f * s); s' = fabs(s - s')" */
static INLINE float4 loom_smp_mirror(float4 s) {
  float4 m = 2.0f * __builtin_elementwise_roundeven(0.5f * s);
  return __builtin_elementwise_abs(s - m);
}

/* CLK_FILTER_NEAREST: the pixel index of each lane of s (extent n), in range;
 * *out: the lanes that read the border */
static INLINE int4 loom_smp_nearest(float4 s, int4 n, int smp, int4 *out) {
  int mode = smp & LOOM_SAMPLER_ADDRESS_MASK;
  float4 nf = convert_float4(n);
  int4 i;
  *out = 0;
  if (mode == LOOM_SAMPLER_ADDRESS_REPEAT) {
    /* "u = (s - floor(s)) * w_t; i = (int)floor(u); if (i > w_t - 1) i = i -
     * w_t" */
    float4 sn = loom_smp_normalized(s, nf, smp);
    float4 u = (sn - FLOOR(sn)) * nf;
    i = loom_smp_to_int(FLOOR(u));
    i = i > n - 1 ? i - n : i;
  } else if (mode == LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    /* "u = s' * w_t; i = (int)floor(u); i = min(i, w_t - 1)" */
    float4 u = loom_smp_mirror(loom_smp_normalized(s, nf, smp)) * nf;
    i = min(loom_smp_to_int(FLOOR(u)), n - 1);
  } else {
    /* "i = address_mode((int)floor(u))" */
    i = loom_smp_to_int(FLOOR(loom_smp_unnormalized(s, nf, smp)));
    if (mode == LOOM_SAMPLER_ADDRESS_CLAMP)
      *out = i < 0 || i >= n;
  }
  /* in range whatever the coordinate was (also NaN, INF, CLAMP's -1 and
   * size, and CLK_ADDRESS_NONE outside the image) */
  return clamp(i, (int4)0, n - 1);
}

/* CLK_FILTER_LINEAR: the two pixel indices i0 and i1 of each lane of s
 * (extent n), in range, the weight *a of i1, and the lanes where i0 and i1
 * read the border */
static INLINE void loom_smp_linear(float4 s, int4 n, int smp, int4 *i0, int4 *i1, float4 *a,
                                   int4 *out0, int4 *out1) {
  int mode = smp & LOOM_SAMPLER_ADDRESS_MASK;
  float4 nf = convert_float4(n);
  float4 u;
  *out0 = 0;
  *out1 = 0;
  if (mode == LOOM_SAMPLER_ADDRESS_REPEAT) {
    float4 sn = loom_smp_normalized(s, nf, smp);
    u = (sn - FLOOR(sn)) * nf;
  } else if (mode == LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    u = loom_smp_mirror(loom_smp_normalized(s, nf, smp)) * nf;
  } else {
    u = loom_smp_unnormalized(s, nf, smp);
  }
  /* "i0 = (int)floor(u - 0.5); i1 = i0 + 1"; "a = frac(u - 0.5) ... where
   * frac(x) denotes the fractional part of x and is computed as x -
   * floor(x)" */
  float4 f = FLOOR(u - 0.5f);
  int4 j0 = loom_smp_to_int(f);
  int4 j1 = j0 + 1;
  *a = (u - 0.5f) - f;
  if (mode == LOOM_SAMPLER_ADDRESS_REPEAT) {
    /* "if (i0 < 0) i0 = w_t + i0; if (i1 > w_t - 1) i1 = i1 - w_t" */
    j0 = j0 < 0 ? n + j0 : j0;
    j1 = j1 > n - 1 ? j1 - n : j1;
  } else if (mode == LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    /* "i0 = max(i0, 0); i1 = min(i1, w_t - 1)" */
    j0 = max(j0, 0);
    j1 = min(j1, n - 1);
  } else if (mode == LOOM_SAMPLER_ADDRESS_CLAMP) {
    /* "If any of the selected T_ijk or T_ij in the above equations refers
     * to a location outside the image, the border color is used as the
     * color value for T_ijk or T_ij." */
    *out0 = j0 < 0 || j0 >= n;
    *out1 = j1 < 0 || j1 >= n;
  }
  *i0 = clamp(j0, (int4)0, n - 1);
  *i1 = clamp(j1, (int4)0, n - 1);
}

/* the layer (or 0) of the float coordinate c */
static INLINE int loom_smp_layer_of(float4 c, int4 ext, int shape) {
  int l = LOOM_SHAPE_LAYER(shape);
  return l ? loom_smp_layer_f(l == 1 ? c.y : c.z, ext.z) : 0;
}

/* ---- reads with a sampler ---- */

/* "T = (1 - a) * (1 - b) * (1 - c) * T_i0j0k0 + a * (1 - b) * (1 - c) *
 * T_i1j0k0 + (1 - a) * b * (1 - c) * T_i0j1k0 + ..." for the 2, 4 or 8
 * pixels of a 1D, 2D or 3D shape, in that order: bit d of t picks i1 on
 * axis d. (The spec writes out the 2D and 3D sums and, under
 * CLK_ADDRESS_MIRRORED_REPEAT, the 1D one; the 1D sum applies to every
 * mode.) */
static float4 loom_smp_read_linear(loom_img_t img, int smp, float4 c, int shape) {
  int dims = LOOM_SHAPE_DIMS(shape);
  int4 used = loom_smp_used(shape);
  int4 ext = loom_smp_extent(img, shape);
  int4 n = used ? ext : 1;
  int layer = loom_smp_layer_of(c, ext, shape);
  int4 i0, i1, out0, out1;
  float4 a;
  loom_smp_linear(used ? c : 0.0f, n, smp, &i0, &i1, &a, &out0, &out1);
  float4 border = loom_img_border_f(img);
  float4 sum = 0.0f;
  for (int t = 0; t < (1 << dims); t++) {
    int4 hi = ((int4)t & (int4)(1, 2, 4, 8)) != 0;
    int4 ijk = loom_smp_with_layer(hi ? i1 : i0, layer, shape);
    int4 out = (hi ? out1 : out0) & used;
    float4 wv = hi ? a : 1.0f - a;
    float w = wv.x;
    if (dims > 1)
      w *= wv.y;
    if (dims > 2)
      w *= wv.z;
    float4 texel = any(out) ? border : loom_img_texel_f(img, ijk);
    sum += w * texel;
  }
  return sum;
}

/* the pixel nearest to float coordinate c, its RGBA as read_imagef or the
 * integer reads see it (T float or uint; S names the pixel layer's
 * functions for T) */
#define LOOM_SMP_READ_NEAREST(T, S)                                            \
  static INLINE T##4 loom_smp_read_nearest_##S(loom_img_t img, int smp, float4 c, \
                                               int shape) {                    \
    int4 used = loom_smp_used(shape);                                          \
    int4 ext = loom_smp_extent(img, shape);                                    \
    int4 out;                                                                  \
    int4 i = loom_smp_nearest(used ? c : 0.0f, used ? ext : 1, smp, &out);     \
    int4 ijk = loom_smp_with_layer(i, loom_smp_layer_of(c, ext, shape), shape); \
    return any(out & used) ? loom_img_border_##S(img)                          \
                           : loom_img_texel_##S(img, ijk);                     \
  }
LOOM_SMP_READ_NEAREST(float, f)
LOOM_SMP_READ_NEAREST(uint, u)

float4 loom_img_sample_f(loom_img_t img, int smp, float4 coord, int shape) {
  if (smp & LOOM_SAMPLER_FILTER_LINEAR)
    return loom_smp_read_linear(img, smp, coord, shape);
  return loom_smp_read_nearest_f(img, smp, coord, shape);
}

/* "The filter_mode specified in sampler must be set to CLK_FILTER_NEAREST;
 * otherwise the values returned are undefined" (read_imagei/ui): the
 * nearest pixel whatever the filter. */
uint4 loom_img_sample_u(loom_img_t img, int smp, float4 coord, int shape) {
  return loom_smp_read_nearest_u(img, smp, coord, shape);
}

/* the pixel at integer coordinate c through the sampler's addressing mode;
 * its normalized-coordinates and filter fields do not apply ("must use a
 * sampler with filter mode set to CLK_FILTER_NEAREST, normalized
 * coordinates set to CLK_NORMALIZED_COORDS_FALSE") */
#define LOOM_SMP_READ_INT(T, S)                                                \
  T##4 loom_img_sample_##S##i(loom_img_t img, int smp, int4 coord, int shape) { \
    int4 ext = loom_smp_extent(img, shape);                                    \
    int4 out;                                                                  \
    int4 ijk = loom_smp_ijk(coord, shape);                                     \
    int4 i = loom_smp_address_int(ijk, ext, smp, &out);                        \
    /* the layer: clamped, never the border */                                 \
    int layer = clamp(ijk.z, 0, ext.z - 1);                                    \
    i = loom_smp_with_layer(i, layer, shape);                                  \
    return any(out & loom_smp_used(shape)) ? loom_img_border_##S(img)          \
                                           : loom_img_texel_##S(img, i);       \
  }
LOOM_SMP_READ_INT(float, f)
LOOM_SMP_READ_INT(uint, u)

/* ---- reads without a sampler ---- */

/* "The sampler-less image read functions behave exactly as the
 * corresponding built-in image read functions that take integer
 * coordinates and a sampler with filter mode set to CLK_FILTER_NEAREST,
 * normalized coordinates set to CLK_NORMALIZED_COORDS_FALSE and addressing
 * mode to CLK_ADDRESS_NONE": outside the image (undefined) the nearest
 * pixel of the image, and the layer clamped. */
static INLINE int4 loom_smp_fetch_ijk(loom_img_t img, int4 coord, int shape) {
  return clamp(loom_smp_ijk(coord, shape), (int4)0, loom_smp_extent(img, shape) - 1);
}

float4 loom_img_fetch_f(loom_img_t img, int4 coord, int shape) {
  return loom_img_texel_f(img, loom_smp_fetch_ijk(img, coord, shape));
}

uint4 loom_img_fetch_u(loom_img_t img, int4 coord, int shape) {
  return loom_img_texel_u(img, loom_smp_fetch_ijk(img, coord, shape));
}

/* ---- writes ---- */

/* "coord.x and coord.y are considered to be unnormalized coordinates, and
 * must be in the range [0, image width-1] and [0, image height-1]" (and the
 * layer or depth likewise); outside them the behaviour is undefined and
 * LoomCL writes nothing. */
static INLINE bool loom_smp_inside(loom_img_t img, int4 ijk, int shape) {
  int4 ext = loom_smp_extent(img, shape);
  return all((int4)(ijk.xyz, 0) >= 0 && (int4)(ijk.xyz, 0) < (int4)(ext.xyz, 1));
}

#define LOOM_SMP_WRITE(T, NAME, STORE)                                         \
  void NAME(loom_img_t img, int4 coord, T##4 color, int shape) {               \
    int4 ijk = loom_smp_ijk(coord, shape);                                     \
    if (loom_smp_inside(img, ijk, shape))                                      \
      STORE(img, ijk, color);                                                  \
  }
LOOM_SMP_WRITE(float, loom_img_write_f, loom_img_store_f)
LOOM_SMP_WRITE(int, loom_img_write_i, loom_img_store_i)
LOOM_SMP_WRITE(uint, loom_img_write_u, loom_img_store_u)
