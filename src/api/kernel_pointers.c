/* Kernel arguments given as pointers rather than memory objects: SVM
 * pointers (clSetKernelArgSVMPointer, API 2.2 section 5.9.2), USM pointers
 * (clSetKernelArgMemPointerINTEL), buffer device addresses
 * (clSetKernelArgDevicePointerEXT, cl_ext_buffer_device_address), and the
 * execution information that names the allocations a kernel reaches
 * indirectly (clSetKernelExecInfo).
 *
 * A LoomCL kernel dereferences whatever address it is given, so the lists
 * of indirectly used allocations are validated and then need no action:
 * nothing has to be made resident or migrated for the kernel to see them. */
#include "checks.h"
#include "kernel.h"

/* Checks shared by the two pointer setters, logged as fn. */
static cl_int set_pointer_arg(const char *fn, cl_kernel kernel, cl_uint arg_index,
                              const void *arg_value) {
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object */
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL_IN(fn, CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  /* CL_INVALID_ARG_INDEX if arg_index is not a valid argument index */
  if (arg_index >= kernel->meta->num_args)
    return LOOM_FAILF_IN(fn, CL_INVALID_ARG_INDEX,
                         "arg_index %u is not a valid argument index (the kernel has %u)",
                         arg_index, kernel->meta->num_args);
  /* "The SVM pointer can only be used for arguments that are declared to
   * be a pointer to global or constant memory": anything else is not a
   * valid value for the argument (CL_INVALID_ARG_VALUE) */
  if (kernel->meta->args[arg_index].kind != LOOM_ARG_BUFFER)
    return LOOM_FAILF_IN(fn, CL_INVALID_ARG_VALUE,
                         "argument %u is not a pointer to global or constant memory",
                         arg_index);
  return loom_kernel_set_arg_pointer(kernel, arg_index, arg_value);
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value) {
  return set_pointer_arg(__func__, kernel, arg_index, arg_value);
}

cl_int clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index,
                                     const void *arg_value) {
  return set_pointer_arg(__func__, kernel, arg_index, arg_value);
}

/* A device address is the buffer's storage address (buffers never move). */
cl_int clSetKernelArgDevicePointerEXT(cl_kernel kernel, cl_uint arg_index,
                                      cl_mem_device_address_ext arg_value) {
  return set_pointer_arg(__func__, kernel, arg_index, (const void *)(uintptr_t)arg_value);
}

/* CL_INVALID_VALUE unless param_value holds exactly one cl_bool. */
static cl_int check_bool(const void *param_value, size_t param_value_size) {
  if (param_value_size != sizeof(cl_bool))
    return LOOM_FAIL_IN("clSetKernelExecInfo", CL_INVALID_VALUE,
                        "param_value_size is not sizeof(cl_bool)");
  cl_bool b = *(const cl_bool *)param_value;
  if (b != CL_TRUE && b != CL_FALSE)
    return LOOM_FAIL_IN("clSetKernelExecInfo", CL_INVALID_VALUE,
                        "param_value is neither CL_TRUE nor CL_FALSE");
  return CL_SUCCESS;
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void *param_value) {
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object */
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  /* CL_INVALID_VALUE if param_name is not valid, if param_value is NULL or
   * if the size specified by param_value_size is not valid */
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
  case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
  case CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT: /* 64-bit addresses, as pointers here */
    /* an array of pointers; an empty one (size 0, as the CTS passes it
     * with NULL) unsets the list */
    if (param_value_size == 0)
      return CL_SUCCESS;
    if (!param_value)
      return LOOM_FAIL(CL_INVALID_VALUE, "param_value is NULL");
    if (param_value_size % sizeof(void *))
      return LOOM_FAIL(CL_INVALID_VALUE, "param_value_size is not a multiple of sizeof(void *)");
    return CL_SUCCESS;
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    /* CL_INVALID_OPERATION if CL_TRUE and no device of the kernel's
     * context supports fine-grain system SVM: every LoomCL device does */
  case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
  case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
  case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
    if (!param_value)
      return LOOM_FAIL(CL_INVALID_VALUE, "param_value is NULL");
    return check_bool(param_value, param_value_size);
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel execution property");
  }
}
