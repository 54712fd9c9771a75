/* Double sin, cos and tan, sinpi, cospi and tanpi (OpenCL C 2.0 6.13.2),
 * vectorisable across work-items.
 *
 * For |x| < 2^20 the argument is reduced in registers: n = rint(x 2/pi) and
 * x - n pi/2 is computed as a double-double with pi/2 in three parts and
 * exact products (fma), which leaves an error near 2^-140, far below the
 * closest approach of a double in that range to a multiple of pi/2. The
 * polynomials on [-pi/4, pi/4] are the classic minimax ones with a
 * correction for the low part of the argument; the error stays near 1 ulp
 * (the spec allows 4 for sin and cos, 5 for tan).
 *
 * Larger arguments (and infinities and NaNs) take the C library's function,
 * called only for those lanes: the call sits under a condition, and the
 * compiler gives it masked vector variants (src/compiler/vector_variants.c). */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"
#include "math_bits.h"
#include "math_pi_reduce.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* the C library's functions under names LLVM does not treat as the math
 * library (it would widen those and run them on every lane); the CPU
 * device defines them */
double __loom_libm_sin(double x) __attribute__((const));
double __loom_libm_cos(double x) __attribute__((const));
double __loom_libm_tan(double x) __attribute__((const));

#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PIO2_1 0x1.921fb54442d18p0
#define PIO2_2 0x1.1a62633145c07p-54
#define PIO2_3 -0x1.f1976b7ed8fbcp-110
#define FAST_LIMIT 0x1p20

/* x = n pi/2 + hi + lo with |hi + lo| <= pi/4 (about), for |x| < 2^20 */
static double reduce(double x, __private double *lo, __private int *quadrant) {
  double n = __builtin_elementwise_rint(x * TWO_OVER_PI);
  /* n PIO2_1 exactly as p + pl; x - p is exact (Sterbenz) */
  double p = n * PIO2_1, pl = FMA(n, PIO2_1, -p);
  double s = x - p;
  /* s - pl - n PIO2_2 - n PIO2_3, each rounding error kept */
  double t = s - pl;
  double b1 = t - s, e1 = (s - (t - b1)) - (pl + b1); /* TwoSum(s, -pl) */
  double q = n * PIO2_2, ql = FMA(n, PIO2_2, -q);
  double u = t - q;
  double b2 = u - t, e2 = (t - (u - b2)) - (q + b2); /* TwoSum(t, -q) */
  double l = e1 + e2 - ql - n * PIO2_3;
  double hi = u + l;
  *lo = l - (hi - u);
  *quadrant = (int)(long)n & 3;
  return hi;
}

#define S1 -1.66666666666666324348e-01
#define S2 8.33333333332248946124e-03
#define S3 -1.98412698298579493134e-04
#define S4 2.75573137070700676789e-06
#define S5 -2.50507602534068634195e-08
#define S6 1.58969099521155010221e-10

/* sin(x + y) for |x| <= pi/4, |y| tiny */
static double sin_kernel(double x, double y) {
  double z = x * x, v = z * x;
  double r = FMA(z, FMA(z, FMA(z, FMA(z, S6, S5), S4), S3), S2);
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

#define C1 4.16666666666666019037e-02
#define C2 -1.38888888888741095749e-03
#define C3 2.48015872894767294178e-05
#define C4 -2.75573143513906633035e-07
#define C5 2.08757232129817482790e-09
#define C6 -1.13596475577881948265e-11

/* cos(x + y) for |x| <= pi/4, |y| tiny */
static double cos_kernel(double x, double y) {
  double z = x * x, w = z * z;
  double r = z * FMA(z, FMA(z, C3, C2), C1) + w * w * FMA(z, FMA(z, C6, C5), C4);
  double hz = 0.5 * z, one_hz = 1.0 - hz;
  return one_hz + (((1.0 - one_hz) - hz) + (z * r - x * y));
}

double OVL sin(double x) {
  double lo;
  int q;
  double hi = reduce(x, &lo, &q);
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  double v = (q & 1) ? c : s;
  v = (q & 2) ? -v : v;
  v = x == 0.0 ? x : v; /* sin(-0) is -0 */
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_libm_sin(x);
  return v;
}

double OVL cos(double x) {
  double lo;
  int q;
  double hi = reduce(x, &lo, &q);
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  double v = (q & 1) ? -s : c;
  v = (q & 2) ? -v : v;
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_libm_cos(x);
  return v;
}

double OVL tan(double x) {
  double lo;
  int q;
  double hi = reduce(x, &lo, &q);
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  /* tan(r + pi/2) = -cos r / sin r */
  double v = (q & 1) ? -c / s : s / c;
  v = x == 0.0 ? x : v; /* tan(-0) is -0 */
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_libm_tan(x);
  return v;
}

/* ---- sinpi, cospi, tanpi ----
 * The argument is reduced exactly to r in [0, 1/2] (math_pi_reduce.h), then
 * to t in [0, 1/4] (t = r or 1/2 - r, exact), so that pi t is a
 * double-double within the kernels' range. Branch-free, so the loops that
 * call them vectorise; infinities and NaNs give NaN through x - x. */
#define PI_HI 0x1.921fb54442d18p1
#define PI_LO 0x1.1a62633145c07p-53

/* sin and cos of pi t for t in [0, 1/4] */
static void sincospi_quarter(double t, __private double *s, __private double *c) {
  double hi = PI_HI * t;
  double lo = FMA(PI_HI, t, -hi) + PI_LO * t;
  double x = hi + lo;
  double y = lo - (x - hi);
  *s = sin_kernel(x, y);
  *c = cos_kernel(x, y);
}

/* sin(pi r) for r in [0, 1/2] */
static double sinpi_half(double r) {
  bool low = r <= 0.25;
  double s, c;
  sincospi_quarter(low ? r : 0.5 - r, &s, &c);
  return low ? s : c;
}

double OVL sinpi(double x) {
  double s, r = sinpi_reduce(__builtin_fabs(x), &s);
  double v = sinpi_half(r);
  /* integers give a zero with the sign of x: sinpi is odd */
  v = v == 0.0 ? __builtin_copysign(0.0, x) : (x < 0.0 ? -s : s) * v;
  return __builtin_isfinite(x) ? v : x - x;
}

double OVL cospi(double x) {
  double s, r = cospi_reduce(__builtin_fabs(x), &s);
  double v = sinpi_half(0.5 - r);
  v = v == 0.0 ? 0.0 : s * v; /* n + 1/2 gives +0 */
  return __builtin_isfinite(x) ? v : x - x;
}

double OVL tanpi(double x) {
  bool odd, mirror;
  double r = tanpi_reduce(__builtin_fabs(x), &odd, &mirror);
  bool low = r <= 0.25; /* else tan(pi r) = 1 / tan(pi (1/2 - r)) */
  double s, c;
  sincospi_quarter(low ? r : 0.5 - r, &s, &c);
  double v = low ? s / c : c / s; /* r = 1/2: the pole */
  v = mirror ? -v : v;
  /* the prescribed signs of the zeros and poles at odd integers */
  v = odd && (v == 0.0 || __builtin_isinf(v)) ? -v : v;
  v = __builtin_signbit(x) ? -v : v; /* tanpi is odd; tanpi(-0) is -0 */
  return __builtin_isfinite(x) ? v : x - x;
}

LM_WIDTHS(LM_V1, double, sin) LM_WIDTHS(LM_V1, double, cos)
LM_WIDTHS(LM_V1, double, tan)
/* the float forms: math_float_pi.cl */
LM_WIDTHS(LM_V1, double, sinpi) LM_WIDTHS(LM_V1, double, cospi)
LM_WIDTHS(LM_V1, double, tanpi)
