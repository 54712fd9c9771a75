/* clEnqueueMapBuffer, clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects.
 * Storage is host memory, so a map returns a pointer into it (zero copy; with
 * CL_MEM_USE_HOST_PTR that is the application's host_ptr + offset) and the
 * commands only order and account: nothing is copied. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

cl_int loom_enqueue_map(const char *fn, cl_command_queue q, cl_command_type type, cl_mem m,
                        void *ptr, cl_int recorded, cl_bool blocking, cl_uint num_wait,
                        const cl_event *wait, cl_event *event) {
  /* CL_INVALID_OPERATION if mapping would lead to overlapping regions being
   * mapped for writing */
  if (recorded == CL_INVALID_OPERATION)
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION,
                        "the region overlaps a region of the same storage that is mapped for "
                        "writing");
  if (recorded != CL_SUCCESS)
    return LOOM_FAIL_IN(fn, recorded, "recording the map failed");
  cl_int err = loom_enqueue_mem_noop(q, type, 1, &m, num_wait, wait, event, blocking);
  if (err != CL_SUCCESS) {
    loom_mem_map_remove(m, ptr);
    return LOOM_FAIL_IN(fn, err, "enqueuing the map failed");
  }
  return CL_SUCCESS;
}

void *clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                         cl_bool blocking_map, cl_map_flags map_flags,
                         size_t offset, size_t size,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event,
                         cl_int *errcode_ret) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(__func__, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_VALUE if the region being mapped given by (offset, size) is
   * out of bounds, if size is 0, or if values specified in map_flags are not
   * valid */
  if (size == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "size is 0");
  if (!loom_range_inside(buffer->size, offset, size))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "offset + size is out of bounds of buffer");
  err = loom_check_map_flags(__func__, map_flags);
  if (err == CL_SUCCESS)
    err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(__func__, "buffer", q, buffer);
  /* CL_INVALID_OPERATION if buffer has been created with
   * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in
   * map_flags or if buffer has been created with CL_MEM_HOST_READ_ONLY or
   * CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION
   * is set in map_flags */
  if (err == CL_SUCCESS)
    err = loom_check_map_access(__func__, buffer, map_flags);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);

  /* Registered before the command runs so that the pointer can be unmapped
   * by a command enqueued right after a non-blocking map. */
  void *ptr = buffer->data + offset;
  cl_int recorded = loom_mem_map_add(buffer, ptr, offset, size, map_flags);
  err = loom_enqueue_map(__func__, q, CL_COMMAND_MAP_BUFFER, buffer, ptr, recorded, blocking_map,
                         num_events_in_wait_list, event_wait_list, event);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return ptr;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                               void *mapped_ptr, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object or is a
   * pipe object */
  if (!loom_object_is(memobj, LOOM_MEM))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  if (memobj->type == CL_MEM_OBJECT_PIPE)
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is a pipe object");
  /* CL_INVALID_CONTEXT if the context associated with command_queue and
   * memobj are not the same */
  if (memobj->context != q->context)
    return LOOM_FAIL(CL_INVALID_CONTEXT, "memobj and command_queue belong to different contexts");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
   * clEnqueueMapBuffer or clEnqueueMapImage for memobj (last check,
   * because it consumes the map) */
  if (loom_mem_map_remove(memobj, mapped_ptr) != CL_SUCCESS)
    return LOOM_FAIL(CL_INVALID_VALUE, "mapped_ptr is not an active map of memobj");
  return loom_enqueue_mem_noop(q, CL_COMMAND_UNMAP_MEM_OBJECT, 1, &memobj,
                               num_events_in_wait_list, event_wait_list, event,
                               false);
}

cl_int clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                  cl_uint num_mem_objects,
                                  const cl_mem *mem_objects,
                                  cl_mem_migration_flags flags,
                                  cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list,
                                  cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(__func__, q);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if num_mem_objects is zero or mem_objects is NULL */
  if (num_mem_objects == 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "num_mem_objects is 0");
  if (!mem_objects)
    return LOOM_FAIL(CL_INVALID_VALUE, "mem_objects is NULL");
  /* CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is
   * not a valid memory object */
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (!loom_object_is(mem_objects[i], LOOM_MEM))
      return LOOM_FAILF_IN(__func__, CL_INVALID_MEM_OBJECT,
                           "mem_objects[%u] is not a valid memory object", i);
  /* CL_INVALID_CONTEXT if the context associated with command_queue and
   * memory objects in mem_objects are not the same */
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (mem_objects[i]->context != q->context)
      return LOOM_FAILF_IN(__func__, CL_INVALID_CONTEXT,
                           "mem_objects[%u] and command_queue belong to different contexts",
                           i);
  /* CL_INVALID_VALUE if flags is not 0 or is not any of the values
   * described in the table */
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return LOOM_FAIL(CL_INVALID_VALUE, "flags has unknown bits");
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* host and device share the storage: there is nothing to move */
  return loom_enqueue_mem_noop(q, CL_COMMAND_MIGRATE_MEM_OBJECTS,
                               num_mem_objects, mem_objects,
                               num_events_in_wait_list, event_wait_list, event,
                               false);
}
