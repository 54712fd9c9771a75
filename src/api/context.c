/* Contexts: a set of devices of the LoomCL platform plus their properties. */
#include "checks.h"
#include "platform.h"
#include "svm.h"
#include <stdlib.h>
#include <string.h>

typedef void(CL_CALLBACK *context_notify_fn)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *context_destructor_fn)(cl_context, void *);

/* Checks a context property list; *count gets the number of entries including
 * the terminating 0 (0 when the list is NULL). Logged as fn. */
static cl_int check_properties(const char *fn, const cl_context_properties *props,
                               size_t *count) {
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
        return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                            "properties names CL_CONTEXT_PLATFORM twice");
      seen_platform = true;
      if ((cl_platform_id)value != loom_platform())
        return LOOM_FAIL_IN(fn, CL_INVALID_PLATFORM,
                            "the CL_CONTEXT_PLATFORM value is not a valid platform");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seen_sync)
        return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                            "properties names CL_CONTEXT_INTEROP_USER_SYNC twice");
      seen_sync = true;
      if (value != CL_TRUE && value != CL_FALSE)
        return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY,
                            "the CL_CONTEXT_INTEROP_USER_SYNC value is not CL_TRUE or "
                            "CL_FALSE");
      break;
    default:
      return LOOM_FAIL_IN(fn, CL_INVALID_PROPERTY, "properties names an unknown property");
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
  loom_svm_table_free(ctx); /* allocations the application did not free */
  for (cl_uint i = 0; i < ctx->num_devices; i++)
    LOOM_RELEASE(ctx->devices[i]); /* sub-devices live as long as their contexts */
  pthread_cond_destroy(&ctx->idle_cond);
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
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the context failed");
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
  for (cl_uint i = 0; i < unique; i++)
    LOOM_RETAIN(devs[i]);
  ctx->num_devices = unique;
  ctx->devices = devs;
  ctx->props = props_copy;
  ctx->num_props = num_props;
  ctx->notify = notify;
  ctx->notify_data = notify_data;
  pthread_mutex_init(&ctx->lock, NULL);
  pthread_cond_init(&ctx->idle_cond, NULL);
  loom_svm_table_init(&ctx->svm);
  ctx->destructors = NULL;
  LOOM_SET_ERR(errcode_ret, CL_SUCCESS);
  return ctx;
}

cl_context clCreateContext(const cl_context_properties *properties,
                           cl_uint num_devices, const cl_device_id *devices,
                           context_notify_fn pfn_notify, void *user_data,
                           cl_int *errcode_ret) {
  size_t num_props;
  cl_int err = check_properties(__func__, properties, &num_props);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  /* CL_INVALID_VALUE if devices is NULL or num_devices is 0; if pfn_notify
   * is NULL but user_data is not NULL */
  if (!devices)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "devices is NULL");
  if (num_devices == 0)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE, "num_devices is 0");
  if (!pfn_notify && user_data)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "pfn_notify is NULL but user_data is not NULL");
  /* CL_INVALID_DEVICE if any device in devices is not a valid device */
  for (cl_uint i = 0; i < num_devices; i++)
    if (!loom_object_is(devices[i], LOOM_DEVICE))
      return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_DEVICE,
                            "an entry of devices is not a valid device");
  return context_new(properties, num_props, num_devices, devices, pfn_notify,
                     user_data, errcode_ret);
}

cl_context clCreateContextFromType(const cl_context_properties *properties,
                                   cl_device_type device_type,
                                   context_notify_fn pfn_notify, void *user_data,
                                   cl_int *errcode_ret) {
  size_t num_props;
  cl_int err = check_properties(__func__, properties, &num_props);
  if (err != CL_SUCCESS)
    return loom_null_with(errcode_ret, err);
  if (!pfn_notify && user_data)
    return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_VALUE,
                          "pfn_notify is NULL but user_data is not NULL");
  cl_platform_id p = loom_platform();
  cl_uint n = 0;
  /* CL_INVALID_DEVICE_TYPE, CL_DEVICE_NOT_FOUND: clGetDeviceIDs logs which */
  err = clGetDeviceIDs(p, device_type, 0, NULL, &n);
  if (err != CL_SUCCESS)
    return LOOM_FAIL_NULL(errcode_ret, err,
                          "device_type is not valid or matches no device (see the line above)");
  cl_device_id *devs = malloc(n * sizeof *devs);
  if (!devs)
    return LOOM_FAIL_NULL(errcode_ret, CL_OUT_OF_HOST_MEMORY, "allocating the context failed");
  clGetDeviceIDs(p, device_type, n, devs, NULL);
  cl_context ctx = context_new(properties, num_props, n, devs, pfn_notify,
                               user_data, errcode_ret);
  free(devs);
  return ctx;
}

cl_int clRetainContext(cl_context context) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  loom_retain_ext(&context->obj);
  return CL_SUCCESS;
}

cl_int clReleaseContext(cl_context context) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  loom_release_ext(&context->obj);
  return CL_SUCCESS;
}

cl_int clGetContextInfo(cl_context context, cl_context_info param_name,
                        size_t param_value_size, void *param_value,
                        size_t *param_value_size_ret) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
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
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a context query");
  }
}

cl_int clSetContextDestructorCallback(cl_context context,
                                      context_destructor_fn pfn_notify,
                                      void *user_data) {
  if (!loom_object_is(context, LOOM_CONTEXT))
    return LOOM_FAIL(CL_INVALID_CONTEXT, "context is not a valid context");
  if (!pfn_notify)
    return LOOM_FAIL(CL_INVALID_VALUE, "pfn_notify is NULL");
  struct loom_callback_node *n = malloc(sizeof *n);
  if (!n)
    return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the callback failed");
  n->fn = (void (*)(void))pfn_notify;
  n->user_data = user_data;
  pthread_mutex_lock(&context->lock);
  n->next = context->destructors;
  context->destructors = n;
  pthread_mutex_unlock(&context->lock);
  return CL_SUCCESS;
}
