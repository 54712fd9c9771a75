/* Math functions still evaluated through the C library (OpenCL C 2.0
 * 6.13.2): tgamma and lgamma.
 * glibc's double functions are accurate to about 1 ulp, so float results are
 * computed in double and rounded once (well within the float ULP table).
 * Every libm name called here must be listed in src/compiler/link.c
 * (check_undefined). */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define LIBM1(f, builtin)                                                      \
  double OVL f(double x) { return builtin(x); }                                \
  float OVL f(float x) { return (float)builtin((double)x); }                   \
  LM_ALL1(f)

LIBM1(tgamma, __builtin_tgamma)

/* the reentrant glibc entry point: lgamma() would write the global signgam */
double loom_libm_lgamma_r(double x, __private int *sign) __asm__("lgamma_r");
static double lgamma_d(double x) {
  __private int s;
  return loom_libm_lgamma_r(x, &s);
}
LIBM1(lgamma, lgamma_d)

/* The sign of gamma(x); 0 where x is zero or a negative integer (a pole). */
static int gamma_sign(double x) {
  if (x == 0.0 || (x < 0.0 && x == __builtin_floor(x) && !__builtin_isinf(x)))
    return 0;
  if (x > 0.0 || !(x == x) || __builtin_isinf(x))
    return 1;
  /* negative non-integer: |x| < 2^52 here, so floor(x) fits a long */
  return ((long)__builtin_floor(x) & 1) ? -1 : 1;
}
double OVL lgamma_r(double x, __private int *signp) {
  *signp = gamma_sign(x);
  return lgamma_d(x);
}
float OVL lgamma_r(float x, __private int *signp) {
  *signp = gamma_sign((double)x);
  return (float)lgamma_d((double)x);
}

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

/* lgamma_r for the other address spaces and the vector widths */
#define LGR_S(S, AS) LM_SP(S, lgamma_r, AS, int)
LM_OTHER_AS(LGR_S, float)
LM_OTHER_AS(LGR_S, double)
#define LGR_V(S, AS) LM_WIDTHS(LM_VPI, S, lgamma_r, AS)
LM_ALL_AS(LGR_V, float)
LM_ALL_AS(LGR_V, double)
