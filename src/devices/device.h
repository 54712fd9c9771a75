/* The interface between the core and a device driver: one ops table per
 * driver. A driver sees plain data (descriptions, launches, memory
 * ranges), never a cl_* handle, and reports back through the callbacks in
 * the structures the core hands it. A new device is a new folder beside
 * cpu/ with its ops table; nothing above this header changes. */
#ifndef LOOM_DEVICE_H
#define LOOM_DEVICE_H
#include "compiler.h"
#include <CL/cl.h>
#include <stdatomic.h>

/* the limits a driver reports for its device (CL_DEVICE_* queries) */
struct loom_device_limits {
  cl_uint compute_units;
  size_t max_work_group_size;
  size_t max_work_item_sizes[3];
  cl_ulong global_mem_size;
  cl_ulong max_mem_alloc_size;
  cl_ulong local_mem_size;
  cl_ulong max_constant_buffer_size;
  cl_ulong global_cache_size;
  cl_uint global_cacheline_size;
  cl_uint max_clock_mhz;
  cl_uint max_parameter_size;
  cl_uint mem_base_addr_align_bits;
  size_t printf_buffer_size; /* output one kernel launch's printf calls can hold */
  /* images (CL_DEVICE_IMAGE*_MAX_*; 0 without image support) */
  size_t image2d_max_width, image2d_max_height;
  size_t image3d_max_width, image3d_max_height, image3d_max_depth;
  size_t image_max_buffer_size; /* pixels of a 1D image buffer */
  size_t image_max_array_size;
  cl_uint image_pitch_alignment;     /* pixels, for 2D images from buffers */
  cl_uint image_base_address_alignment; /* pixels, for 2D images from buffers */
};

/* what a driver tells the core about its device */
struct loom_device_desc {
  cl_device_type type;
  const char *name;
  const char *vendor;        /* CL_DEVICE_VENDOR */
  const char *llvm_cpu;      /* CPU name for code generation */
  const char *llvm_features; /* feature string for code generation */
  struct loom_device_limits lim;
  unsigned simd_width_bytes; /* widest vector register */
  bool image_support;        /* CL_DEVICE_IMAGE_SUPPORT */
  /* the compute units (the driver's cores, 0 .. a root device's
   * lim.compute_units - 1) this device runs on: bit c of core_mask[c / 64];
   * NULL for all of them (a root device). A sub-device (clCreateSubDevices)
   * has a copy of its parent's description with its own cores. */
  const uint64_t *core_mask;
};

/* a buffer a launch uses: the bytes its kernel may reach through it */
struct loom_mem_range {
  const char *data;
  size_t size;
};

/* A kernel launch as a driver sees it: everything resolved and owned by
 * the core until `complete` is called. */
/* A trial of a kernel's specialised code (src/core/variants.c): the
 * launch's full-sized groups alternate between the two codes, each group
 * timed, until each has run `settle_groups` groups and both `settle_ns`
 * together (or each `settle_many` groups: short groups); the launch's other groups then run the code faster a group so
 * far (`settled`): a trial costs that much of the slower code, not half
 * the launch (an image filter's generic code is 15x slower). Index 0: the
 * generic code, 1: the specialised one. */
struct loom_code_trial {
  /* each group's time counts at most CLIP times the code's fastest group
   * so far: one group the scheduler preempted (a compile thread of the
   * same build, 1-4 ms) outweighed 60 groups of 6 us and kept the slower
   * code (CLBlast's XgemmDirectTN: 24 us against 18 a group, then 5.7
   * against 17 in the launches after) */
  _Atomic uint64_t ns[2];      /* clipped, compared */
  _Atomic uint64_t raw_ns[2];  /* as measured: how long the trial ran */
  _Atomic uint64_t min_ns[2]; /* UINT64_MAX before the first group */
  _Atomic uint64_t groups[2];
  unsigned parity; /* groups g with (g + parity) odd run the specialised code */
  uint64_t settle_groups, settle_ns; /* settle_groups 0: alternate to the end */
  uint64_t settle_many;              /* this many groups each settle it sooner */
  _Atomic int settled; /* -1 while alternating, else the code that runs */
};
enum { LOOM_TRIAL_CLIP = 4 };

/* a timed run of dt ns: lowers *fastest to it and returns dt clipped at
 * LOOM_TRIAL_CLIP times the fastest, the time a trial adds up */
static inline uint64_t loom_trial_clipped(_Atomic uint64_t *fastest, uint64_t dt) {
  uint64_t f = atomic_load_explicit(fastest, memory_order_relaxed);
  while (dt < f &&
         !atomic_compare_exchange_weak_explicit(fastest, &f, dt, memory_order_relaxed, memory_order_relaxed))
    ;
  f = dt < f ? dt : f;
  uint64_t cap = f > UINT64_MAX / LOOM_TRIAL_CLIP ? f : LOOM_TRIAL_CLIP * f;
  return dt < cap ? dt : cap;
}

struct loom_launch {
  loom_wg_fn fn;
  /* the code specialised for `local`, run for the groups of that size once
   * it is loaded (NULL: none asked for; *full_fn NULL: not loaded yet) */
  _Atomic(loom_wg_fn) *full_fn;
  /* that code's scratch bytes per work-item and uniform, read once *full_fn
   * is loaded (the generic code's are meta's) */
  const uint64_t *full_scratch;
  struct loom_code_trial *trial; /* NULL: no trial */
  const struct loom_kernel_meta *meta;
  uint32_t work_dim;
  size_t offset[3], global[3], local[3], groups[3];
  unsigned char *args;    /* snapshot; buffers are data pointers, __local are offsets */
  size_t local_mem_bytes; /* static __local variables + __local arguments */
  const struct loom_mem_range *mems;
  unsigned num_mems;
  void *device_state; /* ndrange_state_size bytes, zeroed, 64-byte aligned */
  /* the driver calls this once every work-group has run (possibly before
   * ndrange returns): status CL_COMPLETE, or CL_OUT_OF_RESOURCES after a
   * fault. The launch may be freed inside it. */
  void (*complete)(struct loom_launch *launch, cl_int status);
};

/* loaded device code (a program's kernels), owned by the driver */
struct loom_device_code;

struct loom_device_ops {
  /* storage for a memory object; aligned to at least 128 bytes */
  void *(*mem_alloc)(const struct loom_device_desc *dev, size_t size);
  void (*mem_free)(const struct loom_device_desc *dev, void *ptr);
  /* runs fn(ctx, first, count) over chunks 0 .. chunks-1 on the device's
   * cores, the calling thread taking part, and returns when all are done:
   * large copies and fills (core/mem_commands.c) */
  void (*run_chunks)(const struct loom_device_desc *dev, size_t chunks,
                     void (*fn)(void *ctx, size_t first, size_t count), void *ctx);
  /* starts a kernel launch */
  void (*ndrange)(const struct loom_device_desc *dev, struct loom_launch *launch);
  /* bytes of per-launch driver state (launch->device_state) */
  size_t ndrange_state_size;
  /* Loads an executable's code (code still being generated is loaded when
   * first looked up); NULL on failure, message in *log. */
  struct loom_device_code *(*code_load)(const struct loom_program_binary *bin, char **log);
  /* adds more object code (a kernel specialised for a local size); 0 on success */
  int (*code_add)(struct loom_device_code *code, const struct loom_blob *object, char **log);
  /* the work-group function of a kernel, or of a kernel specialised for a
   * local size (loom_wg_spec_symbol), by that name; NULL if absent */
  loom_wg_fn (*code_lookup)(struct loom_device_code *code, const char *symbol);
  void (*code_unload)(struct loom_device_code *code);
  /* Affinity domains (clCreateSubDevices): which domain of kind `level`
   * (one CL_DEVICE_AFFINITY_DOMAIN_* bit but NEXT_PARTITIONABLE) core
   * belongs to, as a number shared by the cores of that domain; -1 when
   * the machine has no such level or does not say. True once bind_cores
   * has run: it ties each core to its place in the machine. */
  int (*core_domain)(const struct loom_device_desc *dev, unsigned core,
                     cl_device_affinity_domain level);
  void (*bind_cores)(const struct loom_device_desc *dev);
};

/* The CPU device (src/devices/cpu): fills desc and *ops; 0 on success. */
int loom_cpu_device_init(struct loom_device_desc *desc,
                         const struct loom_device_ops **ops) LOOM_HIDDEN;

#endif
