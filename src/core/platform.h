/* The one LoomCL platform and its devices. */
#ifndef LOOM_PLATFORM_H
#define LOOM_PLATFORM_H
#include "loom.h"

/* The process-wide platform, created on first use; never freed. Its devices
 * are root devices that also live for the whole process. */
cl_platform_id loom_platform(void) LOOM_HIDDEN;

/* The platform an entry point should use for its platform argument: NULL
 * selects LoomCL's platform (the spec leaves NULL implementation-defined);
 * returns NULL for anything that is not a valid platform. */
static inline cl_platform_id loom_platform_arg(cl_platform_id p) {
  cl_platform_id ours = loom_platform();
  return (p == NULL || p == ours) ? ours : NULL;
}

/* The extensions every LoomCL device supports; the platform reports them too,
 * as the spec asks for extensions common to all of its devices. Sub-groups
 * are OpenCL 3.0's optional feature (__opencl_c_subgroups), not
 * cl_khr_subgroups: that extension promises independent forward progress
 * between sub-groups, which LoomCL's do not make (docs/COMPILER.md). */
#define LOOM_EXTENSIONS                                                        \
  "cl_khr_icd cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_fp16 "          \
  "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "     \
  "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "       \
  "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "                  \
  "cl_khr_3d_image_writes cl_khr_depth_images cl_khr_image2d_from_buffer "    \
  "cl_khr_srgb_image_writes cl_intel_unified_shared_memory cl_khr_il_program "   \
  "cl_ext_buffer_device_address cl_khr_subgroup_extended_types "                \
  "cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot "                    \
  "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle "             \
  "cl_khr_subgroup_shuffle_relative cl_khr_subgroup_clustered_reduce "          \
  "cl_khr_subgroup_rotate cl_intel_subgroups cl_intel_required_subgroup_size"
/* The same list as cl_name_version entries (LOOM_NUM_EXTENSIONS of them). */
#define LOOM_NUM_EXTENSIONS 27
extern const cl_name_version loom_extensions_with_version[LOOM_NUM_EXTENSIONS] LOOM_HIDDEN;

#endif
