/* The CPU device: memory is host memory; kernels run on the thread pool. */
#include "device.h"
#include "cpu.h"
#include "cpu_jit.h"
#include "cpu_printf.h"
#include "printf/printf.h"
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* Page-aligned, so buffers suit vector loads. Large buffers are aligned to
 * 2 MiB and asked for transparent huge pages (where the system leaves that
 * to madvise): a kernel streaming through them then takes a TLB miss per
 * 2 MiB instead of per 4 KiB, and the first touch faults in fewer, larger
 * pages. */
static void *cpu_mem_alloc(const struct loom_device_desc *dev, size_t size) {
  (void)dev;
  void *p = NULL;
  bool large = size >= 2 * HUGE_PAGE;
  if (posix_memalign(&p, large ? HUGE_PAGE : 4096, size ? size : 1) != 0)
    return NULL;
  if (large)
    madvise(p, size & ~(size_t)4095, MADV_HUGEPAGE); /* advice only: failure is harmless */
  return p;
}

static void cpu_mem_free(const struct loom_device_desc *dev, void *ptr) {
  (void)dev;
  free(ptr);
}

static const struct loom_device_ops cpu_ops = {
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .ndrange = loom_cpu_ndrange,
    .ndrange_state_size = LOOM_CPU_LAUNCH_STATE_SIZE,
    .code_load = loom_jit_load_binary,
    .code_add = loom_jit_add,
    .code_lookup = loom_jit_lookup,
    .code_unload = loom_jit_unload,
};

int loom_cpu_device_init(struct loom_device_desc *desc, const struct loom_device_ops **ops) {
  loom_cpu_fill_info(desc);
  loom_jit_add_host_symbol(LOOM_SYM_PRINTF, (uint64_t)(uintptr_t)loom_cpu_printf);
  *ops = &cpu_ops;
  return 0;
}
