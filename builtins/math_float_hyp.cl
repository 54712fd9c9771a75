/* Float hyperbolic functions, expm1, log1p and the inverse trigonometric
 * functions (OpenCL C 2.0 6.13.2), branch-free and in double like
 * math_float.cl, so that they vectorise across work-items. Where the
 * exponential-based formula would cancel (|x| < 1/16), a short Taylor
 * polynomial takes over; both are within 1e-10 relative, and the single
 * rounding to float keeps results within 1 ulp (the spec allows 3 to 5).
 * The inverse hyperbolic functions are their logarithmic forms, with the
 * same Taylor fallback near 0. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_float_core.h"

#define SMALL 0.0625

float OVL expm1(float x) {
  double d = (double)x;
  /* Taylor to x^8: |x| < 1/16 leaves less than 1e-14 relative */
  double p = 1.0 / 40320;
  p = p * d + 1.0 / 5040;
  p = p * d + 1.0 / 720;
  p = p * d + 1.0 / 120;
  p = p * d + 1.0 / 24;
  p = p * d + 1.0 / 6;
  p = p * d + 0.5;
  double small = d * (1.0 + d * p); /* keeps the sign of -0 */
  double r = exp2_d(d * LOG2E) - 1.0;
  return __builtin_fabs(d) < SMALL ? (float)small : (float)r;
}

float OVL log1p(float x) {
  double d = (double)x;
  /* 1 + x is exact in double for |x| >= 2^-29; below 1/16 the series is used */
  double e, l = log_parts(1.0 + d, &e);
  double big = e * LN2 + l;
  double p = -1.0 / 10;
  p = p * d + 1.0 / 9;
  p = p * d - 1.0 / 8;
  p = p * d + 1.0 / 7;
  p = p * d - 1.0 / 6;
  p = p * d + 1.0 / 5;
  p = p * d - 1.0 / 4;
  p = p * d + 1.0 / 3;
  p = p * d - 0.5;
  double small = d * (1.0 + d * p);
  float r = __builtin_fabs(d) < SMALL ? (float)small : (float)big;
  r = x == -1.0f ? -INFF : r;
  r = x < -1.0f ? QNANF : r;
  return x == INFF || x != x ? x + x : r;
}

/* e^|x| and e^-|x| for the hyperbolic functions */
static double exp_abs(float x) { return exp2_d(__builtin_fabs((double)x) * LOG2E); }

float OVL sinh(float x) {
  double a = __builtin_fabs((double)x), z = a * a;
  double p = 1.0 / 362880;
  p = p * z + 1.0 / 5040;
  p = p * z + 1.0 / 120;
  p = p * z + 1.0 / 6;
  double small = a + a * z * p;
  double e = exp_abs(x);
  double big = 0.5 * e - 0.5 / e;
  float r = with_sign_of(a < SMALL ? (float)small : (float)big, x);
  return x != x ? x : r;
}

float OVL cosh(float x) {
  double e = exp_abs(x);
  float r = (float)(0.5 * e + 0.5 / e);
  return x != x ? x : r;
}

/* tanh in float, the one function here not computed in double: its
 * formula needs a division, and a double one costs four times a float one
 * per lane (the division bounded the double version). Below 1, a + a^3 P(a^2)
 * with P a degree-7 Chebyshev fit of (tanh(a)/a - 1)/a^2 (error below
 * 2e-9); from 1, 1 - 2e/(1 + e) with e = e^-2|x| <= e^-2 from the float
 * exponential's parts (math_float_core.h), which cannot overflow. At most
 * 1.13 ulp (near 0.99, test_bruteforce in full mode), against the spec's
 * 5. */
float OVL tanh(float x) {
  float a = __builtin_fminf(__builtin_fabsf(x), 10.0f); /* tanh(9.1) rounds to 1 */
  float z = a * a;
  float p = 0x1.2b7582p-13f;
  p = FMA(p, z, -0x1.e42e3p-11f);
  p = FMA(p, z, 0x1.a45278p-9f);
  p = FMA(p, z, -0x1.1d02d6p-7f);
  p = FMA(p, z, 0x1.65a7c4p-6f);
  p = FMA(p, z, -0x1.ba117cp-5f);
  p = FMA(p, z, 0x1.1110f2p-3f);
  p = FMA(p, z, -0x1.555556p-2f);
  float small = FMA(a * z, p, a);
  float k, e = exp_parts_f(-2.0f * a, &k);
  e = AS_F(AS_U(e) + ((uint)(int)k << 23)); /* k in [-29, 0]: stays normal */
  float big = 1.0f - 2.0f * e / (1.0f + e);
  float res = with_sign_of(a < 1.0f ? small : big, x);
  return x != x ? x : res;
}

float OVL atan(float x) { return (float)atan_d((double)x); }

/* asin x = atan(x / sqrt(1 - x^2)); 1 - x^2 is exact in double */
float OVL asin(float x) {
  double d = (double)x;
  return (float)atan_d(d / __builtin_elementwise_sqrt(1.0 - d * d));
}

/* acos x = 2 atan(sqrt((1 - x) / (1 + x))); 1 - x and 1 + x are exact */
float OVL acos(float x) {
  double d = (double)x;
  return (float)(2.0 * atan_d(__builtin_elementwise_sqrt((1.0 - d) / (1.0 + d))));
}

/* ln v for a double v > 0 that is normal and finite */
static double ln_d(double v) {
  double e, l = log_parts(v, &e);
  return e * LN2 + l;
}

/* asinh a = ln(a + sqrt(a^2 + 1)); below 1/16 the odd series to a^9
 * (truncation under 1e-13 relative) avoids the cancellation */
float OVL asinh(float x) {
  double a = __builtin_fabs((double)x), z = a * a;
  double p = 35.0 / 1152;
  p = p * z - 5.0 / 112;
  p = p * z + 3.0 / 40;
  p = p * z - 1.0 / 6;
  double small = a + a * z * p;
  double big = ln_d(a + __builtin_elementwise_sqrt(z + 1.0));
  float r = with_sign_of(a < SMALL ? (float)small : (float)big, x);
  return __builtin_isinf(x) || x != x ? x : r;
}

/* acosh x = ln(x + sqrt(x^2 - 1)); x^2 - 1 is exact in double near 1 */
float OVL acosh(float x) {
  double d = (double)x;
  float r = (float)ln_d(d + __builtin_elementwise_sqrt(d * d - 1.0));
  r = x < 1.0f ? QNANF : r;
  return x == INFF || x != x ? x : r;
}

/* atanh a = ln((1 + a) / (1 - a)) / 2; below 1/16 the odd series to a^11 */
float OVL atanh(float x) {
  double a = __builtin_fabs((double)x), z = a * a;
  double p = 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z + 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z + 1.0 / 3;
  double small = a + a * z * p;
  double big = 0.5 * ln_d((1.0 + a) / (1.0 - a));
  float r = with_sign_of(a < SMALL ? (float)small : (float)big, x);
  r = a == 1.0 ? with_sign_of(INFF, x) : r;
  return a > 1.0 || x != x ? QNANF : r;
}

LM_WIDTHS(LM_V1, float, asinh) LM_WIDTHS(LM_V1, float, acosh)
LM_WIDTHS(LM_V1, float, atanh)
LM_WIDTHS(LM_V1, float, expm1) LM_WIDTHS(LM_V1, float, log1p)
LM_WIDTHS(LM_V1, float, sinh) LM_WIDTHS(LM_V1, float, cosh)
LM_WIDTHS(LM_V1, float, tanh) LM_WIDTHS(LM_V1, float, atan)
LM_WIDTHS(LM_V1, float, asin) LM_WIDTHS(LM_V1, float, acos)
