/* Math functions evaluated through the C library (OpenCL C 2.0 6.13.2):
 * glibc's double functions are accurate to about 1 ulp, so float results are
 * computed in double and rounded once (well within the float ULP table), and
 * the *pi variants divide the double result by pi. Every libm name called here
 * must be listed in src/compiler/link.c (check_undefined). */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define LIBM1(f, builtin)                                                      \
  double OVL f(double x) { return builtin(x); }                                \
  float OVL f(float x) { return (float)builtin((double)x); }                   \
  LM_ALL1(f)
/* the double form only: the float one is in math_float_hyp.cl */
#define LIBM1_D(f, builtin)                                                    \
  double OVL f(double x) { return builtin(x); }                                \
  LM_WIDTHS(LM_V1, double, f)

LIBM1_D(acos, __builtin_acos)
LIBM1(acosh, __builtin_acosh)
LIBM1_D(asin, __builtin_asin)
LIBM1(asinh, __builtin_asinh)
LIBM1(atanh, __builtin_atanh)
/* glibc's double cbrt may be off by up to 4 ulp; one Newton step with an
 * fma-exact residual (r^3 - x = t r - x + e r with t + e = r^2 exactly)
 * brings it within 1 ulp of the 2 the spec allows */
static double cbrt_d(double x) {
  double r = __builtin_cbrt(x);
  if (x == 0.0 || !(r == r) || __builtin_isinf(r))
    return r;
  /* tiny x: the residual would drop below the subnormal quantum, so scale by
   * 2^162 (cube root 2^54) first; both scalings are exact */
  bool tiny = __builtin_fabs(x) < 0x1p-900;
  if (tiny) {
    x *= 0x1p162;
    r *= 0x1p54;
  }
  double t = r * r, e = __builtin_elementwise_fma(r, r, -t);
  double res = __builtin_elementwise_fma(t, r, -x) + e * r;
  r -= res / (3.0 * t);
  return tiny ? r * 0x1p-54 : r;
}
LIBM1_D(cbrt, cbrt_d)
LIBM1_D(cosh, __builtin_cosh)
LIBM1_D(sinh, __builtin_sinh)
LIBM1(erf, __builtin_erf)
LIBM1(erfc, __builtin_erfc)
/* exp10: math_float.cl and math_double.cl */
LIBM1_D(expm1, __builtin_expm1)
LIBM1_D(log1p, __builtin_log1p)
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

/* the float forms of these, atan2pi and cbrt: math_float_pi.cl */
#define PI_DIV(f, builtin)                                                     \
  double OVL f(double x) { return builtin(x) / M_PI; }                          \
  LM_WIDTHS(LM_V1, double, f)
PI_DIV(acospi, __builtin_acos)
PI_DIV(asinpi, __builtin_asin)
PI_DIV(atanpi, __builtin_atan)

double OVL atan2pi(double y, double x) {
  /* atan2 rounds 3pi/4; the spec prescribes exact +-0.75 and +-0.25 */
  if (__builtin_isinf(x) && __builtin_isinf(y))
    return __builtin_copysign(x > 0.0 ? 0.25 : 0.75, y);
  return __builtin_atan2(y, x) / M_PI;
}
LM_WIDTHS(LM_V2, double, atan2pi)

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
