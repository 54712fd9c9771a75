/* Locks LoomCL's threads share, kept consistent across fork().
 *
 * A fork() child has one thread, the one that forked, and a copy of the
 * others' memory: a mutex another thread held at that moment stays locked
 * in the child for ever. The child's exit handlers (codegen_jobs.c waits
 * for compile jobs, tool_spare.c and clang_overlap.c drop their spares)
 * take such locks, so about one fork child in fifty made right after a
 * build hung at exit; and a child that used OpenCL after its parent had
 * run kernels waited for ever for workers that are not there. Each guarded
 * lock is taken before the fork, in the order of registration, and
 * released after it on both sides: the child finds it free and what it
 * guards whole, and a module's in_child hook makes that fit a process
 * without the parent's threads (they start again on demand). Guarded locks
 * are leaves (none is held while another is taken, nor while registering),
 * so taking them all cannot deadlock. */
#include "support/fork_guard.h"
#include <assert.h>

enum { MAX_GUARDED = 8 };

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
struct guarded_lock {
  pthread_mutex_t *lock;
  void (*in_child)(void);
};
static struct guarded_lock guarded[MAX_GUARDED];
static int num_guarded;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void) {
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < num_guarded; i++)
    pthread_mutex_lock(guarded[i].lock);
}

static void after_fork_in_parent(void) {
  for (int i = num_guarded - 1; i >= 0; i--)
    pthread_mutex_unlock(guarded[i].lock);
  pthread_mutex_unlock(&registry_lock);
}

/* the thread that forked, the only one here, holds every lock (glibc's
 * default and adaptive mutexes, the kinds guarded, do not check who unlocks) */
static void after_fork_in_child(void) {
  for (int i = 0; i < num_guarded; i++) {
    if (guarded[i].in_child)
      guarded[i].in_child();
    pthread_mutex_unlock(guarded[i].lock);
  }
  pthread_mutex_unlock(&registry_lock);
}

static void install_handlers(void) {
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

void loom_fork_guard(pthread_mutex_t *lock, void (*in_child)(void)) {
  pthread_once(&handlers_once, install_handlers);
  pthread_mutex_lock(&registry_lock);
  bool known = false;
  for (int i = 0; i < num_guarded; i++)
    known |= guarded[i].lock == lock;
  assert(known || num_guarded < MAX_GUARDED);
  if (!known && num_guarded < MAX_GUARDED)
    guarded[num_guarded++] = (struct guarded_lock){lock, in_child};
  pthread_mutex_unlock(&registry_lock);
}
