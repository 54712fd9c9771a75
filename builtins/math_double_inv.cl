/* Double atan, atan2, asin, acos and their *pi forms (OpenCL C 2.0 6.13.2),
 * branch-free so that work-item loops calling them vectorise.
 *
 * All are the angle of a point (x, y): with n <= d the smaller and larger of
 * |x| and |y|, n/d is brought near the nearest c of 0, 1/4, 1/2, 3/4, 1 by
 * atan(n/d) = atan(c) + atan(u), u = (n - c d) / (d + c n), one division and
 * |u| <= 1/8, where the odd series to u^19 is within 2^-58. The quadrant
 * then adds a multiple of pi/2 (or of 1/2, for the *pi forms, whose
 * constants are divided by pi beforehand so that exact results stay exact),
 * and the large terms are summed exactly (TwoSum), so results are within
 * about 1 ulp (the spec allows 4 to 6). asin and acos take
 * sqrt(1 - x^2) with 1 - x^2 from one fma, correctly rounded. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_double_core.h"

#define PI_2_HI 0x1.921fb54442d18p0
#define PI_2_LO 0x1.1a62633145c07p-54
#define INV_PI_HI 0x1.45f306dc9c883p-2
#define INV_PI_LO -0x1.6b01ec5417056p-56

/* atan(c), or atan(c) / pi, for c in {0, 1/4, 1/2, 3/4, 1}, as hi + *lo */
static double atan_c(double c, bool pi_units, __private double *lo) {
  double hi = c == 0.25 ? (pi_units ? 0x1.3f670b6bdc73dp-4 : 0x1.f5b75f92c80ddp-3)
            : c == 0.5  ? (pi_units ? 0x1.2e4051d9df308p-3 : 0x1.dac670561bb4fp-2)
            : c == 0.75 ? (pi_units ? 0x1.a37f5c4c419efp-3 : 0x1.4978fa3269ee1p-1)
            : c == 1.0  ? (pi_units ? 0.25 : 0x1.921fb54442d18p-1)
                        : 0.0;
  *lo = c == 0.25 ? (pi_units ? 0x1.bbe87e7941244p-60 : 0x1.8ab6e3cf7afbdp-57)
      : c == 0.5  ? (pi_units ? 0x1.995a23db6b8d4p-57 : 0x1.a2b7f222f65e2p-56)
      : c == 0.75 ? (pi_units ? 0x1.9a97709251caep-58 : 0x1.2419a87f2a458p-56)
      : c == 1.0  ? (pi_units ? 0.0 : 0x1.1a62633145c07p-55)
                  : 0.0;
  return hi;
}

/* atan2(y, x), in radians or (pi_units) in half-turns, with every special
 * case of C99 F.9.1.4 */
static double angle(double y, double x, bool pi_units) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  /* two infinities: the angle of (+-1, +-1) */
  bool both_inf = __builtin_isinf(ax) && __builtin_isinf(ay);
  ax = both_inf ? 1.0 : ax;
  ay = both_inf ? 1.0 : ay;
  /* keep 8 n and 7 d finite, and tiny operands out of the subnormal range,
   * where c d would lose bits; scaling both by a power of two is exact
   * unless the ratio is far below the subnormal range anyway */
  double mx = __builtin_elementwise_max(ax, ay);
  double sc = mx > 0x1p1000 ? 0x1p-600 : mx < 0x1p-900 ? 0x1p600 : 1.0;
  ax *= sc;
  ay *= sc;
  bool swap = ay > ax;
  double n = swap ? ax : ay, d = swap ? ay : ax;
  double n8 = 8.0 * n;
  double c = n8 <= d         ? 0.0
             : n8 <= 3.0 * d ? 0.25
             : n8 <= 5.0 * d ? 0.5
             : n8 <= 7.0 * d ? 0.75
                             : 1.0;
  double u = FMA(-c, d, n) / FMA(c, n, d);
  u = n == 0.0 || d == __builtin_inf() ? 0.0 : u; /* 0/0, finite/inf */
  double z = u * u;
  double p = -1.0 / 19;
  p = FMA(p, z, 1.0 / 17);
  p = FMA(p, z, -1.0 / 15);
  p = FMA(p, z, 1.0 / 13);
  p = FMA(p, z, -1.0 / 11);
  p = FMA(p, z, 1.0 / 9);
  p = FMA(p, z, -1.0 / 7);
  p = FMA(p, z, 1.0 / 5);
  p = FMA(p, z, -1.0 / 3);
  double at_hi = u, at_lo = u * z * p; /* atan u = at_hi + at_lo */
  double ip_lo = FMA(u, INV_PI_HI, -(u * INV_PI_HI)) + u * INV_PI_LO;
  at_lo = pi_units ? ip_lo + at_lo * INV_PI_HI : at_lo;
  at_hi = pi_units ? u * INV_PI_HI : at_hi;
  double a_lo, a_hi = atan_c(c, pi_units, &a_lo);
  /* the first-quadrant angle is atan(c) + atan(u), or its complement when
   * |y| > |x|; x < 0 reflects it: K pi/2 + sigma (atan(c) + atan(u)) */
  bool xneg = __builtin_signbit(x);
  double K = swap ? 1.0 : xneg ? 2.0 : 0.0;
  double sg = swap != xneg ? -1.0 : 1.0;
  double q_hi = pi_units ? 0.5 : PI_2_HI, q_lo = pi_units ? 0.0 : PI_2_LO;
  double e1, e2;
  double s = two_sum(K * q_hi, sg * a_hi, &e1);
  s = two_sum(s, sg * at_hi, &e2);
  double r = s + (e1 + e2 + (K * q_lo + sg * (a_lo + at_lo)));
  r = __builtin_copysign(r, y);
  return x != x || y != y ? x + y : r;
}

/* sqrt(1 - x^2), NaN for |x| > 1 */
static double cosine_of_sine(double x) { return __builtin_elementwise_sqrt(FMA(-x, x, 1.0)); }

double OVL atan(double x) { return angle(x, 1.0, false); }
double OVL atan2(double y, double x) { return angle(y, x, false); }
double OVL asin(double x) { return angle(x, cosine_of_sine(x), false); }
double OVL acos(double x) { return angle(cosine_of_sine(x), x, false); }
double OVL atanpi(double x) { return angle(x, 1.0, true); }
double OVL atan2pi(double y, double x) { return angle(y, x, true); }
double OVL asinpi(double x) { return angle(x, cosine_of_sine(x), true); }
double OVL acospi(double x) { return angle(cosine_of_sine(x), x, true); }

LM_WIDTHS(LM_V1, double, atan) LM_WIDTHS(LM_V2, double, atan2)
LM_WIDTHS(LM_V1, double, asin) LM_WIDTHS(LM_V1, double, acos)
LM_WIDTHS(LM_V1, double, atanpi) LM_WIDTHS(LM_V2, double, atan2pi)
LM_WIDTHS(LM_V1, double, asinpi) LM_WIDTHS(LM_V1, double, acospi)
