/* Float sinpi, cospi, tanpi, the inverse *pi functions, atan2, hypot and
 * cbrt (OpenCL C 2.0 6.13.2), branch-free and in double like math_float.cl,
 * so that they vectorise across work-items. The *pi functions reduce the
 * argument exactly (math_pi_reduce.h), so multiplying by pi costs under an
 * ulp. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_float_core.h"
#include "math_pi_reduce.h"

#define PI 0x1.921fb54442d18p1
#define INV_PI 0x1.45f306dc9c883p-2

/* sin(pi r) for r in [0, 1/2] */
static double sinpi_half(double r) {
  return r <= 0.25 ? sin_poly(PI * r) : cos_poly(PI * (0.5 - r));
}

float OVL sinpi(float x) {
  double s, r = sinpi_reduce(__builtin_fabs((double)x), &s);
  double v = s * sinpi_half(r);
  /* integers give +0, and the sign of x is applied last: sinpi is odd */
  float res = with_sign_of(v == 0.0 ? 0.0f : (float)v, x);
  return __builtin_isinf(x) || x != x ? QNANF : res;
}

float OVL cospi(float x) {
  double s, r = cospi_reduce(__builtin_fabs((double)x), &s);
  double v = s * sinpi_half(0.5 - r);
  float res = v == 0.0 ? 0.0f : (float)v; /* n + 1/2 gives +0 */
  return __builtin_isinf(x) || x != x ? QNANF : res;
}

float OVL tanpi(float x) {
  bool odd, mirror;
  double r = tanpi_reduce(__builtin_fabs((double)x), &odd, &mirror);
  double a = PI * r, b = PI * (0.5 - r);
  /* r = 1/2 divides by sin(0) = 0: the pole */
  double v = r <= 0.25 ? sin_poly(a) / cos_poly(a) : cos_poly(b) / sin_poly(b);
  v = mirror ? -v : v;
  /* the prescribed signs of the zeros and poles at odd integers */
  v = odd && (v == 0.0 || __builtin_isinf(v)) ? -v : v;
  float res = with_sign_of((float)v, x); /* tanpi is odd */
  return __builtin_isinf(x) || x != x ? QNANF : res;
}

float OVL atanpi(float x) { return (float)(atan_d((double)x) * INV_PI); }

float OVL asinpi(float x) {
  double d = (double)x;
  return (float)(atan_d(d / __builtin_elementwise_sqrt(1.0 - d * d)) * INV_PI);
}

float OVL acospi(float x) {
  double d = (double)x;
  return (float)(2.0 * INV_PI * atan_d(__builtin_elementwise_sqrt((1.0 - d) / (1.0 + d))));
}

/* atan2(y, x) / pi with the quadrant of (x, y): |y| / |x| is exact enough
 * in double, zero / zero and infinity / infinity are the special cases */
static double atan2_over_pi(float y, float x) {
  double ay = __builtin_fabs((double)y), ax = __builtin_fabs((double)x);
  double base = atan_d(ay / ax) * INV_PI;
  base = ay == 0.0 ? 0.0 : base;
  base = ay == (double)INFF && ax == (double)INFF ? 0.25 : base;
  base = __builtin_signbit(x) ? 1.0 - base : base;
  base = __builtin_copysign(base, (double)y);
  return x != x || y != y ? (double)(x + y) : base;
}

float OVL atan2pi(float y, float x) { return (float)atan2_over_pi(y, x); }
float OVL atan2(float y, float x) { return (float)(atan2_over_pi(y, x) * PI); }

/* squares of floats are exact in double and their sum is rounded once */
float OVL hypot(float x, float y) {
  double dx = (double)x, dy = (double)y;
  float r = (float)__builtin_elementwise_sqrt(dx * dx + dy * dy);
  return __builtin_isinf(x) || __builtin_isinf(y) ? INFF : r;
}

/* Newton's iteration on y^3 = |x| from a guess built on the exponent (within
 * 6%), four steps: 6% -> 0.4% -> 2e-5 -> 4e-10 -> 1e-19 */
float OVL cbrt(float x) {
  double a = __builtin_fabs((double)x);
  ulong b = AS_UL(a);
  /* exponent / 3 and a third of the mantissa bits: the classic guess */
  double y = AS_D(b / 3 + 0x2a9f7893782da1ceUL);
  for (int i = 0; i < 4; i++)
    y = y - (y * y * y - a) / (3.0 * y * y);
  float r = with_sign_of((float)y, x);
  return x == 0.0f || __builtin_isinf(x) || x != x ? x + x : r;
}

LM_WIDTHS(LM_V1, float, sinpi) LM_WIDTHS(LM_V1, float, cospi)
LM_WIDTHS(LM_V1, float, tanpi) LM_WIDTHS(LM_V1, float, atanpi)
LM_WIDTHS(LM_V1, float, asinpi) LM_WIDTHS(LM_V1, float, acospi)
LM_WIDTHS(LM_V2, float, atan2pi) LM_WIDTHS(LM_V2, float, atan2)
LM_WIDTHS(LM_V2, float, hypot) LM_WIDTHS(LM_V1, float, cbrt)
