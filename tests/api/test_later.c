/* Entry points of features no LoomCL device supports yet (images, samplers,
 * pipes, SVM, IL programs, built-in kernels, device queues, sub-groups): each
 * validates its handles and then reports the feature as unsupported with the
 * error code the spec names. */
#include "harness.h"
#include <stdbool.h>

static char junk[256]; /* a pointer that is no OpenCL object */
static struct test_env env;
static cl_context other_ctx;  /* a second context for cross-context errors */
static cl_mem buf, other_buf; /* buffers in env.context and other_ctx */
static cl_program program;
static cl_kernel kernel;

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

static cl_image_desc desc_2d(void) {
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = 16;
  d.image_height = 16;
  return d;
}

/* ---------- samplers ---------- */

static void test_samplers(void) {
  cl_int err = 1;
  CHECK(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_LINEAR, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateSampler((cl_context)junk, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(env.context, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, 0x9999, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, NULL) == NULL);

  const cl_sampler_properties good[] = {
      CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
      CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  CHECK(clCreateSamplerWithProperties(env.context, good, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateSamplerWithProperties(env.context, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateSamplerWithProperties((cl_context)junk, good, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  const cl_sampler_properties bad[][5] = {
      {0x7777, 1, 0},
      {CL_SAMPLER_NORMALIZED_COORDS, 3, 0},
      {CL_SAMPLER_ADDRESSING_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0},
      {CL_SAMPLER_MIP_FILTER_MODE, CL_FILTER_LINEAR, 0}, /* cl_khr_mipmap_image only */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err = 1;
    CHECK(clCreateSamplerWithProperties(env.context, bad[i], &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }

  cl_uint n;
  CHECK_ERR(clRetainSampler((cl_sampler)junk), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler((cl_sampler)env.context), CL_INVALID_SAMPLER);
  CHECK_ERR(clGetSamplerInfo((cl_sampler)junk, CL_SAMPLER_REFERENCE_COUNT, sizeof n, &n, NULL),
            CL_INVALID_SAMPLER);
}

/* ---------- images ---------- */

static void test_image_creation(void) {
  cl_int err = 1;
  cl_image_desc d = desc_2d();
  CHECK(clCreateImage(env.context, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateImage((cl_context)junk, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImageWithProperties(env.context, NULL, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateImageWithProperties(NULL, NULL, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImage2D(env.context, CL_MEM_READ_WRITE, &rgba8, 16, 16, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateImage2D((cl_context)junk, CL_MEM_READ_WRITE, &rgba8, 16, 16, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImage3D(env.context, CL_MEM_READ_WRITE, &rgba8, 8, 8, 8, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateImage3D(NULL, CL_MEM_READ_WRITE, &rgba8, 8, 8, 8, 0, 0, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateImage(env.context, CL_MEM_READ_WRITE, &rgba8, &d, NULL, NULL) == NULL);
}

static void test_image_formats(void) {
  cl_image_format formats[4];
  cl_uint n = 99;
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                      NULL, &n));
  CHECK(n == 0);
  n = 99;
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                                      CL_MEM_OBJECT_IMAGE3D, 4, formats, &n));
  CHECK(n == 0);
  CHECK_OK(clGetSupportedImageFormats(env.context, CL_MEM_KERNEL_READ_AND_WRITE,
                                      CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, formats, NULL));
  CHECK_ERR(clGetSupportedImageFormats((cl_context)junk, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D,
                                       4, formats, &n), CL_INVALID_CONTEXT);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                       CL_MEM_OBJECT_IMAGE2D, 4, formats, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D,
                                       4, formats, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 4,
                                       formats, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_PIPE, 4,
                                       formats, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                       formats, &n), CL_INVALID_VALUE);
}

static void test_image_info(void) {
  size_t v;
  CHECK_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo((cl_mem)junk, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
}

/* Runs one image enqueue with the given queue, memory objects and wait list. */
typedef cl_int (*image_call)(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w);

static const size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
static unsigned char host[64];

static cl_int read_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  (void)b;
  return clEnqueueReadImage(q, a, CL_TRUE, origin, region, 0, 0, host, n, w, NULL);
}
static cl_int write_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  (void)b;
  return clEnqueueWriteImage(q, a, CL_TRUE, origin, region, 0, 0, host, n, w, NULL);
}
static cl_int fill_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  (void)b;
  const float color[4] = {0, 0, 0, 0};
  return clEnqueueFillImage(q, a, color, origin, region, n, w, NULL);
}
static cl_int copy_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  return clEnqueueCopyImage(q, a, b, origin, origin, region, n, w, NULL);
}
static cl_int image_to_buffer(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  return clEnqueueCopyImageToBuffer(q, a, b, origin, region, 0, n, w, NULL);
}
static cl_int buffer_to_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  return clEnqueueCopyBufferToImage(q, b, a, 0, origin, region, n, w, NULL);
}
static cl_int map_image(cl_command_queue q, cl_mem a, cl_mem b, cl_uint n, const cl_event *w) {
  (void)b;
  size_t row = 0, slice = 0;
  cl_int err = 1;
  void *p = clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ, origin, region, &row, &slice, n, w,
                              NULL, &err);
  return p == NULL ? err : CL_SUCCESS;
}

static void test_image_enqueues(void) {
  const image_call calls[] = {read_image, write_image, fill_image, copy_image,
                              image_to_buffer, buffer_to_image, map_image};
  cl_int err;
  cl_event foreign = clCreateUserEvent(other_ctx, &err);
  CHECK_OK(err);
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    image_call f = calls[i];
    CHECK_ERR(f(env.queue, buf, buf, 0, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(f((cl_command_queue)junk, buf, buf, 0, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(f(NULL, buf, buf, 0, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(f(env.queue, (cl_mem)junk, buf, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(f(env.queue, NULL, buf, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(f(env.queue, other_buf, buf, 0, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(f(env.queue, buf, buf, 1, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(f(env.queue, buf, buf, 0, &foreign), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(f(env.queue, buf, buf, 1, &foreign), CL_INVALID_CONTEXT);
  }
  /* the second object of a copy is checked too */
  CHECK_ERR(copy_image(env.queue, buf, (cl_mem)junk, 0, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(copy_image(env.queue, buf, NULL, 0, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(image_to_buffer(env.queue, buf, NULL, 0, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(image_to_buffer(env.queue, buf, other_buf, 0, NULL), CL_INVALID_CONTEXT);
  CHECK_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
  CHECK_OK(clReleaseEvent(foreign));
}

/* ---------- pipes ---------- */

static void test_pipes(void) {
  cl_int err = 1;
  CHECK(clCreatePipe(env.context, CL_MEM_READ_WRITE, 4, 16, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreatePipe((cl_context)junk, CL_MEM_READ_WRITE, 4, 16, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreatePipe(env.context, 0, 4, 16, NULL, NULL) == NULL);
  cl_uint v;
  CHECK_ERR(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetPipeInfo((cl_mem)junk, CL_PIPE_MAX_PACKETS, sizeof v, &v, NULL),
            CL_INVALID_MEM_OBJECT);
}

/* ---------- shared virtual memory ---------- */

static void test_svm(void) {
  CHECK(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 1024, 0) == NULL);
  CHECK(clSVMAlloc((cl_context)junk, CL_MEM_READ_WRITE, 1024, 0) == NULL);
  clSVMFree(env.context, NULL);
  clSVMFree((cl_context)junk, NULL);

  int a[4] = {0}, b[4] = {0}, pattern = 0;
  void *ptrs[1] = {a};
  const void *cptrs[1] = {a};
  size_t sizes[1] = {sizeof a};
  cl_command_queue queues[] = {env.queue, (cl_command_queue)junk, NULL};
  const cl_int expect[] = {CL_INVALID_OPERATION, CL_INVALID_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE};
  for (int i = 0; i < 3; i++) {
    cl_command_queue q = queues[i];
    CHECK_ERR(clEnqueueSVMFree(q, 1, ptrs, NULL, NULL, 0, NULL, NULL), expect[i]);
    CHECK_ERR(clEnqueueSVMMemcpy(q, CL_TRUE, a, b, sizeof a, 0, NULL, NULL), expect[i]);
    CHECK_ERR(clEnqueueSVMMemFill(q, a, &pattern, sizeof pattern, sizeof a, 0, NULL, NULL), expect[i]);
    CHECK_ERR(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, sizeof a, 0, NULL, NULL), expect[i]);
    CHECK_ERR(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), expect[i]);
    CHECK_ERR(clEnqueueSVMMigrateMem(q, 1, cptrs, sizes, 0, 0, NULL, NULL), expect[i]);
  }
  CHECK_ERR(clEnqueueSVMMemcpy(env.queue, CL_TRUE, a, b, sizeof a, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueSVMUnmap(env.queue, a, 1, (cl_event *)&junk, NULL), CL_INVALID_EVENT_WAIT_LIST);

  CHECK_ERR(clSetKernelArgSVMPointer(kernel, 0, a), CL_INVALID_OPERATION);
  CHECK_ERR(clSetKernelArgSVMPointer((cl_kernel)junk, 0, a), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArgSVMPointer(NULL, 0, a), CL_INVALID_KERNEL);

  cl_bool off = CL_FALSE, on = CL_TRUE;
  CHECK_ERR(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
            CL_INVALID_OPERATION);
  CHECK_ERR(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on),
            CL_INVALID_OPERATION);
  CHECK_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof off, &off));
  CHECK_ERR(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &off),
            CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo(kernel, 0x7777, sizeof off, &off), CL_INVALID_VALUE);
  CHECK_ERR(clSetKernelExecInfo((cl_kernel)junk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
            CL_INVALID_KERNEL);
}

/* ---------- programs, device queues, sub-groups ---------- */

static void CL_CALLBACK program_released(cl_program p, void *user) {
  (void)p, (void)user;
}

static void test_programs(void) {
  static const unsigned spirv_magic[2] = {0x07230203, 0x00010000};
  cl_int err = 1;
  CHECK(clCreateProgramWithIL(env.context, spirv_magic, sizeof spirv_magic, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_OPERATION);
  CHECK(clCreateProgramWithIL((cl_context)junk, spirv_magic, sizeof spirv_magic, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithIL(env.context, NULL, 0, NULL) == NULL);

  cl_device_id bad_dev = (cl_device_id)junk;
  CHECK(clCreateProgramWithBuiltInKernels(env.context, 1, &env.device, "loom_copy", &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBuiltInKernels(env.context, 1, &env.device, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBuiltInKernels(env.context, 0, &env.device, "k", &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBuiltInKernels(env.context, 1, NULL, "k", &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBuiltInKernels(env.context, 1, &bad_dev, "k", &err) == NULL);
  CHECK_ERR(err, CL_INVALID_DEVICE);
  CHECK(clCreateProgramWithBuiltInKernels((cl_context)junk, 1, &env.device, "k", &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);

  cl_uint value = 1;
  CHECK_ERR(clSetProgramSpecializationConstant(program, 0, sizeof value, &value),
            CL_INVALID_OPERATION);
  CHECK_ERR(clSetProgramSpecializationConstant((cl_program)junk, 0, sizeof value, &value),
            CL_INVALID_PROGRAM);
  CHECK_ERR(clSetProgramSpecializationConstant(NULL, 0, sizeof value, &value), CL_INVALID_PROGRAM);
  CHECK_ERR(clSetProgramReleaseCallback(program, program_released, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clSetProgramReleaseCallback((cl_program)junk, program_released, NULL),
            CL_INVALID_PROGRAM);
}

static void test_device_queues_and_sub_groups(void) {
  CHECK_ERR(clSetDefaultDeviceCommandQueue(env.context, env.device, env.queue),
            CL_INVALID_OPERATION);
  CHECK_ERR(clSetDefaultDeviceCommandQueue((cl_context)junk, env.device, env.queue),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clSetDefaultDeviceCommandQueue(env.context, (cl_device_id)junk, env.queue),
            CL_INVALID_DEVICE);
  CHECK_ERR(clSetDefaultDeviceCommandQueue(env.context, NULL, env.queue), CL_INVALID_DEVICE);

  size_t local = 64, out = 0;
  CHECK_ERR(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof out, &out, NULL),
            CL_INVALID_OPERATION);
  CHECK_ERR(clGetKernelSubGroupInfo(kernel, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                    sizeof out, &out, NULL),
            CL_INVALID_OPERATION);
  CHECK_ERR(clGetKernelSubGroupInfo(kernel, (cl_device_id)junk, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                    NULL, sizeof out, &out, NULL),
            CL_INVALID_DEVICE);
  CHECK_ERR(clGetKernelSubGroupInfo((cl_kernel)junk, env.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                    NULL, sizeof out, &out, NULL),
            CL_INVALID_KERNEL);
}

int main(void) {
  test_env_init(&env);
  cl_int err;
  other_ctx = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  CHECK_OK(err);
  buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
  CHECK_OK(err);
  other_buf = clCreateBuffer(other_ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
  CHECK_OK(err);
  kernel = test_build_kernel(&env, "__kernel void k(__global int *p) { p[0] = 1; }", "k", NULL,
                             &program);

  test_samplers();
  test_image_creation();
  test_image_formats();
  test_image_info();
  test_image_enqueues();
  test_pipes();
  test_svm();
  test_programs();
  test_device_queues_and_sub_groups();

  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(buf);
  clReleaseMemObject(other_buf);
  clReleaseContext(other_ctx);
  test_env_release(&env);
  return test_finish("test_later");
}
