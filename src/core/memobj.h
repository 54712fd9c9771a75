/* Memory objects: storage, sub-buffers, destructor callbacks, the registry of
 * active maps, and the commands that move bytes (read, write, copy, fill).
 *
 * Storage is allocated once at creation and never moves, so a command may
 * compute its pointers (mem->data + offset) when it is enqueued. Commands hold
 * an internal reference on every memory object they touch until they finish. */
#ifndef LOOM_MEMOBJ_H
#define LOOM_MEMOBJ_H
#include "loom.h"

/* Flags that may be given when creating a buffer or image. */
#define LOOM_MEM_ACCESS_FLAGS                                                  \
  (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define LOOM_MEM_HOST_PTR_FLAGS                                                \
  (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define LOOM_MEM_HOST_ACCESS_FLAGS                                             \
  (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define LOOM_MEM_CREATE_FLAGS                                                  \
  (LOOM_MEM_ACCESS_FLAGS | LOOM_MEM_HOST_PTR_FLAGS | LOOM_MEM_HOST_ACCESS_FLAGS)

/* CL_SUCCESS or CL_INVALID_VALUE: unknown bits, or mutually exclusive ones
 * (at most one access flag, one host access flag, USE_HOST_PTR alone). */
cl_int loom_mem_check_flags(cl_mem_flags flags) LOOM_HIDDEN;

/* A new memory object of `type` with `size` bytes of storage. flags must have
 * passed loom_mem_check_flags and host_ptr must agree with them. USE_HOST_PTR
 * makes host_ptr the storage (zero copy); otherwise the storage comes from the
 * context's first device and COPY_HOST_PTR fills it from host_ptr. props (may
 * be NULL) is copied: num_props entries including the terminating 0.
 * The object holds an internal reference on ctx. Returns NULL and sets *err
 * (CL_OUT_OF_HOST_MEMORY, CL_MEM_OBJECT_ALLOCATION_FAILURE) on failure. */
cl_mem loom_mem_create(cl_context ctx, cl_mem_object_type type,
                       cl_mem_flags flags, size_t size, void *host_ptr,
                       const cl_mem_properties *props, size_t num_props,
                       cl_int *err) LOOM_HIDDEN;

/* A sub-buffer of parent sharing its storage: data = parent->data + origin.
 * flags are the final flags (inheritance already applied by the caller).
 * Holds an internal reference on parent. */
cl_mem loom_mem_create_sub(cl_mem parent, cl_mem_flags flags, size_t origin,
                           size_t size, cl_int *err) LOOM_HIDDEN;

/* A memory object of `type` sharing the storage of parent from origin on
 * (sub-buffers; images created from a buffer or another image): data =
 * parent->data + origin, parent becomes mem->parent (an internal
 * reference), so maps and overlaps are tracked on the common root. props
 * (may be NULL) is copied as by loom_mem_create. */
cl_mem loom_mem_create_view(cl_mem parent, cl_mem_object_type type, cl_mem_flags flags,
                            size_t origin, size_t size, const cl_mem_properties *props,
                            size_t num_props, cl_int *err) LOOM_HIDDEN;

/* The object at the top of the parent chain (mem itself if it has none). */
cl_mem loom_mem_root(cl_mem mem) LOOM_HIDDEN;
/* mem's byte offset within loom_mem_root(mem). */
size_t loom_mem_root_offset(cl_mem mem) LOOM_HIDDEN;

/* Pushes a destructor callback; they run newest first when mem is freed. */
cl_int loom_mem_add_destructor(cl_mem mem,
                               void(CL_CALLBACK *fn)(cl_mem, void *),
                               void *user_data) LOOM_HIDDEN;

/* ---------- active maps ---------- */

/* Records a map of [offset, offset + size) of mem (offset relative to mem)
 * returning ptr, and increments mem->map_count. CL_INVALID_OPERATION if a map
 * for writing would overlap another active map for writing of the same storage
 * (mem, its parent or its sub-buffers); CL_OUT_OF_HOST_MEMORY. */
cl_int loom_mem_map_add(cl_mem mem, void *ptr, size_t offset, size_t size,
                        cl_map_flags flags) LOOM_HIDDEN;
/* The same for a rectangle of mem: region[1] rows of region[0] bytes,
 * row_pitch apart, in region[2] slices slice_pitch apart, the first byte at
 * offset (images). Overlap is decided byte-exactly against every other
 * active map for writing, whatever its shape. region[i] > 0, row_pitch >=
 * region[0], slice_pitch >= region[1] * row_pitch when region[2] > 1. */
cl_int loom_mem_map_add_rect(cl_mem mem, void *ptr, size_t offset, const size_t region[3],
                             size_t row_pitch, size_t slice_pitch,
                             cl_map_flags flags) LOOM_HIDDEN;
/* Forgets one active map of mem that returned ptr and decrements
 * mem->map_count; CL_INVALID_VALUE if there is none. */
cl_int loom_mem_map_remove(cl_mem mem, void *ptr) LOOM_HIDDEN;

/* ---------- byte-moving commands ---------- */

/* One side of a copy: base points at the first byte (origin applied);
 * row_pitch / slice_pitch are the effective (non-zero) pitches. mem is the
 * object the bytes belong to (retained by the command), NULL for host memory. */
struct loom_copy_side {
  cl_mem mem;
  char *base;
  size_t row_pitch, slice_pitch;
};

/* Enqueues a command of `type` copying a region (width in bytes, rows,
 * slices) from src to dst. A 1D transfer is region {size, 1, 1}. Returns what
 * loom_command_submit returns, or CL_OUT_OF_HOST_MEMORY. */
cl_int loom_enqueue_copy(cl_command_queue q, cl_command_type type,
                         const struct loom_copy_side *dst,
                         const struct loom_copy_side *src,
                         const size_t region[3], cl_uint num_wait,
                         const cl_event *wait, cl_event *event_out,
                         bool blocking) LOOM_HIDDEN;

/* Fills size bytes at dst with copies of pattern (pattern_size must divide
 * size); the fill commands of buffers and images do it this way. */
void loom_fill_bytes(unsigned char *dst, const void *pattern, size_t pattern_size,
                     size_t size) LOOM_HIDDEN;

/* Enqueues a command of `type` filling size bytes at dst with copies of
 * pattern (pattern_size <= 128, a divisor of size); mem (may be NULL: SVM
 * and USM fills) is held until it completes. */
cl_int loom_enqueue_fill_ptr(cl_command_queue q, cl_command_type type, cl_mem mem,
                             void *dst, const void *pattern, size_t pattern_size,
                             size_t size, cl_uint num_wait, const cl_event *wait,
                             cl_event *event_out) LOOM_HIDDEN;

/* Enqueues a fill of [offset, offset + size) of mem with pattern
 * (pattern_size <= 128, a divisor of offset and size). */
cl_int loom_enqueue_fill(cl_command_queue q, cl_mem mem, const void *pattern,
                         size_t pattern_size, size_t offset, size_t size,
                         cl_uint num_wait, const cl_event *wait,
                         cl_event *event_out) LOOM_HIDDEN;

/* Enqueues a command of `type` that does no work on this device (map, unmap,
 * migrate) but orders like any other and holds references on mems. */
cl_int loom_enqueue_mem_noop(cl_command_queue q, cl_command_type type,
                             cl_uint num_mems, const cl_mem *mems,
                             cl_uint num_wait, const cl_event *wait,
                             cl_event *event_out, bool blocking) LOOM_HIDDEN;

#endif
