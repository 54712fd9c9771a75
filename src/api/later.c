/* Entry points of features no LoomCL device supports yet: pipes, shared
 * virtual memory, intermediate-language programs, device-side queues and
 * sub-groups (images are in image.c and image_enqueue.c). Each checks its
 * handles (and the arguments the spec checks independently of the feature)
 * and then returns the error the spec names for devices without the
 * feature, normally CL_INVALID_OPERATION. */
#include "checks.h"

/* Each helper below checks on behalf of the entry point fn, which its log
 * lines name. */

/* CL_INVALID_COMMAND_QUEUE, then CL_INVALID_EVENT_WAIT_LIST/CONTEXT. */
static cl_int check_queue(const char *fn, cl_command_queue q, cl_uint num_wait,
                          const cl_event *wait) {
  if (!loom_object_is(q, LOOM_QUEUE))
    return LOOM_FAIL_IN(fn, CL_INVALID_COMMAND_QUEUE,
                        "command_queue is not a valid command-queue");
  return loom_check_wait_list_in(fn, q->context, num_wait, wait);
}

/* clCreatePipe, clCreateProgramWithIL: CL_INVALID_CONTEXT,
 * else the missing feature */
static void *unsupported_create(const char *fn, cl_context context, const char *feature_rule,
                                cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_CONTEXT,
                             "context is not a valid context");
  return loom_null_with(errcode_ret, LOOM_FAIL_IN(fn, CL_INVALID_OPERATION, feature_rule));
}

/* ---------- pipes ---------- */

cl_mem clCreatePipe(cl_context context, cl_mem_flags flags,
                    cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                    const cl_pipe_properties *properties, cl_int *errcode_ret) {
  (void)flags, (void)pipe_packet_size, (void)pipe_max_packets, (void)properties;
  return unsupported_create(__func__, context, "no device of context supports pipes",
                            errcode_ret);
}

/* No memory object is a pipe. */
cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                     size_t param_value_size, void *param_value,
                     size_t *param_value_size_ret) {
  (void)pipe, (void)param_name, (void)param_value_size, (void)param_value;
  (void)param_value_size_ret;
  return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "pipe is not a valid pipe object (no pipe exists)");
}

/* ---------- shared virtual memory ---------- */

void *clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                 cl_uint alignment) {
  (void)context, (void)flags, (void)size, (void)alignment;
  return NULL; /* the spec's answer for every failure, including no SVM */
}

void clSVMFree(cl_context context, void *svm_pointer) {
  (void)context, (void)svm_pointer; /* nothing was ever allocated */
}

static cl_int svm_enqueue(const char *fn, cl_command_queue q, cl_uint num_wait,
                          const cl_event *wait) {
  cl_int err = check_queue(fn, q, num_wait, wait);
  if (err != CL_SUCCESS)
    return err;
  return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION, "the queue's device does not support SVM");
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void *svm_pointers[],
                        void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint,
                                                         void *[], void *),
                        void *user_data, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event) {
  (void)num_svm_pointers, (void)svm_pointers, (void)pfn_free_func;
  (void)user_data, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                          void *dst_ptr, const void *src_ptr, size_t size,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_copy, (void)dst_ptr, (void)src_ptr, (void)size, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                           const void *pattern, size_t pattern_size, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  (void)svm_ptr, (void)pattern, (void)pattern_size, (void)size, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                       cl_map_flags flags, void *svm_ptr, size_t size,
                       cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_map, (void)flags, (void)svm_ptr, (void)size, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event) {
  (void)svm_ptr, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue,
                              cl_uint num_svm_pointers, const void **svm_pointers,
                              const size_t *sizes, cl_mem_migration_flags flags,
                              cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  (void)num_svm_pointers, (void)svm_pointers, (void)sizes, (void)flags, (void)event;
  return svm_enqueue(__func__, command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                const void *arg_value) {
  (void)arg_index, (void)arg_value;
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  return LOOM_FAIL(CL_INVALID_OPERATION, "no device of the kernel's context supports SVM");
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void *param_value) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  if (!param_value && param_value_size > 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "param_value is NULL and param_value_size > 0");
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    return LOOM_FAIL(CL_INVALID_OPERATION, "no device of the kernel's context supports SVM");
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (param_value_size != sizeof(cl_bool) || !param_value)
      return LOOM_FAIL(CL_INVALID_VALUE, "param_value is not one cl_bool");
    /* turning fine-grain system SVM off is what already happens */
    if (*(const cl_bool *)param_value)
      return LOOM_FAIL(CL_INVALID_OPERATION,
                       "no device of the kernel's context supports fine-grain system SVM");
    return CL_SUCCESS;
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel execution property");
  }
}

/* ---------- programs ---------- */

cl_program clCreateProgramWithIL(cl_context context, const void *il,
                                 size_t length, cl_int *errcode_ret) {
  (void)il, (void)length;
  return unsupported_create(__func__, context,
                            "no device of context supports intermediate languages",
                            errcode_ret);
}

static bool context_has_device(cl_context ctx, cl_device_id dev) {
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i] == dev)
      return true;
  return false;
}

/* No device has built-in kernels, so every kernel name is unsupported. */
cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                             const cl_device_id *device_list,
                                             const char *kernel_names,
                                             cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  if (!device_list)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "device_list is NULL");
  if (num_devices == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  for (cl_uint i = 0; i < num_devices; i++)
    if (!loom_object_is(device_list[i], LOOM_DEVICE) ||
        !context_has_device(context, device_list[i]))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "an entry of device_list is not a device of context");
  (void)kernel_names;
  /* CL_INVALID_VALUE if kernel_names contains a kernel name that is not
   * supported by any of the devices in device_list */
  return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                        "kernel_names names a built-in kernel no device has (none has any)");
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                          size_t spec_size, const void *spec_value) {
  (void)spec_id, (void)spec_size, (void)spec_value;
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  return LOOM_FAIL(CL_INVALID_OPERATION, "program was not created from an intermediate language");
}

cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                   void *user_data) {
  (void)pfn_notify, (void)user_data;
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  return LOOM_FAIL(CL_INVALID_OPERATION,
                   "no device of the program's context supports program-scope global "
                   "destructors");
}

/* ---------- device-side queues and sub-groups ---------- */

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue command_queue) {
  (void)command_queue;
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  if (!loom_object_is(device, LOOM_DEVICE) || !context_has_device(context, device))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a device of context");
  return LOOM_FAIL(CL_INVALID_OPERATION, "device does not support device queues");
}

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name,
                               size_t input_value_size, const void *input_value,
                               size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret) {
  (void)param_name, (void)input_value_size, (void)input_value;
  (void)param_value_size, (void)param_value, (void)param_value_size_ret;
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  /* NULL is allowed while the kernel's program has a single device, which is
   * always the case on a one-device platform */
  if (device && !loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  return LOOM_FAIL(CL_INVALID_OPERATION, "no device supports sub-groups");
}
