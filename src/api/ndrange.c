/* clEnqueueNDRangeKernel and clEnqueueTask. */
#include "../core/command.h"
#include "../core/kernel.h"
#include "../devices/device.h"
#include <stdint.h>
#include <stdlib.h>

static void ndrange_async(struct loom_command *cmd) {
  cl_event ev = loom_command_event(cmd);
  struct loom_ndrange *nd = cmd->payload;
  cmd->device->ops->ndrange(cmd->device, nd, ev);
}

static void ndrange_cleanup(struct loom_command *cmd) {
  loom_ndrange_free(cmd->payload);
  cmd->payload = NULL;
}

static cl_int trivial_run(struct loom_command *cmd) {
  (void)cmd;
  return CL_SUCCESS;
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t *global_work_offset, const size_t *global_work_size,
                              const size_t *local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  if (!loom_object_is(queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  if (queue->context != kernel->context)
    return CL_INVALID_CONTEXT;
  if (!loom_program_build_for(kernel->program, queue->device) || kernel->device != queue->device)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  if (work_dim < 1 || work_dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  cl_int err = loom_check_wait_list(queue->context, num_events_in_wait_list, event_wait_list);
  if (err)
    return err;
  if (!loom_kernel_args_complete(kernel))
    return CL_INVALID_KERNEL_ARGS;

  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {1, 1, 1};
  bool empty = global_work_size == NULL;
  for (cl_uint d = 0; d < work_dim && !empty; d++) {
    global[d] = global_work_size[d];
    if (global[d] == 0)
      empty = true;
    if (global_work_offset) {
      offset[d] = global_work_offset[d];
      if (global[d] > SIZE_MAX - offset[d])
        return CL_INVALID_GLOBAL_OFFSET;
    }
  }
  const struct loom_kernel_meta *m = kernel->meta;
  const struct _cl_device_id *dev = queue->device;
  bool nonuniform = loom_kernel_allows_nonuniform(kernel);
  if (local_work_size) {
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
      local[d] = local_work_size[d];
      if (local[d] == 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      if (local[d] > dev->lim.max_work_item_sizes[d])
        return CL_INVALID_WORK_ITEM_SIZE;
      total *= local[d];
      if (m->reqd_work_group_size[0] && local[d] != m->reqd_work_group_size[d])
        return CL_INVALID_WORK_GROUP_SIZE;
      if (!empty && !nonuniform && global[d] % local[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE;
    }
    if (m->reqd_work_group_size[0])
      for (cl_uint d = work_dim; d < 3; d++)
        if (m->reqd_work_group_size[d] != 1)
          return CL_INVALID_WORK_GROUP_SIZE;
    if (total > dev->lim.max_work_group_size)
      return CL_INVALID_WORK_GROUP_SIZE;
  } else if (!empty) {
    loom_pick_local_size(kernel, work_dim, global, local);
    for (cl_uint d = work_dim; d < 3; d++)
      if (local[d] != 1)
        return CL_INVALID_WORK_GROUP_SIZE; /* reqd size needs more dimensions */
    for (cl_uint d = 0; d < work_dim; d++)
      if (!nonuniform && global[d] % local[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE; /* reqd size that does not divide */
  }
  if (!empty && loom_kernel_local_bytes(kernel) > dev->lim.local_mem_size)
    return CL_OUT_OF_RESOURCES;

  cl_event ev = loom_command_new(queue, CL_COMMAND_NDRANGE_KERNEL);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  if (empty) {
    ev->cmd.run = trivial_run;
  } else {
    struct loom_ndrange *nd = loom_ndrange_new(kernel, queue->device->ops->ndrange_state_size);
    if (!nd) {
      loom_command_discard(ev);
      return CL_OUT_OF_HOST_MEMORY;
    }
    nd->work_dim = work_dim;
    for (int d = 0; d < 3; d++) {
      nd->offset[d] = offset[d];
      nd->global[d] = global[d];
      nd->local[d] = local[d];
      nd->groups[d] = (global[d] + local[d] - 1) / local[d];
    }
    nd->variant = loom_kernel_variant(kernel, nd->local);
    ev->cmd.payload = nd;
    ev->cmd.async = ndrange_async;
    ev->cmd.cleanup = ndrange_cleanup;
  }
  return loom_command_submit(ev, num_events_in_wait_list, event_wait_list, event, false);
}

cl_int clEnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, num_events_in_wait_list,
                                event_wait_list, event);
}
