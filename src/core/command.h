/* Commands and the event graph.
 *
 * Every enqueue creates an event (even when the application passes no event
 * pointer); the command lives inside it. A command becomes ready when all its
 * dependencies - the wait list plus the queue's ordering (in-order queue: the
 * previous command; out-of-order: the last barrier, and for a marker or
 * barrier without wait list every command since that barrier) - have
 * completed. Ready commands execute on the thread that made them ready
 * (enqueuing thread or the thread that completed the last dependency);
 * long-running work (kernels) is handed to the device's thread pool through
 * cmd.async.
 *
 * Lifetime: a submitted command keeps itself alive (one internal reference)
 * until it has completed; that also covers the edges its dependencies have to
 * it. The event holds its queue and context; the event is freed once the
 * application released it and it completed. cmd.cleanup runs right after
 * completion, before CL_COMPLETE callbacks and before waiters wake up, so the
 * objects a command holds are released by the time clFinish returns.
 *
 * A command with an event in its wait list that ended with a negative
 * status does not run: it completes with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, which fails its own
 * dependants in turn. Queue ordering alone does not propagate failures: a
 * command after a failed one in an in-order queue still runs. */
#ifndef LOOM_COMMAND_H
#define LOOM_COMMAND_H
#include "loom.h"

/* A new command event for queue q (status CL_QUEUED, one internal reference
 * held by the caller). Fill ev->cmd before loom_command_submit. Returns NULL
 * when out of memory. */
cl_event loom_command_new(cl_command_queue q, cl_command_type type) LOOM_HIDDEN;

/* Gives up a command from loom_command_new that will not be submitted (an
 * error found after creating it): calls cmd.cleanup and frees the event. */
void loom_command_discard(cl_event ev) LOOM_HIDDEN;

/* The event a command lives in (for async executors). */
static inline cl_event loom_command_event(struct loom_command *cmd) {
  return (cl_event)((char *)cmd - offsetof(struct _cl_event, cmd));
}

/* Links the command into the graph and lets it run once ready.
 * If event_out is non-NULL the application gets a reference in *event_out.
 * If blocking, waits for completion and returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it (or a dependency) failed.
 * Consumes the caller's reference from loom_command_new, also on failure
 * (CL_OUT_OF_HOST_MEMORY: the command is discarded, *event_out untouched).
 * The wait list must have been validated (api/checks.h). */
cl_int loom_command_submit(cl_event ev, cl_uint num_wait, const cl_event *wait,
                           cl_event *event_out, bool blocking) LOOM_HIDDEN;

/* Marks a running command finished: status is CL_COMPLETE or a negative
 * error. Records timestamps, runs cleanup and callbacks, wakes waiters,
 * releases dependants. Safe to call from any thread, exactly once per command
 * (later calls are ignored). Do not touch the command after this call. */
void loom_event_complete(cl_event ev, cl_int status) LOOM_HIDDEN;

/* Marks the command as started (CL_RUNNING, profiling start time). The core
 * already does this before calling run/async, so this is a no-op then. */
void loom_event_running(cl_event ev) LOOM_HIDDEN;

/* Waits until ev is CL_COMPLETE or failed; returns its final status.
 * The caller must hold a reference on ev. */
cl_int loom_event_wait(cl_event ev) LOOM_HIDDEN;

/* Registers fn for trigger (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE); calls
 * it at once (on this thread) if the event already reached that status.
 * CL_OUT_OF_HOST_MEMORY is the only possible error. */
cl_int loom_event_add_callback(cl_event ev, cl_int trigger,
                               void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                               void *user_data) LOOM_HIDDEN;

/* ---------- user events ---------- */

/* A user event of ctx (status CL_SUBMITTED, one application reference);
 * NULL when out of memory. */
cl_event loom_user_event_new(cl_context ctx) LOOM_HIDDEN;
/* Completes a user event with CL_COMPLETE or a negative status;
 * CL_INVALID_OPERATION if its status was already set. */
cl_int loom_user_event_set_status(cl_event ev, cl_int status) LOOM_HIDDEN;

/* ---------- queues ---------- */

/* Queue bookkeeping used by the API layer. The queue holds internal
 * references on ctx and dev; prop_list is left empty for the caller. */
cl_command_queue loom_queue_new(cl_context ctx, cl_device_id dev,
                                cl_command_queue_properties props) LOOM_HIDDEN;
/* Waits until every command enqueued on q before this call has completed. */
cl_int loom_queue_finish(cl_command_queue q) LOOM_HIDDEN;
/* Called when the application released its last reference on q: drops the
 * queue's references on its commands (they hold the queue), so the queue is
 * freed once its last command completed and its events are released. */
void loom_queue_forget_commands(cl_command_queue q) LOOM_HIDDEN;

/* ---------- a context's commands in flight ---------- */

/* Counts a submitted command of ctx complete (called once per command). */
void loom_context_command_done(cl_context ctx) LOOM_HIDDEN;
/* Blocks until every command submitted on a queue of ctx before the call
 * has completed (clMemBlockingFreeINTEL: a kernel may reach any allocation
 * through pointers it finds in memory, so every command counts). Must not
 * be called from a command or a callback. */
void loom_context_wait_idle(cl_context ctx) LOOM_HIDDEN;

/* ---------- graph internals (core/event.c, used by core/queue.c) ---------- */

/* Makes ev wait for dep using edge (memory owned by ev). With
 * fails_dependant (wait-list edges), a failure of dep makes ev fail; queue
 * ordering edges only order. If dep already finished, nothing is linked.
 * Call before ev's setup reference is dropped. */
void loom_event_depend(cl_event ev, cl_event dep, struct loom_dep_edge *edge,
                       bool fails_dependant) LOOM_HIDDEN;
/* Drops the setup dependency of a submitted command; if nothing else is
 * pending, the command runs now on this thread. */
void loom_event_setup_done(cl_event ev) LOOM_HIDDEN;
/* true once ev's final status is set (a hint: no lock taken). */
bool loom_event_is_final(cl_event ev) LOOM_HIDDEN;

#endif
