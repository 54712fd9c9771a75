/* Platform enumeration, platform queries, the ICD entry points and the
 * dispatch table. */
#include "harness.h"
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <stdbool.h>

static char junk[256]; /* a pointer that is no OpenCL object */

static void test_platform_ids(void) {
  cl_platform_id p = NULL, list[4] = {NULL, NULL, NULL, NULL};
  cl_uint n = 0;
  CHECK_ERR(clGetPlatformIDs(0, &p, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetPlatformIDs(0, &p, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
  CHECK_OK(clGetPlatformIDs(0, NULL, &n));
  CHECK(n == 1);
  CHECK_OK(clGetPlatformIDs(1, &p, NULL));
  CHECK(p != NULL);
  n = 0;
  CHECK_OK(clGetPlatformIDs(4, list, &n));
  CHECK(n == 1 && list[0] == p && list[1] == NULL);
}

static cl_platform_id platform(void) {
  cl_platform_id p = NULL;
  clGetPlatformIDs(1, &p, NULL);
  return p;
}

static void check_string(cl_platform_id p, cl_platform_info param, const char *want) {
  char buf[2048];
  size_t size = 0;
  CHECK_OK(clGetPlatformInfo(p, param, 0, NULL, &size));
  CHECK(size == strlen(want) + 1);
  memset(buf, 'x', sizeof buf);
  CHECK_OK(clGetPlatformInfo(p, param, sizeof buf, buf, NULL));
  CHECK(strcmp(buf, want) == 0);
  /* one byte too small */
  CHECK_ERR(clGetPlatformInfo(p, param, size - 1, buf, NULL), CL_INVALID_VALUE);
}

static void test_platform_info(void) {
  cl_platform_id p = platform();
  check_string(p, CL_PLATFORM_PROFILE, "FULL_PROFILE");
  check_string(p, CL_PLATFORM_NAME, "LoomCL");
  check_string(p, CL_PLATFORM_VENDOR, "LoomCL");
  check_string(p, CL_PLATFORM_ICD_SUFFIX_KHR, "LOOM");
  check_string(p, CL_PLATFORM_EXTENSIONS, 
        "cl_khr_icd cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_fp16 " "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics " "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics " "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics " "cl_khr_3d_image_writes cl_khr_depth_images cl_khr_image2d_from_buffer " "cl_khr_srgb_image_writes cl_intel_unified_shared_memory cl_khr_il_program cl_ext_buffer_device_address "
        "cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot "
        "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle "
        "cl_khr_subgroup_shuffle_relative cl_khr_subgroup_clustered_reduce "
        "cl_khr_subgroup_rotate cl_intel_subgroups cl_intel_required_subgroup_size");

  char version[256] = "";
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof version, version, NULL));
  CHECK(strncmp(version, "OpenCL 3.0 LoomCL ", 18) == 0 && strlen(version) > 18);

  cl_version numeric = 0;
  size_t size = 0;
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, &size));
  CHECK(size == sizeof(cl_version) && numeric == CL_MAKE_VERSION(3, 0, 0));
  CHECK_ERR(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric - 1, &numeric, NULL),
            CL_INVALID_VALUE);

  cl_ulong res = 0;
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, &size));
  CHECK(size == sizeof(cl_ulong) && res >= 1 && res < 1000000);

  /* the versioned extension list names exactly the extensions of the string */
  char exts[1024] = "";
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, sizeof exts, exts, NULL));
  cl_name_version nv[32];
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
  CHECK(size == 27 * sizeof(cl_name_version));
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof nv, nv, NULL));
  size_t words = 0;
  for (char *w = strtok(exts, " "); w; w = strtok(NULL, " ")) {
    bool found = false;
    for (size_t i = 0; i < size / sizeof *nv; i++)
      found |= strcmp(nv[i].name, w) == 0 &&
               nv[i].version == (strcmp(w, "cl_ext_buffer_device_address") == 0
                                     ? CL_MAKE_VERSION(1, 0, 2) /* the registry's version */
                                     : CL_MAKE_VERSION(1, 0, 0));
    CHECK(found);
    words++;
  }
  CHECK(words == size / sizeof *nv);

  /* NULL selects LoomCL's platform (implementation-defined in the spec) */
  char name[64] = "";
  CHECK_OK(clGetPlatformInfo(NULL, CL_PLATFORM_NAME, sizeof name, name, NULL));
  CHECK(strcmp(name, "LoomCL") == 0);

  /* errors */
  CHECK_ERR(clGetPlatformInfo((cl_platform_id)junk, CL_PLATFORM_NAME, sizeof name, name, NULL),
            CL_INVALID_PLATFORM);
  CHECK_ERR(clGetPlatformInfo(p, 0x1234, sizeof name, name, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetPlatformInfo(p, CL_DEVICE_NAME, sizeof name, name, NULL), CL_INVALID_VALUE);
  /* a NULL param_value ignores the size */
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, NULL, NULL));
  CHECK_OK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 1, NULL, &size));
  CHECK(size == 7);
}

static void test_unload_compiler(void) {
  CHECK_OK(clUnloadPlatformCompiler(platform()));
  CHECK_ERR(clUnloadPlatformCompiler(NULL), CL_INVALID_PLATFORM);
  CHECK_ERR(clUnloadPlatformCompiler((cl_platform_id)junk), CL_INVALID_PLATFORM);
  CHECK_OK(clUnloadCompiler());
}

static void test_icd_entry_points(void) {
  cl_platform_id p = platform();
  clIcdGetPlatformIDsKHR_fn icd =
      (clIcdGetPlatformIDsKHR_fn)clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR");
  CHECK(icd != NULL);
  CHECK(icd == (clIcdGetPlatformIDsKHR_fn)
                   clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR"));
  if (icd) {
    cl_platform_id q = NULL;
    cl_uint n = 0;
    CHECK_OK(icd(1, &q, &n));
    CHECK(q == p && n == 1);
    CHECK_ERR(icd(0, &q, NULL), CL_INVALID_VALUE);
    CHECK_ERR(icd(0, NULL, NULL), CL_INVALID_VALUE);
  }
  CHECK_OK(clIcdGetPlatformIDsKHR(0, NULL, &(cl_uint){0}));
  CHECK(clGetExtensionFunctionAddress("clNoSuchFunction") == NULL);
  CHECK(clGetExtensionFunctionAddress("clGetPlatformIDs") == NULL); /* core, not extension */
  CHECK(clGetExtensionFunctionAddress(NULL) == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunction") == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform(p, NULL) == NULL);
  CHECK(clGetExtensionFunctionAddressForPlatform((cl_platform_id)junk, "clIcdGetPlatformIDsKHR") == NULL);
}

/* Every object starts with the dispatch table the ICD loader calls through. */
static void test_dispatch_table(void) {
  cl_platform_id p = platform();
  cl_device_id d = NULL;
  CHECK_OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  const cl_icd_dispatch *t = *(const cl_icd_dispatch *const *)p;
  CHECK(t != NULL);
  CHECK(t == *(const cl_icd_dispatch *const *)d);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK_OK(err);
  CHECK(t == *(const cl_icd_dispatch *const *)ctx);
  clReleaseContext(ctx);

  /* the entries are the exported entry points themselves */
  CHECK(t->clGetPlatformIDs == clGetPlatformIDs);
  CHECK(t->clGetPlatformInfo == clGetPlatformInfo);
  CHECK(t->clGetDeviceInfo == clGetDeviceInfo);
  CHECK(t->clCreateContext == clCreateContext);
  CHECK(t->clSetContextDestructorCallback == clSetContextDestructorCallback);
  CHECK(t->clGetExtensionFunctionAddressForPlatform == clGetExtensionFunctionAddressForPlatform);
  char name[64] = "";
  CHECK_OK(t->clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL));
  CHECK(strcmp(name, "LoomCL") == 0);

  /* every core entry point has its slot; interop slots stay empty */
#define SLOT(f) CHECK(t->f != NULL)
  SLOT(clGetPlatformIDs); SLOT(clGetPlatformInfo); SLOT(clGetDeviceIDs);
  SLOT(clGetDeviceInfo); SLOT(clCreateContext); SLOT(clCreateContextFromType);
  SLOT(clRetainContext); SLOT(clReleaseContext); SLOT(clGetContextInfo);
  SLOT(clCreateCommandQueue); SLOT(clRetainCommandQueue); SLOT(clReleaseCommandQueue);
  SLOT(clGetCommandQueueInfo); SLOT(clCreateBuffer); SLOT(clCreateImage2D);
  SLOT(clCreateImage3D); SLOT(clRetainMemObject); SLOT(clReleaseMemObject);
  SLOT(clGetSupportedImageFormats); SLOT(clGetMemObjectInfo); SLOT(clGetImageInfo);
  SLOT(clCreateSampler); SLOT(clRetainSampler); SLOT(clReleaseSampler);
  SLOT(clGetSamplerInfo); SLOT(clCreateProgramWithSource); SLOT(clCreateProgramWithBinary);
  SLOT(clRetainProgram); SLOT(clReleaseProgram); SLOT(clBuildProgram);
  SLOT(clUnloadCompiler); SLOT(clGetProgramInfo); SLOT(clGetProgramBuildInfo);
  SLOT(clCreateKernel); SLOT(clCreateKernelsInProgram); SLOT(clRetainKernel);
  SLOT(clReleaseKernel); SLOT(clSetKernelArg); SLOT(clGetKernelInfo);
  SLOT(clGetKernelWorkGroupInfo); SLOT(clWaitForEvents); SLOT(clGetEventInfo);
  SLOT(clRetainEvent); SLOT(clReleaseEvent); SLOT(clGetEventProfilingInfo);
  SLOT(clFlush); SLOT(clFinish); SLOT(clEnqueueReadBuffer); SLOT(clEnqueueWriteBuffer);
  SLOT(clEnqueueCopyBuffer); SLOT(clEnqueueReadImage); SLOT(clEnqueueWriteImage);
  SLOT(clEnqueueCopyImage); SLOT(clEnqueueCopyImageToBuffer); SLOT(clEnqueueCopyBufferToImage);
  SLOT(clEnqueueMapBuffer); SLOT(clEnqueueMapImage); SLOT(clEnqueueUnmapMemObject);
  SLOT(clEnqueueNDRangeKernel); SLOT(clEnqueueTask); SLOT(clEnqueueNativeKernel);
  SLOT(clEnqueueMarker); SLOT(clEnqueueWaitForEvents); SLOT(clEnqueueBarrier);
  SLOT(clGetExtensionFunctionAddress); SLOT(clSetEventCallback); SLOT(clCreateSubBuffer);
  SLOT(clSetMemObjectDestructorCallback); SLOT(clCreateUserEvent); SLOT(clSetUserEventStatus);
  SLOT(clEnqueueReadBufferRect); SLOT(clEnqueueWriteBufferRect); SLOT(clEnqueueCopyBufferRect);
  SLOT(clCreateSubDevices); SLOT(clRetainDevice); SLOT(clReleaseDevice); SLOT(clCreateImage);
  SLOT(clCreateProgramWithBuiltInKernels); SLOT(clCompileProgram); SLOT(clLinkProgram);
  SLOT(clUnloadPlatformCompiler); SLOT(clGetKernelArgInfo); SLOT(clEnqueueFillBuffer);
  SLOT(clEnqueueFillImage); SLOT(clEnqueueMigrateMemObjects); SLOT(clEnqueueMarkerWithWaitList);
  SLOT(clEnqueueBarrierWithWaitList); SLOT(clGetExtensionFunctionAddressForPlatform);
  SLOT(clCreateCommandQueueWithProperties); SLOT(clCreatePipe); SLOT(clGetPipeInfo);
  SLOT(clSVMAlloc); SLOT(clSVMFree); SLOT(clEnqueueSVMFree); SLOT(clEnqueueSVMMemcpy);
  SLOT(clEnqueueSVMMemFill); SLOT(clEnqueueSVMMap); SLOT(clEnqueueSVMUnmap);
  SLOT(clCreateSamplerWithProperties); SLOT(clSetKernelArgSVMPointer); SLOT(clSetKernelExecInfo);
  SLOT(clCloneKernel); SLOT(clCreateProgramWithIL); SLOT(clEnqueueSVMMigrateMem);
  SLOT(clGetDeviceAndHostTimer); SLOT(clGetHostTimer); SLOT(clGetKernelSubGroupInfo);
  SLOT(clSetDefaultDeviceCommandQueue); SLOT(clSetProgramReleaseCallback);
  SLOT(clSetProgramSpecializationConstant); SLOT(clCreateBufferWithProperties);
  SLOT(clCreateImageWithProperties); SLOT(clSetContextDestructorCallback);
#undef SLOT
  CHECK(t->clCreateFromGLBuffer == NULL);
  CHECK(t->clGetDeviceIDsFromD3D10KHR == NULL);
  CHECK(t->clCreateSubDevicesEXT == NULL);
  CHECK(t->clCreateFromEGLImageKHR == NULL);
}

int main(void) {
  test_platform_ids();
  test_platform_info();
  test_unload_compiler();
  test_icd_entry_points();
  test_dispatch_table();
  return test_finish("test_platform");
}
