#ifndef LOOM_KERNEL_H
#define LOOM_KERNEL_H
#include "program.h"

cl_kernel loom_kernel_new(cl_program p, cl_device_id dev, const struct loom_kernel_meta *meta,
                          loom_wg_fn fn) LOOM_HIDDEN;
cl_kernel loom_kernel_clone(cl_kernel src) LOOM_HIDDEN;
/* The kernel's code. clCreateKernel does not wait for code still being
 * generated, so that the programs an application builds one after the
 * other (PyOpenCL's scan: four) have their code generated at the same time
 * on the compile threads; the first launch waits for it here. NULL when
 * its generation failed. */
loom_wg_fn loom_kernel_code(cl_kernel k) LOOM_HIDDEN;
/* stores a validated argument */
cl_int loom_kernel_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value) LOOM_HIDDEN;
/* stores an address (SVM or USM pointer, may be NULL) for a __global or
 * __constant pointer argument */
cl_int loom_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *ptr) LOOM_HIDDEN;
bool loom_kernel_args_complete(cl_kernel k) LOOM_HIDDEN;
/* __local memory one work-group needs with the current arguments */
uint64_t loom_kernel_local_bytes(cl_kernel k) LOOM_HIDDEN;
/* a launch of k with its arguments as set now and state_size bytes of
 * zeroed driver state (sizes filled by the caller) */
struct loom_ndrange *loom_ndrange_new(cl_kernel k, size_t state_size) LOOM_HIDDEN;

/* ndrange.c: enqueues a validated launch on queue (global sizes of 0: a
 * launch without work-items that only orders); offset, global and local
 * hold 3 dimensions, unused ones 0, 1 and 1 */
cl_int loom_enqueue_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                            const size_t offset[3], const size_t global[3],
                            const size_t local[3], cl_uint num_events,
                            const cl_event *wait_list, cl_event *event) LOOM_HIDDEN;

/* ndrange_shape.c */
bool loom_kernel_allows_nonuniform(cl_kernel k) LOOM_HIDDEN;
void loom_pick_local_size(cl_kernel k, cl_uint dims, const size_t *global, size_t *local) LOOM_HIDDEN;
#endif
