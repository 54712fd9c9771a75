/* Describes the host CPU as an OpenCL device, from what Linux reports in
 * /proc/cpuinfo and /sys. Every value has a safe fallback so the device still
 * comes up in a minimal container. */
#include "cpu.h"
#include "threadpool.h"
#include "cpu_printf.h"
#include <ctype.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIB ((cl_ulong)1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

/* The value of the first "key : value" line of /proc/cpuinfo whose key is
 * `key`, with surrounding and repeated blanks removed; NULL if absent. */
static char *cpuinfo_value(const char *key) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return NULL;
  char line[8192];
  char *result = NULL;
  size_t klen = strlen(key);
  while (!result && fgets(line, sizeof line, f)) {
    if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
      continue;
    char *colon = strchr(line, ':');
    if (!colon)
      continue;
    char *out = colon + 1, *w = out;
    bool blank = true; /* drops leading blanks and collapses runs */
    for (char *r = out; *r; r++) {
      if (isspace((unsigned char)*r)) {
        if (!blank)
          *w++ = ' ';
        blank = true;
      } else {
        *w++ = *r;
        blank = false;
      }
    }
    if (w > out && w[-1] == ' ')
      w--;
    *w = '\0';
    result = strdup(out);
  }
  fclose(f);
  return result;
}

/* A /proc/cpuinfo value kept for the process lifetime, or the fallback. */
static const char *cpuinfo_string(const char *key, const char *fallback) {
  char *v = cpuinfo_value(key);
  if (v && *v)
    return v;
  free(v);
  return fallback;
}

static bool cpu_has_flag(const char *flags, const char *flag) {
  size_t n = strlen(flag);
  for (const char *p = flags; p && (p = strstr(p, flag)); p += n) {
    bool starts = p == flags || p[-1] == ' ';
    bool ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends)
      return true;
  }
  return false;
}

static unsigned simd_width_bytes(void) {
  char *flags = cpuinfo_value("flags");
  unsigned width = 16;
  if (flags) {
    if (cpu_has_flag(flags, "avx512f"))
      width = 64;
    else if (cpu_has_flag(flags, "avx2"))
      width = 32;
    free(flags);
  }
#if defined(__x86_64__) || defined(__i386__)
  else {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
      width = 64;
    else if (__builtin_cpu_supports("avx2"))
      width = 32;
  }
#endif
  return width;
}

/* Reads one sysfs file as text; false if it cannot be read. */
static bool read_sysfs(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  bool ok = fgets(buf, (int)size, f) != NULL;
  fclose(f);
  return ok;
}

/* "32K", "1024K", "32M" -> bytes */
static cl_ulong parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  switch (toupper((unsigned char)*end)) {
  case 'K': return v * KIB;
  case 'M': return v * MIB;
  case 'G': return v * GIB;
  default: return v;
  }
}

/* The largest data cache (usually the last level) and the L1 data line size. */
static void read_caches(struct loom_device_limits *lim) {
  lim->global_cache_size = 0;
  lim->global_cacheline_size = 0;
  int best_level = 0;
  for (int i = 0; i < 16; i++) {
    char path[128], type[64], buf[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    if (!read_sysfs(path, type, sizeof type))
      break;
    if (strncmp(type, "Instruction", 11) == 0)
      continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    int level = read_sysfs(path, buf, sizeof buf) ? atoi(buf) : 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    cl_ulong size = read_sysfs(path, buf, sizeof buf) ? parse_size(buf) : 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
    unsigned line = read_sysfs(path, buf, sizeof buf) ? (unsigned)atoi(buf) : 0;
    if (level == 1 && line)
      lim->global_cacheline_size = line;
    if (level > best_level && size) {
      best_level = level;
      lim->global_cache_size = size;
    }
  }
  if (!lim->global_cacheline_size)
    lim->global_cacheline_size = 64;
  if (!lim->global_cache_size)
    lim->global_cache_size = 1 * MIB;
}

static cl_uint max_clock_mhz(void) {
  char buf[64];
  if (read_sysfs("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf, sizeof buf))
    return (cl_uint)(strtoull(buf, NULL, 10) / 1000); /* kHz */
  char *mhz = cpuinfo_value("cpu MHz");
  cl_uint v = mhz ? (cl_uint)(strtod(mhz, NULL) + 0.5) : 0;
  free(mhz);
  return v;
}

static cl_ulong physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 4 * GIB;
  return (cl_ulong)pages * (cl_ulong)page;
}

void loom_cpu_fill_info(struct loom_device_desc *dev) {
  dev->type = CL_DEVICE_TYPE_CPU;
  dev->name = cpuinfo_string("model name", "Host CPU");
  dev->vendor = cpuinfo_string("vendor_id", "LoomCL");
  /* the code generator targets exactly this host (strings kept for the
   * process lifetime, like the device itself) */
  dev->llvm_cpu = LLVMGetHostCPUName();
  dev->llvm_features = LLVMGetHostCPUFeatures();
  dev->simd_width_bytes = simd_width_bytes();
  dev->image_support = true;

  struct loom_device_limits *lim = &dev->lim;
  /* a compute unit is a worker thread of the pool (sub-devices are sets
   * of them) */
  lim->compute_units = loom_pool_size();
  /* LOOM_MAX_GROUP_ITEMS (builtins/loom_abi.h): the compiler bounds local ids by it */
  lim->max_work_group_size = 4096;
  lim->max_work_item_sizes[0] = lim->max_work_item_sizes[1] = lim->max_work_item_sizes[2] = 4096;
  lim->global_mem_size = physical_memory();
  /* at least the spec's minimum max(min(1 GiB, global/4), 32 MiB), and a
   * quarter of memory on large hosts */
  cl_ulong quarter = lim->global_mem_size / 4;
  cl_ulong floor = lim->global_mem_size < GIB ? lim->global_mem_size : GIB;
  lim->max_mem_alloc_size = quarter > floor ? quarter : floor;
  if (lim->max_mem_alloc_size < 32 * MIB)
    lim->max_mem_alloc_size = 32 * MIB;
  lim->local_mem_size = 256 * KIB;
  /* images are host memory like buffers: sizes as large as other CPU
   * implementations give, each still limited by max_mem_alloc_size */
  lim->image2d_max_width = lim->image2d_max_height = 65536;
  lim->image3d_max_width = lim->image3d_max_height = lim->image3d_max_depth = 8192;
  lim->image_max_buffer_size = 1 << 27;
  lim->image_max_array_size = 2048;
  lim->image_pitch_alignment = 1;
  lim->image_base_address_alignment = 4;
  lim->max_constant_buffer_size = 1 * MIB;
  lim->printf_buffer_size = LOOM_CPU_PRINTF_BUFFER_SIZE;
  read_caches(lim);
  lim->max_clock_mhz = max_clock_mhz();
  lim->max_parameter_size = 4096;
  lim->mem_base_addr_align_bits = 1024; /* long16: the largest built-in type */
}
