/* Device enumeration, queries, partitioning and timers. */
#include "checks.h"
#include "subdevice.h"
#include "platform.h"
#include "frontend/opencl_features.h"
#include "loom_abi.h"
#include <CL/cl_ext.h>
#include <string.h>

/* CL_DEVICE_VENDOR_ID: a value outside the PCI vendor range and not among the
 * Khronos-assigned vendor ids (0x10000-0x10007 at the time of writing). */
#define LOOM_VENDOR_ID 0x1000Fu

/* CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the OpenCL 3.0 minimum is 64 KiB */
#define LOOM_MAX_GLOBAL_VARIABLE_SIZE ((size_t)1 << 20)

#define VALID_DEVICE_TYPES                                                     \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |          \
   CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)

static bool device_matches(cl_platform_id p, cl_uint index, cl_device_type want) {
  cl_device_type type = p->devices[index]->desc.type;
  if (want == CL_DEVICE_TYPE_ALL)
    return !(type & CL_DEVICE_TYPE_CUSTOM);
  if ((want & CL_DEVICE_TYPE_DEFAULT) && index == 0) /* the first is the default */
    return true;
  return (type & want & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT) != 0;
}

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                      cl_uint num_entries, cl_device_id *devices,
                      cl_uint *num_devices) {
  cl_platform_id p = loom_platform_arg(platform);
  /* CL_INVALID_PLATFORM if platform is not a valid platform */
  if (!p)
    return LOOM_FAIL(CL_INVALID_PLATFORM, "platform is not a valid platform");
  /* Any value holding every bit of CL_DEVICE_TYPE_ALL means "all", as in
   * PoCL and the vendors' implementations: applications select devices with
   * ~0 (all 64 bits set); the spec only defines CL_DEVICE_TYPE_ALL itself and
   * leaves the bits above it unassigned (docs/THIRD_PARTY.md). */
  if ((device_type & CL_DEVICE_TYPE_ALL) == CL_DEVICE_TYPE_ALL)
    device_type = CL_DEVICE_TYPE_ALL;
  /* CL_INVALID_DEVICE_TYPE if device_type is not a valid value */
  if (device_type == 0 ||
      (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~(cl_device_type)VALID_DEVICE_TYPES)))
    return LOOM_FAIL(CL_INVALID_DEVICE_TYPE, "device_type is not a valid device type");
  /* CL_INVALID_VALUE if num_entries is equal to zero and devices is not
   * NULL or if both num_devices and devices are NULL */
  if (num_entries == 0 && devices)
    return LOOM_FAIL(CL_INVALID_VALUE, "num_entries is 0 and devices is not NULL");
  if (!devices && !num_devices)
    return LOOM_FAIL(CL_INVALID_VALUE, "devices and num_devices are both NULL");
  cl_uint found = 0;
  for (cl_uint i = 0; i < p->num_devices; i++) {
    if (!device_matches(p, i, device_type))
      continue;
    if (devices && found < num_entries)
      devices[found] = p->devices[i];
    found++;
  }
  if (num_devices)
    *num_devices = found;
  if (!found)
    return LOOM_FAIL(CL_DEVICE_NOT_FOUND, "no device of the platform matches device_type");
  return CL_SUCCESS;
}

/* CL_DEVICE_OPENCL_C_FEATURES: the table the front end compiles with
 * (frontend/opencl_features.h), the fp64 row included: every LoomCL device
 * has doubles (cl_khr_fp64) */
#define FEATURE(name, version, when) LOOM_CLC_IF_SUPPORTED(when, {version, name})
static const cl_name_version opencl_c_features[] = {LOOM_OPENCL_C_FEATURES(FEATURE)};
#undef FEATURE

/* the queries that mirror a feature say what the table says */
static cl_bool has_feature(const char *name) {
  for (size_t i = 0; i < sizeof opencl_c_features / sizeof opencl_c_features[0]; i++)
    if (!strcmp(opencl_c_features[i].name, name))
      return CL_TRUE;
  return CL_FALSE;
}

#define INFO_ARRAY(arr)                                                        \
  return loom_info(param_value_size, param_value, param_value_size_ret, (arr), \
                   sizeof(arr))

/* The partition schemes every device supports (CL_DEVICE_PARTITION_PROPERTIES). */
static const cl_device_partition_property partition_schemes[] = {
    CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
    CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                       size_t param_value_size, void *param_value,
                       size_t *param_value_size_ret) {
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  const struct loom_device_limits *lim = &device->desc.lim;
  const cl_uint simd = device->desc.simd_width_bytes;
  const cl_device_fp_config fp_common = CL_FP_DENORM | CL_FP_INF_NAN |
      CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  const bool images = device->desc.image_support;

  switch (param_name) {
  /* identity */
  case CL_DEVICE_TYPE:
    LOOM_INFO_SCALAR(cl_device_type, device->desc.type);
  case CL_DEVICE_VENDOR_ID:
    LOOM_INFO_SCALAR(cl_uint, LOOM_VENDOR_ID);
  case CL_DEVICE_NAME:
    LOOM_INFO_STRING(device->desc.name);
  case CL_DEVICE_VENDOR:
    LOOM_INFO_STRING(device->desc.vendor);
  case CL_DRIVER_VERSION:
    LOOM_INFO_STRING(LOOMCL_VERSION_STRING);
  case CL_DEVICE_PROFILE:
    LOOM_INFO_STRING("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    LOOM_INFO_STRING("OpenCL 3.0 LoomCL");
  case CL_DEVICE_NUMERIC_VERSION:
    LOOM_INFO_SCALAR(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    LOOM_INFO_STRING("OpenCL C 1.2 ");
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    static const cl_name_version versions[] = {
        {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
        {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
        {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
        {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
    };
    INFO_ARRAY(versions);
  }
  case CL_DEVICE_OPENCL_C_FEATURES:
    INFO_ARRAY(opencl_c_features);
  case CL_DEVICE_EXTENSIONS:
    LOOM_INFO_STRING(LOOM_EXTENSIONS);
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    INFO_ARRAY(loom_extensions_with_version);
  /* SPIR-V through the SPIRV-LLVM translator (src/compiler/frontend/spirv.c) */
  case CL_DEVICE_IL_VERSION:
    LOOM_INFO_STRING("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5");
  case CL_DEVICE_ILS_WITH_VERSION: {
    static const cl_name_version ils[] = {
        {CL_MAKE_VERSION(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"},
        {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 5, 0), "SPIR-V"},
    };
    return loom_info(param_value_size, param_value, param_value_size_ret, ils, sizeof ils);
  }
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return loom_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_DEVICE_BUILT_IN_KERNELS:
    LOOM_INFO_STRING("");
  case CL_DEVICE_PLATFORM:
    LOOM_INFO_SCALAR(cl_platform_id, device->platform);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    LOOM_INFO_STRING("v2026-11-01-00");

  /* execution model */
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    LOOM_INFO_SCALAR(cl_uint, lim->compute_units);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    LOOM_INFO_SCALAR(cl_uint, 3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    INFO_ARRAY(lim->max_work_item_sizes);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    LOOM_INFO_SCALAR(size_t, lim->max_work_group_size);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    LOOM_INFO_SCALAR(size_t, simd / 4); /* floats per vector register */
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, CL_TRUE);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, has_feature("__opencl_c_generic_address_space"));
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, has_feature("__opencl_c_work_group_collective_functions"));
  case CL_DEVICE_PIPE_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, has_feature("__opencl_c_pipes"));
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, CL_FALSE);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    /* sub-groups are runs along dimension 0 of each row (kernel_sub_groups.c) */
    LOOM_INFO_SCALAR(cl_uint, (cl_uint)lim->max_work_group_size);
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
    size_t sizes[8], n = 0;
    for (size_t v = LOOM_SG_MIN_SIZE; v <= LOOM_SG_MAX_SIZE && n < 8; v *= 2)
      sizes[n++] = v;
    return loom_info(param_value_size, param_value, param_value_size_ret, sizes, n * sizeof sizes[0]);
  }
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    LOOM_INFO_SCALAR(cl_uint, lim->max_clock_mhz);
  case CL_DEVICE_ADDRESS_BITS:
    LOOM_INFO_SCALAR(cl_uint, sizeof(void *) * 8);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    LOOM_INFO_SCALAR(cl_device_exec_capabilities, CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: /* == CL_DEVICE_QUEUE_PROPERTIES */
    LOOM_INFO_SCALAR(cl_command_queue_properties,
                     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    LOOM_INFO_SCALAR(cl_command_queue_properties, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    LOOM_INFO_SCALAR(cl_uint, 0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    LOOM_INFO_SCALAR(cl_device_device_enqueue_capabilities, 0);
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    LOOM_INFO_SCALAR(cl_bool, CL_TRUE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    LOOM_INFO_SCALAR(size_t, 1);
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    LOOM_INFO_SCALAR(size_t, lim->printf_buffer_size);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    LOOM_INFO_SCALAR(size_t, lim->max_parameter_size);

  /* vector widths follow the widest vector register */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    LOOM_INFO_SCALAR(cl_uint, simd);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    LOOM_INFO_SCALAR(cl_uint, simd / 2);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    LOOM_INFO_SCALAR(cl_uint, simd / 4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    LOOM_INFO_SCALAR(cl_uint, simd / 8);
  /* cl_khr_fp16: a register holds simd / 2 halves; arithmetic runs in float
   * lanes (converted on load and store), so the preferred width is a float's */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    LOOM_INFO_SCALAR(cl_uint, simd / 4);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    LOOM_INFO_SCALAR(cl_uint, simd / 2);

  /* floating point */
  case CL_DEVICE_SINGLE_FP_CONFIG:
    LOOM_INFO_SCALAR(cl_device_fp_config, fp_common | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    LOOM_INFO_SCALAR(cl_device_fp_config, fp_common);
  /* cl_khr_fp16: + - * / sqrt are computed in float and rounded once (exact
   * for half), fma in double with round-to-odd, conversions in every mode */
  case CL_DEVICE_HALF_FP_CONFIG:
    LOOM_INFO_SCALAR(cl_device_fp_config, fp_common);

  /* memory */
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, lim->global_mem_size);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, lim->max_mem_alloc_size);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    LOOM_INFO_SCALAR(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    LOOM_INFO_SCALAR(cl_uint, lim->global_cacheline_size);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, lim->global_cache_size);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, lim->max_constant_buffer_size);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    LOOM_INFO_SCALAR(cl_uint, 16);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    LOOM_INFO_SCALAR(cl_device_local_mem_type, CL_LOCAL);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    LOOM_INFO_SCALAR(cl_ulong, lim->local_mem_size);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    LOOM_INFO_SCALAR(cl_uint, lim->mem_base_addr_align_bits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    LOOM_INFO_SCALAR(cl_uint, 128); /* bytes of long16 */
  /* program-scope variables live in the program's loaded code, one copy
   * per program */
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    LOOM_INFO_SCALAR(size_t, LOOM_MAX_GLOBAL_VARIABLE_SIZE);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    LOOM_INFO_SCALAR(size_t, 16 * LOOM_MAX_GLOBAL_VARIABLE_SIZE);
  case CL_DEVICE_SVM_CAPABILITIES:
    /* kernels compute in host memory: every kind of sharing is native
     * (core/svm.h) */
    LOOM_INFO_SCALAR(cl_device_svm_capabilities,
                     CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
  /* cl_intel_unified_shared_memory: every kind is host memory that the
   * host and kernels access at once, atomically too */
  case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
    LOOM_INFO_SCALAR(cl_device_unified_shared_memory_capabilities_intel,
                     CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
                         CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                         CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                         CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    LOOM_INFO_SCALAR(cl_uint, 0); /* natural alignment */
  /* every order and scope: atomics are host atomic instructions */
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    LOOM_INFO_SCALAR(cl_device_atomic_capabilities,
                     CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                         CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                         CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    LOOM_INFO_SCALAR(cl_device_atomic_capabilities,
                     CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                         CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                         CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                         CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);

  /* images and samplers: none of these limit a CPU (an image argument is
   * one pointer); the values are the full profile's minimums or more */
  case CL_DEVICE_IMAGE_SUPPORT:
    LOOM_INFO_SCALAR(cl_bool, images ? CL_TRUE : CL_FALSE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    LOOM_INFO_SCALAR(cl_uint, images ? 128 : 0);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    LOOM_INFO_SCALAR(cl_uint, images ? 64 : 0);
  case CL_DEVICE_MAX_SAMPLERS:
    LOOM_INFO_SCALAR(cl_uint, images ? 16 : 0);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    LOOM_INFO_SCALAR(cl_uint, images ? lim->image_pitch_alignment : 0);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    LOOM_INFO_SCALAR(cl_uint, images ? lim->image_base_address_alignment : 0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    LOOM_INFO_SCALAR(size_t, images ? lim->image2d_max_width : 0);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    LOOM_INFO_SCALAR(size_t, images ? lim->image2d_max_height : 0);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    LOOM_INFO_SCALAR(size_t, images ? lim->image3d_max_width : 0);
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    LOOM_INFO_SCALAR(size_t, images ? lim->image3d_max_height : 0);
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    LOOM_INFO_SCALAR(size_t, images ? lim->image3d_max_depth : 0);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    LOOM_INFO_SCALAR(size_t, images ? lim->image_max_buffer_size : 0);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    LOOM_INFO_SCALAR(size_t, images ? lim->image_max_array_size : 0);
  /* pipes (not supported yet) */
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    LOOM_INFO_SCALAR(cl_uint, 0);

  /* partitioning (src/core/subdevice.c): every compute unit can be a
   * sub-device of its own */
  case CL_DEVICE_PARENT_DEVICE:
    LOOM_INFO_SCALAR(cl_device_id, device->parent);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    LOOM_INFO_SCALAR(cl_uint, lim->compute_units);
  case CL_DEVICE_PARTITION_PROPERTIES:
    return loom_info(param_value_size, param_value, param_value_size_ret, partition_schemes,
                     sizeof partition_schemes);
  case CL_DEVICE_PARTITION_TYPE:
    /* a sub-device: the properties it was made with; a root device: 0 */
    if (device->parent)
      return loom_info(param_value_size, param_value, param_value_size_ret, device->partition,
                       device->num_partition * sizeof *device->partition);
    LOOM_INFO_SCALAR(cl_device_partition_property, 0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    LOOM_INFO_SCALAR(cl_device_affinity_domain, loom_device_affinity_domains(device));
  case CL_DEVICE_REFERENCE_COUNT:
    LOOM_INFO_SCALAR(cl_uint, device->parent ? atomic_load(&device->obj.ext_refs) : 1);

  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "param_name is not a device query");
  }
}

/* One CL_DEVICE_AFFINITY_DOMAIN_* value (a single bit). */
static bool is_affinity_level(cl_device_partition_property v) {
  return v == CL_DEVICE_AFFINITY_DOMAIN_NUMA || v == CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE ||
         v == CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE || v == CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE ||
         v == CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE ||
         v == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
}

cl_int clCreateSubDevices(cl_device_id in_device,
                          const cl_device_partition_property *properties,
                          cl_uint num_devices, cl_device_id *out_devices,
                          cl_uint *num_devices_ret) {
  /* CL_INVALID_DEVICE if in_device is not valid */
  if (!loom_object_is(in_device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "in_device is not a valid device");
  /* CL_INVALID_VALUE if values specified in properties are not valid or
   * if values specified in properties are valid but not supported by the
   * device (only one scheme, its value(s), then 0) */
  if (!properties || properties[0] == 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "properties names no partition scheme");
  cl_uint units = in_device->desc.lim.compute_units;
  struct loom_partition p = {.type = properties[0]};
  size_t end; /* index of the terminating 0 */
  cl_uint counts_small[64], *counts = counts_small;
  switch (properties[0]) {
  case CL_DEVICE_PARTITION_EQUALLY:
    if (properties[1] <= 0 || properties[1] > UINT32_MAX)
      return LOOM_FAIL(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY's count is not >= 1");
    /* more units per sub-device than the device has: what the spec says
     * of counts adding up to more than CL_DEVICE_MAX_COMPUTE_UNITS (the
     * CTS asks the same of this scheme) */
    if (properties[1] > units)
      return LOOM_FAIL(CL_INVALID_DEVICE_PARTITION_COUNT,
                       "CL_DEVICE_PARTITION_EQUALLY asks for more than CL_DEVICE_MAX_COMPUTE_UNITS");
    p.per_device = (cl_uint)properties[1];
    end = 2;
    break;
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    /* CL_INVALID_DEVICE_PARTITION_COUNT if the number of sub-devices
     * requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES or the total
     * number of compute units requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS
     * for in_device, or the number of compute units requested for one or
     * more sub-devices is less than zero */
    size_t i = 1;
    uint64_t sum = 0;
    cl_uint nonzero = 0;
    for (; properties[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
      if (properties[i] < 0)
        return LOOM_FAILF_IN(__func__, CL_INVALID_DEVICE_PARTITION_COUNT,
                             "count %zu of CL_DEVICE_PARTITION_BY_COUNTS is negative", i - 1);
      if (properties[i] > 0 && ++nonzero > units)
        return LOOM_FAIL(CL_INVALID_DEVICE_PARTITION_COUNT,
                         "more counts than CL_DEVICE_PARTITION_MAX_SUB_DEVICES");
      sum += (uint64_t)properties[i];
      if (sum > units)
        return LOOM_FAIL(CL_INVALID_DEVICE_PARTITION_COUNT,
                         "the counts add up to more than CL_DEVICE_MAX_COMPUTE_UNITS");
    }
    if (nonzero == 0)
      return LOOM_FAIL(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_BY_COUNTS lists no non-zero count");
    if (nonzero > sizeof counts_small / sizeof *counts_small &&
        !(counts = malloc(nonzero * sizeof *counts)))
      return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the counts failed");
    for (size_t k = 1; k < i; k++)
      if (properties[k] > 0)
        counts[p.num_counts++] = (cl_uint)properties[k];
    p.counts = counts;
    end = i + 1;
    break;
  }
  case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
    if (!is_affinity_level(properties[1]))
      return LOOM_FAIL(CL_INVALID_VALUE, "the affinity domain is not one CL_DEVICE_AFFINITY_DOMAIN_*");
    if (!(loom_device_affinity_domains(in_device) & (cl_device_affinity_domain)properties[1]))
      return LOOM_FAIL(CL_INVALID_VALUE,
                       "the device cannot be split along that affinity domain (see "
                       "CL_DEVICE_PARTITION_AFFINITY_DOMAIN)");
    p.domain = (cl_device_affinity_domain)properties[1];
    end = 2;
    break;
  default:
    return LOOM_FAIL(CL_INVALID_VALUE, "properties[0] is not a partition scheme");
  }
  cl_int err = CL_SUCCESS;
  if (properties[end] != 0)
    err = LOOM_FAIL(CL_INVALID_VALUE, "properties has more than one partition scheme");
  /* CL_INVALID_VALUE if out_devices is not NULL and num_devices is 0 (less
   * than any number of sub-devices) */
  else if (out_devices && num_devices == 0)
    err = LOOM_FAIL(CL_INVALID_VALUE, "out_devices is not NULL and num_devices is 0");
  else
    err = loom_device_partition(in_device, &p, properties, end + 1, num_devices, out_devices,
                                num_devices_ret);
  if (counts != counts_small)
    free(counts);
  if (err == CL_DEVICE_PARTITION_FAILED)
    return LOOM_FAIL(CL_DEVICE_PARTITION_FAILED, "in_device cannot be partitioned that way");
  if (err == CL_INVALID_VALUE)
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "num_devices is less than the number of sub-devices, or the affinity "
                     "level is not described by the machine");
  if (err != CL_SUCCESS)
    return LOOM_FAIL(err, "creating the sub-devices failed");
  return CL_SUCCESS;
}

/* Only sub-devices are reference counted; root devices live as long as the
 * process and keep a count of 1. */
cl_int clRetainDevice(cl_device_id device) {
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  if (device->parent)
    loom_retain_ext(&device->obj);
  return CL_SUCCESS;
}

cl_int clReleaseDevice(cl_device_id device) {
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  if (device->parent)
    loom_release_ext(&device->obj);
  return CL_SUCCESS;
}

/* The device runs on the host, so both timers are CLOCK_MONOTONIC, the same
 * clock that stamps profiling events. */
cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                               cl_ulong *host_timestamp) {
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  if (!device_timestamp)
    return LOOM_FAIL(CL_INVALID_VALUE, "device_timestamp is NULL");
  if (!host_timestamp)
    return LOOM_FAIL(CL_INVALID_VALUE, "host_timestamp is NULL");
  *device_timestamp = *host_timestamp = loom_now_ns();
  return CL_SUCCESS;
}

cl_int clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  if (!loom_object_is(device, LOOM_DEVICE))
    return LOOM_FAIL(CL_INVALID_DEVICE, "device is not a valid device");
  if (!host_timestamp)
    return LOOM_FAIL(CL_INVALID_VALUE, "host_timestamp is NULL");
  *host_timestamp = loom_now_ns();
  return CL_SUCCESS;
}
