/* cl_ext_buffer_device_address, which Debian 12's OpenCL headers
 * (2023.02) predate: the names and values of the Khronos registry
 * (extension version 1.0.2), defined only where the headers lack them. */
#ifndef LOOM_EXT_BUFFER_DEVICE_ADDRESS_H
#define LOOM_EXT_BUFFER_DEVICE_ADDRESS_H
#include <CL/cl.h>

#ifndef cl_ext_buffer_device_address
#define cl_ext_buffer_device_address 1
typedef cl_ulong cl_mem_device_address_ext;
#define CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT 0x5000 /* cl_mem_properties */
#define CL_MEM_DEVICE_ADDRESS_EXT 0x5001         /* cl_mem_info */
#define CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT 0x5002 /* cl_kernel_exec_info */
extern CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgDevicePointerEXT(
    cl_kernel kernel, cl_uint arg_index, cl_mem_device_address_ext arg_value);
#endif

#endif
