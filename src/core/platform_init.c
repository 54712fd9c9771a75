/* Creates the platform singleton and its root devices on first use. */
#include "platform.h"
#include <string.h>

const cl_name_version loom_extensions_with_version[LOOM_NUM_EXTENSIONS] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_3d_image_writes"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_depth_images"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_buffer"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_srgb_image_writes"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_intel_unified_shared_memory"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_il_program"},
    {CL_MAKE_VERSION(1, 0, 2), "cl_ext_buffer_device_address"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_extended_types"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_vote"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_ballot"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle_relative"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_clustered_reduce"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_rotate"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_intel_subgroups"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_intel_required_subgroup_size"},
};

static struct _cl_platform_id platform;
static struct _cl_device_id cpu_device;
static cl_device_id device_list[1];
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_create(void) {
  loom_object_init(&platform.obj, LOOM_PLATFORM, NULL);
  platform.num_devices = 0;
  platform.devices = device_list;

  memset(&cpu_device, 0, sizeof cpu_device);
  loom_object_init(&cpu_device.obj, LOOM_DEVICE, NULL);
  cpu_device.platform = &platform;
  if (loom_cpu_device_init(&cpu_device.desc, &cpu_device.ops) == 0)
    device_list[platform.num_devices++] = &cpu_device;
  else
    cpu_device.obj.kind = 0; /* a device that failed to start is no handle */
}

cl_platform_id loom_platform(void) {
  pthread_once(&platform_once, platform_create);
  return &platform;
}
