/* A kernel that faults must not take the application down: its event ends
 * with a negative status and the queue keeps working. */
#include "harness.h"

static const char *src =
    "kernel void bad_store(global int *p, int offset) {\n"
    "  global int *q = (global int *)((ulong)offset);\n"
    "  q[get_global_id(0)] = 1;\n"
    "  p[get_global_id(0)] = 2;\n"
    "}\n"
    "kernel void div(global int *p, int n, int d) {\n"
    "  p[get_global_id(0)] = n / d + n % d;\n"
    "}\n"
    "kernel void fill(global int *p) { p[get_global_id(0)] = (int)get_global_id(0); }\n";

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_program prog;
  cl_kernel bad = test_build_kernel(&env, src, "bad_store", "", &prog);
  cl_int err;
  cl_kernel div = clCreateKernel(prog, "div", &err);
  cl_kernel fill = clCreateKernel(prog, "fill", &err);
  enum { N = 256 };
  cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  CHECK_OK(err);
  int zero = 0;
  clSetKernelArg(bad, 0, sizeof buf, &buf);
  clSetKernelArg(bad, 1, sizeof zero, &zero);
  size_t g = N;
  cl_event ev;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, bad, 1, NULL, &g, NULL, 0, NULL, &ev));
  CHECK_ERR(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(status < 0);
  clReleaseEvent(ev);

  /* integer division by zero and INT_MIN / -1 trap on x86; in OpenCL C the
   * result is undefined but the kernel must complete */
  const int cases[2][2] = {{10, 0}, {(int)0x80000000, -1}};
  for (int c = 0; c < 2; c++) {
    clSetKernelArg(div, 0, sizeof buf, &buf);
    clSetKernelArg(div, 1, sizeof(int), &cases[c][0]);
    clSetKernelArg(div, 2, sizeof(int), &cases[c][1]);
    CHECK_OK(clEnqueueNDRangeKernel(env.queue, div, 1, NULL, &g, NULL, 0, NULL, &ev));
    CHECK_OK(clWaitForEvents(1, &ev));
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(ev);
  }

  /* the queue and the device still work */
  clSetKernelArg(fill, 0, sizeof buf, &buf);
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, fill, 1, NULL, &g, NULL, 0, NULL, NULL));
  int out[N];
  CHECK_OK(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int bad_values = 0;
  for (int i = 0; i < N; i++)
    bad_values += out[i] != i;
  CHECK(bad_values == 0);

  clReleaseMemObject(buf);
  clReleaseKernel(bad);
  clReleaseKernel(div);
  clReleaseKernel(fill);
  clReleaseProgram(prog);
  test_env_release(&env);
  return test_finish("test_kernel_faults");
}
