/* Enqueue -> completion latency of a tiny kernel, on every OpenCL platform
 * the ICD loader finds (run with OCL_ICD_VENDORS pointing at LoomCL's icd
 * folder plus any other vendors to compare). Reports the median and the
 * 10th/90th percentiles of clEnqueueNDRangeKernel + clFinish. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void measure(cl_platform_id platform) {
  char name[256] = "";
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
  cl_device_id dev;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS) {
    printf("%-24s no CPU device\n", name);
    return;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  const char *src = "kernel void tiny(global int *p) { p[get_global_id(0)] += 1; }";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (clBuildProgram(p, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    printf("%-24s build failed\n", name);
    return;
  }
  cl_kernel k = clCreateKernel(p, "tiny", &err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
  clSetKernelArg(k, 0, sizeof buf, &buf);
  enum { REPS = 2000 };
  static double t[REPS];
  size_t g = 64, l = 64;
  for (int i = 0; i < 100; i++) { /* warm up */
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clFinish(q);
  }
  for (int i = 0; i < REPS; i++) {
    double t0 = now_us();
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clFinish(q);
    t[i] = now_us() - t0;
  }
  qsort(t, REPS, sizeof t[0], cmp);
  printf("%-24s median %7.2f us   p10 %7.2f us   p90 %7.2f us\n", name, t[REPS / 2],
         t[REPS / 10], t[REPS * 9 / 10]);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

int main(void) {
  cl_uint n = 0;
  clGetPlatformIDs(0, NULL, &n);
  cl_platform_id *ps = calloc(n ? n : 1, sizeof *ps);
  clGetPlatformIDs(n, ps, NULL);
  printf("tiny kernel (64 work-items): enqueue + clFinish latency\n");
  for (cl_uint i = 0; i < n; i++)
    measure(ps[i]);
  free(ps);
  return 0;
}
