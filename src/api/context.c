/* Contexts: a set of devices of the LoomCL platform plus their properties. */
#include "platform.h"
#include <stdlib.h>
#include <string.h>

typedef void(CL_CALLBACK *context_notify_fn)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *context_destructor_fn)(cl_context, void *);

/* Checks a context property list; *count gets the number of entries including
 * the terminating 0 (0 when the list is NULL). */
static cl_int check_properties(const cl_context_properties *props, size_t *count) {
  *count = 0;
  if (!props)
    return CL_SUCCESS;
  bool seen_platform = false, seen_sync = false;
  size_t i = 0;
  for (; props[i] != 0; i += 2) {
    cl_context_properties value = props[i + 1];
    switch (props[i]) {
    case CL_CONTEXT_PLATFORM:
      if (seen_platform)
        return CL_INVALID_PROPERTY;
      seen_platform = true;
      if ((cl_platform_id)value != loom_platform())
        return CL_INVALID_PLATFORM;
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seen_sync)
        return CL_INVALID_PROPERTY;
      seen_sync = true;
      if (value != CL_TRUE && value != CL_FALSE)
        return CL_INVALID_PROPERTY;
      break;
    default:
      return CL_INVALID_PROPERTY;
    }
  }
  *count = i + 1;
  return CL_SUCCESS;
}

static void context_destroy(struct loom_object *o) {
  cl_context ctx = (cl_context)o;
  /* The list is kept newest first, which is the order the spec asks for:
   * the reverse of registration. */
  for (struct loom_callback_node *n = ctx->destructors, *next; n; n = next) {
    next = n->next;
    ((context_destructor_fn)n->fn)(ctx, n->user_data);
    free(n);
  }
  pthread_mutex_destroy(&ctx->lock);
  free(ctx->devices);
  free(ctx->props);
  free(ctx);
}

/* A new context over `devices` (already validated); duplicates are dropped,
 * as the spec says they are ignored. */
static cl_context context_new(const cl_context_properties *props, size_t num_props,
                              cl_uint num_devices, const cl_device_id *devices,
                              context_notify_fn notify, void *notify_data,
                              cl_int *errcode_ret) {
  cl_context ctx = calloc(1, sizeof *ctx);
  cl_device_id *devs = calloc(num_devices, sizeof *devs);
  cl_context_properties *props_copy = num_props ? malloc(num_props * sizeof *props_copy) : NULL;
  if (!ctx || !devs || (num_props && !props_copy)) {
    free(ctx);
    free(devs);
    free(props_copy);
    LOOM_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  cl_uint unique = 0;
  for (cl_uint i = 0; i < num_devices; i++) {
    bool dup = false;
    for (cl_uint j = 0; j < unique && !dup; j++)
      dup = devs[j] == devices[i];
    if (!dup)
      devs[unique++] = devices[i];
  }
  if (num_props)
    memcpy(props_copy, props, num_props * sizeof *props_copy);
  loom_object_init(&ctx->obj, LOOM_CONTEXT, context_destroy);
  ctx->num_devices = unique;
  ctx->devices = devs;
  ctx->props = props_copy;
  ctx->num_props = num_props;
  ctx->notify = notify;
  ctx->notify_data = notify_data;
  pthread_mutex_init(&ctx->lock, NULL);
  ctx->destructors = NULL;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return ctx;
}

cl_context clCreateContext(const cl_context_properties *properties,
                           cl_uint num_devices, const cl_device_id *devices,
                           context_notify_fn pfn_notify, void *user_data,
                           cl_int *errcode_ret) {
  size_t num_props;
  cl_int err = check_properties(properties, &num_props);
  if (err == CL_SUCCESS && (!devices || num_devices == 0))
    err = CL_INVALID_VALUE;
  if (err == CL_SUCCESS && !pfn_notify && user_data)
    err = CL_INVALID_VALUE;
  for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
    if (!loom_object_is(devices[i], LOOM_DEVICE))
      err = CL_INVALID_DEVICE;
  if (err != CL_SUCCESS) {
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return context_new(properties, num_props, num_devices, devices, pfn_notify,
                     user_data, errcode_ret);
}

cl_context clCreateContextFromType(const cl_context_properties *properties,
                                   cl_device_type device_type,
                                   context_notify_fn pfn_notify, void *user_data,
                                   cl_int *errcode_ret) {
  size_t num_props;
  cl_int err = check_properties(properties, &num_props);
  if (err == CL_SUCCESS && !pfn_notify && user_data)
    err = CL_INVALID_VALUE;
  cl_platform_id p = loom_platform();
  cl_uint n = 0;
  if (err == CL_SUCCESS)
    err = clGetDeviceIDs(p, device_type, 0, NULL, &n);
  if (err != CL_SUCCESS) {
    LOOM_SET_ERR(errcode_ret, err);
    return NULL;
  }
  cl_device_id *devs = malloc(n * sizeof *devs);
  if (!devs) {
    LOOM_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  clGetDeviceIDs(p, device_type, n, devs, NULL);
  cl_context ctx = context_new(properties, num_props, n, devs, pfn_notify,
                               user_data, errcode_ret);
  free(devs);
  return ctx;
}

cl_int clRetainContext(cl_context context) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  loom_retain_ext(&context->obj);
  return CL_SUCCESS;
}

cl_int clReleaseContext(cl_context context) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  loom_release_ext(&context->obj);
  return CL_SUCCESS;
}

cl_int clGetContextInfo(cl_context context, cl_context_info param_name,
                        size_t param_value_size, void *param_value,
                        size_t *param_value_size_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, atomic_load(&context->obj.ext_refs));
  case CL_CONTEXT_NUM_DEVICES:
    LOOM_INFO_SCALAR(cl_uint, context->num_devices);
  case CL_CONTEXT_DEVICES:
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     context->devices, context->num_devices * sizeof(cl_device_id));
  case CL_CONTEXT_PROPERTIES: /* size 0 when created with NULL properties */
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     context->props, context->num_props * sizeof(cl_context_properties));
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int clSetContextDestructorCallback(cl_context context,
                                      context_destructor_fn pfn_notify,
                                      void *user_data) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  struct loom_callback_node *n = malloc(sizeof *n);
  if (!n)
    return CL_OUT_OF_HOST_MEMORY;
  n->fn = (void (*)(void))pfn_notify;
  n->user_data = user_data;
  pthread_mutex_lock(&context->lock);
  n->next = context->destructors;
  context->destructors = n;
  pthread_mutex_unlock(&context->lock);
  return CL_SUCCESS;
}
