/* The calling thread's stack bounds. Work-groups run on pool threads, whose
 * stacks pthread reports exactly; the query costs a little, so each thread
 * asks once. */
#include "thread_stack.h"
#include <pthread.h>

static __thread char *stack_lo;

char *loom_thread_stack_lo(void) {
  if (!stack_lo) {
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      if (pthread_attr_getstack(&attr, &addr, &size) != 0)
        addr = NULL;
      pthread_attr_destroy(&attr);
    }
    /* unknown: assume the default 8 MiB below this frame */
    stack_lo = addr ? (char *)addr : (char *)__builtin_frame_address(0) - (8u << 20);
  }
  return stack_lo;
}
