/* loominfo: lists every platform and device query, in the manner of clinfo.
 * A plain OpenCL application: it uses only the public API. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind {
  K_STRING, K_UINT, K_BOOL, K_ULONG, K_SIZE, K_SIZES, K_HEX, K_FLAGS,
  K_VERSION, K_NAME_VERSIONS, K_HANDLE, K_PARTITION, K_MEM_SIZE,
};

struct flag_name {
  cl_bitfield bit;
  const char *name;
};

struct query {
  cl_uint param;
  const char *name;
  enum kind kind;
  const struct flag_name *flags; /* K_FLAGS: bit names, NULL-terminated */
};

#define Q(p, k) {p, #p, k, NULL}
#define QF(p, f) {p, #p, K_FLAGS, f}

static const struct flag_name device_types[] = {
    {CL_DEVICE_TYPE_DEFAULT, "DEFAULT"}, {CL_DEVICE_TYPE_CPU, "CPU"},
    {CL_DEVICE_TYPE_GPU, "GPU"}, {CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR"},
    {CL_DEVICE_TYPE_CUSTOM, "CUSTOM"}, {0, NULL}};
static const struct flag_name fp_config[] = {
    {CL_FP_DENORM, "DENORM"}, {CL_FP_INF_NAN, "INF_NAN"},
    {CL_FP_ROUND_TO_NEAREST, "ROUND_TO_NEAREST"}, {CL_FP_ROUND_TO_ZERO, "ROUND_TO_ZERO"},
    {CL_FP_ROUND_TO_INF, "ROUND_TO_INF"}, {CL_FP_FMA, "FMA"},
    {CL_FP_SOFT_FLOAT, "SOFT_FLOAT"},
    {CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, "CORRECTLY_ROUNDED_DIVIDE_SQRT"}, {0, NULL}};
static const struct flag_name exec_caps[] = {
    {CL_EXEC_KERNEL, "KERNEL"}, {CL_EXEC_NATIVE_KERNEL, "NATIVE_KERNEL"}, {0, NULL}};
static const struct flag_name queue_props[] = {
    {CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "OUT_OF_ORDER_EXEC_MODE_ENABLE"},
    {CL_QUEUE_PROFILING_ENABLE, "PROFILING_ENABLE"}, {CL_QUEUE_ON_DEVICE, "ON_DEVICE"},
    {CL_QUEUE_ON_DEVICE_DEFAULT, "ON_DEVICE_DEFAULT"}, {0, NULL}};
static const struct flag_name svm_caps[] = {
    {CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "COARSE_GRAIN_BUFFER"},
    {CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "FINE_GRAIN_BUFFER"},
    {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "FINE_GRAIN_SYSTEM"},
    {CL_DEVICE_SVM_ATOMICS, "ATOMICS"}, {0, NULL}};
static const struct flag_name atomic_caps[] = {
    {CL_DEVICE_ATOMIC_ORDER_RELAXED, "ORDER_RELAXED"},
    {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "ORDER_ACQ_REL"},
    {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "ORDER_SEQ_CST"},
    {CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM, "SCOPE_WORK_ITEM"},
    {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "SCOPE_WORK_GROUP"},
    {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "SCOPE_DEVICE"},
    {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "SCOPE_ALL_DEVICES"}, {0, NULL}};
static const struct flag_name enqueue_caps[] = {
    {CL_DEVICE_QUEUE_SUPPORTED, "QUEUE_SUPPORTED"},
    {CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT, "QUEUE_REPLACEABLE_DEFAULT"}, {0, NULL}};
static const struct flag_name affinity[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, "NUMA"}, {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, "L4_CACHE"},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, "L3_CACHE"}, {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, "L2_CACHE"},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, "L1_CACHE"},
    {CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, "NEXT_PARTITIONABLE"}, {0, NULL}};

static const struct query platform_queries[] = {
    Q(CL_PLATFORM_NAME, K_STRING),
    Q(CL_PLATFORM_VENDOR, K_STRING),
    Q(CL_PLATFORM_VERSION, K_STRING),
    Q(CL_PLATFORM_NUMERIC_VERSION, K_VERSION),
    Q(CL_PLATFORM_PROFILE, K_STRING),
    Q(CL_PLATFORM_EXTENSIONS, K_STRING),
    Q(CL_PLATFORM_EXTENSIONS_WITH_VERSION, K_NAME_VERSIONS),
    Q(CL_PLATFORM_HOST_TIMER_RESOLUTION, K_ULONG),
    Q(CL_PLATFORM_ICD_SUFFIX_KHR, K_STRING),
};

static const struct query device_queries[] = {
    Q(CL_DEVICE_NAME, K_STRING),
    Q(CL_DEVICE_VENDOR, K_STRING),
    Q(CL_DEVICE_VENDOR_ID, K_HEX),
    QF(CL_DEVICE_TYPE, device_types),
    Q(CL_DEVICE_VERSION, K_STRING),
    Q(CL_DEVICE_NUMERIC_VERSION, K_VERSION),
    Q(CL_DRIVER_VERSION, K_STRING),
    Q(CL_DEVICE_PROFILE, K_STRING),
    Q(CL_DEVICE_OPENCL_C_VERSION, K_STRING),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, K_NAME_VERSIONS),
    Q(CL_DEVICE_OPENCL_C_FEATURES, K_NAME_VERSIONS),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, K_STRING),
    Q(CL_DEVICE_EXTENSIONS, K_STRING),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, K_NAME_VERSIONS),
    Q(CL_DEVICE_IL_VERSION, K_STRING),
    Q(CL_DEVICE_ILS_WITH_VERSION, K_NAME_VERSIONS),
    Q(CL_DEVICE_BUILT_IN_KERNELS, K_STRING),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, K_NAME_VERSIONS),
    Q(CL_DEVICE_PLATFORM, K_HANDLE),
    Q(CL_DEVICE_AVAILABLE, K_BOOL),
    Q(CL_DEVICE_COMPILER_AVAILABLE, K_BOOL),
    Q(CL_DEVICE_LINKER_AVAILABLE, K_BOOL),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, K_UINT),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, K_UINT),
    Q(CL_DEVICE_ADDRESS_BITS, K_UINT),
    Q(CL_DEVICE_ENDIAN_LITTLE, K_BOOL),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, K_UINT),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, K_SIZES),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, K_SIZE),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, K_SIZE),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, K_BOOL),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, K_BOOL),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, K_BOOL),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, K_UINT),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, K_BOOL),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, K_UINT),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, K_UINT),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, K_UINT),
    QF(CL_DEVICE_SINGLE_FP_CONFIG, fp_config),
    QF(CL_DEVICE_DOUBLE_FP_CONFIG, fp_config),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, K_HEX),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, K_UINT),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, K_UINT),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, K_HEX),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, K_UINT),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, K_UINT),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, K_SIZE),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, K_SIZE),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, K_SIZE),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, K_BOOL),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, K_BOOL),
    QF(CL_DEVICE_SVM_CAPABILITIES, svm_caps),
    QF(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, atomic_caps),
    QF(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, atomic_caps),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, K_UINT),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, K_UINT),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, K_UINT),
    Q(CL_DEVICE_IMAGE_SUPPORT, K_BOOL),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, K_UINT),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, K_UINT),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, K_UINT),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, K_SIZE),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, K_SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, K_SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, K_SIZE),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, K_SIZE),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, K_SIZE),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, K_SIZE),
    Q(CL_DEVICE_MAX_SAMPLERS, K_UINT),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, K_UINT),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, K_UINT),
    Q(CL_DEVICE_PIPE_SUPPORT, K_BOOL),
    Q(CL_DEVICE_MAX_PIPE_ARGS, K_UINT),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, K_UINT),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, K_UINT),
    QF(CL_DEVICE_EXECUTION_CAPABILITIES, exec_caps),
    QF(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, queue_props),
    QF(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, queue_props),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, K_UINT),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, K_UINT),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, K_UINT),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, K_UINT),
    QF(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, enqueue_caps),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, K_SIZE),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, K_MEM_SIZE),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, K_BOOL),
    Q(CL_DEVICE_PARENT_DEVICE, K_HANDLE),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, K_UINT),
    Q(CL_DEVICE_PARTITION_PROPERTIES, K_PARTITION),
    QF(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, affinity),
    Q(CL_DEVICE_PARTITION_TYPE, K_PARTITION),
    Q(CL_DEVICE_REFERENCE_COUNT, K_UINT),
};

static void print_flags(cl_bitfield v, const struct flag_name *names) {
  printf("0x%" PRIx64, (uint64_t)v);
  const char *sep = " (";
  for (const struct flag_name *f = names; f->name; f++)
    if (v & f->bit) {
      printf("%s%s", sep, f->name);
      sep = " | ";
    }
  if (sep[0] == ' ' && sep[1] == '|')
    printf(")");
}

static void print_mem_size(cl_ulong v) {
  printf("%" PRIu64, (uint64_t)v);
  if (v >= (1ull << 30))
    printf(" (%.1f GiB)", v / (double)(1ull << 30));
  else if (v >= (1ull << 20))
    printf(" (%.1f MiB)", v / (double)(1ull << 20));
  else if (v >= 1024)
    printf(" (%.1f KiB)", v / 1024.0);
}

static void print_version(cl_version v) {
  printf("%u.%u.%u", CL_VERSION_MAJOR(v), CL_VERSION_MINOR(v), CL_VERSION_PATCH(v));
}

/* Prints one query's value from its raw bytes. */
static void print_value(const struct query *q, const void *buf, size_t size) {
  switch (q->kind) {
  case K_STRING:
    printf("%s", size ? (const char *)buf : "");
    break;
  case K_UINT:
    printf("%u", *(const cl_uint *)buf);
    break;
  case K_HEX:
    printf("0x%x", *(const cl_uint *)buf);
    break;
  case K_BOOL:
    printf("%s", *(const cl_bool *)buf ? "true" : "false");
    break;
  case K_ULONG:
    printf("%" PRIu64, (uint64_t) * (const cl_ulong *)buf);
    break;
  case K_MEM_SIZE:
    print_mem_size(size == sizeof(size_t) ? *(const size_t *)buf : *(const cl_ulong *)buf);
    break;
  case K_SIZE:
    printf("%zu", *(const size_t *)buf);
    break;
  case K_SIZES:
    for (size_t i = 0; i < size / sizeof(size_t); i++)
      printf("%s%zu", i ? " x " : "", ((const size_t *)buf)[i]);
    break;
  case K_FLAGS:
    print_flags(size == sizeof(cl_bitfield) ? *(const cl_bitfield *)buf : *(const cl_uint *)buf,
                q->flags);
    break;
  case K_VERSION:
    print_version(*(const cl_version *)buf);
    break;
  case K_NAME_VERSIONS: {
    const cl_name_version *nv = buf;
    size_t n = size / sizeof *nv;
    if (!n)
      printf("(none)");
    for (size_t i = 0; i < n; i++) {
      printf("%s%s ", i ? ", " : "", nv[i].name);
      print_version(nv[i].version);
    }
    break;
  }
  case K_HANDLE:
    printf("%p", *(void *const *)buf);
    break;
  case K_PARTITION: {
    const cl_device_partition_property *p = buf;
    size_t n = size / sizeof *p;
    if (!n || p[0] == 0)
      printf("(none)");
    for (size_t i = 0; i < n && p[i]; i++)
      printf("%s0x%" PRIxPTR, i ? " " : "", (uintptr_t)p[i]);
    break;
  }
  }
}

typedef cl_int (*info_fn)(void *obj, cl_uint param, size_t size, void *value, size_t *ret);

static cl_int platform_info(void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
  return clGetPlatformInfo(obj, param, size, value, ret);
}

static cl_int device_info(void *obj, cl_uint param, size_t size, void *value, size_t *ret) {
  return clGetDeviceInfo(obj, param, size, value, ret);
}

static void print_queries(void *obj, info_fn fn, const struct query *qs, size_t n,
                          const char *indent) {
  for (size_t i = 0; i < n; i++) {
    size_t size = 0;
    printf("%s%-50s ", indent, qs[i].name);
    cl_int err = fn(obj, qs[i].param, 0, NULL, &size);
    void *buf = err == CL_SUCCESS ? calloc(1, size + 1) : NULL;
    if (err == CL_SUCCESS && !buf)
      err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS && size)
      err = fn(obj, qs[i].param, size, buf, NULL);
    if (err != CL_SUCCESS)
      printf("<error %d>", err);
    else
      print_value(&qs[i], buf, size);
    printf("\n");
    free(buf);
  }
}

int main(void) {
  cl_uint num_platforms = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &num_platforms);
  if (err != CL_SUCCESS || num_platforms == 0) {
    fprintf(stderr, "loominfo: no OpenCL platform (%d)\n", err);
    return 1;
  }
  cl_platform_id *platforms = calloc(num_platforms, sizeof *platforms);
  if (!platforms)
    return 1;
  clGetPlatformIDs(num_platforms, platforms, NULL);
  printf("Number of platforms: %u\n", num_platforms);
  for (cl_uint p = 0; p < num_platforms; p++) {
    printf("\nPlatform #%u\n", p);
    print_queries(platforms[p], platform_info, platform_queries,
                  sizeof platform_queries / sizeof *platform_queries, "  ");
    cl_uint num_devices = 0;
    err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &num_devices);
    if (err != CL_SUCCESS) {
      printf("  no devices (%d)\n", err);
      continue;
    }
    cl_device_id *devices = calloc(num_devices, sizeof *devices);
    if (!devices)
      break;
    clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, num_devices, devices, NULL);
    printf("  Number of devices: %u\n", num_devices);
    for (cl_uint d = 0; d < num_devices; d++) {
      printf("\n  Device #%u\n", d);
      print_queries(devices[d], device_info, device_queries,
                    sizeof device_queries / sizeof *device_queries, "    ");
    }
    free(devices);
  }
  free(platforms);
  return 0;
}
