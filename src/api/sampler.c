/* Sampler objects. They are only useful with images: in a context where no
 * device supports images, creation fails with CL_INVALID_OPERATION as the
 * spec requires, after the arguments have been checked. */
#include "checks.h"
#include <stdlib.h>
#include <string.h>

static bool valid_addressing(cl_addressing_mode m) {
  return m == CL_ADDRESS_NONE || m == CL_ADDRESS_CLAMP_TO_EDGE ||
         m == CL_ADDRESS_CLAMP || m == CL_ADDRESS_REPEAT ||
         m == CL_ADDRESS_MIRRORED_REPEAT;
}

static bool valid_filter(cl_filter_mode m) {
  return m == CL_FILTER_NEAREST || m == CL_FILTER_LINEAR;
}

static void sampler_destroy(struct loom_object *o) {
  cl_sampler s = (cl_sampler)o;
  LOOM_RELEASE(s->context);
  free(s->props);
  free(s);
}

/* Creates the sampler once every argument has been validated. */
static cl_sampler sampler_new(cl_context context, cl_bool normalized,
                              cl_addressing_mode addressing, cl_filter_mode filter,
                              const cl_sampler_properties *props, size_t num_props,
                              cl_int *errcode_ret) {
  /* CL_INVALID_OPERATION if images are not supported by any device
   * associated with context */
  if (!loom_context_supports_images(context))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_OPERATION,
                          "no device of context supports images");
  cl_sampler s = calloc(1, sizeof *s);
  cl_sampler_properties *copy = num_props ? malloc(num_props * sizeof *copy) : NULL;
  if (!s || (num_props && !copy)) {
    free(s);
    free(copy);
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the sampler failed");
  }
  if (num_props)
    memcpy(copy, props, num_props * sizeof *copy);
  loom_object_init(&s->obj, LOOM_SAMPLER, sampler_destroy);
  s->context = context;
  LOOM_RETAIN(context);
  s->normalized_coords = normalized;
  s->addressing_mode = addressing;
  s->filter_mode = filter;
  s->props = copy;
  s->num_props = num_props;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return s;
}

cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords,
                           cl_addressing_mode addressing_mode,
                           cl_filter_mode filter_mode, cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* CL_INVALID_VALUE if addressing_mode, filter_mode or normalized_coords
   * or a combination of these arguments are not valid */
  if (normalized_coords != CL_TRUE && normalized_coords != CL_FALSE)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "normalized_coords is not CL_TRUE or CL_FALSE");
  if (!valid_addressing(addressing_mode))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "addressing_mode is not a valid addressing mode");
  if (!valid_filter(filter_mode))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "filter_mode is not a valid filter mode");
  return sampler_new(context, normalized_coords, addressing_mode, filter_mode,
                     NULL, 0, errcode_ret);
}

cl_sampler clCreateSamplerWithProperties(cl_context context,
                                         const cl_sampler_properties *props,
                                         cl_int *errcode_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  /* the spec's defaults */
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  bool seen_norm = false, seen_addr = false, seen_filter = false, ok = true;
  size_t i = 0;
  for (; props && props[i] != 0 && ok; i += 2) {
    cl_sampler_properties v = props[i + 1];
    switch (props[i]) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      ok = !seen_norm && (v == CL_TRUE || v == CL_FALSE);
      seen_norm = true;
      normalized = (cl_bool)v;
      break;
    case CL_SAMPLER_ADDRESSING_MODE:
      ok = !seen_addr && valid_addressing((cl_addressing_mode)v);
      seen_addr = true;
      addressing = (cl_addressing_mode)v;
      break;
    case CL_SAMPLER_FILTER_MODE:
      ok = !seen_filter && valid_filter((cl_filter_mode)v);
      seen_filter = true;
      filter = (cl_filter_mode)v;
      break;
    default:
      ok = false;
    }
  }
  /* CL_INVALID_VALUE if the property name in sampler_properties is not a
   * supported property name, if the value specified for a supported property
   * name is not valid, or if the same property name is specified more than
   * once */
  if (!ok)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "sampler_properties names an unknown property, a property twice, "
                          "or a property with an invalid value");
  return sampler_new(context, normalized, addressing, filter, props,
                     props ? i + 1 : 0, errcode_ret);
}

cl_int clRetainSampler(cl_sampler sampler) {
  if (!loom_object_is(sampler, LOOM_SAMPLER))
    return LOOM_FAIL(CL_INVALID_SAMPLER, "sampler is not a valid sampler object");
  loom_retain_ext(&sampler->obj);
  return CL_SUCCESS;
}

cl_int clReleaseSampler(cl_sampler sampler) {
  if (!loom_object_is(sampler, LOOM_SAMPLER))
    return LOOM_FAIL(CL_INVALID_SAMPLER, "sampler is not a valid sampler object");
  loom_release_ext(&sampler->obj);
  return CL_SUCCESS;
}

cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                        size_t param_value_size, void *param_value,
                        size_t *param_value_size_ret) {
  if (!loom_object_is(sampler, LOOM_SAMPLER))
    return LOOM_FAIL(CL_INVALID_SAMPLER, "sampler is not a valid sampler object");
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&sampler->obj.ext_refs));
  case CL_SAMPLER_CONTEXT:
    LOOM_INFO_SCALAR(cl_context, sampler->context);
  case CL_SAMPLER_NORMALIZED_COORDS:
    LOOM_INFO_SCALAR(cl_bool, sampler->normalized_coords);
  case CL_SAMPLER_ADDRESSING_MODE:
    LOOM_INFO_SCALAR(cl_addressing_mode, sampler->addressing_mode);
  case CL_SAMPLER_FILTER_MODE:
    LOOM_INFO_SCALAR(cl_filter_mode, sampler->filter_mode);
  case CL_SAMPLER_PROPERTIES:
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     sampler->props, sampler->num_props * sizeof(cl_sampler_properties));
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a sampler query");
  }
}
