/* clEnqueueReadImage, clEnqueueWriteImage, clEnqueueCopyImage,
 * clEnqueueFillImage, clEnqueueCopyImageToBuffer, clEnqueueCopyBufferToImage
 * and clEnqueueMapImage (OpenCL 3.0, 5.3.3 - 5.3.6). Images are host memory
 * with pitches: transfers are the byte rectangles of core/mem_commands.c, a
 * map returns a pointer into the storage (zero copy) and is unmapped by
 * clEnqueueUnmapMemObject (buffer_map.c). */
#include "checks.h"
#include "command.h"
#include "image.h"
#include "memobj.h"
#include "mem_args.h"

/* What the queue's device must support for image m. */
static cl_int check_image_on_device(const char *fn, const char *arg, cl_command_queue q,
                                    cl_mem m) {
  const struct loom_device_desc *dev = &q->device->desc;
  /* CL_INVALID_OPERATION if the device associated with command_queue does
   * not support images */
  if (!dev->image_support)
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION,
                        "the device of command_queue does not support images");
  const struct loom_image_state *st = loom_image_state(m);
  /* CL_INVALID_IMAGE_SIZE if image dimensions (image width, height,
   * specified or compute row and/or slice pitch) for image are not
   * supported by device associated with queue */
  if (!loom_image_fits_device(dev, &st->desc, m->size))
    return LOOM_FAILF_IN(fn, CL_INVALID_IMAGE_SIZE,
                         "the dimensions of %s exceed the limits of the queue's device", arg);
  /* CL_IMAGE_FORMAT_NOT_SUPPORTED if image format (image channel order and
   * data type) for image are not supported by device associated with queue */
  if (!loom_image_format_supported(&st->format, st->desc.image_type, m->flags))
    return LOOM_FAILF_IN(fn, CL_IMAGE_FORMAT_NOT_SUPPORTED,
                         "the format of %s is not supported by the queue's device", arg);
  return CL_SUCCESS;
}

/* The image handle (CL_INVALID_MEM_OBJECT unless m is an image;
 * CL_INVALID_CONTEXT if it belongs to another context than q) and what the
 * device must support, in that order. */
static cl_int check_image(const char *fn, const char *arg, cl_command_queue q, cl_mem m) {
  cl_int err = loom_check_mem_for_queue(fn, arg, q, m, loom_mem_is_image, "image");
  return err == CL_SUCCESS ? check_image_on_device(fn, arg, q, m) : err;
}

/* origin (named `name` in the log) and region for image m: the rules of the
 * image's type and the bounds; region must have passed loom_check_region. */
static cl_int check_origin(const char *fn, const char *name, cl_mem m, const size_t *origin,
                           const size_t *region) {
  if (!origin)
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE, "%s is NULL", name);
  cl_mem_object_type t = loom_image_state(m)->desc.image_type;
  /* CL_INVALID_VALUE if values in origin and region do not follow rules
   * described in the argument description for origin and region: if image
   * is a 2D image object, origin[2] must be 0 (and region[2] 1); if image is
   * a 1D image or 1D image buffer object, origin[1] and origin[2] must be 0
   * (and region[1], region[2] 1); if image is a 1D image array object,
   * origin[2] must be 0 (and region[2] 1) */
  if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (origin[1] || origin[2])
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "%s[1] or %s[2] is not 0 for a 1D image or 1D image buffer", name,
                           name);
    if (region[1] != 1 || region[2] != 1)
      return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                          "region[1] or region[2] is not 1 for a 1D image or 1D image buffer");
  } else if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    if (origin[2])
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "%s[2] is not 0 for a 2D image or 1D image array", name);
    if (region[2] != 1)
      return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                          "region[2] is not 1 for a 2D image or 1D image array");
  }
  /* CL_INVALID_VALUE if the region being read or written specified by
   * origin and region is out of bounds */
  size_t extent[3];
  loom_image_extent(m, extent);
  for (int i = 0; i < 3; i++)
    if (origin[i] > extent[i] || region[i] > extent[i] - origin[i])
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "the region from %s is out of bounds of the image (coordinate %d)",
                           name, i);
  return CL_SUCCESS;
}

/* The region of image m in bytes, rows and slices. */
static void byte_region(cl_mem m, const size_t region[3], size_t out[3]) {
  out[0] = region[0] * loom_image_state(m)->info->pixel_size;
  out[1] = region[1];
  out[2] = region[2];
}

/* ---------- read, write ---------- */

/* The host side of a read or write: pitches defaulted and checked (their
 * names start with prefix: "" or "input_"), the extent must not wrap. */
static cl_int host_side(const char *fn, const char *prefix, cl_mem m, const size_t region[3],
                        size_t row_pitch, size_t slice_pitch, const void *ptr,
                        struct loom_copy_side *host) {
  cl_mem_object_type t = loom_image_state(m)->desc.image_type;
  size_t bregion[3];
  byte_region(m, region, bregion);
  /* row_pitch ... must be greater than or equal to the element size in
   * bytes x width. If row_pitch is set to 0, the appropriate row pitch is
   * calculated based on the size of each element in bytes multiplied by
   * width. */
  if (row_pitch == 0)
    row_pitch = bregion[0];
  else if (row_pitch < bregion[0])
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%srow_pitch is not 0 and less than region[0] times the element "
                         "size",
                         prefix);
  /* slice_pitch ... must be 0 if image is a 1D or 2D image. Otherwise this
   * value must be greater than or equal to row_pitch x height. If
   * slice_pitch is set to 0, the appropriate slice pitch is calculated
   * based on the row_pitch x height (a 1D array's height is 1: its layers
   * are slice_pitch apart) */
  size_t rows_apart = row_pitch, slices_apart;
  if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
      t == CL_MEM_OBJECT_IMAGE2D) {
    if (slice_pitch)
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "%sslice_pitch is not 0 for a 1D or 2D image", prefix);
    slices_apart = row_pitch * region[1]; /* one slice: unused */
  } else if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    if (slice_pitch == 0)
      slice_pitch = row_pitch;
    else if (slice_pitch < row_pitch)
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "%sslice_pitch is not 0 and less than the row pitch", prefix);
    rows_apart = slices_apart = slice_pitch;
  } else {
    size_t min;
    if (__builtin_mul_overflow(row_pitch, region[1], &min))
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "the row pitch times region[1] overflows size_t");
    if (slice_pitch == 0)
      slice_pitch = min;
    else if (slice_pitch < min)
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "%sslice_pitch is not 0 and less than the row pitch times "
                           "region[1]",
                           prefix);
    slices_apart = slice_pitch;
  }
  /* the host bytes must not wrap around the address space */
  size_t dz, dy, span;
  if (__builtin_mul_overflow(region[2] - 1, slices_apart, &dz) ||
      __builtin_mul_overflow(region[1] - 1, rows_apart, &dy) ||
      __builtin_add_overflow(dz, dy, &span) || __builtin_add_overflow(span, bregion[0], &span) ||
      (uintptr_t)ptr + span < (uintptr_t)ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "the host rectangle (region and pitches) overflows the address space");
  host->mem = NULL;
  host->base = (char *)ptr;
  host->row_pitch = rows_apart;
  host->slice_pitch = slices_apart;
  return CL_SUCCESS;
}

static cl_int transfer(const char *fn, cl_command_queue q, cl_mem image, bool reading,
                       cl_bool blocking, const size_t *origin, const size_t *region,
                       size_t row_pitch, size_t slice_pitch, const void *ptr,
                       cl_uint num_wait, const cl_event *wait, cl_event *event) {
  const char *prefix = reading ? "" : "input_";
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
   * command-queue; CL_INVALID_MEM_OBJECT if image is not a valid image
   * object; CL_INVALID_CONTEXT if the context associated with command_queue
   * and image are not the same */
  cl_int err = loom_check_host_queue(fn, q);
  if (err == CL_SUCCESS)
    err = check_image(fn, "image", q, image);
  if (err == CL_SUCCESS)
    err = loom_check_region(fn, region);
  if (err == CL_SUCCESS)
    err = check_origin(fn, "origin", image, origin, region);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if ... ptr is a NULL value */
  if (!ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "ptr is NULL");
  struct loom_copy_side host, img;
  if ((err = host_side(fn, prefix, image, region, row_pitch, slice_pitch, ptr, &host)) !=
      CL_SUCCESS)
    return err;
  err = loom_check_wait_list_in(fn, q->context, num_wait, wait);
  /* CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has
   * been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS;
   * if clEnqueueWriteImage is called on image which has been created with
   * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS */
  if (err == CL_SUCCESS)
    err = loom_check_host_access(fn, image, reading);
  if (err != CL_SUCCESS)
    return err;
  loom_image_copy_side(image, origin, &img);
  size_t bregion[3];
  byte_region(image, region, bregion);
  return loom_enqueue_copy(q, reading ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE,
                           reading ? &host : &img, reading ? &img : &host, bregion, num_wait,
                           wait, event, blocking);
}

cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                          cl_bool blocking_read, const size_t *origin,
                          const size_t *region, size_t row_pitch,
                          size_t slice_pitch, void *ptr,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  return transfer(__func__, command_queue, image, true, blocking_read, origin, region,
                  row_pitch, slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
                  event);
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                           cl_bool blocking_write, const size_t *origin,
                           const size_t *region, size_t input_row_pitch,
                           size_t input_slice_pitch, const void *ptr,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  return transfer(__func__, command_queue, image, false, blocking_write, origin, region,
                  input_row_pitch, input_slice_pitch, ptr, num_events_in_wait_list,
                  event_wait_list, event);
}

/* ---------- copy between images ---------- */

/* true when the pixel boxes [a, a + region) and [b, b + region) meet */
static bool boxes_overlap(const size_t a[3], const size_t b[3], const size_t region[3]) {
  for (int i = 0; i < 3; i++)
    if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
      return false;
  return true;
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                          cl_mem dst_image, const size_t *src_origin,
                          const size_t *dst_origin, const size_t *region,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_MEM_OBJECT if src_image and dst_image are not valid image
   * objects; CL_INVALID_CONTEXT if the context associated with
   * command_queue, src_image and dst_image are not the same (both handles
   * before either context) */
  if ((err = loom_check_copy_handles(__func__, loom_mem_is_image, "image", src_image,
                                     dst_image)) != CL_SUCCESS ||
      (err = check_image(__func__, "src_image", q, src_image)) != CL_SUCCESS ||
      (err = check_image(__func__, "dst_image", q, dst_image)) != CL_SUCCESS)
    return err;
  /* CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same
   * image format */
  const cl_image_format *sf = &loom_image_state(src_image)->format;
  const cl_image_format *df = &loom_image_state(dst_image)->format;
  if (sf->image_channel_order != df->image_channel_order ||
      sf->image_channel_data_type != df->image_channel_data_type)
    return LOOM_FAIL(CL_IMAGE_FORMAT_MISMATCH,
                     "src_image and dst_image do not have the same image format");
  /* CL_INVALID_VALUE if the rectangular regions from src_origin and
   * dst_origin are outside their images, or if values in src_origin,
   * dst_origin and region do not follow the rules of each image's type */
  if ((err = loom_check_region(__func__, region)) != CL_SUCCESS ||
      (err = check_origin(__func__, "src_origin", src_image, src_origin, region)) !=
          CL_SUCCESS ||
      (err = check_origin(__func__, "dst_origin", dst_image, dst_origin, region)) != CL_SUCCESS)
    return err;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object
   * and the source and destination regions overlap */
  if (src_image == dst_image && boxes_overlap(src_origin, dst_origin, region))
    return LOOM_FAIL(CL_MEM_COPY_OVERLAP,
                     "src_image is dst_image and the source and destination regions overlap");
  struct loom_copy_side dst, src;
  loom_image_copy_side(dst_image, dst_origin, &dst);
  loom_image_copy_side(src_image, src_origin, &src);
  size_t bregion[3];
  byte_region(src_image, region, bregion);
  return loom_enqueue_copy(q, CL_COMMAND_COPY_IMAGE, &dst, &src, bregion,
                           num_events_in_wait_list, event_wait_list, event, false);
}

/* ---------- fill ---------- */

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                          const void *fill_color, const size_t *origin,
                          const size_t *region, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err == CL_SUCCESS)
    err = check_image(__func__, "image", q, image);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if fill_color is NULL */
  if (!fill_color)
    return LOOM_FAIL(CL_INVALID_VALUE, "fill_color is NULL");
  /* CL_INVALID_VALUE if the region being filled as specified by origin and
   * region is out of bounds; if values in origin and region do not follow
   * rules described in the argument description for origin and region */
  if ((err = loom_check_region(__func__, region)) != CL_SUCCESS ||
      (err = check_origin(__func__, "origin", image, origin, region)) != CL_SUCCESS)
    return err;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* The usage information ... given by the cl_mem_flags argument value
   * specified when image is created is ignored by clEnqueueFillImage. The
   * fill color will be converted to the appropriate image channel format
   * and order associated with image. */
  unsigned char pixel[16];
  loom_image_encode_color(loom_image_state(image)->info, fill_color, pixel);
  return loom_enqueue_fill_image(q, image, pixel, origin, region, num_events_in_wait_list,
                                 event_wait_list, event);
}

/* ---------- copies between images and buffers ---------- */

/* The checks clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage
 * share; on success *buf_side and *img_side are the two sides of the copy
 * and bregion its byte region. The buffer side is tight: width x height x
 * depth pixels from offset (rows of a 1D array being its layers). */
static cl_int image_buffer_copy(const char *fn, cl_command_queue q, cl_mem image,
                                const char *image_arg, const char *origin_arg, cl_mem buffer,
                                const char *buffer_arg, const char *offset_arg,
                                const size_t *origin, const size_t *region, size_t offset,
                                cl_uint num_wait, const cl_event *wait,
                                struct loom_copy_side *buf_side,
                                struct loom_copy_side *img_side, size_t bregion[3]) {
  cl_int err = loom_check_host_queue(fn, q);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_MEM_OBJECT if the image is not a valid image object or the
   * buffer is not a valid buffer object or if the image is a 1D image buffer
   * object created from the buffer; then CL_INVALID_CONTEXT */
  if (!loom_mem_is_image(image))
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "%s is not a valid image object", image_arg);
  if (!loom_is_buffer(buffer))
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "%s is not a valid buffer object",
                         buffer_arg);
  if (image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && image->parent == buffer)
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT,
                         "%s is a 1D image buffer created from %s", image_arg, buffer_arg);
  if ((err = check_image(fn, image_arg, q, image)) != CL_SUCCESS ||
      (err = loom_check_buffer_for_queue(fn, buffer_arg, q, buffer)) != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the rectangular region from the image origin is
   * outside the image, if values in the origin and region do not follow the
   * rules, or if the bytes from the buffer offset are outside the buffer */
  if ((err = loom_check_region(fn, region)) != CL_SUCCESS ||
      (err = check_origin(fn, origin_arg, image, origin, region)) != CL_SUCCESS)
    return err;
  byte_region(image, region, bregion);
  size_t cb = bregion[0] * bregion[1] * bregion[2]; /* bytes of the image: no overflow */
  if (!loom_range_inside(buffer->size, offset, cb))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s plus the size of the region is out of bounds of %s", offset_arg,
                         buffer_arg);
  err = loom_check_wait_list_in(fn, q->context, num_wait, wait);
  /* CL_MISALIGNED_SUB_BUFFER_OFFSET if the buffer is a sub-buffer object and
   * offset specified when the sub-buffer object is created is not aligned to
   * CL_DEVICE_MEM_BASE_ADDR_ALIGN value for device associated with queue */
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(fn, buffer_arg, q, buffer);
  if (err != CL_SUCCESS)
    return err;
  buf_side->mem = buffer;
  buf_side->base = buffer->data + offset;
  buf_side->row_pitch = bregion[0];
  buf_side->slice_pitch = bregion[0] * bregion[1];
  loom_image_copy_side(image, origin, img_side);
  return CL_SUCCESS;
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue,
                                  cl_mem src_image, cl_mem dst_buffer,
                                  const size_t *src_origin, const size_t *region,
                                  size_t dst_offset, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event) {
  struct loom_copy_side buf, img;
  size_t bregion[3];
  cl_int err = image_buffer_copy(__func__, command_queue, src_image, "src_image", "src_origin",
                                 dst_buffer, "dst_buffer", "dst_offset", src_origin, region,
                                 dst_offset, num_events_in_wait_list, event_wait_list, &buf,
                                 &img, bregion);
  if (err != CL_SUCCESS)
    return err;
  return loom_enqueue_copy(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, &buf, &img, bregion,
                           num_events_in_wait_list, event_wait_list, event, false);
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue,
                                  cl_mem src_buffer, cl_mem dst_image,
                                  size_t src_offset, const size_t *dst_origin,
                                  const size_t *region, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event) {
  struct loom_copy_side buf, img;
  size_t bregion[3];
  cl_int err = image_buffer_copy(__func__, command_queue, dst_image, "dst_image", "dst_origin",
                                 src_buffer, "src_buffer", "src_offset", dst_origin, region,
                                 src_offset, num_events_in_wait_list, event_wait_list, &buf,
                                 &img, bregion);
  if (err != CL_SUCCESS)
    return err;
  return loom_enqueue_copy(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, &img, &buf, bregion,
                           num_events_in_wait_list, event_wait_list, event, false);
}

/* ---------- map ---------- */

void *clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                        cl_bool blocking_map, cl_map_flags map_flags,
                        const size_t *origin, const size_t *region,
                        size_t *image_row_pitch, size_t *image_slice_pitch,
                        cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event,
                        cl_int *errcode_ret) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err == CL_SUCCESS)
    err = check_image(__func__, "image", q, image);
  if (err == CL_SUCCESS)
    err = loom_check_region(__func__, region);
  /* CL_INVALID_VALUE if region being mapped given by (origin,
   * origin+region) is out of bounds; if values in origin and region do not
   * follow rules described in the argument description */
  if (err == CL_SUCCESS)
    err = check_origin(__func__, "origin", image, origin, region);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_VALUE if ... values specified in map_flags are not valid */
  if ((err = loom_check_map_flags(__func__, map_flags)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_VALUE if image_row_pitch is NULL */
  if (!image_row_pitch)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "image_row_pitch is NULL");
  /* CL_INVALID_VALUE if image is a 3D image, 1D or 2D image array object and
   * image_slice_pitch is NULL */
  const struct loom_image_state *st = loom_image_state(image);
  cl_mem_object_type t = st->desc.image_type;
  bool slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (slices && !image_slice_pitch)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "image_slice_pitch is NULL for a 3D image or an image array");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_OPERATION if image has been created with
   * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in
   * map_flags or if image has been created with CL_MEM_HOST_READ_ONLY or
   * CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION
   * is set in map_flags */
  if ((err = loom_check_map_access(__func__, image, map_flags)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);

  /* zero copy: a pointer into the storage (derived from host_ptr for
   * CL_MEM_USE_HOST_PTR images), registered before the command runs so that
   * a command enqueued right after a non-blocking map may unmap it */
  struct loom_copy_side side;
  loom_image_copy_side(image, origin, &side);
  size_t bregion[3];
  byte_region(image, region, bregion);
  cl_int recorded = loom_mem_map_add_rect(image, side.base, (size_t)(side.base - image->data),
                                          bregion, side.row_pitch, side.slice_pitch, map_flags);
  err = loom_enqueue_map(__func__, q, CL_COMMAND_MAP_IMAGE, image, side.base, recorded,
                         blocking_map, num_events_in_wait_list, event_wait_list, event);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* image_row_pitch returns the scan-line pitch in bytes for the mapped
   * region; image_slice_pitch the size in bytes of each 2D slice of a 3D
   * image or each image of a 1D or 2D image array; for a 1D and 2D image,
   * zero is returned if this argument is not NULL */
  *image_row_pitch = st->desc.image_row_pitch;
  if (image_slice_pitch)
    *image_slice_pitch = slices ? st->desc.image_slice_pitch : 0;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return side.base;
}
