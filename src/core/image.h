/* Image objects: the format table, the state every image carries beside its
 * cl_mem, creation, the colour encoding of fills and the fill command.
 *
 * An image is a memory object (struct _cl_mem) whose type is one of the
 * CL_MEM_OBJECT_IMAGE* types and whose type_data points at a struct
 * loom_image_state. Its storage is mem->data, laid out as the kernel
 * descriptor says (builtins/loom_image.h): pixel (x, y, z) of layer l at
 * data + x * pixel_size + y * row_pitch + z * slice_pitch, the layer being y
 * for 1D arrays and z for 2D arrays. An image created from a buffer or
 * another image (1D image buffers, cl_khr_image2d_from_buffer, image views)
 * shares that object's storage: mem->parent is the mem_object (an internal
 * reference), exactly like a sub-buffer's parent, so that maps and the root
 * storage are tracked across the buffer and its images. */
#ifndef LOOM_CORE_IMAGE_H
#define LOOM_CORE_IMAGE_H
#include "loom.h"
#include "loom_image.h"
#include "memobj.h"

/* ---------- formats (core/image_formats.c: the one table) ---------- */

/* One format. Channels are stored in the order's memory order (CL_BGRA:
 * B, G, R, A; CL_ARGB: A, R, G, B; ...), each channel_size bytes, native
 * (little) endian; packed types are one 16- or 32-bit word per pixel.
 * num_channels counts the channel slots of a pixel: CL_Rx and CL_RGx store
 * 1 and 2 (as CL_R and CL_RG: the padding channel only changes the border
 * colour), CL_RGB/CL_RGBx 3 (packed), CL_sRGB 3 bytes, CL_sRGBx 4 bytes
 * whose last is padding, CL_INTENSITY/CL_LUMINANCE/CL_DEPTH 1. */
struct loom_image_format_info {
  cl_channel_order order;
  cl_channel_type type;
  unsigned char pixel_size;   /* bytes per pixel */
  unsigned char num_channels; /* channel slots stored per pixel (loom_image.num_channels) */
};

/* The descriptor rules of the spec: a known channel order and data type in
 * a combination the spec allows (packed types only with CL_RGB/CL_RGBx, or
 * CL_RGBA for 101010_2; CL_INTENSITY/CL_LUMINANCE only with normalised or
 * float types; CL_ARGB/CL_BGRA/CL_ABGR only with 8-bit types; sRGB orders
 * only with CL_UNORM_INT8; CL_DEPTH only with CL_UNORM_INT16 or CL_FLOAT).
 * Returns the row of the table, NULL when the descriptor is not valid
 * (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR). Every valid format is in the table. */
const struct loom_image_format_info *loom_image_format_lookup(const cl_image_format *f) LOOM_HIDDEN;

/* true when devices with image support support the format for images of
 * `type` created (or queried) with `flags`: CL_DEPTH only for 2D images and
 * 2D image arrays; every other format for every type and access, sRGB
 * orders written too (cl_khr_srgb_image_writes). */
bool loom_image_format_supported(const cl_image_format *f, cl_mem_object_type type,
                                 cl_mem_flags flags) LOOM_HIDDEN;

/* Writes up to `max` supported formats for (type, flags) to out (may be
 * NULL) and returns how many there are in all. */
cl_uint loom_image_formats_list(cl_mem_object_type type, cl_mem_flags flags, cl_uint max,
                                cl_image_format *out) LOOM_HIDDEN;

/* true for the six CL_MEM_OBJECT_IMAGE* types */
bool loom_image_type_valid(cl_mem_object_type type) LOOM_HIDDEN;

/* ---------- image objects ---------- */

struct loom_image_state {
  /* what kernels receive a pointer to; first, 64-byte aligned */
  _Alignas(64) struct loom_image kernel;
  cl_image_format format;
  const struct loom_image_format_info *info;
  /* the descriptor as clGetImageInfo reports it: sizes as given, pitches as
   * computed or given (row_pitch: bytes of one row, also for 1D arrays;
   * slice_pitch: 0 for 1D, 1D buffer and 2D images), mem_object (the same
   * object as mem->parent, or NULL) */
  cl_image_desc desc;
};

/* true when m is a live memory object that is an image (NULL-safe) */
bool loom_mem_is_image(cl_mem m) LOOM_HIDDEN;

/* The state of image m (which must be an image). */
static inline struct loom_image_state *loom_image_state(cl_mem m) {
  return (struct loom_image_state *)m->type_data;
}

/* The descriptor kernels receive for image m; NULL if m is not an image. */
static inline const struct loom_image *loom_image_kernel_desc(cl_mem m) {
  return loom_mem_is_image(m) ? &loom_image_state(m)->kernel : NULL;
}

/* What clCreateImage has validated, for loom_image_create. */
struct loom_image_create_args {
  cl_context context;
  cl_mem_flags flags;  /* final flags (inherited bits included for views) */
  cl_image_format format;
  const struct loom_image_format_info *info;
  cl_image_desc desc;  /* type, sizes; row_pitch / slice_pitch: those of the
                          storage (computed when 0: see loom_image_pitches) */
  cl_mem mem_object;   /* buffer or image whose storage the image shares, or NULL */
  void *host_ptr;      /* USE_HOST_PTR storage or COPY_HOST_PTR source, or NULL */
  size_t size;         /* bytes of storage the image spans */
  const cl_mem_properties *props;
  size_t num_props;    /* entries of props including the terminating 0 */
};

/* The pitches of an image of the given type and sizes whose rows are
 * row_pitch bytes (0: tight) and slices slice_pitch bytes (0: tight; ignored
 * for 1D, 1D buffer and 2D images); *size is the storage it spans. false on
 * arithmetic overflow. */
bool loom_image_pitches(cl_mem_object_type type, size_t pixel_size, size_t width,
                        size_t height, size_t depth, size_t array_size, size_t *row_pitch,
                        size_t *slice_pitch, size_t *size) LOOM_HIDDEN;

/* true when device d supports images and an image of desc's type and sizes
 * with `bytes` of storage fits its limits (CL_DEVICE_IMAGE*_MAX_*,
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE) */
bool loom_image_fits_device(const struct loom_device_desc *d, const cl_image_desc *desc,
                            size_t bytes) LOOM_HIDDEN;

/* Creates the image: with mem_object, a view of its storage (holding a
 * reference on it); with CL_MEM_USE_HOST_PTR, host_ptr is the storage with
 * the given pitches; otherwise new storage, filled from host_ptr with
 * CL_MEM_COPY_HOST_PTR. NULL and *err (CL_OUT_OF_HOST_MEMORY,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE) on failure. */
cl_mem loom_image_create(const struct loom_image_create_args *a, cl_int *err) LOOM_HIDDEN;

/* The extent of image m in the three coordinates of origins and regions:
 * (width, height, depth) with the array size as the second coordinate of 1D
 * arrays and the third of 2D arrays, 1 for coordinates the type lacks. */
void loom_image_extent(cl_mem m, size_t extent[3]) LOOM_HIDDEN;

/* One side of a byte copy (core/memobj.h) for the pixels of image m from
 * origin: base at the origin's first byte, the kernel descriptor's pitches.
 * The region in bytes is {region[0] * pixel_size, region[1], region[2]}. */
void loom_image_copy_side(cl_mem m, const size_t origin[3], struct loom_copy_side *side)
    LOOM_HIDDEN;

/* ---------- fills ---------- */

/* Encodes fill_color (float[4], cl_int[4] or cl_uint[4] by the format's data
 * type; one float for CL_DEPTH) into one pixel of the format, converted as
 * write_imagef / write_imagei / write_imageui convert: normalised types with
 * round to nearest even and saturation (NaN to 0), half floats rounded to
 * nearest even, sRGB orders linear to sRGB, packed types packed, channels in
 * the order's memory order, padding channels 0. Writes info->pixel_size
 * bytes to pixel. */
void loom_image_encode_color(const struct loom_image_format_info *info, const void *fill_color,
                             unsigned char pixel[16]) LOOM_HIDDEN;

/* The float -> half conversion of fills (round to nearest even, NaN kept a
 * NaN, overflow to infinity). */
uint16_t loom_float_to_half_rte(float f) LOOM_HIDDEN;

/* Enqueues a fill of the region (pixels, rows, slices as in
 * loom_image_copy_side) of image m from origin with the encoded pixel. */
cl_int loom_enqueue_fill_image(cl_command_queue q, cl_mem m, const unsigned char pixel[16],
                               const size_t origin[3], const size_t region[3],
                               cl_uint num_wait, const cl_event *wait,
                               cl_event *event_out) LOOM_HIDDEN;

#endif
