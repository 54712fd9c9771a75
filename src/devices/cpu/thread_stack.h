/* The calling thread's stack, for telling private memory apart from global
 * memory in generic pointers (to_private, to_global, get_fence). */
#ifndef LOOM_THREAD_STACK_H
#define LOOM_THREAD_STACK_H
#include "config.h"

/* lowest address of the calling thread's stack (cached per thread) */
char *loom_thread_stack_lo(void) LOOM_HIDDEN;

#endif
