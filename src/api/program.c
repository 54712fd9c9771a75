/* Program entry points: argument validation and info queries. */
#include "checks.h"
#include "program.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                     const size_t *lengths, cl_int *errcode_ret) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if count is 0, or strings or any entry in strings is NULL */
  if (count == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "count is 0");
  if (!strings)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "strings is NULL");
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i])
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "an entry of strings is NULL");
    size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    /* the lengths add up to more than memory can hold */
    if (n >= SIZE_MAX - total)
      return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY,
                            "the sum of lengths exceeds SIZE_MAX");
    total += n;
  }
  cl_program p = loom_program_new(context, context->num_devices, context->devices);
  char *src = p ? malloc(total + 1) : NULL;
  if (!src) {
    if (p)
      loom_release_ext(&p->obj);
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the program failed");
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
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if device_list is NULL or num_devices is 0; if lengths
   * or binaries is NULL */
  if (num_devices == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  if (!device_list)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "device_list is NULL");
  if (!lengths)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "lengths is NULL");
  if (!binaries)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "binaries is NULL");
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with context */
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!loom_object_is(device_list[i], LOOM_DEVICE))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "an entry of device_list is not a valid device");
    if (!loom_context_has_device(context, device_list[i]))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "a device in device_list is not a device of context");
  }
  /* CL_INVALID_VALUE if any entry in lengths[i] is zero or binaries[i] is NULL */
  for (cl_uint i = 0; i < num_devices; i++)
    if (lengths[i] == 0 || !binaries[i]) {
      if (binary_status)
        binary_status[i] = CL_INVALID_VALUE;
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                            lengths[i] == 0 ? "an entry of lengths is 0"
                                            : "an entry of binaries is NULL");
    }
  cl_program p = loom_program_new(context, num_devices, device_list);
  if (!p)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the program failed");
  p->from_binary = true;
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_int st = loom_program_set_binary(p, i, binaries[i], lengths[i]);
    if (binary_status)
      binary_status[i] = st;
    if (st != CL_SUCCESS)
      err = st;
  }
  /* CL_INVALID_BINARY if an invalid program binary was encountered for any
   * device */
  if (err != CL_SUCCESS) {
    loom_release_ext(&p->obj);
    return LOOM_FAIL_NULL(errcode_ret, err,
                          "an entry of binaries is not a valid LoomCL program binary "
                          "(see binary_status)");
  }
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

cl_int clRetainProgram(cl_program program) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  loom_retain_ext(&program->obj);
  return CL_SUCCESS;
}

cl_int clReleaseProgram(cl_program program) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  loom_release_ext(&program->obj);
  return CL_SUCCESS;
}

/* common checks of clBuildProgram/clCompileProgram device lists, logged as fn */
static cl_int check_devices(const char *fn, cl_program p, cl_uint num,
                            const cl_device_id *list) {
  /* CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
   * zero, or if device_list is not NULL and num_devices is zero */
  if (num > 0 && !list)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "device_list is NULL and num_devices > 0");
  if (num == 0 && list)
    return LOOM_FAIL_IN(fn, CL_INVALID_VALUE, "device_list is not NULL and num_devices is 0");
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with program */
  for (cl_uint i = 0; i < num; i++) {
    if (!loom_object_is(list[i], LOOM_DEVICE))
      return LOOM_FAILF_IN(fn, CL_INVALID_DEVICE, "device_list[%u] is not a valid device", i);
    if (!loom_program_build_for(p, list[i]))
      return LOOM_FAILF_IN(fn, CL_INVALID_DEVICE,
                           "device_list[%u] is not a device of program", i);
  }
  return CL_SUCCESS;
}

static bool build_in_progress(cl_program p) {
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->builds[i].status == CL_BUILD_IN_PROGRESS)
      return true;
  return false;
}

/* CL_INVALID_OPERATION rules shared by clBuildProgram and clCompileProgram */
static cl_int check_rebuild(const char *fn, cl_program p) {
  if (atomic_load(&p->kernels_attached))
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION, "there are kernel objects attached to program");
  if (build_in_progress(p))
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION,
                        "a previous build of program for a device has not completed");
  return CL_SUCCESS;
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                      const char *options,
                      void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  /* CL_INVALID_PROGRAM if program is not a valid program object */
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  cl_int err = check_devices(__func__, program, num_devices, device_list);
  if (err)
    return err;
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL */
  if (!pfn_notify && user_data)
    return LOOM_FAIL(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not NULL");
  /* CL_INVALID_OPERATION if the build of a program executable for any of
   * the devices listed in device_list by a previous call to clBuildProgram
   * has not completed, if there are kernel objects attached to program, or
   * if program was created with clLinkProgram (not from source, IL or binary) */
  err = check_rebuild(__func__, program);
  if (err)
    return err;
  if (program->from_link)
    return LOOM_FAIL(CL_INVALID_OPERATION, "program was created with clLinkProgram");
  /* CL_INVALID_PROGRAM if program was created with clCreateProgramWithBinary
   * and ... is not a program binary (no source and no binary: nothing to
   * build) */
  if (!program->source && !program->il && !program->from_binary)
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program has neither source, IL nor binaries");
  /* CL_INVALID_BINARY if program is created with clCreateProgramWithBinary
   * and devices listed in device_list do not have a valid program binary
   * loaded */
  if (!program->source && !program->il)
    for (cl_uint i = 0; i < program->num_devices; i++)
      if (program->builds[i].bin.kind == LOOM_BINARY_NONE)
        return LOOM_FAIL(CL_INVALID_BINARY, "a device of program has no valid binary loaded");
  err = loom_program_build(program, options);
  if (pfn_notify)
    pfn_notify(program, user_data);
  /* CL_INVALID_BUILD_OPTIONS if the build options specified by options are
   * invalid; CL_BUILD_PROGRAM_FAILURE if there is a failure to build the
   * program executable (the line before, from the build, says which step) */
  if (err == CL_INVALID_BUILD_OPTIONS)
    return LOOM_FAIL(CL_INVALID_BUILD_OPTIONS,
                     "options are not valid build options (see CL_PROGRAM_BUILD_LOG)");
  if (err == CL_BUILD_PROGRAM_FAILURE)
    return LOOM_FAIL(CL_BUILD_PROGRAM_FAILURE,
                     "building the program executable failed (see CL_PROGRAM_BUILD_LOG)");
  if (err != CL_SUCCESS)
    return LOOM_FAIL(err, "building the program failed");
  return CL_SUCCESS;
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                        const char *options, cl_uint num_input_headers,
                        const cl_program *input_headers, const char **header_include_names,
                        void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  /* CL_INVALID_PROGRAM if program is not a valid program object */
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  cl_int err = check_devices(__func__, program, num_devices, device_list);
  if (err)
    return err;
  /* CL_INVALID_VALUE if num_input_headers is zero and header_include_names
   * or input_headers are not NULL, or if num_input_headers is not zero and
   * header_include_names or input_headers are NULL */
  if (num_input_headers == 0 && (input_headers || header_include_names))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "num_input_headers is 0 and input_headers or header_include_names "
                     "is not NULL");
  if (num_input_headers > 0 && (!input_headers || !header_include_names))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "num_input_headers is not 0 and input_headers or header_include_names "
                     "is NULL");
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!loom_object_is(input_headers[i], LOOM_PROGRAM))
      return LOOM_FAILF_IN(__func__, CL_INVALID_PROGRAM,
                           "input_headers[%u] is not a valid program object", i);
    if (!header_include_names[i])
      return LOOM_FAILF_IN(__func__, CL_INVALID_VALUE, "header_include_names[%u] is NULL", i);
  }
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL */
  if (!pfn_notify && user_data)
    return LOOM_FAIL(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not NULL");
  /* CL_INVALID_OPERATION if the compilation or build of a program
   * executable for any of the devices listed in device_list by a previous
   * call to clCompileProgram or clBuildProgram has not completed, if there
   * are kernel objects attached to program, or if program has no source
   * or IL available */
  err = check_rebuild(__func__, program);
  if (err)
    return err;
  if (!program->source && !program->il)
    return LOOM_FAIL(CL_INVALID_OPERATION, "program has no source or IL to compile");
  err = loom_program_compile(program, options, num_input_headers, input_headers,
                             header_include_names);
  if (pfn_notify)
    pfn_notify(program, user_data);
  /* CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options
   * are invalid; CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile
   * the program source */
  if (err == CL_INVALID_COMPILER_OPTIONS)
    return LOOM_FAIL(CL_INVALID_COMPILER_OPTIONS,
                     "options are not valid compiler options (see CL_PROGRAM_BUILD_LOG)");
  if (err == CL_COMPILE_PROGRAM_FAILURE)
    return LOOM_FAIL(CL_COMPILE_PROGRAM_FAILURE,
                     "compiling the program source failed (see CL_PROGRAM_BUILD_LOG)");
  if (err != CL_SUCCESS)
    return LOOM_FAIL(err, "compiling the program failed");
  return CL_SUCCESS;
}

cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                         const char *options, cl_uint num_input_programs,
                         const cl_program *input_programs,
                         void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                         cl_int *errcode_ret) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
   * zero, or device_list is not NULL and num_devices is zero; if
   * num_input_programs is zero or input_programs is NULL; if pfn_notify is
   * NULL but user_data is not NULL */
  if (num_devices > 0 && !device_list)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "device_list is NULL and num_devices > 0");
  if (num_devices == 0 && device_list)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "device_list is not NULL and num_devices is 0");
  if (num_input_programs == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "num_input_programs is 0");
  if (!input_programs)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "input_programs is NULL");
  if (!pfn_notify && user_data)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "pfn_notify is NULL but user_data is not NULL");
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with context */
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!loom_object_is(device_list[i], LOOM_DEVICE))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "an entry of device_list is not a valid device");
    if (!loom_context_has_device(context, device_list[i]))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "a device in device_list is not a device of context");
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    /* CL_INVALID_PROGRAM if programs specified in input_programs are not
     * valid program objects */
    if (!loom_object_is(input_programs[i], LOOM_PROGRAM))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_PROGRAM,
                            "an entry of input_programs is not a valid program object");
    if (input_programs[i]->context != context)
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT,
                            "an entry of input_programs belongs to another context");
    /* CL_INVALID_OPERATION if the compilation status of an input program is
     * not a compiled object or library */
    const struct loom_program_build *b = &input_programs[i]->builds[0];
    if (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_OPERATION,
                            "an entry of input_programs is neither a compiled object nor "
                            "a library");
  }
  /* CL_INVALID_LINKER_OPTIONS if the linker options specified by options
   * are invalid: only the link options of OpenCL 3.0, 5.8.7 (the build of
   * clBuildProgram, which links too, takes compiler options as well) */
  struct loom_build_options link_opts;
  char *why = NULL;
  if (loom_parse_options(options, true, &link_opts, &why) != 0) {
    cl_int e = LOOM_FAILF_IN(__func__, CL_INVALID_LINKER_OPTIONS, "options are not link options: %s",
                             why ? why : "out of host memory");
    free(why);
    return loom_null_with(errcode_ret, e);
  }
  loom_free_options(&link_opts);
  free(why);
  cl_program p = num_devices ? loom_program_new(context, num_devices, device_list)
                             : loom_program_new(context, context->num_devices, context->devices);
  if (!p)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the program failed");
  p->from_link = true;
  cl_int err = loom_program_link(p, options, num_input_programs, input_programs);
  if (pfn_notify)
    pfn_notify(p, user_data);
  /* CL_INVALID_LINKER_OPTIONS if the linker options specified by options
   * are invalid; CL_INVALID_OPERATION if an input program has no binary
   * for a device of the link */
  if (err == CL_INVALID_LINKER_OPTIONS || err == CL_INVALID_OPERATION) {
    loom_release_ext(&p->obj);
    return LOOM_FAIL_NULL(errcode_ret, err,
                          err == CL_INVALID_LINKER_OPTIONS
                              ? "options are not valid linker options"
                              : "an entry of input_programs has no compiled binary for a "
                                "device of the link");
  }
  /* on a link failure the spec still returns a program that holds the log */
  if (err != CL_SUCCESS)
    LOOM_FAIL(err, "linking the program executable failed (see CL_PROGRAM_BUILD_LOG)");
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
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
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
  case CL_PROGRAM_IL: /* the module as given; nothing for other programs */
    return loom_info(param_value_size, param_value, param_value_size_ret, program->il,
                     program->il ? program->il_size : 0);
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    LOOM_INFO_SCALAR(cl_bool, CL_FALSE);
  case CL_PROGRAM_BINARY_SIZES:
  case CL_PROGRAM_BINARIES: {
    cl_uint n = program->num_devices;
    size_t *sizes = calloc(n, sizeof *sizes);
    struct loom_blob *blobs = calloc(n, sizeof *blobs);
    if (!sizes || !blobs) {
      free(sizes);
      free(blobs);
      return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the binaries failed");
    }
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
          err = LOOM_FAIL(CL_INVALID_VALUE,
                          "param_value_size is less than the size of the array of binaries");
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
      return LOOM_FAIL(CL_INVALID_PROGRAM_EXECUTABLE,
                       "no program executable has been built for any device of program");
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      LOOM_INFO_SCALAR(size_t, b->bin.num_kernels);
    size_t len = 1;
    for (uint32_t i = 0; i < b->bin.num_kernels; i++)
      len += strlen(b->bin.kernels[i].name) + 1;
    char *names = calloc(len, 1);
    if (!names)
      return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the kernel names failed");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a program query");
  }
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info param_name, size_t param_value_size,
                             void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  struct loom_program_build *b = loom_program_build_for(program, device);
  if (!b)
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a device of program");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a program build query");
  }
}
