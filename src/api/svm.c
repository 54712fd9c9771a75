/* Shared virtual memory (API 2.2 section 5.6) and SVM kernel arguments
 * (5.9.2). Every LoomCL device supports coarse- and fine-grain buffer SVM,
 * fine-grain system SVM and SVM atomics: kernels compute in host memory
 * (core/svm.h). Allocations are recorded per context, so a pointer LoomCL
 * did not return is never handed to the allocator's free, and a copy or
 * fill that would run past the end of a known allocation is refused. */
#include "mem_args.h"
#include "memobj.h"
#include "svm.h"
#include <string.h>

/* ---------- allocation ---------- */

#define SVM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS (SVM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

/* The smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE among ctx's devices. */
static cl_ulong context_max_alloc(cl_context ctx) {
  cl_ulong max = UINT64_MAX;
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i]->desc.lim.max_mem_alloc_size < max)
      max = ctx->devices[i]->desc.lim.max_mem_alloc_size;
  return max;
}

/* clSVMAlloc answers every failure with NULL; LOOMCL_LOG=api says why. */
void *clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                 cl_uint alignment) {
  /* clSVMAlloc will fail if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
    return NULL;
  }
  /* ... if the values specified in flags are not valid; if flags does not
   * contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
   * CL_MEM_SVM_ATOMICS; CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and
   * CL_MEM_READ_ONLY are mutually exclusive */
  cl_svm_mem_flags access = flags & SVM_ACCESS_FLAGS;
  if (flags & ~(cl_svm_mem_flags)SVM_FLAGS) {
    LOOM_FAIL(CL_INVALID_VALUE, "flags has a bit that is no SVM memory flag");
    return NULL;
  }
  if (access & (access - 1)) {
    LOOM_FAIL(CL_INVALID_VALUE, "flags has more than one of the access flags");
    return NULL;
  }
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) {
    LOOM_FAIL(CL_INVALID_VALUE, "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
    return NULL;
  }
  /* ... if size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any
   * device in context */
  if (size == 0 || size > context_max_alloc(context)) {
    LOOM_FAIL(CL_INVALID_BUFFER_SIZE, "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    return NULL;
  }
  /* ... if alignment is not a power of two or the implementation cannot
   * support it. 0 asks for the largest data type's size (long16). */
  size_t align = alignment ? alignment : 128;
  if ((align & (align - 1)) || align > LOOM_SVM_MAX_ALIGNMENT) {
    LOOM_FAIL(CL_INVALID_VALUE, "alignment is not a power of two up to 2 MiB");
    return NULL;
  }
  struct loom_svm_block want = {.size = size, .kind = LOOM_SVM_BUFFER, .svm_flags = flags};
  void *p = loom_svm_alloc(context, &want, align);
  if (!p)
    LOOM_FAIL(CL_OUT_OF_RESOURCES, "the allocation failed");
  return p;
}

void clSVMFree(cl_context context, void *svm_pointer) {
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
    return;
  }
  /* If a NULL pointer is passed in svm_pointer, no action occurs. A
   * pointer clSVMAlloc did not return is left alone rather than passed to
   * the allocator. */
  if (svm_pointer && !loom_svm_free(context, svm_pointer))
    LOOM_FAIL(CL_INVALID_VALUE, "svm_pointer is not an SVM allocation of context");
}

/* ---------- commands ---------- */

/* CL_INVALID_COMMAND_QUEUE, then CL_INVALID_EVENT_WAIT_LIST/CONTEXT. */
cl_int loom_check_pointer_queue(const char *fn, cl_command_queue q, cl_uint num_wait,
                                const cl_event *wait) {
  cl_int err = loom_check_host_queue(fn, q);
  if (err != CL_SUCCESS)
    return err;
  return loom_check_wait_list_in(fn, q->context, num_wait, wait);
}

/* CL_INVALID_VALUE if [p, p + size) starts inside an allocation of ctx and
 * runs past its end: such a command would write memory LoomCL gave to
 * something else. Pointers outside every allocation are the application's
 * own memory (fine-grain system SVM). */
cl_int loom_check_inside_allocation(const char *fn, cl_context ctx, const void *p, size_t size,
                                    const char *arg) {
  struct loom_svm_block b;
  if (loom_svm_find(ctx, p, &b) && size > loom_svm_room(&b, p))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s + size runs past the end of the SVM allocation holding %s", arg,
                         arg);
  return CL_SUCCESS;
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void *svm_pointers[],
                        void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint,
                                                         void *[], void *),
                        void *user_data, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event) {
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
   * non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0 */
  if ((num_svm_pointers == 0) != (svm_pointers == NULL))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "svm_pointers and num_svm_pointers disagree on whether there are any");
  return loom_enqueue_svm_free(command_queue, num_svm_pointers, svm_pointers, pfn_free_func,
                               user_data, num_events_in_wait_list, event_wait_list, event);
}

cl_int loom_enqueue_pointer_copy(const char *fn, cl_command_type type,
                                 cl_command_queue q, cl_bool blocking, void *dst_ptr,
                                 const void *src_ptr, size_t size, cl_uint num_wait,
                                 const cl_event *wait, cl_event *event) {
  cl_int err = loom_check_pointer_queue(fn, q, num_wait, wait);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if dst_ptr or src_ptr are NULL */
  if (!dst_ptr || !src_ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
  /* CL_MEM_COPY_OVERLAP if dst_ptr, src_ptr and size result in an
   * overlapping copy */
  uintptr_t d = (uintptr_t)dst_ptr, s = (uintptr_t)src_ptr;
  if ((d >= s ? d - s : s - d) < size)
    return LOOM_FAIL_IN(fn, CL_MEM_COPY_OVERLAP, "[dst_ptr, dst_ptr + size) overlaps the source");
  if ((err = loom_check_inside_allocation(fn, q->context, dst_ptr, size, "dst_ptr")) ||
      (err = loom_check_inside_allocation(fn, q->context, src_ptr, size, "src_ptr")))
    return err;
  struct loom_copy_side dst = {NULL, dst_ptr, size, size};
  struct loom_copy_side src = {NULL, (char *)src_ptr, size, size};
  const size_t region[3] = {size, 1, 1};
  return loom_enqueue_copy(q, type, &dst, &src, region, num_wait, wait, event,
                           blocking != CL_FALSE);
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                          void *dst_ptr, const void *src_ptr, size_t size,
                          cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event) {
  return loom_enqueue_pointer_copy(__func__, CL_COMMAND_SVM_MEMCPY, command_queue, blocking_copy,
                                   dst_ptr, src_ptr, size, num_events_in_wait_list,
                                   event_wait_list, event);
}

cl_int loom_enqueue_pointer_fill(const char *fn, cl_command_type type, cl_command_queue q,
                                 void *dst_ptr, const void *pattern, size_t pattern_size,
                                 size_t size, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event) {
  cl_int err = loom_check_pointer_queue(fn, q, num_wait, wait);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if svm_ptr is NULL; if pattern is NULL or pattern_size
   * is 0 or not one of {1, 2, 4, 8, 16, 32, 64, 128}; if svm_ptr is not
   * aligned to pattern_size bytes; if size is not a multiple of
   * pattern_size */
  if (!dst_ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "the destination pointer is NULL");
  if (!pattern)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "pattern is NULL");
  if (!loom_valid_pattern_size(pattern_size))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "pattern_size is not a power of two from 1 to 128");
  if ((uintptr_t)dst_ptr % pattern_size)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "the destination is not aligned to pattern_size bytes");
  if (size % pattern_size)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "size is not a multiple of pattern_size");
  if ((err = loom_check_inside_allocation(fn, q->context, dst_ptr, size, "the destination")))
    return err;
  return loom_enqueue_fill_ptr(q, type, NULL, dst_ptr, pattern, pattern_size, size, num_wait,
                               wait, event);
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                           const void *pattern, size_t pattern_size, size_t size,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  return loom_enqueue_pointer_fill(__func__, CL_COMMAND_SVM_MEMFILL, command_queue, svm_ptr,
                                   pattern, pattern_size, size, num_events_in_wait_list,
                                   event_wait_list, event);
}

/* Maps, unmaps and migrations move nothing: the host already addresses
 * the memory the kernels use. They order like any command. */
cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                       cl_map_flags flags, void *svm_ptr, size_t size,
                       cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event) {
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if svm_ptr is NULL; if size is 0 or if values
   * specified in map_flags are not valid */
  if (!svm_ptr)
    return LOOM_FAIL(CL_INVALID_VALUE, "svm_ptr is NULL");
  if (size == 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "size is 0");
  if ((err = loom_check_map_flags(__func__, flags)) ||
      (err = loom_check_inside_allocation(__func__, command_queue->context, svm_ptr, size,
                                          "svm_ptr")))
    return err;
  return loom_enqueue_mem_noop(command_queue, CL_COMMAND_SVM_MAP, 0, NULL,
                               num_events_in_wait_list, event_wait_list, event,
                               blocking_map != CL_FALSE);
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event) {
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if svm_ptr is NULL */
  if (!svm_ptr)
    return LOOM_FAIL(CL_INVALID_VALUE, "svm_ptr is NULL");
  return loom_enqueue_mem_noop(command_queue, CL_COMMAND_SVM_UNMAP, 0, NULL,
                               num_events_in_wait_list, event_wait_list, event, false);
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue,
                              cl_uint num_svm_pointers, const void **svm_pointers,
                              const size_t *sizes, cl_mem_migration_flags flags,
                              cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  cl_int err = loom_check_pointer_queue(__func__, command_queue, num_events_in_wait_list,
                                        event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL */
  if (num_svm_pointers == 0 || !svm_pointers)
    return LOOM_FAIL(CL_INVALID_VALUE, "num_svm_pointers is 0 or svm_pointers is NULL");
  /* the migration flags clEnqueueMigrateMemObjects takes */
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return LOOM_FAIL(CL_INVALID_VALUE, "flags has a bit that is no migration flag");
  /* CL_INVALID_VALUE if sizes[i] is non-zero and the range
   * [svm_pointers[i], svm_pointers[i] + sizes[i]) is not contained within
   * an existing clSVMAlloc allocation */
  for (cl_uint i = 0; sizes && i < num_svm_pointers; i++) {
    struct loom_svm_block b;
    if (sizes[i] == 0)
      continue;
    if (!loom_svm_find(command_queue->context, svm_pointers[i], &b) ||
        sizes[i] > loom_svm_room(&b, svm_pointers[i]))
      return LOOM_FAILF_IN(__func__, CL_INVALID_VALUE,
                        "svm_pointers[%u] + sizes[%u] is not inside one SVM allocation", i, i);
  }
  return loom_enqueue_mem_noop(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, 0, NULL,
                               num_events_in_wait_list, event_wait_list, event, false);
}
