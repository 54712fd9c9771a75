/* The reference-counted object model shared by every cl_* handle. */
#include "loom.h"
#include <assert.h>
#include <limits.h>
#include <string.h>
#include <time.h>

void loom_object_init(struct loom_object *o, enum loom_kind kind,
                      void (*destroy)(struct loom_object *)) {
  o->dispatch = &loom_dispatch;
  o->kind = kind;
  atomic_init(&o->ext_refs, 1);
  atomic_init(&o->int_refs, 1); /* the +1 held on behalf of ext_refs */
  o->destroy = destroy;
}

bool loom_object_is(const void *p, enum loom_kind kind) {
  const struct loom_object *o = p;
  return o && o->dispatch == &loom_dispatch && o->kind == kind;
}

void loom_retain_ext(struct loom_object *o) {
  /* Reviving an object whose application references were all gone (it is
   * only alive through internal holders) re-takes the +1 internal share. */
  unsigned before = atomic_fetch_add(&o->ext_refs, 1);
  assert(before != UINT_MAX); /* the count wrapped */
  if (before == 0)
    loom_retain_int(o);
}

bool loom_release_ext(struct loom_object *o) {
  /* Never drop below zero: an extra release by the application must not free
   * an object that internal holders still use. */
  unsigned n = atomic_load(&o->ext_refs);
  do {
    if (n == 0)
      return false;
  } while (!atomic_compare_exchange_weak(&o->ext_refs, &n, n - 1));
  if (n != 1)
    return false;
  loom_release_int(o);
  return true;
}

void loom_retain_int(struct loom_object *o) {
  /* an object with no internal reference left has been destroyed: nothing
   * may revive it */
  unsigned before = atomic_fetch_add(&o->int_refs, 1);
  assert(before > 0 && before != UINT_MAX);
  (void)before;
}

void loom_release_int(struct loom_object *o) {
  unsigned before = atomic_fetch_sub(&o->int_refs, 1);
  assert(before > 0); /* released more often than retained */
  if (before != 1)
    return;
  o->kind = 0; /* stale handles stop validating */
  if (o->destroy)
    o->destroy(o);
}

cl_int loom_info(size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret, const void *value,
                 size_t value_size) {
  if (param_value) {
    if (param_value_size < value_size) {
      loom_log_api(__func__, "CL_INVALID_VALUE",
                   "param_value is not NULL and param_value_size is less than the size "
                   "of the value");
      return CL_INVALID_VALUE;
    }
    if (value_size)
      memcpy(param_value, value, value_size);
  }
  if (param_value_size_ret)
    *param_value_size_ret = value_size;
  return CL_SUCCESS;
}

cl_ulong loom_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}
