/* Argument checks shared by the memory-object enqueue entry points. Each
 * returns CL_SUCCESS or the spec's error code for that argument, which it
 * logs (LOOMCL_LOG=api) on behalf of the entry point fn. */
#ifndef LOOM_API_MEM_ARGS_H
#define LOOM_API_MEM_ARGS_H
#include "checks.h"

/* CL_INVALID_COMMAND_QUEUE unless q is a valid host command-queue. */
cl_int loom_check_host_queue(const char *fn, cl_command_queue q) LOOM_HIDDEN;

/* true when m is a buffer (or sub-buffer) */
bool loom_is_buffer(cl_mem m) LOOM_HIDDEN;

/* CL_INVALID_MEM_OBJECT unless m is a buffer (or sub-buffer);
 * CL_INVALID_CONTEXT if it belongs to another context than q. arg names m
 * in the log ("buffer", "src_buffer"). */
cl_int loom_check_buffer_for_queue(const char *fn, const char *arg, cl_command_queue q,
                                   cl_mem m) LOOM_HIDDEN;

/* CL_MISALIGNED_SUB_BUFFER_OFFSET if m is a sub-buffer whose origin is not
 * aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN of q's device. */
cl_int loom_check_sub_buffer_alignment(const char *fn, const char *arg, cl_command_queue q,
                                       cl_mem m) LOOM_HIDDEN;

/* CL_INVALID_OPERATION if m's host access flags forbid the host reading
 * (reading) or writing (!reading) it. */
cl_int loom_check_host_access(const char *fn, cl_mem m, bool reading) LOOM_HIDDEN;

/* true when [offset, offset + size) lies inside an object of total bytes */
bool loom_range_inside(size_t total, size_t offset, size_t size) LOOM_HIDDEN;

/* true when n is a fill pattern size the fills accept: 1, 2, 4, ... 128 */
bool loom_valid_pattern_size(size_t n) LOOM_HIDDEN;

/* ---------- commands on pointers (SVM and USM; svm.c) ---------- */

/* CL_INVALID_COMMAND_QUEUE unless q is a valid host queue, then the wait
 * list's CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT. */
cl_int loom_check_pointer_queue(const char *fn, cl_command_queue q, cl_uint num_wait,
                                const cl_event *wait) LOOM_HIDDEN;
/* CL_INVALID_VALUE if [p, p + size) starts inside an SVM or USM allocation
 * of ctx and runs past its end (arg names p in the log). */
cl_int loom_check_inside_allocation(const char *fn, cl_context ctx, const void *p, size_t size,
                                    const char *arg) LOOM_HIDDEN;
/* clEnqueueSVMMemcpy and clEnqueueMemcpyINTEL, every check included, as a
 * command of type; logged as fn. */
cl_int loom_enqueue_pointer_copy(const char *fn, cl_command_type type, cl_command_queue q,
                                 cl_bool blocking, void *dst_ptr, const void *src_ptr,
                                 size_t size, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event) LOOM_HIDDEN;
/* clEnqueueSVMMemFill and clEnqueueMemFillINTEL, every check included. */
cl_int loom_enqueue_pointer_fill(const char *fn, cl_command_type type, cl_command_queue q,
                                 void *dst_ptr, const void *pattern, size_t pattern_size,
                                 size_t size, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event) LOOM_HIDDEN;

/* ---------- rectangles (clEnqueue*BufferRect) ---------- */

/* Applies the defaults for zero pitches and validates them against region
 * (whose elements must all be non-zero): CL_INVALID_VALUE if row_pitch <
 * region[0], slice_pitch < region[1] * row_pitch or slice_pitch is not a
 * multiple of row_pitch. side names the pitches in the log ("buffer" for
 * buffer_row_pitch and buffer_slice_pitch). */
cl_int loom_rect_pitches(const char *fn, const char *side, const size_t region[3],
                         size_t *row_pitch, size_t *slice_pitch) LOOM_HIDDEN;

/* Byte offset of origin and one past the last byte the rectangle touches;
 * false on arithmetic overflow. */
bool loom_rect_span(const size_t origin[3], const size_t region[3],
                    size_t row_pitch, size_t slice_pitch, size_t *start,
                    size_t *end) LOOM_HIDDEN;

/* true when two rectangles of the same region, starting at byte offsets a and
 * b of one storage with their own pitches, share at least one byte. */
bool loom_rects_overlap(size_t a, size_t a_row, size_t a_slice, size_t b,
                        size_t b_row, size_t b_slice,
                        const size_t region[3]) LOOM_HIDDEN;

#endif
