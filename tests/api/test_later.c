/* Entry points of features no LoomCL device supports yet (pipes,
 * built-in kernels, device queues, sub-groups): each validates its
 * handles and then reports the feature as unsupported with the error code
 * the spec names. Images are tested in test_image_create.c and
 * test_image_commands.c, samplers in test_sampler_api.c, SVM in
 * test_svm_api.c, SPIR-V programs in test_spirv.c. */
#include "harness.h"
#include <stdbool.h>

static char junk[256]; /* a pointer that is no OpenCL object */
static struct test_env env;
static cl_mem buf; /* a buffer in env.context */
static cl_program program;
static cl_kernel kernel;

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

/* ---------- programs, device queues, sub-groups ---------- */

static void CL_CALLBACK program_released(cl_program p, void *user) {
  (void)p, (void)user;
}

static void test_programs(void) {
  cl_int err = 1;
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

  /* sub-groups are supported (tests/compiler/test_subgroups.c); handles
   * are still checked */
  size_t local = 64, out = 0;
  CHECK_OK(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                   sizeof local, &local, sizeof out, &out, NULL));
  CHECK(out >= 1 && out <= 64);
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
  buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
  CHECK_OK(err);
  kernel = test_build_kernel(&env, "__kernel void k(__global int *p) { p[0] = 1; }", "k", NULL,
                             &program);

  test_pipes();
  test_programs();
  test_device_queues_and_sub_groups();

  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(buf);
  test_env_release(&env);
  return test_finish("test_later");
}
