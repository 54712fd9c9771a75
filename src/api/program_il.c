/* Programs from an intermediate language (API 2.2 sections 5.8.1 and
 * 5.8.3): clCreateProgramWithIL takes SPIR-V, and specialization constants
 * are set before the build. The module is checked when the program is
 * created, so a malformed one is refused there with the reason
 * (LOOMCL_LOG=api); building goes through the SPIR-V front end
 * (src/compiler/frontend/spirv.c). */
#include "checks.h"
#include "program.h"
#include <stdlib.h>

cl_program clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                 cl_int *errcode_ret) {
  /* CL_INVALID_CONTEXT if context is not a valid context */
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if il is NULL or if length is zero */
  if (!il || length == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "il is NULL or length is 0");
  cl_program p = loom_program_new(context, context->num_devices, context->devices);
  if (!p)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the program failed");
  /* CL_INVALID_VALUE if the length-byte memory pointed to by il does not
   * contain well-formed intermediate language input appropriate for the
   * deployment environment in which the OpenCL platform is running */
  char *why = NULL;
  cl_int err = loom_program_set_il(p, il, length, &why);
  if (err != CL_SUCCESS) {
    loom_release_ext(&p->obj);
    LOOM_FAILF_IN(__func__, err, "il is not a SPIR-V module this device can run: %s",
                  why ? why : "out of memory");
    free(why);
    return loom_null_with(errcode_ret, err);
  }
  free(why);
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                          const void *spec_value) {
  /* CL_INVALID_PROGRAM if program is not a valid program object created
   * from an intermediate language (e.g. SPIR-V) */
  if (!loom_object_is(program, LOOM_PROGRAM))
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program is not a valid program object");
  if (!program->il)
    return LOOM_FAIL(CL_INVALID_PROGRAM, "program was not created from SPIR-V");
  /* CL_INVALID_VALUE if spec_value is NULL */
  if (!spec_value)
    return LOOM_FAIL(CL_INVALID_VALUE, "spec_value is NULL");
  /* CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant
   * identifier; CL_INVALID_VALUE if spec_size does not match the size of
   * the specialization constant in the module */
  cl_int err = loom_program_set_spec_constant(program, spec_id, spec_size, spec_value);
  if (err == CL_INVALID_SPEC_ID)
    return LOOM_FAILF_IN(__func__, err, "the module has no specialization constant with SpecId %u",
                         spec_id);
  if (err == CL_INVALID_VALUE)
    return LOOM_FAILF_IN(__func__, err,
                         "spec_size %zu is not the size of specialization constant %u", spec_size,
                         spec_id);
  if (err != CL_SUCCESS)
    return LOOM_FAIL(err, "recording the value failed");
  return CL_SUCCESS;
}
