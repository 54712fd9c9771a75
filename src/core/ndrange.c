/* Kernel launches: a validated NDRange becomes a command whose execution
 * hands the launch to the device's driver (ops->ndrange). */
#include "command.h"
#include "kernel.h"
#include <assert.h>
#include <stdlib.h>

static void launch_complete(struct loom_launch *launch, cl_int status) {
  /* the launch is the first member of the core's ndrange */
  struct loom_ndrange *nd = (struct loom_ndrange *)launch;
  if (nd->timed && status == CL_COMPLETE)
    loom_variant_timed(nd->kernel, nd->variant, &nd->trial);
  else if (nd->variant && !nd->specialised && status == CL_COMPLETE)
    loom_variant_ran(nd->variant, loom_now_ns() - nd->start_ns);
  loom_event_complete(nd->event, status);
}

static void ndrange_async(struct loom_command *cmd) {
  struct loom_ndrange *nd = cmd->payload;
  nd->event = loom_command_event(cmd);
  if (nd->variant) /* only variants count their run time (variants.c) */
    nd->start_ns = loom_now_ns();
  cmd->device->ops->ndrange(&cmd->device->desc, &nd->launch);
}

static void ndrange_cleanup(struct loom_command *cmd) {
  loom_ndrange_free(cmd->payload);
  cmd->payload = NULL;
}

static cl_int trivial_run(struct loom_command *cmd) {
  (void)cmd;
  return CL_SUCCESS;
}

cl_int loom_enqueue_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                            const size_t offset[3], const size_t global[3],
                            const size_t local[3], cl_uint num_events,
                            const cl_event *wait_list, cl_event *event) {
  assert(work_dim >= 1 && work_dim <= 3);
  bool empty = false;
  for (cl_uint d = 0; d < work_dim; d++)
    empty |= global[d] == 0;
  /* CL_INVALID_PROGRAM_EXECUTABLE: the kernel's code could not be generated */
  if (!empty && !loom_kernel_code(kernel))
    return CL_INVALID_PROGRAM_EXECUTABLE;
  cl_event ev = loom_command_new(queue, CL_COMMAND_NDRANGE_KERNEL);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  if (empty) {
    /* no work-items: the command only orders (OpenCL 2.1 allows it) */
    ev->cmd.run = trivial_run;
  } else {
    struct loom_ndrange *nd = loom_ndrange_new(kernel, queue->device->ops->ndrange_state_size);
    if (!nd) {
      loom_command_discard(ev);
      return CL_OUT_OF_HOST_MEMORY;
    }
    struct loom_launch *l = &nd->launch;
    l->work_dim = work_dim;
    for (int d = 0; d < 3; d++) {
      assert(local[d] >= 1 && global[d] >= 1);
      l->offset[d] = offset[d];
      l->global[d] = global[d];
      l->local[d] = local[d];
      l->groups[d] = (global[d] + local[d] - 1) / local[d];
    }
    nd->variant = loom_kernel_variant(kernel, l->local, l->args, &nd->specialised, &nd->trial,
                                      &nd->timed);
    l->full_fn = nd->specialised ? &nd->variant->fn : NULL;
    l->full_scratch = nd->specialised ? nd->variant->scratch : NULL;
    l->trial = nd->timed ? &nd->trial : NULL;
    l->complete = launch_complete;
    ev->cmd.payload = nd;
    ev->cmd.async = ndrange_async;
    ev->cmd.cleanup = ndrange_cleanup;
  }
  return loom_command_submit(ev, num_events, wait_list, event, false);
}
