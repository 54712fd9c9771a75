/* Internals of the CPU driver. */
#ifndef LOOM_CPU_H
#define LOOM_CPU_H
#include "../device.h"

/* cpu_info.c: fills name, type, limits and simd width from the host. */
void loom_cpu_fill_info(cl_device_id dev) LOOM_HIDDEN;
/* cpu_ndrange.c: runs a launch on the thread pool */
void loom_cpu_ndrange(cl_device_id dev, struct loom_ndrange *launch, cl_event ev) LOOM_HIDDEN;

#endif
