/* What a LoomCL device offers of OpenCL C's optional features, in one
 * table that both sides use: the api reports the supported rows through
 * CL_DEVICE_OPENCL_C_FEATURES, and the front end (frontend.c) gives Clang
 * exactly those (-cl-ext=-all,+name,...) and #undefs, in a prelude every
 * program is compiled with, the rows the device does not have, which
 * Clang 19's opencl-c-base.h defines for SPIR targets whatever -cl-ext
 * says. A kernel therefore sees a feature macro if and only if the device
 * reports it. Plain data: no OpenCL or LLVM headers needed.
 *
 * LOOM_OPENCL_C_FEATURES(X) expands X(name, version, when) per row, in the
 * order CL_DEVICE_OPENCL_C_FEATURES lists them:
 *   name     the macro, e.g. "__opencl_c_int64"
 *   version  its version, LOOM_CLC_VERSION(major, minor, patch) (the value
 *            CL_MAKE_VERSION gives; 0 for rows the device lacks)
 *   when     YES   the device has it: reported and enabled
 *            FP64  the same, on a target with doubles (loom_target.fp64;
 *                  every LoomCL device has them, so the api reports it)
 *            NO    the device lacks it: never reported, #undef'd (feature
 *                  macros, extension macros and __IMAGE_SUPPORT__ alike)
 *
 * A NO row is needed only for what opencl-c-base.h (or Clang itself)
 * defines unasked; tests/compiler/test_preprocessor.c checks what kernels
 * see and tests/api/test_device.c what the device reports. */
#ifndef LOOM_OPENCL_FEATURES_H
#define LOOM_OPENCL_FEATURES_H

/* CL_MAKE_VERSION's encoding (cl.h): major 10 bits, minor 10, patch 12 */
#define LOOM_CLC_VERSION(major, minor, patch)                                  \
  ((((major) & 0x3FFu) << 22) | (((minor) & 0x3FFu) << 12) | ((patch) & 0xFFFu))

#define LOOM_OPENCL_C_FEATURES(X)                                              \
  /* supported: 64-bit integers and doubles */                                 \
  X("__opencl_c_int64", LOOM_CLC_VERSION(3, 0, 0), YES)                        \
  X("__opencl_c_fp64", LOOM_CLC_VERSION(3, 0, 0), FP64)                        \
  /* OpenCL C 2.0 atomics with every order and scope */                        \
  X("__opencl_c_atomic_order_acq_rel", LOOM_CLC_VERSION(3, 0, 0), YES)         \
  X("__opencl_c_atomic_order_seq_cst", LOOM_CLC_VERSION(3, 0, 0), YES)         \
  X("__opencl_c_atomic_scope_device", LOOM_CLC_VERSION(3, 0, 0), YES)          \
  X("__opencl_c_atomic_scope_all_devices", LOOM_CLC_VERSION(3, 0, 0), YES)     \
  /* the generic address space, program-scope global variables */             \
  X("__opencl_c_generic_address_space", LOOM_CLC_VERSION(3, 0, 0), YES)        \
  X("__opencl_c_program_scope_global_variables", LOOM_CLC_VERSION(3, 0, 0), YES) \
  X("__opencl_c_work_group_collective_functions", LOOM_CLC_VERSION(3, 0, 0), YES) \
  X("__opencl_c_subgroups", LOOM_CLC_VERSION(3, 0, 0), YES)                    \
  /* images (Clang defines __IMAGE_SUPPORT__ itself) */                         \
  X("__opencl_c_images", LOOM_CLC_VERSION(3, 0, 0), YES)                       \
  X("__opencl_c_read_write_images", LOOM_CLC_VERSION(3, 0, 0), YES)            \
  X("__opencl_c_3d_image_writes", LOOM_CLC_VERSION(3, 0, 0), YES)              \
  /* not supported: what opencl-c-base.h gives every SPIR target */            \
  X("__opencl_c_ext_fp32_global_atomic_add", 0, NO)                            \
  X("__opencl_c_ext_fp32_global_atomic_min_max", 0, NO)                        \
  X("__opencl_c_ext_fp32_local_atomic_add", 0, NO)                             \
  X("__opencl_c_ext_fp32_local_atomic_min_max", 0, NO)                         \
  X("__opencl_c_ext_image_raw10_raw12", 0, NO)                                 \
  X("__opencl_c_ext_image_unorm_int_2_101010", 0, NO)                          \
  X("__opencl_c_integer_dot_product_input_4x8bit", 0, NO)                      \
  X("__opencl_c_integer_dot_product_input_4x8bit_packed", 0, NO)               \
  X("__opencl_c_kernel_clock_scope_device", 0, NO)                             \
  X("__opencl_c_kernel_clock_scope_sub_group", 0, NO)                          \
  X("__opencl_c_kernel_clock_scope_work_group", 0, NO)                         \
  X("cl_khr_extended_bit_ops", 0, NO)                                          \
  X("cl_khr_integer_dot_product", 0, NO)                                       \
  X("cl_khr_kernel_clock", 0, NO)                                              \
  X("cl_ext_float_atomics", 0, NO)                                             \
  X("__opencl_c_ext_fp64_global_atomic_add", 0, NO)                            \
  X("__opencl_c_ext_fp64_local_atomic_add", 0, NO)                             \
  X("__opencl_c_ext_fp64_global_atomic_min_max", 0, NO)                        \
  X("__opencl_c_ext_fp64_local_atomic_min_max", 0, NO)

/* Helpers for a static initialiser of the supported rows only, e.g. an
 * array of cl_name_version:
 *   #define ROW(name, version, when) LOOM_CLC_IF_SUPPORTED(when, {version, name})
 *   static const cl_name_version f[] = {LOOM_OPENCL_C_FEATURES(ROW)}; */
#define LOOM_CLC_IF_SUPPORTED(when, ...) LOOM_CLC_IF_##when(__VA_ARGS__)
#define LOOM_CLC_IF_YES(...) __VA_ARGS__,
#define LOOM_CLC_IF_FP64(...) __VA_ARGS__,
#define LOOM_CLC_IF_NO(...)

#endif
