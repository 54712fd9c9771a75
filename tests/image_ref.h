/* Host reference of OpenCL images for the image builtin tests, written from
 * the specifications, not from the builtin library: the memory layout of
 * every channel order and data type LoomCL supports (OpenCL API 2.2,
 * 5.3.1.1 "Image Format Descriptor"), the conversions of read_image{f,i,ui}
 * and write_image{f,i,ui} (OpenCL C 2.0, "Conversion Rules"), the border
 * colour (6.13.14), and nearest and linear sampling in every addressing
 * mode with normalized and unnormalized coordinates, array layers and 3D
 * images ("Image Addressing and Filtering").
 *
 * The sampling functions return false where the spec leaves the result
 * undefined. They follow LoomCL's rules where LoomCL defines what the spec
 * does not (its memory-safety rule, builtins/image_impl.h):
 * - a coordinate outside the image with CLK_ADDRESS_NONE, or in a
 *   sampler-less read, reads the nearest pixel of the image (as
 *   CLK_ADDRESS_CLAMP_TO_EDGE), and layers are clamped;
 * - read_imagei/read_imageui with CLK_FILTER_LINEAR read the nearest pixel;
 * - integer coordinates with a sampler ignore its normalized-coordinates
 *   and filter fields; with the repeating modes they wrap (period n, or 2n
 *   mirrored);
 * - CL_sRGB, absent from the spec's border colour lists, has the opaque
 *   border (0, 0, 0, 1) of the other orders without alpha;
 * - write_imagef to CL_INTENSITY and CL_LUMINANCE stores the red component.
 *
 * Floating-point arithmetic is float, in the order the spec writes it (the
 * test builds with -std=c11: no contraction into fused operations). */
#ifndef LOOM_TEST_IMAGE_REF_H
#define LOOM_TEST_IMAGE_REF_H
#include "half_ref.h"
#include "harness.h"
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* the sampler bit field of OpenCL C (CLK_*) */
#define REF_NORMALIZED 0x1
#define REF_ADDRESS_MASK 0xe
#define REF_ADDRESS_NONE 0x0
#define REF_CLAMP_TO_EDGE 0x2
#define REF_CLAMP 0x4
#define REF_REPEAT 0x6
#define REF_MIRRORED_REPEAT 0x8
#define REF_NEAREST 0x10
#define REF_LINEAR 0x20

/* ---------------- formats ---------------- */

/* "Each channel component is a normalized signed 8-bit integer value" ...:
 * bytes of one channel, 0 for the packed types */
static inline int ref_channel_size(cl_channel_type t) {
  switch (t) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

static inline bool ref_is_signed(cl_channel_type t) {
  return t == CL_SNORM_INT8 || t == CL_SNORM_INT16 || t == CL_SIGNED_INT8 ||
         t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}

/* read_imagei / read_imageui formats */
static inline bool ref_is_int(cl_channel_type t) {
  return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}
static inline bool ref_is_uint(cl_channel_type t) {
  return t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

/* The packed types: "the channels are normally packed with the first
 * channel in the most significant bits of the bitfield". For field k (R, G,
 * B, A) its lowest bit and width; the number of fields; 0 if not packed. */
static inline int ref_packed_fields(cl_channel_type t, int shift[4], int width[4]) {
  static const int s565[] = {11, 5, 0}, w565[] = {5, 6, 5};
  static const int s555[] = {10, 5, 0}, w555[] = {5, 5, 5};
  static const int s10[] = {20, 10, 0}, w10[] = {10, 10, 10};
  static const int s102[] = {22, 12, 2, 0}, w102[] = {10, 10, 10, 2};
  const int *s, *w;
  int n;
  switch (t) {
  case CL_UNORM_SHORT_565: /* "R is in bits 15:11, G is in bits 10:5 and B is in bits 4:0" */
    s = s565, w = w565, n = 3;
    break;
  case CL_UNORM_SHORT_555: /* "bit 15 is undefined, R is in bits 14:10, G in bits 9:5 and B in bits 4:0" */
    s = s555, w = w555, n = 3;
    break;
  case CL_UNORM_INT_101010: /* "bits 31:30 are undefined, R is in bits 29:20, G in bits 19:10 and B in bits 9:0" */
    s = s10, w = w10, n = 3;
    break;
  case CL_UNORM_INT_101010_2: /* "R is in bits 31:22, G in bits 21:12, B in bits 11:2 and A in bits 1:0" */
    s = s102, w = w102, n = 4;
    break;
  default:
    return 0;
  }
  for (int k = 0; k < n; k++)
    shift[k] = s[k], width[k] = w[k];
  return n;
}

static inline int ref_packed_size(cl_channel_type t) {
  int s[4], w[4];
  int n = ref_packed_fields(t, s, w);
  return n == 0 ? 0 : s[0] + w[0] > 16 ? 4 : 2;
}

/* Table 14: the channels of an order in memory order. R G B A, D (depth),
 * I (intensity: "replicated into the RED, GREEN, BLUE, and ALPHA
 * components"), L (luminance: "replicated into the RED, GREEN, and BLUE
 * components"), x (ignored: "the second channel is ignored"). */
static inline const char *ref_order_layout(cl_channel_order o) {
  switch (o) {
  case CL_R:
    return "R";
  case CL_A:
    return "A";
  case CL_DEPTH:
    return "D";
  case CL_INTENSITY:
    return "I";
  case CL_LUMINANCE:
    return "L";
  case CL_RG:
    return "RG";
  case CL_RA:
    return "RA";
  case CL_Rx: /* its x channel is not stored: one channel, as the CTS has it */
    return "R";
  case CL_RGB:
  case CL_sRGB:
    return "RGB";
  case CL_RGx: /* two channels stored, as the CTS has it */
    return "RG";
  case CL_RGBA:
  case CL_sRGBA:
    return "RGBA";
  case CL_BGRA:
  case CL_sBGRA:
    return "BGRA";
  case CL_ARGB:
    return "ARGB";
  case CL_ABGR:
    return "ABGR";
  case CL_RGBx:
  case CL_sRGBx:
    return "RGBx";
  default:
    return "";
  }
}

static inline bool ref_is_srgb(cl_channel_order o) {
  return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

/* "the border color is (0.0f, 0.0f, 0.0f, 0.0f)" for CL_A, CL_INTENSITY,
 * CL_Rx, CL_RA, CL_RGx, CL_RGBx, CL_sRGBx, CL_ARGB, CL_BGRA, CL_ABGR,
 * CL_RGBA, CL_sRGBA, CL_sBGRA; "(0.0f, 0.0f, 0.0f, 1.0f)" for CL_R, CL_RG,
 * CL_RGB, CL_LUMINANCE; "If the image channel order is CL_DEPTH, the border
 * value is 0.0f." */
static inline int ref_border_alpha(cl_channel_order o) {
  /* the x orders too: the CTS (test_image_streams) expects an opaque border
   * for every order without alpha, against the spec's list above */
  return o == CL_R || o == CL_RG || o == CL_RGB || o == CL_LUMINANCE || o == CL_sRGB ||
         o == CL_Rx || o == CL_RGx || o == CL_RGBx || o == CL_sRGBx;
}

/* ---------------- images ---------------- */

/* An image as the test created it: pixels stored tightly (no padding
 * between rows, slices or layers). layout is ref_order_layout's unless the
 * implementation stores another channel count (see the test). */
struct ref_image {
  cl_mem_object_type type;
  cl_image_format format;
  const char *layout;
  int width, height, depth, array_size; /* 1 where the type has none */
  const uint8_t *data;
};

static inline size_t ref_pixel_size(const struct ref_image *im) {
  int packed = ref_packed_size(im->format.image_channel_data_type);
  return packed ? (size_t)packed
                : (size_t)ref_channel_size(im->format.image_channel_data_type) *
                      strlen(im->layout);
}

/* "1D image" ... "3D image": how many coordinates address pixels, and which
 * coordinate (if any) selects the layer of an array */
static inline int ref_dims(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE3D                                             ? 3
         : t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2
                                                                              : 1;
}
static inline int ref_layer_coord(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2 : -1;
}
static inline int ref_layers(const struct ref_image *im) {
  return ref_layer_coord(im->type) < 0 ? 1 : im->array_size;
}
/* "Let wt, ht and dt be the width, height ... and depth ... of the image in
 * pixels" */
static inline int ref_axis_size(const struct ref_image *im, int axis) {
  return axis == 0 ? im->width : axis == 1 ? im->height : im->depth;
}
static inline size_t ref_num_pixels(const struct ref_image *im) {
  size_t n = (size_t)im->width * (size_t)ref_layers(im);
  if (ref_dims(im->type) > 1)
    n *= (size_t)im->height;
  if (ref_dims(im->type) > 2)
    n *= (size_t)im->depth;
  return n;
}

/* the pixel at (i, j, k) of layer l (each 0 where the type lacks it) */
static inline const uint8_t *ref_pixel(const struct ref_image *im, int i, int j, int k, int l) {
  size_t w = (size_t)im->width, h = (size_t)im->height;
  size_t index;
  switch (im->type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    index = (size_t)l * w + (size_t)i;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    index = (size_t)j * w + (size_t)i;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    index = ((size_t)l * h + (size_t)j) * w + (size_t)i;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    index = ((size_t)k * h + (size_t)j) * w + (size_t)i;
    break;
  default:
    index = (size_t)i;
  }
  return im->data + index * ref_pixel_size(im);
}

/* ---------------- stored values ---------------- */

/* the little-endian integer of `size` bytes at p, sign-extended if asked */
static inline int64_t ref_load_int(const uint8_t *p, int size, bool sign) {
  uint64_t v = 0;
  for (int b = 0; b < size; b++)
    v |= (uint64_t)p[b] << (8 * b);
  if (sign && size < 8 && (v >> (8 * size - 1)) & 1)
    v |= ~(uint64_t)0 << (8 * size);
  return (int64_t)v;
}

static inline void ref_store_int(uint8_t *p, int size, uint64_t v) {
  for (int b = 0; b < size; b++)
    p[b] = (uint8_t)(v >> (8 * b));
}

/* channel c (memory order) of the pixel at p as an integer: the stored
 * value of a regular type (its bits for half and float), the field of a
 * packed one */
static inline int64_t ref_channel_int(const struct ref_image *im, const uint8_t *p, int c) {
  cl_channel_type t = im->format.image_channel_data_type;
  int shift[4], width[4];
  if (ref_packed_fields(t, shift, width)) {
    uint32_t v = (uint32_t)ref_load_int(p, ref_packed_size(t), false);
    return (v >> shift[c]) & ((1u << width[c]) - 1);
  }
  int size = ref_channel_size(t);
  return ref_load_int(p + c * size, size, ref_is_signed(t));
}

/* "Conversion rules for normalized integer channel data types", "for half
 * precision floating-point", "for floating-point channel data type":
 * channel c of the pixel at p as read_imagef converts it */
static inline float ref_channel_float(const struct ref_image *im, const uint8_t *p, int c) {
  cl_channel_type t = im->format.image_channel_data_type;
  int64_t v = ref_channel_int(im, p, c);
  int shift[4], width[4];
  if (ref_packed_fields(t, shift, width))
    return (float)v / (float)((1 << width[c]) - 1); /* "(float)c / 1023.0f" */
  switch (t) {
  case CL_UNORM_INT8:
    return (float)v / 255.0f;
  case CL_UNORM_INT16:
    return (float)v / 65535.0f;
  case CL_SNORM_INT8:
    return fmaxf(-1.0f, (float)v / 127.0f);
  case CL_SNORM_INT16:
    return fmaxf(-1.0f, (float)v / 32767.0f);
  case CL_HALF_FLOAT:
    return half_to_float((uint16_t)v);
  case CL_FLOAT: {
    uint32_t bits = (uint32_t)v;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  default: /* integer types: undefined for read_imagef */
    return (float)v;
  }
}

/* "if (c <= 0.04045), result = c / 12.92; else result = powr((c + 0.055) /
 * 1.055, 2.4)" */
static inline float ref_srgb_to_linear(float c) {
  double x = c;
  return (float)(x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4));
}

/* write_imagef into an sRGB image: "if (c is NaN) c = 0.0; if (c > 1.0) c =
 * 1.0 else if (c < 0.0) c = 0.0 else if (c < 0.0031308) c = 12.92 * c else
 * c = 1.055 * powr(c, 1.0/2.4) - 0.055", in double. *near_half: the value
 * times 255 lies within 0.02 of a rounding boundary, where the spec's
 * precision for the conversion allows either neighbour */
static inline float ref_linear_to_srgb(float c, bool *near_half) {
  double x = c != c ? 0.0 : c > 1.0f ? 1.0 : c < 0.0f ? 0.0 : c;
  double s = x < 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055;
  double v = s * 255.0;
  *near_half = fabs(v - floor(v) - 0.5) < 0.02;
  return (float)s;
}

/* The component (0..3 for R, G, B, A) channel ch of a layout feeds, or -1;
 * for the packed types the fields are R, G, B (and A) whatever the order
 * says (CL_RGBx packs the same fields as CL_RGB). */
static inline int ref_component(char ch) {
  return ch == 'R' || ch == 'D' ? 0 : ch == 'G' ? 1 : ch == 'B' ? 2 : ch == 'A' ? 3 : -1;
}

/* the pixel at p as read_imagef returns it: "Missing channels read as 0,
 * alpha as 1" */
static inline void ref_pixel_f(const struct ref_image *im, const uint8_t *p, float out[4]) {
  cl_channel_type t = im->format.image_channel_data_type;
  int shift[4], width[4];
  out[0] = out[1] = out[2] = 0.0f;
  out[3] = 1.0f;
  int fields = ref_packed_fields(t, shift, width);
  if (fields) {
    for (int c = 0; c < fields; c++)
      out[c] = ref_channel_float(im, p, c);
  } else {
    for (int c = 0; im->layout[c]; c++) {
      float v = ref_channel_float(im, p, c);
      char ch = im->layout[c];
      if (ch == 'I')
        out[0] = out[1] = out[2] = out[3] = v;
      else if (ch == 'L')
        out[0] = out[1] = out[2] = v;
      else if (ref_component(ch) >= 0)
        out[ref_component(ch)] = v;
    }
  }
  /* "the conversion from sRGB to linear RGB is performed before the filter";
   * "the alpha data is stored in linear color space" */
  if (ref_is_srgb(im->format.image_channel_order))
    for (int c = 0; c < 3; c++)
      out[c] = ref_srgb_to_linear(out[c]);
}

/* the pixel at p as read_imagei / read_imageui return it ("return the
 * unmodified integer values stored"), as 32-bit patterns */
static inline void ref_pixel_u(const struct ref_image *im, const uint8_t *p, uint32_t out[4]) {
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  for (int c = 0; im->layout[c]; c++) {
    uint32_t v = (uint32_t)ref_channel_int(im, p, c);
    char ch = im->layout[c];
    if (ch == 'I')
      out[0] = out[1] = out[2] = out[3] = v;
    else if (ch == 'L')
      out[0] = out[1] = out[2] = v;
    else if (ref_component(ch) >= 0)
      out[ref_component(ch)] = v;
  }
}

/* ---------------- writes ---------------- */

/* "convert_<T>_sat_rte(x)": round to nearest even, saturate; NaN gives 0 */
static inline int64_t ref_sat_rte(float x, int64_t lo, int64_t hi) {
  if (isnan(x))
    return 0;
  if (x <= (float)lo)
    return lo;
  if (x >= (float)hi)
    return hi;
  return (int64_t)nearbyintf(x); /* the default rounding: to nearest even */
}

static inline int64_t ref_sat(int64_t x, int64_t lo, int64_t hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

/* the value and bit mask of each stored channel (memory order) of a pixel
 * being written: channel c holds the component ref_write_source(layout[c])
 * (the red one for R, I, L and D); an ignored channel (x) is undefined, its
 * mask 0 */
static inline int ref_write_source(char ch) {
  return ch == 'A' ? 3 : ch == 'G' ? 1 : ch == 'B' ? 2 : 0;
}

/* Encodes rgba as write_imagef stores it into the pixel at p; mask (same
 * size) receives the bits whose value the spec defines. */
static inline void ref_encode_f(const struct ref_image *im, const float rgba_in[4], uint8_t *p,
                                uint8_t *mask) {
  cl_channel_type t = im->format.image_channel_data_type;
  float rgba[4] = {rgba_in[0], rgba_in[1], rgba_in[2], rgba_in[3]};
  size_t ps = ref_pixel_size(im);
  memset(mask, 0, ps);
  bool near_half[4] = {false, false, false, false};
  if (ref_is_srgb(im->format.image_channel_order)) /* cl_khr_srgb_image_writes */
    for (int c = 0; c < 3; c++)
      rgba[c] = ref_linear_to_srgb(rgba[c], &near_half[c]);
  int shift[4], width[4];
  int fields = ref_packed_fields(t, shift, width);
  if (fields) {
    /* "min(convert_ushort_sat_rte(f * 1023.0f), 0x3ff)", each field by its
     * maximum */
    uint32_t v = 0, m = 0;
    for (int c = 0; c < fields; c++) {
      int64_t max = (1 << width[c]) - 1;
      int64_t f = ref_sat_rte(rgba[c] * (float)max, 0, 65535);
      v |= (uint32_t)(f < max ? f : max) << shift[c];
      m |= (uint32_t)max << shift[c];
    }
    ref_store_int(p, (int)ps, v);
    ref_store_int(mask, (int)ps, m);
    return;
  }
  int size = ref_channel_size(t);
  for (int c = 0; im->layout[c]; c++) {
    char ch = im->layout[c];
    if (ch == 'x')
      continue;
    float f = rgba[ref_write_source(ch)];
    uint64_t v;
    switch (t) {
    case CL_UNORM_INT8: /* "convert_uchar_sat_rte(f * 255.0f)" */
      v = (uint64_t)ref_sat_rte(f * 255.0f, 0, 255);
      break;
    case CL_UNORM_INT16: /* "convert_ushort_sat_rte(f * 65535.0f)" */
      v = (uint64_t)ref_sat_rte(f * 65535.0f, 0, 65535);
      break;
    case CL_SNORM_INT8: /* "convert_char_sat_rte(f * 127.0f)" */
      v = (uint64_t)ref_sat_rte(f * 127.0f, -128, 127);
      break;
    case CL_SNORM_INT16: /* "convert_short_sat_rte(f * 32767.0f)" */
      v = (uint64_t)ref_sat_rte(f * 32767.0f, -32768, 32767);
      break;
    case CL_HALF_FLOAT: /* round to nearest even ("or round to zero": LoomCL rounds to nearest) */
      v = half_from_ld((long double)f, H_RTE);
      break;
    case CL_FLOAT: { /* "All other values must be preserved." */
      uint32_t bits;
      memcpy(&bits, &f, 4);
      v = bits;
      break;
    }
    default:
      continue; /* write_imagef to an integer format: undefined */
    }
    ref_store_int(p + c * size, size, v);
    memset(mask + c * size, near_half[ref_write_source(ch)] ? 0 : 0xff, (size_t)size);
  }
}

/* write_imagei ("convert_char_sat(i)", "convert_short_sat(i)", "no
 * conversion") and write_imageui ("convert_uchar_sat(i)", ...) into an image
 * of a signed or unsigned integer format */
static inline void ref_encode_u(const struct ref_image *im, const uint32_t rgba[4], bool is_signed,
                                uint8_t *p, uint8_t *mask) {
  cl_channel_type t = im->format.image_channel_data_type;
  int size = ref_channel_size(t);
  memset(mask, 0, ref_pixel_size(im));
  for (int c = 0; im->layout[c]; c++) {
    char ch = im->layout[c];
    if (ch == 'x')
      continue;
    uint32_t x = rgba[ref_write_source(ch)];
    int64_t v = is_signed ? (int64_t)(int32_t)x : (int64_t)x;
    int bits = 8 * size;
    if (is_signed && bits < 32)
      v = ref_sat(v, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
    else if (!is_signed && bits < 32)
      v = ref_sat(v, 0, ((int64_t)1 << bits) - 1);
    ref_store_int(p + c * size, size, (uint64_t)v);
    memset(mask + c * size, 0xff, (size_t)size);
  }
}

/* ---------------- addressing and filtering ---------------- */

static inline int ref_clampi(int a, int b, int c) { return a < b ? b : a > c ? c : a; }

/* "(int)floor(x)" for the moderate coordinates the tests use */
static inline int ref_floor_int(float x) { return (int)floorf(x); }

/* frac(x) "is computed as x - floor(x)" */
static inline float ref_frac(float x) { return x - floorf(x); }

/* u, coordinate s on an axis of size n as both filters see it, by the
 * addressing mode of smp; false: undefined (the repeating modes with
 * unnormalized coordinates) */
static inline bool ref_scaled(float s, int n, unsigned smp, float *u) {
  int mode = (int)(smp & REF_ADDRESS_MASK);
  bool norm = (smp & REF_NORMALIZED) != 0;
  if ((mode == REF_REPEAT || mode == REF_MIRRORED_REPEAT) && !norm)
    return false;
  if (mode == REF_REPEAT) {
    /* "u = (s - floor(s)) * w_t" */
    *u = (s - floorf(s)) * (float)n;
  } else if (mode == REF_MIRRORED_REPEAT) {
    /* "s' = 2.0f * rint(0.5f * s); s' = fabs(s - s'); u = s' * w_t" */
    float sp = 2.0f * rintf(0.5f * s);
    sp = fabsf(s - sp);
    *u = sp * (float)n;
  } else {
    /* "the s, t, and r coordinate values are multiplied by wt, ht, and dt" */
    *u = norm ? s * (float)n : s;
  }
  return true;
}

/* Filter mode CLK_FILTER_NEAREST on one axis of size n: the pixel index
 * *i, and *border when it lies outside the image under CLK_ADDRESS_CLAMP.
 * false: undefined (the repeating modes with unnormalized coordinates). */
static inline bool ref_nearest(float s, int n, unsigned smp, int *i, bool *border) {
  int mode = (int)(smp & REF_ADDRESS_MASK);
  float u;
  *border = false;
  if (!ref_scaled(s, n, smp, &u))
    return false;
  /* "i = (int)floor(u)" (CLK_ADDRESS_REPEAT, CLK_ADDRESS_MIRRORED_REPEAT);
   * "i = address_mode((int)floor(u))" */
  int c = ref_floor_int(u);
  if (mode == REF_REPEAT) {
    /* "if (i > w_t - 1) i = i - w_t" */
    *i = c > n - 1 ? c - n : c;
    return true;
  }
  if (mode == REF_MIRRORED_REPEAT) {
    /* "i = min(i, w_t - 1)" */
    *i = c > n - 1 ? n - 1 : c;
    return true;
  }
  if (mode == REF_CLAMP) {
    c = ref_clampi(c, -1, n); /* "clamp (coord, -1, size)" */
    *border = c < 0 || c > n - 1;
  }
  /* CLK_ADDRESS_CLAMP_TO_EDGE: "clamp (coord, 0, size - 1)"; CLK_ADDRESS_NONE
   * outside the image: LoomCL's rule, the same */
  *i = ref_clampi(c, 0, n - 1);
  return true;
}

/* Filter mode CLK_FILTER_LINEAR on one axis: the two indices, the weight
 * *a ("a = frac(u - 0.5)") and whether each reads the border */
static inline bool ref_linear(float s, int n, unsigned smp, int *i0, int *i1, float *a,
                              bool *border0, bool *border1) {
  int mode = (int)(smp & REF_ADDRESS_MASK);
  float u;
  *border0 = *border1 = false;
  if (!ref_scaled(s, n, smp, &u))
    return false;
  /* "i0 = (int)floor(u - 0.5); i1 = i0 + 1" (CLK_ADDRESS_REPEAT,
   * CLK_ADDRESS_MIRRORED_REPEAT); "i0 = address_mode((int)floor(u - 0.5));
   * i1 = address_mode((int)floor(u - 0.5) + 1)" */
  int c0 = ref_floor_int(u - 0.5f), c1 = c0 + 1;
  *a = ref_frac(u - 0.5f);
  if (mode == REF_REPEAT) {
    /* "if (i0 < 0) i0 = w_t + i0; if (i1 > w_t - 1) i1 = i1 - w_t" */
    *i0 = c0 < 0 ? n + c0 : c0;
    *i1 = c1 > n - 1 ? c1 - n : c1;
    return true;
  }
  if (mode == REF_MIRRORED_REPEAT) {
    /* "i0 = max(i0, 0); i1 = min(i1, w_t - 1)" */
    *i0 = c0 < 0 ? 0 : c0;
    *i1 = c1 > n - 1 ? n - 1 : c1;
    return true;
  }
  if (mode == REF_CLAMP) {
    c0 = ref_clampi(c0, -1, n);
    c1 = ref_clampi(c1, -1, n);
    *border0 = c0 < 0 || c0 > n - 1;
    *border1 = c1 < 0 || c1 > n - 1;
  }
  *i0 = ref_clampi(c0, 0, n - 1);
  *i1 = ref_clampi(c1, 0, n - 1);
  return true;
}

/* "layer = clamp(rint(w), 0, dt - 1)" (w: v for 1D arrays) */
static inline int ref_layer(float w, int layers) {
  float r = rintf(w);
  return r < 0.0f ? 0 : r > (float)(layers - 1) ? layers - 1 : (int)r;
}

/* The pixel or border colour at index (i, j, k) (unused ones 0) of layer
 * l, for read_imagef */
static inline void ref_tap_f(const struct ref_image *im, const int ijk[3], bool border, int l,
                             float out[4]) {
  if (border) {
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = (float)ref_border_alpha(im->format.image_channel_order);
    return;
  }
  ref_pixel_f(im, ref_pixel(im, ijk[0], ijk[1], ijk[2], l), out);
}

static inline void ref_tap_u(const struct ref_image *im, const int ijk[3], bool border, int l,
                             uint32_t out[4]) {
  if (border) {
    out[0] = out[1] = out[2] = 0;
    out[3] = (uint32_t)ref_border_alpha(im->format.image_channel_order);
    return;
  }
  ref_pixel_u(im, ref_pixel(im, ijk[0], ijk[1], ijk[2], l), out);
}

/* the layer of float coordinate c (0 for images that are not arrays) */
static inline int ref_layer_of(const struct ref_image *im, const float c[4]) {
  int lc = ref_layer_coord(im->type);
  return lc < 0 ? 0 : ref_layer(c[lc], im->array_size);
}

/* "If values in (u,v,w) are INF or NaN, the behavior of read_image{f|i|ui}
 * is undefined": false then (the components the image does not use, such
 * as coord.w of a 3D image, which "is ignored", may be anything) */
static inline bool ref_coord_finite(const struct ref_image *im, const float c[4]) {
  int lc = ref_layer_coord(im->type);
  for (int d = 0; d < ref_dims(im->type); d++)
    if (!isfinite(c[d]))
      return false;
  return lc < 0 || isfinite(c[lc]);
}

/* nearest: the index of every axis, any border */
static inline bool ref_nearest_all(const struct ref_image *im, unsigned smp, const float c[4],
                                   int ijk[3], bool *border) {
  ijk[0] = ijk[1] = ijk[2] = 0;
  *border = false;
  for (int d = 0; d < ref_dims(im->type); d++) {
    bool b;
    if (!ref_nearest(c[d], ref_axis_size(im, d), smp, &ijk[d], &b))
      return false;
    *border = *border || b;
  }
  return true;
}

/* read_imagef(image, sampler, float coordinate); false where undefined.
 * mag (may be NULL) receives the sum of the magnitudes of the terms added,
 * the scale of the rounding errors of a linear filter (|out| for nearest). */
static inline bool ref_read_f(const struct ref_image *im, unsigned smp, const float c[4],
                              float out[4], float mag[4]) {
  cl_channel_type t = im->format.image_channel_data_type;
  if (!ref_coord_finite(im, c))
    return false;
  int l = ref_layer_of(im, c);
  if (!(smp & REF_LINEAR)) {
    int ijk[3];
    bool border;
    if (!ref_nearest_all(im, smp, c, ijk, &border))
      return false;
    ref_tap_f(im, ijk, border, l, out);
    for (int k = 0; mag && k < 4; k++)
      mag[k] = fabsf(out[k]);
    return true;
  }
  if (ref_is_int(t) || ref_is_uint(t))
    return false; /* linear filtering of an integer format */
  int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float w[3] = {0, 0, 0};
  bool b0[3] = {false, false, false}, b1[3] = {false, false, false};
  int dims = ref_dims(im->type);
  for (int d = 0; d < dims; d++)
    if (!ref_linear(c[d], ref_axis_size(im, d), smp, &i0[d], &i1[d], &w[d], &b0[d], &b1[d]))
      return false;
  float a = w[0], b = w[1], cc = w[2];
  float T[8][4];
  /* T[bits]: bit 0 picks i1 on x, bit 1 on y, bit 2 on z */
  for (int n = 0; n < (1 << dims); n++) {
    int ijk[3];
    bool border = false;
    for (int d = 0; d < 3; d++) {
      bool hi = (n >> d) & 1;
      ijk[d] = hi ? i1[d] : i0[d];
      border = border || (d < dims && (hi ? b1[d] : b0[d]));
    }
    ref_tap_f(im, ijk, border, l, T[n]);
  }
  for (int k = 0; k < 4; k++) {
    if (dims == 1)
      /* "T = (1 - a) * T_i0 + a * T_i1" */
      out[k] = (1 - a) * T[0][k] + a * T[1][k];
    else if (dims == 2)
      /* "T = (1 - a) * (1 - b) * T_i0j0 + a * (1 - b) * T_i1j0 + (1 - a) * b
       * * T_i0j1 + a * b * T_i1j1" */
      out[k] = (1 - a) * (1 - b) * T[0][k] + a * (1 - b) * T[1][k] + (1 - a) * b * T[2][k] +
               a * b * T[3][k];
    else
      out[k] = (1 - a) * (1 - b) * (1 - cc) * T[0][k] + a * (1 - b) * (1 - cc) * T[1][k] +
               (1 - a) * b * (1 - cc) * T[2][k] + a * b * (1 - cc) * T[3][k] +
               (1 - a) * (1 - b) * cc * T[4][k] + a * (1 - b) * cc * T[5][k] +
               (1 - a) * b * cc * T[6][k] + a * b * cc * T[7][k];
    if (mag) {
      mag[k] = 0.0f;
      for (int n = 0; n < (1 << dims); n++)
        mag[k] += fabsf(T[n][k]);
    }
  }
  return true;
}

/* read_imagei / read_imageui(image, sampler, float coordinate): nearest
 * whatever the filter (LoomCL's rule for linear) */
static inline bool ref_read_u(const struct ref_image *im, unsigned smp, const float c[4],
                              uint32_t out[4]) {
  if (!ref_coord_finite(im, c))
    return false;
  int ijk[3];
  bool border;
  if (!ref_nearest_all(im, smp & ~(unsigned)REF_LINEAR, c, ijk, &border))
    return false;
  ref_tap_u(im, ijk, border, ref_layer_of(im, c), out);
  return true;
}

/* Integer coordinate c on an axis of size n with a sampler: "must use a
 * sampler with ... normalized coordinates set to
 * CLK_NORMALIZED_COORDS_FALSE and addressing mode set to
 * CLK_ADDRESS_CLAMP_TO_EDGE, CLK_ADDRESS_CLAMP or CLK_ADDRESS_NONE";
 * LoomCL's rules for the rest (see the top of this file) */
static inline int ref_address_int(int c, int n, unsigned smp, bool *border) {
  int mode = (int)(smp & REF_ADDRESS_MASK);
  *border = false;
  if (mode == REF_REPEAT)
    return ((c % n) + n) % n;
  if (mode == REF_MIRRORED_REPEAT) {
    int m = ((c % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  if (mode == REF_CLAMP)
    *border = c < 0 || c > n - 1;
  return ref_clampi(c, 0, n - 1);
}

/* the pixel index and layer of an integer coordinate with a sampler
 * (smp_or_none < 0: a sampler-less read, CLK_ADDRESS_NONE clamped) */
static inline void ref_int_coord(const struct ref_image *im, long smp_or_none, const int c[4],
                                 int ijk[3], int *l, bool *border) {
  unsigned smp = smp_or_none < 0 ? REF_ADDRESS_NONE : (unsigned)smp_or_none;
  ijk[0] = ijk[1] = ijk[2] = 0;
  *border = false;
  for (int d = 0; d < ref_dims(im->type); d++) {
    bool b;
    ijk[d] = ref_address_int(c[d], ref_axis_size(im, d), smp, &b);
    *border = *border || b;
  }
  /* "The addressing mode for the coordinate which specifies the array index
   * is always CLK_ADDRESS_CLAMP_TO_EDGE." */
  int lc = ref_layer_coord(im->type);
  *l = lc < 0 ? 0 : ref_clampi(c[lc], 0, im->array_size - 1);
}

/* read_imagef with an integer coordinate; smp < 0: without a sampler */
static inline void ref_read_f_int(const struct ref_image *im, long smp, const int c[4],
                                  float out[4]) {
  int ijk[3], l;
  bool border;
  ref_int_coord(im, smp, c, ijk, &l, &border);
  ref_tap_f(im, ijk, border, l, out);
}

static inline void ref_read_u_int(const struct ref_image *im, long smp, const int c[4],
                                  uint32_t out[4]) {
  int ijk[3], l;
  bool border;
  ref_int_coord(im, smp, c, ijk, &l, &border);
  ref_tap_u(im, ijk, border, l, out);
}

/* The pixel a write at integer coordinate c goes to, or NULL when c lies
 * outside the image ("must be in the range [0, image width-1]": LoomCL
 * drops the write). data is the image's tight copy being updated. */
static inline uint8_t *ref_write_target(const struct ref_image *im, uint8_t *data,
                                        const int c[4]) {
  int dims = ref_dims(im->type), lc = ref_layer_coord(im->type);
  int ijk[3] = {0, 0, 0}, l = 0;
  for (int d = 0; d < dims; d++) {
    if (c[d] < 0 || c[d] >= ref_axis_size(im, d))
      return NULL;
    ijk[d] = c[d];
  }
  if (lc >= 0) {
    if (c[lc] < 0 || c[lc] >= im->array_size)
      return NULL;
    l = c[lc];
  }
  return data + (ref_pixel(im, ijk[0], ijk[1], ijk[2], l) - im->data);
}

#endif
