/* Entry points of features no LoomCL device supports yet: pipes and
 * device-side queues (sub-groups are in kernel_sub_groups.c, images in
 * image.c and image_enqueue.c, SVM in svm.c, SPIR-V programs in
 * program_il.c). Each checks its
 * handles (and the arguments the spec checks independently of the feature)
 * and then returns the error the spec names for devices without the
 * feature, normally CL_INVALID_OPERATION. */
#include "checks.h"

/* Each helper below checks on behalf of the entry point fn, which its log
 * lines name. */

/* clCreatePipe: CL_INVALID_CONTEXT,
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

/* ---------- programs ---------- */

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
        !loom_context_has_device(context, device_list[i]))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "an entry of device_list is not a device of context");
  (void)kernel_names;
  /* CL_INVALID_VALUE if kernel_names contains a kernel name that is not
   * supported by any of the devices in device_list */
  return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                        "kernel_names names a built-in kernel no device has (none has any)");
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
  if (!loom_object_is(device, LOOM_DEVICE) || !loom_context_has_device(context, device))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a device of context");
  return LOOM_FAIL(CL_INVALID_OPERATION, "device does not support device queues");
}

