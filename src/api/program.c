/* Program entry points: argument validation and info queries. */
#include "program.h"
#include <stdlib.h>
#include <string.h>

static bool device_in_context(cl_context ctx, cl_device_id d) {
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    if (ctx->devices[i] == d)
      return true;
  return false;
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                     const size_t *lengths, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (count == 0 || !strings) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    total += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
  }
  cl_program p = loom_program_new(context, context->num_devices, context->devices);
  char *src = p ? malloc(total + 1) : NULL;
  if (!src) {
    if (p)
      loom_release_ext(&p->obj);
    LOOM_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  size_t pos = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    /* the spec concatenates the strings without their terminators */
    for (size_t c = 0; c < n; c++)
      if (strings[i][c])
        src[pos++] = strings[i][c];
  }
  src[pos] = 0;
  p->source = src;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const size_t *lengths,
                                     const unsigned char **binaries, cl_int *binary_status,
                                     cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (num_devices == 0 || !device_list || !lengths || !binaries) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!loom_object_is(device_list[i], LOOM_DEVICE) || !device_in_context(context, device_list[i])) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (lengths[i] == 0 || !binaries[i]) {
      if (binary_status)
        binary_status[i] = CL_INVALID_VALUE;
      LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
  cl_program p = loom_program_new(context, num_devices, device_list);
  if (!p) {
    LOOM_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  p->from_binary = true;
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_int st = loom_program_set_binary(p, i, binaries[i], lengths[i]);
    if (binary_status)
      binary_status[i] = st;
    if (st != CL_SUCCESS)
      err = st;
  }
  if (err != CL_SUCCESS) {
    loom_release_ext(&p->obj);
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

cl_int clRetainProgram(cl_program program) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  loom_retain_ext(&program->obj);
  return CL_SUCCESS;
}

cl_int clReleaseProgram(cl_program program) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  loom_release_ext(&program->obj);
  return CL_SUCCESS;
}

/* common checks of clBuildProgram/clCompileProgram device lists */
static cl_int check_devices(cl_program p, cl_uint num, const cl_device_id *list) {
  if ((num == 0) != (list == NULL))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++)
    if (!loom_object_is(list[i], LOOM_DEVICE) || !loom_program_build_for(p, list[i]))
      return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

static bool build_in_progress(cl_program p) {
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->builds[i].status == CL_BUILD_IN_PROGRESS)
      return true;
  return false;
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                      const char *options,
                      void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  cl_int err = check_devices(program, num_devices, device_list);
  if (err)
    return err;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  if (atomic_load(&program->kernels_attached) || build_in_progress(program) ||
      program->from_link)
    return CL_INVALID_OPERATION;
  if (!program->source && !program->from_binary)
    return CL_INVALID_PROGRAM;
  if (!program->source)
    for (cl_uint i = 0; i < program->num_devices; i++)
      if (program->builds[i].bin.kind == LOOM_BINARY_NONE)
        return CL_INVALID_BINARY;
  err = loom_program_build(program, options);
  if (pfn_notify)
    pfn_notify(program, user_data);
  return err;
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                        const char *options, cl_uint num_input_headers,
                        const cl_program *input_headers, const char **header_include_names,
                        void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  cl_int err = check_devices(program, num_devices, device_list);
  if (err)
    return err;
  if (num_input_headers == 0 && (input_headers || header_include_names))
    return CL_INVALID_VALUE;
  if (num_input_headers > 0 && (!input_headers || !header_include_names))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!loom_object_is(input_headers[i], LOOM_PROGRAM))
      return CL_INVALID_PROGRAM;
    if (!header_include_names[i])
      return CL_INVALID_VALUE;
  }
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  if (atomic_load(&program->kernels_attached) || build_in_progress(program))
    return CL_INVALID_OPERATION;
  if (!program->source)
    return CL_INVALID_OPERATION;
  err = loom_program_compile(program, options, num_input_headers, input_headers,
                             header_include_names);
  if (pfn_notify)
    pfn_notify(program, user_data);
  return err;
}

cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                         const char *options, cl_uint num_input_programs,
                         const cl_program *input_programs,
                         void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                         cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if ((num_devices == 0) != (device_list == NULL) || num_input_programs == 0 ||
      !input_programs || (!pfn_notify && user_data)) {
    LOOM_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (!loom_object_is(device_list[i], LOOM_DEVICE) || !device_in_context(context, device_list[i])) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    if (!loom_object_is(input_programs[i], LOOM_PROGRAM)) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_PROGRAM);
      return NULL;
    }
    if (input_programs[i]->context != context) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
      return NULL;
    }
    const struct loom_program_build *b = &input_programs[i]->builds[0];
    if (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      LOOM_SET_ERR(errcode_ret, CL_INVALID_OPERATION);
      return NULL;
    }
  }
  cl_program p = num_devices ? loom_program_new(context, num_devices, device_list)
                             : loom_program_new(context, context->num_devices, context->devices);
  if (!p) {
    LOOM_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  p->from_link = true;
  cl_int err = loom_program_link(p, options, num_input_programs, input_programs);
  if (pfn_notify)
    pfn_notify(p, user_data);
  if (err == CL_INVALID_LINKER_OPTIONS || err == CL_INVALID_OPERATION) {
    loom_release_ext(&p->obj);
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  /* on a link failure the spec still returns a program that holds the log */
  LOOM_SET_ERR(errcode_ret, err);
  return p;
}

static const struct loom_program_build *executable(cl_program p) {
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->builds[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
        p->builds[i].status == CL_BUILD_SUCCESS)
      return &p->builds[i];
  return NULL;
}

cl_int clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&program->obj.ext_refs));
  case CL_PROGRAM_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, program->context);
  case CL_PROGRAM_NUM_DEVICES:
    LOOM_INFO_SCALAR(cl_uint, program->num_devices);
  case CL_PROGRAM_DEVICES:
    return loom_info(param_value_size, param_value, param_value_size_ret, program->devices,
                     program->num_devices * sizeof(cl_device_id));
  case CL_PROGRAM_SOURCE:
    LOOM_INFO_STRING(program->source ? program->source : "");
  case CL_PROGRAM_IL:
    return loom_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    LOOM_INFO_SCALAR(cl_bool, CL_FALSE);
  case CL_PROGRAM_BINARY_SIZES:
  case CL_PROGRAM_BINARIES: {
    cl_uint n = program->num_devices;
    size_t *sizes = calloc(n, sizeof *sizes);
    struct loom_blob *blobs = calloc(n, sizeof *blobs);
    for (cl_uint i = 0; i < n; i++)
      if (program->builds[i].bin.kind != LOOM_BINARY_NONE &&
          loom_binary_serialize(&program->builds[i].bin, &blobs[i]) == 0)
        sizes[i] = blobs[i].size;
    cl_int err;
    if (param_name == CL_PROGRAM_BINARY_SIZES) {
      err = loom_info(param_value_size, param_value, param_value_size_ret, sizes, n * sizeof *sizes);
    } else {
      err = loom_info(param_value_size, NULL, param_value_size_ret, NULL, n * sizeof(unsigned char *));
      if (param_value) {
        if (param_value_size < n * sizeof(unsigned char *)) {
          err = CL_INVALID_VALUE;
        } else {
          unsigned char **dst = param_value;
          for (cl_uint i = 0; i < n; i++)
            if (dst[i] && blobs[i].size)
              memcpy(dst[i], blobs[i].data, blobs[i].size);
        }
      }
    }
    for (cl_uint i = 0; i < n; i++)
      loom_blob_free(&blobs[i]);
    free(blobs);
    free(sizes);
    return err;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    const struct loom_program_build *b = executable(program);
    if (!b)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      LOOM_INFO_SCALAR(size_t, b->bin.num_kernels);
    size_t len = 1;
    for (uint32_t i = 0; i < b->bin.num_kernels; i++)
      len += strlen(b->bin.kernels[i].name) + 1;
    char *names = calloc(len, 1);
    for (uint32_t i = 0; i < b->bin.num_kernels; i++) {
      if (i)
        strcat(names, ";");
      strcat(names, b->bin.kernels[i].name);
    }
    cl_int err = loom_info(param_value_size, param_value, param_value_size_ret, names, strlen(names) + 1);
    free(names);
    return err;
  }
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info param_name, size_t param_value_size,
                             void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return CL_INVALID_PROGRAM;
  if (!loom_object_is(device, LOOM_DEVICE))
    return CL_INVALID_DEVICE;
  struct loom_program_build *b = loom_program_build_for(program, device);
  if (!b)
    return CL_INVALID_DEVICE;
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS:
    LOOM_INFO_SCALAR(cl_build_status, b->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    LOOM_INFO_STRING(b->options ? b->options : "");
  case CL_PROGRAM_BUILD_LOG:
    LOOM_INFO_STRING(b->log ? b->log : "");
  case CL_PROGRAM_BINARY_TYPE:
    LOOM_INFO_SCALAR(cl_program_binary_type, b->binary_type);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    LOOM_INFO_SCALAR(size_t, b->bin.kind == LOOM_BINARY_EXECUTABLE
                                 ? (size_t)loom_bitcode_global_var_bytes(&b->bin.bitcode)
                                 : 0);
  default:
    return CL_INVALID_VALUE;
  }
}
