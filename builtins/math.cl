/* Math functions (OpenCL C 1.13.2) that map onto elementwise builtins, plus
 * the native_ and half_ variants and sincos; the rest live in math_*.cl.
 * Elementwise builtins become LLVM intrinsics, which the loop vectoriser
 * widens across work-items. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable


#define EW1(T, name, builtin) T OVL name(T x) { return builtin(x); }
#define EW2(T, name, builtin) T OVL name(T x, T y) { return builtin(x, y); }
#define EW3(T, name, builtin) T OVL name(T x, T y, T z) { return builtin(x, y, z); }

#define ALLF(M, name, builtin)                                                 \
  M(float, name, builtin) M(float2, name, builtin) M(float3, name, builtin)    \
  M(float4, name, builtin) M(float8, name, builtin) M(float16, name, builtin)  \
  ALLD(M, name, builtin)
#define ALLD(M, name, builtin)                                                 \
  M(double, name, builtin) M(double2, name, builtin) M(double3, name, builtin) \
  M(double4, name, builtin) M(double8, name, builtin) M(double16, name, builtin)

ALLF(EW1, sqrt, __builtin_elementwise_sqrt)
ALLF(EW1, fabs, __builtin_elementwise_abs)
ALLF(EW1, floor, __builtin_elementwise_floor)
ALLF(EW1, ceil, __builtin_elementwise_ceil)
ALLF(EW1, trunc, __builtin_elementwise_trunc)
ALLF(EW1, round, __builtin_elementwise_round)
ALLF(EW1, rint, __builtin_elementwise_rint)
/* float exp, log, pow and trigonometric functions: math_float*.cl; the double
 * exponentials and logarithms: math_double.cl; double sin, cos and tan:
 * math_double_trig.cl; double pow: math_pow.cl */
ALLF(EW2, fmin, __builtin_elementwise_min)
ALLF(EW2, fmax, __builtin_elementwise_max)
ALLF(EW2, copysign, __builtin_elementwise_copysign)
ALLF(EW3, fma, __builtin_elementwise_fma)

#define MAD(T, name, unused) T OVL name(T a, T b, T c) { return a * b + c; }
ALLF(MAD, mad, _)
#define RSQRT(T, name, unused) T OVL name(T x) { return (T)1 / sqrt(x); }
ALLF(RSQRT, rsqrt, _)

/* native_ and half_ variants: full precision is within their (looser) bounds */
ALLF(EW1, native_sqrt, sqrt)
ALLF(EW1, native_exp, exp)
ALLF(EW1, native_log, log)
ALLF(EW1, native_sin, sin)
ALLF(EW1, native_cos, cos)
ALLF(EW1, native_rsqrt, rsqrt)
ALLF(EW1, half_sqrt, sqrt)
ALLF(EW1, half_exp, exp)
ALLF(EW1, half_log, log)
ALLF(EW1, half_sin, sin)
ALLF(EW1, half_cos, cos)
ALLF(EW1, half_rsqrt, rsqrt)
#define RECIP(T, name, unused) T OVL name(T x) { return (T)1 / x; }
ALLF(RECIP, native_recip, _)
#define DIVIDE(T, name, unused) T OVL name(T x, T y) { return x / y; }
ALLF(DIVIDE, native_divide, _)


/* the remaining native_ and half_ variants (full precision is within bounds) */
ALLF(EW1, native_exp2, exp2)
ALLF(EW1, native_exp10, exp10)
ALLF(EW1, native_log2, log2)
ALLF(EW1, native_log10, log10)
ALLF(EW2, native_powr, powr)
ALLF(EW1, native_tan, tan)
ALLF(EW1, half_exp2, exp2)
ALLF(EW1, half_exp10, exp10)
ALLF(EW1, half_log2, log2)
ALLF(EW1, half_log10, log10)
ALLF(EW2, half_powr, powr)
ALLF(EW1, half_tan, tan)
ALLF(RECIP, half_recip, _)
ALLF(DIVIDE, half_divide, _)

/* sincos: both results of the elementwise sin/cos */
#define SINCOS(T, AS)                                                          \
  T OVL sincos(T x, AS T *c) {                                                 \
    *c = __builtin_elementwise_cos(x);                                         \
    return __builtin_elementwise_sin(x);                                       \
  }
#define SINCOS_T(T) LM_ALL_AS(SINCOS, T)
SINCOS_T(float) SINCOS_T(float2) SINCOS_T(float3) SINCOS_T(float4)
SINCOS_T(float8) SINCOS_T(float16)
SINCOS_T(double) SINCOS_T(double2) SINCOS_T(double3) SINCOS_T(double4)
SINCOS_T(double8) SINCOS_T(double16)
