/* Internals of the CPU driver. */
#ifndef LOOM_CPU_H
#define LOOM_CPU_H
#include "device.h"

/* cpu_info.c: fills name, type, limits and simd width from the host. */
void loom_cpu_fill_info(struct loom_device_desc *dev) LOOM_HIDDEN;
/* cpu_ndrange.c: runs a launch on the thread pool */
void loom_cpu_ndrange(const struct loom_device_desc *dev, struct loom_launch *launch) LOOM_HIDDEN;
/* cpu_copy.c: chunked work on the device's cores (device.h, run_chunks) */
void loom_cpu_run_chunks(const struct loom_device_desc *dev, size_t chunks,
                         void (*fn)(void *ctx, size_t first, size_t count), void *ctx) LOOM_HIDDEN;
/* cpu_topology.c: the affinity domain of a core (device.h, core_domain) */
int loom_cpu_core_domain(const struct loom_device_desc *dev, unsigned core,
                         cl_device_affinity_domain level) LOOM_HIDDEN;
void loom_cpu_bind_cores(const struct loom_device_desc *dev) LOOM_HIDDEN;
/* the per-launch state it keeps in launch->device_state (cpu_ndrange.c) */
#define LOOM_CPU_LAUNCH_STATE_SIZE 320

#endif
