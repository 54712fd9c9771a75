/* OpenCL 1.x atomic functions (OpenCL C 1.13.11, "atomic_*") and their
 * extension spellings (cl_khr_{global,local}_int32_{base,extended}_atomics,
 * cl_khr_int64_{base,extended}_atomics, "atom_*"). Work-groups run on
 * different threads, so each is one sequentially consistent atomic
 * read-modify-write instruction. */
#include "loom_builtins.h"

/* spir64 declares no lock-free sizes; the host target the code ends up on
 * has them, so clang's warning about library calls does not apply */
#pragma clang diagnostic ignored "-Watomic-alignment"

#define SC __ATOMIC_SEQ_CST

#define ATOMICS(PFX, AS, T)                                                    \
  T OVL PFX##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, SC); } \
  T OVL PFX##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, SC); } \
  T OVL PFX##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, SC); } \
  T OVL PFX##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, SC); }   \
  T OVL PFX##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, SC); }   \
  T OVL PFX##_cmpxchg(volatile AS T *p, T cmp, T v) {                          \
    /* on failure `cmp` receives the current value: the old value either way */ \
    __atomic_compare_exchange_n(p, &cmp, v, false, SC, SC);                   \
    return cmp;                                                                \
  }                                                                            \
  T OVL PFX##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, SC); } \
  T OVL PFX##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, SC); } \
  T OVL PFX##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, SC); } \
  T OVL PFX##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, SC); }   \
  T OVL PFX##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, SC); }

#define XCHG_FLOAT(PFX, AS)                                                    \
  float OVL PFX##_xchg(volatile AS float *p, float v) {                        \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), SC)); \
  }

/* OpenCL C 1.1+: int and uint (and float exchange), global and local memory;
 * the generic overloads serve OpenCL C 2.0 callers */
#define CORE(AS) ATOMICS(atomic, AS, int) ATOMICS(atomic, AS, uint) XCHG_FLOAT(atomic, AS)
CORE(__global)
CORE(__local)
CORE(__generic)

/* the extension names: 32-bit in global and local memory, and 64-bit */
ATOMICS(atom, __global, int)
ATOMICS(atom, __global, uint)
ATOMICS(atom, __local, int)
ATOMICS(atom, __local, uint)
ATOMICS(atom, __global, long)
ATOMICS(atom, __global, ulong)
ATOMICS(atom, __local, long)
ATOMICS(atom, __local, ulong)
