/* The contract between the builtin library and the work-group compiler.
 * Included from both OpenCL C (builtins/) and C (src/compiler/). */
#ifndef LOOM_ABI_H
#define LOOM_ABI_H

/* __loom_wi(kind, dim): work-item queries the compiler resolves */
#define LOOM_WI_GROUP_ID 0
#define LOOM_WI_LOCAL_SIZE 1
#define LOOM_WI_ENQ_LOCAL_SIZE 2
#define LOOM_WI_GLOBAL_OFFSET 3
#define LOOM_WI_NUM_GROUPS 4
#define LOOM_WI_GLOBAL_SIZE 5
#define LOOM_WI_WORK_DIM 6
#define LOOM_WI_LOCAL_ID 7
/* where the work-group's memory lies (addresses and sizes in bytes; dim is
 * ignored): the address space functions to_local/to_private/to_global */
#define LOOM_WI_LOCAL_MEM_BASE 8
#define LOOM_WI_LOCAL_MEM_SIZE 9
#define LOOM_WI_STACK_LO 10
#define LOOM_WI_STACK_HI 11
#define LOOM_WI_SCRATCH_BASE 12
#define LOOM_WI_SCRATCH_SIZE 13

#define LOOM_SYM_WI "__loom_wi"
#define LOOM_SYM_BARRIER "__loom_barrier"
/* __loom_wg_scratch(): LOOM_WG_SCRATCH_BYTES of the work-group's __local
 * memory reserved for the work-group collective functions (local_mem.c) */
#define LOOM_SYM_WG_SCRATCH "__loom_wg_scratch"
#define LOOM_WG_SCRATCH_BYTES 32

#endif
