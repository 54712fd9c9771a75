/* How an entry point says why it returned an error (LOOMCL_LOG=api): the
 * log line and the names of the error codes; and the checks that entry
 * points of several files share. */
#include "checks.h"
#include "memobj.h"
#include "mem_args.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *loom_error_name(cl_int err) {
  switch (err) {
#define NAME(e)                                                                \
  case e:                                                                      \
    return #e;
    NAME(CL_SUCCESS)
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_DEVICE_NOT_AVAILABLE)
    NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    NAME(CL_OUT_OF_RESOURCES)
    NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    NAME(CL_MEM_COPY_OVERLAP)
    NAME(CL_IMAGE_FORMAT_MISMATCH)
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    NAME(CL_BUILD_PROGRAM_FAILURE)
    NAME(CL_MAP_FAILURE)
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    NAME(CL_COMPILE_PROGRAM_FAILURE)
    NAME(CL_LINKER_NOT_AVAILABLE)
    NAME(CL_LINK_PROGRAM_FAILURE)
    NAME(CL_DEVICE_PARTITION_FAILED)
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM)
    NAME(CL_INVALID_DEVICE)
    NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES)
    NAME(CL_INVALID_COMMAND_QUEUE)
    NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT)
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    NAME(CL_INVALID_IMAGE_SIZE)
    NAME(CL_INVALID_SAMPLER)
    NAME(CL_INVALID_BINARY)
    NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_PROGRAM)
    NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME)
    NAME(CL_INVALID_KERNEL_DEFINITION)
    NAME(CL_INVALID_KERNEL)
    NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE)
    NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS)
    NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET)
    NAME(CL_INVALID_EVENT_WAIT_LIST)
    NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION)
    NAME(CL_INVALID_GL_OBJECT)
    NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_MIP_LEVEL)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    NAME(CL_INVALID_PROPERTY)
    NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    NAME(CL_INVALID_COMPILER_OPTIONS)
    NAME(CL_INVALID_LINKER_OPTIONS)
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    NAME(CL_INVALID_PIPE_SIZE)
    NAME(CL_INVALID_DEVICE_QUEUE)
    NAME(CL_INVALID_SPEC_ID)
    NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef NAME
  default:
    return "CL_<unknown error>";
  }
}

/* the spelling at the call site, unless it is not an error's name */
static const char *name_of(cl_int err, const char *name) {
  return strncmp(name, "CL_", 3) == 0 ? name : loom_error_name(err);
}

cl_int loom_fail(const char *fn, cl_int err, const char *name, const char *rule) {
  if (loom_log_api_enabled())
    loom_log_api(fn, name_of(err, name), rule);
  return err;
}

cl_int loom_failf(const char *fn, cl_int err, const char *name, const char *fmt, ...) {
  if (loom_log_api_enabled()) {
    char rule[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    loom_log_api(fn, name_of(err, name), rule);
  }
  return err;
}

bool loom_context_supports_images(cl_context ctx) {
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i]->desc.image_support)
      return true;
  return false;
}

/* ---------- creating memory objects ---------- */

cl_int loom_check_mem_flags(const char *fn, cl_mem_flags flags) {
  if (loom_mem_check_flags(flags) != CL_SUCCESS)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "flags has unknown bits, more than one access or host access flag, "
                        "or CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or "
                        "CL_MEM_COPY_HOST_PTR");
  return CL_SUCCESS;
}

cl_int loom_check_mem_properties(const char *fn, const cl_mem_properties *props, size_t *num,
                                 const char *kinds, bool *device_address) {
  *num = 0;
  if (device_address)
    *device_address = false;
  if (!props)
    return CL_SUCCESS;
  size_t i = 0;
  bool seen = false;
  for (; props[i]; i += 2) {
    /* CL_INVALID_PROPERTY if a property name in properties is not a
     * supported property name, if the value specified for a supported
     * property name is not valid, or if the same property name is
     * specified more than once. Buffers take one:
     * CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (cl_ext_buffer_device_address). */
    if (props[i] != CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT || !device_address)
      return LOOM_FAILF_IN(fn, CL_INVALID_PROPERTY,
                           "properties names property 0x%llx, which %s do not have",
                           (unsigned long long)props[i], kinds);
    if (seen)
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                          "CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT appears twice");
    if (props[i + 1] != CL_TRUE && props[i + 1] != CL_FALSE)
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                          "CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT is neither CL_TRUE nor CL_FALSE");
    seen = true;
    *device_address = props[i + 1] == CL_TRUE;
  }
  *num = i + 1;
  return CL_SUCCESS;
}

cl_int loom_check_inherited_flags(const char *fn, cl_mem_flags parent, cl_mem_flags *flags,
                                  const char *parent_arg) {
  cl_mem_flags f = *flags;
  /* CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags
   * specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was
   * created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
   * CL_MEM_WRITE_ONLY, or if flags specifies CL_MEM_USE_HOST_PTR or
   * CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR (clCreateSubBuffer;
   * clCreateImage says the same of mem_object, for an image created from
   * another memory object) */
  if ((parent & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s was created with CL_MEM_WRITE_ONLY and flags has "
                         "CL_MEM_READ_WRITE or CL_MEM_READ_ONLY",
                         parent_arg);
  if ((parent & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s was created with CL_MEM_READ_ONLY and flags has "
                         "CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY",
                         parent_arg);
  if (f & LOOM_MEM_HOST_PTR_FLAGS)
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "flags has CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or "
                         "CL_MEM_COPY_HOST_PTR (inherited from %s)",
                         parent_arg);
  /* CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and
   * flags specify CL_MEM_HOST_READ_ONLY, or if buffer was created with
   * CL_MEM_HOST_READ_ONLY and flags specify CL_MEM_HOST_WRITE_ONLY, or if
   * buffer was created with CL_MEM_HOST_NO_ACCESS and flags specify
   * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY (likewise mem_object) */
  if ((parent & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s was created with CL_MEM_HOST_WRITE_ONLY and flags has "
                         "CL_MEM_HOST_READ_ONLY",
                         parent_arg);
  if ((parent & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s was created with CL_MEM_HOST_READ_ONLY and flags has "
                         "CL_MEM_HOST_WRITE_ONLY",
                         parent_arg);
  if ((parent & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s was created with CL_MEM_HOST_NO_ACCESS and flags has "
                         "CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY",
                         parent_arg);
  /* If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values
   * are not specified in flags, they are inherited from the corresponding
   * memory access qualifiers associated with buffer (mem_object). The
   * CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
   * values ... are inherited ... If the CL_MEM_HOST_WRITE_ONLY,
   * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS values are not specified
   * in flags, they are inherited */
  if (!(f & LOOM_MEM_ACCESS_FLAGS))
    f |= parent & LOOM_MEM_ACCESS_FLAGS;
  if (!(f & LOOM_MEM_HOST_ACCESS_FLAGS))
    f |= parent & LOOM_MEM_HOST_ACCESS_FLAGS;
  f |= parent & LOOM_MEM_HOST_PTR_FLAGS;
  *flags = f;
  return CL_SUCCESS;
}

cl_int loom_check_host_ptr(const char *fn, bool wants_ptr, const void *host_ptr) {
  if (wants_ptr && !host_ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_HOST_PTR,
                        "host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is "
                        "set");
  if (!wants_ptr && host_ptr)
    return LOOM_FAIL_IN(fn, CL_INVALID_HOST_PTR,
                        "host_ptr is not NULL and neither CL_MEM_USE_HOST_PTR nor "
                        "CL_MEM_COPY_HOST_PTR is set");
  return CL_SUCCESS;
}

/* ---------- enqueueing memory commands ---------- */

cl_int loom_check_region(const char *fn, const size_t *region) {
  if (!region)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "region is NULL");
  /* The values in region cannot be 0 */
  if (!region[0] || !region[1] || !region[2])
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "an element of region is 0");
  return CL_SUCCESS;
}

cl_int loom_check_mem_for_queue(const char *fn, const char *arg, cl_command_queue q, cl_mem m,
                                bool (*is_kind)(cl_mem), const char *kind) {
  if (!is_kind(m))
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "%s is not a valid %s object", arg, kind);
  if (m->context != q->context)
    return LOOM_FAILF_IN(fn, CL_INVALID_CONTEXT,
                         "%s and command_queue belong to different contexts", arg);
  return CL_SUCCESS;
}

cl_int loom_check_copy_handles(const char *fn, bool (*is_kind)(cl_mem), const char *kind,
                               cl_mem src, cl_mem dst) {
  if (!is_kind(src))
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "src_%s is not a valid %s object", kind,
                         kind);
  if (!is_kind(dst))
    return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "dst_%s is not a valid %s object", kind,
                         kind);
  return CL_SUCCESS;
}

cl_int loom_check_map_flags(const char *fn, cl_map_flags map_flags) {
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (map_flags & ~known)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "map_flags has unknown bits");
  if ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE,
                        "map_flags has CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or "
                        "CL_MAP_WRITE");
  return CL_SUCCESS;
}

cl_int loom_check_map_access(const char *fn, cl_mem m, cl_map_flags map_flags) {
  cl_int err = CL_SUCCESS;
  if (map_flags & CL_MAP_READ)
    err = loom_check_host_access(fn, m, true);
  if (err == CL_SUCCESS && (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
    err = loom_check_host_access(fn, m, false);
  return err;
}

bool loom_context_has_device(cl_context ctx, cl_device_id dev) {
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i] == dev)
      return true;
  return false;
}
