/* Affinity domains of the CPU device's cores (clCreateSubDevices by
 * affinity domain): core c is worker thread c of the pool, which is bound
 * to the c-th CPU the process may use once a sub-device is made by
 * affinity, so that "the cores sharing an L2 cache" stays true while it
 * runs (until then the operating system moves the workers freely). Linux
 * describes the machine in sysfs: the files level, type and
 * shared_cpu_list of cpuN/cache/indexK for the caches, nodeN/cpulist for
 * NUMA nodes. A level sysfs does not describe has no domains (-1). */
#include "cpu.h"
#include "threadpool.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first CPU of a cpulist ("0-3,8-11" -> 0); -1 if unreadable. */
static int first_cpu_of_list(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  int cpu = -1;
  if (fscanf(f, "%d", &cpu) != 1)
    cpu = -1;
  fclose(f);
  return cpu;
}

/* Whether cpulist file path names cpu. */
static bool list_has_cpu(const char *path, int cpu) {
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  char line[4096];
  bool found = false;
  if (fgets(line, sizeof line, f)) {
    for (char *tok = strtok(line, ",\n"); tok && !found; tok = strtok(NULL, ",\n")) {
      int lo, hi;
      int n = sscanf(tok, "%d-%d", &lo, &hi);
      if (n == 1)
        hi = lo;
      found = n >= 1 && cpu >= lo && cpu <= hi;
    }
  }
  fclose(f);
  return found;
}

/* The first CPU sharing cpu's data (or unified) cache of `level`; -1. */
static int cache_domain(int cpu, int level) {
  for (int k = 0; k < 16; k++) {
    char path[256], type[32] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, k);
    FILE *f = fopen(path, "r");
    if (!f)
      return -1;
    int l = 0;
    if (fscanf(f, "%d", &l) != 1)
      l = 0;
    fclose(f);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, k);
    if ((f = fopen(path, "r"))) {
      if (fscanf(f, "%31s", type) != 1)
        type[0] = 0;
      fclose(f);
    }
    if (l != level || strcmp(type, "Instruction") == 0)
      continue;
    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, k);
    return first_cpu_of_list(path);
  }
  return -1;
}

/* The first CPU of cpu's NUMA node; -1. */
static int numa_domain(int cpu) {
  for (int node = 0; node < 1024; node++) {
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", node);
    FILE *f = fopen(path, "r");
    if (!f)
      return -1; /* nodes are numbered densely from 0 */
    fclose(f);
    if (list_has_cpu(path, cpu))
      return first_cpu_of_list(path);
  }
  return -1;
}

int loom_cpu_core_domain(const struct loom_device_desc *dev, unsigned core,
                         cl_device_affinity_domain level) {
  (void)dev;
  int cpu = core < loom_pool_size() ? loom_pool_cpu_of(core) : -1;
  if (cpu < 0)
    return -1;
  switch (level) {
  case CL_DEVICE_AFFINITY_DOMAIN_NUMA:
    return numa_domain(cpu);
  case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE:
    return cache_domain(cpu, 4);
  case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE:
    return cache_domain(cpu, 3);
  case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE:
    return cache_domain(cpu, 2);
  case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE:
    return cache_domain(cpu, 1);
  default:
    return -1;
  }
}

void loom_cpu_bind_cores(const struct loom_device_desc *dev) {
  (void)dev;
  loom_pool_pin();
}
