/* Device enumeration, every device query, partitioning, retain/release and
 * the device/host timers. */
#include "harness.h"
#include <CL/cl_ext.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

static char junk[256]; /* a pointer that is no OpenCL object */

static cl_platform_id the_platform;
static cl_device_id the_device;

static void test_device_ids(void) {
  cl_platform_id p = the_platform;
  cl_device_id d = NULL, list[3] = {NULL, NULL, NULL};
  cl_uint n = 0;
  const cl_device_type found_types[] = {
      CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_GPU};
  for (size_t i = 0; i < sizeof found_types / sizeof *found_types; i++) {
    n = 0;
    d = NULL;
    CHECK_OK(clGetDeviceIDs(p, found_types[i], 1, &d, &n));
    CHECK(n == 1 && d == the_device);
  }
  const cl_device_type missing_types[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                                          CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof missing_types / sizeof *missing_types; i++) {
    n = 7;
    CHECK_ERR(clGetDeviceIDs(p, missing_types[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
    CHECK(n == 0);
  }
  CHECK_ERR(clGetDeviceIDs(p, 0, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(p, (cl_device_type)1 << 20, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU | ((cl_device_type)1 << 40), 1, &d, NULL),
            CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceIDs((cl_platform_id)junk, CL_DEVICE_TYPE_ALL, 1, &d, NULL),
            CL_INVALID_PLATFORM);
  CHECK_ERR(clGetDeviceIDs((cl_platform_id)the_device, CL_DEVICE_TYPE_ALL, 1, &d, NULL),
            CL_INVALID_PLATFORM);
  /* counting only, and more room than devices */
  CHECK_OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
  CHECK(n == 1);
  CHECK_OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 3, list, NULL));
  CHECK(list[0] == the_device && list[1] == NULL);
  /* NULL selects LoomCL's platform */
  d = NULL;
  CHECK_OK(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  CHECK(d == the_device);
}

/* ---------- every query: size, too-small buffer, NULL buffer ---------- */

struct expected_size {
  cl_device_info param;
  size_t size; /* 0: variable (strings and arrays) */
};

#define U sizeof(cl_uint)
#define UL sizeof(cl_ulong)
#define SZ sizeof(size_t)
#define B sizeof(cl_bool)
#define BF sizeof(cl_bitfield)
static const struct expected_size queries[] = {
    {CL_DEVICE_TYPE, BF}, {CL_DEVICE_VENDOR_ID, U}, {CL_DEVICE_MAX_COMPUTE_UNITS, U},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, U}, {CL_DEVICE_MAX_WORK_GROUP_SIZE, SZ},
    {CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * SZ}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, U},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, U}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, U},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, U}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, U},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, U}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, U},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, U}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, U},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, U}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, U},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, U}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, U},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, U}, {CL_DEVICE_MAX_CLOCK_FREQUENCY, U},
    {CL_DEVICE_ADDRESS_BITS, U}, {CL_DEVICE_MAX_READ_IMAGE_ARGS, U},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, U}, {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, U},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, UL}, {CL_DEVICE_IMAGE2D_MAX_WIDTH, SZ},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, SZ}, {CL_DEVICE_IMAGE3D_MAX_WIDTH, SZ},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, SZ}, {CL_DEVICE_IMAGE3D_MAX_DEPTH, SZ},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, SZ}, {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, SZ},
    {CL_DEVICE_MAX_SAMPLERS, U}, {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, U},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, U}, {CL_DEVICE_MAX_PIPE_ARGS, U},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, U}, {CL_DEVICE_PIPE_MAX_PACKET_SIZE, U},
    {CL_DEVICE_IMAGE_SUPPORT, B}, {CL_DEVICE_MAX_PARAMETER_SIZE, SZ},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, U}, {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, U},
    {CL_DEVICE_SINGLE_FP_CONFIG, BF}, {CL_DEVICE_DOUBLE_FP_CONFIG, BF},
    {CL_DEVICE_HALF_FP_CONFIG, BF},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, U}, {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, U},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, UL}, {CL_DEVICE_GLOBAL_MEM_SIZE, UL},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, UL}, {CL_DEVICE_MAX_CONSTANT_ARGS, U},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, SZ},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, SZ}, {CL_DEVICE_LOCAL_MEM_TYPE, U},
    {CL_DEVICE_LOCAL_MEM_SIZE, UL}, {CL_DEVICE_ERROR_CORRECTION_SUPPORT, B},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, SZ}, {CL_DEVICE_ENDIAN_LITTLE, B},
    {CL_DEVICE_AVAILABLE, B}, {CL_DEVICE_COMPILER_AVAILABLE, B},
    {CL_DEVICE_LINKER_AVAILABLE, B}, {CL_DEVICE_EXECUTION_CAPABILITIES, BF},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, BF}, {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, BF},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, U}, {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, U},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, U}, {CL_DEVICE_MAX_ON_DEVICE_EVENTS, U},
    {CL_DEVICE_BUILT_IN_KERNELS, 0}, {CL_DEVICE_PLATFORM, sizeof(cl_platform_id)},
    {CL_DEVICE_NAME, 0}, {CL_DEVICE_VENDOR, 0}, {CL_DRIVER_VERSION, 0},
    {CL_DEVICE_PROFILE, 0}, {CL_DEVICE_VERSION, 0}, {CL_DEVICE_OPENCL_C_VERSION, 0},
    {CL_DEVICE_EXTENSIONS, 0}, {CL_DEVICE_PRINTF_BUFFER_SIZE, SZ},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, B}, {CL_DEVICE_HOST_UNIFIED_MEMORY, B},
    {CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)}, {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, U},
    {CL_DEVICE_PARTITION_PROPERTIES, 3 * sizeof(cl_device_partition_property)},
    {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, BF},
    {CL_DEVICE_PARTITION_TYPE, sizeof(cl_device_partition_property)},
    {CL_DEVICE_REFERENCE_COUNT, U}, {CL_DEVICE_SVM_CAPABILITIES, BF},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, U},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, U},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, U}, {CL_DEVICE_IL_VERSION, 0},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, U}, {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, B},
    {CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)},
    {CL_DEVICE_EXTENSIONS_WITH_VERSION, 27 * sizeof(cl_name_version)},
    {CL_DEVICE_ILS_WITH_VERSION, 0}, {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, BF}, {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, BF},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, B},
    {CL_DEVICE_OPENCL_C_ALL_VERSIONS, 4 * sizeof(cl_name_version)},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, SZ},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, B},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, B},
    {CL_DEVICE_OPENCL_C_FEATURES, 0}, /* test_versions_and_extensions */
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, BF}, {CL_DEVICE_PIPE_SUPPORT, B},
    {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, 0},
};

static void test_every_query(void) {
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
    const struct expected_size *q = &queries[i];
    size_t size = 12345;
    cl_int err = clGetDeviceInfo(the_device, q->param, 0, NULL, &size);
    if (err != CL_SUCCESS) {
      fprintf(stderr, "query 0x%x failed: %d\n", q->param, err);
      CHECK(err == CL_SUCCESS);
      continue;
    }
    if (q->size)
      CHECK(size == q->size);
    unsigned char *buf = malloc(size + 1);
    memset(buf, 0xAB, size + 1);
    CHECK_OK(clGetDeviceInfo(the_device, q->param, size, buf, NULL));
    CHECK(buf[size] == 0xAB); /* nothing written past the value */
    if (size > 0)
      CHECK_ERR(clGetDeviceInfo(the_device, q->param, size - 1, buf, NULL), CL_INVALID_VALUE);
    free(buf);
  }
  char buf[64];
  CHECK_ERR(clGetDeviceInfo(the_device, 0x0FFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceInfo(the_device, CL_PLATFORM_NAME, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clGetDeviceInfo((cl_device_id)junk, CL_DEVICE_NAME, sizeof buf, buf, NULL),
            CL_INVALID_DEVICE);
  CHECK_ERR(clGetDeviceInfo((cl_device_id)the_platform, CL_DEVICE_NAME, sizeof buf, buf, NULL),
            CL_INVALID_DEVICE);
}

/* ---------- values ---------- */

static cl_uint u32(cl_device_info p) {
  cl_uint v = 0xdeadbeef;
  CHECK_OK(clGetDeviceInfo(the_device, p, sizeof v, &v, NULL));
  return v;
}
static cl_ulong u64(cl_device_info p) {
  cl_ulong v = 0xdeadbeef;
  CHECK_OK(clGetDeviceInfo(the_device, p, sizeof v, &v, NULL));
  return v;
}
static size_t usize(cl_device_info p) {
  size_t v = 0xdeadbeef;
  CHECK_OK(clGetDeviceInfo(the_device, p, sizeof v, &v, NULL));
  return v;
}
static cl_bool boolean(cl_device_info p) {
  cl_bool v = 7;
  CHECK_OK(clGetDeviceInfo(the_device, p, sizeof v, &v, NULL));
  return v;
}
static const char *string(cl_device_info p) {
  static char buf[4][1024];
  static int next;
  char *s = buf[next++ % 4];
  s[0] = '\0';
  CHECK_OK(clGetDeviceInfo(the_device, p, sizeof buf[0], s, NULL));
  return s;
}

/* The first "key : value" of /proc/cpuinfo, blanks collapsed; "" if absent. */
static void cpuinfo(const char *key, char *out, size_t size) {
  out[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return;
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    size_t k = strlen(key);
    if (strncmp(line, key, k) != 0 || (line[k] != ' ' && line[k] != '\t' && line[k] != ':'))
      continue;
    char *v = strchr(line, ':');
    if (!v)
      continue;
    size_t n = 0;
    bool blank = true;
    for (v++; *v && n + 1 < size; v++) {
      if (isspace((unsigned char)*v)) {
        if (!blank)
          out[n++] = ' ';
        blank = true;
      } else {
        out[n++] = *v;
        blank = false;
      }
    }
    if (n && out[n - 1] == ' ')
      n--;
    out[n] = '\0';
    break;
  }
  fclose(f);
}

static bool has_word(const char *list, const char *word) {
  size_t n = strlen(word);
  for (const char *p = list; (p = strstr(p, word)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
      return true;
  return false;
}

static void test_identity(void) {
  cl_device_type type = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_DEVICE_TYPE_CPU);
  CHECK(u32(CL_DEVICE_VENDOR_ID) == 0x1000F);
  char model[512];
  cpuinfo("model name", model, sizeof model);
  CHECK(strcmp(string(CL_DEVICE_NAME), model[0] ? model : "Host CPU") == 0);
  char vendor[512];
  cpuinfo("vendor_id", vendor, sizeof vendor);
  CHECK(strcmp(string(CL_DEVICE_VENDOR), vendor[0] ? vendor : "LoomCL") == 0);
  CHECK(strlen(string(CL_DRIVER_VERSION)) > 0);
  CHECK(strcmp(string(CL_DEVICE_PROFILE), "FULL_PROFILE") == 0);
  CHECK(strncmp(string(CL_DEVICE_VERSION), "OpenCL 3.0 ", 11) == 0);
  CHECK(strcmp(string(CL_DEVICE_OPENCL_C_VERSION), "OpenCL C 1.2 ") == 0);
  CHECK(strcmp(string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED), "v2026-11-01-00") == 0);
  CHECK(strcmp(string(CL_DEVICE_BUILT_IN_KERNELS), "") == 0);
  CHECK(strcmp(string(CL_DEVICE_IL_VERSION),
               "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5") == 0);
  cl_version v = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_NUMERIC_VERSION, sizeof v, &v, NULL));
  CHECK(v == CL_MAKE_VERSION(3, 0, 0));
  cl_platform_id p = NULL;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_PLATFORM, sizeof p, &p, NULL));
  CHECK(p == the_platform);
  CHECK(boolean(CL_DEVICE_AVAILABLE) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
}

static void test_versions_and_extensions(void) {
  const char *exts = string(CL_DEVICE_EXTENSIONS);
  CHECK(strcmp(exts, 
        "cl_khr_icd cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_fp16 " "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics " "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics " "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics " "cl_khr_3d_image_writes cl_khr_depth_images cl_khr_image2d_from_buffer " "cl_khr_srgb_image_writes cl_intel_unified_shared_memory cl_khr_il_program cl_ext_buffer_device_address "
        "cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot "
        "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle "
        "cl_khr_subgroup_shuffle_relative cl_khr_subgroup_clustered_reduce "
        "cl_khr_subgroup_rotate cl_intel_subgroups cl_intel_required_subgroup_size") == 0);
  /* every device extension appears in the versioned list and vice versa */
  cl_name_version nv[32];
  size_t size = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof nv, nv, &size));
  size_t n = size / sizeof *nv, words = 0;
  for (size_t i = 0; i < n; i++)
    CHECK(has_word(exts, nv[i].name));
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", exts);
  for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "), words++) {
    bool found = false;
    for (size_t i = 0; i < n; i++)
      found |= strcmp(nv[i].name, w) == 0;
    CHECK(found);
  }
  CHECK(words == n);
  /* the platform reports the extensions every device has */
  char pexts[1024] = "";
  CHECK_OK(clGetPlatformInfo(the_platform, CL_PLATFORM_EXTENSIONS, sizeof pexts, pexts, NULL));
  CHECK(strcmp(pexts, exts) == 0);

  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof nv, nv, &size));
  CHECK(size == 4 * sizeof *nv);
  const cl_version want[] = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                             CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)};
  for (int i = 0; i < 4; i++)
    CHECK(nv[i].version == want[i] && strcmp(nv[i].name, "OpenCL C") == 0);

  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_OPENCL_C_FEATURES, sizeof nv, nv, &size));
  /* the device's OpenCL C 3.0 features, in any order */
  static const char *const features[] = {"__opencl_c_int64", "__opencl_c_fp64",
                                         "__opencl_c_work_group_collective_functions", "__opencl_c_subgroups",
                                         "__opencl_c_atomic_order_acq_rel",
                                         "__opencl_c_atomic_order_seq_cst",
                                         "__opencl_c_atomic_scope_device",
                                         "__opencl_c_atomic_scope_all_devices",
                                         "__opencl_c_generic_address_space",
                                         "__opencl_c_program_scope_global_variables",
                                         "__opencl_c_images", "__opencl_c_read_write_images",
                                         "__opencl_c_3d_image_writes"};
  size_t nfeat = sizeof features / sizeof *features;
  CHECK(size == nfeat * sizeof *nv);
  for (size_t f = 0; f < nfeat; f++) {
    int found = 0;
    for (size_t i = 0; i < size / sizeof *nv && i < sizeof nv / sizeof *nv; i++)
      found += strcmp(nv[i].name, features[f]) == 0 && nv[i].version == CL_MAKE_VERSION(3, 0, 0);
    CHECK(found == 1);
  }

  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size));
  CHECK(size == 6 * sizeof(cl_name_version)); /* SPIR-V 1.0 to 1.5 (test_spirv.c) */
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &size));
  CHECK(size == 0);
}

static unsigned host_simd_width(void) {
  char flags[8192];
  cpuinfo("flags", flags, sizeof flags);
  return has_word(flags, "avx512f") ? 64 : has_word(flags, "avx2") ? 32 : 16;
}

static void test_execution(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  CHECK(u32(CL_DEVICE_MAX_COMPUTE_UNITS) == (cl_uint)(cores > 0 ? cores : 1));
  CHECK(u32(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) == 3);
  size_t sizes[3] = {0, 0, 0};
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
  CHECK(sizes[0] == 4096 && sizes[1] == 4096 && sizes[2] == 4096);
  CHECK(usize(CL_DEVICE_MAX_WORK_GROUP_SIZE) == 4096);
  CHECK(u32(CL_DEVICE_ADDRESS_BITS) == 64);
  CHECK(boolean(CL_DEVICE_ENDIAN_LITTLE) == CL_TRUE);
  CHECK(usize(CL_DEVICE_MAX_PARAMETER_SIZE) == 4096);
  CHECK(usize(CL_DEVICE_PROFILING_TIMER_RESOLUTION) == 1);
  CHECK(usize(CL_DEVICE_PRINTF_BUFFER_SIZE) == 1024 * 1024);
  CHECK(boolean(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_FALSE);
  CHECK(u32(CL_DEVICE_MAX_NUM_SUB_GROUPS) == (cl_uint)usize(CL_DEVICE_MAX_WORK_GROUP_SIZE));
  CHECK(boolean(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC) == CL_TRUE);

  cl_device_exec_capabilities exec = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof exec, &exec, NULL));
  CHECK(exec == (CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL));
  cl_command_queue_properties qp = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof qp, &qp, NULL));
  CHECK(qp == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
  CHECK(qp == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof qp, &qp, NULL));
  CHECK(qp == 0);
  CHECK(u32(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE) == 0);
  CHECK(u32(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE) == 0);
  CHECK(u32(CL_DEVICE_MAX_ON_DEVICE_QUEUES) == 0);
  CHECK(u32(CL_DEVICE_MAX_ON_DEVICE_EVENTS) == 0);
  CHECK(u64(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0);

  /* vector widths scale with the widest vector register */
  unsigned simd = host_simd_width();
  const struct { cl_device_info pref, native; unsigned elem; } widths[] = {
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, 1},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, 2},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, 4},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, 8},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, 4},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, 8},
  };
  for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
    CHECK(u32(widths[i].pref) == simd / widths[i].elem);
    CHECK(u32(widths[i].native) == simd / widths[i].elem);
  }
  /* cl_khr_fp16: half arithmetic runs in float lanes */
  CHECK(u32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) == simd / 4);
  CHECK(u32(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) == simd / 2);
  CHECK(usize(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) == simd / 4);

  const cl_device_fp_config common = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                     CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  CHECK(u64(CL_DEVICE_SINGLE_FP_CONFIG) == (common | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT));
  CHECK(u64(CL_DEVICE_DOUBLE_FP_CONFIG) == common);
  CHECK(u64(CL_DEVICE_HALF_FP_CONFIG) == common);
  CHECK(u32(CL_DEVICE_MAX_CLOCK_FREQUENCY) < 100000);
}

static void test_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  cl_ulong global = u64(CL_DEVICE_GLOBAL_MEM_SIZE);
  CHECK(global == (cl_ulong)pages * (cl_ulong)page);
  cl_ulong max_alloc = u64(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  cl_ulong gib = 1024ull * 1024 * 1024, quarter = global / 4;
  cl_ulong spec_min = quarter < gib ? quarter : gib;
  if (spec_min < 32ull * 1024 * 1024)
    spec_min = 32ull * 1024 * 1024;
  CHECK(max_alloc >= spec_min && max_alloc >= quarter && max_alloc <= global);
  CHECK(u64(CL_DEVICE_LOCAL_MEM_SIZE) == 256 * 1024);
  CHECK(u32(CL_DEVICE_LOCAL_MEM_TYPE) == CL_LOCAL);
  CHECK(u32(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE) == CL_READ_WRITE_CACHE);
  cl_uint line = u32(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
  CHECK(line >= 16 && (line & (line - 1)) == 0);
  CHECK(u64(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) > 0);
  CHECK(u64(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
  CHECK(u32(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  CHECK(u32(CL_DEVICE_MEM_BASE_ADDR_ALIGN) == 1024);
  CHECK(u32(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE) == 128);
  CHECK(boolean(CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE);
  CHECK(boolean(CL_DEVICE_ERROR_CORRECTION_SUPPORT) == CL_FALSE);
  CHECK(usize(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) == 1024 * 1024);
  CHECK(usize(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) == 16 * 1024 * 1024);
  CHECK(u64(CL_DEVICE_SVM_CAPABILITIES) ==
        (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
  CHECK(u32(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT) == 0);
  CHECK(u32(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT) == 0);
  CHECK(u32(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT) == 0);
  const cl_device_atomic_capabilities atomics =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  CHECK(u64(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES) == atomics);
  CHECK(u64(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) == (atomics | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));
}

/* Images: supported, with at least the full profile's minimums
 * (table 4.3 of the API spec). */
static void test_image_limits(void) {
  CHECK(boolean(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  CHECK(u32(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CHECK(u32(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  CHECK(u32(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
  CHECK(u32(CL_DEVICE_MAX_SAMPLERS) >= 16);
  CHECK(usize(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384 && usize(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  CHECK(usize(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048 && usize(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CHECK(usize(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CHECK(usize(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CHECK(usize(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  cl_uint pitch = u32(CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  cl_uint base = u32(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  CHECK(pitch >= 1 && (pitch & (pitch - 1)) == 0 && base >= 1 && (base & (base - 1)) == 0);
}

static void test_unsupported_features(void) {
  const cl_device_info zero_uints[] = {
      CL_DEVICE_MAX_PIPE_ARGS, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
      CL_DEVICE_PIPE_MAX_PACKET_SIZE};
  for (size_t i = 0; i < sizeof zero_uints / sizeof *zero_uints; i++)
    CHECK(u32(zero_uints[i]) == 0);
  CHECK(boolean(CL_DEVICE_PIPE_SUPPORT) == CL_FALSE);
}

/* a root device's partition queries; sub-devices: test_sub_devices.c */
static void test_partitioning(void) {
  cl_device_id parent = (cl_device_id)junk;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
  CHECK(parent == NULL);
  CHECK(u32(CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == u32(CL_DEVICE_MAX_COMPUTE_UNITS));
  cl_device_partition_property props[4] = {1, 1, 1, 1};
  size_t size = 0;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, &size));
  CHECK(size == 3 * sizeof props[0] && props[0] == CL_DEVICE_PARTITION_EQUALLY &&
        props[1] == CL_DEVICE_PARTITION_BY_COUNTS &&
        props[2] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
  props[0] = 1;
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_PARTITION_TYPE, sizeof props, props, &size));
  CHECK(size == sizeof props[0] && props[0] == 0);
}

static void test_retain_release(void) {
  for (int i = 0; i < 3; i++)
    CHECK_OK(clRetainDevice(the_device));
  for (int i = 0; i < 5; i++) /* more releases than retains: root devices do not count */
    CHECK_OK(clReleaseDevice(the_device));
  CHECK(u32(CL_DEVICE_REFERENCE_COUNT) == 1);
  char name[256];
  CHECK_OK(clGetDeviceInfo(the_device, CL_DEVICE_NAME, sizeof name, name, NULL));
  CHECK_ERR(clRetainDevice(NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clReleaseDevice(NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clRetainDevice((cl_device_id)junk), CL_INVALID_DEVICE);
  CHECK_ERR(clReleaseDevice((cl_device_id)the_platform), CL_INVALID_DEVICE);
}

static cl_ulong monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

static void test_timers(void) {
  cl_ulong dev = 0, host = 0, host2 = 0;
  cl_ulong before = monotonic_ns();
  CHECK_OK(clGetDeviceAndHostTimer(the_device, &dev, &host));
  CHECK_OK(clGetHostTimer(the_device, &host2));
  cl_ulong after = monotonic_ns();
  CHECK(before <= dev && dev <= after);
  CHECK(before <= host && host <= after);
  CHECK(host <= host2 && host2 <= after);
  CHECK_ERR(clGetDeviceAndHostTimer(the_device, NULL, &host), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceAndHostTimer(the_device, &dev, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceAndHostTimer(NULL, &dev, &host), CL_INVALID_DEVICE);
  CHECK_ERR(clGetDeviceAndHostTimer((cl_device_id)junk, &dev, &host), CL_INVALID_DEVICE);
  CHECK_ERR(clGetHostTimer(the_device, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetHostTimer(NULL, &host), CL_INVALID_DEVICE);
  CHECK_ERR(clGetHostTimer((cl_device_id)the_platform, &host), CL_INVALID_DEVICE);
}

int main(void) {
  if (clGetPlatformIDs(1, &the_platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(the_platform, CL_DEVICE_TYPE_ALL, 1, &the_device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no LoomCL device\n");
    return 1;
  }
  test_device_ids();
  test_every_query();
  test_identity();
  test_versions_and_extensions();
  test_execution();
  test_memory();
  test_image_limits();
  test_unsupported_features();
  test_partitioning();
  test_retain_release();
  test_timers();
  return test_finish("test_device");
}
