/* clEnqueueFillImage's work: the fill colour encoded into one pixel of the
 * image's format exactly as write_imagef / write_imagei / write_imageui
 * would store it (OpenCL C 2.0, 8.3), and the command that repeats that
 * pixel over a region. */
#include "command.h"
#include "image.h"
#include <assert.h>
#include <math.h>
#include <string.h>

/* ---------- conversions ---------- */

/* x rounded to the nearest integer, ties to even, whatever the current
 * rounding mode */
static float round_even(float x) {
  float r = floorf(x);
  float d = x - r; /* exact: r is x without its fraction */
  if (d > 0.5f || (d == 0.5f && fmodf(r, 2.0f) != 0.0f))
    r += 1.0f;
  return r;
}

/* convert_<type>_sat_rte(x): NaN to 0, saturated to [lo, hi] */
static long sat_rte(float x, long lo, long hi) {
  if (isnan(x))
    return 0;
  if (x <= (float)lo)
    return lo;
  if (x >= (float)hi)
    return hi;
  return (long)round_even(x);
}

uint16_t loom_float_to_half_rte(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
  if (exp == 0xff) /* infinity, or a NaN that stays a (quiet) NaN */
    return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
  if (exp > 142) /* 2^16 and up: beyond the largest half, rounds to infinity */
    return (uint16_t)(sign | 0x7c00);
  if (exp >= 113) { /* a normal half: drop 13 bits of the mantissa */
    uint32_t h = ((exp - 112) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
      h++; /* may carry into the exponent, up to infinity: still correct */
    return (uint16_t)(sign | h);
  }
  /* a subnormal half (or zero): the value in units of 2^-24 is
   * (mant | 2^23) * 2^(exp - 126) */
  if (exp < 102) /* below 2^-25: rounds to zero */
    return sign;
  uint32_t m = mant | 0x800000;
  unsigned shift = 126 - exp; /* 14 .. 24 */
  uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (h & 1)))
    h++;
  return (uint16_t)(sign | h);
}

/* write_imagef's linear -> sRGB conversion of one colour channel, scaled to
 * 0..255 (OpenCL C 2.0, 8.3.5) */
static unsigned char linear_to_srgb(float c) {
  double v = c;
  if (isnan(c))
    v = 0.0;
  if (v > 1.0)
    v = 1.0;
  else if (v < 0.0)
    v = 0.0;
  else if (v < 0.0031308)
    v = 12.92 * v;
  else
    v = 1.055 * pow(v, 1.0 / 2.4) - 0.055;
  double s = floor(v * 255.0 + 0.5);
  return (unsigned char)(s > 255.0 ? 255.0 : s);
}

/* ---------- encoding ---------- */

/* The colour component (0 R, 1 G, 2 B, 3 A) each channel slot stores, in
 * memory order; -1 for a padding slot. CL_sRGBx's fourth byte, which reads
 * ignore, receives the fill colour's alpha (linear, like sRGBA's), as the
 * CTS's reference and other implementations store it. */
static void slot_components(cl_channel_order order, int comp[4]) {
  static const struct {
    cl_channel_order order;
    int comp[4];
  } map[] = {
      {CL_R, {0, -1, -1, -1}},      {CL_A, {3, -1, -1, -1}},
      {CL_RG, {0, 1, -1, -1}},      {CL_RA, {0, 3, -1, -1}},
      {CL_RGBA, {0, 1, 2, 3}},      {CL_Rx, {0, -1, -1, -1}},
      {CL_RGx, {0, 1, -1, -1}},     {CL_INTENSITY, {0, -1, -1, -1}},
      {CL_LUMINANCE, {0, -1, -1, -1}}, {CL_ARGB, {3, 0, 1, 2}},
      {CL_BGRA, {2, 1, 0, 3}},      {CL_ABGR, {3, 2, 1, 0}},
      {CL_sRGB, {0, 1, 2, -1}},     {CL_sRGBx, {0, 1, 2, 3}},
      {CL_sRGBA, {0, 1, 2, 3}},     {CL_sBGRA, {2, 1, 0, 3}},
      {CL_DEPTH, {0, -1, -1, -1}},  {CL_RGB, {0, 1, 2, -1}},
      {CL_RGBx, {0, 1, 2, -1}},
  };
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (map[i].order == order) {
      memcpy(comp, map[i].comp, sizeof map[i].comp);
      return;
    }
  assert(!"an order of the format table has no channel map");
  comp[0] = comp[1] = comp[2] = comp[3] = -1;
}

static bool is_srgb(cl_channel_order o) {
  return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

static void put16(unsigned char *p, uint16_t v) { memcpy(p, &v, sizeof v); }
static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }

/* a packed format's pixel from the float colour rgba */
static void encode_packed(cl_channel_type type, const float rgba[4], unsigned char *pixel) {
  uint32_t r, g, b;
  switch (type) {
  case CL_UNORM_SHORT_565:
    r = (uint32_t)sat_rte(rgba[0] * 31.0f, 0, 31);
    g = (uint32_t)sat_rte(rgba[1] * 63.0f, 0, 63);
    b = (uint32_t)sat_rte(rgba[2] * 31.0f, 0, 31);
    put16(pixel, (uint16_t)(r << 11 | g << 5 | b));
    break;
  case CL_UNORM_SHORT_555:
    r = (uint32_t)sat_rte(rgba[0] * 31.0f, 0, 31);
    g = (uint32_t)sat_rte(rgba[1] * 31.0f, 0, 31);
    b = (uint32_t)sat_rte(rgba[2] * 31.0f, 0, 31);
    put16(pixel, (uint16_t)(r << 10 | g << 5 | b));
    break;
  case CL_UNORM_INT_101010:
    r = (uint32_t)sat_rte(rgba[0] * 1023.0f, 0, 1023);
    g = (uint32_t)sat_rte(rgba[1] * 1023.0f, 0, 1023);
    b = (uint32_t)sat_rte(rgba[2] * 1023.0f, 0, 1023);
    put32(pixel, r << 20 | g << 10 | b);
    break;
  default: { /* CL_UNORM_INT_101010_2 */
    r = (uint32_t)sat_rte(rgba[0] * 1023.0f, 0, 1023);
    g = (uint32_t)sat_rte(rgba[1] * 1023.0f, 0, 1023);
    b = (uint32_t)sat_rte(rgba[2] * 1023.0f, 0, 1023);
    uint32_t a = (uint32_t)sat_rte(rgba[3] * 3.0f, 0, 3);
    put32(pixel, r << 22 | g << 12 | b << 2 | a);
    break;
  }
  }
}

void loom_image_encode_color(const struct loom_image_format_info *info, const void *fill_color,
                             unsigned char pixel[16]) {
  memset(pixel, 0, 16);
  cl_channel_type type = info->type;
  bool sint = type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32;
  bool uint = type == CL_UNSIGNED_INT8 || type == CL_UNSIGNED_INT16 || type == CL_UNSIGNED_INT32;
  /* the colour: CL_DEPTH's is one float, every other order's four values */
  float f[4] = {0, 0, 0, 0};
  int32_t i[4] = {0, 0, 0, 0};
  uint32_t u[4] = {0, 0, 0, 0};
  if (info->order == CL_DEPTH)
    memcpy(f, fill_color, sizeof(float));
  else if (sint)
    memcpy(i, fill_color, sizeof i);
  else if (uint)
    memcpy(u, fill_color, sizeof u);
  else
    memcpy(f, fill_color, sizeof f);

  if (type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
      type == CL_UNORM_INT_101010 || type == CL_UNORM_INT_101010_2) {
    encode_packed(type, f, pixel);
    return;
  }

  int comp[4];
  slot_components(info->order, comp);
  bool srgb = is_srgb(info->order);
  unsigned char *p = pixel;
  for (unsigned s = 0; s < info->num_channels; s++) {
    int c = comp[s];
    if (c < 0) { /* padding: stays 0 */
      p += info->pixel_size / info->num_channels;
      continue;
    }
    switch (type) {
    case CL_UNORM_INT8:
      *p = srgb && c != 3 ? linear_to_srgb(f[c]) : (unsigned char)sat_rte(f[c] * 255.0f, 0, 255);
      p += 1;
      break;
    case CL_SNORM_INT8:
      *p = (unsigned char)(signed char)sat_rte(f[c] * 127.0f, -128, 127);
      p += 1;
      break;
    case CL_UNORM_INT16:
      put16(p, (uint16_t)sat_rte(f[c] * 65535.0f, 0, 65535));
      p += 2;
      break;
    case CL_SNORM_INT16:
      put16(p, (uint16_t)(int16_t)sat_rte(f[c] * 32767.0f, -32768, 32767));
      p += 2;
      break;
    case CL_HALF_FLOAT:
      put16(p, loom_float_to_half_rte(f[c]));
      p += 2;
      break;
    case CL_FLOAT:
      memcpy(p, &f[c], 4);
      p += 4;
      break;
    case CL_SIGNED_INT8:
      *p = (unsigned char)(signed char)(i[c] < -128 ? -128 : i[c] > 127 ? 127 : i[c]);
      p += 1;
      break;
    case CL_SIGNED_INT16:
      put16(p, (uint16_t)(int16_t)(i[c] < -32768 ? -32768 : i[c] > 32767 ? 32767 : i[c]));
      p += 2;
      break;
    case CL_SIGNED_INT32:
      put32(p, (uint32_t)i[c]);
      p += 4;
      break;
    case CL_UNSIGNED_INT8:
      *p = (unsigned char)(u[c] > 255 ? 255 : u[c]);
      p += 1;
      break;
    case CL_UNSIGNED_INT16:
      put16(p, (uint16_t)(u[c] > 65535 ? 65535 : u[c]));
      p += 2;
      break;
    case CL_UNSIGNED_INT32:
      put32(p, u[c]);
      p += 4;
      break;
    default:
      assert(!"a data type of the format table has no encoding");
      return;
    }
  }
}

/* ---------- the fill command ---------- */

struct fill_image_args {
  cl_mem mem;
  char *base;            /* the region's first byte */
  size_t row_pitch, slice_pitch;
  size_t width, rows, slices; /* pixels, rows, slices */
  unsigned char pixel[16];
  unsigned pixel_size;
};
static_assert(sizeof(struct fill_image_args) <=
                  sizeof(((struct loom_command *)0)->inline_payload),
              "fill-image arguments fit inline");

static cl_int fill_image_run(struct loom_command *cmd) {
  const struct fill_image_args *a = cmd->payload;
  const size_t row_bytes = a->width * a->pixel_size;
  loom_fill_bytes((unsigned char *)a->base, a->pixel, a->pixel_size, row_bytes);
  /* every other row is a copy of it (rows never overlap) */
  for (size_t z = 0; z < a->slices; z++)
    for (size_t y = 0; y < a->rows; y++)
      if (y || z)
        memcpy(a->base + z * a->slice_pitch + y * a->row_pitch, a->base, row_bytes);
  return CL_COMPLETE;
}

static void fill_image_cleanup(struct loom_command *cmd) {
  struct fill_image_args *a = cmd->payload;
  if (a->mem)
    LOOM_RELEASE(a->mem);
  a->mem = NULL;
}

cl_int loom_enqueue_fill_image(cl_command_queue q, cl_mem m, const unsigned char pixel[16],
                               const size_t origin[3], const size_t region[3],
                               cl_uint num_wait, const cl_event *wait,
                               cl_event *event_out) {
  cl_event ev = loom_command_new(q, CL_COMMAND_FILL_IMAGE);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  struct fill_image_args *a = (struct fill_image_args *)ev->cmd.inline_payload.bytes;
  struct loom_copy_side side;
  loom_image_copy_side(m, origin, &side);
  a->mem = m;
  a->base = side.base;
  a->row_pitch = side.row_pitch;
  a->slice_pitch = side.slice_pitch;
  a->width = region[0];
  a->rows = region[1];
  a->slices = region[2];
  memcpy(a->pixel, pixel, sizeof a->pixel);
  a->pixel_size = loom_image_state(m)->info->pixel_size;
  LOOM_RETAIN(m);
  ev->cmd.payload = a;
  ev->cmd.run = fill_image_run;
  ev->cmd.cleanup = fill_image_cleanup;
  return loom_command_submit(ev, num_wait, wait, event_out, false);
}
