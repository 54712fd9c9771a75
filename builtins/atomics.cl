/* OpenCL 1.x atomic functions (OpenCL C 1.13.11, "atomic_*") and their
 * extension spellings (cl_khr_{global,local}_int32_{base,extended}_atomics,
 * cl_khr_int64_{base,extended}_atomics, "atom_*"). Work-groups run on
 * different threads, so each is one atomic read-modify-write instruction.
 * They guarantee atomicity, not ordering: memory_order_relaxed at device
 * scope, as the OpenCL 2.0 memory model defines them (programs order them
 * with fences). The `volatile` of their signatures is dropped: it is there
 * for the caller's pointers, and would forbid combining increments
 * (src/compiler/target/x86/atomic_combining.c). */
#include "loom_builtins.h"

/* spir64 declares no lock-free sizes; the host target the code ends up on
 * has them, so clang's warning about library calls does not apply */
#pragma clang diagnostic ignored "-Watomic-alignment"

#define RLX __ATOMIC_RELAXED

#define ATOMICS(PFX, AS, T)                                                    \
  T OVL PFX##_add(volatile AS T *p, T v) { return __atomic_fetch_add((AS T *)p, v, RLX); } \
  T OVL PFX##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub((AS T *)p, v, RLX); } \
  T OVL PFX##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n((AS T *)p, v, RLX); } \
  T OVL PFX##_inc(volatile AS T *p) { return __atomic_fetch_add((AS T *)p, (T)1, RLX); }   \
  T OVL PFX##_dec(volatile AS T *p) { return __atomic_fetch_sub((AS T *)p, (T)1, RLX); }   \
  T OVL PFX##_cmpxchg(volatile AS T *p, T cmp, T v) {                          \
    /* on failure `cmp` receives the current value: the old value either way */ \
    __atomic_compare_exchange_n((AS T *)p, &cmp, v, false, RLX, RLX);         \
    return cmp;                                                                \
  }                                                                            \
  T OVL PFX##_min(volatile AS T *p, T v) { return __atomic_fetch_min((AS T *)p, v, RLX); } \
  T OVL PFX##_max(volatile AS T *p, T v) { return __atomic_fetch_max((AS T *)p, v, RLX); } \
  T OVL PFX##_and(volatile AS T *p, T v) { return __atomic_fetch_and((AS T *)p, v, RLX); } \
  T OVL PFX##_or(volatile AS T *p, T v) { return __atomic_fetch_or((AS T *)p, v, RLX); }   \
  T OVL PFX##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor((AS T *)p, v, RLX); }

#define XCHG_FLOAT(PFX, AS)                                                    \
  float OVL PFX##_xchg(volatile AS float *p, float v) {                        \
    return as_float(__atomic_exchange_n((AS uint *)p, as_uint(v), RLX));       \
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
