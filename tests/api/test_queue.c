/* Command queues: creation and queries with their error paths, in-order and
 * out-of-order execution with user events, markers and barriers (order seen
 * through native-kernel side effects), clFinish, release with commands in
 * flight, long dependency chains, and several host threads on one queue. */
#include "harness.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <time.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

static cl_int event_status(cl_event e) {
  cl_int s = 12345;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

static cl_uint queue_refs(cl_command_queue q) {
  cl_uint n = 0;
  clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
  return n;
}

/* ---------- execution order through native kernels ---------- */

static struct {
  pthread_mutex_t lock;
  int n;
  int order[64];
} trace = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};

static void CL_CALLBACK trace_func(void *args) {
  pthread_mutex_lock(&trace.lock);
  if (trace.n < 64)
    trace.order[trace.n++] = *(int *)args;
  pthread_mutex_unlock(&trace.lock);
}

static void trace_reset(void) { trace.n = 0; }

/* enqueues a native kernel that appends id to the trace */
static cl_event enqueue_trace(cl_command_queue q, int id, cl_uint num_wait,
                              const cl_event *wait) {
  cl_event e = NULL;
  CHECK_OK(clEnqueueNativeKernel(q, trace_func, &id, sizeof id, 0, NULL, NULL,
                                 num_wait, wait, &e));
  return e;
}

static void release_all(cl_event *evs, int n) {
  for (int i = 0; i < n; i++)
    CHECK_OK(clReleaseEvent(evs[i]));
}

/* ---------- creation and queries ---------- */

static void test_create_1x(struct test_env *env) {
  cl_int err = 1;
  cl_command_queue_properties ok_props[] = {
      0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
      CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  for (int i = 0; i < 4; i++) {
    cl_command_queue q = clCreateCommandQueue(env->context, env->device, ok_props[i], &err);
    CHECK_OK(err);
    CHECK(q != NULL);
    cl_command_queue_properties p = 99;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
    CHECK(p == ok_props[i]);
    size_t size = 99;
    CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
    CHECK(size == 0);
    CHECK_OK(clReleaseCommandQueue(q));
  }
  cl_command_queue q = clCreateCommandQueue(env->context, env->device, 0, NULL);
  CHECK(q != NULL);
  CHECK_OK(clReleaseCommandQueue(q));

  CHECK(clCreateCommandQueue(NULL, env->device, 0, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueue(BOGUS(cl_context), env->device, 0, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueue(env->context, NULL, 0, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueue(env->context, (cl_device_id)env->context, 0, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueue(env->context, env->device, (cl_command_queue_properties)1 << 20,
                             &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateCommandQueue(env->context, env->device, CL_QUEUE_ON_DEVICE, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE); /* a device queue must be out of order */
  CHECK(clCreateCommandQueue(env->context, env->device,
                             CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                             &err) == NULL);
  CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
}

static void test_create_with_properties(struct test_env *env) {
  cl_int err = 1;
  cl_context ctx = env->context;
  cl_device_id dev = env->device;

  /* NULL list: an in-order host queue, empty PROPERTIES_ARRAY */
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK_OK(err);
  cl_context c = NULL;
  cl_device_id d = NULL;
  cl_command_queue_properties p = 99;
  cl_command_queue dq = BOGUS(cl_command_queue);
  size_t size = 99;
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, &size));
  CHECK(c == ctx && size == sizeof c);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL));
  CHECK(d == dev);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  CHECK(p == 0);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
  CHECK(size == 0);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, &size));
  CHECK(dq == NULL && size == sizeof dq);
  cl_uint qsize;
  CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clGetCommandQueueInfo(q, 0x7777, sizeof p, &p, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 1, &c, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, sizeof c, &c, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clGetCommandQueueInfo(BOGUS(cl_command_queue), CL_QUEUE_CONTEXT, sizeof c, &c, NULL),
            CL_INVALID_COMMAND_QUEUE);

  /* reference counts */
  CHECK(queue_refs(q) == 1);
  CHECK_OK(clRetainCommandQueue(q));
  CHECK(queue_refs(q) == 2);
  CHECK_OK(clReleaseCommandQueue(q));
  CHECK(queue_refs(q) == 1);
  CHECK_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clRetainCommandQueue(BOGUS(cl_command_queue)), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clReleaseCommandQueue(BOGUS(cl_command_queue)), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clRetainCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFlush(BOGUS(cl_command_queue)), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFinish(BOGUS(cl_command_queue)), CL_INVALID_COMMAND_QUEUE);
  CHECK_OK(clFlush(q));
  CHECK_OK(clFinish(q));
  CHECK_OK(clReleaseCommandQueue(q));

  /* the list as passed comes back, terminator included */
  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES,
                                CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                0};
  q = clCreateCommandQueueWithProperties(ctx, dev, list, &err);
  CHECK_OK(err);
  cl_queue_properties back[4] = {9, 9, 9, 9};
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &size));
  CHECK(size == sizeof list);
  CHECK(back[0] == list[0] && back[1] == list[1] && back[2] == 0 && back[3] == 9);
  CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof list - 1, back, NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  CHECK(p == (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  CHECK_OK(clReleaseCommandQueue(q));

  cl_queue_properties empty[] = {0};
  q = clCreateCommandQueueWithProperties(ctx, dev, empty, &err);
  CHECK_OK(err);
  CHECK_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
  CHECK(size == sizeof empty);
  CHECK_OK(clReleaseCommandQueue(q));

  /* errors */
  CHECK(clCreateCommandQueueWithProperties(NULL, dev, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueueWithProperties(BOGUS(cl_context), dev, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueueWithProperties(ctx, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueueWithProperties(ctx, BOGUS(cl_device_id), NULL, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  struct {
    cl_queue_properties list[7];
    cl_int expected;
  } bad[] = {
      {{0x7777, 0, 0}, CL_INVALID_VALUE},                               /* unknown key */
      {{CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 30, 0}, CL_INVALID_VALUE},
      {{CL_QUEUE_SIZE, 1024, 0}, CL_INVALID_VALUE},                     /* host queue */
      {{CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_SIZE, 16, 0}, CL_INVALID_VALUE},
      {{CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}, CL_INVALID_VALUE}, /* repeated */
      {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}, CL_INVALID_VALUE}, /* needs OOO */
      {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
       CL_INVALID_VALUE},                                               /* needs ON_DEVICE */
      {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
       CL_INVALID_QUEUE_PROPERTIES},
      {{CL_QUEUE_PROPERTIES,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_SIZE, 1024, 0},
       CL_INVALID_QUEUE_PROPERTIES},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err = 1;
    CHECK(clCreateCommandQueueWithProperties(ctx, dev, bad[i].list, &err) == NULL);
    if (err != bad[i].expected)
      fprintf(stderr, "property list %zu: got %d, expected %d\n", i, err, bad[i].expected);
    CHECK(err == bad[i].expected);
  }
  CHECK(clCreateCommandQueueWithProperties(ctx, dev, bad[0].list, NULL) == NULL);
}

/* ---------- ordering ---------- */

static void test_in_order(struct test_env *env) {
  cl_command_queue q = env->queue;
  trace_reset();
  cl_event u = clCreateUserEvent(env->context, NULL), e[6];
  e[0] = enqueue_trace(q, 0, 1, &u);
  for (int i = 1; i < 6; i++)
    e[i] = enqueue_trace(q, i, 0, NULL);
  CHECK(trace.n == 0);
  for (int i = 0; i < 6; i++)
    CHECK(event_status(e[i]) == CL_QUEUED);
  CHECK_OK(clFlush(q));
  CHECK(trace.n == 0);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clFinish(q));
  CHECK(trace.n == 6);
  for (int i = 0; i < trace.n; i++)
    CHECK(trace.order[i] == i);
  for (int i = 0; i < 6; i++)
    CHECK(event_status(e[i]) == CL_COMPLETE);
  release_all(e, 6);
  CHECK_OK(clReleaseEvent(u));
}

static cl_command_queue make_ooo(struct test_env *env) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, props, &err);
  CHECK_OK(err);
  return q;
}

/* Out of order: commands run as their own wait lists allow. */
static void test_out_of_order(struct test_env *env) {
  cl_command_queue q = make_ooo(env);
  trace_reset();
  cl_event u[3], e[3];
  for (int i = 0; i < 3; i++) {
    u[i] = clCreateUserEvent(env->context, NULL);
    e[i] = enqueue_trace(q, i, 1, &u[i]);
  }
  cl_event free_runner = enqueue_trace(q, 9, 0, NULL); /* nothing to wait for */
  CHECK_OK(clWaitForEvents(1, &free_runner));
  CHECK(trace.n == 1 && trace.order[0] == 9);
  /* a marker without wait list waits for everything before it */
  cl_event marker;
  CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker));
  /* a command enqueued after the marker does not wait for it */
  cl_event after_marker = enqueue_trace(q, 10, 0, NULL);
  CHECK_OK(clWaitForEvents(1, &after_marker));
  CHECK(trace.n == 2 && trace.order[1] == 10);
  CHECK_OK(clSetUserEventStatus(u[2], CL_COMPLETE));
  CHECK_OK(clSetUserEventStatus(u[1], CL_COMPLETE));
  CHECK(trace.n == 4 && trace.order[2] == 2 && trace.order[3] == 1);
  CHECK(event_status(marker) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u[0], CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &marker));
  CHECK(trace.n == 5 && trace.order[4] == 0);
  CHECK_OK(clFinish(q));
  release_all(u, 3);
  release_all(e, 3);
  CHECK_OK(clReleaseEvent(free_runner));
  CHECK_OK(clReleaseEvent(marker));
  CHECK_OK(clReleaseEvent(after_marker));
  CHECK_OK(clReleaseCommandQueue(q));
}

/* Out of order: a barrier holds back everything enqueued after it. */
static void test_out_of_order_barriers(struct test_env *env) {
  cl_command_queue q = make_ooo(env);
  trace_reset();
  cl_event u1 = clCreateUserEvent(env->context, NULL);
  cl_event u2 = clCreateUserEvent(env->context, NULL);
  cl_event a = enqueue_trace(q, 1, 1, &u1);
  cl_event b = enqueue_trace(q, 2, 1, &u2);
  cl_event barrier;
  CHECK_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier));
  cl_event c = enqueue_trace(q, 3, 0, NULL);
  CHECK_OK(clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK(trace.n == 1 && trace.order[0] == 2);
  CHECK(event_status(barrier) == CL_QUEUED && event_status(c) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u1, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &c));
  CHECK(trace.n == 3 && trace.order[1] == 1 && trace.order[2] == 3);
  CHECK(event_status(barrier) == CL_COMPLETE);

  /* a barrier with a wait list waits only for that list, but still holds
   * back later commands; clFinish still waits for everything */
  trace_reset();
  cl_event u3 = clCreateUserEvent(env->context, NULL);
  cl_event u4 = clCreateUserEvent(env->context, NULL);
  cl_event d = enqueue_trace(q, 4, 1, &u3);
  cl_event e = enqueue_trace(q, 5, 1, &u4);
  cl_event b2;
  CHECK_OK(clEnqueueBarrierWithWaitList(q, 1, &u4, &b2));
  cl_event f = enqueue_trace(q, 6, 0, NULL);
  CHECK(trace.n == 0);
  CHECK_OK(clSetUserEventStatus(u4, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &f));
  CHECK(trace.n == 2 && trace.order[0] == 5 && trace.order[1] == 6);
  CHECK(event_status(b2) == CL_COMPLETE);
  CHECK(event_status(d) == CL_QUEUED);
  /* a marker without wait list still covers d */
  cl_event all;
  CHECK_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &all));
  CHECK(event_status(all) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u3, CL_COMPLETE));
  CHECK_OK(clFinish(q));
  CHECK(event_status(all) == CL_COMPLETE);
  CHECK(trace.n == 3 && trace.order[2] == 4);

  /* clEnqueueWaitForEvents holds back later commands like a barrier */
  trace_reset();
  cl_event u5 = clCreateUserEvent(env->context, NULL);
  CHECK_OK(clEnqueueWaitForEvents(q, 1, &u5));
  cl_event g = enqueue_trace(q, 7, 0, NULL);
  CHECK(trace.n == 0 && event_status(g) == CL_QUEUED);
  CHECK_OK(clSetUserEventStatus(u5, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &g));
  CHECK(trace.n == 1 && trace.order[0] == 7);

  /* clEnqueueBarrier (1.x) */
  trace_reset();
  cl_event u6 = clCreateUserEvent(env->context, NULL);
  cl_event h = enqueue_trace(q, 8, 1, &u6);
  CHECK_OK(clEnqueueBarrier(q));
  cl_event i = enqueue_trace(q, 9, 0, NULL);
  CHECK(trace.n == 0);
  CHECK_OK(clSetUserEventStatus(u6, CL_COMPLETE));
  CHECK_OK(clFinish(q));
  CHECK(trace.n == 2 && trace.order[0] == 8 && trace.order[1] == 9);

  cl_event evs[] = {u1, u2, a, b, barrier, c, u3, u4, d, e, b2, f, all, u5, g, u6, h, i};
  release_all(evs, (int)(sizeof evs / sizeof *evs));
  CHECK_OK(clReleaseCommandQueue(q));
}

/* ---------- finish and release with commands in flight ---------- */

struct delayed_set {
  cl_event ev;
  int delay_ms;
};
static void *set_later(void *p) {
  struct delayed_set *d = p;
  struct timespec ts = {0, d->delay_ms * 1000000L};
  nanosleep(&ts, NULL);
  clSetUserEventStatus(d->ev, CL_COMPLETE);
  return NULL;
}

static void test_finish_blocks(struct test_env *env) {
  for (int ooo = 0; ooo < 2; ooo++) {
    cl_command_queue q = ooo ? make_ooo(env) : env->queue;
    trace_reset();
    cl_event u = clCreateUserEvent(env->context, NULL);
    cl_event e = enqueue_trace(q, 1, 1, &u);
    pthread_t th;
    struct delayed_set d = {u, 20};
    pthread_create(&th, NULL, set_later, &d);
    CHECK_OK(clFinish(q));
    CHECK(trace.n == 1);
    CHECK(event_status(e) == CL_COMPLETE);
    pthread_join(th, NULL);
    CHECK_OK(clReleaseEvent(e));
    CHECK_OK(clReleaseEvent(u));
    if (ooo)
      CHECK_OK(clReleaseCommandQueue(q));
  }
}

static void test_release_in_flight(struct test_env *env) {
  for (int ooo = 0; ooo < 2; ooo++) {
    cl_command_queue q = ooo ? make_ooo(env) : clCreateCommandQueue(env->context, env->device, 0, NULL);
    trace_reset();
    cl_event u = clCreateUserEvent(env->context, NULL);
    cl_event e = enqueue_trace(q, 1, 1, &u);
    int two = 2; /* no event requested */
    CHECK_OK(clEnqueueNativeKernel(q, trace_func, &two, sizeof two, 0, NULL, NULL, 0, NULL, NULL));
    CHECK_OK(clReleaseEvent(enqueue_trace(q, 3, 1, &u)));
    CHECK_OK(clReleaseCommandQueue(q));
    /* the queue lives on for its commands; the event still names it */
    cl_command_queue eq = NULL;
    CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CHECK(eq == q);
    CHECK(trace.n == (ooo ? 1 : 0));
    CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &e));
    CHECK(trace.n == 3);
    CHECK_OK(clReleaseEvent(e));
    CHECK_OK(clReleaseEvent(u));
  }
}

/* ---------- long chains ---------- */

static atomic_int chain_count;
static void CL_CALLBACK count_func(void *args) {
  (void)args;
  atomic_fetch_add(&chain_count, 1);
}

/* 10,000 commands behind one user event: completing it must not recurse. */
static void test_long_chains(struct test_env *env) {
  enum { N = 10000 };
  /* in order: native kernels, then markers */
  for (int fail = 0; fail < 2; fail++) {
    cl_command_queue q = clCreateCommandQueue(env->context, env->device, 0, NULL);
    atomic_store(&chain_count, 0);
    cl_event u = clCreateUserEvent(env->context, NULL), first, last;
    CHECK_OK(clEnqueueNativeKernel(q, count_func, NULL, 0, 0, NULL, NULL, 1, &u, &first));
    for (int i = 1; i < N - 1; i++)
      CHECK_OK(clEnqueueNativeKernel(q, count_func, NULL, 0, 0, NULL, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueMarker(q, &last));
    CHECK(atomic_load(&chain_count) == 0);
    CHECK_OK(clSetUserEventStatus(u, fail ? -3 : CL_COMPLETE));
    CHECK_OK(clWaitForEvents(1, &last));
    /* only the first has the failed event in its wait list */
    CHECK(atomic_load(&chain_count) == (fail ? N - 2 : N - 1));
    CHECK(event_status(first) == (fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE));
    CHECK_OK(clReleaseEvent(first));
    CHECK_OK(clReleaseEvent(last));
    CHECK_OK(clReleaseEvent(u));
    CHECK_OK(clReleaseCommandQueue(q));
  }

  /* out of order, each command naming the previous one in its wait list: a
   * failure at the head propagates through all of them */
  for (int fail = 0; fail < 2; fail++) {
    cl_command_queue q = make_ooo(env);
    atomic_store(&chain_count, 0);
    cl_event u = clCreateUserEvent(env->context, NULL), prev = u;
    clRetainEvent(u);
    for (int i = 0; i < N; i++) {
      cl_event next;
      CHECK_OK(clEnqueueNativeKernel(q, count_func, NULL, 0, 0, NULL, NULL, 1, &prev, &next));
      CHECK_OK(clReleaseEvent(prev));
      prev = next;
    }
    CHECK(atomic_load(&chain_count) == 0);
    CHECK_OK(clSetUserEventStatus(u, fail ? -3 : CL_COMPLETE));
    CHECK_ERR(clWaitForEvents(1, &prev), fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS);
    CHECK(atomic_load(&chain_count) == (fail ? 0 : N));
    CHECK_OK(clFinish(q));
    CHECK_OK(clReleaseEvent(prev));
    CHECK_OK(clReleaseEvent(u));
    CHECK_OK(clReleaseCommandQueue(q));
  }
}

/* ---------- several host threads on one queue ---------- */

enum { THREADS = 4, PER_THREAD = 2000 };

struct shared_run {
  cl_context context;
  cl_command_queue queue;
  pthread_mutex_t lock;
  cl_event latest[THREADS]; /* each thread's newest event, retained */
  bool in_order;
  int counter; /* plain int: commands of an in-order queue never overlap */
  atomic_int atomic_counter;
  atomic_int failures;
};

struct thread_arg {
  struct shared_run *run;
  int id;
};

static void CL_CALLBACK bump(void *args) {
  struct shared_run *run = *(struct shared_run **)args;
  if (run->in_order)
    run->counter++;
  atomic_fetch_add(&run->atomic_counter, 1);
}

static void *enqueue_thread(void *p) {
  struct thread_arg *a = p;
  struct shared_run *run = a->run;
  for (int i = 0; i < PER_THREAD; i++) {
    /* wait for a neighbour's latest command, either in the wait list or on
     * the host */
    cl_event other;
    pthread_mutex_lock(&run->lock);
    other = run->latest[(a->id + 1) % THREADS];
    if (other)
      clRetainEvent(other);
    pthread_mutex_unlock(&run->lock);
    cl_event mine;
    cl_int err = clEnqueueNativeKernel(run->queue, bump, &run, sizeof run, 0, NULL, NULL,
                                       other ? 1 : 0, other ? &other : NULL, &mine);
    if (err != CL_SUCCESS) {
      atomic_fetch_add(&run->failures, 1);
      continue;
    }
    if (other) {
      if (i % 8 == 0 && clWaitForEvents(1, &other) != CL_SUCCESS)
        atomic_fetch_add(&run->failures, 1);
      clReleaseEvent(other);
    }
    pthread_mutex_lock(&run->lock);
    cl_event old = run->latest[a->id];
    run->latest[a->id] = mine;
    pthread_mutex_unlock(&run->lock);
    if (old)
      clReleaseEvent(old);
  }
  return NULL;
}

static void test_threads(struct test_env *env) {
  for (int ooo = 0; ooo < 2; ooo++) {
    struct shared_run run = {0};
    run.context = env->context;
    run.in_order = !ooo;
    run.queue = ooo ? make_ooo(env) : clCreateCommandQueue(env->context, env->device, 0, NULL);
    pthread_mutex_init(&run.lock, NULL);
    pthread_t th[THREADS];
    struct thread_arg args[THREADS];
    for (int i = 0; i < THREADS; i++) {
      args[i].run = &run;
      args[i].id = i;
      pthread_create(&th[i], NULL, enqueue_thread, &args[i]);
    }
    for (int i = 0; i < THREADS; i++)
      pthread_join(th[i], NULL);
    CHECK_OK(clFinish(run.queue));
    CHECK(atomic_load(&run.failures) == 0);
    CHECK(atomic_load(&run.atomic_counter) == THREADS * PER_THREAD);
    if (!ooo)
      CHECK(run.counter == THREADS * PER_THREAD); /* in order: never concurrent */
    for (int i = 0; i < THREADS; i++) {
      CHECK(event_status(run.latest[i]) == CL_COMPLETE);
      CHECK_OK(clReleaseEvent(run.latest[i]));
    }
    CHECK_OK(clReleaseCommandQueue(run.queue));
    pthread_mutex_destroy(&run.lock);
  }
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_create_1x(&env);
  test_create_with_properties(&env);
  test_in_order(&env);
  test_out_of_order(&env);
  test_out_of_order_barriers(&env);
  test_finish_blocks(&env);
  test_release_in_flight(&env);
  test_long_chains(&env);
  test_threads(&env);
  test_env_release(&env);
  return test_finish("test_queue");
}
