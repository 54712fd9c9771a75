/* Command queues: the order in which enqueued commands may run (in-order or
 * out-of-order with barriers), submission into the event graph, and finish. */
#include "command.h"
#include <assert.h>
#include <stdlib.h>

static void queue_destroy(struct loom_object *o) {
  cl_command_queue q = (cl_command_queue)o;
  loom_queue_forget_commands(q); /* already empty unless creation failed */
  free(q->outstanding);
  free(q->prop_list);
  LOOM_RELEASE(q->device);
  LOOM_RELEASE(q->context);
  pthread_mutex_destroy(&q->lock);
  free(q);
}

cl_command_queue loom_queue_new(cl_context ctx, cl_device_id dev,
                                cl_command_queue_properties props) {
  cl_command_queue q = calloc(1, sizeof *q);
  if (!q)
    return NULL;
  if (pthread_mutex_init(&q->lock, NULL)) {
    free(q);
    return NULL;
  }
  loom_object_init(&q->obj, LOOM_QUEUE, queue_destroy);
  q->context = ctx;
  LOOM_RETAIN(ctx);
  q->device = dev;
  LOOM_RETAIN(dev);
  q->props = props;
  return q;
}

void loom_queue_forget_commands(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  cl_event last = q->last, barrier = q->barrier;
  cl_event *outstanding = q->outstanding;
  size_t n = q->num_outstanding;
  q->last = q->barrier = NULL;
  q->outstanding = NULL;
  q->num_outstanding = q->cap_outstanding = 0;
  pthread_mutex_unlock(&q->lock);
  /* Releasing may free events, which release the queue: do it unlocked. */
  if (last)
    LOOM_RELEASE(last);
  if (barrier)
    LOOM_RELEASE(barrier);
  for (size_t i = 0; i < n; i++)
    LOOM_RELEASE(outstanding[i]);
  free(outstanding);
}

/* Under q->lock: room for one more outstanding command. Completed ones are
 * dropped first; the array doubles only when that frees too little, so the
 * work stays amortised constant per command. */
static bool reserve_outstanding(cl_command_queue q) {
  if (q->num_outstanding < q->cap_outstanding)
    return true;
  size_t kept = 0;
  for (size_t i = 0; i < q->num_outstanding; i++) {
    cl_event e = q->outstanding[i];
    if (loom_event_is_final(e))
      LOOM_RELEASE(e);
    else
      q->outstanding[kept++] = e;
  }
  q->num_outstanding = kept;
  if (kept < q->cap_outstanding / 2)
    return true;
  size_t cap = q->cap_outstanding ? 2 * q->cap_outstanding : 16;
  cl_event *grown = realloc(q->outstanding, cap * sizeof *grown);
  if (!grown)
    return kept < q->cap_outstanding;
  q->outstanding = grown;
  q->cap_outstanding = cap;
  return true;
}

static void replace_tracked(cl_event *slot, cl_event ev) {
  LOOM_RETAIN(ev);
  if (*slot)
    LOOM_RELEASE(*slot);
  *slot = ev;
}

cl_int loom_command_submit(cl_event ev, cl_uint num_wait, const cl_event *wait,
                           cl_event *event_out, bool blocking) {
  cl_command_queue q = ev->queue;
  /* a command's payload is freed by its cleanup: one comes with the other;
   * and it either runs on this thread or hands itself to an executor */
  assert(q && ev->cmd.device == q->device);
  assert((ev->cmd.payload != NULL) == (ev->cmd.cleanup != NULL));
  assert(!(ev->cmd.run && ev->cmd.async));
  bool out_of_order = (q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  bool is_barrier = ev->command_type == CL_COMMAND_BARRIER;
  bool waits_for_all =
      num_wait == 0 && (is_barrier || ev->command_type == CL_COMMAND_MARKER);
  if (ev->profiling)
    ev->t_queued = loom_now_ns();

  pthread_mutex_lock(&q->lock);
  /* Everything that can fail happens before the first edge is linked. */
  size_t num_edges = (size_t)num_wait + 1;
  if (out_of_order && waits_for_all)
    num_edges += q->num_outstanding;
  struct loom_dep_edge *edges = ev->edges_inline;
  if ((out_of_order && !is_barrier && !reserve_outstanding(q)) ||
      (num_edges > sizeof ev->edges_inline / sizeof *edges &&
       !(edges = ev->edges_heap = malloc(num_edges * sizeof *edges)))) {
    pthread_mutex_unlock(&q->lock);
    loom_command_discard(ev);
    return CL_OUT_OF_HOST_MEMORY;
  }

  LOOM_RETAIN(ev); /* the command keeps itself alive until it completes */
  atomic_fetch_add(&q->context->commands_in_flight, 1);
  size_t k = 0;
  if (!out_of_order) {
    if (q->last)
      loom_event_depend(ev, q->last, &edges[k++], false);
    replace_tracked(&q->last, ev);
  } else {
    if (q->barrier)
      loom_event_depend(ev, q->barrier, &edges[k++], false);
    if (waits_for_all)
      for (size_t i = 0; i < q->num_outstanding; i++)
        loom_event_depend(ev, q->outstanding[i], &edges[k++], false);
    if (is_barrier) {
      /* Only a barrier that waited for everything covers the outstanding
       * commands; after one with a wait list they stay tracked for later
       * markers and clFinish. */
      if (waits_for_all) {
        for (size_t i = 0; i < q->num_outstanding; i++)
          LOOM_RELEASE(q->outstanding[i]);
        q->num_outstanding = 0;
      }
      replace_tracked(&q->barrier, ev);
    } else {
      assert(q->num_outstanding < q->cap_outstanding); /* reserve_outstanding */
      LOOM_RETAIN(ev);
      q->outstanding[q->num_outstanding++] = ev;
    }
  }
  pthread_mutex_unlock(&q->lock);
  assert(k + num_wait <= num_edges); /* the edges array holds every dependency */

  for (cl_uint i = 0; i < num_wait; i++)
    loom_event_depend(ev, wait[i], &edges[k++], true);

  if (blocking)
    LOOM_RETAIN(ev); /* for the wait below */
  if (event_out)
    *event_out = ev; /* the reference from loom_command_new */
  else
    loom_release_ext(&ev->obj);
  loom_event_setup_done(ev);
  if (!blocking)
    return CL_SUCCESS;
  cl_int status = loom_event_wait(ev);
  LOOM_RELEASE(ev);
  if (status < 0) {
    loom_log_api(__func__, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
                 "the command is blocking and it or an event of its wait list ended with a "
                 "negative status");
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return CL_SUCCESS;
}

cl_int loom_queue_finish(cl_command_queue q) {
  if (!(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    /* in order: the last command completes after every earlier one */
    pthread_mutex_lock(&q->lock);
    cl_event last = q->last;
    if (last)
      LOOM_RETAIN(last);
    pthread_mutex_unlock(&q->lock);
    if (last) {
      loom_event_wait(last);
      LOOM_RELEASE(last);
    }
    return CL_SUCCESS;
  }
  /* out of order: a marker that waits for everything enqueued so far */
  cl_event marker = loom_command_new(q, CL_COMMAND_MARKER);
  if (!marker)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int err = loom_command_submit(marker, 0, NULL, NULL, true);
  return err == CL_OUT_OF_HOST_MEMORY ? err : CL_SUCCESS;
}

/* ---------- a context's commands in flight ---------- */

/* seq_cst on both sides: either the last command sees the waiter's count,
 * or the waiter sees commands_in_flight at 0 */
void loom_context_command_done(cl_context ctx) {
  if (atomic_fetch_sub(&ctx->commands_in_flight, 1) == 1 && atomic_load(&ctx->idle_waiters)) {
    pthread_mutex_lock(&ctx->lock);
    pthread_cond_broadcast(&ctx->idle_cond);
    pthread_mutex_unlock(&ctx->lock);
  }
}

void loom_context_wait_idle(cl_context ctx) {
  atomic_fetch_add(&ctx->idle_waiters, 1);
  pthread_mutex_lock(&ctx->lock);
  while (atomic_load(&ctx->commands_in_flight) != 0)
    pthread_cond_wait(&ctx->idle_cond, &ctx->lock);
  pthread_mutex_unlock(&ctx->lock);
  atomic_fetch_sub(&ctx->idle_waiters, 1);
}
