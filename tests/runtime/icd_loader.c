/* LoomCL through the ICD loader: run with OCL_ICD_VENDORS pointing at the
 * build's icd directory. Finds the LoomCL platform by name among the loader's
 * platforms, creates a context and queries the device, so every call goes
 * through the dispatch table; then builds and runs a kernel that calls math
 * functions implemented with libm (this program does not link libm, so the
 * JIT must find it by itself). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);       \
    }                                                                          \
  } while (0)

/* exp/sin/log of small integers, compared with a table: no libm here */
static void run_math_kernel(cl_context ctx, cl_device_id device) {
  static const char *src =
      "kernel void k(global float *out) {\n"
      "  float x = (float)get_global_id(0);\n"
      "  out[get_global_id(0)] = exp(x) + sin(x) + log(x + 1.0f) + tanh(x) + pow(x, 1.5f);\n"
      "}\n";
  /* exp(i) + sin(i) + log(i + 1) + tanh(i) + i^1.5 for i = 0..3 */
  static const double want[4] = {1.0, 6.0144941, 13.1894205, 27.8041585};
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  EXPECT(err == CL_SUCCESS);
  EXPECT(clBuildProgram(p, 1, &device, "", NULL, NULL) == CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "k", &err);
  EXPECT(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(float), NULL, &err);
  EXPECT(err == CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  EXPECT(err == CL_SUCCESS);
  if (k && out && q) {
    EXPECT(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    size_t g = 4;
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL) == CL_SUCCESS);
    float got[4] = {0};
    EXPECT(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) == CL_SUCCESS);
    for (int i = 0; i < 4; i++) {
      double d = got[i] - want[i];
      EXPECT(d < 1e-4 * want[i] && -d < 1e-4 * want[i]);
    }
  }
  if (q)
    clReleaseCommandQueue(q);
  if (out)
    clReleaseMemObject(out);
  if (k)
    clReleaseKernel(k);
  if (p)
    clReleaseProgram(p);
}

static cl_platform_id find_loomcl(void) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0)
    return NULL;
  cl_platform_id *ids = calloc(n, sizeof *ids);
  cl_platform_id found = NULL;
  if (ids && clGetPlatformIDs(n, ids, NULL) == CL_SUCCESS) {
    for (cl_uint i = 0; i < n && !found; i++) {
      char name[256] = "";
      if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL) == CL_SUCCESS &&
          strcmp(name, "LoomCL") == 0)
        found = ids[i];
    }
  }
  free(ids);
  return found;
}

int main(void) {
  cl_platform_id platform = find_loomcl();
  if (!platform) {
    fprintf(stderr, "the ICD loader did not offer the LoomCL platform\n");
    return 1;
  }
  char buf[256] = "";
  EXPECT(clGetPlatformInfo(platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof buf, buf, NULL) == CL_SUCCESS);
  EXPECT(strcmp(buf, "LOOM") == 0);
  EXPECT(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof buf, buf, NULL) == CL_SUCCESS);
  EXPECT(strncmp(buf, "OpenCL 3.0 ", 11) == 0);

  cl_device_id device = NULL;
  cl_uint num = 0;
  EXPECT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &num) == CL_SUCCESS);
  EXPECT(num >= 1 && device != NULL);
  cl_device_type type = 0;
  EXPECT(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS);
  EXPECT(type & CL_DEVICE_TYPE_CPU);
  cl_platform_id owner = NULL;
  EXPECT(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof owner, &owner, NULL) == CL_SUCCESS);
  EXPECT(owner == platform);
  cl_uint units = 0;
  EXPECT(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL) == CL_SUCCESS);
  EXPECT(units >= 1);

  /* the loader routes a context creation by the platform in its properties */
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  cl_int err = CL_INVALID_VALUE;
  cl_context ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
  EXPECT(err == CL_SUCCESS && ctx != NULL);
  if (ctx) {
    cl_device_id got = NULL;
    EXPECT(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof got, &got, NULL) == CL_SUCCESS);
    EXPECT(got == device);
    run_math_kernel(ctx, device);
    EXPECT(clRetainContext(ctx) == CL_SUCCESS);
    EXPECT(clReleaseContext(ctx) == CL_SUCCESS);
    EXPECT(clReleaseContext(ctx) == CL_SUCCESS);
  }
  cl_context ctx2 = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
  EXPECT(err == CL_SUCCESS && ctx2 != NULL);
  if (ctx2)
    EXPECT(clReleaseContext(ctx2) == CL_SUCCESS);

  /* extension lookup through the loader */
  EXPECT(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionLOOM") == NULL);

  printf("icd_loader: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
