/* Shared pieces of the float math functions (math_float*.cl): 2^t, the
 * logarithm's reduction, the sine and cosine polynomials and atan, evaluated in double with selects only, so that
 * callers stay vectorisable across work-items. */
#ifndef LOOM_MATH_FLOAT_CORE_H
#define LOOM_MATH_FLOAT_CORE_H

#include "math_bits.h"

#define QNANF __builtin_nanf("")
#define INFF __builtin_inff()

/* 2^t for any double t, to about 1e-11 relative: enough for a float result
 * rounded once (exp2_to_float) and for the float functions built on it */
static inline double exp2_d(double t) {
  /* beyond these bounds the float result is 0 or infinity anyway; clamping
   * keeps the exponent arithmetic below in range */
  double tc = __builtin_elementwise_min(__builtin_elementwise_max(t, -170.0), 130.0);
  double n = __builtin_elementwise_rint(tc);
  double u = (tc - n) * 0x1.62e42fefa39efp-1; /* (t - n) ln 2, |u| <= 0.35 */
  /* e^u, Taylor to u^9: truncation below 1e-11 relative */
  double p = 1.0 / 362880;
  p = p * u + 1.0 / 40320;
  p = p * u + 1.0 / 5040;
  p = p * u + 1.0 / 720;
  p = p * u + 1.0 / 120;
  p = p * u + 1.0 / 24;
  p = p * u + 1.0 / 6;
  p = p * u + 0.5;
  p = p * u + 1.0;
  p = p * u + 1.0;
  /* 2^n is a normal double for n in [-170, 130]; the product is exact and
   * the conversion rounds once, to a subnormal float if need be */
  double scale = AS_D((ulong)((long)n + 1023) << 52);
  return t != t ? t : p * scale;
}

/* (float)2^t, rounded once */
static inline float exp2_to_float(double t) { return (float)exp2_d(t); }


/* ln(m) and e with x = m 2^e, m in [sqrt(1/2), sqrt(2)), for a normal
 * double x > 0 (float subnormals are normal doubles: no special path) */
static inline double log_parts(double x, __private double *e) {
  ulong b = AS_UL(x);
  long k = (long)(b >> 52) - 1023;
  double m = AS_D((b & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
  bool big = m > 0x1.6a09e667f3bcdp0;
  m = big ? m * 0.5 : m;
  *e = (double)(k + (big ? 1 : 0));
  /* ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172 */
  double f = m - 1.0;
  double s = f / (2.0 + f);
  double z = s * s;
  double p = 1.0 / 13;
  p = p * z + 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z + 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z + 1.0 / 3;
  p = p * z + 1.0;
  return 2.0 * s * p;
}

/* the IEEE results of log for x <= 0, infinity and NaN */
static inline float log_special(float x, float finite) {
  float r = x == 0.0f ? -INFF : finite;
  r = x < 0.0f ? QNANF : r;
  return x == INFF || x != x ? x + x : r;
}

#define LOG10_2 0x1.34413509f79ffp-2
#define LOG10E 0x1.bcb7b1526e50ep-2

#define LN2 0x1.62e42fefa39efp-1
#define LOG2E 0x1.71547652b82fep0

/* sin r and cos r for |r| <= pi/4, Taylor to r^11 and r^12 */
static inline double sin_poly(double r) {
  double z = r * r;
  double p = -1.0 / 39916800;
  p = p * z + 1.0 / 362880;
  p = p * z - 1.0 / 5040;
  p = p * z + 1.0 / 120;
  p = p * z - 1.0 / 6;
  return r + r * z * p;
}
static inline double cos_poly(double r) {
  double z = r * r;
  double p = 1.0 / 479001600;
  p = p * z - 1.0 / 3628800;
  p = p * z + 1.0 / 40320;
  p = p * z - 1.0 / 720;
  p = p * z + 1.0 / 24;
  p = p * z - 0.5;
  return 1.0 + z * p;
}

#define PI_2 0x1.921fb54442d18p0
#define PI_6 0x1.0c152382d7366p-1
#define SQRT3 0x1.bb67ae8584caap0
#define TAN_PI_12 0x1.126145e9ecd56p-2

/* atan of a double, NaN and infinities included: |t| > 1 uses
 * atan t = pi/2 - atan(1/t), and t > tan(pi/12) uses
 * atan t = pi/6 + atan((t sqrt3 - 1) / (t + sqrt3)), which leaves
 * |t| <= tan(pi/12), where the series to t^19 is within 2e-13 */
static inline double atan_d(double x) {
  double t = __builtin_fabs(x);
  bool inv = t > 1.0;
  t = inv ? 1.0 / t : t;
  bool shift = t > TAN_PI_12;
  t = shift ? (t * SQRT3 - 1.0) / (t + SQRT3) : t;
  double z = t * t;
  double p = -1.0 / 19;
  p = p * z + 1.0 / 17;
  p = p * z - 1.0 / 15;
  p = p * z + 1.0 / 13;
  p = p * z - 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z - 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z - 1.0 / 3;
  double a = t + t * z * p;
  a = shift ? PI_6 + a : a;
  a = inv ? PI_2 - a : a;
  return __builtin_copysign(a, x);
}

/* e^x = p 2^k for float x: returns p (in [0.7, 1.42]) and sets *k =
 * rint(x / ln 2). x = k ln 2 + r with a two-part ln 2 (k ln2_hi is exact
 * for |k| < 2^8), e^r = 1 + r + r^2 Q(r) with Q a degree-5 Chebyshev fit on
 * |r| <= ln 2 / 2. The caller scales by 2^k (exp in two steps, so that
 * overflow and gradual underflow round once; tanh, whose k is small, in
 * one). */
static inline float exp_parts_f(float x, __private float *k) {
  *k = __builtin_elementwise_rint(x * 0x1.715476p+0f);
  float r = FMA(*k, -0x1.62e4p-1f, x);
  r = FMA(*k, -0x1.7f7d1cp-20f, r);
  float q = 0x1.a124e4p-13f;
  q = FMA(q, r, 0x1.6d4316p-10f);
  q = FMA(q, r, 0x1.1110e0p-7f);
  q = FMA(q, r, 0x1.5554eap-5f);
  q = FMA(q, r, 0x1.555556p-3f);
  q = FMA(q, r, 0.5f);
  return 1.0f + FMA(r * r, q, r);
}

/* sign bit of x applied to r (for odd functions) */
static inline float with_sign_of(float r, float x) {
  return AS_F(AS_U(r) ^ (AS_U(x) & 0x80000000u));
}

#endif
