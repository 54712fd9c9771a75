/* clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer,
 * clEnqueueFillBuffer. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

/* The checks read and write share: handles, range and pointer, wait list,
 * sub-buffer alignment, then the host access flags; logged as fn. */
static cl_int check_transfer(const char *fn, cl_command_queue q, cl_mem buffer, size_t offset,
                             size_t size, const void *ptr, cl_uint num_wait,
                             const cl_event *wait, bool reading) {
  cl_int err = loom_check_host_queue(fn, q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(fn, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the region being read or written specified by
   * (offset, size) is out of bounds or if ptr is a NULL value */
  if (!loom_range_inside(buffer->size, offset, size))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "offset + size is out of bounds of buffer");
  if (!ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "ptr is NULL");
  err = loom_check_wait_list_in(fn, q->context, num_wait, wait);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(fn, "buffer", q, buffer);
  if (err == CL_SUCCESS)
    err = loom_check_host_access(fn, buffer, reading);
  return err;
}

cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                           cl_bool blocking_read, size_t offset, size_t size,
                           void *ptr, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_transfer(__func__, command_queue, buffer, offset, size, ptr,
                              num_events_in_wait_list, event_wait_list, true);
  if (err != CL_SUCCESS)
    return err;
  struct loom_copy_side dst = {NULL, ptr, size, size};
  struct loom_copy_side src = {buffer, buffer->data + offset, size, size};
  const size_t region[3] = {size, 1, 1};
  return loom_enqueue_copy(command_queue, CL_COMMAND_READ_BUFFER, &dst, &src,
                           region, num_events_in_wait_list, event_wait_list,
                           event, blocking_read);
}

cl_int clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                            cl_bool blocking_write, size_t offset, size_t size,
                            const void *ptr, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_transfer(__func__, command_queue, buffer, offset, size, ptr,
                              num_events_in_wait_list, event_wait_list, false);
  if (err != CL_SUCCESS)
    return err;
  struct loom_copy_side dst = {buffer, buffer->data + offset, size, size};
  struct loom_copy_side src = {NULL, (char *)ptr, size, size};
  const size_t region[3] = {size, 1, 1};
  return loom_enqueue_copy(command_queue, CL_COMMAND_WRITE_BUFFER, &dst, &src,
                           region, num_events_in_wait_list, event_wait_list,
                           event, blocking_write);
}

/* CL_INVALID_MEM_OBJECT if src_buffer or dst_buffer is not a valid buffer
 * object, then CL_INVALID_CONTEXT if either belongs to another context than
 * q (both handles are checked before either context); logged as fn. */
static cl_int check_copy_buffers(const char *fn, cl_command_queue q, cl_mem src, cl_mem dst) {
  if (!loom_is_buffer(src))
    return LOOM_FAIL_IN(fn, CL_INVALID_MEM_OBJECT, "src_buffer is not a valid buffer object");
  if (!loom_is_buffer(dst))
    return LOOM_FAIL_IN(fn, CL_INVALID_MEM_OBJECT, "dst_buffer is not a valid buffer object");
  if (src->context != q->context)
    return LOOM_FAIL_IN(fn, CL_INVALID_CONTEXT,
                        "src_buffer and command_queue belong to different contexts");
  if (dst->context != q->context)
    return LOOM_FAIL_IN(fn, CL_INVALID_CONTEXT,
                        "dst_buffer and command_queue belong to different contexts");
  return CL_SUCCESS;
}

cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                           cl_mem dst_buffer, size_t src_offset,
                           size_t dst_offset, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err == CL_SUCCESS)
    err = check_copy_buffers(__func__, q, src_buffer, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or
   * dst_offset + size require accessing elements outside the buffers */
  if (!loom_range_inside(src_buffer->size, src_offset, size))
    return LOOM_FAIL(CL_INVALID_VALUE, "src_offset + size is out of bounds of src_buffer");
  if (!loom_range_inside(dst_buffer->size, dst_offset, size))
    return LOOM_FAIL(CL_INVALID_VALUE, "dst_offset + size is out of bounds of dst_buffer");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "src_buffer", q, src_buffer);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "dst_buffer", q, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
   * sub-buffer object (or share storage) and the regions overlap */
  if (loom_mem_root(src_buffer) == loom_mem_root(dst_buffer)) {
    size_t s = loom_mem_root_offset(src_buffer) + src_offset;
    size_t d = loom_mem_root_offset(dst_buffer) + dst_offset;
    if (size && s < d + size && d < s + size)
      return LOOM_FAIL(CL_MEM_COPY_OVERLAP,
                       "the source and destination regions share bytes of one storage");
  }
  struct loom_copy_side dst = {dst_buffer, dst_buffer->data + dst_offset, size, size};
  struct loom_copy_side src = {src_buffer, src_buffer->data + src_offset, size, size};
  const size_t region[3] = {size, 1, 1};
  return loom_enqueue_copy(q, CL_COMMAND_COPY_BUFFER, &dst, &src, region,
                           num_events_in_wait_list, event_wait_list, event,
                           false);
}

cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                           const void *pattern, size_t pattern_size,
                           size_t offset, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(__func__, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if offset or offset + size require accessing elements
   * outside buffer; if pattern is NULL, or pattern_size is 0 or not one of
   * {1, 2, 4, 8, 16, 32, 64, 128}; if offset and size are not a multiple of
   * pattern_size */
  if (!loom_range_inside(buffer->size, offset, size))
    return LOOM_FAIL(CL_INVALID_VALUE, "offset + size is out of bounds of buffer");
  if (!pattern)
    return LOOM_FAIL(CL_INVALID_VALUE, "pattern is NULL");
  if (!loom_valid_pattern_size(pattern_size))
    return LOOM_FAIL(CL_INVALID_VALUE, "pattern_size is not a power of two from 1 to 128");
  if (offset % pattern_size)
    return LOOM_FAIL(CL_INVALID_VALUE, "offset is not a multiple of pattern_size");
  if (size % pattern_size)
    return LOOM_FAIL(CL_INVALID_VALUE, "size is not a multiple of pattern_size");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* host access flags do not apply to fills (the spec says so) */
  return loom_enqueue_fill(q, buffer, pattern, pattern_size, offset, size,
                           num_events_in_wait_list, event_wait_list, event);
}
