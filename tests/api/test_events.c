/* Events: user events, status, callbacks, failure propagation, waiting,
 * reference counts, profiling, markers and barriers, and their error paths. */
#include "harness.h"
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

static cl_int event_status(cl_event e) {
  cl_int s = 12345;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

static cl_uint event_refs(cl_event e) {
  cl_uint n = 0;
  clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof n, &n, NULL);
  return n;
}

/* ---------- callbacks record what they saw ---------- */

struct cb_log {
  pthread_mutex_t lock;
  int n;
  cl_int status[16];
  intptr_t tag[16];
};
static struct cb_log cb_log = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};

static void CL_CALLBACK record_cb(cl_event e, cl_int status, void *data) {
  (void)e;
  pthread_mutex_lock(&cb_log.lock);
  if (cb_log.n < 16) {
    cb_log.status[cb_log.n] = status;
    cb_log.tag[cb_log.n] = (intptr_t)data;
    cb_log.n++;
  }
  pthread_mutex_unlock(&cb_log.lock);
}

static void cb_log_reset(void) { cb_log.n = 0; }

/* the status the callback tagged `tag` received, or 99 if it did not run */
static cl_int cb_status_of(intptr_t tag) {
  for (int i = 0; i < cb_log.n; i++)
    if (cb_log.tag[i] == tag)
      return cb_log.status[i];
  return 99;
}

static void test_user_event_basics(struct test_env *env) {
  cl_int err = 1;
  CHECK(clCreateUserEvent(NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateUserEvent(BOGUS(cl_context), &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);

  cl_event u = clCreateUserEvent(env->context, &err);
  CHECK_OK(err);
  CHECK(u != NULL);
  cl_command_queue q = BOGUS(cl_command_queue);
  cl_context ctx = NULL;
  cl_command_type type = 0;
  size_t size = 0;
  CHECK_OK(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, &size));
  CHECK(q == NULL && size == sizeof q);
  CHECK_OK(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL));
  CHECK(ctx == env->context);
  CHECK_OK(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_USER);
  CHECK(event_status(u) == CL_SUBMITTED);
  CHECK(event_refs(u) == 1);
  CHECK_OK(clGetEventInfo(u, CL_EVENT_COMMAND_EXECUTION_STATUS, 0, NULL, &size));
  CHECK(size == sizeof(cl_int));

  /* clGetEventInfo errors */
  cl_int s;
  CHECK_ERR(clGetEventInfo(NULL, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL), CL_INVALID_EVENT);
  CHECK_ERR(clGetEventInfo(BOGUS(cl_event), CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL),
            CL_INVALID_EVENT);
  CHECK_ERR(clGetEventInfo(u, 0x7777, sizeof s, &s, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventInfo(u, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &s, NULL),
            CL_INVALID_VALUE);

  /* profiling is never available for user events */
  cl_ulong t;
  CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);

  /* reference counts */
  CHECK_OK(clRetainEvent(u));
  CHECK(event_refs(u) == 2);
  CHECK_OK(clReleaseEvent(u));
  CHECK(event_refs(u) == 1);
  CHECK_ERR(clRetainEvent(NULL), CL_INVALID_EVENT);
  CHECK_ERR(clReleaseEvent(NULL), CL_INVALID_EVENT);
  CHECK_ERR(clRetainEvent(BOGUS(cl_event)), CL_INVALID_EVENT);
  CHECK_ERR(clReleaseEvent(BOGUS(cl_event)), CL_INVALID_EVENT);

  /* status: only CL_COMPLETE or negative, once */
  CHECK_ERR(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
  CHECK_ERR(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
  CHECK_ERR(clSetUserEventStatus(u, 7), CL_INVALID_VALUE);
  CHECK_ERR(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
  CHECK_ERR(clSetUserEventStatus(BOGUS(cl_event), CL_COMPLETE), CL_INVALID_EVENT);
  CHECK(event_status(u) == CL_SUBMITTED);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(event_status(u) == CL_COMPLETE);
  CHECK_ERR(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK_ERR(clSetUserEventStatus(u, -1), CL_INVALID_OPERATION);
  CHECK(event_status(u) == CL_COMPLETE);
  CHECK_OK(clWaitForEvents(1, &u));
  CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);

  /* clSetUserEventStatus on a command's event */
  cl_event m;
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &m));
  CHECK_ERR(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);
  CHECK_OK(clWaitForEvents(1, &m));
  CHECK_OK(clReleaseEvent(m));

  /* a user event failing with a negative status */
  cl_event f = clCreateUserEvent(env->context, NULL);
  CHECK(f != NULL);
  CHECK_OK(clSetUserEventStatus(f, -42));
  CHECK(event_status(f) == -42);
  CHECK_ERR(clWaitForEvents(1, &f), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event both[2] = {u, f};
  CHECK_ERR(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_OK(clReleaseEvent(f));
  CHECK_OK(clReleaseEvent(u));
}

static void test_user_event_callbacks(struct test_env *env) {
  cl_event u = clCreateUserEvent(env->context, NULL);
  cb_log_reset();
  /* error paths */
  CHECK_ERR(clSetEventCallback(NULL, CL_COMPLETE, record_cb, NULL), CL_INVALID_EVENT);
  CHECK_ERR(clSetEventCallback(BOGUS(cl_event), CL_COMPLETE, record_cb, NULL),
            CL_INVALID_EVENT);
  CHECK_ERR(clSetEventCallback(u, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetEventCallback(u, CL_QUEUED, record_cb, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetEventCallback(u, -1, record_cb, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetEventCallback(u, 17, record_cb, NULL), CL_INVALID_VALUE);
  CHECK(cb_log.n == 0);

  /* a user event starts CL_SUBMITTED: that callback fires at once */
  CHECK_OK(clSetEventCallback(u, CL_SUBMITTED, record_cb, (void *)1));
  CHECK(cb_log.n == 1 && cb_status_of(1) == CL_SUBMITTED);
  CHECK_OK(clSetEventCallback(u, CL_RUNNING, record_cb, (void *)2));
  CHECK_OK(clSetEventCallback(u, CL_COMPLETE, record_cb, (void *)3));
  CHECK_OK(clSetEventCallback(u, CL_COMPLETE, record_cb, (void *)4));
  CHECK(cb_log.n == 1);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(cb_log.n == 4);
  CHECK(cb_status_of(2) == CL_RUNNING);
  CHECK(cb_status_of(3) == CL_COMPLETE);
  CHECK(cb_status_of(4) == CL_COMPLETE);
  /* registered after completion: fires immediately */
  CHECK_OK(clSetEventCallback(u, CL_COMPLETE, record_cb, (void *)5));
  CHECK_OK(clSetEventCallback(u, CL_RUNNING, record_cb, (void *)6));
  CHECK(cb_log.n == 6);
  CHECK(cb_status_of(5) == CL_COMPLETE && cb_status_of(6) == CL_RUNNING);
  CHECK_OK(clReleaseEvent(u));

  /* failure: every pending callback gets the error */
  cb_log_reset();
  cl_event f = clCreateUserEvent(env->context, NULL);
  CHECK_OK(clSetEventCallback(f, CL_RUNNING, record_cb, (void *)1));
  CHECK_OK(clSetEventCallback(f, CL_COMPLETE, record_cb, (void *)2));
  CHECK_OK(clSetUserEventStatus(f, -9));
  CHECK(cb_status_of(1) == -9 && cb_status_of(2) == -9);
  CHECK_OK(clSetEventCallback(f, CL_SUBMITTED, record_cb, (void *)3));
  CHECK(cb_status_of(3) == -9);
  CHECK_OK(clReleaseEvent(f));
}

/* A command's callbacks for all three triggers, in the order they happen. */
static void test_command_callbacks(struct test_env *env) {
  cb_log_reset();
  cl_event u = clCreateUserEvent(env->context, NULL), m;
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 1, &u, &m));
  CHECK(event_status(m) == CL_QUEUED);
  CHECK_OK(clSetEventCallback(m, CL_COMPLETE, record_cb, (void *)3));
  CHECK_OK(clSetEventCallback(m, CL_RUNNING, record_cb, (void *)2));
  CHECK_OK(clSetEventCallback(m, CL_SUBMITTED, record_cb, (void *)1));
  CHECK(cb_log.n == 0);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &m)); /* callbacks have run by now */
  CHECK(cb_log.n == 3);
  CHECK(cb_log.tag[0] == 1 && cb_log.status[0] == CL_SUBMITTED);
  CHECK(cb_log.tag[1] == 2 && cb_log.status[1] == CL_RUNNING);
  CHECK(cb_log.tag[2] == 3 && cb_log.status[2] == CL_COMPLETE);
  CHECK(event_status(m) == CL_COMPLETE);
  CHECK_OK(clSetEventCallback(m, CL_SUBMITTED, record_cb, (void *)4));
  CHECK(cb_status_of(4) == CL_SUBMITTED);
  CHECK_OK(clReleaseEvent(m));
  CHECK_OK(clReleaseEvent(u));
}

/* A CL_COMPLETE callback may release the event and enqueue more work. */
static int release_cb_calls;
static void CL_CALLBACK release_and_enqueue_cb(cl_event e, cl_int status, void *data) {
  cl_command_queue q = data;
  release_cb_calls++;
  if (status == CL_COMPLETE)
    clEnqueueMarkerWithWaitList(q, 0, NULL, NULL);
  clReleaseEvent(e);
}

static void test_callback_releases_event(struct test_env *env) {
  cl_event u = clCreateUserEvent(env->context, NULL), m;
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 1, &u, &m));
  CHECK_OK(clSetEventCallback(m, CL_COMPLETE, release_and_enqueue_cb, env->queue));
  m = NULL; /* the callback owns the reference now */
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clFinish(env->queue));
  CHECK(release_cb_calls == 1);
  /* on an event that is already complete: the callback runs at once */
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &m));
  CHECK_OK(clWaitForEvents(1, &m));
  CHECK_OK(clSetEventCallback(m, CL_COMPLETE, release_and_enqueue_cb, env->queue));
  CHECK(release_cb_calls == 2);
  CHECK_OK(clFinish(env->queue));
  CHECK_OK(clReleaseEvent(u));
}

/* A failed user event fails the commands that have it (or a failed command)
 * in their wait list, transitively and across queues. Queue order alone does
 * not propagate failure: later commands of the queue still run. */
static void test_failure_propagation(struct test_env *env) {
  cl_int err;
  cl_command_queue q2 = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  CHECK_OK(err);
  cl_event u = clCreateUserEvent(env->context, NULL), m1, m2, m3, after, b;
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 1, &u, &m1));
  CHECK_OK(clEnqueueMarkerWithWaitList(q2, 1, &m1, &m2));
  CHECK_OK(clEnqueueBarrierWithWaitList(q2, 1, &m2, &m3));
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &after)); /* after m1 */
  CHECK_OK(clEnqueueBarrierWithWaitList(q2, 0, NULL, &b));            /* after m3 */
  cb_log_reset();
  CHECK_OK(clSetEventCallback(m2, CL_COMPLETE, record_cb, (void *)1));
  CHECK_OK(clSetEventCallback(m2, CL_RUNNING, record_cb, (void *)2));
  CHECK_OK(clSetEventCallback(m2, CL_SUBMITTED, record_cb, (void *)3));
  CHECK(event_status(m1) == CL_QUEUED && event_status(m2) == CL_QUEUED);
  CHECK(event_status(after) == CL_QUEUED && event_status(b) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u, -77));
  CHECK_ERR(clWaitForEvents(1, &m3), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(event_status(u) == -77);
  CHECK(event_status(m1) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(event_status(m2) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(event_status(m3) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(cb_log.n == 3);
  CHECK(cb_status_of(1) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(cb_status_of(2) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(cb_status_of(3) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event fine[2] = {after, b};
  CHECK_OK(clWaitForEvents(2, fine));
  cl_event mixed[2] = {after, m1};
  CHECK_ERR(clWaitForEvents(2, mixed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_ulong t;
  CHECK_ERR(clGetEventProfilingInfo(m1, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);

  /* a wait list naming an event that already failed fails the new command at
   * once, and a blocking-style wait on it reports the failure */
  cl_event late, ok;
  CHECK_OK(clEnqueueMarkerWithWaitList(q2, 1, &m2, &late));
  CHECK(event_status(late) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clWaitForEvents(1, &late), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_OK(clEnqueueMarkerWithWaitList(q2, 0, NULL, &ok));
  CHECK_OK(clWaitForEvents(1, &ok));
  CHECK_OK(clFinish(q2));
  CHECK_OK(clFinish(env->queue));
  cl_event evs[] = {u, m1, m2, m3, after, b, late, ok};
  for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
    CHECK_OK(clReleaseEvent(evs[i]));
  CHECK_OK(clReleaseCommandQueue(q2));
}

static void test_wait_errors(struct test_env *env) {
  cl_int err;
  cl_event u = clCreateUserEvent(env->context, NULL);
  CHECK_ERR(clWaitForEvents(0, &u), CL_INVALID_VALUE);
  CHECK_ERR(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
  cl_event list[2] = {u, NULL};
  CHECK_ERR(clWaitForEvents(2, list), CL_INVALID_EVENT);
  list[1] = BOGUS(cl_event);
  CHECK_ERR(clWaitForEvents(2, list), CL_INVALID_EVENT);
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  CHECK_OK(err);
  cl_event v = clCreateUserEvent(other, NULL);
  list[1] = v;
  CHECK_ERR(clWaitForEvents(2, list), CL_INVALID_CONTEXT);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clSetUserEventStatus(v, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &v));
  CHECK_OK(clReleaseEvent(v));
  CHECK_OK(clReleaseEvent(u));
  CHECK_OK(clReleaseContext(other));
}

static void test_marker_barrier_errors(struct test_env *env) {
  cl_int err;
  cl_command_queue q = env->queue;
  cl_event u = clCreateUserEvent(env->context, NULL), e = NULL;
  cl_event bad_list[1] = {BOGUS(cl_event)};
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  cl_event foreign = clCreateUserEvent(other, NULL);

  CHECK_ERR(clEnqueueMarkerWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMarkerWithWaitList(BOGUS(cl_command_queue), 0, NULL, &e),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, NULL, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, &u, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, bad_list, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &foreign, &e), CL_INVALID_CONTEXT);

  CHECK_ERR(clEnqueueBarrierWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, NULL, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 0, &u, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, bad_list, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, &foreign, &e), CL_INVALID_CONTEXT);

  CHECK_ERR(clEnqueueMarker(NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueBarrier(BOGUS(cl_command_queue)), CL_INVALID_COMMAND_QUEUE);

  CHECK_ERR(clEnqueueWaitForEvents(NULL, 1, &u), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueWaitForEvents(q, 0, &u), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWaitForEvents(q, 1, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWaitForEvents(q, 1, bad_list), CL_INVALID_EVENT);
  CHECK_ERR(clEnqueueWaitForEvents(q, 1, &foreign), CL_INVALID_CONTEXT);
  cl_event mixed[2] = {u, foreign};
  CHECK_ERR(clEnqueueWaitForEvents(q, 2, mixed), CL_INVALID_CONTEXT);
  CHECK(e == NULL); /* no failed call produced an event */

  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
  CHECK_OK(clReleaseEvent(u));
  CHECK_OK(clReleaseEvent(foreign));
  CHECK_OK(clReleaseContext(other));
}

/* Event objects of markers and barriers, the 1.x forms, and reference counts
 * of command events. */
static void test_marker_barrier_events(struct test_env *env) {
  cl_command_queue q = env->queue;
  cl_event u = clCreateUserEvent(env->context, NULL), m, b, m1x;
  CHECK_OK(clEnqueueMarkerWithWaitList(q, 1, &u, &m));
  CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &b));
  CHECK_OK(clEnqueueWaitForEvents(q, 1, &u));
  CHECK_OK(clEnqueueBarrier(q));
  CHECK_OK(clEnqueueMarker(q, &m1x));
  cl_command_type type;
  CHECK_OK(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MARKER);
  CHECK_OK(clGetEventInfo(b, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_BARRIER);
  CHECK_OK(clGetEventInfo(m1x, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_MARKER);
  cl_command_queue eq = NULL;
  CHECK_OK(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
  CHECK(eq == q);
  CHECK(event_refs(m) == 1);
  CHECK_OK(clRetainEvent(m));
  CHECK(event_refs(m) == 2);
  CHECK_OK(clReleaseEvent(m));
  CHECK(event_refs(m) == 1);
  CHECK(event_status(m) == CL_QUEUED && event_status(b) == CL_QUEUED &&
        event_status(m1x) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &m1x));
  CHECK(event_status(m) == CL_COMPLETE && event_status(b) == CL_COMPLETE);
  /* an application reference keeps a completed event queryable */
  CHECK_OK(clFinish(q));
  CHECK(event_refs(m) == 1 && event_status(m) == CL_COMPLETE);
  CHECK_OK(clReleaseEvent(m));
  CHECK_OK(clReleaseEvent(b));
  CHECK_OK(clReleaseEvent(m1x));
  CHECK_OK(clReleaseEvent(u));
}

static void test_profiling(struct test_env *env) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue pq = clCreateCommandQueueWithProperties(env->context, env->device, props, &err);
  CHECK_OK(err);
  cl_event u = clCreateUserEvent(env->context, NULL), m, plain;
  CHECK_OK(clEnqueueMarkerWithWaitList(pq, 1, &u, &m));
  cl_ulong t[5];
  /* not complete yet */
  CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &m));
  cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++) {
    size_t size = 0;
    CHECK_OK(clGetEventProfilingInfo(m, names[i], sizeof t[i], &t[i], &size));
    CHECK(size == sizeof(cl_ulong));
  }
  CHECK(t[0] > 0);
  CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
  CHECK_ERR(clGetEventProfilingInfo(m, 0x7777, sizeof t[0], &t[0], NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, 4, &t[0], NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL),
            CL_INVALID_EVENT);
  CHECK_ERR(clGetEventProfilingInfo(BOGUS(cl_event), CL_PROFILING_COMMAND_END, sizeof t[0],
                                    &t[0], NULL),
            CL_INVALID_EVENT);

  /* a queue without profiling */
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &plain));
  CHECK_OK(clWaitForEvents(1, &plain));
  CHECK_ERR(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_START, sizeof t[0], &t[0], NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);

  /* a sequence of commands on a profiling queue: each starts after the
   * previous ended */
  cl_event seq[4];
  for (int i = 0; i < 4; i++)
    CHECK_OK(clEnqueueMarkerWithWaitList(pq, 0, NULL, &seq[i]));
  CHECK_OK(clFinish(pq));
  cl_ulong prev_end = 0;
  for (int i = 0; i < 4; i++) {
    cl_ulong start = 0, end = 0;
    CHECK_OK(clGetEventProfilingInfo(seq[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK_OK(clGetEventProfilingInfo(seq[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(prev_end <= start && start <= end);
    prev_end = end;
    CHECK_OK(clReleaseEvent(seq[i]));
  }
  CHECK_OK(clReleaseEvent(plain));
  CHECK_OK(clReleaseEvent(m));
  CHECK_OK(clReleaseEvent(u));
  CHECK_OK(clReleaseCommandQueue(pq));
}

/* Host threads waiting on one user event wake up when it is set. */
struct waiter_arg {
  cl_event ev;
  cl_int result;
};
static void *waiter_thread(void *p) {
  struct waiter_arg *a = p;
  a->result = clWaitForEvents(1, &a->ev);
  return NULL;
}

static void test_many_waiters(struct test_env *env) {
  enum { N = 4 };
  cl_event u = clCreateUserEvent(env->context, NULL), m;
  CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 1, &u, &m));
  pthread_t th[N];
  struct waiter_arg args[N];
  for (int i = 0; i < N; i++) {
    args[i].ev = i % 2 ? u : m;
    args[i].result = 1;
    pthread_create(&th[i], NULL, waiter_thread, &args[i]);
  }
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    CHECK_OK(args[i].result);
  }
  CHECK_OK(clReleaseEvent(m));
  CHECK_OK(clReleaseEvent(u));
}

/* Enqueue -> completion round trips of an empty command, for information. */
static void report_latency(struct test_env *env) {
  enum { N = 20000 };
  cl_event e;
  cl_ulong t0 = 0, t1 = 0;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  t0 = (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
  for (int i = 0; i < N; i++) {
    CHECK_OK(clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &e));
    CHECK_OK(clWaitForEvents(1, &e));
    CHECK_OK(clReleaseEvent(e));
  }
  clock_gettime(CLOCK_MONOTONIC, &ts);
  t1 = (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
  printf("marker enqueue+wait+release: %.2f us\n", (double)(t1 - t0) / N / 1000.0);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_user_event_basics(&env);
  test_user_event_callbacks(&env);
  test_command_callbacks(&env);
  test_callback_releases_event(&env);
  test_failure_propagation(&env);
  test_wait_errors(&env);
  test_marker_barrier_errors(&env);
  test_marker_barrier_events(&env);
  test_profiling(&env);
  test_many_waiters(&env);
  report_latency(&env);
  test_env_release(&env);
  return test_finish("test_events");
}
