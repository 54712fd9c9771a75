/* pown, powr and rootn (OpenCL C 2.0 6.13.2) through the C library's pow,
 * with the prescribed edge cases of section 2.5.1. Float is evaluated in
 * double (every int is exact there) and rounded once. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define QNAN __builtin_nan("")

double OVL pown(double x, int n) {
  return n == 0 ? 1.0 : __builtin_elementwise_pow(x, (double)n);
}
float OVL pown(float x, int n) { return (float)pown((double)x, n); }

double OVL powr(double x, double y) {
  if (!(x == x) || !(y == y))
    return x + y;
  if (x < 0.0)
    return QNAN;
  if (x == 0.0)
    return y == 0.0 ? QNAN : y < 0.0 ? __builtin_inf() : 0.0;
  if (__builtin_isinf(x))
    return y == 0.0 ? QNAN : y < 0.0 ? 0.0 : x;
  if (x == 1.0)
    return __builtin_isinf(y) ? QNAN : 1.0;
  return __builtin_elementwise_pow(x, y);
}
float OVL powr(float x, float y) { return (float)powr((double)x, (double)y); }

/* |x| = m * 2^e with m in [1, 2), for finite nonzero x */
static int exponent_of(double ax) {
  int adj = 0;
  if (ax < 0x1p-1022) {
    ax *= 0x1p64;
    adj = 64;
  }
  return (int)((__builtin_astype(ax, ulong) >> 52) & 0x7ff) - 1023 - adj;
}

/* The n-th root: pow(x, 1/n) loses up to ln(x)/(2n) ulp to the rounding of
 * 1/n, so x is first scaled by 2^(n s) to about [2^-n/2, 2^n/2] and one Newton
 * step r += r (x/r^n - 1)/n recovers the lost bits (for |n| > 1024 the loss is
 * already under an ulp). */
double OVL rootn(double x, int n) {
  if (n == 0)
    return QNAN;
  if (!(x == x))
    return x;
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd)
    return QNAN;
  if (x == 0.0)
    return n > 0 ? (odd ? x : 0.0) : (odd ? __builtin_copysign(__builtin_inf(), x) : __builtin_inf());
  if (__builtin_isinf(x))
    return n > 0 ? x : (odd ? __builtin_copysign(0.0, x) : 0.0);
  if (n == 1)
    return x;
  if (n == -1)
    return 1.0 / x;
  double ax = __builtin_fabs(x), dn = (double)n;
  int s = 0;
  if (n >= -1024 && n <= 1024)
    s = (int)__builtin_rint((double)exponent_of(ax) / dn);
  double xs = ldexp(ax, -n * s);
  double r = __builtin_elementwise_pow(xs, 1.0 / dn);
  if (n >= -1024 && n <= 1024) {
    double t = __builtin_elementwise_pow(r, dn);
    if (t != 0.0 && !__builtin_isinf(t))
      r += r * ((xs / t - 1.0) / dn);
  }
  r = ldexp(r, s);
  return x < 0.0 ? -r : r;
}
float OVL rootn(float x, int n) { return (float)rootn((double)x, n); }

LM_ALLVI(pown)
LM_ALLVI(rootn)
LM_ALL2(powr)
