/* clEnqueueMapBuffer, clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects.
 * Storage is host memory, so a map returns a pointer into it (zero copy; with
 * CL_MEM_USE_HOST_PTR that is the application's host_ptr + offset) and the
 * commands only order and account: nothing is copied. */
#include "checks.h"
#include "command.h"
#include "memobj.h"
#include "mem_args.h"

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

static cl_int check_map_flags(cl_map_flags f) {
  if (f & ~(cl_map_flags)MAP_FLAGS)
    return CL_INVALID_VALUE;
  if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static cl_int check_map_access(cl_mem m, cl_map_flags f) {
  if ((f & CL_MAP_READ) && loom_check_host_access(m, true) != CL_SUCCESS)
    return CL_INVALID_OPERATION;
  if ((f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      loom_check_host_access(m, false) != CL_SUCCESS)
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

static void *map_fail(cl_int *errcode_ret, cl_int err) {
  LOOM_SET_ERR(errcode_ret, err);
  return NULL;
}

void *clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                         cl_bool blocking_map, cl_map_flags map_flags,
                         size_t offset, size_t size,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event,
                         cl_int *errcode_ret) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(q);
  if (err == CL_SUCCESS)
    err = loom_check_buffer_for_queue(q, buffer);
  if (err != CL_SUCCESS)
    return map_fail(errcode_ret, err);
  if (size == 0 || !loom_range_inside(buffer->size, offset, size) ||
      check_map_flags(map_flags) != CL_SUCCESS)
    return map_fail(errcode_ret, CL_INVALID_VALUE);
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err == CL_SUCCESS)
    err = loom_check_sub_buffer_alignment(q, buffer);
  if (err == CL_SUCCESS)
    err = check_map_access(buffer, map_flags);
  if (err != CL_SUCCESS)
    return map_fail(errcode_ret, err);

  /* Registered before the command runs so that the pointer can be unmapped
   * by a command enqueued right after a non-blocking map. */
  void *ptr = buffer->data + offset;
  err = loom_mem_map_add(buffer, ptr, offset, size, map_flags);
  if (err != CL_SUCCESS)
    return map_fail(errcode_ret, err);
  err = loom_enqueue_mem_noop(q, CL_COMMAND_MAP_BUFFER, 1, &buffer,
                              num_events_in_wait_list, event_wait_list, event,
                              blocking_map);
  if (err != CL_SUCCESS) {
    loom_mem_map_remove(buffer, ptr);
    return map_fail(errcode_ret, err);
  }
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return ptr;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                               void *mapped_ptr, cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event) {
  cl_command_queue q = command_queue;
  cl_int err = loom_check_host_queue(q);
  if (err != CL_SUCCESS)
    return err;
  if (!loom_object_is(memobj, LOOM_MEM) || memobj->type == CL_MEM_OBJECT_PIPE)
    return CL_INVALID_MEM_OBJECT;
  if (memobj->context != q->context)
    return CL_INVALID_CONTEXT;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* last check, because it consumes the map */
  if (loom_mem_map_remove(memobj, mapped_ptr) != CL_SUCCESS)
    return CL_INVALID_VALUE;
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
  cl_int err = loom_check_host_queue(q);
  if (err != CL_SUCCESS)
    return err;
  if (num_mem_objects == 0 || !mem_objects)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (!loom_object_is(mem_objects[i], LOOM_MEM))
      return CL_INVALID_MEM_OBJECT;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    if (mem_objects[i]->context != q->context)
      return CL_INVALID_CONTEXT;
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* host and device share the storage: there is nothing to move */
  return loom_enqueue_mem_noop(q, CL_COMMAND_MIGRATE_MEM_OBJECTS,
                               num_mem_objects, mem_objects,
                               num_events_in_wait_list, event_wait_list, event,
                               false);
}
