/* Double fmod, remainder and remquo (OpenCL C 2.0 6.13.2), exact.
 *
 * |x| mod |y| is reduced in steps of up to 50 bits of the exponent
 * difference. A step takes ys = |y| 2^k, the largest such scaling that
 * keeps r / ys below 2^51, and q = trunc(r / ys). Below 2^52 the rounded
 * quotient is never below the true one's integer part and at most one
 * above it, so r - q ys lies in (-ys, ys): a multiple of ys's last bit,
 * hence representable, which makes the fused multiply-add exact. A negative
 * remainder takes ys back once. Operands 2^2097 apart need 42 steps; most
 * take one, so the loop runs while a remainder is still at least |y| (the
 * work-group compiler vectorises such loops with per-lane trip counts; a
 * loop every work-item enters leaves the kernel free to hold several).
 * The quotient's low 7 bits, which remquo returns, are summed from the
 * steps with k < 7. */
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

/* |x| mod |y| for finite nonzero x, y; *q: the quotient's low 7 bits */
static double reduce(double ax, double ay, __private int *q) {
  int ey = exponent_of(ay), ql = 0;
  double r = ax;
  do { /* entered by every lane (when r < ay it leaves r as it is) */
    int k = exponent_of(r) - ey - 50;
    k = k > 0 ? k : 0;
    /* ay 2^k in three exact products with normal factors (none below 1:
     * halving a subnormal would drop its last bit) */
    int h = k >> 1;
    double ys = k == 0 ? ay : ay * pow2(h) * pow2(k - h - 1) * 2.0;
    double qd = __builtin_elementwise_trunc(r / ys);
    double t = FMA(-qd, ys, r);
    bool neg = t < 0.0;
    r = neg ? t + ys : t;
    int low = ((int)(long)qd - (neg ? 1 : 0)) & 127;
    ql = (ql + (k < 7 ? low << k : 0)) & 127;
  } while (r >= ay);
  *q = ql;
  return r;
}

/* NaN for the invalid cases of all three: a NaN operand, x infinite, y zero */
static bool invalid(double x, double y) {
  return x != x || y != y || __builtin_isinf(x) || y == 0.0;
}

/* the operand itself: x zero or y infinite (x finite) */
static bool passes_x(double x, double y) { return x == 0.0 || __builtin_isinf(y); }

/* |x| mod |y|, with the special operands replaced by harmless ones (their
 * results are chosen by the callers) */
static double reduce_any(double x, double y, __private int *q) {
  bool special = invalid(x, y) || passes_x(x, y);
  double ax = special ? 0.5 : __builtin_fabs(x), ay = special ? 1.0 : __builtin_fabs(y);
  return reduce(ax, ay, q);
}

double OVL fmod(double x, double y) {
  int q;
  double r = __builtin_copysign(reduce_any(x, y, &q), x);
  r = passes_x(x, y) ? x : r;
  return invalid(x, y) ? __builtin_nan("") : r;
}

/* the remainder nearest to zero: r or r - |y|, ties to the even quotient
 * (2r overflows only when r > |y| / 2, and then compares as it should) */
static double nearest(double x, double y, __private int *q) {
  double r = reduce_any(x, y, q), ay = __builtin_fabs(y);
  bool up = 2.0 * r > ay || (2.0 * r == ay && (*q & 1));
  *q = up ? (*q + 1) & 127 : *q;
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
