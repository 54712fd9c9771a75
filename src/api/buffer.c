/* Buffer objects: creation, sub-buffers, reference counting, queries and
 * destructor callbacks (the queries and reference counting apply to every
 * kind of memory object). */
#include "checks.h"
#include "memobj.h"
#include "svm.h"
#include <string.h>

static bool is_buffer(cl_mem m) {
  return loom_object_is(m, LOOM_MEM) && m->type == CL_MEM_OBJECT_BUFFER;
}

/* The largest allocation every device of ctx allows. */
static cl_ulong context_max_alloc(cl_context ctx) {
  cl_ulong max = 0;
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i]->desc.lim.max_mem_alloc_size > max)
      max = ctx->devices[i]->desc.lim.max_mem_alloc_size;
  return max;
}

/* clCreateBuffer and clCreateBufferWithProperties, logging as fn */
static cl_mem create_buffer(const char *fn, cl_context context,
                            const cl_mem_properties *properties, cl_mem_flags flags,
                            size_t size, void *host_ptr, cl_int *errcode_ret) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_CONTEXT,
                             "context is not a valid context");
  /* CL_INVALID_PROPERTY if a property name in properties is not supported */
  size_t num_props;
  bool device_address;
  cl_int err = loom_check_mem_properties(fn, properties, &num_props, "buffers", &device_address);
  /* CL_INVALID_VALUE if values specified in flags are not valid */
  if (err == CL_SUCCESS)
    err = loom_check_mem_flags(fn, flags);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_BUFFER_SIZE if size is 0 or greater than
   * CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context */
  if (size == 0)
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_BUFFER_SIZE, "size is 0");
  if (size > context_max_alloc(context))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_BUFFER_SIZE,
                             "size exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of every device "
                             "of context");
  /* CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
   * CL_MEM_COPY_HOST_PTR are set in flags, or if host_ptr is not NULL but
   * neither is set */
  bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if ((err = loom_check_host_ptr(fn, wants_ptr, host_ptr)) != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set, host_ptr is an
   * SVM pointer and size is larger than the SVM allocation (from host_ptr
   * on: the buffer would reach memory LoomCL gave to something else) */
  struct loom_svm_block svm;
  if ((flags & CL_MEM_USE_HOST_PTR) && loom_svm_find(context, host_ptr, &svm) &&
      size > loom_svm_room(&svm, host_ptr))
    return LOOM_FAIL_NULL_IN(fn, errcode_ret, CL_INVALID_BUFFER_SIZE,
                             "size is larger than the SVM allocation host_ptr points into");

  cl_mem mem = loom_mem_create(context, CL_MEM_OBJECT_BUFFER, flags, size,
                               host_ptr, properties, num_props, &err);
  if (!mem)
    return loom_null_with(errcode_ret, LOOM_FAIL_IN(fn, err, "allocating the buffer failed"));
  mem->device_address = device_address;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return mem;
}

cl_mem clCreateBufferWithProperties(cl_context context,
                                    const cl_mem_properties *properties,
                                    cl_mem_flags flags, size_t size,
                                    void *host_ptr, cl_int *errcode_ret) {
  return create_buffer(__func__, context, properties, flags, size, host_ptr, errcode_ret);
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                      void *host_ptr, cl_int *errcode_ret) {
  return create_buffer(__func__, context, NULL, flags, size, host_ptr, errcode_ret);
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                         cl_buffer_create_type buffer_create_type,
                         const void *buffer_create_info, cl_int *errcode_ret) {
  /* CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a
   * sub-buffer object */
  if (!is_buffer(buffer))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_MEM_OBJECT,
                          "buffer is not a valid buffer object");
  if (buffer->parent)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_MEM_OBJECT, "buffer is a sub-buffer");
  /* CL_INVALID_VALUE if values specified in flags are not valid, or if they
   * conflict with the flags of buffer (loom_check_inherited_flags, which
   * also adds the flags the sub-buffer inherits) */
  cl_int err = loom_check_mem_flags(__func__, flags);
  if (err == CL_SUCCESS)
    err = loom_check_inherited_flags(__func__, buffer->flags, &flags, "buffer");
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_VALUE if the value in buffer_create_type is not valid, or
   * buffer_create_info is NULL */
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
  if (!buffer_create_info)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "buffer_create_info is NULL");
  const cl_buffer_region *r = buffer_create_info;
  /* CL_INVALID_BUFFER_SIZE if the region's size is 0 */
  if (r->size == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_BUFFER_SIZE, "region size is 0");
  /* CL_INVALID_VALUE if the region is out of bounds of buffer */
  if (r->origin > buffer->size || r->size > buffer->size - r->origin)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "region origin + size is out of bounds of buffer");

  /* CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in the context
   * for which the origin is aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN */
  cl_context ctx = buffer->context;
  bool aligned = false;
  for (cl_uint i = 0; i < ctx->num_devices && !aligned; i++) {
    size_t align = ctx->devices[i]->desc.lim.mem_base_addr_align_bits / 8;
    aligned = align == 0 || r->origin % align == 0;
  }
  if (!aligned)
    return LOOM_FAIL_NULL(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                          "region origin is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN "
                          "of any device of the context");

  cl_mem mem = loom_mem_create_sub(buffer, flags, r->origin, r->size, &err);
  if (!mem)
    return loom_null_with(errcode_ret, LOOM_FAIL(err, "allocating the sub-buffer failed"));
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return mem;
}

cl_int clRetainMemObject(cl_mem memobj) {
  if (!loom_object_is(memobj, LOOM_MEM))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  loom_retain_ext(&memobj->obj);
  return CL_SUCCESS;
}

cl_int clReleaseMemObject(cl_mem memobj) {
  if (!loom_object_is(memobj, LOOM_MEM))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  loom_release_ext(&memobj->obj);
  return CL_SUCCESS;
}

cl_int clSetMemObjectDestructorCallback(cl_mem memobj,
                                        void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                        void *user_data) {
  if (!loom_object_is(memobj, LOOM_MEM))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  if (!pfn_notify)
    return LOOM_FAIL(CL_INVALID_VALUE, "pfn_notify is NULL");
  return loom_mem_add_destructor(memobj, pfn_notify, user_data);
}

cl_int clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret) {
  if (!loom_object_is(memobj, LOOM_MEM))
    return LOOM_FAIL(CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  switch (param_name) {
  case CL_MEM_TYPE:
    LOOM_INFO_SCALAR(cl_mem_object_type, memobj->type);
  case CL_MEM_FLAGS:
    LOOM_INFO_SCALAR(cl_mem_flags, memobj->flags);
  case CL_MEM_SIZE:
    LOOM_INFO_SCALAR(size_t, memobj->size);
  case CL_MEM_HOST_PTR:
    LOOM_INFO_SCALAR(void *, memobj->host_ptr);
  case CL_MEM_MAP_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&memobj->map_count));
  case CL_MEM_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&memobj->obj.ext_refs));
  case CL_MEM_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, memobj->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    LOOM_INFO_SCALAR(cl_mem, memobj->parent);
  case CL_MEM_OFFSET:
    LOOM_INFO_SCALAR(size_t, memobj->parent ? memobj->origin : 0);
  case CL_MEM_USES_SVM_POINTER:
    /* a buffer or image whose CL_MEM_USE_HOST_PTR storage lies in an SVM
     * allocation (sub-buffers of such a buffer too) */
    LOOM_INFO_SCALAR(cl_bool, (memobj->flags & CL_MEM_USE_HOST_PTR) &&
                                  loom_svm_find(memobj->context, memobj->host_ptr, NULL));
  case CL_MEM_DEVICE_ADDRESS_EXT: {
    /* cl_ext_buffer_device_address: the address kernels see, for buffers
     * created with CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT and their
     * sub-buffers; storage never moves, so it is the storage's address */
    if (!loom_mem_root(memobj)->device_address || memobj->type != CL_MEM_OBJECT_BUFFER)
      return LOOM_FAIL(CL_INVALID_OPERATION,
                       "memobj was not created with CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT");
    LOOM_INFO_SCALAR(cl_mem_device_address_ext, (uintptr_t)memobj->data);
  }
  case CL_MEM_PROPERTIES:
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     memobj->props, memobj->num_props * sizeof *memobj->props);
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a memory object query");
  }
}
