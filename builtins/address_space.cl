/* Address space qualifier functions (OpenCL C 1.13.9): to_global, to_local,
 * to_private and get_fence on generic pointers.
 *
 * On the CPU every address space is host memory, so a generic pointer is
 * classified by where it points: into this work-group's __local block, into
 * private memory (the running thread's stack below the launch, where the
 * work-group function keeps private variables, or the group's scratch, where
 * private variables live across barriers), or else global memory. The
 * bounds come from the work-group context (__loom_wi, resolved by the
 * compiler). Clang lowers to_global(p) and friends to calls of
 * __to_global(p) etc. with the pointer as a generic void pointer. */
#include "loom_builtins.h"

static INLINE bool within(ulong a, uint lo_kind, ulong size) {
  return a - __loom_wi(lo_kind, 0) < size;
}

static INLINE bool is_local(const __generic void *p) {
  return within((ulong)p, LOOM_WI_LOCAL_MEM_BASE, __loom_wi(LOOM_WI_LOCAL_MEM_SIZE, 0));
}

static INLINE bool is_private(const __generic void *p) {
  ulong stack = __loom_wi(LOOM_WI_STACK_HI, 0) - __loom_wi(LOOM_WI_STACK_LO, 0);
  return within((ulong)p, LOOM_WI_STACK_LO, stack) ||
         within((ulong)p, LOOM_WI_SCRATCH_BASE, __loom_wi(LOOM_WI_SCRATCH_SIZE, 0));
}

__global void *__to_global(__generic void *p) {
  return p && !is_local(p) && !is_private(p) ? (__global void *)p : NULL;
}

__local void *__to_local(__generic void *p) {
  return is_local(p) ? (__local void *)p : NULL;
}

__private void *__to_private(__generic void *p) {
  return is_private(p) ? (__private void *)p : NULL;
}

/* private memory needs no fence; global is a valid answer for it */
cl_mem_fence_flags OVL get_fence(__generic void *p) {
  return is_local(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}

cl_mem_fence_flags OVL get_fence(const __generic void *p) {
  return is_local(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
