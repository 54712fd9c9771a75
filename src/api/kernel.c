/* Kernel entry points: creation, arguments, info queries. */
#include "checks.h"
#include "image.h"
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
  /* CL_INVALID_PROGRAM if program is not a valid program object */
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_PROGRAM,
                          "program is not a valid program object");
  /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
   * executable for program */
  cl_device_id dev;
  struct loom_program_build *b = built(program, &dev);
  if (!b)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE,
                          "program has no successfully built executable");
  /* CL_INVALID_VALUE if kernel_name is NULL */
  if (!kernel_name)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "kernel_name is NULL");
  for (uint32_t i = 0; i < b->bin.num_kernels; i++)
    if (!strcmp(b->bin.kernels[i].name, kernel_name)) {
      bool pending;
      loom_wg_fn fn = loom_program_kernel_fn_nowait(program, b, i, &pending);
      if (!fn && !pending)
        return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE,
                              "the executable holds no code for the kernel");
      cl_kernel k = loom_kernel_new(program, dev, &b->bin.kernels[i], fn);
      if (!k)
        return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY,
                              "allocating the kernel failed");
      LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
      return k;
    }
  /* CL_INVALID_KERNEL_NAME if kernel_name is not found in program */
  return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_KERNEL_NAME,
                        "kernel_name is not a kernel of program");
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                cl_uint *num_kernels_ret) {
  /* CL_INVALID_PROGRAM if program is not a valid program object */
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
   * executable for any device in program */
  cl_device_id dev;
  struct loom_program_build *b = built(program, &dev);
  if (!b)
    return LOOM_FAIL(CL_INVALID_PROGRAM_EXECUTABLE,
                     "program has no successfully built executable");
  /* CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the
   * number of kernels in program */
  if (kernels && num_kernels < b->bin.num_kernels)
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "kernels is not NULL and num_kernels is less than the number of "
                     "kernels in program");
  if (kernels) {
    for (uint32_t i = 0; i < b->bin.num_kernels; i++) {
      bool pending;
      loom_wg_fn fn = loom_program_kernel_fn_nowait(program, b, i, &pending);
      kernels[i] = fn || pending ? loom_kernel_new(program, dev, &b->bin.kernels[i], fn) : NULL;
      if (!kernels[i]) {
        while (i--)
          clReleaseKernel(kernels[i]);
        if (!fn && !pending)
          return LOOM_FAIL(CL_INVALID_PROGRAM_EXECUTABLE,
                           "the executable holds no code for a kernel");
        return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating a kernel failed");
      }
    }
  }
  if (num_kernels_ret)
    *num_kernels_ret = b->bin.num_kernels;
  return CL_SUCCESS;
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  if (!loom_object_is(source_kernel, LOOM_KERNEL))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_KERNEL,
                          "source_kernel is not a valid kernel object");
  cl_kernel k = loom_kernel_clone(source_kernel);
  if (!k)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the kernel failed");
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return k;
}

cl_int clRetainKernel(cl_kernel kernel) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  loom_retain_ext(&kernel->obj);
  return CL_SUCCESS;
}

cl_int clReleaseKernel(cl_kernel kernel) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  loom_release_ext(&kernel->obj);
  return CL_SUCCESS;
}

/* The image type an image argument's type name (kernel_arg_type) asks for. */
static cl_mem_object_type image_type_of(const char *type_name) {
  static const struct {
    const char *prefix;
    cl_mem_object_type type;
  } types[] = {
      /* longest first: "image1d_t" is a prefix of none, but "image2d_" is */
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
      {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D},
  };
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (!strncmp(type_name, types[i].prefix, strlen(types[i].prefix)))
      return types[i].type;
  return 0;
}

static bool is_depth_type(const char *type_name) { return strstr(type_name, "_depth_t") != NULL; }

cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value) {
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object */
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  /* CL_INVALID_ARG_INDEX if arg_index is not a valid argument index */
  if (arg_index >= kernel->meta->num_args)
    return LOOM_FAILF_IN(__func__, CL_INVALID_ARG_INDEX,
                         "arg_index %u is not a valid argument index (the kernel has %u)",
                         arg_index,
                         kernel->meta->num_args);
  const struct loom_arg_meta *a = &kernel->meta->args[arg_index];
  switch (a->kind) {
  case LOOM_ARG_BUFFER:
    /* CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
     * type for an argument that is a memory object */
    if (arg_size != sizeof(cl_mem))
      return LOOM_FAILF_IN(__func__, CL_INVALID_ARG_SIZE,
                           "arg_size %zu is not sizeof(cl_mem) for a buffer argument",
                           arg_size);
    /* CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
     * when the specified arg_value is not a valid memory object */
    if (arg_value && *(const cl_mem *)arg_value) {
      cl_mem m = *(const cl_mem *)arg_value;
      if (!loom_object_is(m, LOOM_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
        return LOOM_FAIL(CL_INVALID_MEM_OBJECT,
                         "arg_value is not a valid buffer object for a buffer argument");
      if (m->context != kernel->context)
        return LOOM_FAIL(CL_INVALID_MEM_OBJECT,
                         "arg_value is a buffer of another context than kernel's");
    }
    break;
  case LOOM_ARG_LOCAL:
    /* CL_INVALID_ARG_VALUE if the argument is declared with the local
     * qualifier and arg_value is not NULL */
    if (arg_value)
      return LOOM_FAIL(CL_INVALID_ARG_VALUE, "arg_value is not NULL for a __local argument");
    /* CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared
     * with the local qualifier */
    if (arg_size == 0)
      return LOOM_FAIL(CL_INVALID_ARG_SIZE, "arg_size is 0 for a __local argument");
    break;
  case LOOM_ARG_SAMPLER:
    /* CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
     * type for an argument that is a sampler */
    if (arg_size != sizeof(cl_sampler))
      return LOOM_FAILF_IN(__func__, CL_INVALID_ARG_SIZE,
                           "arg_size %zu is not sizeof(cl_sampler) for a sampler argument",
                           arg_size);
    /* CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
     * when the specified arg_value is not a valid sampler object */
    if (!arg_value || !loom_object_is(*(const cl_sampler *)arg_value, LOOM_SAMPLER))
      return LOOM_FAIL(CL_INVALID_SAMPLER,
                       "arg_value is not a valid sampler object for a sampler argument");
    break;
  case LOOM_ARG_IMAGE: {
    if (arg_size != sizeof(cl_mem))
      return LOOM_FAILF_IN(__func__, CL_INVALID_ARG_SIZE,
                           "arg_size %zu is not sizeof(cl_mem) for an image argument",
                           arg_size);
    /* CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
     * when the specified arg_value is not a valid memory object */
    cl_mem m = arg_value ? *(const cl_mem *)arg_value : NULL;
    const struct loom_image *img = loom_object_is(m, LOOM_MEM) ? loom_image_kernel_desc(m) : NULL;
    if (!img)
      return LOOM_FAIL(CL_INVALID_MEM_OBJECT,
                       "arg_value is not a valid image object for an image argument");
    if (m->context != kernel->context)
      return LOOM_FAIL(CL_INVALID_MEM_OBJECT,
                       "arg_value is an image of another context than kernel's");
    if (image_type_of(a->type_name) != (cl_mem_object_type)img->image_type ||
        is_depth_type(a->type_name) != (img->channel_order == CL_DEPTH))
      return LOOM_FAILF_IN(__func__, CL_INVALID_MEM_OBJECT,
                           "arg_value is an image of another type than the argument's %s",
                           a->type_name);
    /* CL_INVALID_ARG_VALUE if the argument is an image declared with the
     * read_only qualifier and arg_value refers to an image object created
     * with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
     * declared with the write_only qualifier and arg_value refers to an
     * image object created with cl_mem_flags of CL_MEM_READ_ONLY */
    if ((a->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY && (m->flags & CL_MEM_WRITE_ONLY)) ||
        (a->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (m->flags & CL_MEM_READ_ONLY)))
      return LOOM_FAIL(CL_INVALID_ARG_VALUE,
                       "the image's CL_MEM_READ_ONLY/WRITE_ONLY flag contradicts the argument's "
                       "access qualifier");
    break;
  }
  case LOOM_ARG_VALUE:
    /* CL_INVALID_ARG_VALUE if arg_value specified is not a valid value (NULL
     * for an argument not declared with the local qualifier) */
    if (!arg_value)
      return LOOM_FAIL(CL_INVALID_ARG_VALUE, "arg_value is NULL for a by-value argument");
    /* CL_INVALID_ARG_SIZE if arg_size does not match the size of the data
     * type for an argument that is not a memory object */
    if (arg_size != a->size)
      return LOOM_FAILF_IN(__func__, CL_INVALID_ARG_SIZE,
                           "arg_size %zu is not the size of the argument's type (%zu)",
                           arg_size, (size_t)a->size);
    break;
  }
  return loom_kernel_set_arg(kernel, arg_index, arg_size, arg_value);
}

cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel query");
  }
}

cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name,
                          size_t param_value_size, void *param_value,
                          size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  if (arg_indx >= kernel->meta->num_args)
    return LOOM_FAIL(CL_INVALID_ARG_INDEX, "arg_indx is not a valid argument index");
  const struct loom_arg_meta *a = &kernel->meta->args[arg_indx];
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
  case CL_KERNEL_ARG_TYPE_NAME:
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
  case CL_KERNEL_ARG_NAME:
    break;
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel argument query");
  }
  /* names (and so all argument information) exist only with -cl-kernel-arg-info */
  if (!a->name)
    return LOOM_FAIL(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                     "the program was built without -cl-kernel-arg-info");
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

cl_int loom_kernel_query_device(const char *fn, cl_kernel kernel, cl_device_id *device) {
  if (*device == NULL) {
    if (kernel->program->num_devices != 1)
      return LOOM_FAIL_IN(fn, CL_INVALID_DEVICE,
                          "device is NULL and the kernel's program has more than one device");
    *device = kernel->program->devices[0];
  }
  if (!loom_object_is(*device, LOOM_DEVICE))
    return LOOM_FAIL_IN(fn, CL_INVALID_DEVICE, "device is not a valid device");
  if (!loom_program_build_for(kernel->program, *device))
    return LOOM_FAIL_IN(fn, CL_INVALID_DEVICE, "device is not a device of the kernel's program");
  return CL_SUCCESS;
}

cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param_name, size_t param_value_size,
                                void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  cl_int rc = loom_kernel_query_device(__func__, kernel, &device);
  if (rc != CL_SUCCESS)
    return rc;
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
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in "
                     "kernels");
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel work-group query");
  }
}
