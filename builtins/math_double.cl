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
#include "math_double_core.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* log10(2) in two parts (k LOG10_2_HI is exact), and ln 10 */
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

double OVL log(double x) {
  struct log_red p = log_reduce(x);
  /* k ln2_hi is exact (42 significant bits), and f is added last */
  double r = FMA(p.k, LN2_HI, p.f + FMA(p.k, LN2_LO, p.t));
  return log_special_d(x, r);
}

#define LOG2E_HI 0x1.7154765200000p0
#define LOG2E_LO 0x1.705fc2eefa200p-33
double OVL log2(double x) {
  struct log_red p = log_reduce(x);
  /* (f + t) log2(e) as a sum of two parts, added to k last */
  double l = p.f + p.t;
  double lo = (p.t - (l - p.f)) * (LOG2E_HI + LOG2E_LO) + l * LOG2E_LO;
  double hi = l * LOG2E_HI;
  return log_special_d(x, p.k + (hi + lo));
}

#define LOG10E 0x1.bcb7b1526e50ep-2
double OVL log10(double x) {
  struct log_red p = log_reduce(x);
  double l = p.f + p.t;
  double r = FMA(p.k, LOG10_2_HI, FMA(p.k, LOG10_2_LO, l * LOG10E));
  return log_special_d(x, r);
}

LM_WIDTHS(LM_V1, double, exp) LM_WIDTHS(LM_V1, double, exp2)
LM_WIDTHS(LM_V1, double, exp10) LM_WIDTHS(LM_V1, double, log)
LM_WIDTHS(LM_V1, double, log2) LM_WIDTHS(LM_V1, double, log10)
