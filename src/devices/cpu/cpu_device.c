/* The CPU device: memory is host memory; kernels run on the thread pool. */
#include "../device.h"
#include "cpu.h"
#include "cpu_printf.h"
#include "../../compiler/printf.h"
#include <stdlib.h>

static void *cpu_mem_alloc(cl_device_id dev, size_t size) {
  (void)dev;
  void *p = NULL;
  /* page alignment keeps buffers friendly to vector loads and huge pages */
  if (posix_memalign(&p, 4096, size ? size : 1) != 0)
    return NULL;
  return p;
}

static void cpu_mem_free(cl_device_id dev, void *ptr) {
  (void)dev;
  free(ptr);
}

static const struct loom_device_ops cpu_ops = {
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .ndrange = loom_cpu_ndrange,
    .ndrange_state_size = LOOM_CPU_LAUNCH_STATE_SIZE,
};

int loom_cpu_device_init(cl_device_id dev) {
  loom_cpu_fill_info(dev);
  loom_jit_add_host_symbol(LOOM_SYM_PRINTF, (uint64_t)(uintptr_t)loom_cpu_printf);
  dev->ops = &cpu_ops;
  return 0;
}
