/* Work-group collective functions (OpenCL C 2.0, 6.13.15).
 *
 * The work-items of a group run one after another on one thread, in local
 * linear id order, between two barriers (docs/COMPILER.md). So a collective
 * folds every work-item's value into a per-group accumulator in that order
 * and needs a single barrier:
 *
 * - reduce, broadcast, all, any: each work-item folds its value into ACC
 *   (work-item 0 starts it); the last work-item also copies the total to RES;
 *   barrier; everyone reads RES. RES is written only by the last work-item of
 *   the next such collective, after every work-item has read it, so no
 *   barrier is needed in front even when the call sits in a loop.
 * - scans: barrier; each work-item reads the prefix so far from SCAN and
 *   folds its value in. The barrier in front keeps work-item 0 from starting
 *   the next scan (or the next loop iteration) before the others have
 *   finished this one. SCAN is separate from ACC because a reduction may fold
 *   in the same region as a scan.
 *
 * The scratch is LOOM_WG_SCRATCH_BYTES of the group's __local memory
 * (__loom_wg_scratch(), reserved by the compiler when a kernel uses it). Its
 * accesses are volatile: the work-item loop then keeps its sequential order
 * (it is not marked parallel and not vectorised across work-items). */
#include "loom_builtins.h"

#define WG_ACC 0
#define WG_RES 1
#define WG_SCAN 2

#define WG_SLOT(T, i) ((volatile __local T *)((__local char *)__loom_wg_scratch() + 8 * (i)))

static INLINE size_t wg_lid(void) { return get_local_linear_id(); }
static INLINE size_t wg_last(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2) - 1;
}

/* operators on type T computed in U: integer adds wrap in the unsigned type
 * (signed overflow would be undefined) */
#define WG_ADD(U, a, b) ((U)(a) + (U)(b))
#define WG_MIN(U, a, b) ((b) < (a) ? (b) : (a))
#define WG_MAX(U, a, b) ((a) < (b) ? (b) : (a))
#define WG_AND(U, a, b) ((a) & (b))
#define WG_OR(U, a, b) ((a) | (b))

/* the folding step of reduce/all/any: returns the group's result */
#define WG_REDUCE_BODY(T, U, OP, x)                                                      \
  size_t lid = wg_lid();                                                                 \
  volatile __local T *acc = WG_SLOT(T, WG_ACC);                                          \
  T v = lid == 0 ? (x) : (T)OP(U, *acc, (x));                                            \
  *acc = v;                                                                              \
  if (lid == wg_last())                                                                  \
    *WG_SLOT(T, WG_RES) = v;                                                             \
  __loom_barrier();                                                                      \
  return *WG_SLOT(T, WG_RES);

int OVL work_group_all(int predicate) {
  int p = predicate != 0;
  WG_REDUCE_BODY(int, int, WG_AND, p)
}

int OVL work_group_any(int predicate) {
  int p = predicate != 0;
  WG_REDUCE_BODY(int, int, WG_OR, p)
}

/* broadcast from linear id `id`: that work-item leaves its value in ACC and
 * the last one (never before it) copies ACC to RES */
#define WG_BROADCAST_BODY(T, x, id)                                                      \
  size_t lid = wg_lid();                                                                 \
  volatile __local T *acc = WG_SLOT(T, WG_ACC);                                          \
  if (lid == (id))                                                                       \
    *acc = (x);                                                                          \
  if (lid == wg_last())                                                                  \
    *WG_SLOT(T, WG_RES) = *acc;                                                          \
  __loom_barrier();                                                                      \
  return *WG_SLOT(T, WG_RES);

#define WG_DEFINE(T, U, MIN_ID, MAX_ID)                                                  \
  T OVL work_group_broadcast(T a, size_t local_id) { WG_BROADCAST_BODY(T, a, local_id) } \
  T OVL work_group_broadcast(T a, size_t x, size_t y) {                                  \
    size_t id = x + get_local_size(0) * y;                                               \
    WG_BROADCAST_BODY(T, a, id)                                                          \
  }                                                                                      \
  T OVL work_group_broadcast(T a, size_t x, size_t y, size_t z) {                        \
    size_t id = x + get_local_size(0) * (y + get_local_size(1) * z);                     \
    WG_BROADCAST_BODY(T, a, id)                                                          \
  }                                                                                      \
  WG_DEFINE_OP(T, U, add, WG_ADD, (T)0)                                                  \
  WG_DEFINE_OP(T, U, min, WG_MIN, MIN_ID)                                                \
  WG_DEFINE_OP(T, U, max, WG_MAX, MAX_ID)

#define WG_DEFINE_OP(T, U, NAME, OP, ID)                                                 \
  T OVL work_group_reduce_##NAME(T x) { WG_REDUCE_BODY(T, U, OP, x) }                    \
  T OVL work_group_scan_inclusive_##NAME(T x) {                                          \
    __loom_barrier();                                                                    \
    volatile __local T *acc = WG_SLOT(T, WG_SCAN);                                       \
    T v = wg_lid() == 0 ? x : (T)OP(U, *acc, x);                                         \
    *acc = v;                                                                            \
    return v;                                                                            \
  }                                                                                      \
  T OVL work_group_scan_exclusive_##NAME(T x) {                                          \
    __loom_barrier();                                                                    \
    volatile __local T *acc = WG_SLOT(T, WG_SCAN);                                       \
    bool first = wg_lid() == 0;                                                          \
    T prev = first ? (T)(ID) : *acc;                                                     \
    *acc = first ? x : (T)OP(U, prev, x);                                                \
    return prev;                                                                         \
  }

/* (type, type of its adds, identity of min, identity of max) */
WG_DEFINE(int, uint, INT_MAX, INT_MIN)
WG_DEFINE(uint, uint, UINT_MAX, 0)
WG_DEFINE(long, ulong, LONG_MAX, LONG_MIN)
WG_DEFINE(ulong, ulong, ULONG_MAX, 0)
WG_DEFINE(float, float, INFINITY, -INFINITY)
WG_DEFINE(double, double, INFINITY, -INFINITY)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
WG_DEFINE(half, half, INFINITY, -INFINITY)
