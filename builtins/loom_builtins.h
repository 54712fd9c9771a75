/* Shared declarations of the builtin library (OpenCL C). */
#ifndef LOOM_BUILTINS_H
#define LOOM_BUILTINS_H
#include "loom_abi.h"

#define OVL __attribute__((overloadable))
#define INLINE __attribute__((always_inline))

/* resolved by the work-group compiler; never called at run time */
ulong __loom_wi(uint kind, uint dim) __attribute__((const));
/* a work-group barrier: the compiler splits the kernel here */
void __loom_barrier(void) __attribute__((convergent, noduplicate));
/* the work-group's scratch for collective functions; resolved by the compiler */
__local void *__loom_wg_scratch(void) __attribute__((const));

#endif
