/* Image objects: clCreateImage, clCreateImageWithProperties, the deprecated
 * clCreateImage2D and clCreateImage3D, clGetSupportedImageFormats and
 * clGetImageInfo (OpenCL 3.0, 5.3.1, 5.3.2, 5.3.7). Reference counting,
 * destructor callbacks and clGetMemObjectInfo are those of every memory
 * object (buffer.c). */
#include "checks.h"
#include "image.h"
#include "memobj.h"
#include <stdint.h>

static bool has_height(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         t == CL_MEM_OBJECT_IMAGE3D;
}

static bool is_array(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* The largest of a per-device alignment among the devices of ctx that
 * support images. */
static size_t max_image_alignment(cl_context ctx, bool base_address) {
  size_t a = 1;
  for (cl_uint i = 0; i < ctx->num_devices; i++) {
    const struct loom_device_desc *d = &ctx->devices[i]->desc;
    if (!d->image_support)
      continue;
    size_t v = base_address ? d->lim.image_base_address_alignment : d->lim.image_pitch_alignment;
    if (v > a)
      a = v;
  }
  return a;
}

/* The sizes of image_desc a type uses must be at least 1
 * (CL_INVALID_IMAGE_DESCRIPTOR); logged as fn. legacy: clCreateImage2D and
 * clCreateImage3D, whose errors are CL_INVALID_IMAGE_SIZE "if image_width
 * or image_height are 0 or if image_depth <= 1" (OpenCL 1.1). */
static cl_int check_desc_sizes(const char *fn, const cl_image_desc *d, bool legacy) {
  cl_mem_object_type t = d->image_type;
  cl_int err = legacy ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
  if (legacy && t == CL_MEM_OBJECT_IMAGE3D && d->image_depth == 1)
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_SIZE, "image_depth is 1 (must be > 1)");
  if (d->image_width == 0)
    return LOOM_FAIL_IN(fn, err, "image_width is 0");
  if (has_height(t) && d->image_height == 0)
    return LOOM_FAIL_IN(fn, err, "image_height is 0 for a 2D or 3D image or a 2D image array");
  if (t == CL_MEM_OBJECT_IMAGE3D && d->image_depth == 0)
    return LOOM_FAIL_IN(fn, err, "image_depth is 0 for a 3D image");
  if (is_array(t) && d->image_array_size == 0)
    return LOOM_FAIL_IN(fn, err, "image_array_size is 0 for an image array");
  return CL_SUCCESS;
}

/* May an image view in the given channel order be created from an image in
 * `from`? The spec's table of 5.3.1, and the same order. */
static bool view_order_allowed(cl_channel_order to, cl_channel_order from) {
  static const cl_channel_order pairs[][2] = {
      {CL_sBGRA, CL_BGRA}, {CL_BGRA, CL_sBGRA}, {CL_sRGBA, CL_RGBA}, {CL_RGBA, CL_sRGBA},
      {CL_sRGB, CL_RGB},   {CL_RGB, CL_sRGB},   {CL_sRGBx, CL_RGBx}, {CL_RGBx, CL_sRGBx},
      {CL_DEPTH, CL_R},
  };
  if (to == from)
    return true;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
    if (pairs[i][0] == to && pairs[i][1] == from)
      return true;
  return false;
}

/* The descriptor's mem_object for the image type (CL_INVALID_IMAGE_DESCRIPTOR
 * unless it may be one), and the checks of an image created from a 2D image
 * (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR). */
static cl_int check_mem_object(const char *fn, cl_context ctx, const cl_image_desc *d,
                               const cl_image_format *format) {
  cl_mem m = d->mem_object;
  cl_mem_object_type t = d->image_type;
  /* mem_object can be a buffer memory object if image_type is
   * CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D. mem_object can be
   * an image object if image_type is CL_MEM_OBJECT_IMAGE2D. Otherwise it
   * must be NULL. */
  if (!m) {
    if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER)
      return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_DESCRIPTOR,
                          "image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER and buffer is NULL");
    return CL_SUCCESS;
  }
  if (t != CL_MEM_OBJECT_IMAGE1D_BUFFER && t != CL_MEM_OBJECT_IMAGE2D)
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_DESCRIPTOR,
                        "mem_object is not NULL and image_type is neither "
                        "CL_MEM_OBJECT_IMAGE1D_BUFFER nor CL_MEM_OBJECT_IMAGE2D");
  if (!loom_object_is(m, LOOM_MEM))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is not a valid memory object");
  if (m->context != ctx)
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_DESCRIPTOR,
                        "mem_object belongs to another context");
  if (m->type == CL_MEM_OBJECT_BUFFER)
    return CL_SUCCESS;
  if (t != CL_MEM_OBJECT_IMAGE2D || !loom_mem_is_image(m))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_DESCRIPTOR,
                        "mem_object is neither a buffer nor, for a 2D image, an image");
  const struct loom_image_state *src = loom_image_state(m);
  /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a 2D
   * image object and the rules described above are not followed */
  if (src->desc.image_type != CL_MEM_OBJECT_IMAGE2D)
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "mem_object is an image but not a 2D image");
  /* all the values specified in image_desc except for mem_object must match
   * the image descriptor information associated with mem_object (pitches
   * left 0 take mem_object's) */
  if (d->image_width != src->desc.image_width || d->image_height != src->desc.image_height ||
      (d->image_row_pitch && d->image_row_pitch != src->desc.image_row_pitch))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "image_desc does not match the descriptor of mem_object "
                        "(width, height or row pitch)");
  /* the channel data type specified in image_format must match the channel
   * data type associated with mem_object */
  if (format->image_channel_data_type != src->format.image_channel_data_type)
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "the channel data type differs from that of mem_object");
  /* The channel order values supported are: (the table), and the channel
   * order specified must have the same number of channels as the channel
   * order of mem_object */
  if (!view_order_allowed(format->image_channel_order, src->format.image_channel_order))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "the channel order may not view an image of mem_object's order");
  return CL_SUCCESS;
}

/* Pitches given with host_ptr (or for a 2D image from a buffer): nonzero
 * ones must be multiples of the pixel size and large enough (pitch_err:
 * CL_INVALID_IMAGE_DESCRIPTOR, or CL_INVALID_IMAGE_SIZE for
 * clCreateImage2D/3D); logged as fn. */
static cl_int check_given_pitches(const char *fn, const cl_image_desc *d, size_t ps,
                                  cl_int pitch_err) {
  cl_mem_object_type t = d->image_type;
  size_t row_min;
  if (__builtin_mul_overflow(d->image_width, ps, &row_min))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_SIZE,
                        "image_width times the pixel size overflows size_t");
  /* image_row_pitch ... can be either 0 or >= image_width * size of element
   * in bytes ... If image_row_pitch is not 0, it must be a multiple of the
   * image element size in bytes */
  size_t row = d->image_row_pitch;
  if (row && row < row_min)
    return LOOM_FAIL_IN(fn, pitch_err,
                        "image_row_pitch is not 0 and less than image_width times the "
                        "element size");
  if (row % ps)
    return LOOM_FAIL_IN(fn, pitch_err,
                        "image_row_pitch is not a multiple of the element size");
  if (t != CL_MEM_OBJECT_IMAGE1D_ARRAY && t != CL_MEM_OBJECT_IMAGE2D_ARRAY &&
      t != CL_MEM_OBJECT_IMAGE3D)
    return CL_SUCCESS; /* no slices */
  /* image_slice_pitch can be either 0 or >= image_row_pitch * image_height
   * for a 2D image array or 3D image and can be either 0 or >=
   * image_row_pitch for a 1D image array ... If image_slice_pitch is not 0,
   * it must be a multiple of the image_row_pitch */
  if (!row)
    row = row_min;
  size_t slice_min = row;
  if (t != CL_MEM_OBJECT_IMAGE1D_ARRAY &&
      __builtin_mul_overflow(row, d->image_height, &slice_min))
    return LOOM_FAIL_IN(fn, CL_INVALID_IMAGE_SIZE,
                        "image_row_pitch times image_height overflows size_t");
  size_t slice = d->image_slice_pitch;
  if (slice && slice < slice_min)
    return LOOM_FAIL_IN(fn, pitch_err,
                        "image_slice_pitch is not 0 and less than image_row_pitch (times "
                        "image_height for a 3D image or 2D image array)");
  if (slice % row)
    return LOOM_FAIL_IN(fn, pitch_err,
                        "image_slice_pitch is not a multiple of image_row_pitch");
  return CL_SUCCESS;
}

/* Every clCreateImage*; logged as fn. legacy: clCreateImage2D/3D, whose
 * zero sizes and invalid pitches are CL_INVALID_IMAGE_SIZE (OpenCL 1.1: "if
 * values specified by image_row_pitch do not follow rules described in the
 * argument description"). */
static cl_mem create_image(const char *fn, cl_context context,
                           const cl_mem_properties *properties, cl_mem_flags flags,
                           const cl_image_format *image_format, const cl_image_desc *image_desc,
                           void *host_ptr, bool legacy, cl_int *errcode_ret) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_CONTEXT,
                             "context is not a valid context");
  /* CL_INVALID_PROPERTY if a property name in properties is not a supported
   * property name */
  size_t num_props;
  cl_int err = loom_check_mem_properties(fn, properties, &num_props, "images", NULL);
  /* CL_INVALID_VALUE if values specified in flags are not valid */
  if (err == CL_SUCCESS)
    err = loom_check_mem_flags(fn, flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format
   * are not valid or if image_format is NULL */
  if (!image_format)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                             "image_format is NULL");
  const struct loom_image_format_info *info = loom_image_format_lookup(image_format);
  if (!info)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                             "image_format is not a valid channel order and data type "
                             "combination");
  /* CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
   * valid or if image_desc is NULL */
  if (!image_desc)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  cl_image_desc d = *image_desc;
  const cl_mem_object_type t = d.image_type;
  if (!loom_image_type_valid(t))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR,
                             "image_type is not an image type");
  if ((err = check_desc_sizes(fn, &d, legacy)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* num_mip_levels and num_samples must be 0 */
  if (d.num_mip_levels || d.num_samples)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR,
                             "num_mip_levels or num_samples is not 0");
  if ((err = check_mem_object(fn, context, &d, image_format)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  cl_mem mem_object = d.mem_object;
  const bool from_buffer = mem_object && mem_object->type == CL_MEM_OBJECT_BUFFER;
  const bool from_image = mem_object && !from_buffer;
  const size_t ps = info->pixel_size;
  const cl_int pitch_err = legacy ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
  /* image_row_pitch ... must be 0 if host_ptr is NULL; image_slice_pitch
   * ... must be 0 if host_ptr is NULL (an image from a buffer takes a row
   * pitch: a 2D image's says where its rows are; a 1D image buffer has one
   * row, so any pitch of at least its width in bytes is accepted, as the
   * CTS expects, and changes nothing) */
  if (!host_ptr && !mem_object && (d.image_row_pitch || d.image_slice_pitch))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, pitch_err,
                             "host_ptr is NULL and image_row_pitch or image_slice_pitch is "
                             "not 0");
  if (!from_image && (err = check_given_pitches(fn, &d, ps, pitch_err)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);

  /* CL_INVALID_OPERATION if there are no devices in context that support
   * images */
  if (!loom_context_supports_images(context))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_OPERATION,
                             "no device of context supports images");
  /* CL_INVALID_VALUE if an image is being created from another memory
   * object (buffer or image) under one of the following circumstances: ...
   * (the rules of a sub-buffer's flags, with mem_object for buffer:
   * loom_check_inherited_flags, which also adds the flags the image
   * inherits) */
  if (mem_object &&
      (err = loom_check_inherited_flags(fn, mem_object->flags, &flags, "mem_object")) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);

  /* the storage's pitches and size */
  size_t size;
  if (from_image) {
    const struct loom_image_state *src = loom_image_state(mem_object);
    d.image_row_pitch = src->desc.image_row_pitch;
    d.image_slice_pitch = 0;
    size = mem_object->size;
  } else {
    if (!host_ptr && !from_buffer)
      d.image_row_pitch = d.image_slice_pitch = 0;
    if (!loom_image_pitches(t, ps, d.image_width, d.image_height, d.image_depth,
                            d.image_array_size, &d.image_row_pitch, &d.image_slice_pitch,
                            &size))
      return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_SIZE,
                               "the image's size in bytes overflows size_t");
  }

  /* CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed
   * the maximum image dimensions described in the Device Queries table for
   * all devices in context */
  bool fits = false;
  for (cl_uint i = 0; i < context->num_devices && !fits; i++)
    fits = loom_image_fits_device(&context->devices[i]->desc, &d, size);
  if (!fits)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_SIZE,
                             "the image's dimensions or size exceed the limits of every "
                             "device of context that supports images");
  if (from_buffer) {
    /* For a 1D image buffer created from a buffer object, the image_width x
     * size of element in bytes must be <= size of the buffer object ... For
     * a 2D image created from a buffer object, the image_row_pitch x
     * image_height must be <= size of the buffer object */
    if (size > mem_object->size)
      return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_SIZE,
                               "the image needs more bytes than the buffer mem_object has");
    if (t == CL_MEM_OBJECT_IMAGE2D) {
      /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
       * buffer and the row pitch and base address alignment does not follow
       * the rules described for creating a 2D image from a buffer: the
       * pitch must be a multiple of the maximum of the
       * CL_DEVICE_IMAGE_PITCH_ALIGNMENT value for all devices in the context
       * ... that support images; the host_ptr ... must be aligned to the
       * maximum of the CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT value (both in
       * pixels) */
      size_t pitch_align = max_image_alignment(context, false) * ps;
      size_t base_align = max_image_alignment(context, true) * ps;
      if (d.image_row_pitch % pitch_align)
        return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                                 "the row pitch of a 2D image from a buffer is not a "
                                 "multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels");
      if ((uintptr_t)mem_object->data % base_align)
        return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                                 "the buffer's storage is not aligned to "
                                 "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels");
    }
  }

  /* CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
   * CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
   * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags (an
   * image from a memory object inherits them but takes no host_ptr) */
  bool wants_ptr = !mem_object && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  if ((err = loom_check_host_ptr(fn, wants_ptr, host_ptr)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);

  /* CL_IMAGE_FORMAT_NOT_SUPPORTED if the image_format is not supported */
  if (!loom_image_format_supported(image_format, t, flags))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_IMAGE_FORMAT_NOT_SUPPORTED,
                             "the format is not supported for this image type and these "
                             "flags (CL_DEPTH: 2D images and 2D image arrays only; sRGB: "
                             "only without kernel write access, CL_MEM_READ_ONLY)");

  struct loom_image_create_args a = {
      .context = context,
      .flags = flags,
      .format = *image_format,
      .info = info,
      .desc = d,
      .mem_object = mem_object,
      .host_ptr = host_ptr,
      .size = size,
      .props = properties,
      .num_props = num_props,
  };
  cl_mem mem = loom_image_create(&a, &err);
  if (!mem)
    return loom_null_with(errcode_ret, LOOM_FAIL_IN(fn, err, "allocating the image failed"));
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return mem;
}

cl_mem clCreateImage(cl_context context, cl_mem_flags flags,
                     const cl_image_format *image_format,
                     const cl_image_desc *image_desc, void *host_ptr,
                     cl_int *errcode_ret) {
  return create_image(__func__, context, NULL, flags, image_format, image_desc, host_ptr,
                      false, errcode_ret);
}

cl_mem clCreateImageWithProperties(cl_context context,
                                   const cl_mem_properties *properties,
                                   cl_mem_flags flags,
                                   const cl_image_format *image_format,
                                   const cl_image_desc *image_desc,
                                   void *host_ptr, cl_int *errcode_ret) {
  return create_image(__func__, context, properties, flags, image_format, image_desc, host_ptr,
                      false, errcode_ret);
}

/* OpenCL 1.1: CL_INVALID_IMAGE_SIZE if image_width or image_height are 0 */
cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *image_format, size_t image_width,
                       size_t image_height, size_t image_row_pitch,
                       void *host_ptr, cl_int *errcode_ret) {
  const cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                           .image_width = image_width,
                           .image_height = image_height,
                           .image_row_pitch = image_row_pitch};
  return create_image(__func__, context, NULL, flags, image_format, &d, host_ptr, true,
                      errcode_ret);
}

/* OpenCL 1.1: CL_INVALID_IMAGE_SIZE if image_width or image_height are 0
 * or if image_depth is <= 1 */
cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *image_format, size_t image_width,
                       size_t image_height, size_t image_depth,
                       size_t image_row_pitch, size_t image_slice_pitch,
                       void *host_ptr, cl_int *errcode_ret) {
  const cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                           .image_width = image_width,
                           .image_height = image_height,
                           .image_depth = image_depth,
                           .image_row_pitch = image_row_pitch,
                           .image_slice_pitch = image_slice_pitch};
  return create_image(__func__, context, NULL, flags, image_format, &d, host_ptr, true,
                      errcode_ret);
}

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type,
                                  cl_uint num_entries,
                                  cl_image_format *image_formats,
                                  cl_uint *num_image_formats) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if flags or image_type are not valid, or if
   * num_entries is 0 and image_formats is not NULL */
  cl_int err = loom_check_mem_flags(__func__, flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE);
  if (err != CL_SUCCESS)
    return err;
  if (!loom_image_type_valid(image_type))
    return LOOM_FAIL(CL_INVALID_VALUE, "image_type is not an image type");
  if (num_entries == 0 && image_formats)
    return LOOM_FAIL(CL_INVALID_VALUE, "num_entries is 0 and image_formats is not NULL");
  /* a union of image formats supported by all devices in the context: the
   * table's, when a device supports images */
  cl_uint n = loom_context_supports_images(context)
                  ? loom_image_formats_list(image_type, flags, num_entries, image_formats)
                  : 0;
  if (num_image_formats)
    *num_image_formats = n;
  return CL_SUCCESS;
}

cl_int clGetImageInfo(cl_mem image, cl_image_info param_name,
                      size_t param_value_size, void *param_value,
                      size_t *param_value_size_ret) {
  /* CL_INVALID_MEM_OBJECT if image is a not a valid image object */
  if (!loom_mem_is_image(image))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "image is not a valid image object");
  const struct loom_image_state *st = loom_image_state(image);
  const cl_image_desc *d = &st->desc;
  const cl_mem_object_type t = d->image_type;
  switch (param_name) {
  case CL_IMAGE_FORMAT:
    return loom_info(param_value_size, param_value, param_value_size_ret, &st->format,
                     sizeof st->format);
  case CL_IMAGE_ELEMENT_SIZE:
    LOOM_INFO_SCALAR(size_t, st->info->pixel_size);
  case CL_IMAGE_ROW_PITCH:
    LOOM_INFO_SCALAR(size_t, d->image_row_pitch);
  case CL_IMAGE_SLICE_PITCH: /* 0 for 1D, 1D buffer and 2D images */
    LOOM_INFO_SCALAR(size_t, d->image_slice_pitch);
  case CL_IMAGE_WIDTH:
    LOOM_INFO_SCALAR(size_t, d->image_width);
  case CL_IMAGE_HEIGHT: /* 0 for 1D images, 1D image buffers and 1D arrays */
    LOOM_INFO_SCALAR(size_t, has_height(t) ? d->image_height : 0);
  case CL_IMAGE_DEPTH: /* 0 unless 3D */
    LOOM_INFO_SCALAR(size_t, t == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 0);
  case CL_IMAGE_ARRAY_SIZE: /* 0 unless an array */
    LOOM_INFO_SCALAR(size_t, is_array(t) ? d->image_array_size : 0);
  case CL_IMAGE_BUFFER: /* the buffer of a 1D image buffer, NULL otherwise */
    LOOM_INFO_SCALAR(cl_mem, t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? d->mem_object : NULL);
  case CL_IMAGE_NUM_MIP_LEVELS:
    LOOM_INFO_SCALAR(cl_uint, 0);
  case CL_IMAGE_NUM_SAMPLES:
    LOOM_INFO_SCALAR(cl_uint, 0);
  default:
    /* CL_INVALID_VALUE if param_name is not valid */
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not an image query");
  }
}
