/* clGetKernelSubGroupInfo (API 5.9.4). A sub-group is a run of at most S
 * consecutive work-items along dimension 0 of one row of the work-group
 * (builtins/subgroup.cl), S the kernel's sub-group size: a local size
 * (l0, l1, l2) has ceil(l0 / S) * l1 * l2 sub-groups of at most min(S, l0)
 * work-items. */
#include "checks.h"
#include "kernel.h"
#include <CL/cl_ext.h>
#include <string.h>

/* the local size an *_FOR_NDRANGE query passes: 1 to 3 size_t */
static cl_int read_local_size(size_t input_value_size, const void *input_value, size_t l[3]) {
  if (!input_value)
    return LOOM_FAIL(CL_INVALID_VALUE, "input_value is NULL: the query needs a local size");
  if (input_value_size == 0 || input_value_size % sizeof(size_t) != 0 ||
      input_value_size > 3 * sizeof(size_t))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "input_value_size is not the size of 1, 2 or 3 size_t (a local size)");
  l[0] = l[1] = l[2] = 1;
  memcpy(l, input_value, input_value_size);
  return CL_SUCCESS;
}

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name, size_t input_value_size,
                               const void *input_value, size_t param_value_size,
                               void *param_value, size_t *param_value_size_ret) {
  if (!loom_object_is(kernel, LOOM_KERNEL))
    return LOOM_FAIL(CL_INVALID_KERNEL, "kernel is not a valid kernel object");
  /* "device ... can be NULL if kernel is associated with a single device" */
  cl_int rc = loom_kernel_query_device(__func__, kernel, &device);
  if (rc != CL_SUCCESS)
    return rc;
  const struct loom_kernel_meta *m = kernel->meta;
  size_t s = m->sub_group_size ? m->sub_group_size : 1;
  size_t max_wg = device->desc.lim.max_work_group_size;
  size_t l[3];
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    if ((rc = read_local_size(input_value_size, input_value, l)) != CL_SUCCESS)
      return rc;
    LOOM_INFO_SCALAR(size_t, l[0] < s ? l[0] : s);
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    if ((rc = read_local_size(input_value_size, input_value, l)) != CL_SUCCESS)
      return rc;
    /* local sizes past the device's limit have no sub-groups (and no
     * overflow in the product) */
    bool fits = l[0] <= max_wg && l[1] <= max_wg && l[2] <= max_wg &&
                l[0] * l[1] <= max_wg && l[0] * l[1] * l[2] <= max_wg;
    LOOM_INFO_SCALAR(size_t, fits ? (l[0] + s - 1) / s * l[1] * l[2] : 0);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input_value || input_value_size != sizeof(size_t))
      return LOOM_FAIL(CL_INVALID_VALUE,
                       "input_value must be one size_t: the number of sub-groups");
    size_t count, out[3] = {0, 0, 0};
    memcpy(&count, input_value, sizeof count);
    size_t dims = param_value_size / sizeof(size_t);
    if (param_value && (param_value_size == 0 || param_value_size % sizeof(size_t) != 0 ||
                        dims > 3))
      return LOOM_FAIL(CL_INVALID_VALUE,
                       "param_value_size is not the size of 1, 2 or 3 size_t (a local size)");
    if (!param_value)
      dims = 3;
    /* count whole sub-groups along dimension 0 */
    if (count > 0 && count <= max_wg / s && count * s <= device->desc.lim.max_work_item_sizes[0]) {
      out[0] = count * s;
      out[1] = out[2] = 1;
    }
    return loom_info(param_value_size, param_value, param_value_size_ret, out,
                     dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    /* a group one work-item wide has a sub-group per row */
    LOOM_INFO_SCALAR(size_t, max_wg);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    LOOM_INFO_SCALAR(size_t, 0);
  case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
    LOOM_INFO_SCALAR(size_t, m->reqd_sub_group_size);
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a kernel sub-group query");
  }
}
