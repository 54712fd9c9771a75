#ifndef LOOM_FAULT_GUARD_H
#define LOOM_FAULT_GUARD_H
#include "config.h"
#include <setjmp.h>

/* once per worker thread: handlers and an alternate signal stack */
void loom_fault_guard_prepare(void) LOOM_HIDDEN;
/* while armed, a fault in this thread jumps to jb (sigsetjmp value = signal) */
void loom_fault_guard_arm(sigjmp_buf *jb) LOOM_HIDDEN;
void loom_fault_guard_disarm(void) LOOM_HIDDEN;

#endif
