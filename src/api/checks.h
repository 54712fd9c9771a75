/* Checks shared by the entry points, and the way every entry point says
 * why it returned an error: with LOOMCL_LOG=api each LOOM_FAIL names the
 * function, the error and the rule of the spec that failed. */
#ifndef LOOM_API_CHECKS_H
#define LOOM_API_CHECKS_H
#include "loom.h"

static inline cl_int loom_fail(const char *fn, cl_int err, const char *name, const char *rule) {
  if (loom_log_api_enabled())
    loom_log_api(fn, name, rule);
  return err;
}
/* `return LOOM_FAIL(CL_INVALID_VALUE, "size is 0");` */
#define LOOM_FAIL(err, rule) loom_fail(__func__, (err), #err, (rule))

/* Validates an event wait list for an enqueue on a queue with context ctx:
 * CL_INVALID_EVENT_WAIT_LIST for list/count mismatch or an invalid event,
 * CL_INVALID_CONTEXT if an event belongs to another context (event.c). */
cl_int loom_check_wait_list(cl_context ctx, cl_uint num, const cl_event *list) LOOM_HIDDEN;

#endif
