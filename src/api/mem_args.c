/* Argument checks shared by the memory-object enqueue entry points. */
#include "mem_args.h"

cl_int loom_check_host_queue(const char *fn, cl_command_queue q) {
  if (!loom_object_is(q, LOOM_QUEUE))
    return LOOM_FAIL_IN(fn, CL_INVALID_COMMAND_QUEUE,
                        "command_queue is not a valid command-queue");
  if (q->props & CL_QUEUE_ON_DEVICE)
    return LOOM_FAIL_IN(fn, CL_INVALID_COMMAND_QUEUE, "command_queue is a device queue");
  return CL_SUCCESS;
}

bool loom_is_buffer(cl_mem m) {
  return loom_object_is(m, LOOM_MEM) && m->type == CL_MEM_OBJECT_BUFFER;
}

cl_int loom_check_buffer_for_queue(const char *fn, const char *arg, cl_command_queue q,
                                   cl_mem m) {
  return loom_check_mem_for_queue(fn, arg, q, m, loom_is_buffer, "buffer");
}

cl_int loom_check_sub_buffer_alignment(const char *fn, const char *arg, cl_command_queue q,
                                       cl_mem m) {
  size_t align = q->device->desc.lim.mem_base_addr_align_bits / 8;
  if (m->parent && align && m->origin % align)
    return LOOM_FAILF_IN(fn, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                         "%s is a sub-buffer whose origin is not a multiple of "
                         "CL_DEVICE_MEM_BASE_ADDR_ALIGN of the queue's device",
                         arg);
  return CL_SUCCESS;
}

cl_int loom_check_host_access(const char *fn, cl_mem m, bool reading) {
  if (reading && (m->flags & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY)))
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION,
                        "the host reads a buffer created with CL_MEM_HOST_WRITE_ONLY or "
                        "CL_MEM_HOST_NO_ACCESS");
  if (!reading && (m->flags & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY)))
    return LOOM_FAIL_IN(fn, CL_INVALID_OPERATION,
                        "the host writes a buffer created with CL_MEM_HOST_READ_ONLY or "
                        "CL_MEM_HOST_NO_ACCESS");
  return CL_SUCCESS;
}

bool loom_range_inside(size_t total, size_t offset, size_t size) {
  return offset <= total && size <= total - offset;
}

cl_int loom_rect_pitches(const char *fn, const char *side, const size_t region[3],
                         size_t *row_pitch, size_t *slice_pitch) {
  if (*row_pitch == 0)
    *row_pitch = region[0];
  else if (*row_pitch < region[0])
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE, "%s_row_pitch is not 0 and less than region[0]",
                         side);
  size_t min_slice;
  if (__builtin_mul_overflow(region[1], *row_pitch, &min_slice))
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE, "region[1] * %s_row_pitch overflows size_t",
                         side);
  if (*slice_pitch == 0)
    *slice_pitch = min_slice;
  else if (*slice_pitch < min_slice)
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s_slice_pitch is not 0 and less than region[1] * %s_row_pitch", side,
                         side);
  else if (*slice_pitch % *row_pitch)
    return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                         "%s_slice_pitch is not 0 and not a multiple of %s_row_pitch", side,
                         side);
  return CL_SUCCESS;
}

bool loom_rect_span(const size_t origin[3], const size_t region[3],
                    size_t row_pitch, size_t slice_pitch, size_t *start,
                    size_t *end) {
  size_t z, y, s, dz, dy, e;
  if (__builtin_mul_overflow(origin[2], slice_pitch, &z) ||
      __builtin_mul_overflow(origin[1], row_pitch, &y) ||
      __builtin_add_overflow(z, y, &s) ||
      __builtin_add_overflow(s, origin[0], &s) ||
      __builtin_mul_overflow(region[2] - 1, slice_pitch, &dz) ||
      __builtin_mul_overflow(region[1] - 1, row_pitch, &dy) ||
      __builtin_add_overflow(s, dz, &e) || __builtin_add_overflow(e, dy, &e) ||
      __builtin_add_overflow(e, region[0], &e))
    return false;
  *start = s;
  *end = e;
  return true;
}

/* Rows of one rectangle, visited in increasing address order. Valid pitches
 * (row_pitch >= width, slice_pitch >= rows * row_pitch) make them disjoint and
 * sorted, so two rectangles can be compared by a merge-like sweep. */
struct row_walk {
  size_t base, row, slice, y, z;
  const size_t *region;
};

static size_t row_start(const struct row_walk *w) {
  return w->base + w->z * w->slice + w->y * w->row;
}

static bool row_next(struct row_walk *w) {
  if (++w->y < w->region[1])
    return true;
  w->y = 0;
  return ++w->z < w->region[2];
}

bool loom_rects_overlap(size_t a, size_t a_row, size_t a_slice, size_t b,
                        size_t b_row, size_t b_slice, const size_t region[3]) {
  const size_t w = region[0];
  size_t a_end = a + (region[2] - 1) * a_slice + (region[1] - 1) * a_row + w;
  size_t b_end = b + (region[2] - 1) * b_slice + (region[1] - 1) * b_row + w;
  if (w == 0 || a_end <= b || b_end <= a)
    return false;
  struct row_walk ra = {a, a_row, a_slice, 0, 0, region};
  struct row_walk rb = {b, b_row, b_slice, 0, 0, region};
  for (;;) {
    size_t sa = row_start(&ra), sb = row_start(&rb);
    if (sa < sb + w && sb < sa + w)
      return true;
    /* drop the row that ends first: it cannot meet any later row of the other */
    if (!(sa < sb ? row_next(&ra) : row_next(&rb)))
      return false;
  }
}

bool loom_valid_pattern_size(size_t n) { return n >= 1 && n <= 128 && (n & (n - 1)) == 0; }
