/* The front end's IR-level steps: linking modules and the builtin
 * library, reading kernel metadata (clang itself: frontend.c). */
#ifndef LOOM_FRONTEND_H
#define LOOM_FRONTEND_H
#include "support/llvm_util.h"

/* spirv_images.c: a module from the SPIR-V translator given the image and
 * sampler types Clang's modules have after lower-opaque-types */
void loom_spirv_lower_images(LLVMModuleRef m) LOOM_HIDDEN;

/* kernel_meta.c */
/* the operands of f's metadata node kind_name (malloc'd, *count of them;
 * NULL and 0 when f has none) */
LLVMValueRef *loom_md_operands(LLVMValueRef f, const char *kind_name, unsigned *count) LOOM_HIDDEN;
int loom_kernel_meta_from_module(LLVMModuleRef m, LLVMTargetDataRef td, bool arg_names,
                                 struct loom_program_binary *out) LOOM_HIDDEN;
bool loom_is_kernel(LLVMValueRef f) LOOM_HIDDEN;

/* opaque_types.c: image and sampler types (Clang's target("spirv.Image"),
 * target("spirv.Sampler")) become ptr addrspace(2) and i32, as
 * builtins/loom_image.h says; -1 (log) for a use it cannot lower */
int loom_lower_opaque_types(LLVMModuleRef m, char **log) LOOM_HIDDEN;

/* link.c: opens the builtin library lazily in c; NULL on failure (log) */
LLVMModuleRef loom_open_builtin_library(LLVMContextRef c, char **log) LOOM_HIDDEN;
/* link.c: calls into functions nobody defines are link errors; -1 (log) */
int loom_check_undefined(LLVMModuleRef m, char **log) LOOM_HIDDEN;
/* event_calls.c: calls that pass the translator's event pointers to the
 * builtin library's event type are rebuilt; other calls whose types
 * disagree with their callee's on a target type are errors (0 or -1) */
int loom_fix_event_calls(LLVMModuleRef m, char **log) LOOM_HIDDEN;
/* spirv_dims.c: the translator's get_global_size(d) for a run-time d (a
 * vector of the three calls, an extractelement by d) becomes the call with
 * d, whose out-of-range answer is OpenCL C's */
void loom_spirv_dynamic_dims(LLVMModuleRef m) LOOM_HIDDEN;
/* link.c: every function gets the C calling convention; everything but the
 * kernels becomes internal and always-inline, except the builtins' cold
 * paths (__loom_cold_*), kept out of line */
void loom_prepare_functions(LLVMModuleRef m) LOOM_HIDDEN;
/* link.c: bytes of private variables that stayed in memory in kernel k
 * (CL_KERNEL_PRIVATE_MEM_SIZE) */
uint64_t loom_private_bytes(LLVMValueRef k, LLVMTargetDataRef td) LOOM_HIDDEN;

#endif
