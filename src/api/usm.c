/* Unified shared memory, cl_intel_unified_shared_memory: host, device and
 * shared allocations addressed by pointers, the commands on them, and
 * clGetMemAllocInfoINTEL. Applications reach these entry points through
 * clGetExtensionFunctionAddressForPlatform (dispatch.c) or by linking
 * LoomCL directly.
 *
 * On a device that computes in host memory the three kinds are the same
 * bytes (core/svm.h); each keeps its kind, device and flags for the
 * queries. Every access capability is reported, concurrent and atomic
 * access included, for the shared system kind too (any host pointer). */
#include "command.h"
#include "mem_args.h"
#include "memobj.h"
#include "svm.h"
#include <string.h>

/* ---------- allocation ---------- */

/* Reads a USM property list, logged as fn: the only property is
 * CL_MEM_ALLOC_FLAGS_INTEL, at most once, with known flags and at most one
 * initial placement. CL_INVALID_PROPERTY otherwise. */
static cl_int read_properties(const char *fn, const cl_mem_properties_intel *props,
                              cl_mem_alloc_flags_intel *flags) {
  *flags = 0;
  bool seen = false;
  for (size_t i = 0; props && props[i]; i += 2) {
    if (props[i] != CL_MEM_ALLOC_FLAGS_INTEL)
      return LOOM_FAILF_IN(fn, CL_INVALID_PROPERTY, "properties names unknown property 0x%llx",
                           (unsigned long long)props[i]);
    if (seen)
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY, "CL_MEM_ALLOC_FLAGS_INTEL appears twice");
    seen = true;
    cl_mem_alloc_flags_intel f = (cl_mem_alloc_flags_intel)props[i + 1];
    const cl_mem_alloc_flags_intel known = CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
                                           CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                           CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
    if (f & ~known)
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                          "CL_MEM_ALLOC_FLAGS_INTEL has an unknown flag");
    if ((f & CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL) &&
        (f & CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL))
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                          "CL_MEM_ALLOC_FLAGS_INTEL asks for both initial placements");
    *flags = f;
  }
  return CL_SUCCESS;
}

/* The three allocators, logged as fn. device is NULL for host allocations
 * (and may be for shared ones); the caller checked it belongs to context. */
static void *usm_alloc(const char *fn, cl_context context, cl_device_id device,
                       enum loom_svm_kind kind, const cl_mem_properties_intel *properties,
                       size_t size, cl_uint alignment, cl_int *errcode_ret) {
  cl_mem_alloc_flags_intel flags;
  cl_int err = read_properties(fn, properties, &flags);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_BUFFER_SIZE if size is 0 or greater than
   * CL_DEVICE_MAX_MEM_ALLOC_SIZE (of device, or of any device in context) */
  cl_ulong max = UINT64_MAX;
  for (cl_uint i = 0; i < context->num_devices; i++)
    if ((!device || context->devices[i] == device) &&
        context->devices[i]->desc.lim.max_mem_alloc_size < max)
      max = context->devices[i]->desc.lim.max_mem_alloc_size;
  if (size == 0 || size > max)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_BUFFER_SIZE,
                             "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  /* CL_INVALID_VALUE if alignment is not zero or a power of two, or is not
   * supported; 0 asks for the largest type's alignment */
  size_t align = alignment ? alignment : 128;
  if ((align & (align - 1)) || align > LOOM_SVM_MAX_ALIGNMENT)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_VALUE,
                             "alignment is not 0 or a power of two up to 2 MiB");
  struct loom_svm_block want = {.size = size, .kind = kind, .usm_flags = flags, .device = device};
  void *p = loom_svm_alloc(context, &want, align);
  if (!p)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_OUT_OF_RESOURCES, "the allocation failed");
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

void *clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel *properties,
                          size_t size, cl_uint alignment, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  return usm_alloc(__func__, context, NULL, LOOM_USM_HOST, properties, size, alignment,
                   errcode_ret);
}

void *clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                            const cl_mem_properties_intel *properties, size_t size,
                            cl_uint alignment, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_DEVICE if device is not a valid device or is not associated
   * with context */
  if (!loom_object_is(device, LOOM_DEVICE) || !loom_context_has_device(context, device))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE, "device is not a device of context");
  return usm_alloc(__func__, context, device, LOOM_USM_DEVICE, properties, size, alignment,
                   errcode_ret);
}

void *clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                            const cl_mem_properties_intel *properties, size_t size,
                            cl_uint alignment, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* device may be NULL: an allocation not associated with one device */
  if (device && (!loom_object_is(device, LOOM_DEVICE) || !loom_context_has_device(context, device)))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                          "device is neither NULL nor a device of context");
  return usm_alloc(__func__, context, device, LOOM_USM_SHARED, properties, size, alignment,
                   errcode_ret);
}

/* clMemFreeINTEL and clMemBlockingFreeINTEL, logged as fn. */
static cl_int usm_free(const char *fn, cl_context context, void *ptr, bool blocking) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_IN(fn, CL_INVALID_CONTEXT, "context is not a valid context");
  if (!ptr)
    return CL_SUCCESS; /* freeing NULL does nothing, as free() */
  struct loom_svm_block b;
  if (!loom_svm_find(context, ptr, &b) || b.base != (char *)ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "ptr is not the start of an allocation of context");
  /* "blocks until all previously enqueued commands that may be using the
   * allocation have completed": any kernel may be, through a pointer it
   * finds in memory */
  if (blocking)
    loom_context_wait_idle(context);
  loom_svm_free(context, ptr);
  return CL_SUCCESS;
}

cl_int clMemFreeINTEL(cl_context context, void *ptr) {
  return usm_free(__func__, context, ptr, false);
}

cl_int clMemBlockingFreeINTEL(cl_context context, void *ptr) {
  return usm_free(__func__, context, ptr, true);
}

cl_int clGetMemAllocInfoINTEL(cl_context context, const void *ptr, cl_mem_info_intel param_name,
                              size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  /* a pointer outside every USM allocation (clSVMAlloc's included) is of
   * unknown type, with no base, size or device */
  struct loom_svm_block b = {0};
  if (!ptr || !loom_svm_find(context, ptr, &b) || b.kind == LOOM_SVM_BUFFER)
    b = (struct loom_svm_block){0};
  switch (param_name) {
  case CL_MEM_ALLOC_TYPE_INTEL:
    LOOM_INFO_SCALAR(cl_unified_shared_memory_type_intel,
                     b.kind ? (cl_unified_shared_memory_type_intel)b.kind
                            : CL_MEM_TYPE_UNKNOWN_INTEL);
  case CL_MEM_ALLOC_BASE_PTR_INTEL:
    LOOM_INFO_SCALAR(void *, b.base);
  case CL_MEM_ALLOC_SIZE_INTEL:
    LOOM_INFO_SCALAR(size_t, b.size);
  case CL_MEM_ALLOC_DEVICE_INTEL:
    LOOM_INFO_SCALAR(cl_device_id, b.device);
  case CL_MEM_ALLOC_FLAGS_INTEL:
    LOOM_INFO_SCALAR(cl_mem_alloc_flags_intel, b.usm_flags);
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a USM allocation query");
  }
}

/* ---------- commands ---------- */

cl_int clEnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr, const void *pattern,
                             size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event) {
  return loom_enqueue_pointer_fill(__func__, CL_COMMAND_MEMFILL_INTEL, command_queue, dst_ptr,
                                   pattern, pattern_size, size, num_events_in_wait_list,
                                   event_wait_list, event);
}

/* The first revision's byte fill, which applications still call. */
cl_int clEnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr, cl_int value,
                            size_t size, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event) {
  unsigned char byte = (unsigned char)value;
  return loom_enqueue_pointer_fill(__func__, CL_COMMAND_MEMFILL_INTEL, command_queue, dst_ptr,
                                   &byte, 1, size, num_events_in_wait_list, event_wait_list,
                                   event);
}

cl_int clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking, void *dst_ptr,
                            const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event) {
  return loom_enqueue_pointer_copy(__func__, CL_COMMAND_MEMCPY_INTEL, command_queue, blocking,
                                   dst_ptr, src_ptr, size, num_events_in_wait_list,
                                   event_wait_list, event);
}

/* Migration and advice are hints: the memory already is where every
 * device computes. They validate and order like any command. */
cl_int clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr, size_t size,
                                cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event) {
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr)
    return LOOM_FAIL(CL_INVALID_VALUE, "ptr is NULL");
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return LOOM_FAIL(CL_INVALID_VALUE, "flags has a bit that is no migration flag");
  if ((err = loom_check_inside_allocation(__func__, command_queue->context, ptr, size, "ptr")))
    return err;
  return loom_enqueue_mem_noop(command_queue, CL_COMMAND_MIGRATEMEM_INTEL, 0, NULL,
                               num_events_in_wait_list, event_wait_list, event, false);
}

cl_int clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr, size_t size,
                               cl_mem_advice_intel advice, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
  (void)advice; /* no advice changes anything here */
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr)
    return LOOM_FAIL(CL_INVALID_VALUE, "ptr is NULL");
  if ((err = loom_check_inside_allocation(__func__, command_queue->context, ptr, size, "ptr")))
    return err;
  return loom_enqueue_mem_noop(command_queue, CL_COMMAND_MEMADVISE_INTEL, 0, NULL,
                               num_events_in_wait_list, event_wait_list, event, false);
}
