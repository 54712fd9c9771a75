/* Programs and kernels: the core's view (build state, argument storage,
 * launches). The compiler does the work; this layer orchestrates it. */
#ifndef LOOM_PROGRAM_H
#define LOOM_PROGRAM_H
#include "compiler.h"
#include "loom.h"

/* A kernel's code specialised for one local size (variants.c): fn is NULL
 * until loaded, and is read by launches without a lock. The disk cache is
 * looked at first (COMPILING); without an entry the variant waits (COLD)
 * until the kernel has run long enough to pay for a compilation
 * (COMPILING again). After loading, a trial times launches of both codes
 * (TRIAL), then the specialised code stays (READY) or the generic one
 * (SLOWER). */
enum {
  LOOM_VARIANT_NEW,
  LOOM_VARIANT_COLD,
  LOOM_VARIANT_COMPILING,
  LOOM_VARIANT_TRIAL,
  LOOM_VARIANT_READY,
  LOOM_VARIANT_SLOWER,
  LOOM_VARIANT_FAILED
};
struct loom_variant {
  uint64_t local[3];
  struct loom_spec_args args; /* image formats and sampler bits it is specialised for */
  _Atomic(loom_wg_fn) fn;
  /* fn's scratch bytes per work-item and uniform (as struct
   * loom_kernel_meta's), written before fn */
  uint64_t scratch[2];
  atomic_int state;
  /* under the program's lock; index 0: the generic code, 1: specialised */
  unsigned launches;  /* LOOMCL_SPECIALIZE=always: launches so far */
  unsigned trial_launches; /* enqueued so far */
  unsigned trial_done;     /* completed so far: an application may enqueue many
                              launches before the first one completes */
  uint64_t trial_ns[2], trial_groups[2]; /* work-groups timed, and their time */
  _Atomic uint64_t run_ns; /* time the generic code of this size ran, launch by launch */
  struct loom_variant *next;
};

struct loom_program_build {
  cl_build_status status;
  char *log;
  char *options;
  cl_program_binary_type binary_type;
  struct loom_program_binary bin;
  cl_device_id device;
  struct loom_device_code *code; /* loaded by the device's driver */
  loom_wg_fn *fns; /* per kernel of bin, for executables */
  struct loom_variant **variants; /* per kernel of bin: lists, or NULL */
};

struct _cl_program {
  struct loom_object obj;
  cl_context context;
  char *source; /* NULL unless created from source */
  /* created from SPIR-V (clCreateProgramWithIL): the module, what
   * loom_spirv_inspect read from it, and the specialization constants set
   * so far (one entry per SpecId, the latest value) */
  void *il;
  size_t il_size;
  struct loom_spirv_info il_info;
  struct loom_spec_value *spec_values;
  size_t num_spec_values;
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
  /* pointer arguments given as an address (SVM, USM): args holds it and
   * arg_mem is NULL */
  bool *arg_is_address;
  size_t *local_size;  /* __local argument sizes */
  bool *arg_set;
  pthread_mutex_t lock;
};

/* A kernel launch: what the driver sees (launch), and the references the
 * core holds until it completes. */
struct loom_ndrange {
  struct loom_launch launch; /* first: the driver hands it back */
  cl_kernel kernel; /* internal reference: keeps meta and code alive */
  /* the code specialised for the local size (NULL: none asked for) */
  struct loom_variant *variant;
  bool specialised;   /* this launch runs it (for its full-sized groups) */
  bool timed;         /* this launch is part of the variant's trial */
  struct loom_code_trial trial; /* its times (launch.trial points here) */
  cl_ulong start_ns;  /* when the driver got it (loom_now_ns) */
  cl_mem *mems;     /* internal references held until completion */
  struct loom_mem_range *ranges; /* the same buffers, for the driver */
  cl_uint num_mems;
  cl_event event;
};

/* program_build.c */
cl_program loom_program_new(cl_context ctx, cl_uint num_devices, const cl_device_id *devices) LOOM_HIDDEN;
cl_int loom_program_build(cl_program p, const char *options) LOOM_HIDDEN;
cl_int loom_program_compile(cl_program p, const char *options, cl_uint num_headers,
                            const cl_program *headers, const char **header_names) LOOM_HIDDEN;
cl_int loom_program_link(cl_program out, const char *options, cl_uint num_inputs,
                         const cl_program *inputs) LOOM_HIDDEN;
/* program_il.c: makes p a program of the SPIR-V module il (size bytes,
 * copied): CL_INVALID_VALUE with the reason in *log (malloc'd) when the
 * module is malformed or needs what the device lacks */
cl_int loom_program_set_il(cl_program p, const void *il, size_t size, char **log) LOOM_HIDDEN;
/* records a specialization constant's value: CL_INVALID_SPEC_ID for an
 * id the module does not have, CL_INVALID_VALUE for a size that is not
 * the constant's */
cl_int loom_program_set_spec_constant(cl_program p, cl_uint id, size_t size,
                                      const void *value) LOOM_HIDDEN;
/* loads a binary for device i; returns CL_SUCCESS or CL_INVALID_BINARY */
cl_int loom_program_set_binary(cl_program p, cl_uint i, const unsigned char *data, size_t size) LOOM_HIDDEN;
/* the work-group function of kernel i of build b (waits for code still being
 * generated); NULL if there is none */
loom_wg_fn loom_program_kernel_fn(cl_program p, struct loom_program_build *b, uint32_t i) LOOM_HIDDEN;
/* the same without waiting: NULL with *pending set while the code is still
 * being generated (loom_kernel_code finds it at the kernel's first launch) */
loom_wg_fn loom_program_kernel_fn_nowait(cl_program p, struct loom_program_build *b, uint32_t i,
                                         bool *pending) LOOM_HIDDEN;
/* the build of device dev (NULL if dev is not a program device) */
struct loom_program_build *loom_program_build_for(cl_program p, cl_device_id dev) LOOM_HIDDEN;
/* the target description of a device */
void loom_device_target(cl_device_id dev, struct loom_target *t) LOOM_HIDDEN;

/* variants.c: the variant of k for a launch with local size `local` (NULL
 * if none is made); counts the launch and may start specialising */
/* the variant of k for local (NULL: none); *use_spec: this launch runs the
 * specialised code; if *trial was filled in (parity), the launch is a trial:
 * its groups alternate between the codes and loom_variant_timed gets it */
struct loom_variant *loom_kernel_variant(cl_kernel k, const size_t local[3],
                                         const unsigned char *args, bool *use_spec,
                                         struct loom_code_trial *trial, bool *timed) LOOM_HIDDEN;
/* a trial launch of v completed with times t */
/* a launch of v's kernel ran the generic code for ns nanoseconds */
void loom_variant_ran(struct loom_variant *v, uint64_t ns) LOOM_HIDDEN;
void loom_variant_timed(cl_kernel k, struct loom_variant *v,
                        const struct loom_code_trial *t) LOOM_HIDDEN;
/* drops a build's variants (its code is being unloaded); lock held */
void loom_variants_free(struct loom_program_build *b) LOOM_HIDDEN;

void loom_ndrange_free(struct loom_ndrange *nd) LOOM_HIDDEN;

#endif
