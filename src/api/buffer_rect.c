/* clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect:
 * 2D and 3D rectangles of bytes with row and slice pitches. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

/* Validates and completes one buffer side (side names its arguments:
 * "buffer", "src", "dst"): pitches defaulted, its byte range inside
 * buffer; *offset is the first byte. */
static cl_int buffer_side(const char *fn, const char *side, cl_mem buffer,
                          const size_t origin[3], const size_t region[3], size_t *row,
                          size_t *slice, size_t *offset) {
  size_t end;
  cl_int err = loom_rect_pitches(fn, side, region, row, slice);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the region being read or written specified by
   * (origin, region, row_pitch, slice_pitch) is out of bounds */
  if (!loom_rect_span(origin, region, *row, *slice, offset, &end))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "the %s rectangle's byte range overflows size_t", side);
  if (end > buffer->size)
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "the %s rectangle (origin, region, pitches) is out of bounds of "
                         "its buffer",
                         side);
  return CL_SUCCESS;
}

static cl_int transfer_rect(const char *fn, cl_command_queue q, cl_command_type type,
                            cl_mem buffer, bool reading, cl_bool blocking,
                            const size_t *buffer_origin, const size_t *host_origin,
                            const size_t *region, size_t buffer_row_pitch,
                            size_t buffer_slice_pitch, size_t host_row_pitch,
                            size_t host_slice_pitch, const void *ptr,
                            cl_uint num_wait, const cl_event *wait,
                            cl_event *event) {
  cl_int err = loom_check_host_queue(fn, q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(fn, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if buffer_origin, host_origin, region or ptr is NULL,
   * or any region array element is 0 */
  if (!buffer_origin)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "buffer_origin is NULL");
  if (!host_origin)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "host_origin is NULL");
  if ((err = loom_check_region(fn, region)) != CL_SUCCESS)
    return err;
  if (!ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "ptr is NULL");
  size_t buf_off, host_off, host_end;
  if ((err = buffer_side(fn, "buffer", buffer, buffer_origin, region, &buffer_row_pitch,
                         &buffer_slice_pitch, &buf_off)) != CL_SUCCESS ||
      (err = loom_rect_pitches(fn, "host", region, &host_row_pitch, &host_slice_pitch)) !=
          CL_SUCCESS)
    return err;
  if (!loom_rect_span(host_origin, region, host_row_pitch, host_slice_pitch, &host_off,
                      &host_end))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "the host rectangle's byte range overflows size_t");
  err = loom_check_wait_list_in(fn, q->context, num_wait, wait);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(fn, "buffer", q, buffer);
  if (err == CL_SUCCESS)
    err = loom_check_host_access(fn, buffer, reading);
  if (err != CL_SUCCESS)
    return err;

  struct loom_copy_side buf = {buffer, buffer->data + buf_off, buffer_row_pitch,
                               buffer_slice_pitch};
  struct loom_copy_side host = {NULL, (char *)ptr + host_off, host_row_pitch,
                                host_slice_pitch};
  return loom_enqueue_copy(q, type, reading ? &host : &buf,
                           reading ? &buf : &host, region, num_wait, wait,
                           event, blocking);
}

cl_int clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                               cl_bool blocking_read, const size_t *buffer_origin,
                               const size_t *host_origin, const size_t *region,
                               size_t buffer_row_pitch, size_t buffer_slice_pitch,
                               size_t host_row_pitch, size_t host_slice_pitch,
                               void *ptr, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
  return transfer_rect(__func__, command_queue, CL_COMMAND_READ_BUFFER_RECT, buffer, true,
                       blocking_read, buffer_origin, host_origin, region,
                       buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                       host_slice_pitch, ptr, num_events_in_wait_list,
                       event_wait_list, event);
}

cl_int clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                cl_bool blocking_write, const size_t *buffer_origin,
                                const size_t *host_origin, const size_t *region,
                                size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                size_t host_row_pitch, size_t host_slice_pitch,
                                const void *ptr, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event) {
  return transfer_rect(__func__, command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, false,
                       blocking_write, buffer_origin, host_origin, region,
                       buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                       host_slice_pitch, ptr, num_events_in_wait_list,
                       event_wait_list, event);
}

cl_int clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                               cl_mem dst_buffer, const size_t *src_origin,
                               const size_t *dst_origin, const size_t *region,
                               size_t src_row_pitch, size_t src_slice_pitch,
                               size_t dst_row_pitch, size_t dst_slice_pitch,
                               cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_MEM_OBJECT if src_buffer or dst_buffer is not a valid buffer
   * object, then CL_INVALID_CONTEXT (both handles before either context) */
  if ((err = loom_check_copy_handles(__func__, loom_is_buffer, "buffer", src_buffer,
                                     dst_buffer)) != CL_SUCCESS ||
      (err = loom_check_buffer_for_queue(__func__, "src_buffer", q, src_buffer)) != CL_SUCCESS ||
      (err = loom_check_buffer_for_queue(__func__, "dst_buffer", q, dst_buffer)) != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if src_origin, dst_origin or region is NULL, or any
   * region array element is 0 */
  if (!src_origin)
    return LOOM_FAIL(CL_INVALID_VALUE, "src_origin is NULL");
  if (!dst_origin)
    return LOOM_FAIL(CL_INVALID_VALUE, "dst_origin is NULL");
  if ((err = loom_check_region(__func__, region)) != CL_SUCCESS)
    return err;
  size_t src_off, dst_off;
  if ((err = buffer_side(__func__, "src", src_buffer, src_origin, region, &src_row_pitch,
                         &src_slice_pitch, &src_off)) != CL_SUCCESS ||
      (err = buffer_side(__func__, "dst", dst_buffer, dst_origin, region, &dst_row_pitch,
                         &dst_slice_pitch, &dst_off)) != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object
   * and src_row_pitch is not equal to dst_row_pitch or src_slice_pitch is
   * not equal to dst_slice_pitch */
  if (src_buffer == dst_buffer &&
      (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "src_buffer is dst_buffer and the source and destination pitches "
                     "differ");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "src_buffer", q, src_buffer);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "dst_buffer", q, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_MEM_COPY_OVERLAP if the source and destination regions overlap in
   * the same storage */
  if (loom_mem_root(src_buffer) == loom_mem_root(dst_buffer) &&
      loom_rects_overlap(loom_mem_root_offset(src_buffer) + src_off,
                         src_row_pitch, src_slice_pitch,
                         loom_mem_root_offset(dst_buffer) + dst_off,
                         dst_row_pitch, dst_slice_pitch, region))
    return LOOM_FAIL(CL_MEM_COPY_OVERLAP,
                     "the source and destination rectangles share bytes of one storage");

  struct loom_copy_side dst = {dst_buffer, dst_buffer->data + dst_off,
                               dst_row_pitch, dst_slice_pitch};
  struct loom_copy_side src = {src_buffer, src_buffer->data + src_off,
                               src_row_pitch, src_slice_pitch};
  return loom_enqueue_copy(q, CL_COMMAND_COPY_BUFFER_RECT, &dst, &src, region,
                           num_events_in_wait_list, event_wait_list, event,
                           false);
}
