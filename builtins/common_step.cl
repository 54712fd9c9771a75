/* step, smoothstep and sign (OpenCL C 1.13.4) for float and double in every
 * width, including the forms whose edges are scalars. Written with
 * element-wise selects so they vectorise across work-items. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* T: the argument type; S: its scalar type */
#define STEP_FNS(T, S)                                                         \
  T OVL step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                   \
  T OVL smoothstep(T e0, T e1, T x) {                                          \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                             \
    return t * t * ((T)3 - (T)2 * t);                                          \
  }                                                                            \
  /* sign(NaN) is 0; sign(±0) keeps the zero's sign */                         \
  T OVL sign(T x) {                                                            \
    T r = x > (T)0 ? (T)1 : (T)-1;                                             \
    r = x == (T)0 ? x : r;                                                     \
    return isnan(x) ? (T)0 : r;                                                \
  }
#define STEP_SCALAR_EDGE(T, S)                                                 \
  T OVL step(S edge, T x) { return step((T)edge, x); }                         \
  T OVL smoothstep(S e0, S e1, T x) { return smoothstep((T)e0, (T)e1, x); }
#define STEP_ALL(S)                                                            \
  STEP_FNS(S, S)                                                               \
  STEP_FNS(S##2, S) STEP_FNS(S##3, S) STEP_FNS(S##4, S) STEP_FNS(S##8, S)      \
  STEP_FNS(S##16, S)                                                           \
  STEP_SCALAR_EDGE(S##2, S) STEP_SCALAR_EDGE(S##3, S)                          \
  STEP_SCALAR_EDGE(S##4, S) STEP_SCALAR_EDGE(S##8, S)                          \
  STEP_SCALAR_EDGE(S##16, S)

STEP_ALL(float)
STEP_ALL(double)
