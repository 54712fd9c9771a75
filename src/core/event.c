/* The event graph: event objects, status transitions, callbacks, completion,
 * waiting, and the per-thread list of ready commands. See command.h. */
#include "command.h"
#include <assert.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LOOM_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define LOOM_CPU_RELAX() __asm__ __volatile__("yield")
#else
#define LOOM_CPU_RELAX() ((void)0)
#endif

/* How long a waiter spins before it blocks on the condition variable: long
 * enough to catch short commands without a futex round trip (a kernel launch
 * completes in 1-2 µs; a sleeping waiter costs ~10 µs more to wake). */
#define LOOM_WAIT_SPIN_NS 50000

/* ---------- ready commands ----------
 * Completing a command may make its dependants ready, and running those
 * completes more commands. Instead of recursing, a thread appends ready
 * commands to its own list and the outermost call runs them one by one, so a
 * chain of any length runs in constant stack space. */

static _Thread_local struct {
  cl_event head, tail;
  bool draining;
} ready_list;

static void ready_push(cl_event ev) {
  ev->next_ready = NULL;
  if (ready_list.tail)
    ready_list.tail->next_ready = ev;
  else
    ready_list.head = ev;
  ready_list.tail = ev;
}

static cl_event ready_pop(void) {
  cl_event ev = ready_list.head;
  if (ev) {
    ready_list.head = ev->next_ready;
    if (!ready_list.head)
      ready_list.tail = NULL;
  }
  return ev;
}

static void execute(cl_event ev);

/* Runs every command on this thread's list, including those it makes ready. */
static void run_ready_commands(void) {
  cl_event ev;
  while ((ev = ready_pop()))
    execute(ev);
}

/* Entry from the outside (enqueue, completion on a pool thread, user event):
 * runs the list unless an outer frame of this thread is already doing so. */
static void drain(void) {
  if (ready_list.draining)
    return;
  ready_list.draining = true;
  run_ready_commands();
  ready_list.draining = false;
}

/* ---------- event objects ---------- */

static void free_callbacks(struct loom_event_callback *cb) {
  while (cb) {
    struct loom_event_callback *next = cb->next;
    free(cb);
    cb = next;
  }
}

static void run_cleanup(cl_event ev) {
  void (*cleanup)(struct loom_command *) = ev->cmd.cleanup;
  ev->cmd.cleanup = NULL;
  if (cleanup)
    cleanup(&ev->cmd);
}

static void event_destroy(struct loom_object *o) {
  cl_event ev = (cl_event)o;
  run_cleanup(ev); /* only for a command that was never submitted */
  free_callbacks(ev->callbacks); /* a user event that never completed */
  free(ev->edges_heap);
  if (ev->queue)
    LOOM_RELEASE(ev->queue);
  LOOM_RELEASE(ev->context);
  pthread_cond_destroy(&ev->cond);
  pthread_mutex_destroy(&ev->lock);
  free(ev);
}

static cl_event event_alloc(cl_context ctx, cl_command_queue q,
                            cl_command_type type, cl_int status) {
  cl_event ev = calloc(1, sizeof *ev);
  if (!ev)
    return NULL;
  if (pthread_mutex_init(&ev->lock, NULL)) {
    free(ev);
    return NULL;
  }
  if (pthread_cond_init(&ev->cond, NULL)) {
    pthread_mutex_destroy(&ev->lock);
    free(ev);
    return NULL;
  }
  loom_object_init(&ev->obj, LOOM_EVENT, event_destroy);
  ev->context = ctx;
  LOOM_RETAIN(ctx);
  ev->queue = q;
  if (q)
    LOOM_RETAIN(q);
  ev->command_type = type;
  atomic_init(&ev->status, status);
  atomic_init(&ev->done, false);
  ev->callbacks_tail = &ev->callbacks;
  ev->dependants_tail = &ev->dependants;
  atomic_init(&ev->pending_deps, 1);
  atomic_init(&ev->dep_error, 0);
  ev->cmd.type = type;
  return ev;
}

cl_event loom_command_new(cl_command_queue q, cl_command_type type) {
  cl_event ev = event_alloc(q->context, q, type, CL_QUEUED);
  if (!ev)
    return NULL;
  ev->profiling = (q->props & CL_QUEUE_PROFILING_ENABLE) != 0;
  ev->cmd.device = q->device;
  return ev;
}

void loom_command_discard(cl_event ev) { loom_release_ext(&ev->obj); }

cl_event loom_user_event_new(cl_context ctx) {
  return event_alloc(ctx, NULL, CL_COMMAND_USER, CL_SUBMITTED);
}

bool loom_event_is_final(cl_event ev) {
  return atomic_load_explicit(&ev->status, memory_order_acquire) <= CL_COMPLETE;
}

/* ---------- callbacks ---------- */

/* The status a callback receives: its trigger, or the error that ended the
 * command (which also fires SUBMITTED/RUNNING callbacks it never reached). */
static void fire_callbacks(cl_event ev, struct loom_event_callback *cb,
                           cl_int status) {
  while (cb) {
    struct loom_event_callback *next = cb->next;
    cb->fn(ev, status < 0 ? status : cb->trigger, cb->user_data);
    free(cb);
    cb = next;
  }
}

/* Under ev->lock: unlinks the callbacks whose trigger status has been reached
 * (status <= trigger), keeping registration order in both lists. */
static struct loom_event_callback *take_reached(cl_event ev, cl_int status) {
  struct loom_event_callback *taken = NULL, **taken_tail = &taken;
  struct loom_event_callback **p = &ev->callbacks;
  while (*p) {
    struct loom_event_callback *cb = *p;
    if (status <= cb->trigger) {
      *p = cb->next;
      cb->next = NULL;
      *taken_tail = cb;
      taken_tail = &cb->next;
    } else {
      p = &cb->next;
    }
  }
  ev->callbacks_tail = p;
  return taken;
}

cl_int loom_event_add_callback(cl_event ev, cl_int trigger,
                               void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                               void *user_data) {
  assert(trigger == CL_SUBMITTED || trigger == CL_RUNNING || trigger == CL_COMPLETE);
  struct loom_event_callback *cb = malloc(sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->next = NULL;
  cb->trigger = trigger;
  cb->fn = fn;
  cb->user_data = user_data;
  pthread_mutex_lock(&ev->lock);
  cl_int status = atomic_load(&ev->status);
  if (status > trigger) {
    *ev->callbacks_tail = cb;
    ev->callbacks_tail = &cb->next;
    cb = NULL;
  }
  pthread_mutex_unlock(&ev->lock);
  if (cb)
    fire_callbacks(ev, cb, status);
  return CL_SUCCESS;
}

/* ---------- status transitions ---------- */

/* QUEUED -> SUBMITTED -> RUNNING; never backwards, never after completion. */
static void transition(cl_event ev, cl_int status) {
  assert(status == CL_SUBMITTED || status == CL_RUNNING);
  cl_ulong t = ev->profiling ? loom_now_ns() : 0;
  pthread_mutex_lock(&ev->lock);
  if (ev->finished || atomic_load(&ev->status) <= status) {
    pthread_mutex_unlock(&ev->lock);
    return;
  }
  if (status == CL_SUBMITTED)
    ev->t_submit = t;
  else
    ev->t_start = t;
  atomic_store(&ev->status, status);
  struct loom_event_callback *cb = ev->callbacks ? take_reached(ev, status) : NULL;
  pthread_mutex_unlock(&ev->lock);
  fire_callbacks(ev, cb, status);
}

void loom_event_running(cl_event ev) {
  transition(ev, CL_SUBMITTED);
  transition(ev, CL_RUNNING);
}

static void note_dependency_error(cl_event ev, cl_int status) {
  int expected = 0;
  atomic_compare_exchange_strong(&ev->dep_error, &expected, status);
}

/* Sets the final status and does everything that follows it, except dropping
 * the command's own reference. false if the status was already final. */
static bool finish(cl_event ev, cl_int status) {
  if (status > CL_COMPLETE)
    status = CL_COMPLETE; /* a run() returning a positive value succeeded */
  cl_ulong t = ev->profiling ? loom_now_ns() : 0;

  pthread_mutex_lock(&ev->lock);
  if (ev->finished) {
    pthread_mutex_unlock(&ev->lock);
    return false;
  }
  /* the final status is set once, after statuses that only went down from
   * CL_QUEUED (or CL_SUBMITTED for user events) */
  assert(atomic_load(&ev->status) > CL_COMPLETE);
  ev->finished = true;
  ev->t_end = ev->t_complete = t;
  atomic_store(&ev->status, status);
  struct loom_dep_edge *dependants = ev->dependants;
  ev->dependants = NULL;
  ev->dependants_tail = &ev->dependants;
  struct loom_event_callback *cb = ev->callbacks;
  ev->callbacks = NULL;
  ev->callbacks_tail = &ev->callbacks;
  /* Waiters wake after cleanup and callbacks, so a host thread that returns
   * from a wait sees their effects. */
  bool deferred = cb || ev->cmd.cleanup;
  if (!deferred) {
    atomic_store_explicit(&ev->done, true, memory_order_release);
    pthread_cond_broadcast(&ev->cond);
  }
  pthread_mutex_unlock(&ev->lock);

  if (deferred) {
    run_cleanup(ev);
    fire_callbacks(ev, cb, status);
    pthread_mutex_lock(&ev->lock);
    atomic_store_explicit(&ev->done, true, memory_order_release);
    pthread_cond_broadcast(&ev->cond);
    pthread_mutex_unlock(&ev->lock);
  }

  /* The edges belong to the dependants: read each one before releasing its
   * dependant, which may run and be freed by another thread right after. */
  while (dependants) {
    struct loom_dep_edge *edge = dependants;
    dependants = edge->next;
    cl_event d = edge->dependant;
    if (status < 0 && edge->fails_dependant)
      note_dependency_error(d, status);
    int pending = atomic_fetch_sub(&d->pending_deps, 1);
    assert(pending >= 1);
    if (pending == 1)
      ready_push(d);
  }
  return true;
}

void loom_event_complete(cl_event ev, cl_int status) {
  bool is_command = ev->queue != NULL;
  bool first = finish(ev, status);
  /* a command completes exactly once: the second call would drop the
   * reference it holds on itself again */
  assert(first || !is_command);
  if (!first)
    return;
  if (is_command) {
    loom_context_command_done(ev->context);
    LOOM_RELEASE(ev); /* the reference a submitted command holds on itself */
  }
  drain();
}

cl_int loom_user_event_set_status(cl_event ev, cl_int status) {
  LOOM_RETAIN(ev); /* stays valid even if another thread releases it now */
  bool set = finish(ev, status);
  LOOM_RELEASE(ev);
  drain();
  return set ? CL_SUCCESS : CL_INVALID_OPERATION;
}

/* ---------- running commands ---------- */

static void execute(cl_event ev) {
  /* a command runs once, after all its dependencies completed */
  assert(atomic_load(&ev->pending_deps) == 0 && ev->queue);
  assert(atomic_load(&ev->status) == CL_QUEUED);
  if (atomic_load(&ev->dep_error)) {
    loom_event_complete(ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  transition(ev, CL_SUBMITTED);
  transition(ev, CL_RUNNING);
  struct loom_command *cmd = &ev->cmd;
  if (cmd->async) {
    cmd->async(cmd); /* completes it, now or later; ev may be gone */
    return;
  }
  loom_event_complete(ev, cmd->run ? cmd->run(cmd) : CL_COMPLETE);
}

void loom_event_depend(cl_event ev, cl_event dep, struct loom_dep_edge *edge,
                       bool fails_dependant) {
  assert(ev != dep);
  pthread_mutex_lock(&dep->lock);
  if (dep->finished) {
    cl_int status = atomic_load(&dep->status);
    pthread_mutex_unlock(&dep->lock);
    if (status < 0 && fails_dependant)
      note_dependency_error(ev, status);
    return;
  }
  atomic_fetch_add(&ev->pending_deps, 1);
  edge->dependant = ev;
  edge->fails_dependant = fails_dependant;
  edge->next = NULL;
  *dep->dependants_tail = edge;
  dep->dependants_tail = &edge->next;
  pthread_mutex_unlock(&dep->lock);
}

void loom_event_setup_done(cl_event ev) {
  int pending = atomic_fetch_sub(&ev->pending_deps, 1);
  assert(pending >= 1);
  if (pending == 1) {
    ready_push(ev);
    drain();
  }
}

/* ---------- waiting ---------- */

cl_int loom_event_wait(cl_event ev) {
  /* A command running on this thread (a native kernel) may wait for commands
   * it made ready itself: run those first rather than deadlock. */
  run_ready_commands();
  if (!atomic_load_explicit(&ev->done, memory_order_acquire)) {
    cl_ulong start = loom_now_ns();
    for (unsigned i = 1; !atomic_load_explicit(&ev->done, memory_order_acquire); i++) {
      LOOM_CPU_RELAX();
      if (i % 64 == 0 && loom_now_ns() - start > LOOM_WAIT_SPIN_NS)
        break;
    }
    pthread_mutex_lock(&ev->lock);
    while (!atomic_load_explicit(&ev->done, memory_order_acquire))
      pthread_cond_wait(&ev->cond, &ev->lock);
    pthread_mutex_unlock(&ev->lock);
  }
  return atomic_load(&ev->status);
}
