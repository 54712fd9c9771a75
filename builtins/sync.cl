/* Synchronisation (OpenCL C 1.13.8/1.13.9). Work-items of a group run on one
 * thread, so a barrier is a control-flow split for the compiler and fences
 * only have to stop the compiler from moving memory accesses. */
#include "loom_builtins.h"

void OVL barrier(cl_mem_fence_flags flags) {
  (void)flags;
  __loom_barrier();
}

void OVL work_group_barrier(cl_mem_fence_flags flags) {
  (void)flags;
  __loom_barrier();
}

void OVL work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)flags;
  (void)scope;
  __loom_barrier();
}

void OVL mem_fence(cl_mem_fence_flags flags) {
  (void)flags;
  __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void OVL read_mem_fence(cl_mem_fence_flags flags) {
  (void)flags;
  __c11_atomic_thread_fence(__ATOMIC_ACQUIRE);
}
void OVL write_mem_fence(cl_mem_fence_flags flags) {
  (void)flags;
  __c11_atomic_thread_fence(__ATOMIC_RELEASE);
}
