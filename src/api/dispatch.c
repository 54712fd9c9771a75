/* The cl_khr_icd dispatch table: every LoomCL object starts with a pointer to
 * it, so the ICD loader can route each call to this library. Slots for
 * interop extensions LoomCL does not implement (GL, D3D, EGL, DX9, device
 * fission EXT, KHR sub-groups) stay NULL. */
/* the table names every entry point, deprecated ones included */
#include "platform.h"
#include <string.h>

const struct _cl_icd_dispatch loom_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
};

/* cl_khr_icd: the loader's way to enumerate this library's platforms. */
cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                              cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* LoomCL's own: sets a LOOMCL_* configuration variable in a running
 * process (name with or without the prefix; NULL value: as if unset), safe
 * while builds and launches run on other threads. CL_INVALID_VALUE for an
 * unknown name or an invalid value. The test suite uses it instead of
 * setenv, which races with threads reading the environment. */
static cl_int loomclSetConfig(const char *name, const char *value) {
  if (!name)
    return CL_INVALID_VALUE;
  return loom_cfg_set(name, value) == 0 ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* The extension entry points an application looks up by name. */
static const struct {
  const char *name;
  void *fn;
} extension_functions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},
    {"loomclSetConfig", (void *)loomclSetConfig},
    {"clCreateProgramWithILKHR", (void *)clCreateProgramWithIL}, /* cl_khr_il_program */
    {"clSetKernelArgDevicePointerEXT", (void *)clSetKernelArgDevicePointerEXT},
    {"clGetKernelSubGroupInfoKHR", (void *)clGetKernelSubGroupInfo}, /* cl_khr_subgroups */
    /* cl_intel_unified_shared_memory */
    {"clHostMemAllocINTEL", (void *)clHostMemAllocINTEL},
    {"clDeviceMemAllocINTEL", (void *)clDeviceMemAllocINTEL},
    {"clSharedMemAllocINTEL", (void *)clSharedMemAllocINTEL},
    {"clMemFreeINTEL", (void *)clMemFreeINTEL},
    {"clMemBlockingFreeINTEL", (void *)clMemBlockingFreeINTEL},
    {"clGetMemAllocInfoINTEL", (void *)clGetMemAllocInfoINTEL},
    {"clSetKernelArgMemPointerINTEL", (void *)clSetKernelArgMemPointerINTEL},
    {"clEnqueueMemFillINTEL", (void *)clEnqueueMemFillINTEL},
    {"clEnqueueMemsetINTEL", (void *)clEnqueueMemsetINTEL},
    {"clEnqueueMemcpyINTEL", (void *)clEnqueueMemcpyINTEL},
    {"clEnqueueMigrateMemINTEL", (void *)clEnqueueMigrateMemINTEL},
    {"clEnqueueMemAdviseINTEL", (void *)clEnqueueMemAdviseINTEL},
};

void *clGetExtensionFunctionAddress(const char *func_name) {
  if (!func_name)
    return NULL;
  for (size_t i = 0; i < sizeof extension_functions / sizeof *extension_functions; i++)
    if (strcmp(func_name, extension_functions[i].name) == 0)
      return extension_functions[i].fn;
  return NULL;
}

void *clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                               const char *func_name) {
  /* NULL "if platform is not a valid platform": unlike clGetPlatformInfo
   * and clGetDeviceIDs, this entry point gives NULL no meaning, so NULL is
   * not a valid platform here (piglit's clGetExtensionFunctionAddressFor-
   * Platform test checks it) */
  if (!platform || !loom_platform_arg(platform))
    return NULL;
  return clGetExtensionFunctionAddress(func_name);
}
