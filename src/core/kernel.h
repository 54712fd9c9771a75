#ifndef LOOM_KERNEL_H
#define LOOM_KERNEL_H
#include "program.h"

cl_kernel loom_kernel_new(cl_program p, cl_device_id dev, const struct loom_kernel_meta *meta,
                          loom_wg_fn fn) LOOM_HIDDEN;
cl_kernel loom_kernel_clone(cl_kernel src) LOOM_HIDDEN;
/* stores a validated argument */
cl_int loom_kernel_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value) LOOM_HIDDEN;
bool loom_kernel_args_complete(cl_kernel k) LOOM_HIDDEN;
/* __local memory one work-group needs with the current arguments */
uint64_t loom_kernel_local_bytes(cl_kernel k) LOOM_HIDDEN;
/* snapshot of the arguments for one launch (sizes filled by the caller) */
/* a launch of k with its arguments as set now and state_size bytes of
 * zeroed driver state */
struct loom_ndrange *loom_ndrange_new(cl_kernel k, size_t state_size) LOOM_HIDDEN;



/* ndrange_shape.c */
bool loom_kernel_allows_nonuniform(cl_kernel k) LOOM_HIDDEN;
void loom_pick_local_size(cl_kernel k, cl_uint dims, const size_t *global, size_t *local) LOOM_HIDDEN;
#endif
