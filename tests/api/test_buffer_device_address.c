/* cl_ext_buffer_device_address: buffers created with
 * CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT report the address kernels see
 * (sub-buffers too), kernels take it through clSetKernelArgDevicePointerEXT
 * and find it in memory, the address equals the SVM pointer a buffer is
 * made on; and the errors. */
#include "harness.h"
#include <CL/cl_ext.h>

#ifndef cl_ext_buffer_device_address /* Debian 12's headers predate it */
typedef cl_ulong cl_mem_device_address_ext;
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002
#endif
typedef cl_int(CL_API_CALL *set_arg_fn)(cl_kernel, cl_uint, cl_mem_device_address_ext);

static struct test_env env;

static const char *src =
    "kernel void addr_of(global int *p, global ulong *out) { out[0] = (ulong)p; }\n"
    /* the address arrives through memory, as SYCL and HIP pass pointers */
    "kernel void indirect(global ulong *where, global int *out) {\n"
    "  global int *p = (global int *)where[0];\n"
    "  out[get_global_id(0)] = p[get_global_id(0)] * 2;\n"
    "}\n"
    "kernel void add(global int *p, int v) { p[get_global_id(0)] += v; }\n";

static cl_mem_device_address_ext address_of(cl_mem m) {
  cl_mem_device_address_ext a = 0;
  CHECK_OK(clGetMemObjectInfo(m, CL_MEM_DEVICE_ADDRESS_EXT, sizeof a, &a, NULL));
  CHECK(a != 0);
  return a;
}

int main(void) {
  test_env_init(&env);
  char ext[4096] = "";
  clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  CHECK(strstr(ext, "cl_ext_buffer_device_address") != NULL);
  set_arg_fn set_arg = (set_arg_fn)clGetExtensionFunctionAddressForPlatform(
      env.platform, "clSetKernelArgDevicePointerEXT");
  CHECK(set_arg != NULL);
  cl_program prog = test_program_from(&env, src, NULL);
  if (!set_arg || !prog)
    return test_finish("test_buffer_device_address");
  cl_int err;
  cl_kernel addr_of = clCreateKernel(prog, "addr_of", &err);
  cl_kernel indirect = clCreateKernel(prog, "indirect", &err);
  cl_kernel add = clCreateKernel(prog, "add", &err);

  enum { n = 256 };
  int host[n];
  for (int i = 0; i < n; i++)
    host[i] = i - 100;
  cl_mem_properties props[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0};
  cl_mem buf = clCreateBufferWithProperties(env.context, props, CL_MEM_COPY_HOST_PTR, sizeof host,
                                            host, &err);
  CHECK_OK(err);
  cl_mem_properties got[4] = {0};
  size_t got_size = 0;
  CHECK_OK(clGetMemObjectInfo(buf, CL_MEM_PROPERTIES, sizeof got, got, &got_size));
  CHECK(got_size == 3 * sizeof(cl_mem_properties) && got[0] == CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT);
  cl_mem_device_address_ext a = address_of(buf);

  /* the kernel sees the same address for the buffer argument */
  cl_ulong seen = 0;
  cl_mem out = test_buffer_with(&env, sizeof seen, &seen);
  clSetKernelArg(addr_of, 0, sizeof buf, &buf);
  clSetKernelArg(addr_of, 1, sizeof out, &out);
  size_t one = 1, g = n;
  CHECK_OK(test_run(&env, addr_of, 1, NULL, &one, NULL));
  test_read_back(&env, out, sizeof seen, &seen);
  CHECK(seen == a);

  /* passed as an address, and found in memory */
  CHECK_OK(set_arg(add, 0, a));
  int v = 5;
  clSetKernelArg(add, 1, sizeof v, &v);
  CHECK_OK(test_run(&env, add, 1, NULL, &g, NULL));
  cl_mem where = test_buffer_with(&env, sizeof a, &a);
  cl_mem res = test_buffer_with(&env, sizeof host, NULL);
  clSetKernelArg(indirect, 0, sizeof where, &where);
  clSetKernelArg(indirect, 1, sizeof res, &res);
  CHECK_OK(clSetKernelExecInfo(indirect, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, sizeof a, &a));
  CHECK_OK(test_run(&env, indirect, 1, NULL, &g, NULL));
  int back[n];
  test_read_back(&env, res, sizeof back, back);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += back[i] != (host[i] + 5) * 2;
  CHECK(bad == 0);

  /* a sub-buffer's address is inside its parent's */
  cl_buffer_region region = {128, 128}; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN: 128 bytes */
  cl_mem sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_OK(err);
  CHECK(address_of(sub) == a + 128);
  clReleaseMemObject(sub);

  /* made on an SVM allocation: the SVM pointer */
  void *svm = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 4096, 0);
  cl_mem on_svm = clCreateBufferWithProperties(env.context, props, CL_MEM_USE_HOST_PTR, 4096, svm,
                                               &err);
  CHECK_OK(err);
  CHECK(address_of(on_svm) == (cl_mem_device_address_ext)(uintptr_t)svm);
  clReleaseMemObject(on_svm);
  clSVMFree(env.context, svm);

  /* errors: buffers without the property have no address; images take no
   * property; the value must be a cl_bool, given once */
  cl_mem plain = test_buffer_with(&env, 64, NULL);
  cl_mem_device_address_ext none = 0;
  CHECK_ERR(clGetMemObjectInfo(plain, CL_MEM_DEVICE_ADDRESS_EXT, sizeof none, &none, NULL),
            CL_INVALID_OPERATION);
  cl_mem_properties off[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_FALSE, 0};
  cl_mem off_buf = clCreateBufferWithProperties(env.context, off, 0, 64, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clGetMemObjectInfo(off_buf, CL_MEM_DEVICE_ADDRESS_EXT, sizeof none, &none, NULL),
            CL_INVALID_OPERATION);
  cl_mem_properties twice[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE,
                               CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, CL_TRUE, 0};
  cl_mem_properties bad_value[] = {CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, 7, 0};
  CHECK(clCreateBufferWithProperties(env.context, twice, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_PROPERTY);
  CHECK(clCreateBufferWithProperties(env.context, bad_value, 0, 64, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_PROPERTY);
  cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  CHECK(clCreateImageWithProperties(env.context, props, 0, &fmt, &desc, NULL, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_PROPERTY);
  CHECK_ERR(set_arg(add, 1, a), CL_INVALID_ARG_VALUE); /* an int argument */
  CHECK_ERR(set_arg(add, 2, a), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelExecInfo(indirect, CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, 3, &a),
            CL_INVALID_VALUE);

  clReleaseMemObject(off_buf);
  clReleaseMemObject(plain);
  clReleaseMemObject(where);
  clReleaseMemObject(res);
  clReleaseMemObject(out);
  clReleaseMemObject(buf);
  clReleaseKernel(addr_of);
  clReleaseKernel(indirect);
  clReleaseKernel(add);
  clReleaseProgram(prog);
  test_env_release(&env);
  return test_finish("test_buffer_device_address");
}
