/* OpenCL C 2.0 atomics (OpenCL C 1.13.11, the C11 subset): atomic_init,
 * atomic_work_item_fence, atomic_store/load/exchange, the compare-exchange
 * pairs, atomic_fetch_<op> and the atomic_flag functions, each with its
 * _explicit forms.
 *
 * Every operation is one host atomic instruction with the requested memory
 * order. Scopes are all served by the strongest one: different work-groups
 * run on different threads, so device (and all-devices) visibility is what
 * the host's atomics give; a narrower scope is never weaker than that. The
 * order arguments are run-time values here, but every builtin is inlined
 * into the kernel, where they are constants and Clang's switch over the
 * orders folds to a single instruction.
 *
 * Clang declares them for generic pointers when the program has the generic
 * address space, which every LoomCL OpenCL C 2.0/3.0 program has: __global
 * and __local pointers reach them converted to generic ones. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
/* spir64 declares no lock-free sizes; the host target the code ends up on
 * has them, so clang's warning about library calls does not apply */
#pragma clang diagnostic ignored "-Watomic-alignment"

#define SC __ATOMIC_SEQ_CST

/* atomic_init, atomic_store, atomic_load, atomic_exchange: object in AS */
#define LOAD_STORE(AS, A, C)                                                   \
  void OVL atomic_init(volatile AS A *o, C v) { __c11_atomic_init(o, v); }    \
  void OVL atomic_store(volatile AS A *o, C v) { __c11_atomic_store(o, v, SC); } \
  void OVL atomic_store_explicit(volatile AS A *o, C v, memory_order m) {      \
    __c11_atomic_store(o, v, m);                                               \
  }                                                                            \
  void OVL atomic_store_explicit(volatile AS A *o, C v, memory_order m,        \
                                 memory_scope s) {                             \
    (void)s;                                                                   \
    __c11_atomic_store(o, v, m);                                               \
  }                                                                            \
  C OVL atomic_load(volatile AS A *o) { return __c11_atomic_load(o, SC); }     \
  C OVL atomic_load_explicit(volatile AS A *o, memory_order m) {               \
    return __c11_atomic_load(o, m);                                            \
  }                                                                            \
  C OVL atomic_load_explicit(volatile AS A *o, memory_order m, memory_scope s) { \
    (void)s;                                                                   \
    return __c11_atomic_load(o, m);                                            \
  }                                                                            \
  C OVL atomic_exchange(volatile AS A *o, C v) {                               \
    return __c11_atomic_exchange(o, v, SC);                                    \
  }                                                                            \
  C OVL atomic_exchange_explicit(volatile AS A *o, C v, memory_order m) {      \
    return __c11_atomic_exchange(o, v, m);                                     \
  }                                                                            \
  C OVL atomic_exchange_explicit(volatile AS A *o, C v, memory_order m,        \
                                 memory_scope s) {                             \
    (void)s;                                                                   \
    return __c11_atomic_exchange(o, v, m);                                     \
  }

/* compare-exchange (NAME: the strong or the weak one), object in AS and the
 * expected value in EAS; a weak exchange never fails spuriously here */
#define CMPXCHG(NAME, AS, EAS, A, C)                                           \
  bool OVL NAME(volatile AS A *o, EAS C *e, C d) {                             \
    return __c11_atomic_compare_exchange_strong(o, e, d, SC, SC);              \
  }                                                                            \
  bool OVL NAME##_explicit(volatile AS A *o, EAS C *e, C d, memory_order ok,   \
                           memory_order fail) {                                \
    return __c11_atomic_compare_exchange_strong(o, e, d, ok, fail);            \
  }                                                                            \
  bool OVL NAME##_explicit(volatile AS A *o, EAS C *e, C d, memory_order ok,   \
                           memory_order fail, memory_scope s) {                \
    (void)s;                                                                   \
    return __c11_atomic_compare_exchange_strong(o, e, d, ok, fail);            \
  }
/* atomic_fetch_<key>: object A holding C, operand M */
#define FETCH(KEY, AS, A, C, M)                                                \
  C OVL atomic_fetch_##KEY(volatile AS A *o, M v) {                            \
    return __c11_atomic_fetch_##KEY(o, (C)v, SC);                              \
  }                                                                            \
  C OVL atomic_fetch_##KEY##_explicit(volatile AS A *o, M v, memory_order m) { \
    return __c11_atomic_fetch_##KEY(o, (C)v, m);                               \
  }                                                                            \
  C OVL atomic_fetch_##KEY##_explicit(volatile AS A *o, M v, memory_order m,   \
                                      memory_scope s) {                        \
    (void)s;                                                                   \
    return __c11_atomic_fetch_##KEY(o, (C)v, m);                               \
  }
#define FETCH_ALL(AS, A, C)                                                    \
  FETCH(add, AS, A, C, C)                                                      \
  FETCH(sub, AS, A, C, C)                                                      \
  FETCH(or, AS, A, C, C)                                                       \
  FETCH(xor, AS, A, C, C)                                                      \
  FETCH(and, AS, A, C, C)                                                      \
  FETCH(min, AS, A, C, C)                                                      \
  FETCH(max, AS, A, C, C)

/* atomic_flag: a 32-bit integer, set when non-zero */
#define FLAG(AS)                                                               \
  bool OVL atomic_flag_test_and_set(volatile AS atomic_flag *o) {              \
    return __c11_atomic_exchange(o, 1, SC) != 0;                               \
  }                                                                            \
  bool OVL atomic_flag_test_and_set_explicit(volatile AS atomic_flag *o,       \
                                             memory_order m) {                 \
    return __c11_atomic_exchange(o, 1, m) != 0;                                \
  }                                                                            \
  bool OVL atomic_flag_test_and_set_explicit(volatile AS atomic_flag *o,       \
                                             memory_order m, memory_scope s) { \
    (void)s;                                                                   \
    return __c11_atomic_exchange(o, 1, m) != 0;                                \
  }                                                                            \
  void OVL atomic_flag_clear(volatile AS atomic_flag *o) {                     \
    __c11_atomic_store(o, 0, SC);                                              \
  }                                                                            \
  void OVL atomic_flag_clear_explicit(volatile AS atomic_flag *o, memory_order m) { \
    __c11_atomic_store(o, 0, m);                                               \
  }                                                                            \
  void OVL atomic_flag_clear_explicit(volatile AS atomic_flag *o, memory_order m, \
                                      memory_scope s) {                        \
    (void)s;                                                                   \
    __c11_atomic_store(o, 0, m);                                               \
  }

#define TYPE(A, C)                                                             \
  LOAD_STORE(__generic, A, C)                                                  \
  CMPXCHG(atomic_compare_exchange_strong, __generic, __generic, A, C)          \
  CMPXCHG(atomic_compare_exchange_weak, __generic, __generic, A, C)

TYPE(atomic_int, int)
TYPE(atomic_uint, uint)
TYPE(atomic_long, long)
TYPE(atomic_ulong, ulong)
TYPE(atomic_float, float)
TYPE(atomic_double, double)
FETCH_ALL(__generic, atomic_int, int)
FETCH_ALL(__generic, atomic_uint, uint)
FETCH_ALL(__generic, atomic_long, long)
FETCH_ALL(__generic, atomic_ulong, ulong)
/* atomic_uintptr_t +/- ptrdiff_t (1.13.11: M is ptrdiff_t for add and sub) */
FETCH(add, __generic, atomic_uintptr_t, uintptr_t, ptrdiff_t)
FETCH(sub, __generic, atomic_uintptr_t, uintptr_t, ptrdiff_t)
FLAG(__generic)

/* memory_order_relaxed fences order nothing; the others are host fences
 * (acquire and release fences only restrain the compiler on x86) */
void OVL atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                memory_scope scope) {
  (void)flags;
  (void)scope;
  if (order != memory_order_relaxed)
    __c11_atomic_thread_fence(order);
}
