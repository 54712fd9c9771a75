/* Command-queue entry points: creation (1.x bitfield and 2.0+ property
 * list), reference counting, queries, flush and finish. */
#include "checks.h"
#include "command.h"
#include <stdlib.h>
#include <string.h>

#define LOOM_QUEUE_KNOWN_PROPS                                                 \
  (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |        \
   CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)

/* CL_INVALID_VALUE for unknown bits or combinations the spec forbids;
 * CL_INVALID_QUEUE_PROPERTIES for device queues, which the device lacks
 * (it reports no device-side enqueue). Logged as fn. */
static cl_int check_queue_props(const char *fn, cl_command_queue_properties props) {
  if (props & ~(cl_command_queue_properties)LOOM_QUEUE_KNOWN_PROPS)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "the queue properties have unknown bits");
  if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "CL_QUEUE_ON_DEVICE_DEFAULT is set without CL_QUEUE_ON_DEVICE");
  if ((props & CL_QUEUE_ON_DEVICE) &&
      !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "CL_QUEUE_ON_DEVICE is set without "
                        "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE");
  if (props & CL_QUEUE_ON_DEVICE)
    return LOOM_FAIL_IN(fn, CL_INVALID_QUEUE_PROPERTIES,
                        "CL_QUEUE_ON_DEVICE is set and the device has no device queues");
  return CL_SUCCESS;
}

static cl_int check_context_device(const char *fn, cl_context ctx, cl_device_id dev) {
  if (!loom_object_is(ctx, LOOM_CONTEXT))
    return LOOM_FAIL_IN(fn, CL_INVALID_CONTEXT, "context is not a valid context");
  if (!loom_object_is(dev, LOOM_DEVICE))
    return LOOM_FAIL_IN(fn, CL_INVALID_DEVICE, "device is not a valid device");
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i] == dev)
      return CL_SUCCESS;
  return LOOM_FAIL_IN(fn, CL_INVALID_DEVICE, "device is not a device of context");
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties,
                                      cl_int *errcode_ret) {
  cl_int err = check_context_device(__func__, context, device);
  if (err == CL_SUCCESS)
    err = check_queue_props(__func__, properties);
  if (err != CL_SUCCESS) {
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  cl_command_queue q = loom_queue_new(context, device, properties);
  if (!q)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the queue failed");
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return q;
}

/* Reads a 0-terminated property list: the CL_QUEUE_PROPERTIES bits and the
 * number of entries including the terminator. Each key may appear once. */
static cl_int parse_queue_props(const char *fn, const cl_queue_properties *list,
                                cl_command_queue_properties *props,
                                size_t *num_entries) {
  bool have_props = false, have_size = false;
  *props = 0;
  *num_entries = 0;
  if (!list)
    return CL_SUCCESS;
  size_t i = 0;
  for (; list[i] != 0; i += 2) {
    switch (list[i]) {
    case CL_QUEUE_PROPERTIES:
      if (have_props)
        return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "properties names CL_QUEUE_PROPERTIES twice");
      have_props = true;
      *props = (cl_command_queue_properties)list[i + 1];
      break;
    case CL_QUEUE_SIZE:
      if (have_size)
        return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "properties names CL_QUEUE_SIZE twice");
      have_size = true;
      break;
    default:
      return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "properties names an unknown property");
    }
  }
  cl_int err = check_queue_props(fn, *props);
  if (err != CL_SUCCESS)
    return err;
  if (have_size && !(*props & CL_QUEUE_ON_DEVICE))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "CL_QUEUE_SIZE is given for a queue without CL_QUEUE_ON_DEVICE");
  *num_entries = i + 1;
  return CL_SUCCESS;
}

cl_command_queue clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device,
    const cl_queue_properties *properties, cl_int *errcode_ret) {
  cl_command_queue_properties props;
  size_t num_entries;
  cl_int err = check_context_device(__func__, context, device);
  if (err == CL_SUCCESS)
    err = parse_queue_props(__func__, properties, &props, &num_entries);
  if (err != CL_SUCCESS) {
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  cl_command_queue q = loom_queue_new(context, device, props);
  if (q && num_entries) {
    q->prop_list = malloc(num_entries * sizeof *q->prop_list);
    if (q->prop_list) {
      memcpy(q->prop_list, properties, num_entries * sizeof *q->prop_list);
      q->num_prop_list = num_entries;
    } else {
      loom_release_ext(&q->obj);
      q = NULL;
    }
  }
  if (!q)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the queue failed");
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return q;
}

cl_int clRetainCommandQueue(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  loom_retain_ext(&command_queue->obj);
  return CL_SUCCESS;
}

cl_int clReleaseCommandQueue(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  /* Commands already start as soon as they are ready, so the implicit flush
   * has nothing to do. The queue lives on until its commands completed. */
  LOOM_RETAIN(command_queue);
  if (loom_release_ext(&command_queue->obj))
    loom_queue_forget_commands(command_queue);
  LOOM_RELEASE(command_queue);
  return CL_SUCCESS;
}

cl_int clGetCommandQueueInfo(cl_command_queue command_queue,
                             cl_command_queue_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  cl_command_queue q = command_queue;
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, q->context);
  case CL_QUEUE_DEVICE:
    LOOM_INFO_SCALAR(cl_device_id, q->device);
  case CL_QUEUE_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&q->obj.ext_refs));
  case CL_QUEUE_PROPERTIES:
    LOOM_INFO_SCALAR(cl_command_queue_properties, q->props);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     q->prop_list, q->num_prop_list * sizeof *q->prop_list);
  case CL_QUEUE_SIZE:
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE,
                     "CL_QUEUE_SIZE is asked of a queue that is not a device queue");
  case CL_QUEUE_DEVICE_DEFAULT:
    LOOM_INFO_SCALAR(cl_command_queue, NULL);
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a command-queue query");
  }
}

cl_int clFlush(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  return CL_SUCCESS; /* commands start as soon as they are ready */
}

cl_int clFinish(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  return loom_queue_finish(command_queue);
}

/* OpenCL 1.0 only; OpenCL 1.1 and later devices may refuse it, as LoomCL does. */
cl_int clSetCommandQueueProperty(cl_command_queue command_queue,
                                 cl_command_queue_properties properties, cl_bool enable,
                                 cl_command_queue_properties *old_properties) {
  (void)properties;
  (void)enable;
  (void)old_properties;
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  return LOOM_FAIL(CL_INVALID_OPERATION,
                   "changing queue properties after creation is not supported (OpenCL 1.0 "
                   "only)");
}
