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

#define LOOM_SYM_WI "__loom_wi"
#define LOOM_SYM_BARRIER "__loom_barrier"

#endif
