/* Event entry points: waiting, queries, reference counting, profiling, user
 * events, callbacks, and the commands that only order (markers, barriers,
 * waits). Also the wait-list check every enqueue uses. */
#include "checks.h"
#include "command.h"

cl_int loom_check_wait_list_in(const char *fn, cl_context ctx, cl_uint num,
                               const cl_event *list) {
  if (num > 0 && list == NULL)
    return LOOM_FAIL_IN(fn, CL_INVALID_EVENT_WAIT_LIST,
                        "event_wait_list is NULL and num_events_in_wait_list > 0");
  if (num == 0 && list != NULL)
    return LOOM_FAIL_IN(fn, CL_INVALID_EVENT_WAIT_LIST,
                        "event_wait_list is not NULL and num_events_in_wait_list is 0");
  for (cl_uint i = 0; i < num; i++)
    if (!loom_object_is(list[i], LOOM_EVENT))
      return LOOM_FAILF_IN(fn, CL_INVALID_EVENT_WAIT_LIST,
                           "event_wait_list[%u] is not a valid event", i);
  for (cl_uint i = 0; i < num; i++)
    if (list[i]->context != ctx)
      return LOOM_FAILF_IN(fn, CL_INVALID_CONTEXT,
                           "event_wait_list[%u] and command_queue belong to different contexts",
                           i);
  return CL_SUCCESS;
}

/* clWaitForEvents / clEnqueueWaitForEvents: a non-empty list of valid events
 * of one context. Logged as fn. */
static cl_int check_event_list(const char *fn, cl_uint num, const cl_event *list) {
  if (num == 0)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "num_events is 0");
  if (list == NULL)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "event_list is NULL");
  for (cl_uint i = 0; i < num; i++)
    if (!loom_object_is(list[i], LOOM_EVENT))
      return LOOM_FAILF_IN(fn, CL_INVALID_EVENT, "event_list[%u] is not a valid event", i);
  for (cl_uint i = 1; i < num; i++)
    if (list[i]->context != list[0]->context)
      return LOOM_FAILF_IN(fn, CL_INVALID_CONTEXT,
                           "event_list[%u] and event_list[0] belong to different contexts", i);
  return CL_SUCCESS;
}

cl_int clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  cl_int err = check_event_list(__func__, num_events, event_list);
  if (err != CL_SUCCESS)
    return err;
  bool failed = false;
  for (cl_uint i = 0; i < num_events; i++)
    if (loom_event_wait(event_list[i]) < 0)
      failed = true;
  /* CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of
   * any of the events in event_list is a negative integer value */
  if (failed)
    return LOOM_FAIL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                     "an event of event_list ended with a negative status");
  return CL_SUCCESS;
}

cl_int clGetEventInfo(cl_event event, cl_event_info param_name,
                      size_t param_value_size, void *param_value,
                      size_t *param_value_size_ret) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not an event query");
  }
}

cl_int clRetainEvent(cl_event event) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
  loom_retain_ext(&event->obj);
  return CL_SUCCESS;
}

cl_int clReleaseEvent(cl_event event) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
  loom_release_ext(&event->obj);
  return CL_SUCCESS;
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                               size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a profiling query");
  }
  /* CL_PROFILING_INFO_NOT_AVAILABLE if CL_QUEUE_PROFILING_ENABLE is not set
   * for the command-queue, if the execution status of the command is not
   * CL_COMPLETE, or if event is a user event */
  if (!event->queue)
    return LOOM_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE, "event is a user event");
  if (!event->profiling)
    return LOOM_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE,
                     "the event's queue was created without CL_QUEUE_PROFILING_ENABLE");
  /* the timestamps are final once the status (read with acquire) is */
  if (atomic_load(&event->status) != CL_COMPLETE)
    return LOOM_FAIL(CL_PROFILING_INFO_NOT_AVAILABLE,
                     "the command's execution status is not CL_COMPLETE");
  return loom_info(param_value_size, param_value, param_value_size_ret, value,
                   sizeof *value);
}

cl_event clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  cl_event ev = loom_user_event_new(context);
  if (!ev)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the event failed");
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return ev;
}

cl_int clSetUserEventStatus(cl_event event, cl_int execution_status) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
  if (event->queue || event->command_type != CL_COMMAND_USER)
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a user event");
  if (execution_status > CL_COMPLETE)
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "execution_status is neither CL_COMPLETE nor a negative error");
  if (loom_user_event_set_status(event, execution_status) != CL_SUCCESS)
    return LOOM_FAIL(CL_INVALID_OPERATION, "the event's execution status was already set");
  return CL_SUCCESS;
}

cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                          void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                          void *user_data) {
  if (!loom_object_is(event, LOOM_EVENT))
    return LOOM_FAIL(CL_INVALID_EVENT, "event is not a valid event");
  if (!pfn_notify)
    return LOOM_FAIL(CL_INVALID_VALUE, "pfn_notify is NULL");
  if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
      command_exec_callback_type != CL_COMPLETE)
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING or "
                     "CL_COMPLETE");
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
    return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the command failed");
  return loom_command_submit(ev, num_wait, wait, event_out, false);
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                   cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list,
                                   cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
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
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  cl_int err = loom_check_wait_list(command_queue->context,
                                    num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                      event_wait_list, event);
}

cl_int clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  if (!event)
    return LOOM_FAIL(CL_INVALID_VALUE, "event is NULL");
  return enqueue_sync(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int clEnqueueBarrier(cl_command_queue command_queue) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                              const cl_event *event_list) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  cl_int err = check_event_list(__func__, num_events, event_list);
  if (err != CL_SUCCESS)
    return err;
  if (event_list[0]->context != command_queue->context)
    return LOOM_FAIL(CL_INVALID_CONTEXT,
                     "the events of event_list and command_queue belong to different contexts");
  /* later commands must wait for these events: a barrier with a wait list */
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events, event_list,
                      NULL);
}
