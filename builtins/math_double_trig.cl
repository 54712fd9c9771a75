/* Double sin, cos and tan, sinpi, cospi and tanpi (OpenCL C 2.0 6.13.2),
 * vectorisable across work-items.
 *
 * For |x| < 2^20 the argument is reduced in registers: x - n pi/2 for an
 * integer n is computed as a double-double with pi/2 in three parts and
 * exact products (fma), which leaves an error near 2^-140, far below the
 * closest approach of a double in that range to a multiple of pi/2.
 *
 * sin and cos take an n of one parity, so that one odd polynomial on
 * [-pi/2, pi/2] does: sin x = (-1)^(n/2) sin r for n = 2 rint(x / pi), and
 * cos x = (-1)^((n+1)/2) sin r for n = 2 rint(x / pi - 1/2) + 1 (an odd
 * n keeps r away from cos's zeros, where a cosine polynomial in r would
 * cancel). Nine coefficients, fitted for this range (relative error
 * 2^-54.6 before rounding), and a first-order correction for the low part;
 * one polynomial per element instead of a sine and a cosine and a choice
 * between them, and x - n PIO2_1 in one exact fma: 65 instructions per 8
 * doubles became 50 (bench/ math_sin_fp64 on 2 cores: 1.27 -> 1.68
 * Gelem/s). The price is accuracy at |r| near pi/2, where x^3/6 is 0.4 x
 * and its rounding shows: at most 1.9 ulp measured against long double
 * over 4M points of each of [-100, 100], [-2^20, 2^20], [-4, 4], tiny
 * values and neighbours of multiples of pi/2 (0.77 with the pi/2
 * reduction and two polynomials; the spec allows 4). tan keeps
 * n = rint(x 2/pi) and the classic minimax polynomials on [-pi/4, pi/4]
 * (at most 2.1 ulp; the spec allows 5).
 *
 * Larger arguments (and infinities and NaNs) take Payne and Hanek's
 * reduction in integer arithmetic (reduce_huge) in out-of-line functions,
 * called under a condition: the compiler gives them masked vector variants
 * (src/compiler/vectorize/vector_variants.c), so a vectorised loop runs them only for
 * the lanes that need them, and the common path does not pay for them. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"
#include "math_bits.h"
#include "math_pi_reduce.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable


#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PIO2_1 0x1.921fb54442d18p0
#define PIO2_2 0x1.1a62633145c07p-54
#define PIO2_3 -0x1.f1976b7ed8fbcp-110
#define FAST_LIMIT 0x1p20

#define ONE_OVER_PI 0x1.45f306dc9c883p-2

/* x = n pi/2 + hi + lo for |x| < 2^20 and an integer n with
 * |x - n pi/2| <= pi/2 (about) */
static double reduce_by(double x, double n, __private double *lo) {
  /* x - n PIO2_1 in one fma, exact: n PIO2_1 and x are multiples of 2^-52
   * (|x| >= 1) and the difference is below 2, or n = 0; else n = +-1 with
   * |x| < 1 (cos near 0), the difference is at least 0.57 and its rounding
   * moves sin of it by at most half an ulp of the result */
  double a = FMA(-n, PIO2_1, x);
  /* a - n PIO2_2 - n PIO2_3, each rounding error kept */
  double q = n * PIO2_2, ql = FMA(n, PIO2_2, -q);
  double u = a - q;
  double b = u - a, e = (a - (u - b)) - (q + b); /* TwoSum(a, -q) */
  double l = FMA(-n, PIO2_3, e - ql);
  double hi = u + l;
  *lo = l - (hi - u);
  return hi;
}

/* x = n pi/2 + hi + lo with |hi + lo| <= pi/4 (about), for |x| < 2^20 */
static double reduce(double x, __private double *lo, __private int *quadrant) {
  double n = __builtin_elementwise_rint(x * TWO_OVER_PI);
  *quadrant = (int)(long)n & 3;
  return reduce_by(x, n, lo);
}

/* the bits of 2/pi after one zero word (so that a window may start before
 * the binary point), enough for the largest exponent */
__constant ulong loom_two_over_pi_words[22] = {
    0x0000000000000000UL, 0xa2f9836e4e441529UL, 0xfc2757d1f534ddc0UL,
    0xdb6295993c439041UL, 0xfe5163abdebbc561UL, 0xb7246e3a424dd2e0UL,
    0x06492eea09d1921cUL, 0xfe1deb1cb129a73eUL, 0xe88235f52ebb4484UL,
    0xe99c7026b45f7e41UL, 0x3991d639835339f4UL, 0x9c845f8bbdf9283bUL,
    0x1ff897ffde05980fUL, 0xef2f118b5a0a6d1fUL, 0x6d367ecf27cb09b7UL,
    0x4f463f669e5fea2dUL, 0x7527bac7ebe5f17bUL, 0x3d0739f78a5292eaUL,
    0x6bfb5fb11f8d5d08UL, 0x56033046fc7b6babUL, 0xf0cfbc209af4361dUL,
    0xa9e391615ee61b08UL};

/* the top 64 bits of a 192-bit window of 2/pi starting at bit p (the
 * 64-bit words w, w + 1 shifted by s; s = 0 needs no bits of w + 1) */
static ulong window_word(ulong a, ulong b, int s) { return a << s | (b >> 1) >> (63 - s); }

#define LO32(v) ((v) & 0xffffffffUL)

/* |x| = (q + f) pi/2 for a finite |x| >= 2^20, returned as hi + *lo = f pi/2
 * (|f| <= 1/2) and q mod 4. |x| = m 2^E with m < 2^53 an integer; bits of
 * 2/pi more significant than 2^(1-E) only add multiples of 4 to x 2/pi, so
 * a 192-bit window W from there gives x 2/pi mod 4 = (m W mod 2^192) 2^-190
 * to within m 2^-190 < 2^-137. The product is formed in 32-bit limbs
 * (products of two limbs are exact in 64 bits, and a column's sum of
 * halves cannot overflow). The fraction keeps 128 bits: doubles come no
 * closer than about 2^-62 to a multiple of pi/2, so at least 66 of them
 * are significant. */
static double reduce_huge(double ax, __private double *lo, __private int *quadrant) {
  ulong u = AS_UL(ax);
  int E = (int)(u >> 52) - 1075;
  ulong m = (u & 0x000fffffffffffffUL) | 0x0010000000000000UL;
  int p = __builtin_elementwise_min(__builtin_elementwise_max(E + 62, 0), 1033);
  int w = p >> 6, s = p & 63;
  ulong t0 = loom_two_over_pi_words[w], t1 = loom_two_over_pi_words[w + 1];
  ulong t2 = loom_two_over_pi_words[w + 2], t3 = loom_two_over_pi_words[w + 3];
  ulong hiw = window_word(t0, t1, s), midw = window_word(t1, t2, s), low = window_word(t2, t3, s);
  ulong wl[6] = {LO32(low), low >> 32, LO32(midw), midw >> 32, LO32(hiw), hiw >> 32};
  ulong m0 = LO32(m), m1 = m >> 32;
  uint limb[6];
  ulong acc = 0, a_prev = 0, b_prev = 0;
#pragma unroll
  for (int k = 0; k < 6; k++) {
    ulong a = m0 * wl[k], b = k ? m1 * wl[k - 1] : 0;
    acc += LO32(a) + LO32(b) + (a_prev >> 32) + (b_prev >> 32);
    limb[k] = (uint)acc;
    acc >>= 32;
    a_prev = a, b_prev = b;
  }
  ulong r0 = (ulong)limb[5] << 32 | limb[4], r1 = (ulong)limb[3] << 32 | limb[2];
  ulong r2 = (ulong)limb[1] << 32 | limb[0];
  int q = (int)(r0 >> 62);
  /* the fraction's top 128 bits; from 1/2 on, round up to the next quadrant
   * and take the negative fraction's magnitude */
  ulong f1 = r0 << 2 | r1 >> 62, f2 = r1 << 2 | r2 >> 62;
  bool neg = (long)f1 < 0;
  ulong a2 = neg ? -f2 : f2, a1 = neg ? ~f1 + (f2 == 0 ? 1 : 0) : f1;
  int lz = (int)__builtin_clzl(a1 | 1);
  ulong n1 = a1 << lz | (a2 >> 1) >> (63 - lz), n2 = a2 << lz;
  double scale = AS_D((ulong)(1023 - 53 - lz) << 52);
  double fh = (double)(n1 >> 11) * scale;
  double fl = (double)((n1 & 0x7ff) << 53 | n2 >> 11) * (scale * 0x1p-64);
  fh = neg ? -fh : fh, fl = neg ? -fl : fl;
  /* times pi/2 as a double-double */
  double rh = fh * PIO2_1;
  double rl = FMA(fh, PIO2_1, -rh) + FMA(fh, PIO2_2, fl * PIO2_1);
  double r = rh + rl;
  *lo = rl - (r - rh);
  *quadrant = (q + (neg ? 1 : 0)) & 3;
  return r;
}

/* x = n pi/2 + hi + lo as reduce_fast, for any finite x */
static double reduce_any(double x, __private double *lo, __private int *quadrant) {
  int q;
  double h = reduce_huge(__builtin_fabs(x), lo, &q);
  bool neg = x < 0.0; /* -x = -(n pi/2 + r) */
  *lo = neg ? -*lo : *lo;
  *quadrant = neg ? -q & 3 : q;
  return neg ? -h : h;
}

/* NaN for an infinite or NaN x */
static double nan_if_not_finite(double x, double v) {
  return __builtin_isfinite(x) ? v : x - x;
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

/* sin(h) = h + h^3 (W0 + W1 h^2 + ... + W8 h^16) on |h| <= pi/2 (1 + 2^-20) */
#define W0 -0x1.5555555555555p-3
#define W1 0x1.1111111111111p-7
#define W2 -0x1.a01a01a019ffdp-13
#define W3 0x1.71de3a556ad63p-19
#define W4 -0x1.ae64567de0bb5p-26
#define W5 0x1.6124607b0105ap-33
#define W6 -0x1.ae7ec87c9e848p-41
#define W7 0x1.9501814130e53p-49
#define W8 -0x1.26bcdfcf32443p-57

/* sin(x + y) for |x| <= pi/2, |y| tiny: y cos x taken as y (1 - x^2/2),
 * off by at most 0.23 |y| */
static double sin_wide(double x, double y) {
  double z = x * x, v = z * x, z2 = z * z;
  /* Estrin's scheme over W1..W8: shorter chains than Horner's */
  double a = FMA(z, W2, W1), b = FMA(z, W4, W3), c = FMA(z, W6, W5), d = FMA(z, W8, W7);
  double r = FMA(z2 * z2, FMA(z2, d, c), FMA(z2, b, a));
  return x - ((z * (0.5 * y - v * r) - y) - v * W0);
}

/* sin, cos and tan from a reduced argument */
static double sin_reduced(double hi, double lo, int q) {
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  double v = (q & 1) ? c : s;
  return (q & 2) ? -v : v;
}
static double cos_reduced(double hi, double lo, int q) {
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  double v = (q & 1) ? -s : c;
  return (q & 2) ? -v : v;
}
static double tan_reduced(double hi, double lo, int q) {
  double s = sin_kernel(hi, lo), c = cos_kernel(hi, lo);
  return (q & 1) ? -c / s : s / c; /* tan(r + pi/2) = -cos r / sin r */
}

/* the out-of-line paths for |x| >= 2^20, infinities and NaNs (their names
 * keep them out of line: src/compiler/frontend/link.c) */
#define HUGE_PATH(f)                                                           \
  __attribute__((const, noinline)) double __loom_cold_##f(double x) {          \
    double lo;                                                                 \
    int q;                                                                     \
    double hi = reduce_any(x, &lo, &q);                                        \
    return nan_if_not_finite(x, f##_reduced(hi, lo, q));                       \
  }
HUGE_PATH(sin)
HUGE_PATH(cos)
HUGE_PATH(tan)

double OVL sin(double x) {
  double lo, n = __builtin_elementwise_rint(x * ONE_OVER_PI);
  double hi = reduce_by(x, 2.0 * n, &lo);
  double v = sin_wide(hi, lo);
  v = ((long)n & 1) ? -v : v;
  v = x == 0.0 ? x : v; /* sin(-0) is -0 */
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_cold_sin(x);
  return v;
}

double OVL cos(double x) {
  double lo, n = __builtin_elementwise_rint(x * ONE_OVER_PI - 0.5);
  double hi = reduce_by(x, 2.0 * n + 1.0, &lo);
  double v = sin_wide(hi, lo);
  v = ((long)n & 1) ? v : -v;
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_cold_cos(x);
  return v;
}

double OVL tan(double x) {
  double lo;
  int q;
  double hi = reduce(x, &lo, &q);
  double v = tan_reduced(hi, lo, q);
  v = x == 0.0 ? x : v; /* tan(-0) is -0 */
  if (!(__builtin_fabs(x) < FAST_LIMIT))
    v = __loom_cold_tan(x);
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
