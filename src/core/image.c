/* Image objects: creation (own storage, the application's with
 * CL_MEM_USE_HOST_PTR, or a view of a buffer's or another image's), the
 * kernel descriptor, and the geometry the enqueue commands use. */
#include "image.h"
#include <stdlib.h>
#include <string.h>

/* the layout builtins/loom_image.h promises the builtin library */
_Static_assert(offsetof(struct loom_image, data) == LOOM_IMAGE_OFFSET_DATA, "data");
_Static_assert(offsetof(struct loom_image, row_pitch) == LOOM_IMAGE_OFFSET_ROW_PITCH, "row_pitch");
_Static_assert(offsetof(struct loom_image, slice_pitch) == LOOM_IMAGE_OFFSET_SLICE_PITCH,
               "slice_pitch");
_Static_assert(offsetof(struct loom_image, width) == LOOM_IMAGE_OFFSET_WIDTH, "width");
_Static_assert(offsetof(struct loom_image, channel_order) == LOOM_IMAGE_OFFSET_CHANNEL_ORDER,
               "channel_order");
_Static_assert(offsetof(struct loom_image, channel_type) == LOOM_IMAGE_OFFSET_CHANNEL_TYPE,
               "channel_type");
_Static_assert(offsetof(struct loom_image, pixel_size) == LOOM_IMAGE_OFFSET_PIXEL_SIZE,
               "pixel_size");
_Static_assert(offsetof(struct loom_image, num_channels) == LOOM_IMAGE_OFFSET_NUM_CHANNELS,
               "num_channels");
_Static_assert(offsetof(struct loom_image, image_type) == LOOM_IMAGE_OFFSET_IMAGE_TYPE,
               "image_type");
_Static_assert(sizeof(struct loom_image) == LOOM_IMAGE_SIZE, "size");
_Static_assert(offsetof(struct loom_image_state, kernel) == 0, "the descriptor comes first");
_Static_assert(_Alignof(struct loom_image_state) >= 64, "the descriptor is 64-byte aligned");

bool loom_mem_is_image(cl_mem m) {
  return loom_object_is(m, LOOM_MEM) && loom_image_type_valid(m->type) && m->type_data;
}

bool loom_image_pitches(cl_mem_object_type type, size_t pixel_size, size_t width,
                        size_t height, size_t depth, size_t array_size, size_t *row_pitch,
                        size_t *slice_pitch, size_t *size) {
  size_t row = *row_pitch, slice = *slice_pitch;
  if (row == 0 && __builtin_mul_overflow(width, pixel_size, &row))
    return false;
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    slice = 0;
    *size = row;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    slice = 0;
    if (__builtin_mul_overflow(row, height, size))
      return false;
    break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    if (slice == 0)
      slice = row;
    if (__builtin_mul_overflow(slice, array_size, size))
      return false;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    if (slice == 0 && __builtin_mul_overflow(row, height, &slice))
      return false;
    if (__builtin_mul_overflow(slice, type == CL_MEM_OBJECT_IMAGE3D ? depth : array_size,
                               size))
      return false;
    break;
  default:
    return false;
  }
  *row_pitch = row;
  *slice_pitch = slice;
  return true;
}

bool loom_image_fits_device(const struct loom_device_desc *d, const cl_image_desc *desc,
                        size_t bytes) {
  const struct loom_device_limits *l = &d->lim;
  if (!d->image_support || bytes > l->max_mem_alloc_size)
    return false;
  size_t w = desc->image_width, h = desc->image_height;
  switch (desc->image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return w <= l->image2d_max_width;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return w <= l->image_max_buffer_size;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return w <= l->image2d_max_width && desc->image_array_size <= l->image_max_array_size;
  case CL_MEM_OBJECT_IMAGE2D:
    return w <= l->image2d_max_width && h <= l->image2d_max_height;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return w <= l->image2d_max_width && h <= l->image2d_max_height &&
           desc->image_array_size <= l->image_max_array_size;
  default: /* 3D */
    return w <= l->image3d_max_width && h <= l->image3d_max_height &&
           desc->image_depth <= l->image3d_max_depth;
  }
}

static void image_state_free(cl_mem mem) {
  free(mem->type_data);
  mem->type_data = NULL;
}

/* The descriptor kernels see (builtins/loom_image.h). */
static void fill_kernel_desc(cl_mem mem, struct loom_image_state *st) {
  const cl_image_desc *d = &st->desc;
  struct loom_image *k = &st->kernel;
  cl_mem_object_type t = d->image_type;
  bool has_height = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    t == CL_MEM_OBJECT_IMAGE3D;
  bool array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  k->data = (unsigned char *)mem->data;
  k->width = (int32_t)d->image_width;
  k->height = has_height ? (int32_t)d->image_height : 1;
  k->depth = t == CL_MEM_OBJECT_IMAGE3D ? (int32_t)d->image_depth : 1;
  k->array_size = array ? (int32_t)d->image_array_size : 1;
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: /* the layer is y: rows are layers */
    k->row_pitch = k->slice_pitch = (int64_t)d->image_slice_pitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    k->row_pitch = (int64_t)d->image_row_pitch;
    k->slice_pitch = (int64_t)d->image_slice_pitch;
    break;
  default: /* 1D, 1D buffer, 2D: one slice */
    k->row_pitch = (int64_t)d->image_row_pitch;
    k->slice_pitch = (int64_t)(d->image_row_pitch * (size_t)k->height);
    break;
  }
  k->channel_order = (int32_t)st->format.image_channel_order;
  k->channel_type = (int32_t)st->format.image_channel_data_type;
  k->pixel_size = st->info->pixel_size;
  k->num_channels = st->info->num_channels;
  k->image_type = (int32_t)t;
  k->num_mip_levels = 0;
  k->num_samples = 0;
  k->reserved = 0;
}

cl_mem loom_image_create(const struct loom_image_create_args *a, cl_int *err) {
  size_t bytes = (sizeof(struct loom_image_state) + 63) / 64 * 64;
  struct loom_image_state *st = aligned_alloc(64, bytes);
  if (!st) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  memset(st, 0, bytes);
  st->format = a->format;
  st->info = a->info;
  st->desc = a->desc;
  st->desc.mem_object = a->mem_object;
  st->desc.num_mip_levels = 0;
  st->desc.num_samples = 0;

  cl_mem mem;
  if (a->mem_object)
    mem = loom_mem_create_view(a->mem_object, a->desc.image_type, a->flags, 0, a->size,
                               a->props, a->num_props, err);
  else
    mem = loom_mem_create(a->context, a->desc.image_type, a->flags, a->size, a->host_ptr,
                          a->props, a->num_props, err);
  if (!mem) {
    free(st);
    return NULL;
  }
  fill_kernel_desc(mem, st);
  mem->type_data = st;
  mem->type_data_free = image_state_free;
  *err = CL_SUCCESS;
  return mem;
}

void loom_image_extent(cl_mem m, size_t extent[3]) {
  const cl_image_desc *d = &loom_image_state(m)->desc;
  extent[0] = d->image_width;
  extent[1] = extent[2] = 1;
  switch (d->image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    extent[1] = d->image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    extent[1] = d->image_height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    extent[1] = d->image_height;
    extent[2] = d->image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    extent[1] = d->image_height;
    extent[2] = d->image_depth;
    break;
  default:
    break;
  }
}

void loom_image_copy_side(cl_mem m, const size_t origin[3], struct loom_copy_side *side) {
  const struct loom_image *k = &loom_image_state(m)->kernel;
  side->mem = m;
  side->row_pitch = (size_t)k->row_pitch;
  side->slice_pitch = (size_t)k->slice_pitch;
  /* origin lies inside the image (checked by the caller): no overflow */
  side->base = m->data + origin[0] * (size_t)k->pixel_size + origin[1] * side->row_pitch +
               origin[2] * side->slice_pitch;
}
