/* Programs and kernels: the core's view (build state, argument storage,
 * launches). The compiler does the work; this layer orchestrates it. */
#ifndef LOOM_PROGRAM_H
#define LOOM_PROGRAM_H
#include "../compiler/compiler.h"
#include "loom.h"

/* A kernel's code specialised for one local size (variants.c): fn is NULL
 * until loaded, and is read by launches without a lock. */
enum { LOOM_VARIANT_NEW, LOOM_VARIANT_COMPILING, LOOM_VARIANT_READY, LOOM_VARIANT_FAILED };
struct loom_variant {
  uint64_t local[3];
  _Atomic(loom_wg_fn) fn;
  atomic_int state;
  unsigned launches; /* under the program's lock */
  struct loom_variant *next;
};

struct loom_program_build {
  cl_build_status status;
  char *log;
  char *options;
  cl_program_binary_type binary_type;
  struct loom_program_binary bin;
  struct loom_loaded_code *code;
  loom_wg_fn *fns; /* per kernel of bin, for executables */
  struct loom_variant **variants; /* per kernel of bin: lists, or NULL */
};

struct _cl_program {
  struct loom_object obj;
  cl_context context;
  char *source; /* NULL unless created from source */
  cl_uint num_devices;
  cl_device_id *devices;
  struct loom_program_build *builds; /* one per device */
  pthread_mutex_t lock;
  atomic_uint kernels_attached; /* building is refused while kernels exist */
  bool from_binary;
  bool from_link; /* made by clLinkProgram: clBuildProgram refuses it */
};

struct _cl_kernel {
  struct loom_object obj;
  cl_program program;
  cl_context context;
  cl_device_id device;
  const struct loom_kernel_meta *meta;
  loom_wg_fn fn;
  unsigned char *args; /* argument buffer as the work-group function reads it */
  cl_mem *arg_mem;     /* buffer arguments (translated at enqueue time) */
  size_t *local_size;  /* __local argument sizes */
  bool *arg_set;
  pthread_mutex_t lock;
};

/* A kernel launch as the device sees it: everything resolved and owned. */
struct loom_ndrange {
  loom_wg_fn fn;
  const struct loom_kernel_meta *meta;
  cl_kernel kernel; /* internal reference: keeps meta and code alive */
  /* the code specialised for `local`, for the groups of that size, once
   * loaded (NULL: none asked for) */
  struct loom_variant *variant;
  uint32_t work_dim;
  size_t offset[3], global[3], local[3], groups[3];
  unsigned char *args;    /* snapshot; buffers are data pointers, __local are offsets */
  size_t local_mem_bytes; /* static __local variables + __local arguments */
  cl_mem *mems;           /* internal references held until completion */
  cl_uint num_mems;
  void *device_state;     /* the driver's per-launch state (device ops) */
};

/* program_build.c */
cl_program loom_program_new(cl_context ctx, cl_uint num_devices, const cl_device_id *devices) LOOM_HIDDEN;
cl_int loom_program_build(cl_program p, const char *options) LOOM_HIDDEN;
cl_int loom_program_compile(cl_program p, const char *options, cl_uint num_headers,
                            const cl_program *headers, const char **header_names) LOOM_HIDDEN;
cl_int loom_program_link(cl_program out, const char *options, cl_uint num_inputs,
                         const cl_program *inputs) LOOM_HIDDEN;
/* loads a binary for device i; returns CL_SUCCESS or CL_INVALID_BINARY */
cl_int loom_program_set_binary(cl_program p, cl_uint i, const unsigned char *data, size_t size) LOOM_HIDDEN;
/* the work-group function of kernel i of build b (waits for code still being
 * generated); NULL if there is none */
loom_wg_fn loom_program_kernel_fn(cl_program p, struct loom_program_build *b, uint32_t i) LOOM_HIDDEN;
/* the build of device dev (NULL if dev is not a program device) */
struct loom_program_build *loom_program_build_for(cl_program p, cl_device_id dev) LOOM_HIDDEN;
/* the target description of a device */
void loom_device_target(cl_device_id dev, struct loom_target *t) LOOM_HIDDEN;

/* variants.c: the variant of k for a launch with local size `local` (NULL
 * if none is made); counts the launch and may start specialising */
struct loom_variant *loom_kernel_variant(cl_kernel k, const size_t local[3]) LOOM_HIDDEN;
/* drops a build's variants (its code is being unloaded); lock held */
void loom_variants_free(struct loom_program_build *b) LOOM_HIDDEN;

/* kernel launch on a device: cpu_ndrange.c through the ops table */
void loom_ndrange_free(struct loom_ndrange *nd) LOOM_HIDDEN;

#endif
