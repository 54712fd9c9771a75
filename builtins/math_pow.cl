/* Double pow, pown, powr and rootn (OpenCL C 2.0 6.13.2), branch-free so
 * that work-item loops calling them vectorise, with the edge cases of C99
 * F.9.4.4 and OpenCL C section 7.5 picked by selects.
 *
 * |x|^y = e^(y ln|x|): ln|x| is a double-double within about 2^-66 relative
 * (log_dd), y ln|x| is formed exactly from it with an fma, and e^(h + l)
 * (exp_dd) is evaluated to about 1 ulp, so results stay within a few ulp of
 * the 16 the spec allows even where |y ln|x|| nears 745. rootn divides the
 * double-double logarithm by n instead of rounding 1/n. The float forms are
 * evaluated through the double ones and rounded once. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_double_core.h"

#define QNAN __builtin_nan("")
#define INF __builtin_inf()

/* ln a as hi + *lo for any a >= 0: -inf at 0, inf at inf, NaN for NaN */
static double log_abs(double a, __private double *lo) {
  double h = log_dd(a, lo);
  bool finite = a > 0.0 && a < INF;
  *lo = finite ? *lo : 0.0;
  h = a == 0.0 ? -INF : h;
  return finite ? h : a + h; /* inf + inf, -inf at 0, NaN */
}

/* a^y for a >= 0, with the IEEE results where a or y is 0, infinite or NaN,
 * except 1^inf (NaN here) */
static double pow_abs(double a, double y) {
  double l, h = log_abs(a, &l);
  double p = y * h;
  double pl = FMA(y, h, -p) + y * l; /* exp_dd drops it for huge or NaN p */
  return exp_dd(p, pl);
}

double OVL pow(double x, double y) {
  double r = pow_abs(__builtin_fabs(x), y);
  bool y_int = __builtin_elementwise_rint(y) == y; /* infinities included */
  bool y_odd = y_int && __builtin_elementwise_rint(y * 0.5) != y * 0.5;
  r = __builtin_signbit(x) && y_odd ? -r : r;
  r = x < 0.0 && x != -INF && !y_int ? QNAN : r;
  r = x == -1.0 && __builtin_isinf(y) ? 1.0 : r;
  return x == 1.0 || y == 0.0 ? 1.0 : r;
}

double OVL pown(double x, int n) { return pow(x, (double)n); }

double OVL powr(double x, double y) {
  double r = pow_abs(x, y);
  r = x < 0.0 ? QNAN : r;
  r = x == 0.0 && y == 0.0 ? QNAN : r;
  r = x == INF && y == 0.0 ? QNAN : r;
  return x == 1.0 && __builtin_isinf(y) ? QNAN : r;
}

double OVL rootn(double x, int n) {
  double dn = (double)n;
  double l, h = log_abs(__builtin_fabs(x), &l);
  /* (h + l) / n as a double-double */
  double q = h / dn;
  double ql = (FMA(-q, dn, h) + l) / dn;
  double r = exp_dd(q, ql);
  bool odd = (n & 1) != 0;
  r = __builtin_signbit(x) && odd ? -r : r;
  r = x < 0.0 && !odd ? QNAN : r;
  return n == 0 ? QNAN : r;
}

float OVL pown(float x, int n) { return (float)pown((double)x, n); }
float OVL powr(float x, float y) { return (float)powr((double)x, (double)y); }
float OVL rootn(float x, int n) { return (float)rootn((double)x, n); }

LM_WIDTHS(LM_V2, double, pow)
LM_ALLVI(pown)
LM_ALLVI(rootn)
LM_ALL2(powr)
