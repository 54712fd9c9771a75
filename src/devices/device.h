/* The interface between the core and a device driver. The core never looks
 * inside a driver; a driver never sees an unvalidated handle. */
#ifndef LOOM_DEVICE_H
#define LOOM_DEVICE_H
#include "../core/loom.h"

struct loom_ndrange; /* defined in core/kernel.h */

struct loom_device_ops {
  /* storage for a memory object; aligned to at least 128 bytes */
  void *(*mem_alloc)(cl_device_id dev, size_t size);
  void (*mem_free)(cl_device_id dev, void *ptr);
  /* starts a kernel launch; calls loom_event_complete(ev, ...) when every
   * work-group has run (possibly before returning) */
  void (*ndrange)(cl_device_id dev, struct loom_ndrange *launch, cl_event ev);
  /* bytes of per-launch driver state (launch->device_state, zeroed, 64-byte
   * aligned), allocated with the launch and freed with it after completion */
  size_t ndrange_state_size;
};

/* The CPU device (src/devices/cpu). Fills dev; returns 0 on success. */
int loom_cpu_device_init(cl_device_id dev) LOOM_HIDDEN;

#endif
