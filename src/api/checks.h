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

#endif
