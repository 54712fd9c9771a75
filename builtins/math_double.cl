/* The double exponentials and logarithms (exp, exp2, exp10, log, log2,
 * log10; OpenCL C 2.0 6.13.2), branch-free so that work-item loops calling
 * them vectorise.
 *
 * x = k log_b(2) + r/ln(b) with k an integer: k log_b(2) is subtracted in
 * two parts (Cody and Waite; the high part has trailing zero bits, so k times
 * it is exact), leaving |r| <= ln(2)/2 with an error near 2^-60. e^r is a
 * Taylor polynomial to r^13 (truncation below 5e-18 relative), evaluated
 * with fused multiply-adds, and 2^k is applied in two exact steps so that
 * subnormal results are rounded once. Measured error stays near 1 ulp; the
 * spec allows 3. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define FMA(a, b, c) __builtin_elementwise_fma((a), (b), (c))
#define AS_D(x) __builtin_astype((x), double)

/* e^r for |r| <= 0.35 */
static double exp_poly(double r) {
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
static double scale_2k(double p, double k) {
  long k1 = (long)k >> 1, k2 = (long)k - k1;
  double s1 = AS_D((ulong)(k1 + 1023) << 52), s2 = AS_D((ulong)(k2 + 1023) << 52);
  return p * s1 * s2;
}

/* the input range beyond which every result is 0 or infinity, in units of
 * the base's logarithm of 2 (clamping keeps k within scale_2k's range) */
#define LN2_HI 0x1.62e42fefa3800p-1 /* ln 2 to 42 bits */
#define LN2_LO 0x1.ef35793c76730p-45
#define LOG10_2_HI 0x1.34413509f7800p-2
#define LOG10_2_LO 0x1.fef311f12b358p-46
#define LN10 0x1.26bb1bbb55516p1

double OVL exp(double x) {
  double xc = __builtin_elementwise_min(__builtin_elementwise_max(x, -760.0), 760.0);
  double k = __builtin_elementwise_rint(xc * 0x1.71547652b82fep0);
  double r = FMA(-k, LN2_LO, FMA(-k, LN2_HI, xc));
  double res = scale_2k(exp_poly(r), k);
  return x != x ? x : res;
}

double OVL exp2(double x) {
  double xc = __builtin_elementwise_min(__builtin_elementwise_max(x, -1100.0), 1100.0);
  double k = __builtin_elementwise_rint(xc);
  /* xc - k is exact; ln 2 as two parts keeps r correct to about 2^-60 */
  double f = xc - k;
  double r = FMA(f, LN2_HI, f * LN2_LO);
  double res = scale_2k(exp_poly(r), k);
  return x != x ? x : res;
}

double OVL exp10(double x) {
  double xc = __builtin_elementwise_min(__builtin_elementwise_max(x, -330.0), 330.0);
  double k = __builtin_elementwise_rint(xc * 0x1.a934f0979a371p1);
  /* f = x - k log10(2), then r = f ln 10 */
  double f = FMA(-k, LOG10_2_LO, FMA(-k, LOG10_2_HI, xc));
  double res = scale_2k(exp_poly(f * LN10), k);
  return x != x ? x : res;
}

/* x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f):
 * log m = f - f^2/2 + s (f^2/2 + R(s^2)), with R the minimax polynomial
 * of the classic fdlibm method (error below 2^-58.45), so that the large
 * terms are added last and exactly enough for about 1 ulp */
#define LG1 6.666666666666735130e-01
#define LG2 3.999999999940941908e-01
#define LG3 2.857142874366239149e-01
#define LG4 2.222219843214978396e-01
#define LG5 1.818357216161805012e-01
#define LG6 1.531383769920937332e-01
#define LG7 1.479819860511658591e-01

struct log_parts {
  double k;  /* the exponent */
  double f;  /* m - 1 */
  double t;  /* s (f^2/2 + R) - f^2/2: log m = f + t */
};

static struct log_parts log_reduce(double x) {
  /* subnormals are scaled into the normal range first */
  bool sub = x < 0x1p-1022;
  double xs = sub ? x * 0x1p54 : x;
  ulong b = __builtin_astype(xs, ulong);
  /* biasing the mantissa by 1 - sqrt(1/2) puts m in [sqrt(1/2), sqrt(2)) */
  ulong hb = b + (0x3ff0000000000000UL - 0x3fe6a09e667f3bcdUL);
  long k = (long)(hb >> 52) - 1023 - (sub ? 54 : 0);
  ulong mb = (hb & 0x000fffffffffffffUL) + 0x3fe6a09e667f3bcdUL;
  double m = AS_D(mb);
  struct log_parts p;
  p.k = (double)k;
  p.f = m - 1.0;
  double s = p.f / (2.0 + p.f), z = s * s, w = z * z;
  double t1 = w * FMA(w, FMA(w, LG6, LG4), LG2);
  double t2 = z * FMA(w, FMA(w, FMA(w, LG7, LG5), LG3), LG1);
  double hfsq = 0.5 * p.f * p.f;
  p.t = s * (hfsq + (t1 + t2)) - hfsq;
  return p;
}

/* the IEEE results for x <= 0, infinity and NaN */
static double log_special_d(double x, double finite) {
  double r = x == 0.0 ? -__builtin_inf() : finite;
  r = x < 0.0 ? __builtin_nan("") : r;
  return x == __builtin_inf() || x != x ? x + x : r;
}

double OVL log(double x) {
  struct log_parts p = log_reduce(x);
  /* k ln2_hi is exact (42 significant bits), and f is added last */
  double r = FMA(p.k, LN2_HI, p.f + FMA(p.k, LN2_LO, p.t));
  return log_special_d(x, r);
}

#define LOG2E_HI 0x1.7154765200000p0
#define LOG2E_LO 0x1.705fc2eefa200p-33
double OVL log2(double x) {
  struct log_parts p = log_reduce(x);
  /* (f + t) log2(e) as a sum of two parts, added to k last */
  double l = p.f + p.t;
  double lo = (p.t - (l - p.f)) * (LOG2E_HI + LOG2E_LO) + l * LOG2E_LO;
  double hi = l * LOG2E_HI;
  return log_special_d(x, p.k + (hi + lo));
}

#define LOG10E 0x1.bcb7b1526e50ep-2
double OVL log10(double x) {
  struct log_parts p = log_reduce(x);
  double l = p.f + p.t;
  double r = FMA(p.k, LOG10_2_HI, FMA(p.k, LOG10_2_LO, l * LOG10E));
  return log_special_d(x, r);
}

LM_WIDTHS(LM_V1, double, exp) LM_WIDTHS(LM_V1, double, exp2)
LM_WIDTHS(LM_V1, double, exp10) LM_WIDTHS(LM_V1, double, log)
LM_WIDTHS(LM_V1, double, log2) LM_WIDTHS(LM_V1, double, log10)
