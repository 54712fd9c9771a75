/* Event entry points: waiting, queries, reference counting, profiling, user
 * events, callbacks, and the commands that only order (markers, barriers,
 * waits). Also the wait-list check every enqueue uses. */
#include "checks.h"
#include "command.h"

cl_int loom_check_wait_list(cl_context ctx, cl_uint num, const cl_event *list) {
  if ((num == 0) != (list == NULL))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num; i++)
    if (!loom_object_is(list[i], LOOM_EVENT))
      return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num; i++)
    if (list[i]->context != ctx)
      return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

/* clWaitForEvents / clEnqueueWaitForEvents: a non-empty list of valid events
 * of one context. */
static cl_int check_event_list(cl_uint num, const cl_event *list) {
  if (num == 0 || list == NULL)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++)
    if (!loom_object_is(list[i], LOOM_EVENT))
      return CL_INVALID_EVENT;
  for (cl_uint i = 1; i < num; i++)
    if (list[i]->context != list[0]->context)
      return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

cl_int clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  cl_int err = check_event_list(num_events, event_list);
  if (err != CL_SUCCESS)
    return err;
  bool failed = false;
  for (cl_uint i = 0; i < num_events; i++)
    if (loom_event_wait(event_list[i]) < 0)
      failed = true;
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int clGetEventInfo(cl_event event, cl_event_info param_name,
                      size_t param_value_size, void *param_value,
                      size_t *param_value_size_ret) {
  if (!loom_object_is(event, LOOM_EVENT))
    return CL_INVALID_EVENT;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE:
    LOOM_INFO_SCALAR(cl_command_queue, event->queue);
  case CL_EVENT_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, event->context);
  case CL_EVENT_COMMAND_TYPE:
    LOOM_INFO_SCALAR(cl_command_type, event->command_type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    LOOM_INFO_SCALAR(cl_int, atomic_load(&event->status));
  case CL_EVENT_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&event->obj.ext_refs));
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clRetainEvent(cl_event event) {
  if (!loom_object_is(event, LOOM_EVENT))
    return CL_INVALID_EVENT;
  loom_retain_ext(&event->obj);
  return CL_SUCCESS;
}

cl_int clReleaseEvent(cl_event event) {
  if (!loom_object_is(event, LOOM_EVENT))
    return CL_INVALID_EVENT;
  loom_release_ext(&event->obj);
  return CL_SUCCESS;
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                               size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret) {
  if (!loom_object_is(event, LOOM_EVENT))
    return CL_INVALID_EVENT;
  const cl_ulong *value;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
    value = &event->t_queued;
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    value = &event->t_submit;
    break;
  case CL_PROFILING_COMMAND_START:
    value = &event->t_start;
    break;
  case CL_PROFILING_COMMAND_END:
    value = &event->t_end;
    break;
  case CL_PROFILING_COMMAND_COMPLETE:
    value = &event->t_complete;
    break;
  default:
    return CL_INVALID_VALUE;
  }
  /* the timestamps are final once the status (read with acquire) is */
  if (!event->queue || !event->profiling ||
      atomic_load(&event->status) != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  return loom_info(param_value_size, param_value, param_value_size_ret, value,
                   sizeof *value);
}

cl_event clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_event ev = loom_user_event_new(context);
  LOOM_SET_ERR(errcode_ret, ev ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return ev;
}

cl_int clSetUserEventStatus(cl_event event, cl_int execution_status) {
  if (!loom_object_is(event, LOOM_EVENT) || event->queue ||
      event->command_type != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (execution_status > CL_COMPLETE)
    return CL_INVALID_VALUE;
  return loom_user_event_set_status(event, execution_status);
}

cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                          void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                          void *user_data) {
  if (!loom_object_is(event, LOOM_EVENT))
    return CL_INVALID_EVENT;
  if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
                      command_exec_callback_type != CL_RUNNING &&
                      command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  return loom_event_add_callback(event, command_exec_callback_type, pfn_notify,
                                 user_data);
}

/* ---------- markers, barriers, waits ---------- */

/* A command that does nothing but order: a marker or barrier (see
 * loom_command_submit for how each one orders). */
static cl_int enqueue_sync(cl_command_queue q, cl_command_type type,
                           cl_uint num_wait, const cl_event *wait,
                           cl_event *event_out) {
  cl_event ev = loom_command_new(q, type);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  return loom_command_submit(ev, num_wait, wait, event_out, false);
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                   cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list,
                                   cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = loom_check_wait_list(command_queue->context,
                                    num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return enqueue_sync(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list,
                      event_wait_list, event);
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list,
                                    cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = loom_check_wait_list(command_queue->context,
                                    num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                      event_wait_list, event);
}

cl_int clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!event)
    return CL_INVALID_VALUE;
  return enqueue_sync(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int clEnqueueBarrier(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                              const cl_event *event_list) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_event_list(num_events, event_list);
  if (err != CL_SUCCESS)
    return err;
  if (event_list[0]->context != command_queue->context)
    return CL_INVALID_CONTEXT;
  /* later commands must wait for these events: a barrier with a wait list */
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events, event_list,
                      NULL);
}
