/* The image formats: the one table of every valid (channel order, channel
 * data type) pair with its pixel size and channel count, which decides
 * what clCreateImage accepts and what clGetSupportedImageFormats lists. */
#include "image.h"

/* The channel data types; a format row names a set of them as a bit mask
 * over this array. */
static const struct {
  cl_channel_type type;
  unsigned char channel_size; /* bytes per channel; 0 for packed types */
  unsigned char packed_size;  /* bytes per pixel of packed types */
} types[] = {
    {CL_SNORM_INT8, 1, 0},         {CL_SNORM_INT16, 2, 0},
    {CL_UNORM_INT8, 1, 0},         {CL_UNORM_INT16, 2, 0},
    {CL_SIGNED_INT8, 1, 0},        {CL_SIGNED_INT16, 2, 0},
    {CL_SIGNED_INT32, 4, 0},       {CL_UNSIGNED_INT8, 1, 0},
    {CL_UNSIGNED_INT16, 2, 0},     {CL_UNSIGNED_INT32, 4, 0},
    {CL_HALF_FLOAT, 2, 0},         {CL_FLOAT, 4, 0},
    {CL_UNORM_SHORT_565, 0, 2},    {CL_UNORM_SHORT_555, 0, 2},
    {CL_UNORM_INT_101010, 0, 4},   {CL_UNORM_INT_101010_2, 0, 4},
};
#define NUM_TYPES (sizeof types / sizeof *types)

#define T_SNORM8 (1u << 0)
#define T_SNORM16 (1u << 1)
#define T_UNORM8 (1u << 2)
#define T_UNORM16 (1u << 3)
#define T_SINT8 (1u << 4)
#define T_SINT16 (1u << 5)
#define T_SINT32 (1u << 6)
#define T_UINT8 (1u << 7)
#define T_UINT16 (1u << 8)
#define T_UINT32 (1u << 9)
#define T_HALF (1u << 10)
#define T_FLOAT (1u << 11)
#define T_565 (1u << 12)
#define T_555 (1u << 13)
#define T_101010 (1u << 14)
#define T_101010_2 (1u << 15)

#define T_NORM (T_SNORM8 | T_SNORM16 | T_UNORM8 | T_UNORM16)
#define T_INT (T_SINT8 | T_SINT16 | T_SINT32 | T_UINT8 | T_UINT16 | T_UINT32)
#define T_REGULAR (T_NORM | T_INT | T_HALF | T_FLOAT)
#define T_BYTES (T_SNORM8 | T_UNORM8 | T_SINT8 | T_UINT8)

enum { DEPTH = 2 }; /* support restrictions of an order */

/* The table: each channel order, the channel slots a pixel stores, and the
 * data types it is valid with (the spec's descriptor rules, see image.h).
 * CL_Rx and CL_RGx store the channels of CL_R and CL_RG (their padding
 * channel only changes the border colour); CL_RGBx exists with packed types,
 * whose pixel size is that of the packing. */
static const struct {
  cl_channel_order order;
  unsigned char channels;
  unsigned char restrict_to;
  unsigned types;
} orders[] = {
    {CL_R, 1, 0, T_REGULAR},
    {CL_A, 1, 0, T_REGULAR},
    {CL_RG, 2, 0, T_REGULAR},
    {CL_RA, 2, 0, T_REGULAR},
    {CL_RGBA, 4, 0, T_REGULAR | T_101010_2},
    {CL_Rx, 1, 0, T_REGULAR},
    {CL_RGx, 2, 0, T_REGULAR},
    {CL_INTENSITY, 1, 0, T_NORM | T_HALF | T_FLOAT},
    {CL_LUMINANCE, 1, 0, T_NORM | T_HALF | T_FLOAT},
    {CL_RGB, 3, 0, T_565 | T_555 | T_101010},
    {CL_RGBx, 3, 0, T_565 | T_555 | T_101010},
    {CL_ARGB, 4, 0, T_BYTES},
    {CL_BGRA, 4, 0, T_BYTES},
    {CL_ABGR, 4, 0, T_BYTES},
    {CL_sRGB, 3, 0, T_UNORM8},
    {CL_sRGBx, 4, 0, T_UNORM8},
    {CL_sRGBA, 4, 0, T_UNORM8},
    {CL_sBGRA, 4, 0, T_UNORM8},
    {CL_DEPTH, 1, DEPTH, T_UNORM16 | T_FLOAT},
};
#define NUM_ORDERS (sizeof orders / sizeof *orders)

/* The rows of the table, built once from orders x types (read-only after). */
static struct loom_image_format_info rows[NUM_ORDERS * NUM_TYPES];
static unsigned char row_restrict[NUM_ORDERS * NUM_TYPES];
static unsigned num_rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static void build_rows(void) {
  for (size_t o = 0; o < NUM_ORDERS; o++)
    for (size_t t = 0; t < NUM_TYPES; t++) {
      if (!(orders[o].types & (1u << t)))
        continue;
      struct loom_image_format_info *r = &rows[num_rows];
      r->order = orders[o].order;
      r->type = types[t].type;
      r->num_channels = orders[o].channels;
      r->pixel_size = types[t].channel_size
                          ? (unsigned char)(types[t].channel_size * orders[o].channels)
                          : types[t].packed_size;
      row_restrict[num_rows] = orders[o].restrict_to;
      num_rows++;
    }
}

static long find_row(const cl_image_format *f) {
  pthread_once(&rows_once, build_rows);
  for (unsigned i = 0; i < num_rows; i++)
    if (rows[i].order == f->image_channel_order && rows[i].type == f->image_channel_data_type)
      return (long)i;
  return -1;
}

const struct loom_image_format_info *loom_image_format_lookup(const cl_image_format *f) {
  long i = find_row(f);
  return i < 0 ? NULL : &rows[i];
}

bool loom_image_type_valid(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
         t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

static bool row_supported(unsigned i, cl_mem_object_type type, cl_mem_flags flags) {
  if (row_restrict[i] == DEPTH)
    return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  (void)flags; /* every format with every access (sRGB writes: cl_khr_srgb_image_writes) */
  return true;
}

bool loom_image_format_supported(const cl_image_format *f, cl_mem_object_type type,
                                 cl_mem_flags flags) {
  long i = find_row(f);
  return i >= 0 && row_supported((unsigned)i, type, flags);
}

cl_uint loom_image_formats_list(cl_mem_object_type type, cl_mem_flags flags, cl_uint max,
                                cl_image_format *out) {
  pthread_once(&rows_once, build_rows);
  cl_uint n = 0;
  for (unsigned i = 0; i < num_rows; i++) {
    if (!row_supported(i, type, flags))
      continue;
    if (out && n < max) {
      out[n].image_channel_order = rows[i].order;
      out[n].image_channel_data_type = rows[i].type;
    }
    n++;
  }
  return n;
}
