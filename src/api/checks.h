/* Checks shared by the entry points, and the way every entry point says
 * why it returned an error: with LOOMCL_LOG=api each LOOM_FAIL names the
 * function, the error and the rule of the spec that failed. */
#ifndef LOOM_API_CHECKS_H
#define LOOM_API_CHECKS_H
#include "loom.h"

/* Returns err; with LOOMCL_LOG=api first prints "LoomCL api: fn: name:
 * rule" on stderr. name is the error's spelling at the call site: when that
 * is an expression (a variable) rather than a CL_* name, the name of err's
 * value is printed instead. */
cl_int loom_fail(const char *fn, cl_int err, const char *name, const char *rule) LOOM_HIDDEN;
/* the same, the rule a printf format (only formatted when logging is on) */
cl_int loom_failf(const char *fn, cl_int err, const char *name, const char *fmt, ...)
    LOOM_HIDDEN __attribute__((format(printf, 4, 5)));
/* "CL_INVALID_VALUE" for CL_INVALID_VALUE; "CL_<number>" for unknown codes */
const char *loom_error_name(cl_int err) LOOM_HIDDEN;

/* `return LOOM_FAIL(CL_INVALID_VALUE, "size is 0");` */
#define LOOM_FAIL(err, rule) loom_fail(__func__, (err), #err, (rule))
/* in a helper that checks on behalf of the entry point fn */
#define LOOM_FAIL_IN(fn, err, rule) loom_fail((fn), (err), #err, (rule))
#define LOOM_FAILF_IN(fn, err, ...) loom_failf((fn), (err), #err, __VA_ARGS__)

/* For entry points that return an object and report through errcode_ret:
 * `return LOOM_FAIL_NULL(errcode_ret, CL_INVALID_CONTEXT, "...");` */
static inline void *loom_null_with(cl_int *errcode_ret, cl_int err) {
  LOOM_SET_ERR(errcode_ret, err);
  return NULL;
}
#define LOOM_FAIL_NULL(errcode_ret, err, rule) loom_null_with((errcode_ret), LOOM_FAIL(err, rule))
#define LOOM_FAIL_NULL_IN(fn, errcode_ret, err, rule)                          \
  loom_null_with((errcode_ret), LOOM_FAIL_IN(fn, err, rule))

/* Validates an event wait list for an enqueue on a queue with context ctx,
 * on behalf of the entry point fn: CL_INVALID_EVENT_WAIT_LIST for a
 * list/count mismatch or an invalid event, CL_INVALID_CONTEXT if an event
 * belongs to another context (event.c). Each error is logged under fn. */
cl_int loom_check_wait_list_in(const char *fn, cl_context ctx, cl_uint num,
                               const cl_event *list) LOOM_HIDDEN;
#define loom_check_wait_list(ctx, num, list) loom_check_wait_list_in(__func__, (ctx), (num), (list))

/* The device a kernel query names (clGetKernelWorkGroupInfo,
 * clGetKernelSubGroupInfo): NULL means the program's only device. The
 * kernel must be valid; CL_INVALID_DEVICE (logged for fn) otherwise. */
cl_int loom_kernel_query_device(const char *fn, cl_kernel kernel, cl_device_id *device) LOOM_HIDDEN;

/* true when dev is one of ctx's devices */
bool loom_context_has_device(cl_context ctx, cl_device_id dev) LOOM_HIDDEN;

/* true when a device of ctx supports images */
bool loom_context_supports_images(cl_context ctx) LOOM_HIDDEN;

/* ---------- creating memory objects (buffer.c, image.c) ----------
 * Each check logs its error on behalf of the entry point fn. */

/* CL_INVALID_VALUE unless flags passes loom_mem_check_flags (memobj.h) */
cl_int loom_check_mem_flags(const char *fn, cl_mem_flags flags) LOOM_HIDDEN;

/* Counts a 0-terminated property list into *num (0 for NULL). kinds
 * ("buffers", "images") names the objects in the log. device_address is
 * NULL for objects that take no property (images): any key is then
 * CL_INVALID_PROPERTY; buffers take CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT
 * (cl_ext_buffer_device_address), whose value goes to *device_address. */
cl_int loom_check_mem_properties(const char *fn, const cl_mem_properties *props, size_t *num,
                                 const char *kinds, bool *device_address) LOOM_HIDDEN;

/* The flags of a memory object created from another (a sub-buffer of a
 * buffer, an image from a buffer or an image) against the flags of that
 * parent, which parent_arg names ("buffer", "mem_object"): CL_INVALID_VALUE
 * for a conflict; on success *flags is completed with what it inherits. */
cl_int loom_check_inherited_flags(const char *fn, cl_mem_flags parent_flags, cl_mem_flags *flags,
                                  const char *parent_arg) LOOM_HIDDEN;

/* CL_INVALID_HOST_PTR if wants_ptr (CL_MEM_USE_HOST_PTR or
 * CL_MEM_COPY_HOST_PTR is set) and host_ptr is NULL, or host_ptr is not NULL
 * and !wants_ptr. */
cl_int loom_check_host_ptr(const char *fn, bool wants_ptr, const void *host_ptr) LOOM_HIDDEN;

/* ---------- enqueueing memory commands ---------- */

/* CL_INVALID_VALUE if region is NULL or an element of it is 0 */
cl_int loom_check_region(const char *fn, const size_t *region) LOOM_HIDDEN;

/* CL_INVALID_MEM_OBJECT unless m is a valid object of a kind (is_kind; kind
 * "buffer", "image"); CL_INVALID_CONTEXT if it belongs to another context
 * than q. arg names m in the log. */
cl_int loom_check_mem_for_queue(const char *fn, const char *arg, cl_command_queue q, cl_mem m,
                                bool (*is_kind)(cl_mem), const char *kind) LOOM_HIDDEN;

/* CL_INVALID_MEM_OBJECT unless the two objects of a copy, src_<kind> and
 * dst_<kind>, are valid objects of the kind (is_kind; kind "buffer",
 * "image"): the copies check both handles before either context. */
cl_int loom_check_copy_handles(const char *fn, bool (*is_kind)(cl_mem), const char *kind,
                               cl_mem src, cl_mem dst) LOOM_HIDDEN;

/* CL_INVALID_VALUE unless map_flags is valid: known bits only, and
 * CL_MAP_WRITE_INVALIDATE_REGION with neither CL_MAP_READ nor CL_MAP_WRITE. */
cl_int loom_check_map_flags(const char *fn, cl_map_flags map_flags) LOOM_HIDDEN;

/* CL_INVALID_OPERATION if the host access flags of m forbid what map_flags
 * asks: reading (CL_MAP_READ) or writing (CL_MAP_WRITE,
 * CL_MAP_WRITE_INVALIDATE_REGION). */
cl_int loom_check_map_access(const char *fn, cl_mem m, cl_map_flags map_flags) LOOM_HIDDEN;

/* The end of clEnqueueMapBuffer and clEnqueueMapImage (buffer_map.c),
 * logged as fn: recorded is what recording the map of m at ptr returned
 * (loom_mem_map_add, loom_mem_map_add_rect); once it has succeeded, the
 * command of type is enqueued, and the map forgotten again if that fails. */
cl_int loom_enqueue_map(const char *fn, cl_command_queue q, cl_command_type type, cl_mem m,
                        void *ptr, cl_int recorded, cl_bool blocking, cl_uint num_wait,
                        const cl_event *wait, cl_event *event) LOOM_HIDDEN;

#endif
