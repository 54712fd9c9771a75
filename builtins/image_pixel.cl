/* One pixel of an image: where it lies, how its channels are stored, and
 * how they convert to and from the RGBA colour a kernel reads and writes
 * (OpenCL API 2.2, 5.3.1.1 "Image Format Descriptor"; OpenCL C 2.0, 8.3
 * "Conversion Rules" and 6.13.14 for the border colour).
 *
 * A pixel is handled in three steps each way. Reading: its stored channels
 * are loaded as 32-bit integers in storage order ("slots": R G B A for
 * CL_RGBA, B G R A for CL_BGRA, the unpacked fields of the packed formats),
 * converted by the channel data type, then moved into RGBA by the channel
 * order. Writing goes back the same way. The format tests are on the
 * image's descriptor, the same for every work-item, so they are uniform
 * branches; the pixel's own data decides nothing. */
#include "image_impl.h"

/* ---- where a pixel lies ---- */

/* "Pixel (x, y, z) of layer l lies at data + x * pixel_size + y * row_pitch
 * + z * slice_pitch" (loom_image.h); the layer of an array is k here. In
 * 64 bits: the products of large images overflow an int. */
static INLINE __global uchar *loom_px_addr(loom_img_t img, int4 ijk) {
  return img->data + (long)ijk.x * img->pixel_size + (long)ijk.y * img->row_pitch +
         (long)ijk.z * img->slice_pitch;
}

/* ---- storage classes of the channel data types ---- */

/* bytes of one stored channel; 0 for the packed formats and the types
 * LoomCL does not support */
static INLINE int loom_px_elem_size(int type) {
  switch (type) {
  case CLK_SNORM_INT8:
  case CLK_UNORM_INT8:
  case CLK_SIGNED_INT8:
  case CLK_UNSIGNED_INT8:
    return 1;
  case CLK_SNORM_INT16:
  case CLK_UNORM_INT16:
  case CLK_SIGNED_INT16:
  case CLK_UNSIGNED_INT16:
  case CLK_HALF_FLOAT:
    return 2;
  case CLK_SIGNED_INT32:
  case CLK_UNSIGNED_INT32:
  case CLK_FLOAT:
    return 4;
  default:
    return 0;
  }
}

/* The number of channels stored per pixel (CL_Rx: 2, CL_RGx: 3), never more
 * than pixel_size holds, so that a descriptor whose fields disagree still
 * cannot make a pixel access reach its neighbour's or the next row's end. */
static INLINE int loom_px_channels(loom_img_t img, int es) {
  int n = min(max(img->num_channels, 1), 4);
  return es > 0 ? min(n, img->pixel_size / es) : 0;
}

/* "For these special packed image formats, the channels are normally packed
 * with the first channel in the most significant bits of the bitfield": the
 * bytes a packed pixel takes (2 or 4), or 0 when the type is not packed or
 * the descriptor's pixel_size cannot hold it */
static INLINE int loom_px_packed_size(loom_img_t img, int type) {
  int size = type == CLK_UNORM_SHORT_565 || type == CLK_UNORM_SHORT_555 ? 2
             : type == CLK_UNORM_INT_101010 || type == CLK_UNORM_INT_101010_2 ? 4
                                                                              : 0;
  return size <= img->pixel_size ? size : 0;
}

/* ---- loads and stores of the slots ---- */

/* the channels of a pixel need only be aligned to a byte: a row pitch the
 * application chose may move any pixel anywhere */
typedef ushort __attribute__((aligned(1))) loom_u16_ua;
typedef uint __attribute__((aligned(1))) loom_u32_ua;

/* the first n (1 to 4) slots of v from q[0] to q[n - 1], and back, each
 * converted to the element type T of q */
#define LOOM_PX_GET_N(v, q, n)                                                 \
  do {                                                                         \
    (v).x = (q)[0];                                                            \
    if ((n) > 1)                                                               \
      (v).y = (q)[1];                                                          \
    if ((n) > 2)                                                               \
      (v).z = (q)[2];                                                          \
    if ((n) > 3)                                                               \
      (v).w = (q)[3];                                                          \
  } while (0)
#define LOOM_PX_PUT_N(q, T, v, n)                                              \
  do {                                                                         \
    (q)[0] = (T)(v).x;                                                         \
    if ((n) > 1)                                                               \
      (q)[1] = (T)(v).y;                                                       \
    if ((n) > 2)                                                               \
      (q)[2] = (T)(v).z;                                                       \
    if ((n) > 3)                                                               \
      (q)[3] = (T)(v).w;                                                       \
  } while (0)

typedef ulong __attribute__((aligned(1))) loom_u64_ua;

/* The slots of a pixel of up to 8 bytes go through memory as one integer
 * (x86 is little-endian: slot i is bits [i*es*8, (i+1)*es*8)). In a
 * vectorised work-item loop a pixel is then one 32- or 64-bit gather or
 * scatter: x86 has none of 8 or 16 bits, and a gather per channel made
 * LLVM's cost model keep image loops scalar. */
static INLINE uint4 loom_px_split(ulong w, int es) {
  ulong mask = es == 1 ? 0xffUL : es == 2 ? 0xffffUL : 0xffffffffUL;
  int bits = es * 8;
  return (uint4)((uint)(w & mask), (uint)((w >> bits) & mask), (uint)((w >> (2 * bits)) & mask),
                 (uint)((w >> (3 * bits)) & mask));
}

static INLINE ulong loom_px_join(uint4 v, int es) {
  ulong mask = es == 1 ? 0xffUL : es == 2 ? 0xffffUL : 0xffffffffUL;
  int bits = es * 8;
  return ((ulong)v.x & mask) | ((ulong)v.y & mask) << bits | ((ulong)v.z & mask) << (2 * bits) |
         ((ulong)v.w & mask) << (3 * bits);
}

/* the first n channels of es bytes at p, zero-extended; the others 0 */
static INLINE uint4 loom_px_load_slots(__global const uchar *p, int es, int n) {
  uint4 v = 0;
  if (n < 1)
    return v;
  int bytes = es * n;
  uint4 keep = (uint4)(1, n > 1, n > 2, n > 3) * 0xffffffffu;
  if (bytes == 2)
    return loom_px_split(*(__global const loom_u16_ua *)p, es) & keep;
  if (bytes == 4)
    return loom_px_split(*(__global const loom_u32_ua *)p, es) & keep;
  if (bytes == 8)
    return loom_px_split(*(__global const loom_u64_ua *)p, es) & keep;
  if (es == 1)
    LOOM_PX_GET_N(v, p, n);
  else if (es == 2)
    LOOM_PX_GET_N(v, (__global const loom_u16_ua *)p, n);
  else if (es == 4)
    LOOM_PX_GET_N(v, (__global const loom_u32_ua *)p, n);
  return v;
}

/* stores the low es bytes of the first n slots at p */
static INLINE void loom_px_store_slots(__global uchar *p, uint4 v, int es, int n) {
  if (n < 1)
    return;
  int bytes = es * n;
  uint4 keep = (uint4)(1, n > 1, n > 2, n > 3) * 0xffffffffu;
  if (bytes == 2)
    *(__global loom_u16_ua *)p = (ushort)loom_px_join(v & keep, es);
  else if (bytes == 4)
    *(__global loom_u32_ua *)p = (uint)loom_px_join(v & keep, es);
  else if (bytes == 8)
    *(__global loom_u64_ua *)p = loom_px_join(v & keep, es);
  else if (es == 1)
    LOOM_PX_PUT_N(p, uchar, v, n);
  else if (es == 2)
    LOOM_PX_PUT_N((__global loom_u16_ua *)p, ushort, v, n);
  else if (es == 4)
    LOOM_PX_PUT_N((__global loom_u32_ua *)p, uint, v, n);
}

/* the fields of a packed pixel as slots (R, G, B, A) */
static INLINE uint4 loom_px_unpack(uint v, int type) {
  switch (type) {
  /* "For CL_UNORM_SHORT_565, R is in bits 15:11, G is in bits 10:5 and B is
   * in bits 4:0." */
  case CLK_UNORM_SHORT_565:
    return (uint4)(v >> 11, v >> 5, v, 0) & (uint4)(0x1f, 0x3f, 0x1f, 0);
  /* "For CL_UNORM_SHORT_555, bit 15 is undefined, R is in bits 14:10, G in
   * bits 9:5 and B in bits 4:0." */
  case CLK_UNORM_SHORT_555:
    return (uint4)(v >> 10, v >> 5, v, 0) & (uint4)(0x1f, 0x1f, 0x1f, 0);
  /* "For CL_UNORM_INT_101010, bits 31:30 are undefined, R is in bits 29:20,
   * G in bits 19:10 and B in bits 9:0." */
  case CLK_UNORM_INT_101010:
    return (uint4)(v >> 20, v >> 10, v, 0) & (uint4)(0x3ff, 0x3ff, 0x3ff, 0);
  /* "For CL_UNORM_INT_101010_2, R is in bits 31:22, G in bits 21:12, B in
   * bits 11:2 and A in bits 1:0." */
  default:
    return (uint4)(v >> 22, v >> 12, v >> 2, v) & (uint4)(0x3ff, 0x3ff, 0x3ff, 3);
  }
}

/* the inverse of loom_px_unpack; the undefined bits are written as 0 */
static INLINE uint loom_px_pack(uint4 s, int type) {
  switch (type) {
  case CLK_UNORM_SHORT_565:
    return (s.x & 0x1f) << 11 | (s.y & 0x3f) << 5 | (s.z & 0x1f);
  case CLK_UNORM_SHORT_555:
    return (s.x & 0x1f) << 10 | (s.y & 0x1f) << 5 | (s.z & 0x1f);
  case CLK_UNORM_INT_101010:
    return (s.x & 0x3ff) << 20 | (s.y & 0x3ff) << 10 | (s.z & 0x3ff);
  default:
    return (s.x & 0x3ff) << 22 | (s.y & 0x3ff) << 12 | (s.z & 0x3ff) << 2 | (s.w & 3);
  }
}

/* The stored slots of the pixel at p, zero-extended (the packed formats
 * unpacked); 0 for a type LoomCL does not support */
static INLINE uint4 loom_px_load(loom_img_t img, __global const uchar *p) {
  int type = img->channel_type;
  int es = loom_px_elem_size(type);
  if (es)
    return loom_px_load_slots(p, es, loom_px_channels(img, es));
  int packed = loom_px_packed_size(img, type);
  if (packed == 2)
    return loom_px_unpack(*(__global const loom_u16_ua *)p, type);
  if (packed == 4)
    return loom_px_unpack(*(__global const loom_u32_ua *)p, type);
  return 0;
}

/* stores the slots s (each already in its channel's range, as its bits) */
static INLINE void loom_px_store(loom_img_t img, __global uchar *p, uint4 s) {
  int type = img->channel_type;
  int es = loom_px_elem_size(type);
  if (es) {
    loom_px_store_slots(p, s, es, loom_px_channels(img, es));
    return;
  }
  int packed = loom_px_packed_size(img, type);
  if (packed == 2)
    *(__global loom_u16_ua *)p = (ushort)loom_px_pack(s, type);
  else if (packed == 4)
    *(__global loom_u32_ua *)p = loom_px_pack(s, type);
}

/* ---- channel order ---- */

/* "Missing channels read as 0, alpha as 1": RGBA from the slots c, for
 * read_imagef (T float, ONE 1.0f) and the integer reads (T uint, ONE 1).
 * Table 14 of the API spec: CL_Rx, CL_RGx and CL_RGBx ignore their last
 * channel; "CL_INTENSITY ... replicated into all four components",
 * "CL_LUMINANCE ... replicated into the RGB components; alpha is 1.0". */
#define LOOM_ORDER_READ(T, ONE)                                                \
  static INLINE T##4 loom_px_order_read_##T(int order, T##4 c) {               \
    switch (order) {                                                           \
    case CLK_R:                                                                \
    case CLK_Rx:                                                               \
    case CLK_DEPTH:                                                            \
      return (T##4)(c.x, 0, 0, ONE);                                           \
    case CLK_A:                                                                \
      return (T##4)(0, 0, 0, c.x);                                             \
    case CLK_RG:                                                               \
    case CLK_RGx:                                                              \
      return (T##4)(c.x, c.y, 0, ONE);                                         \
    case CLK_RA:                                                               \
      return (T##4)(c.x, 0, 0, c.y);                                           \
    case CLK_RGB:                                                              \
    case CLK_RGBx:                                                             \
    case CLK_sRGB:                                                             \
    case CLK_sRGBx:                                                            \
      return (T##4)(c.x, c.y, c.z, ONE);                                       \
    case CLK_BGRA:                                                             \
    case CLK_sBGRA:                                                            \
      return c.zyxw;                                                           \
    case CLK_ARGB:                                                             \
      return c.yzwx;                                                           \
    case CLK_ABGR:                                                             \
      return c.wzyx;                                                           \
    case CLK_INTENSITY:                                                        \
      return c.xxxx;                                                           \
    case CLK_LUMINANCE:                                                        \
      return (T##4)(c.x, c.x, c.x, ONE);                                       \
    default: /* CL_RGBA, CL_sRGBA */                                           \
      return c;                                                                \
    }                                                                          \
  }
LOOM_ORDER_READ(float, 1.0f)
LOOM_ORDER_READ(uint, 1u)

/* The slots to store for the colour v: the inverse of the above. A channel
 * that is ignored (the x of CL_Rx, CL_RGx, CL_RGBx, CL_sRGBx) is written as
 * 0; CL_INTENSITY and CL_LUMINANCE store the red component. */
#define LOOM_ORDER_WRITE(T)                                                    \
  static INLINE T##4 loom_px_order_write_##T(int order, T##4 v) {              \
    switch (order) {                                                           \
    case CLK_R:                                                                \
    case CLK_Rx:                                                               \
    case CLK_DEPTH:                                                            \
    case CLK_INTENSITY:                                                        \
    case CLK_LUMINANCE:                                                        \
      return (T##4)(v.x, 0, 0, 0);                                             \
    case CLK_A:                                                                \
      return (T##4)(v.w, 0, 0, 0);                                             \
    case CLK_RG:                                                               \
    case CLK_RGx:                                                              \
      return (T##4)(v.x, v.y, 0, 0);                                           \
    case CLK_RA:                                                               \
      return (T##4)(v.x, v.w, 0, 0);                                           \
    case CLK_RGB:                                                              \
    case CLK_RGBx:                                                             \
    case CLK_sRGB:                                                             \
      return (T##4)(v.x, v.y, v.z, 0);                                         \
    case CLK_sRGBx: /* the ignored byte keeps alpha, as the CTS expects */     \
      return v;                                                                \
    case CLK_BGRA:                                                             \
    case CLK_sBGRA:                                                            \
      return v.zyxw;                                                           \
    case CLK_ARGB:                                                             \
      return v.wxyz;                                                           \
    case CLK_ABGR:                                                             \
      return v.wzyx;                                                           \
    default: /* CL_RGBA, CL_sRGBA */                                           \
      return v;                                                                \
    }                                                                          \
  }
LOOM_ORDER_WRITE(float)
LOOM_ORDER_WRITE(uint)

static INLINE bool loom_px_is_srgb(int order) {
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

/* ---- sRGB ---- */

/* "if (c <= 0.04045), result = c / 12.92; else result = powr((c + 0.055) /
 * 1.055, 2.4)" for c = x / 255.0f, computed in double for each of the 256
 * values of x and rounded once to float: "The resulting floating point
 * value, if converted back to an sRGB value without rounding to a 8-bit
 * unsigned integer value, must be within 0.5 ulp of the original sRGB
 * value." */
static __constant float loom_srgb_to_linear[256] = {
    0.0f, 0x1.3e4568p-12f, 0x1.3e4568p-11f, 0x1.dd681cp-11f, 0x1.3e4568p-10f,
    0x1.8dd6c2p-10f, 0x1.dd681cp-10f, 0x1.167cbap-9f, 0x1.3e4568p-9f,
    0x1.660e14p-9f, 0x1.8dd6c2p-9f, 0x1.b6a31cp-9f, 0x1.e1e31ep-9f,
    0x1.07c38cp-8f, 0x1.1fcc2cp-8f, 0x1.390ffap-8f, 0x1.53936cp-8f,
    0x1.6f5adep-8f, 0x1.8c6a94p-8f, 0x1.aac6cp-8f, 0x1.ca7382p-8f,
    0x1.eb74e2p-8f, 0x1.06e76cp-7f, 0x1.18c2a6p-7f, 0x1.2b4e0ap-7f,
    0x1.3e8b7cp-7f, 0x1.527cd6p-7f, 0x1.6723eep-7f, 0x1.7c8292p-7f,
    0x1.929a88p-7f, 0x1.a96d92p-7f, 0x1.c0fd68p-7f, 0x1.d94bbep-7f,
    0x1.f25a44p-7f, 0x1.061552p-6f, 0x1.135f3ep-6f, 0x1.210bb8p-6f,
    0x1.2f1b8cp-6f, 0x1.3d8f84p-6f, 0x1.4c6866p-6f, 0x1.5ba6fap-6f,
    0x1.6b4c04p-6f, 0x1.7b5842p-6f, 0x1.8bcc74p-6f, 0x1.9ca958p-6f,
    0x1.adefaap-6f, 0x1.bfa02p-6f, 0x1.d1bb74p-6f, 0x1.e4425ap-6f,
    0x1.f73586p-6f, 0x1.054ad4p-5f, 0x1.0f31bap-5f, 0x1.194fccp-5f,
    0x1.23a55ep-5f, 0x1.2e32c8p-5f, 0x1.38f86p-5f, 0x1.43f678p-5f,
    0x1.4f2d64p-5f, 0x1.5a9d76p-5f, 0x1.664702p-5f, 0x1.722a56p-5f,
    0x1.7e47c8p-5f, 0x1.8a9fa4p-5f, 0x1.97323ap-5f, 0x1.a3ffd8p-5f,
    0x1.b108dp-5f, 0x1.be4d6cp-5f, 0x1.cbcdfap-5f, 0x1.d98ac6p-5f,
    0x1.e7841cp-5f, 0x1.f5ba48p-5f, 0x1.0216cap-4f, 0x1.096f26p-4f,
    0x1.10e65cp-4f, 0x1.187c9p-4f, 0x1.2031e8p-4f, 0x1.280688p-4f,
    0x1.2ffa92p-4f, 0x1.380e2ap-4f, 0x1.404174p-4f, 0x1.489494p-4f,
    0x1.5107acp-4f, 0x1.599adep-4f, 0x1.624e4ep-4f, 0x1.6b221ep-4f,
    0x1.74167p-4f, 0x1.7d2b66p-4f, 0x1.86612p-4f, 0x1.8fb7cp-4f, 0x1.992f68p-4f,
    0x1.a2c83ap-4f, 0x1.ac8256p-4f, 0x1.b65ddcp-4f, 0x1.c05aecp-4f,
    0x1.ca79a8p-4f, 0x1.d4ba3p-4f, 0x1.df1ca2p-4f, 0x1.e9a12p-4f,
    0x1.f447cap-4f, 0x1.ff10bcp-4f, 0x1.04fe0cp-3f, 0x1.0a84fep-3f,
    0x1.101d44p-3f, 0x1.15c6eep-3f, 0x1.1b8208p-3f, 0x1.214ea6p-3f,
    0x1.272cd4p-3f, 0x1.2d1ca2p-3f, 0x1.331e1ep-3f, 0x1.393158p-3f,
    0x1.3f566p-3f, 0x1.458d42p-3f, 0x1.4bd60ep-3f, 0x1.5230d4p-3f,
    0x1.589dap-3f, 0x1.5f1c84p-3f, 0x1.65ad8ap-3f, 0x1.6c50c4p-3f,
    0x1.73063ep-3f, 0x1.79ce06p-3f, 0x1.80a82ep-3f, 0x1.8794cp-3f,
    0x1.8e93ccp-3f, 0x1.95a55ep-3f, 0x1.9cc986p-3f, 0x1.a40052p-3f,
    0x1.ab49cep-3f, 0x1.b2a60ap-3f, 0x1.ba1512p-3f, 0x1.c196f4p-3f,
    0x1.c92bbep-3f, 0x1.d0d37cp-3f, 0x1.d88e3ep-3f, 0x1.e05c0ep-3f,
    0x1.e83cfcp-3f, 0x1.f03116p-3f, 0x1.f83866p-3f, 0x1.00297ep-2f,
    0x1.044072p-2f, 0x1.086116p-2f, 0x1.0c8b7p-2f, 0x1.10bf86p-2f,
    0x1.14fd6p-2f, 0x1.194502p-2f, 0x1.1d9676p-2f, 0x1.21f1bep-2f,
    0x1.2656e4p-2f, 0x1.2ac5ecp-2f, 0x1.2f3edep-2f, 0x1.33c1cp-2f,
    0x1.384e98p-2f, 0x1.3ce56cp-2f, 0x1.418642p-2f, 0x1.46312p-2f,
    0x1.4ae60ep-2f, 0x1.4fa51p-2f, 0x1.546e2cp-2f, 0x1.59416cp-2f,
    0x1.5e1edp-2f, 0x1.630664p-2f, 0x1.67f82ap-2f, 0x1.6cf428p-2f,
    0x1.71fa68p-2f, 0x1.770aecp-2f, 0x1.7c25bcp-2f, 0x1.814adcp-2f,
    0x1.867a54p-2f, 0x1.8bb428p-2f, 0x1.90f86p-2f, 0x1.9647p-2f, 0x1.9ba01p-2f,
    0x1.a10394p-2f, 0x1.a67192p-2f, 0x1.abea1p-2f, 0x1.b16d14p-2f,
    0x1.b6faa4p-2f, 0x1.bc92c6p-2f, 0x1.c2357ep-2f, 0x1.c7e2d2p-2f,
    0x1.cd9acap-2f, 0x1.d35d6ap-2f, 0x1.d92ab6p-2f, 0x1.df02b8p-2f,
    0x1.e4e57p-2f, 0x1.ead2e8p-2f, 0x1.f0cb26p-2f, 0x1.f6ce2cp-2f, 0x1.fcdcp-2f,
    0x1.017a56p-1f, 0x1.048c18p-1f, 0x1.07a34ap-1f, 0x1.0abfeep-1f,
    0x1.0de208p-1f, 0x1.11099ap-1f, 0x1.1436a8p-1f, 0x1.176932p-1f,
    0x1.1aa13ep-1f, 0x1.1ddecap-1f, 0x1.2121dep-1f, 0x1.246a7ap-1f,
    0x1.27b8ap-1f, 0x1.2b0c54p-1f, 0x1.2e6598p-1f, 0x1.31c46ep-1f,
    0x1.3528dcp-1f, 0x1.3892ep-1f, 0x1.3c028p-1f, 0x1.3f77bcp-1f,
    0x1.42f29ap-1f, 0x1.467318p-1f, 0x1.49f93ep-1f, 0x1.4d850ap-1f,
    0x1.511682p-1f, 0x1.54ada4p-1f, 0x1.584a78p-1f, 0x1.5becfep-1f,
    0x1.5f9538p-1f, 0x1.634328p-1f, 0x1.66f6d4p-1f, 0x1.6ab03ap-1f,
    0x1.6e6f6p-1f, 0x1.723448p-1f, 0x1.75fef4p-1f, 0x1.79cf64p-1f,
    0x1.7da59ep-1f, 0x1.8181a4p-1f, 0x1.856378p-1f, 0x1.894b1cp-1f,
    0x1.8d3892p-1f, 0x1.912bdep-1f, 0x1.9525p-1f, 0x1.9923fep-1f,
    0x1.9d28d8p-1f, 0x1.a13392p-1f, 0x1.a5442cp-1f, 0x1.a95aacp-1f,
    0x1.ad771p-1f, 0x1.b1995ep-1f, 0x1.b5c198p-1f, 0x1.b9efbep-1f,
    0x1.be23d4p-1f, 0x1.c25ddep-1f, 0x1.c69ddcp-1f, 0x1.cae3d2p-1f,
    0x1.cf2fcp-1f, 0x1.d381aap-1f, 0x1.d7d994p-1f, 0x1.dc377ep-1f,
    0x1.e09b6ap-1f, 0x1.e5055cp-1f, 0x1.e97556p-1f, 0x1.edeb5cp-1f,
    0x1.f2676cp-1f, 0x1.f6e98cp-1f, 0x1.fb71bcp-1f, 0x1p+0f,
};

/* "if (c is NaN) c = 0.0; if (c > 1.0) c = 1.0; else if (c < 0.0) c = 0.0;
 * else if (c < 0.0031308) c = 12.92 * c; else c = 1.055 * powr(c, 1.0/2.4)
 * - 0.055;" on the red, green and blue components ("The alpha component is
 * returned as is"); the caller scales by 255 and rounds like any
 * CL_UNORM_INT8 channel ("|generated_channel_component -
 * scaled_reference_result| <= 0.6"). */
static INLINE float4 loom_px_linear_to_srgb(float4 c) {
  /* maxnum: NaN becomes the lower bound, then 0 below */
  float4 x = __builtin_elementwise_min(__builtin_elementwise_max(c, (float4)0.0f), (float4)1.0f);
  float4 curve = 1.055f * powr(__builtin_elementwise_max(x, (float4)0.0031308f), (float4)(1.0f / 2.4f)) - 0.055f;
  float4 s = x < 0.0031308f ? 12.92f * x : curve;
  s = c == c ? s : 0.0f;
  return (float4)(s.xyz, c.w);
}

/* ---- channel data types ---- */

/* x / d correctly rounded, for the integers x of a d-bit normalized channel
 * (|x| <= d, d = 2^k - 1 < 2^16, r the float nearest to 1 / d): the
 * product's error is corrected once with the exact remainder. Checked for
 * every x and every d used here (3, 31, 63, 127, 255, 1023, 32767, 65535)
 * against the division; cheaper than one and free of the division's 2.5 ulp
 * allowance (!fpmath) that LoomCL may use elsewhere. */
static INLINE float4 loom_px_div(float4 x, float4 d, float4 r) {
  float4 q = x * r;
  float4 rem = __builtin_elementwise_fma(-q, d, x);
  return __builtin_elementwise_fma(rem, r, q);
}

/* sign-extends the low `bits` bits of each slot */
static INLINE int4 loom_px_sext(uint4 s, int bits) {
  return as_int4(s << (uint)(32 - bits)) >> (32 - bits);
}

/* Slots -> float values for read_imagef (OpenCL C 2.0, 8.3.1 to 8.3.3). */
static INLINE float4 loom_px_decode_f(uint4 s, int type) {
  switch (type) {
  /* "normalized float value = (float)c / 255.0f" */
  case CLK_UNORM_INT8:
    return loom_px_div(convert_float4(s), 255.0f, 1.0f / 255.0f);
  /* "normalized float value = (float)c / 65535.0f" */
  case CLK_UNORM_INT16:
    return loom_px_div(convert_float4(s), 65535.0f, 1.0f / 65535.0f);
  /* "normalized float value = max(-1.0f, (float)c / 127.0f)" */
  case CLK_SNORM_INT8:
    return __builtin_elementwise_max(
        loom_px_div(convert_float4(loom_px_sext(s, 8)), 127.0f, 1.0f / 127.0f), (float4)-1.0f);
  /* "normalized float value = max(-1.0f, (float)c / 32767.0f)" */
  case CLK_SNORM_INT16:
    return __builtin_elementwise_max(
        loom_px_div(convert_float4(loom_px_sext(s, 16)), 32767.0f, 1.0f / 32767.0f), (float4)-1.0f);
  /* "the conversions from half to float are lossless" */
  case CLK_HALF_FLOAT: {
    ushort4 bits = convert_ushort4(s);
    return vload_half4(0, (__private const half *)&bits);
  }
  /* "All other values must be preserved." */
  case CLK_FLOAT:
    return as_float4(s);
  /* the packed formats: each field over its maximum ("(float)c / 1023.0f"
   * for CL_UNORM_INT_101010); alpha, absent, stays 0 until the channel
   * order adds it */
  case CLK_UNORM_SHORT_565:
    return loom_px_div(convert_float4(s), (float4)(31.0f, 63.0f, 31.0f, 1.0f),
                       (float4)(1.0f / 31.0f, 1.0f / 63.0f, 1.0f / 31.0f, 1.0f));
  case CLK_UNORM_SHORT_555:
    return loom_px_div(convert_float4(s), (float4)(31.0f, 31.0f, 31.0f, 1.0f),
                       (float4)(1.0f / 31.0f, 1.0f / 31.0f, 1.0f / 31.0f, 1.0f));
  case CLK_UNORM_INT_101010:
    return loom_px_div(convert_float4(s), 1023.0f, 1.0f / 1023.0f);
  case CLK_UNORM_INT_101010_2:
    return loom_px_div(convert_float4(s), (float4)(1023.0f, 1023.0f, 1023.0f, 3.0f),
                       (float4)(1.0f / 1023.0f, 1.0f / 1023.0f, 1.0f / 1023.0f, 1.0f / 3.0f));
  /* read_imagef of an integer format is undefined: the values themselves */
  case CLK_SIGNED_INT8:
    return convert_float4(loom_px_sext(s, 8));
  case CLK_SIGNED_INT16:
    return convert_float4(loom_px_sext(s, 16));
  case CLK_SIGNED_INT32:
    return convert_float4(as_int4(s));
  default:
    return convert_float4(s);
  }
}

/* float values -> slots for write_imagef ("The preferred method for how
 * conversions from floating-point values to normalized integer values are
 * performed") */
static INLINE uint4 loom_px_encode_f(float4 c, int type) {
  switch (type) {
  /* "convert_uchar_sat_rte(f * 255.0f)" */
  case CLK_UNORM_INT8:
    return convert_uint4(convert_uchar4_sat_rte(c * 255.0f));
  /* "convert_ushort_sat_rte(f * 65535.0f)" */
  case CLK_UNORM_INT16:
    return convert_uint4(convert_ushort4_sat_rte(c * 65535.0f));
  /* "convert_char_sat_rte(f * 127.0f)" */
  case CLK_SNORM_INT8:
    return as_uint4(convert_int4(convert_char4_sat_rte(c * 127.0f)));
  /* "convert_short_sat_rte(f * 32767.0f)" */
  case CLK_SNORM_INT16:
    return as_uint4(convert_int4(convert_short4_sat_rte(c * 32767.0f)));
  /* "Conversions from float to half round the mantissa using the round to
   * nearest even or round to zero rounding mode": to nearest even */
  case CLK_HALF_FLOAT: {
    ushort4 bits;
    vstore_half4_rte(c, 0, (__private half *)&bits);
    return convert_uint4(bits);
  }
  case CLK_FLOAT:
    return as_uint4(c);
  /* "min(convert_ushort_sat_rte(f * 1023.0f), 0x3ff)", and the same with
   * each field's maximum for the other packed formats */
  case CLK_UNORM_SHORT_565:
    return __builtin_elementwise_min(
        convert_uint4(convert_ushort4_sat_rte(c * (float4)(31.0f, 63.0f, 31.0f, 0.0f))),
        (uint4)(0x1f, 0x3f, 0x1f, 0));
  case CLK_UNORM_SHORT_555:
    return __builtin_elementwise_min(
        convert_uint4(convert_ushort4_sat_rte(c * (float4)(31.0f, 31.0f, 31.0f, 0.0f))),
        (uint4)(0x1f, 0x1f, 0x1f, 0));
  case CLK_UNORM_INT_101010:
    return __builtin_elementwise_min(convert_uint4(convert_ushort4_sat_rte(c * 1023.0f)),
                                     (uint4)(0x3ff, 0x3ff, 0x3ff, 0));
  case CLK_UNORM_INT_101010_2:
    return __builtin_elementwise_min(
        convert_uint4(convert_ushort4_sat_rte(c * (float4)(1023.0f, 1023.0f, 1023.0f, 3.0f))),
        (uint4)(0x3ff, 0x3ff, 0x3ff, 3));
  /* write_imagef to an integer format is undefined: the values rounded and
   * saturated to the channel's range */
  case CLK_SIGNED_INT8:
    return as_uint4(convert_int4(convert_char4_sat_rte(c)));
  case CLK_SIGNED_INT16:
    return as_uint4(convert_int4(convert_short4_sat_rte(c)));
  case CLK_SIGNED_INT32:
    return as_uint4(convert_int4_sat_rte(c));
  case CLK_UNSIGNED_INT8:
    return convert_uint4(convert_uchar4_sat_rte(c));
  case CLK_UNSIGNED_INT16:
    return convert_uint4(convert_ushort4_sat_rte(c));
  default:
    return convert_uint4_sat_rte(c);
  }
}

/* ---- the pixel layer's interface (image_impl.h) ---- */

float4 loom_img_texel_f(loom_img_t img, int4 ijk) {
  int order = img->channel_order;
  uint4 s = loom_px_load(img, loom_px_addr(img, ijk));
  float4 c = loom_px_decode_f(s, img->channel_type);
  /* "When reading from an sRGB image, the conversion from sRGB to linear RGB
   * is performed before the filter"; "If the format has an alpha channel,
   * the alpha data is stored in linear color space." sRGB formats are
   * CL_UNORM_INT8: the first three slots are R, G and B in every sRGB
   * order. */
  if (loom_px_is_srgb(order))
    c = (float4)(loom_srgb_to_linear[s.x & 0xff], loom_srgb_to_linear[s.y & 0xff],
                 loom_srgb_to_linear[s.z & 0xff], c.w);
  return loom_px_order_read_float(order, c);
}

/* "Calls to read_imagei with channel data type values of CL_SIGNED_INT8,
 * CL_SIGNED_INT16 and CL_SIGNED_INT32 return the unmodified integer values
 * stored in the image at specified location" (and read_imageui the
 * unsigned ones). Both return these bits: read_imagei of an unsigned format
 * or read_imageui of a signed one is undefined. */
uint4 loom_img_texel_u(loom_img_t img, int4 ijk) {
  int type = img->channel_type;
  uint4 s = loom_px_load(img, loom_px_addr(img, ijk));
  if (type == CLK_SIGNED_INT8)
    s = as_uint4(loom_px_sext(s, 8));
  else if (type == CLK_SIGNED_INT16)
    s = as_uint4(loom_px_sext(s, 16));
  return loom_px_order_read_uint(img->channel_order, s);
}

/* "If the image channel order is CL_A, CL_INTENSITY, CL_Rx, CL_RA, CL_RGx,
 * CL_RGBx, CL_sRGBx, CL_ARGB, CL_BGRA, CL_ABGR, CL_RGBA, CL_sRGBA or
 * CL_sBGRA, the border color is (0.0f, 0.0f, 0.0f, 0.0f). If the image
 * channel order is CL_R, CL_RG, CL_RGB, or CL_LUMINANCE, the border color
 * is (0.0f, 0.0f, 0.0f, 1.0f). If the image channel order is CL_DEPTH, the
 * border value is 0.0f." CL_sRGB, not listed, has no alpha either. The
 * orders with an ignored x channel are listed with the transparent ones,
 * but the CTS (test_image_streams, its has_alpha()) and so the conformant
 * implementations give every order without alpha an opaque border: CL_Rx,
 * CL_RGx, CL_RGBx and CL_sRGBx too. */
static INLINE bool loom_px_border_opaque(int order) {
  return order == CLK_R || order == CLK_RG || order == CLK_RGB || order == CLK_LUMINANCE ||
         order == CLK_sRGB || order == CLK_Rx || order == CLK_RGx || order == CLK_RGBx ||
         order == CLK_sRGBx;
}

float4 loom_img_border_f(loom_img_t img) {
  return (float4)(0.0f, 0.0f, 0.0f, loom_px_border_opaque(img->channel_order) ? 1.0f : 0.0f);
}

uint4 loom_img_border_u(loom_img_t img) {
  return (uint4)(0, 0, 0, loom_px_border_opaque(img->channel_order) ? 1 : 0);
}

void loom_img_store_f(loom_img_t img, int4 ijk, float4 rgba) {
  int order = img->channel_order;
  /* "Conversion to sRGB space is automatically done by write_imagef
   * built-in functions if the image channel order is one of the sRGB
   * values" */
  if (loom_px_is_srgb(order))
    rgba = loom_px_linear_to_srgb(rgba);
  float4 c = loom_px_order_write_float(order, rgba);
  loom_px_store(img, loom_px_addr(img, ijk), loom_px_encode_f(c, img->channel_type));
}

/* "Calls to write_imagei will perform one of the following conversions:
 * convert_char_sat(i), convert_short_sat(i), no conversion" by the size of
 * the channel; for a format that is not a signed integer one (undefined),
 * the same by the size of its channel, the packed formats keeping the low
 * bits of each field. */
void loom_img_store_i(loom_img_t img, int4 ijk, int4 rgba) {
  int4 c = as_int4(loom_px_order_write_uint(img->channel_order, as_uint4(rgba)));
  int es = loom_px_elem_size(img->channel_type);
  uint4 s = es == 1   ? as_uint4(convert_int4(convert_char4_sat(c)))
            : es == 2 ? as_uint4(convert_int4(convert_short4_sat(c)))
                      : as_uint4(c);
  loom_px_store(img, loom_px_addr(img, ijk), s);
}

/* "Calls to write_imageui will perform one of the following conversions:
 * convert_uchar_sat(i), convert_ushort_sat(i), no conversion" */
void loom_img_store_u(loom_img_t img, int4 ijk, uint4 rgba) {
  uint4 c = loom_px_order_write_uint(img->channel_order, rgba);
  int es = loom_px_elem_size(img->channel_type);
  uint4 s = es == 1   ? convert_uint4(convert_uchar4_sat(c))
            : es == 2 ? convert_uint4(convert_ushort4_sat(c))
                      : c;
  loom_px_store(img, loom_px_addr(img, ijk), s);
}
