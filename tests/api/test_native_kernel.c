/* clEnqueueNativeKernel: the argument block is copied, cl_mem handles in it
 * become pointers to buffer storage, buffers stay alive while the command is
 * pending, and every error path. */
#include "harness.h"
#include <stdint.h>

static cl_int fake_object[16]; /* a pointer that is no OpenCL object */
#define BOGUS(type) ((type)(void *)fake_object)

static cl_int event_status(cl_event e) {
  cl_int s = 12345;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

struct sum_args {
  int a, b;
  int *out;
};
static void CL_CALLBACK sum_func(void *p) {
  struct sum_args *s = p;
  *s->out = s->a + s->b;
}

static int no_args_calls;
static void *no_args_seen = (void *)1;
static void CL_CALLBACK no_args_func(void *p) {
  no_args_seen = p;
  no_args_calls++;
}

/* args: {cl_mem -> float *, int n, cl_mem -> float *}; doubles src into dst */
struct double_args {
  float *src; /* a cl_mem at enqueue time */
  int n;
  float *dst; /* a cl_mem at enqueue time */
};
static void CL_CALLBACK double_func(void *p) {
  struct double_args *d = p;
  for (int i = 0; i < d->n; i++)
    d->dst[i] = 2.0f * d->src[i];
}

static void *null_mem_seen = (void *)1;
static void CL_CALLBACK null_mem_func(void *p) { memcpy(&null_mem_seen, p, sizeof(void *)); }

static int destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem m, void *data) {
  (void)m;
  (void)data;
  destructor_calls++;
}

static void test_args_copied(struct test_env *env) {
  int out = 0;
  struct sum_args args = {20, 22, &out};
  cl_event u = clCreateUserEvent(env->context, NULL), e;
  CHECK_OK(clEnqueueNativeKernel(env->queue, sum_func, &args, sizeof args, 0, NULL, NULL, 1,
                                 &u, &e));
  cl_command_type type = 0;
  CHECK_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_NATIVE_KERNEL);
  args.a = 1000; /* the command has its own copy */
  CHECK(event_status(e) == CL_QUEUED && out == 0);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &e));
  CHECK(out == 42);
  CHECK_OK(clReleaseEvent(e));
  CHECK_OK(clReleaseEvent(u));

  /* no argument block */
  CHECK_OK(clEnqueueNativeKernel(env->queue, no_args_func, NULL, 0, 0, NULL, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  CHECK(no_args_calls == 1 && no_args_seen == NULL);

  /* a failed wait list: the function is not called */
  cl_event f = clCreateUserEvent(env->context, NULL);
  CHECK_OK(clEnqueueNativeKernel(env->queue, no_args_func, NULL, 0, 0, NULL, NULL, 1, &f, &e));
  CHECK_OK(clSetUserEventStatus(f, -1));
  CHECK_ERR(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(no_args_calls == 1);
  CHECK_OK(clReleaseEvent(e));
  CHECK_OK(clReleaseEvent(f));
}

static void test_mem_objects(struct test_env *env) {
  enum { N = 64 };
  cl_int err;
  float host[N], result[N];
  for (int i = 0; i < N; i++)
    host[i] = (float)i;
  cl_mem src = clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host,
                              host, &err);
  CHECK_OK(err);
  cl_mem dst = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  CHECK_OK(err);
  if (!src || !dst)
    return;
  CHECK_OK(clSetMemObjectDestructorCallback(src, on_destroy, NULL));

  struct double_args args;
  memset(&args, 0, sizeof args);
  memcpy(&args.src, &src, sizeof src);
  memcpy(&args.dst, &dst, sizeof dst);
  args.n = N;
  cl_mem mems[2] = {src, dst};
  const void *locs[2] = {&args.src, &args.dst};
  cl_event u = clCreateUserEvent(env->context, NULL), e;
  CHECK_OK(clEnqueueNativeKernel(env->queue, double_func, &args, sizeof args, 2, mems, locs, 1,
                                 &u, &e));
  /* the command keeps src alive after the application let it go */
  CHECK_OK(clReleaseMemObject(src));
  CHECK(destructor_calls == 0);
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clFinish(env->queue));
  CHECK(event_status(e) == CL_COMPLETE);
  CHECK(destructor_calls == 1); /* released by the time clFinish returned */
  CHECK_OK(clEnqueueReadBuffer(env->queue, dst, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= result[i] == 2.0f * (float)i;
  CHECK(ok);

  /* a NULL entry in mem_list becomes a NULL pointer */
  cl_mem none = NULL;
  void *slot = (void *)&args;
  const void *slot_loc = &slot;
  cl_mem nulls[1] = {none};
  CHECK_OK(clEnqueueNativeKernel(env->queue, null_mem_func, &slot, sizeof slot, 1, nulls,
                                 &slot_loc, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  CHECK(null_mem_seen == NULL);

  /* errors involving memory objects */
  cl_mem bad[1] = {BOGUS(cl_mem)};
  CHECK_ERR(clEnqueueNativeKernel(env->queue, double_func, &args, sizeof args, 1, bad, locs, 0,
                                  NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  cl_mem not_mem[1] = {(cl_mem)env->context};
  CHECK_ERR(clEnqueueNativeKernel(env->queue, double_func, &args, sizeof args, 1, not_mem, locs,
                                  0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  /* a location outside the argument block */
  const void *outside[1] = {(const char *)&args + sizeof args};
  CHECK_ERR(clEnqueueNativeKernel(env->queue, double_func, &args, sizeof args, 1, mems + 1,
                                  outside, 0, NULL, NULL),
            CL_INVALID_VALUE);
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clEnqueueNativeKernel(env->queue, double_func, &args, sizeof args, 1, &foreign, locs,
                                  0, NULL, NULL),
            CL_INVALID_CONTEXT);
  CHECK_OK(clReleaseMemObject(foreign));
  CHECK_OK(clReleaseContext(other));

  CHECK_OK(clReleaseEvent(e));
  CHECK_OK(clReleaseEvent(u));
  CHECK_OK(clReleaseMemObject(dst));
}

static void test_errors(struct test_env *env) {
  cl_command_queue q = env->queue;
  int x = 0;
  int *px = &x;
  cl_mem m = NULL;
  const void *loc = &px;
  cl_event e = NULL, u = clCreateUserEvent(env->context, NULL);

  CHECK_ERR(clEnqueueNativeKernel(NULL, no_args_func, NULL, 0, 0, NULL, NULL, 0, NULL, &e),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNativeKernel(BOGUS(cl_command_queue), no_args_func, NULL, 0, 0, NULL, NULL,
                                  0, NULL, &e),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNativeKernel(q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, &e), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 4, 0, NULL, NULL, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, &x, 0, 0, NULL, NULL, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 0, 1, &m, &loc, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, &px, sizeof px, 1, NULL, &loc, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, &px, sizeof px, 1, &m, NULL, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, &px, sizeof px, 0, &m, NULL, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, &px, sizeof px, 0, NULL, &loc, 0, NULL, &e),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 0, 0, NULL, NULL, 1, NULL, &e),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 0, 0, NULL, NULL, 0, &u, &e),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event bad_list[1] = {BOGUS(cl_event)};
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 0, 0, NULL, NULL, 1, bad_list, &e),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_int err;
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  cl_event foreign = clCreateUserEvent(other, NULL);
  CHECK_ERR(clEnqueueNativeKernel(q, no_args_func, NULL, 0, 0, NULL, NULL, 1, &foreign, &e),
            CL_INVALID_CONTEXT);
  CHECK(e == NULL);
  CHECK_OK(clFinish(q));
  CHECK(no_args_calls == 1); /* none of the failed calls ran anything */
  CHECK_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
  CHECK_OK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(clReleaseEvent(foreign));
  CHECK_OK(clReleaseEvent(u));
  CHECK_OK(clReleaseContext(other));
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_args_copied(&env);
  test_errors(&env);
  test_mem_objects(&env);
  test_env_release(&env);
  return test_finish("test_native_kernel");
}
