#ifndef LOOM_FORK_GUARD_H
#define LOOM_FORK_GUARD_H
#include "compiler.h"
#include <pthread.h>

/* Keeps lock consistent across fork(): taken before the fork, free again
 * on both sides after it; in_child (may be NULL) runs first in the child,
 * with lock held, to make what lock guards fit a process without the
 * parent's other threads: plain stores only, no allocation (another thread
 * of the parent may have held the allocator's lock at the fork:
 * AddressSanitizer's is not reset in the child). Only for leaf locks (held
 * while taking no other guarded lock) of glibc's default or adaptive kind.
 * Registering the same lock again does nothing. */
void loom_fork_guard(pthread_mutex_t *lock, void (*in_child)(void)) LOOM_HIDDEN;

#endif
