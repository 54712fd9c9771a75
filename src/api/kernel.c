/* Kernel entry points: creation, arguments, info queries. */
#include "kernel.h"
#include <stdlib.h>
#include <string.h>

/* the executable build of the program (first device that has one) */
static struct loom_program_build *built(cl_program p, cl_device_id *dev) {
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->builds[i].status == CL_BUILD_SUCCESS &&
        p->builds[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && p->builds[i].fns) {
      *dev = p->devices[i];
      return &p->builds[i];
    }
  return NULL;
}

cl_kernel clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  if (!loom_object_is(program, LOOM_PROGRAM)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_PROGRAM);
    return NULL;
  }
  cl_device_id dev;
  struct loom_program_build *b = built(program, &dev);
  if (!b) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
    return NULL;
  }
  if (!kernel_name) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (uint32_t i = 0; i < b->bin.num_kernels; i++)
    if (!strcmp(b->bin.kernels[i].name, kernel_name)) {
      loom_wg_fn fn = loom_program_kernel_fn(program, b, i);
      if (!fn) {
        LOOM_SET_ERR(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
        return NULL;
      }
      cl_kernel k = loom_kernel_new(program, dev, &b->bin.kernels[i], fn);
      LOOM_SET_ERR(errcode_ret, k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
      return k;
    }
  LOOM_SET_ERR(errcode_ret, CL_INVALID_KERNEL_NAME);
  return NULL;
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                cl_uint *num_kernels_ret) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  cl_device_id dev;
  struct loom_program_build *b = built(program, &dev);
  if (!b)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  if (kernels && num_kernels < b->bin.num_kernels)
    return CL_INVALID_VALUE;
  if (kernels) {
    for (uint32_t i = 0; i < b->bin.num_kernels; i++) {
      loom_wg_fn fn = loom_program_kernel_fn(program, b, i);
      kernels[i] = fn ? loom_kernel_new(program, dev, &b->bin.kernels[i], fn) : NULL;
      if (!kernels[i]) {
        while (i--)
          clReleaseKernel(kernels[i]);
        return fn ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_PROGRAM_EXECUTABLE;
      }
    }
  }
  if (num_kernels_ret)
    *num_kernels_ret = b->bin.num_kernels;
  return CL_SUCCESS;
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  if (!loom_object_is(source_kernel, LOOM_KERNEL)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_KERNEL);
    return NULL;
  }
  cl_kernel k = loom_kernel_clone(source_kernel);
  LOOM_SET_ERR(errcode_ret, k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return k;
}

cl_int clRetainKernel(cl_kernel kernel) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  loom_retain_ext(&kernel->obj);
  return CL_SUCCESS;
}

cl_int clReleaseKernel(cl_kernel kernel) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  loom_release_ext(&kernel->obj);
  return CL_SUCCESS;
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  if (arg_index >= kernel->meta->num_args)
    return CL_INVALID_ARG_INDEX;
  const struct loom_arg_meta *a = &kernel->meta->args[arg_index];
  switch (a->kind) {
  case LOOM_ARG_BUFFER:
    if (arg_size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    if (arg_value && *(const cl_mem *)arg_value) {
      cl_mem m = *(const cl_mem *)arg_value;
      if (!loom_object_is(m, LOOM_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
        return CL_INVALID_MEM_OBJECT;
      if (m->context != kernel->context)
        return CL_INVALID_MEM_OBJECT;
    }
    break;
  case LOOM_ARG_LOCAL:
    if (arg_value)
      return CL_INVALID_ARG_VALUE;
    if (arg_size == 0)
      return CL_INVALID_ARG_SIZE;
    break;
  case LOOM_ARG_SAMPLER:
    if (arg_size != sizeof(cl_sampler))
      return CL_INVALID_ARG_SIZE;
    if (!arg_value || !loom_object_is(*(const cl_sampler *)arg_value, LOOM_SAMPLER))
      return CL_INVALID_SAMPLER;
    break;
  case LOOM_ARG_IMAGE:
    if (arg_size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    return CL_INVALID_MEM_OBJECT; /* no image support on this device */
  case LOOM_ARG_VALUE:
    if (!arg_value)
      return CL_INVALID_ARG_VALUE;
    if (arg_size != a->size)
      return CL_INVALID_ARG_SIZE;
    break;
  }
  return loom_kernel_set_arg(kernel, arg_index, arg_size, arg_value);
}

cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    LOOM_INFO_STRING(kernel->meta->name);
  case CL_KERNEL_NUM_ARGS:
    LOOM_INFO_SCALAR(cl_uint, kernel->meta->num_args);
  case CL_KERNEL_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&kernel->obj.ext_refs));
  case CL_KERNEL_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, kernel->context);
  case CL_KERNEL_PROGRAM:
    LOOM_INFO_SCALAR(cl_program, kernel->program);
  case CL_KERNEL_ATTRIBUTES:
    LOOM_INFO_STRING(kernel->meta->attributes ? kernel->meta->attributes : "");
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  if (arg_indx >= kernel->meta->num_args)
    return CL_INVALID_ARG_INDEX;
  const struct loom_arg_meta *a = &kernel->meta->args[arg_indx];
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
  case CL_KERNEL_ARG_TYPE_NAME:
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
  case CL_KERNEL_ARG_NAME:
    break;
  default:
    return CL_INVALID_VALUE;
  }
  /* names (and so all argument information) exist only with -cl-kernel-arg-info */
  if (!a->name)
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    LOOM_INFO_SCALAR(cl_kernel_arg_address_qualifier, a->address_qualifier);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    LOOM_INFO_SCALAR(cl_kernel_arg_access_qualifier, a->access_qualifier);
  case CL_KERNEL_ARG_TYPE_NAME:
    LOOM_INFO_STRING(a->type_name ? a->type_name : "");
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    LOOM_INFO_SCALAR(cl_kernel_arg_type_qualifier, a->type_qualifier);
  default:
    LOOM_INFO_STRING(a->name);
  }
}

cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param_name, size_t param_value_size,
                                void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return CL_INVALID_KERNEL;
  if (device == NULL) {
    if (kernel->program->num_devices != 1)
      return CL_INVALID_DEVICE;
    device = kernel->program->devices[0];
  }
  if (!loom_object_is(device, LOOM_DEVICE) || !loom_program_build_for(kernel->program, device))
    return CL_INVALID_DEVICE;
  const struct loom_kernel_meta *m = kernel->meta;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    LOOM_INFO_SCALAR(size_t, device->desc.lim.max_work_group_size);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t v[3] = {m->reqd_work_group_size[0], m->reqd_work_group_size[1],
                   m->reqd_work_group_size[2]};
    return loom_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, loom_kernel_local_bytes(kernel));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    LOOM_INFO_SCALAR(size_t, device->desc.simd_width_bytes ? device->desc.simd_width_bytes / 4 : 8);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, m->private_per_item + m->scratch_per_item);
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    /* only for custom devices and built-in kernels */
    return CL_INVALID_VALUE;
  default:
    return CL_INVALID_VALUE;
  }
}
