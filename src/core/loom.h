/* LoomCL core object model: every cl_* handle is one of these structs.
 * The ICD dispatch pointer must be the first member (cl_khr_icd). */
#ifndef LOOM_CORE_H
#define LOOM_CORE_H

#define CL_TARGET_OPENCL_VERSION 300
/* the library is built with hidden visibility; the OpenCL entry points are
 * the exported interface */
#define CL_API_ENTRY __attribute__((visibility("default")))
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include "config.h"
#include "ext_buffer_device_address.h"
#include "device.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* ---------- reference-counted objects ---------- */

enum loom_kind {
  LOOM_PLATFORM = 0x504c4154,
  LOOM_DEVICE = 0x44455649,
  LOOM_CONTEXT = 0x43545854,
  LOOM_QUEUE = 0x51554555,
  LOOM_MEM = 0x4d454d30,
  LOOM_SAMPLER = 0x53414d50,
  LOOM_PROGRAM = 0x50524f47,
  LOOM_KERNEL = 0x4b45524e,
  LOOM_EVENT = 0x4556454e,
};

struct loom_object {
  const struct _cl_icd_dispatch *dispatch; /* must stay first */
  enum loom_kind kind;                     /* handle validation */
  atomic_uint ext_refs;  /* the count the application sees (CL_*_REFERENCE_COUNT) */
  atomic_uint int_refs;  /* internal holders + 1 while ext_refs > 0 */
  void (*destroy)(struct loom_object *); /* frees the object; called once */
};

void loom_object_init(struct loom_object *o, enum loom_kind kind,
                      void (*destroy)(struct loom_object *)) LOOM_HIDDEN;
/* true when o is a live object of that kind (NULL-safe) */
bool loom_object_is(const void *o, enum loom_kind kind) LOOM_HIDDEN;
void loom_retain_ext(struct loom_object *o) LOOM_HIDDEN;
/* returns true when this released the last external reference */
bool loom_release_ext(struct loom_object *o) LOOM_HIDDEN;
void loom_retain_int(struct loom_object *o) LOOM_HIDDEN;
void loom_release_int(struct loom_object *o) LOOM_HIDDEN;

#define LOOM_RETAIN(x) loom_retain_int(&(x)->obj)
#define LOOM_RELEASE(x) loom_release_int(&(x)->obj)

extern const struct _cl_icd_dispatch loom_dispatch LOOM_HIDDEN;

/* ---------- clGet*Info helper ---------- */
/* Copies value into the user's buffer following the spec's rules:
 * CL_INVALID_VALUE when param_value is too small. */
cl_int loom_info(size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret, const void *value,
                 size_t value_size) LOOM_HIDDEN;
#define LOOM_INFO_SCALAR(type, v)                                              \
  do {                                                                         \
    type loom_tmp_ = (type)(v);                                                \
    return loom_info(param_value_size, param_value, param_value_size_ret,      \
                     &loom_tmp_, sizeof loom_tmp_);                            \
  } while (0)
#define LOOM_INFO_STRING(s)                                                    \
  return loom_info(param_value_size, param_value, param_value_size_ret, (s),   \
                   strlen(s) + 1)

#define LOOM_SET_ERR(p, e)                                                     \
  do {                                                                         \
    if (p)                                                                     \
      *(p) = (e);                                                              \
  } while (0)

/* ---------- platform and devices ---------- */

struct _cl_platform_id {
  struct loom_object obj;
  cl_uint num_devices;
  cl_device_id *devices;
};

struct _cl_device_id {
  struct loom_object obj;
  cl_platform_id platform;
  struct loom_device_desc desc; /* filled by the driver */
  const struct loom_device_ops *ops;
  /* sub-devices (clCreateSubDevices; core/subdevice.c): the parent (an
   * internal reference), the partition that made this one as
   * CL_DEVICE_PARTITION_TYPE reports it (num_partition entries with the
   * terminating 0), and its cores (desc.core_mask points into cores_mask).
   * NULL and 0 for a root device. */
  cl_device_id parent;
  cl_device_partition_property *partition;
  size_t num_partition;
  uint64_t *cores_mask;
};

/* ---------- context ---------- */

struct loom_callback_node {
  struct loom_callback_node *next;
  void (*fn)(void);
  void *user_data;
};

/* SVM and USM allocations of a context, sorted by address (core/svm.h) */
struct loom_svm_block;
struct loom_svm_table {
  pthread_mutex_t lock;
  struct loom_svm_block *blocks;
  size_t count, cap;
};

struct _cl_context {
  struct loom_object obj;
  cl_uint num_devices;
  cl_device_id *devices;
  cl_context_properties *props; /* copy, 0-terminated, NULL if none */
  size_t num_props;             /* entries including terminator */
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_data;
  pthread_mutex_t lock;
  struct loom_callback_node *destructors; /* clSetContextDestructorCallback */
  struct loom_svm_table svm;
  /* commands submitted on the context's queues and not yet complete; a
   * thread in loom_context_wait_idle counts itself in idle_waiters and
   * sleeps on idle_cond (under lock) until this reaches 0 */
  atomic_uint commands_in_flight;
  atomic_uint idle_waiters;
  pthread_cond_t idle_cond;
};

/* ---------- memory objects ---------- */

struct loom_mapping; /* an active clEnqueueMap*; see core/memobj.h */

struct _cl_mem {
  struct loom_object obj;
  cl_context context;
  cl_mem_object_type type;
  cl_mem_flags flags; /* as created; sub-buffers include inherited bits */
  size_t size;
  void *host_ptr;  /* CL_MEM_USE_HOST_PTR pointer (or parent's + origin) */
  char *data;      /* the storage the device reads and writes */
  bool owns_data;  /* data was allocated by LoomCL */
  bool device_address; /* CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT was set (on the root) */
  cl_mem parent;   /* sub-buffer parent (internal reference), NULL otherwise */
  size_t origin;   /* sub-buffer offset in parent */
  cl_mem_properties *props; /* clCreate*WithProperties copy, NULL if none */
  size_t num_props;         /* entries including the terminating 0 */
  atomic_uint map_count;
  pthread_mutex_t lock;     /* guards destructors and mappings */
  struct loom_callback_node *destructors; /* newest first: run in reverse order of registration */
  /* active maps of this object and every object created from it (sub-buffers,
   * image views): kept on the root object only, so that overlapping maps for
   * writing are found across a buffer and its sub-buffers */
  struct loom_mapping *mappings;
  void *type_data; /* extra state for non-buffer types (images, pipes), owned by their code */
  void (*type_data_free)(cl_mem mem); /* frees type_data; called from destroy */
};

/* ---------- events and commands ---------- */

struct loom_command;
typedef void (*loom_command_fn)(struct loom_command *cmd);

/* What a command does once its dependencies are met (see core/command.h). */
struct loom_command {
  cl_command_type type;
  cl_device_id device;
  /* run: executes the command; runs on whichever thread made it ready. The
   * default executor calls run() and then completes with run's status. */
  cl_int (*run)(struct loom_command *cmd);
  /* async: if set, it is called instead of run() and takes responsibility for
   * calling loom_event_complete() itself (e.g. NDRange on the thread pool). */
  void (*async)(struct loom_command *cmd);
  /* frees the payload; called once, right after the command completed (or
   * when an event that was never submitted is discarded). May be NULL. */
  void (*cleanup)(struct loom_command *cmd);
  void *payload;
  union { char bytes[256]; uint64_t align_; } inline_payload;
};

struct loom_event_callback {
  struct loom_event_callback *next;
  cl_int trigger; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *user_data;
};

/* One edge of the event graph: `dependant` waits for the event whose list
 * holds this edge. The memory belongs to the dependant. */
struct loom_dep_edge {
  struct loom_dep_edge *next;
  cl_event dependant;
  bool fails_dependant; /* a wait-list edge: a failure fails the dependant */
};

struct _cl_event {
  struct loom_object obj;
  cl_context context;
  cl_command_queue queue; /* NULL for user events */
  cl_command_type command_type;
  bool profiling;         /* the queue has CL_QUEUE_PROFILING_ENABLE */
  _Atomic cl_int status;  /* CL_QUEUED .. CL_COMPLETE, or a negative error */
  atomic_bool done;       /* completion fully processed: waiters may return */
  pthread_mutex_t lock;
  pthread_cond_t cond;    /* signalled when done becomes true */
  /* under lock: */
  bool finished;          /* final status set, dependants detached */
  struct loom_event_callback *callbacks, **callbacks_tail; /* not yet fired */
  struct loom_dep_edge *dependants, **dependants_tail;
  /* the edges this command uses to wait on its dependencies */
  struct loom_dep_edge edges_inline[2];
  struct loom_dep_edge *edges_heap;
  atomic_int pending_deps; /* dependencies not yet complete (+1 during setup) */
  atomic_int dep_error;    /* first negative status seen among dependencies */
  cl_event next_ready;     /* link in the per-thread list of ready commands */
  cl_ulong t_queued, t_submit, t_start, t_end, t_complete; /* ns */
  struct loom_command cmd;
};

/* ---------- command queues ---------- */

struct _cl_command_queue {
  struct loom_object obj;
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties props;
  cl_queue_properties *prop_list; /* copy of clCreateCommandQueueWithProperties list */
  size_t num_prop_list;           /* entries including the terminating 0 */
  cl_uint size; /* CL_QUEUE_SIZE for device queues */
  pthread_mutex_t lock; /* orders enqueues; guards the fields below */
  /* Each tracked event holds an internal reference; they are dropped when
   * the application releases the queue (events hold the queue). */
  cl_event last;          /* in-order: the most recent command */
  cl_event barrier;       /* out-of-order: the latest barrier */
  cl_event *outstanding;  /* out-of-order: commands since the last barrier */
  size_t num_outstanding, cap_outstanding;
};

/* ---------- samplers (images come later) ---------- */

struct _cl_sampler {
  struct loom_object obj;
  cl_context context;
  cl_bool normalized_coords;
  cl_addressing_mode addressing_mode;
  cl_filter_mode filter_mode;
  cl_sampler_properties *props;
  size_t num_props;
};

/* ---------- time ---------- */
cl_ulong loom_now_ns(void) LOOM_HIDDEN;

#endif
