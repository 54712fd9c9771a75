/* Faults inside kernels (invalid addresses, integer division by zero, stack
 * overflow, traps) must not kill the application: the worker that runs a
 * work-group arms a jump buffer; the signal handler jumps back to it and the
 * launch completes with an error status. Faults outside kernels go to the
 * handler that was installed before LoomCL's. */
#include "fault_guard.h"
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

static const int guarded[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NUM_GUARDED (sizeof guarded / sizeof guarded[0])
static struct sigaction previous[NUM_GUARDED];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static __thread sigjmp_buf *armed;
static __thread bool altstack_ready;

static void on_fault(int sig, siginfo_t *info, void *uctx) {
  if (armed) {
    sigjmp_buf *to = armed;
    armed = NULL;
    siglongjmp(*to, sig);
  }
  for (size_t i = 0; i < NUM_GUARDED; i++)
    if (guarded[i] == sig) {
      const struct sigaction *p = &previous[i];
      if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
        p->sa_sigaction(sig, info, uctx);
        return;
      }
      if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN && p->sa_handler) {
        p->sa_handler(sig);
        return;
      }
      /* default action: restore it; returning re-executes the fault */
      sigaction(sig, p, NULL);
      return;
    }
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NUM_GUARDED; i++)
    sigaction(guarded[i], &sa, &previous[i]);
}

void loom_fault_guard_prepare(void) {
  pthread_once(&install_once, install);
  if (!altstack_ready) {
    /* A kernel that overflows its stack needs another stack to be caught
     * on. It lives as long as its (persistent) worker thread; mapped rather
     * than malloc'ed because nothing ever frees it. */
    stack_t ss;
    ss.ss_size = 64 * 1024;
    ss.ss_sp = mmap(NULL, ss.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
    ss.ss_flags = 0;
    if (ss.ss_sp != MAP_FAILED && sigaltstack(&ss, NULL) == 0)
      altstack_ready = true;
    else if (ss.ss_sp != MAP_FAILED)
      munmap(ss.ss_sp, ss.ss_size);
  }
}

void loom_fault_guard_arm(sigjmp_buf *jb) { armed = jb; }
void loom_fault_guard_disarm(void) { armed = NULL; }
