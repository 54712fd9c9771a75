/* Shared pieces of the double math functions: e^r on the reduced range,
 * exact scaling by 2^k, the logarithm's reduction, and a double-double
 * logarithm and exponential for pow and its relatives. Selects only, so that
 * callers stay vectorisable across work-items. */
#ifndef LOOM_MATH_DOUBLE_CORE_H
#define LOOM_MATH_DOUBLE_CORE_H

#include "math_bits.h"

#define LN2_HI 0x1.62e42fefa3800p-1 /* ln 2 to 42 bits: k LN2_HI is exact */
#define LN2_LO 0x1.ef35793c76730p-45
#define INV_LN2 0x1.71547652b82fep0

/* e^r for |r| <= 0.35: Taylor to r^13 (truncation below 5e-18 relative) */
static inline double exp_poly(double r) {
  double p = 1.0 / 6227020800;
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
  p = FMA(p, r, 1.0);
  return FMA(p, r, 1.0);
}

/* p 2^k for an integral k in [-1100, 1100]: 2^(k/2) and 2^(k - k/2) are both
 * normal, the first product is exact and the second rounds once */
static inline double scale_2k(double p, double k) {
  long k1 = (long)k >> 1, k2 = (long)k - k1;
  double s1 = AS_D((ulong)(k1 + 1023) << 52), s2 = AS_D((ulong)(k2 + 1023) << 52);
  return p * s1 * s2;
}

/* x = k ln2 + r with |r| <= ln2/2 (about): r_hi exact, r_hi + *r_lo within
 * 2^-60 of x - k ln2, for |x| <= 800 */
static inline double exp_reduce(double x, __private double *k, __private double *r_lo) {
  double n = __builtin_elementwise_rint(x * INV_LN2);
  double hi = FMA(-n, LN2_HI, x); /* n LN2_HI is exact, so is the difference */
  double t = -n * LN2_LO;
  double r = hi + t;
  *r_lo = t - (r - hi);
  *k = n;
  return r;
}

/* a + b = s + *e exactly (Knuth's TwoSum) */
static inline double two_sum(double a, double b, __private double *e) {
  double s = a + b, bb = s - a;
  *e = (a - (s - bb)) + (b - bb);
  return s;
}

/* x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f):
 * log m = f - f^2/2 + s (f^2/2 + R(s^2)), with R a polynomial in s^2
 * (error below 2^-58.45), so that the large terms are added last and exactly
 * enough for about 1 ulp */
#define LG1 6.666666666666735130e-01
#define LG2 3.999999999940941908e-01
#define LG3 2.857142874366239149e-01
#define LG4 2.222219843214978396e-01
#define LG5 1.818357216161805012e-01
#define LG6 1.531383769920937332e-01
#define LG7 1.479819860511658591e-01

struct log_red {
  double k; /* the exponent */
  double f; /* m - 1 */
  double t; /* s (f^2/2 + R) - f^2/2: log m = f + t */
};

/* biasing the mantissa by 1 - sqrt(1/2) puts m in [sqrt(1/2), sqrt(2));
 * subnormals are scaled into the normal range first. Returns m, and k. */
static inline double log_mantissa(double x, __private double *k) {
  bool sub = x < 0x1p-1022;
  double xs = sub ? x * 0x1p54 : x;
  ulong hb = AS_UL(xs) + (0x3ff0000000000000UL - 0x3fe6a09e667f3bcdUL);
  *k = (double)((long)(hb >> 52) - 1023 - (sub ? 54 : 0));
  return AS_D((hb & 0x000fffffffffffffUL) + 0x3fe6a09e667f3bcdUL);
}

static inline struct log_red log_reduce(double x) {
  struct log_red p;
  double m = log_mantissa(x, &p.k);
  p.f = m - 1.0;
  double s = p.f / (2.0 + p.f), z = s * s, w = z * z;
  double t1 = w * FMA(w, FMA(w, LG6, LG4), LG2);
  double t2 = z * FMA(w, FMA(w, FMA(w, LG7, LG5), LG3), LG1);
  double hfsq = 0.5 * p.f * p.f;
  p.t = s * (hfsq + (t1 + t2)) - hfsq;
  return p;
}

/* the IEEE results of log for x <= 0, infinity and NaN */
static inline double log_special_d(double x, double finite) {
  double r = x == 0.0 ? -__builtin_inf() : finite;
  r = x < 0.0 ? __builtin_nan("") : r;
  return x == __builtin_inf() || x != x ? x + x : r;
}

/* ln c for c = j/16, j = 11..23, as double-doubles */
static __constant double loom_log_c_hi[13] = {
    -0x1.7fafa3bd8151cp-2, -0x1.269621134db92p-2, -0x1.a93ed3c8ad9e3p-3,
    -0x1.1178e8227e47cp-3, -0x1.08598b59e3a07p-4, 0.0, 0x1.f0a30c01162a6p-5,
    0x1.e27076e2af2e6p-4, 0x1.5ff3070a793d4p-3, 0x1.c8ff7c79a9a22p-3,
    0x1.1675cababa60ep-2, 0x1.4618bc21c5ec2p-2, 0x1.739d7f6bbd007p-2};
static __constant double loom_log_c_lo[13] = {
    0x1.219024acd3b77p-58, -0x1.e0efadd9db02bp-56, -0x1.bcafa9de97203p-57,
    0x1.0e63a5f01c691p-58, 0x1.dd7009902bf32p-58, 0.0, 0x1.85f325c5bbacdp-59,
    -0x1.61578001e0162p-60, -0x1.bc60efafc6f6ep-58, -0x1.4f689f8434012p-57,
    0x1.ce63eab883717p-61, 0x1.f42decdeccf1dp-56, -0x1.8c76ceb014b04p-56};

/* ln x for a finite x > 0 as hi + *lo, within about 2^-66 relative:
 * x = 2^k c (m/c) with c = j/16 nearest to m, and
 * ln(m/c) = 2 atanh(s), s = (m - c)/(m + c), |s| < 0.023 */
static inline double log_dd(double x, __private double *lo) {
  double k;
  double m = log_mantissa(x, &k);
  double j = __builtin_elementwise_rint(m * 16.0);
  double c = j * 0.0625;
  int idx = (int)j - 11;
  double num = m - c; /* exact */
  double den_lo, den = two_sum(m, c, &den_lo);
  /* one division: s need not be correctly rounded, s_lo takes the rest */
  double inv = 1.0 / den;
  double s = num * inv;
  double s_lo = (FMA(-s, den, num) - s * den_lo) * inv;
  double z = s * s;
  /* 2 atanh(s) - 2 s = s^3 (2/3 + 2/5 s^2 + ...), truncation below 2^-69 */
  double p = 2.0 / 11;
  p = FMA(p, z, 2.0 / 9);
  p = FMA(p, z, 2.0 / 7);
  p = FMA(p, z, 2.0 / 5);
  p = FMA(p, z, 2.0 / 3);
  double tail = s * z * p;
  double e1, e2;
  double h = two_sum(k * LN2_HI, loom_log_c_hi[idx], &e1);
  h = two_sum(h, 2.0 * s, &e2);
  double l = e1 + e2 + (k * LN2_LO + loom_log_c_lo[idx] + 2.0 * s_lo + tail);
  double r = h + l;
  *lo = l - (r - h);
  return r;
}

/* e^(h + l) for |l| <= 2^-40 |h| (about), overflowing and underflowing as
 * the IEEE result would; NaN h gives NaN */
static inline double exp_dd(double h, double l) {
  double hc = __builtin_elementwise_min(__builtin_elementwise_max(h, -800.0), 800.0);
  l = hc == h ? l : 0.0;
  double k, r_lo, r = exp_reduce(hc, &k, &r_lo);
  /* the low parts enter to first order: e^(r + d) = e^r (1 + d) */
  double d = r_lo + l;
  double p = exp_poly(r);
  p = FMA(p, d, p);
  double res = scale_2k(p, k);
  return h != h ? h : res;
}

#endif
