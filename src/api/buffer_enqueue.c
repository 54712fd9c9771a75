/* clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer,
 * clEnqueueFillBuffer. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

/* The checks read and write share: handles, range and pointer, wait list,
 * sub-buffer alignment, then the host access flags. */
static cl_int check_transfer(cl_command_queue q, cl_mem buffer, size_t offset,
                             size_t size, const void *ptr, cl_uint num_wait,
                             const cl_event *wait, bool reading) {
  cl_int err = loom_check_host_queue(q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!loom_range_inside(buffer->size, offset, size) || !ptr)
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_wait, wait);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, buffer);
  if (err == CL_SUCCESS)
    err = loom_check_host_access(buffer, reading);
  return err;
}

cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                           cl_bool blocking_read, size_t offset, size_t size,
                           void *ptr, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_transfer(command_queue, buffer, offset, size, ptr,
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
  cl_int err = check_transfer(command_queue, buffer, offset, size, ptr,
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

cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                           cl_mem dst_buffer, size_t src_offset,
                           size_t dst_offset, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(q);
  if (err != CL_SUCCESS)
    return err;
  /* both handles are checked before either context */
  cl_int src_err = loom_check_buffer_for_queue(q, src_buffer);
  cl_int dst_err = loom_check_buffer_for_queue(q, dst_buffer);
  if (src_err == CL_INVALID_MEM_OBJECT || dst_err == CL_INVALID_MEM_OBJECT)
    return CL_INVALID_MEM_OBJECT;
  if (src_err != CL_SUCCESS || dst_err != CL_SUCCESS)
    return CL_INVALID_CONTEXT;
  if (!loom_range_inside(src_buffer->size, src_offset, size) ||
      !loom_range_inside(dst_buffer->size, dst_offset, size))
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, src_buffer);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  /* the same storage: the buffer itself, or sub-buffers of one parent */
  if (loom_mem_root(src_buffer) == loom_mem_root(dst_buffer)) {
    size_t s = loom_mem_root_offset(src_buffer) + src_offset;
    size_t d = loom_mem_root_offset(dst_buffer) + dst_offset;
    if (size && s < d + size && d < s + size)
      return CL_MEM_COPY_OVERLAP;
  }
  struct loom_copy_side dst = {dst_buffer, dst_buffer->data + dst_offset, size, size};
  struct loom_copy_side src = {src_buffer, src_buffer->data + src_offset, size, size};
  const size_t region[3] = {size, 1, 1};
  return loom_enqueue_copy(q, CL_COMMAND_COPY_BUFFER, &dst, &src, region,
                           num_events_in_wait_list, event_wait_list, event,
                           false);
}

static bool valid_pattern_size(size_t n) {
  return n >= 1 && n <= 128 && (n & (n - 1)) == 0;
}

cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                           const void *pattern, size_t pattern_size,
                           size_t offset, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!loom_range_inside(buffer->size, offset, size))
    return CL_INVALID_VALUE;
  if (!pattern || !valid_pattern_size(pattern_size))
    return CL_INVALID_VALUE;
  if (offset % pattern_size || size % pattern_size)
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* host access flags do not apply to fills (the spec says so) */
  return loom_enqueue_fill(q, buffer, pattern, pattern_size, offset, size,
                           num_events_in_wait_list, event_wait_list, event);
}
