/* Entry points of features no LoomCL device supports yet: images, pipes,
 * shared virtual memory, intermediate-language programs, device-side queues
 * and sub-groups. Each checks its handles (and the arguments the spec checks
 * independently of the feature) and then returns the error the spec names
 * for devices without the feature, normally CL_INVALID_OPERATION. */
#include "checks.h"
#include "command.h"
#include "memobj.h"

#define FAIL(err)                                                              \
  do {                                                                         \
    LOOM_SET_ERR(errcode_ret, (err));                                          \
    return NULL;                                                               \
  } while (0)

/* CL_INVALID_COMMAND_QUEUE, then CL_INVALID_EVENT_WAIT_LIST/CONTEXT. */
static cl_int check_queue(cl_command_queue q, cl_uint num_wait, const cl_event *wait) {
  if (!loom_object_is(q, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  return loom_check_wait_list(q->context, num_wait, wait);
}

/* CL_INVALID_MEM_OBJECT / CL_INVALID_CONTEXT for a memory object of q. */
static cl_int check_mem(cl_command_queue q, cl_mem m) {
  if (!loom_object_is(m, LOOM_MEM))
    return CL_INVALID_MEM_OBJECT;
  return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

/* The checks shared by image enqueues: queue, the num_mems (1 or 2) memory
 * objects a and b, the wait list; then the missing feature. */
static cl_int image_enqueue(cl_command_queue q, int num_mems, cl_mem a, cl_mem b,
                            cl_uint num_wait, const cl_event *wait) {
  if (!loom_object_is(q, LOOM_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_mem(q, a);
  if (err == CL_SUCCESS && num_mems == 2)
    err = check_mem(q, b);
  if (err == CL_SUCCESS)
    err = loom_check_wait_list(q->context, num_wait, wait);
  return err != CL_SUCCESS ? err : CL_INVALID_OPERATION; /* no image support */
}

/* ---------- images ---------- */

cl_mem clCreateImage(cl_context context, cl_mem_flags flags,
                     const cl_image_format *image_format,
                     const cl_image_desc *image_desc, void *host_ptr,
                     cl_int *errcode_ret) {
  (void)flags, (void)image_format, (void)image_desc, (void)host_ptr;
  FAIL(loom_object_is(context, LOOM_CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

cl_mem clCreateImageWithProperties(cl_context context,
                                   const cl_mem_properties *properties,
                                   cl_mem_flags flags,
                                   const cl_image_format *image_format,
                                   const cl_image_desc *image_desc,
                                   void *host_ptr, cl_int *errcode_ret) {
  (void)properties;
  return clCreateImage(context, flags, image_format, image_desc, host_ptr, errcode_ret);
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *image_format, size_t image_width,
                       size_t image_height, size_t image_row_pitch,
                       void *host_ptr, cl_int *errcode_ret) {
  (void)image_width, (void)image_height, (void)image_row_pitch;
  return clCreateImage(context, flags, image_format, NULL, host_ptr, errcode_ret);
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags,
                       const cl_image_format *image_format, size_t image_width,
                       size_t image_height, size_t image_depth,
                       size_t image_row_pitch, size_t image_slice_pitch,
                       void *host_ptr, cl_int *errcode_ret) {
  (void)image_width, (void)image_height, (void)image_depth;
  (void)image_row_pitch, (void)image_slice_pitch;
  return clCreateImage(context, flags, image_format, NULL, host_ptr, errcode_ret);
}

static bool valid_image_type(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
         t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

/* Without image support the list of formats is empty, which is a success. */
cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type,
                                  cl_uint num_entries,
                                  cl_image_format *image_formats,
                                  cl_uint *num_image_formats) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (loom_mem_check_flags(flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE) != CL_SUCCESS ||
      !valid_image_type(image_type) || (num_entries == 0 && image_formats))
    return CL_INVALID_VALUE;
  if (num_image_formats)
    *num_image_formats = 0;
  return CL_SUCCESS;
}

/* No memory object is an image. */
cl_int clGetImageInfo(cl_mem image, cl_image_info param_name,
                      size_t param_value_size, void *param_value,
                      size_t *param_value_size_ret) {
  (void)image, (void)param_name, (void)param_value_size, (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_MEM_OBJECT;
}

cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                          cl_bool blocking_read, const size_t *origin,
                          const size_t *region, size_t row_pitch,
                          size_t slice_pitch, void *ptr,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_read, (void)origin, (void)region, (void)row_pitch;
  (void)slice_pitch, (void)ptr, (void)event;
  return image_enqueue(command_queue, 1, image, NULL, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                           cl_bool blocking_write, const size_t *origin,
                           const size_t *region, size_t input_row_pitch,
                           size_t input_slice_pitch, const void *ptr,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_write, (void)origin, (void)region, (void)input_row_pitch;
  (void)input_slice_pitch, (void)ptr, (void)event;
  return image_enqueue(command_queue, 1, image, NULL, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                          cl_mem dst_image, const size_t *src_origin,
                          const size_t *dst_origin, const size_t *region,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  (void)src_origin, (void)dst_origin, (void)region, (void)event;
  return image_enqueue(command_queue, 2, src_image, dst_image, num_events_in_wait_list,
                       event_wait_list);
}

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                          const void *fill_color, const size_t *origin,
                          const size_t *region, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  (void)fill_color, (void)origin, (void)region, (void)event;
  return image_enqueue(command_queue, 1, image, NULL, num_events_in_wait_list, event_wait_list);
}

void *clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                        cl_bool blocking_map, cl_map_flags map_flags,
                        const size_t *origin, const size_t *region,
                        size_t *image_row_pitch, size_t *image_slice_pitch,
                        cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event,
                        cl_int *errcode_ret) {
  (void)blocking_map, (void)map_flags, (void)origin, (void)region;
  (void)image_row_pitch, (void)image_slice_pitch, (void)event;
  FAIL(image_enqueue(command_queue, 1, image, NULL, num_events_in_wait_list, event_wait_list));
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue,
                                  cl_mem src_image, cl_mem dst_buffer,
                                  const size_t *src_origin, const size_t *region,
                                  size_t dst_offset, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event) {
  (void)src_origin, (void)region, (void)dst_offset, (void)event;
  return image_enqueue(command_queue, 2, src_image, dst_buffer, num_events_in_wait_list,
                       event_wait_list);
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue,
                                  cl_mem src_buffer, cl_mem dst_image,
                                  size_t src_offset, const size_t *dst_origin,
                                  const size_t *region, cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event) {
  (void)src_offset, (void)dst_origin, (void)region, (void)event;
  return image_enqueue(command_queue, 2, src_buffer, dst_image, num_events_in_wait_list,
                       event_wait_list);
}

/* ---------- pipes ---------- */

cl_mem clCreatePipe(cl_context context, cl_mem_flags flags,
                    cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                    const cl_pipe_properties *properties, cl_int *errcode_ret) {
  (void)flags, (void)pipe_packet_size, (void)pipe_max_packets, (void)properties;
  FAIL(loom_object_is(context, LOOM_CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

/* No memory object is a pipe. */
cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                     size_t param_value_size, void *param_value,
                     size_t *param_value_size_ret) {
  (void)pipe, (void)param_name, (void)param_value_size, (void)param_value;
  (void)param_value_size_ret;
  return CL_INVALID_MEM_OBJECT;
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

static cl_int svm_enqueue(cl_command_queue q, cl_uint num_wait, const cl_event *wait) {
  cl_int err = check_queue(q, num_wait, wait);
  return err != CL_SUCCESS ? err : CL_INVALID_OPERATION; /* no SVM support */
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void *svm_pointers[],
                        void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint,
                                                         void *[], void *),
                        void *user_data, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event) {
  (void)num_svm_pointers, (void)svm_pointers, (void)pfn_free_func;
  (void)user_data, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                          void *dst_ptr, const void *src_ptr, size_t size,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_copy, (void)dst_ptr, (void)src_ptr, (void)size, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                           const void *pattern, size_t pattern_size, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  (void)svm_ptr, (void)pattern, (void)pattern_size, (void)size, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                       cl_map_flags flags, void *svm_ptr, size_t size,
                       cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event) {
  (void)blocking_map, (void)flags, (void)svm_ptr, (void)size, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event) {
  (void)svm_ptr, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue,
                              cl_uint num_svm_pointers, const void **svm_pointers,
                              const size_t *sizes, cl_mem_migration_flags flags,
                              cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  (void)num_svm_pointers, (void)svm_pointers, (void)sizes, (void)flags, (void)event;
  return svm_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                const void *arg_value) {
  (void)arg_index, (void)arg_value;
  return loom_object_is(kernel, LOOM_KERNEL) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void *param_value) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  if (!param_value && param_value_size > 0)
    return CL_INVALID_VALUE;
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    return CL_INVALID_OPERATION;
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (param_value_size != sizeof(cl_bool) || !param_value)
      return CL_INVALID_VALUE;
    /* turning fine-grain system SVM off is what already happens */
    return *(const cl_bool *)param_value ? CL_INVALID_OPERATION : CL_SUCCESS;
  default:
    return CL_INVALID_VALUE;
  }
}

/* ---------- programs ---------- */

cl_program clCreateProgramWithIL(cl_context context, const void *il,
                                 size_t length, cl_int *errcode_ret) {
  (void)il, (void)length;
  FAIL(loom_object_is(context, LOOM_CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
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
    FAIL(CL_INVALID_CONTEXT);
  if (!device_list || num_devices == 0)
    FAIL(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < num_devices; i++)
    if (!loom_object_is(device_list[i], LOOM_DEVICE) ||
        !context_has_device(context, device_list[i]))
      FAIL(CL_INVALID_DEVICE);
  (void)kernel_names;
  FAIL(CL_INVALID_VALUE);
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                          size_t spec_size, const void *spec_value) {
  (void)spec_id, (void)spec_size, (void)spec_value;
  return loom_object_is(program, LOOM_PROGRAM) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                   void *user_data) {
  (void)pfn_notify, (void)user_data;
  return loom_object_is(program, LOOM_PROGRAM) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

/* ---------- device-side queues and sub-groups ---------- */

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue command_queue) {
  (void)command_queue;
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (!loom_object_is(device, LOOM_DEVICE) || !context_has_device(context, device))
    return CL_INVALID_DEVICE;
  return CL_INVALID_OPERATION; /* no device has on-device queues */
}

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name,
                               size_t input_value_size, const void *input_value,
                               size_t param_value_size, void *param_value,
                               size_t *param_value_size_ret) {
  (void)param_name, (void)input_value_size, (void)input_value;
  (void)param_value_size, (void)param_value, (void)param_value_size_ret;
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  /* NULL is allowed while the kernel's program has a single device, which is
   * always the case on a one-device platform */
  if (device && !loom_object_is(device, LOOM_DEVICE))
    return CL_INVALID_DEVICE;
  return CL_INVALID_OPERATION; /* no device supports sub-groups */
}
