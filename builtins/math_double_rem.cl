/* Double fmod, remainder and remquo (OpenCL C 2.0 6.13.2), exact.
 *
 * |x| mod |y| is reduced in steps of up to 50 bits of the exponent
 * difference. A step takes ys = |y| 2^k, the largest such scaling that
 * keeps r / ys below 2^51, and q = trunc(r / ys). Below 2^52 the rounded
 * quotient is never below the true one's integer part and at most one
 * above it, so r - q ys lies in (-ys, ys): a multiple of ys's last bit,
 * hence representable, which makes the fused multiply-add exact. A negative
 * remainder takes ys back once. Operands 2^2097 apart need 42 steps; most
 * take one, so two steps run in line and the rest, when needed, out of
 * line. The in-line steps sum the quotient's low 7 bits (remquo returns
 * them) from the steps with k < 7; the out-of-line path finds them by
 * reducing modulo 128|y| first. */
#include "loom_builtins.h"
#include "math_bits.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* the binary exponent of a finite a > 0, subnormals (scaled by 2^54)
 * included */
static int exponent_of(double a) {
  bool sub = a < 0x1p-1022;
  ulong b = AS_UL(sub ? a * 0x1p54 : a);
  return (int)(b >> 52) - (sub ? 1023 + 54 : 1023);
}

/* 2^k for 0 <= k <= 1023 */
static double pow2(int k) { return AS_D((ulong)(1023 + k) << 52); }

/* one step: r reduced by up to 50 bits of its exponent's excess over |y|'s
 * (nothing changes once r < |y|); *ql gathers the quotient's low 7 bits */
static double step(double r, double ay, int ey, __private int *ql) {
  int k = exponent_of(r) - ey - 50;
  k = k > 0 ? k : 0;
  /* ay 2^k in three exact products with normal factors (none below 1:
   * halving a subnormal would drop its last bit) */
  int h = k >> 1;
  double ys = k == 0 ? ay : ay * pow2(h) * pow2(k - h - 1) * 2.0;
  double qd = __builtin_elementwise_trunc(r / ys);
  double t = FMA(-qd, ys, r);
  bool neg = t < 0.0;
  int low = ((int)(long)qd - (neg ? 1 : 0)) & 127;
  *ql = (*ql + (k < 7 ? low << k : 0)) & 127;
  return neg ? t + ys : t;
}

/* r mod m for a normal m, r > 0 at least 2^50 m: in steps of 49 bits
 * without a division. The multiples ys = m 2^k fall by 2^49 a step from
 * the one that leaves a quotient below 2^50; 1/ys is rounded once and then
 * scaled exactly. q = r/ys rounded to an integer (the magic constant's
 * sum rounds the exact product) is within 0.625 of the true quotient
 * (inv's rounding adds at most 2^50 2^-53), so t = r - q ys lies in
 * (-0.625 ys, 0.625 ys), is a multiple of ys's last bit and so is
 * representable: the fused multiply-add is exact. The remainder keeps its
 * sign until the end. Each step is a chain of three fused operations, not
 * a division: about three times the speed of step() per bit. */
static double reduce_far(double r, double m) {
  const double magic = 0x1.8p52;
  int k = exponent_of(r) - exponent_of(m) - 49;
  int h = k >> 1;
  double ys = m * pow2(h) * pow2(k - h);
  double inv = 1.0 / ys;
  for (; k > 0; k -= 49) {
    double q = FMA(r, inv, magic) - magic;
    r = FMA(-q, ys, r);
    ys *= 0x1p-49;
    inv *= 0x1p49;
  }
  /* k in (-49, 0]: ys = m 2^k; one more step against m itself */
  ys = m;
  inv = 1.0 / m;
  double q = FMA(r, inv, magic) - magic;
  r = FMA(-q, ys, r);
  return r < 0.0 ? r + m : r;
}

/* the steps after the first two, for operands more than about 2^100 apart:
 * out of line (__loom_cold_*: src/compiler/frontend/link.c), so that the common case
 * stays a straight line that vectorises without a loop. A subnormal |y|
 * is first reduced against |y| 2^54 (a multiple of it), normal. */
__attribute__((const, noinline)) double __loom_cold_fmod_rest(double r, double ay) {
  double m = ay < 0x1p-1022 ? ay * 0x1p54 : ay;
  if (r >= m * 0x1p50)
    r = reduce_far(r, m);
  int ey = exponent_of(ay), ql = 0;
  while (r >= ay)
    r = step(r, ay, ey, &ql);
  return r;
}

/* |x| mod |y| for finite nonzero x, y */
static double reduce(double ax, double ay) {
  int ey = exponent_of(ay), ql = 0;
  double r = step(ax, ay, ey, &ql);
  r = step(r, ay, ey, &ql);
  return r >= ay ? __loom_cold_fmod_rest(r, ay) : r;
}

/* NaN for the invalid cases of all three: a NaN operand, x infinite, y zero */
static bool invalid(double x, double y) {
  return x != x || y != y || __builtin_isinf(x) || y == 0.0;
}

/* the operand itself: x zero or y infinite (x finite) */
static bool passes_x(double x, double y) { return x == 0.0 || __builtin_isinf(y); }

/* |x| and |y|, with the special operands replaced by harmless ones (their
 * results are chosen by the callers) */
static double sanitised(double x, double y, __private double *ay) {
  bool special = invalid(x, y) || passes_x(x, y);
  *ay = special ? 1.0 : __builtin_fabs(y);
  return special ? 0.5 : __builtin_fabs(x);
}

double OVL fmod(double x, double y) {
  double ay, ax = sanitised(x, y, &ay);
  double r = __builtin_copysign(reduce(ax, ay), x);
  r = passes_x(x, y) ? x : r;
  return invalid(x, y) ? __builtin_nan("") : r;
}

/* the quotient's low 7 bits for operands that the in-line steps leave
 * unfinished: |x| mod 128|y| keeps them, and leaves a quotient below 128
 * that one step finds exactly */
__attribute__((const, noinline)) double __loom_cold_fmod_quotient(double ax, double ay) {
  double m = 128.0 * ay; /* infinite: |x| < 128 |y| already */
  double a = m < __builtin_inf() ? __loom_cold_fmod_rest(ax, m) : ax;
  int ql = 0;
  step(a, ay, exponent_of(ay), &ql);
  return (double)ql;
}

/* the remainder nearest to zero (r or r - |y|, ties to the even quotient)
 * and the quotient's low 7 bits (2r overflows only when r > |y| / 2, and
 * then compares as it should) */
static double nearest(double x, double y, __private int *q) {
  double ay, ax = sanitised(x, y, &ay);
  int ey = exponent_of(ay), ql = 0;
  double r = step(ax, ay, ey, &ql);
  r = step(r, ay, ey, &ql);
  if (r >= ay) {
    ql = (int)__loom_cold_fmod_quotient(ax, ay);
    r = __loom_cold_fmod_rest(r, ay);
  }
  bool up = 2.0 * r > ay || (2.0 * r == ay && (ql & 1));
  *q = up ? (ql + 1) & 127 : ql;
  return up ? r - ay : r;
}

double OVL remainder(double x, double y) {
  int q;
  double r = nearest(x, y, &q);
  r = __builtin_signbit(x) ? -r : r;
  r = passes_x(x, y) ? x : r;
  return invalid(x, y) ? __builtin_nan("") : r;
}

double OVL remquo(double x, double y, __private int *quo) {
  int q;
  double r = nearest(x, y, &q);
  r = __builtin_signbit(x) ? -r : r;
  bool special = passes_x(x, y) || invalid(x, y);
  *quo = special ? 0 : __builtin_signbit(x) != __builtin_signbit(y) ? -q : q;
  r = passes_x(x, y) ? x : r;
  return invalid(x, y) ? __builtin_nan("") : r;
}

LM_WIDTHS(LM_V2, double, fmod)
