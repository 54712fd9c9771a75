/* Platform enumeration and queries. LoomCL has exactly one platform. */
#include "checks.h"
#include "platform.h"
#include <string.h>
#include <time.h>

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                        cl_uint *num_platforms) {
  /* CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
   * NULL or if both num_platforms and platforms are NULL */
  if (num_entries == 0 && platforms)
    return LOOM_FAIL(CL_INVALID_VALUE, "num_entries is 0 and platforms is not NULL");
  if (!platforms && !num_platforms)
    return LOOM_FAIL(CL_INVALID_VALUE, "platforms and num_platforms are both NULL");
  if (platforms)
    platforms[0] = loom_platform();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

static cl_ulong host_timer_resolution_ns(void) {
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
    return 1;
  cl_ulong ns = (cl_ulong)res.tv_sec * 1000000000u + (cl_ulong)res.tv_nsec;
  return ns ? ns : 1;
}

cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret) {
  if (!loom_platform_arg(platform))
    return LOOM_FAIL(CL_INVALID_PLATFORM, "platform is not a valid platform");
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    LOOM_INFO_STRING("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    LOOM_INFO_STRING("OpenCL 3.0 LoomCL " LOOMCL_VERSION_STRING);
  case CL_PLATFORM_NAME:
    LOOM_INFO_STRING("LoomCL");
  case CL_PLATFORM_VENDOR:
    LOOM_INFO_STRING("LoomCL");
  case CL_PLATFORM_EXTENSIONS:
    LOOM_INFO_STRING(LOOM_EXTENSIONS);
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return loom_info(param_value_size, param_value, param_value_size_ret,
                     loom_extensions_with_version, sizeof loom_extensions_with_version);
  case CL_PLATFORM_NUMERIC_VERSION:
    LOOM_INFO_SCALAR(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    LOOM_INFO_SCALAR(cl_ulong, host_timer_resolution_ns());
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    LOOM_INFO_STRING("LOOM");
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a platform query");
  }
}

/* The compiler keeps no resources worth unloading; both calls are hints. */
cl_int clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!loom_platform_arg(platform) || !platform)
    return LOOM_FAIL(CL_INVALID_PLATFORM, "platform is not a valid platform");
  return CL_SUCCESS;
}

cl_int clUnloadCompiler(void) { return CL_SUCCESS; }
