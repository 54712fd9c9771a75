/* clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect:
 * 2D and 3D rectangles of bytes with row and slice pitches. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

static bool region_valid(const size_t region[3]) {
  return region && region[0] && region[1] && region[2];
}

/* Validates and completes one buffer side: pitches defaulted, its byte range
 * inside buffer; *offset is the first byte. */
static cl_int buffer_side(cl_mem buffer, const size_t origin[3],
                          const size_t region[3], size_t *row, size_t *slice,
                          size_t *offset) {
  size_t end;
  if (loom_rect_pitches(region, row, slice) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  if (!loom_rect_span(origin, region, *row, *slice, offset, &end) ||
      end > buffer->size)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static cl_int transfer_rect(cl_command_queue q, cl_command_type type,
                            cl_mem buffer, bool reading, cl_bool blocking,
                            const size_t *buffer_origin, const size_t *host_origin,
                            const size_t *region, size_t buffer_row_pitch,
                            size_t buffer_slice_pitch, size_t host_row_pitch,
                            size_t host_slice_pitch, const void *ptr,
                            cl_uint num_wait, const cl_event *wait,
                            cl_event *event) {
  cl_int err = loom_check_host_queue(q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!buffer_origin || !host_origin || !region_valid(region) || !ptr)
    return CL_INVALID_VALUE;
  size_t buf_off, host_off, host_end;
  if (buffer_side(buffer, buffer_origin, region, &buffer_row_pitch,
                  &buffer_slice_pitch, &buf_off) != CL_SUCCESS ||
      loom_rect_pitches(region, &host_row_pitch, &host_slice_pitch) != CL_SUCCESS ||
      !loom_rect_span(host_origin, region, host_row_pitch, host_slice_pitch,
                      &host_off, &host_end))
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_wait, wait);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, buffer);
  if (err == CL_SUCCESS)
    err = loom_check_host_access(buffer, reading);
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
  return transfer_rect(command_queue, CL_COMMAND_READ_BUFFER_RECT, buffer, true,
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
  return transfer_rect(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, false,
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
  cl_int err = loom_check_host_queue(q);
  if (err != CL_SUCCESS)
    return err;
  cl_int src_err = loom_check_buffer_for_queue(q, src_buffer);
  cl_int dst_err = loom_check_buffer_for_queue(q, dst_buffer);
  if (src_err == CL_INVALID_MEM_OBJECT || dst_err == CL_INVALID_MEM_OBJECT)
    return CL_INVALID_MEM_OBJECT;
  if (src_err != CL_SUCCESS || dst_err != CL_SUCCESS)
    return CL_INVALID_CONTEXT;
  if (!src_origin || !dst_origin || !region_valid(region))
    return CL_INVALID_VALUE;
  size_t src_off, dst_off;
  if (buffer_side(src_buffer, src_origin, region, &src_row_pitch,
                  &src_slice_pitch, &src_off) != CL_SUCCESS ||
      buffer_side(dst_buffer, dst_origin, region, &dst_row_pitch,
                  &dst_slice_pitch, &dst_off) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  if (src_buffer == dst_buffer &&
      (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, src_buffer);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  if (loom_mem_root(src_buffer) == loom_mem_root(dst_buffer) &&
      loom_rects_overlap(loom_mem_root_offset(src_buffer) + src_off,
                         src_row_pitch, src_slice_pitch,
                         loom_mem_root_offset(dst_buffer) + dst_off,
                         dst_row_pitch, dst_slice_pitch, region))
    return CL_MEM_COPY_OVERLAP;

  struct loom_copy_side dst = {dst_buffer, dst_buffer->data + dst_off,
                               dst_row_pitch, dst_slice_pitch};
  struct loom_copy_side src = {src_buffer, src_buffer->data + src_off,
                               src_row_pitch, src_slice_pitch};
  return loom_enqueue_copy(q, CL_COMMAND_COPY_BUFFER_RECT, &dst, &src, region,
                           num_events_in_wait_list, event_wait_list, event,
                           false);
}
