/* Double expm1, log1p, sinh, cosh, tanh, asinh, acosh, atanh, hypot and
 * cbrt (OpenCL C 2.0 6.13.2), branch-free so that work-item loops calling
 * them vectorise.
 *
 * expm1 reduces x = k ln2 + r like exp (math_double_core.h), takes e^r - 1
 * as r + r^2 P(r) (Taylor to r^14) and returns 2^k (e^r - 1) + (2^k - 1)
 * with one fma, exact 2^k - 1 for |k| <= 53. log1p adds the rounding error
 * of 1 + x back as c / (1 + x). sinh and cosh combine e^|x| and e^-|x| from
 * one reduction, halved in the exponent so that results near the overflow
 * threshold stay finite; below 1, sinh is its Taylor series. tanh is
 * E / (E + 2) with E = expm1(2|x|), and the inverse functions are written
 * on log1p where their logarithmic forms would cancel. Results stay within
 * about 2 ulp (the spec allows 2 to 5). */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_double_core.h"

/* e^x - 1 for x not NaN */
static double expm1_d(double x) {
  /* below -40 the result rounds to -1; above 710 it overflows */
  double xc = __builtin_elementwise_min(__builtin_elementwise_max(x, -40.0), 710.0);
  double k, r_lo, r = exp_reduce(xc, &k, &r_lo);
  double p = 1.0 / 87178291200;
  p = FMA(p, r, 1.0 / 6227020800);
  p = FMA(p, r, 1.0 / 479001600);
  p = FMA(p, r, 1.0 / 39916800);
  p = FMA(p, r, 1.0 / 3628800);
  p = FMA(p, r, 1.0 / 362880);
  p = FMA(p, r, 1.0 / 40320);
  p = FMA(p, r, 1.0 / 5040);
  p = FMA(p, r, 1.0 / 720);
  p = FMA(p, r, 1.0 / 120);
  p = FMA(p, r, 1.0 / 24);
  p = FMA(p, r, 1.0 / 6);
  p = FMA(p, r, 0.5);
  double em = r + FMA(r * r, p, r_lo); /* e^(r + r_lo) - 1 */
  /* 2^k for k <= 1000; beyond, the -1 is far below an ulp */
  double s = AS_D((ulong)((long)__builtin_elementwise_min(k, 1000.0) + 1023) << 52);
  double mid = FMA(s, em, s - 1.0);
  double big = scale_2k(1.0 + em, k);
  double res = k > 1000.0 ? big : mid;
  return x == 0.0 ? x : res; /* keeps -0 */
}

double OVL expm1(double x) { return x != x ? x : expm1_d(x); }

/* log(1 + x) for a finite x > -1 */
static double log1p_d(double x) {
  /* u + c = 1 + x exactly, and log(1 + x) = log(u) + c/u to first order */
  double c, u = two_sum(1.0, x, &c);
  struct log_red p = log_reduce(u);
  return FMA(p.k, LN2_HI, p.f + FMA(p.k, LN2_LO, p.t + c / u));
}

/* log(2 x) for a finite x > 0, without overflow */
static double log_twice(double x) {
  struct log_red p = log_reduce(x);
  double k = p.k + 1.0;
  return FMA(k, LN2_HI, p.f + FMA(k, LN2_LO, p.t));
}

double OVL log1p(double x) {
  double r = log1p_d(x);
  r = x == 0.0 ? x : r;
  r = x == -1.0 ? -__builtin_inf() : r;
  r = x < -1.0 ? __builtin_nan("") : r;
  return x == __builtin_inf() || x != x ? x + x : r;
}

/* e^a / 2 and e^-a / 2 for 0 <= a (a NaN: unspecified), both scaled in the
 * exponent, so that e^a / 2 is finite wherever the result is */
static double half_exps(double a, __private double *half_inv) {
  double ac = __builtin_elementwise_min(a, 760.0);
  double k, r_lo, r = exp_reduce(ac, &k, &r_lo);
  double p = exp_poly(r);
  p = FMA(p, r_lo, p);
  *half_inv = scale_2k(1.0 / p, -k - 1.0);
  return scale_2k(p, k - 1.0);
}

double OVL cosh(double x) {
  double hi, lo;
  hi = half_exps(__builtin_fabs(x), &lo);
  return x != x ? x : hi + lo;
}

double OVL sinh(double x) {
  double a = __builtin_fabs(x), z = a * a;
  /* Taylor to a^19 below 1: truncation under 2^-57 */
  double p = 1.0 / 121645100408832000;
  p = FMA(p, z, 1.0 / 355687428096000);
  p = FMA(p, z, 1.0 / 1307674368000);
  p = FMA(p, z, 1.0 / 6227020800);
  p = FMA(p, z, 1.0 / 39916800);
  p = FMA(p, z, 1.0 / 362880);
  p = FMA(p, z, 1.0 / 5040);
  p = FMA(p, z, 1.0 / 120);
  p = FMA(p, z, 1.0 / 6);
  double small = FMA(a * z, p, a);
  double lo, hi = half_exps(a, &lo);
  double r = a < 1.0 ? small : hi - lo;
  return x != x ? x : __builtin_copysign(r, x);
}

double OVL tanh(double x) {
  /* tanh(22) rounds to 1 */
  double a = __builtin_elementwise_min(__builtin_fabs(x), 22.0);
  double e = expm1_d(2.0 * a);
  double r = e / (e + 2.0);
  return x != x ? x : __builtin_copysign(r, x);
}

/* asinh a = log1p(a + a^2 / (1 + sqrt(1 + a^2))), exact in form and free of
 * cancellation; beyond 2^28, sqrt(a^2 + 1) is a to within 2^-57 and
 * asinh a = log(2a) */
double OVL asinh(double x) {
  double a = __builtin_fabs(x), z = a * a;
  double small = log1p_d(a + z / (1.0 + __builtin_elementwise_sqrt(1.0 + z)));
  double r = a > 0x1p28 ? log_twice(a) : small;
  r = __builtin_copysign(r, x);
  return __builtin_isinf(x) || x != x ? x : r;
}

/* acosh x = log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact) below 2,
 * log(x + sqrt(x^2 - 1)) up to 2^28 (x^2 - 1 from one fma), log(2x) beyond */
double OVL acosh(double x) {
  double t = x - 1.0;
  double near = log1p_d(t + __builtin_elementwise_sqrt(t * (t + 2.0)));
  double mid = log(x + __builtin_elementwise_sqrt(FMA(x, x, -1.0)));
  double r = x < 2.0 ? near : x <= 0x1p28 ? mid : log_twice(x);
  r = x < 1.0 ? __builtin_nan("") : r;
  return x == __builtin_inf() || x != x ? x + x : r;
}

/* atanh a = log1p(2a / (1 - a)) / 2 */
double OVL atanh(double x) {
  double a = __builtin_fabs(x);
  double r = 0.5 * log1p_d(2.0 * a / (1.0 - a));
  r = a == 1.0 ? __builtin_inf() : r;
  r = __builtin_copysign(r, x);
  return a > 1.0 || x != x ? __builtin_nan("") : r;
}

/* sqrt(x^2 + y^2) with one fma; extreme magnitudes are scaled by a power of
 * two first (an operand that then underflows is too small to matter) */
double OVL hypot(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  double mx = __builtin_elementwise_max(ax, ay);
  double sc = mx > 0x1p500 ? 0x1p-600 : mx < 0x1p-500 ? 0x1p600 : 1.0;
  double sx = ax * sc, sy = ay * sc;
  double r = __builtin_elementwise_sqrt(FMA(sx, sx, sy * sy)) * (1.0 / sc);
  return __builtin_isinf(x) || __builtin_isinf(y) ? __builtin_inf() : r;
}

/* Newton's iteration on y^3 = |x| from a guess that divides the exponent by
 * three (within a few percent), then one step with an exact residual:
 * y y = t + e (fma), y^3 - a = fma(t, y, -a) + e y */
double OVL cbrt(double x) {
  double a = __builtin_fabs(x);
  /* below 2^-900 the residual's terms would leave the normal range: scale by
   * 2^162, whose cube root is 2^54 */
  bool tiny = a < 0x1p-900;
  a = tiny ? a * 0x1p162 : a;
  uint hw = (uint)(AS_UL(a) >> 32);
  double y = AS_D((ulong)(hw / 3u + 0x2a9f7893u) << 32);
  for (int i = 0; i < 4; i++)
    y = y - (y * y * y - a) / (3.0 * y * y);
  double t = y * y, e = FMA(y, y, -t);
  double res = FMA(t, y, -a) + e * y;
  y = y - res / (3.0 * t);
  y = tiny ? y * 0x1p-54 : y;
  double r = __builtin_copysign(y, x);
  return x == 0.0 || __builtin_isinf(x) || x != x ? x + x : r;
}

LM_WIDTHS(LM_V1, double, expm1) LM_WIDTHS(LM_V1, double, log1p)
LM_WIDTHS(LM_V1, double, cosh) LM_WIDTHS(LM_V1, double, sinh)
LM_WIDTHS(LM_V1, double, tanh) LM_WIDTHS(LM_V2, double, hypot)
LM_WIDTHS(LM_V1, double, cbrt) LM_WIDTHS(LM_V1, double, asinh)
LM_WIDTHS(LM_V1, double, acosh) LM_WIDTHS(LM_V1, double, atanh)
