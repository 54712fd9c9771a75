/* Shared virtual memory (clSVMAlloc) and unified shared memory
 * (cl_intel_unified_shared_memory): allocations that the host and kernels
 * address with the same pointers.
 *
 * Every LoomCL device so far computes in host memory, so each kind of
 * allocation - coarse- and fine-grain buffer SVM, USM host, device and
 * shared - is the same thing: bytes from the device's allocator that a
 * kernel reaches through the pointer it is given, and that host atomics
 * and kernel atomics share. Fine-grain system SVM (any host pointer) comes
 * for free. What the core keeps is a table per context of the allocations
 * it made, sorted by address, so that a pointer anywhere inside one finds
 * its allocation (clGetMemAllocInfoINTEL, CL_MEM_USES_SVM_POINTER,
 * clEnqueueSVMMigrateMem's range check), and so that a free of a pointer
 * LoomCL never returned is refused instead of corrupting the heap. */
#ifndef LOOM_SVM_H
#define LOOM_SVM_H
#include "loom.h"

/* The largest alignment clSVMAlloc and the USM allocators accept: larger
 * than any OpenCL type (the spec asks for long16, 128 bytes) so that
 * applications may ask for page or huge-page alignment. */
#define LOOM_SVM_MAX_ALIGNMENT ((size_t)2 << 20)

enum loom_svm_kind {
  LOOM_SVM_BUFFER = 0,        /* clSVMAlloc */
  LOOM_USM_HOST = CL_MEM_TYPE_HOST_INTEL,
  LOOM_USM_DEVICE = CL_MEM_TYPE_DEVICE_INTEL,
  LOOM_USM_SHARED = CL_MEM_TYPE_SHARED_INTEL,
};

/* One allocation as the table records it. */
struct loom_svm_block {
  char *base;                /* what the application got */
  size_t size;               /* what it asked for (> 0) */
  void *storage;             /* what the device allocator returned */
  enum loom_svm_kind kind;
  cl_svm_mem_flags svm_flags;          /* clSVMAlloc's flags */
  cl_mem_alloc_flags_intel usm_flags;  /* CL_MEM_ALLOC_FLAGS_INTEL */
  cl_device_id device;       /* USM device and shared allocations; else NULL */
};

/* Context setup and teardown: teardown frees what the application did not. */
void loom_svm_table_init(struct loom_svm_table *t) LOOM_HIDDEN;
void loom_svm_table_free(cl_context ctx) LOOM_HIDDEN;

/* A new allocation of want->size bytes aligned to `alignment` (a power of
 * two <= LOOM_SVM_MAX_ALIGNMENT; the caller validated everything) recording
 * want's kind, flags and device. NULL when out of memory. */
void *loom_svm_alloc(cl_context ctx, const struct loom_svm_block *want,
                     size_t alignment) LOOM_HIDDEN;
/* Frees the allocation that starts at ptr; false (and nothing freed) when
 * no allocation of ctx starts there. */
bool loom_svm_free(cl_context ctx, void *ptr) LOOM_HIDDEN;
/* bytes from p (inside b) to the end of b */
static inline size_t loom_svm_room(const struct loom_svm_block *b, const void *p) {
  return b->size - (size_t)((const char *)p - b->base);
}

/* The allocation of ctx containing ptr (a copy, as another thread may free
 * it): false when there is none. */
bool loom_svm_find(cl_context ctx, const void *ptr, struct loom_svm_block *out) LOOM_HIDDEN;

/* ---------- commands ---------- */

/* clEnqueueSVMFree: once the wait list completed, calls fn(q, n, ptrs,
 * user_data), or with fn NULL frees each pointer with loom_svm_free. ptrs
 * is copied. */
typedef void(CL_CALLBACK *loom_svm_free_fn)(cl_command_queue, cl_uint, void *[], void *);
cl_int loom_enqueue_svm_free(cl_command_queue q, cl_uint n, void *const *ptrs,
                             loom_svm_free_fn fn, void *user_data, cl_uint num_wait,
                             const cl_event *wait, cl_event *event_out) LOOM_HIDDEN;

#endif
