/* Float fmod, remainder and remquo (OpenCL C 2.0 6.13.2), exact and
 * branch-free so that loops calling them vectorise across work-items.
 *
 * With |x| = mx 2^ex and |y| = my 2^ey (mx, my integers below 2^24), the
 * remainder of |x| by |y| is (mx 2^(ex-ey) mod my) 2^ey. It is built in
 * doubles holding integers: r = mx mod my, then r = (r 2^k) mod my for
 * chunks k <= 28 of the exponent difference (at most 277 for floats, so 10
 * chunks). Every operand stays below 2^53, so each product and difference
 * is exact, and the quotient (r 2^k) / my < 2^28 is off its integer part by
 * at least 1/my > 2^-24 when it is not one, more than the division's
 * rounding error (below 2^-25): its truncation is exact. The quotient's low
 * 7 bits, which remquo returns, are carried along. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define CHUNK 28
#define CHUNKS 10

/* 2^k for -1022 <= k <= 1023; other k (only for operands whose result is
 * then discarded: y = 0) give some value without undefined behaviour */
static double pow2(int k) { return __builtin_bit_cast(double, (ulong)(1023 + k) << 52); }

/* a finite nonzero float (as a double) as m 2^e, m an integer in
 * [2^23, 2^24): the significand with the exponent of 2^23 */
static double split(double a, __private int *e) {
  long bits = __builtin_bit_cast(long, a);
  *e = (int)((bits >> 52) & 0x7ff) - 1046; /* floats are normal as doubles */
  return __builtin_bit_cast(double, (bits & 0x000fffffffffffffL) | (1046L << 52));
}

/* |x| mod |y| = *r_out 2^ey, *r_out an integer below my (or |x| itself with
 * scale 1 when |x| < |y|); *q: the low 7 bits of the quotient. x and y
 * finite and nonzero. Returns the remainder as a double (exact). */
static double reduce(float x, float y, __private int *q) {
  double ax = __builtin_fabs((double)x), ay = __builtin_fabs((double)y);
  int ex, ey;
  double mx = split(ax, &ex), my = split(ay, &ey);
  int e = ex - ey;
  bool below = ax < ay;
  double qd = __builtin_elementwise_trunc(mx / my);
  double r = mx - qd * my;
  int ql = (int)qd & 127;
  for (int c = 0; c < CHUNKS; c++) {
    int k = e < CHUNK ? (e > 0 ? e : 0) : CHUNK;
    double t = r * pow2(k);
    double qc = __builtin_elementwise_trunc(t / my);
    r = t - qc * my;
    ql = ((ql << (k < 7 ? k : 7)) + ((int)qc & 127)) & 127;
    e -= k;
  }
  *q = below ? 0 : ql;
  return below ? ax : r * pow2(ey);
}

/* NaN for the invalid cases of all three: a NaN operand, x infinite, y zero */
static bool invalid(float x, float y) {
  return x != x || y != y || __builtin_isinf(x) || y == 0.0f;
}

/* the operand itself: x zero or y infinite (x finite) */
static bool passes_x(float x, float y) { return x == 0.0f || __builtin_isinf(y); }

float OVL fmod(float x, float y) {
  int q;
  double r = reduce(x, y, &q);
  float res = __builtin_copysign((float)r, x);
  res = passes_x(x, y) ? x : res;
  return invalid(x, y) ? __builtin_nanf("") : res;
}

/* the remainder nearest to zero: r or r - |y|, ties to the even quotient */
static double nearest(float x, float y, __private int *q) {
  double r = reduce(x, y, q), ay = __builtin_fabs((double)y);
  bool up = 2.0 * r > ay || (2.0 * r == ay && (*q & 1));
  *q = up ? (*q + 1) & 127 : *q;
  return up ? r - ay : r;
}

float OVL remainder(float x, float y) {
  int q;
  double r = nearest(x, y, &q);
  float res = __builtin_signbit(x) ? -(float)r : (float)r;
  res = passes_x(x, y) ? x : res;
  return invalid(x, y) ? __builtin_nanf("") : res;
}

float OVL remquo(float x, float y, __private int *quo) {
  int q;
  double r = nearest(x, y, &q);
  float res = __builtin_signbit(x) ? -(float)r : (float)r;
  bool special = passes_x(x, y) || invalid(x, y);
  *quo = special ? 0 : __builtin_signbit(x) != __builtin_signbit(y) ? -q : q;
  res = passes_x(x, y) ? x : res;
  return invalid(x, y) ? __builtin_nanf("") : res;
}

LM_WIDTHS(LM_V2, float, fmod)
