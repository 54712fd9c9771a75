/* clEnqueueNDRangeKernel and clEnqueueTask: validation, then one call into
 * core (core/ndrange.c). Every error names its rule under LOOMCL_LOG=api. */
#include "checks.h"
#include "subdevice.h"
#include "command.h"
#include "kernel.h"
#include <stdint.h>

/* CL_INVALID_WORK_GROUP_SIZE and CL_INVALID_WORK_ITEM_SIZE for an
 * explicit local_work_size (OpenCL 2.2, 5.9), logged under fn */
static cl_int check_local_size(const char *fn, cl_kernel kernel, const struct _cl_device_id *dev,
                               cl_uint work_dim, const size_t *global, const size_t *local,
                               bool empty, bool nonuniform) {
  const struct loom_kernel_meta *m = kernel->meta;
  size_t total = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    if (local[d] == 0)
      return LOOM_FAIL_IN(fn, CL_INVALID_WORK_GROUP_SIZE, "local_work_size[d] is 0");
    if (local[d] > dev->desc.lim.max_work_item_sizes[d])
      return LOOM_FAIL_IN(fn, CL_INVALID_WORK_ITEM_SIZE,
                       "local_work_size[d] exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[d]");
    total *= local[d];
    if (m->reqd_work_group_size[0] && local[d] != m->reqd_work_group_size[d])
      return LOOM_FAIL_IN(fn, CL_INVALID_WORK_GROUP_SIZE,
                       "local_work_size differs from the kernel's reqd_work_group_size");
    if (!empty && !nonuniform && global[d] % local[d] != 0)
      return LOOM_FAIL_IN(fn, CL_INVALID_WORK_GROUP_SIZE,
                       "global_work_size[d] is not a multiple of local_work_size[d] and the "
                       "program does not allow non-uniform work-groups");
  }
  if (m->reqd_work_group_size[0])
    for (cl_uint d = work_dim; d < 3; d++)
      if (m->reqd_work_group_size[d] != 1)
        return LOOM_FAIL_IN(fn, CL_INVALID_WORK_GROUP_SIZE,
                         "reqd_work_group_size uses more dimensions than work_dim");
  if (total > dev->desc.lim.max_work_group_size)
    return LOOM_FAIL_IN(fn, CL_INVALID_WORK_GROUP_SIZE,
                     "the product of local_work_size exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE");
  return CL_SUCCESS;
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t *global_work_offset, const size_t *global_work_size,
                              const size_t *local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  if (!loom_object_is(queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  if (queue->context != kernel->context)
    return LOOM_FAIL(CL_INVALID_CONTEXT, "the queue and the kernel belong to different contexts");
  /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
   * program executable available for the device of command_queue. A kernel
   * holds the code of one device; sub-devices of one root device run the
   * same code (core/subdevice.h), on their own cores */
  struct loom_program_build *b = loom_program_build_for(kernel->program, queue->device);
  if (!b || b->status != CL_BUILD_SUCCESS || b->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE ||
      !loom_devices_share_code(kernel->device, queue->device))
    return LOOM_FAIL(CL_INVALID_PROGRAM_EXECUTABLE,
                     "no executable of the kernel's program for the queue's device");
  if (work_dim < 1 || work_dim > 3)
    return LOOM_FAIL(CL_INVALID_WORK_DIMENSION, "work_dim is not 1, 2 or 3");
  cl_int err = loom_check_wait_list(queue->context, num_events_in_wait_list, event_wait_list);
  if (err)
    return LOOM_FAIL(err, "invalid event_wait_list");
  if (!loom_kernel_args_complete(kernel))
    return LOOM_FAIL(CL_INVALID_KERNEL_ARGS, "some kernel argument was never set");

  /* unused dimensions: offset 0, one work-item, one group */
  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {1, 1, 1};
  bool empty = global_work_size == NULL;
  if (empty)
    global[0] = 0;
  for (cl_uint d = 0; d < work_dim && !empty; d++) {
    global[d] = global_work_size[d];
    if (global[d] == 0)
      empty = true;
    if (global_work_offset) {
      offset[d] = global_work_offset[d];
      if (global[d] > SIZE_MAX - offset[d])
        return LOOM_FAIL(CL_INVALID_GLOBAL_OFFSET,
                         "global_work_size[d] + global_work_offset[d] exceeds SIZE_MAX");
    }
  }
  const struct _cl_device_id *dev = queue->device;
  bool nonuniform = loom_kernel_allows_nonuniform(kernel);
  if (local_work_size) {
    for (cl_uint d = 0; d < work_dim; d++)
      local[d] = local_work_size[d];
    err = check_local_size(__func__, kernel, dev, work_dim, global, local, empty, nonuniform);
    if (err)
      return err;
  } else if (!empty) {
    loom_pick_local_size(kernel, work_dim, global, local);
    for (cl_uint d = work_dim; d < 3; d++)
      if (local[d] != 1)
        return LOOM_FAIL(CL_INVALID_WORK_GROUP_SIZE,
                         "reqd_work_group_size uses more dimensions than work_dim");
    for (cl_uint d = 0; d < work_dim; d++)
      if (!nonuniform && global[d] % local[d] != 0)
        return LOOM_FAIL(CL_INVALID_WORK_GROUP_SIZE,
                         "reqd_work_group_size does not divide global_work_size and the "
                         "program does not allow non-uniform work-groups");
  }
  if (!empty && loom_kernel_local_bytes(kernel) > dev->desc.lim.local_mem_size)
    return LOOM_FAIL(CL_OUT_OF_RESOURCES,
                     "the kernel's __local memory exceeds CL_DEVICE_LOCAL_MEM_SIZE");
  return loom_enqueue_ndrange(queue, kernel, work_dim, offset, global, local,
                              num_events_in_wait_list, event_wait_list, event);
}

cl_int clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, num_events_in_wait_list,
                                event_wait_list, event);
}
