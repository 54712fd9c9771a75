/* The kernel compiler's interface to the rest of LoomCL: OpenCL C and
 * bitcode in, program binaries (object code + kernel metadata) out, for a
 * target described by plain data; nothing here knows about cl_* handles.
 * A build's result is a function of its inputs, options and target, but
 * the compiler keeps process-wide machinery to get there fast: compile
 * threads that finish code generation after clBuildProgram returns
 * (backend/) and the on-disk cache (binary/). The steps a kernel goes
 * through are listed in pipeline.c. Loading and running the code is the
 * device driver's business (src/devices/). */
#ifndef LOOM_COMPILER_H
#define LOOM_COMPILER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* A growable byte buffer (bitcode, object code, serialised binaries). */
struct loom_blob {
  unsigned char *data;
  size_t size;
};
void loom_blob_free(struct loom_blob *b) LOOM_HIDDEN;

/* What the code is generated for. */
struct loom_target {
  const char *cpu;      /* LLVM CPU name, e.g. "znver4" */
  const char *features; /* LLVM feature string */
  unsigned simd_bytes;  /* widest vector register, bytes */
  bool fp64;            /* cl_khr_fp64 */
  const char *extensions; /* the device's extension names, space separated */
};

/* the host CPU as a code generation target */
void loom_host_target(struct loom_target *t) LOOM_HIDDEN;

/* ---- kernel metadata: what the runtime needs to launch a kernel ---- */
enum loom_arg_kind {
  LOOM_ARG_VALUE,  /* scalar, vector or struct passed by value */
  LOOM_ARG_BUFFER, /* __global or __constant pointer: a cl_mem (or NULL) */
  LOOM_ARG_LOCAL,  /* __local pointer: a size, memory per work-group */
  LOOM_ARG_SAMPLER,
  LOOM_ARG_IMAGE,
};

struct loom_arg_meta {
  enum loom_arg_kind kind;
  uint32_t size;   /* bytes clSetKernelArg must receive (pointers: 8) */
  uint32_t offset; /* where the value lives in the argument buffer */
  uint32_t address_qualifier; /* CL_KERNEL_ARG_ADDRESS_* */
  uint32_t access_qualifier;  /* CL_KERNEL_ARG_ACCESS_* */
  uint64_t type_qualifier;    /* CL_KERNEL_ARG_TYPE_* bitfield */
  char *type_name;
  char *name; /* NULL unless built with -cl-kernel-arg-info */
};

struct loom_kernel_meta {
  char *name;
  char *attributes; /* CL_KERNEL_ATTRIBUTES */
  uint32_t num_args;
  struct loom_arg_meta *args;
  uint32_t arg_buffer_size;
  uint64_t reqd_work_group_size[3]; /* zeros if not given */
  uint64_t work_group_size_hint[3];
  uint64_t local_static_bytes; /* __local variables declared in the kernel */
  uint64_t scratch_per_item;   /* per-work-item storage for values live across barriers */
  uint64_t scratch_uniform;    /* per-group storage for uniform values (after the items') */
  uint64_t private_per_item;   /* CL_KERNEL_PRIVATE_MEM_SIZE estimate */
  uint32_t num_barriers;
  uint32_t divergent_loops; /* loops run in passes over the group (divergent_loops.c) */
  uint32_t sub_group_size;      /* work-items per sub-group (builtins/subgroup.cl) */
  uint32_t reqd_sub_group_size; /* intel_reqd_sub_group_size, 0 if not given */
  uint32_t sub_group_barriers;  /* of num_barriers, those of sub-group functions */
};

/* ---- the executable: object code plus metadata ---- */
struct loom_codegen; /* object code still being generated (codegen.c) */
enum loom_binary_kind {
  LOOM_BINARY_NONE = 0,
  LOOM_BINARY_OBJECT = 1,     /* clCompileProgram output: bitcode */
  LOOM_BINARY_LIBRARY = 2,    /* clLinkProgram -create-library: bitcode */
  LOOM_BINARY_EXECUTABLE = 3, /* bitcode + native object code + metadata */
};

struct loom_program_binary {
  enum loom_binary_kind kind;
  struct loom_blob bitcode; /* linked user code (for objects, libraries and re-linking) */
  struct loom_blob object;  /* native code (executables) */
  uint32_t num_kernels;
  struct loom_kernel_meta *kernels;
  char *options; /* build options the code was made with */
  char *log;     /* the build log, kept so that cached builds report it too */
  bool nonuniform; /* non-uniform work-groups allowed (CL2.0+ without
                      -cl-uniform-work-group-size, for every linked input) */
  /* set by a build whose object code is still being generated: `object` is
   * empty, loom_codegen_object waits for the code */
  struct loom_codegen *pending;
};
void loom_program_binary_free(struct loom_program_binary *b) LOOM_HIDDEN;
/* frees only the kernel metadata of b (num_kernels becomes 0) */
void loom_kernels_meta_free(struct loom_program_binary *b) LOOM_HIDDEN;
/* Waits for the code generation of cg (running it if no compile thread has
 * started it) and returns the program's object code, or NULL if code
 * generation failed. */
const struct loom_blob *loom_codegen_object(struct loom_codegen *cg) LOOM_HIDDEN;
/* Serialisation for CL_PROGRAM_BINARIES and the disk cache (waits for
 * pending object code). */
int loom_binary_serialize(const struct loom_program_binary *b, struct loom_blob *out) LOOM_HIDDEN;
int loom_binary_deserialize(const void *data, size_t size, struct loom_program_binary *b) LOOM_HIDDEN;

/* ---- compiling ---- */
struct loom_header {
  const char *name; /* include name as the application gave it */
  const char *source;
};

/* Build options split into what goes to the front end and what LoomCL acts
 * on itself. Returns 0, or -1 for invalid options (message in *log). */
struct loom_build_options {
  char **clang_args; /* NULL-terminated */
  size_t num_clang_args;
  bool opt_disable;
  bool fast_math;
  bool kernel_arg_info;
  bool create_library;
  bool enable_link_options;
  bool denorms_are_zero;
  int cl_std; /* 0 = default (1.2), or 100,110,120,200,300 */
};
int loom_parse_options(const char *options, bool for_link, struct loom_build_options *out,
                       char **log) LOOM_HIDDEN;
/* loom_parse_options for a compilation (not a link), its message appended
 * to *log; -2 when the options are invalid */
int loom_parse_compile_options(const char *options, struct loom_build_options *out,
                               char **log) LOOM_HIDDEN;
void loom_free_options(struct loom_build_options *o) LOOM_HIDDEN;
/* do compile options allow non-uniform work-groups? (CL2.0+ and no
 * -cl-uniform-work-group-size) */
bool loom_options_nonuniform(const char *options) LOOM_HIDDEN;

/* OpenCL C source (+ embedded headers) -> bitcode. Returns 0 on success;
 * -1 on compile errors, -2 on invalid options; *log gets clang's diagnostics
 * (always allocated, maybe empty). */
int loom_compile_source(const char *source, const struct loom_header *headers,
                        size_t num_headers, const char *options,
                        const struct loom_target *target, struct loom_blob *bitcode,
                        char **log) LOOM_HIDDEN;

/* ---- SPIR-V (frontend/spirv_module.c, frontend/spirv.c) ---- */

/* A specialization constant the application may set */
struct loom_spirv_spec_const {
  uint32_t id;   /* its SpecId */
  uint32_t size; /* bytes clSetProgramSpecializationConstant must pass (1 for booleans) */
  bool is_bool;
};
struct loom_spirv_info {
  uint32_t version;   /* the header's version word: 0x00010200 is SPIR-V 1.2 */
  bool swapped;       /* the module is of the other endianness */
  size_t num_kernels; /* Kernel entry points */
  struct loom_spirv_spec_const *spec;
  size_t num_spec;
};
/* Checks a module LoomCL is given (header, instruction lengths, the
 * capabilities, addressing and memory models a device supports) and reads
 * its specialization constants. 0, or -1 with a precise line in *log
 * (appended; *log must be a string). */
int loom_spirv_inspect(const void *il, size_t size, struct loom_spirv_info *out,
                       char **log) LOOM_HIDDEN;
void loom_spirv_info_free(struct loom_spirv_info *info) LOOM_HIDDEN;

/* A value given to clSetProgramSpecializationConstant */
struct loom_spec_value {
  uint32_t id;
  uint32_t size; /* 1, 2, 4 or 8 */
  uint64_t bits; /* the value, zero-extended */
  bool is_bool;
};
/* loom_spirv_inspect, and the module as the translator is to read it in
 * *words (malloc'd, native byte order, SPIR-V 1.5 relabelled 1.4) with
 * values written into its specialization constants. */
int loom_spirv_prepare(const void *il, size_t size, const struct loom_spec_value *values,
                       size_t num_values, uint32_t **words, size_t *num_words,
                       struct loom_spirv_info *out, char **log) LOOM_HIDDEN;
/* A SPIR-V module (checked by loom_spirv_inspect) and the specialization
 * constants set for it -> bitcode, as loom_compile_source makes from OpenCL
 * C: a compiled object for loom_link_program. Same return codes and log. */
int loom_compile_spirv(const void *il, size_t size, const struct loom_spec_value *spec,
                       size_t num_spec, const char *options, const struct loom_target *target,
                       struct loom_blob *bitcode, char **log) LOOM_HIDDEN;

/* Links bitcode modules (objects/libraries). With make_library the result is
 * a library (bitcode only); otherwise an executable: builtins linked, work-group
 * functions generated, optimised, native code emitted. 0 on success, -1 on link
 * errors (message in *log). */
int loom_link_program(const struct loom_blob *const *inputs, size_t num_inputs,
                      const char *options, bool make_library,
                      const struct loom_target *target,
                      struct loom_program_binary *out, char **log) LOOM_HIDDEN;

/* The image and sampler arguments a specialisation makes constants where
 * the code reads them: an image's format fields of its descriptor
 * (builtins/loom_image.h), a sampler's CLK_* bits. The builtins' format
 * and addressing dispatch then folds away, and the work-item loops reading
 * images vectorise. Kept zero-filled: the bytes are hashed into cache keys
 * and symbol names. */
enum { LOOM_SPEC_MAX_ARGS = 8 };
struct loom_spec_arg {
  uint32_t index;      /* the kernel argument */
  uint32_t is_sampler; /* 1: sampler_bits; 0: an image's fields below */
  int32_t sampler_bits;
  int32_t channel_order, channel_type, pixel_size, num_channels, image_type;
};
struct loom_spec_args {
  uint32_t num;
  struct loom_spec_arg arg[LOOM_SPEC_MAX_ARGS];
};
_Static_assert(sizeof(struct loom_spec_args) == 4 + LOOM_SPEC_MAX_ARGS * 32,
               "no padding: the bytes are hashed");

/* Kernel `kernel` of an executable's linked user code specialised for one
 * local size and the image and sampler arguments in args
 * (wg_specialize.c): *out gets the object code, whose work-group function
 * is named by loom_wg_spec_symbol (+ ".loom_wg"), and the kernels' metadata
 * as that build made it (no bitcode): its scratch may differ from the
 * generic build's (barrier loops unrolled: workgroup/spec_unroll.c). 0 on
 * success; -1 when the program cannot be specialised (message in *log). */
int loom_specialize_kernel(const struct loom_blob *bitcode, const char *options,
                           const struct loom_target *target, const char *kernel,
                           const uint64_t local[3], const struct loom_spec_args *args,
                           struct loom_program_binary *out, char **log) LOOM_HIDDEN;
/* Brackets LLVM work on a thread that is not a compile thread (a kernel
 * specialised in the background, src/core/variants.c): exit waits for it as
 * for a running compile job (codegen_jobs.c). begin returns false once the
 * process is exiting: then do not start. */
bool loom_compiler_work_begin(void) LOOM_HIDDEN;
void loom_compiler_work_end(void) LOOM_HIDDEN;
/* the name a specialised kernel's code is looked up under (the driver's code_lookup),
 * at most LOOM_SPEC_SYMBOL_MAX - 1 characters (longer kernel names are cut,
 * the same way wherever the name is made) */
enum { LOOM_SPEC_SYMBOL_MAX = 284 };
void loom_wg_spec_symbol(const char *kernel, const uint64_t local[3],
                         const struct loom_spec_args *args, char *out, size_t size) LOOM_HIDDEN;

/* bytes of program-scope variables in the global address space
 * (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE; global_vars.c) */
uint64_t loom_bitcode_global_var_bytes(const struct loom_blob *bitcode) LOOM_HIDDEN;

/* Reads kernel names/arguments from bitcode (for compiled objects). */
int loom_bitcode_kernel_meta(const struct loom_blob *bitcode, bool arg_names,
                             struct loom_program_binary *out) LOOM_HIDDEN;

/* ---- what device code looks like to the runtime ---- */
/* a work-group function: runs one work-group (arguments, context, its
 * __local memory, its scratch) */
typedef void (*loom_wg_fn)(const void *args, const void *ctx, void *local_mem, void *scratch);

/* ---- the on-disk cache (LOOMCL_CACHE_DIR, LOOMCL_CACHE=0) ---- */
/* key: 32 hex chars of a hash over the given parts plus compiler identity */
void loom_cache_key(const void *const *parts, const size_t *sizes, size_t n,
                    const struct loom_target *target, char key[33]) LOOM_HIDDEN;
int loom_cache_get(const char *key, struct loom_blob *out) LOOM_HIDDEN;
void loom_cache_put(const char *key, const struct loom_blob *data) LOOM_HIDDEN;
/* Stores an executable; one whose code is still being generated is stored
 * when its last code generation job finishes. */
void loom_cache_put_binary(const char *key, const struct loom_program_binary *bin) LOOM_HIDDEN;
/* Reads an executable stored under key (or one being built under that key
 * right now, sharing its code generation). 0 on success. */
int loom_cache_get_binary(const char *key, struct loom_program_binary *bin) LOOM_HIDDEN;

/* ---- the work-group context passed to every work-group function ---- */
struct loom_wg_ctx {
  uint64_t group_id[3];
  uint64_t local_size[3]; /* of this group (smaller for trailing groups) */
  uint64_t enqueued_local_size[3];
  uint64_t global_offset[3];
  uint64_t num_groups[3];
  uint64_t global_size[3];
  uint64_t work_dim;
  char *local_mem; /* __local memory of this work-group */
  char *scratch;   /* scratch_per_item * work-items of this group */
  uint64_t local_mem_size; /* bytes of local_mem this group uses (to_local) */
  /* the running thread's stack below the launch: where private variables
   * live (to_private, get_fence) */
  char *stack_lo, *stack_hi;
  /* a launch writing at least this many bytes of a buffer it never reads
   * may write it with non-temporal stores (streaming_stores.c); 0: never */
  uint64_t stream_store_bytes;
};
/* field indices as seen by generated code: 8-byte slots */
enum {
  LOOM_CTX_GROUP_ID = 0,
  LOOM_CTX_LOCAL_SIZE = 3,
  LOOM_CTX_ENQ_LOCAL_SIZE = 6,
  LOOM_CTX_GLOBAL_OFFSET = 9,
  LOOM_CTX_NUM_GROUPS = 12,
  LOOM_CTX_GLOBAL_SIZE = 15,
  LOOM_CTX_WORK_DIM = 18,
  LOOM_CTX_LOCAL_MEM = 19,
  LOOM_CTX_SCRATCH = 20,
  LOOM_CTX_LOCAL_MEM_SIZE = 21,
  LOOM_CTX_STACK_LO = 22,
  LOOM_CTX_STACK_HI = 23,
  LOOM_CTX_STREAM_BYTES = 24,
  LOOM_CTX_SLOTS = 25, /* the size of the context, in slots */
};
/* generated code addresses the context by these slot numbers: they must
 * name the fields of struct loom_wg_ctx */
#define LOOM_CTX_AT(slot, field)                                                                    \
  _Static_assert(offsetof(struct loom_wg_ctx, field) == (slot) * 8, #slot " names " #field)
LOOM_CTX_AT(LOOM_CTX_GROUP_ID, group_id);
LOOM_CTX_AT(LOOM_CTX_LOCAL_SIZE, local_size);
LOOM_CTX_AT(LOOM_CTX_ENQ_LOCAL_SIZE, enqueued_local_size);
LOOM_CTX_AT(LOOM_CTX_GLOBAL_OFFSET, global_offset);
LOOM_CTX_AT(LOOM_CTX_NUM_GROUPS, num_groups);
LOOM_CTX_AT(LOOM_CTX_GLOBAL_SIZE, global_size);
LOOM_CTX_AT(LOOM_CTX_WORK_DIM, work_dim);
LOOM_CTX_AT(LOOM_CTX_LOCAL_MEM, local_mem);
LOOM_CTX_AT(LOOM_CTX_SCRATCH, scratch);
LOOM_CTX_AT(LOOM_CTX_LOCAL_MEM_SIZE, local_mem_size);
LOOM_CTX_AT(LOOM_CTX_STACK_LO, stack_lo);
LOOM_CTX_AT(LOOM_CTX_STACK_HI, stack_hi);
LOOM_CTX_AT(LOOM_CTX_STREAM_BYTES, stream_store_bytes);
#undef LOOM_CTX_AT
_Static_assert(sizeof(struct loom_wg_ctx) == LOOM_CTX_SLOTS * 8,
               "every field of struct loom_wg_ctx has a LOOM_CTX_* slot");

#endif
