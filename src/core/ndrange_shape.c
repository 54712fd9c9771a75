/* Work-group shapes: the local size LoomCL picks when the application
 * passes none, and whether a kernel may use non-uniform work-groups. */
#include "kernel.h"
#include <string.h>

bool loom_kernel_allows_nonuniform(cl_kernel k) {
  struct loom_program_build *b = loom_program_build_for(k->program, k->device);
  return b && b->bin.nonuniform;
}

/* largest divisor of n that is <= cap */
static size_t divisor_upto(size_t n, size_t cap) {
  if (n <= cap)
    return n;
  for (size_t d = cap; d > 1; d--)
    if (n % d == 0)
      return d;
  return 1;
}

/* A shape for the CPU: long rows in dimension 0 (the vectorised loop), many
 * groups for load balance, and uniform groups so no partial group runs. */
void loom_pick_local_size(cl_kernel k, cl_uint dims, const size_t *global, size_t *local) {
  const cl_device_id dev = k->device;
  size_t max = dev->desc.lim.max_work_group_size;
  size_t lanes = dev->desc.simd_width_bytes ? dev->desc.simd_width_bytes / 4 : 8;
  size_t cores = dev->desc.lim.compute_units ? dev->desc.lim.compute_units : 1;
  local[0] = local[1] = local[2] = 1;
  if (k->meta->reqd_work_group_size[0]) {
    for (cl_uint d = 0; d < 3; d++)
      local[d] = k->meta->reqd_work_group_size[d];
    return;
  }
  size_t total = 1;
  for (cl_uint d = 0; d < dims; d++)
    total *= global[d];
  /* enough groups to keep every core busy several times over */
  size_t target = total / (cores * 8);
  if (target < lanes)
    target = lanes;
  if (target > 1024)
    target = 1024;
  if (target > max)
    target = max;
  /* A kernel whose loops run in passes over the group (divergent loops)
   * gets, in 2D and 3D ranges, rows of a few vectors and several of them:
   * work-items close in y behave alike (Mandelbrot's escape counts), so a
   * pass covers fewer idle lanes than in one long row (2-2.5 times faster).
   * Other kernels keep long rows: a 3x3 stencil ran 1.8 times slower in
   * 64x16 groups. */
  size_t row = target;
  if (dims > 1 && k->meta->divergent_loops && row > 4 * lanes)
    row = 4 * lanes;
  local[0] = divisor_upto(global[0], row);
  size_t budget = target / local[0];
  for (cl_uint d = 1; d < dims && budget > 1; d++) {
    local[d] = divisor_upto(global[d], budget);
    budget /= local[d];
  }
}
