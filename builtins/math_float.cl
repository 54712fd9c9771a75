/* The float exponential, logarithm, power and trigonometric functions
 * (OpenCL C 2.0 6.13.2), written without branches or calls so that a
 * work-item loop calling them still vectorises across work-items.
 *
 * Each is evaluated in double: the reductions are exact or lose less than
 * 2^-45 relative, the polynomials are accurate to about 1e-11, and the one
 * rounding to float at the end (subnormal results included) keeps every
 * result within 1 ulp, well inside the spec's limits (3 ulp for exp and log,
 * 4 for sin and cos, 5 for tan, 16 for pow). Special inputs (NaN, infinities,
 * zeros, negative arguments of log) are chosen with selects at the end. */
#include "loom_builtins.h"
#include "math_map.h"
#include "math_float.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_float_core.h"

/* ---- exponentials and logarithms --------------------------------------- */

float OVL exp2(float x) { return exp2_to_float((double)x); }
/* exp in float arithmetic, 16 lanes per AVX-512 register instead of the
 * double path's 8 (math_exp was compute-bound at parity with PoCL):
 * exp_parts_f, then 2^k applied as two normal powers of two so that
 * overflow and gradual underflow round once. At most 0.98 ulp over every
 * float (limit 3). */
float OVL exp(float x) {
  float xc = __builtin_fminf(__builtin_fmaxf(x, -104.0f), 89.0f); /* 0 / inf beyond */
  float k, p = exp_parts_f(xc, &k);
  int ki = (int)k, k1 = ki >> 1, k2 = ki - k1; /* each in [-75, 65] */
  float res = p * AS_F((uint)(k1 + 127) << 23) * AS_F((uint)(k2 + 127) << 23);
  return x != x ? x + x : res;
}
float OVL exp10(float x) { return exp2_to_float((double)x * 0x1.a934f0979a371p1); }

float OVL log(float x) {
  double e, l = log_parts((double)x, &e);
  return log_special(x, (float)(e * LN2 + l));
}
float OVL log2(float x) {
  double e, l = log_parts((double)x, &e);
  return log_special(x, (float)(e + l * LOG2E));
}
float OVL log10(float x) {
  double e, l = log_parts((double)x, &e);
  return log_special(x, (float)(e * LOG10_2 + l * LOG10E));
}

/* ---- pow ---------------------------------------------------------------- */

/* C99 Annex F pow, as OpenCL C requires: 2^(y log2|x|) with the sign of x
 * for odd integer y, and the listed special cases */
float OVL pow(float x, float y) {
  float ax = __builtin_fabsf(x);
  double e, l = log_parts((double)ax, &e);
  double lg = e + l * LOG2E;
  lg = ax == 0.0f ? -(double)INFF : lg;
  lg = ax == INFF || ax != ax ? (double)ax : lg;
  float r = exp2_to_float((double)y * lg);

  bool y_int = __builtin_elementwise_rint(y) == y;
  bool y_odd = y_int && __builtin_elementwise_rint(y * 0.5f) != y * 0.5f;
  r = x < 0.0f && y_odd ? -r : r;
  r = x < 0.0f && !y_int && ax != INFF && __builtin_fabsf(y) != INFF ? QNANF : r;
  /* pow(-0, y) and pow(-inf, y) keep the sign of x for odd y */
  r = x == 0.0f && y_odd ? __builtin_copysignf(r, x) : r;
  r = x == -1.0f && __builtin_fabsf(y) == INFF ? 1.0f : r;
  r = x == 1.0f || y == 0.0f ? 1.0f : r;
  return r;
}

/* ---- sin, cos, tan ---------------------------------------------------------- */

/* bits of 2/pi, after one zero word so that a window may start before the
 * binary point (for |x| near 1) */
__constant uint loom_two_over_pi_bits[8] = {
    0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1,
    0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab};

/* |x| = r + q pi/2 with |r| <= pi/4, exactly enough for any float: Payne and
 * Hanek's reduction with a 96-bit window of 2/pi picked by the exponent of
 * x, in integer arithmetic. |x| = m 2^E with m < 2^24 an integer; the bits of
 * 2/pi above the window only add multiples of 4 to x 2/pi, and the ones
 * below it less than 2^-70. Small |x| is returned unchanged with q = 0. */
static double reduce_pi_2(float ax, __private uint *quadrant) {
  uint u = AS_U(ax);
  int E = (int)(u >> 23) - 150;
  ulong m = (ulong)((u & 0x7fffffu) | 0x800000u);
  /* first window bit: 2/pi bit E-1 (counted from 1), plus the zero word */
  int p0 = __builtin_elementwise_min(__builtin_elementwise_max(E + 30, 0), 134);
  int w = p0 >> 5, s = p0 & 31;
  ulong t0 = (ulong)loom_two_over_pi_bits[w] << 32 | loom_two_over_pi_bits[w + 1];
  ulong t1 = (ulong)loom_two_over_pi_bits[w + 2] << 32 | loom_two_over_pi_bits[w + 3];
  ulong hi = t0 << s | (t1 >> 1) >> (63 - s); /* window bits 0..63 */
  ulong lo = (t1 << s) >> 32;                  /* window bits 64..95 */
  /* m * window mod 2^96: the top two bits are the quadrant, the rest the
   * fraction of x 2/pi */
  ulong plo = m * lo;
  ulong phi = m * hi + (plo >> 32);
  uint q = (uint)(phi >> 62);
  /* round to the nearest quadrant: a fraction >= 1/2 becomes negative */
  long f = (long)(phi << 2);
  q += (uint)((ulong)f >> 63);
  double r = (double)f * 0x1.921fb54442d18p-64; /* fraction * pi/2 */
  bool small = ax < 0x1.921fb6p-1f;
  *quadrant = small ? 0u : q & 3u;
  return small ? (double)ax : r;
}

/* |x| below this: reduced in float (below); above, and infinities and NaNs:
 * the exact reduction above, out of line */
#define FAST_TRIG_LIMIT 0x1p15f

/* |x| = r + q pi/2 for |x| < FAST_TRIG_LIMIT: q = rint(|x| 2/pi) and pi/2 in
 * three floats (72 bits; the rest is below 2^-76), each step one FMA. q has at
 * most 15 bits and the first constant 24, so q times it is exact and the
 * first step loses nothing; the error left, below q 2^-74, stays far below an
 * ulp of r even for the floats closest to a multiple of pi/2. */
static float reduce_fast(float ax, __private uint *quadrant) {
  float q = __builtin_elementwise_rint(ax * 0x1.45f306p-1f);
  float r = __builtin_fmaf(-q, 0x1.921fb6p+0f, ax);
  r = __builtin_fmaf(-q, -0x1.777a5cp-25f, r);
  r = __builtin_fmaf(-q, -0x1.ee59dap-50f, r);
  *quadrant = (uint)(int)q;
  return r;
}

/* minimax polynomials for sin and cos on [-pi/4, pi/4] in float (Cephes'
 * coefficients), within 1 ulp */
static float sin_polyf(float r) {
  float z = r * r;
  float p = __builtin_fmaf(-0x1.9943f2p-13f, z, 0x1.11073cp-7f);
  p = __builtin_fmaf(p, z, -0x1.555546p-3f);
  return __builtin_fmaf(p * z, r, r);
}
static float cos_polyf(float r) {
  float z = r * r;
  float p = __builtin_fmaf(0x1.99eb9cp-16f, z, -0x1.6c0c34p-10f);
  p = __builtin_fmaf(p, z, 0x1.55554ap-5f);
  return __builtin_fmaf(p * z, z, __builtin_fmaf(-0.5f, z, 1.0f));
}

/* the exact reduction and double polynomials: huge arguments, infinities
 * and NaNs (out of line: src/compiler/frontend/link.c) */
static float sin_exact(float x) {
  float ax = __builtin_fabsf(x);
  uint q;
  double r = reduce_pi_2(ax, &q);
  double s = sin_poly(r), c = cos_poly(r);
  double v = (q & 1u) ? c : s;
  v = (q & 2u) ? -v : v;
  float res = with_sign_of((float)v, x);
  return ax == INFF || x != x ? QNANF : res;
}

static float cos_exact(float x) {
  float ax = __builtin_fabsf(x);
  uint q;
  double r = reduce_pi_2(ax, &q);
  double s = sin_poly(r), c = cos_poly(r);
  double v = (q & 1u) ? -s : c;
  v = (q & 2u) ? -v : v;
  return ax == INFF || x != x ? QNANF : (float)v;
}

static float tan_exact(float x) {
  float ax = __builtin_fabsf(x);
  uint q;
  double r = reduce_pi_2(ax, &q);
  double s = sin_poly(r), c = cos_poly(r);
  /* tan(r + pi/2) = -cos r / sin r; r is never 0 there (no nonzero float is
   * a multiple of pi/2) */
  double v = (q & 1u) ? -c / s : s / c;
  float res = with_sign_of((float)v, x);
  return ax == INFF || x != x ? QNANF : res;
}

__attribute__((const, noinline)) float __loom_cold_sinf(float x) { return sin_exact(x); }
__attribute__((const, noinline)) float __loom_cold_cosf(float x) { return cos_exact(x); }
__attribute__((const, noinline)) float __loom_cold_tanf(float x) { return tan_exact(x); }

/* sin r and cos r of |x| = r + q pi/2 (fast path; returns |x|) */
static float sin_cos_fast(float x, __private float *s, __private float *c, __private uint *q) {
  float ax = __builtin_fabsf(x);
  float r = reduce_fast(ax, q);
  *s = sin_polyf(r);
  *c = cos_polyf(r);
  return ax;
}

float OVL sin(float x) {
  float s, c;
  uint q;
  float ax = sin_cos_fast(x, &s, &c, &q);
  float v = (q & 1u) ? c : s;
  v = with_sign_of((q & 2u) ? -v : v, x);
  if (!(ax < FAST_TRIG_LIMIT))
    v = __loom_cold_sinf(x);
  return v;
}

float OVL cos(float x) {
  float s, c;
  uint q;
  float ax = sin_cos_fast(x, &s, &c, &q);
  float v = (q & 1u) ? -s : c;
  v = (q & 2u) ? -v : v;
  if (!(ax < FAST_TRIG_LIMIT))
    v = __loom_cold_cosf(x);
  return v;
}

float OVL tan(float x) {
  float s, c;
  uint q;
  float ax = sin_cos_fast(x, &s, &c, &q);
  float v = with_sign_of((q & 1u) ? -c / s : s / c, x);
  if (!(ax < FAST_TRIG_LIMIT))
    v = __loom_cold_tanf(x);
  return v;
}

LM_WIDTHS(LM_V1, float, exp) LM_WIDTHS(LM_V1, float, exp2)
LM_WIDTHS(LM_V1, float, exp10) LM_WIDTHS(LM_V1, float, log)
LM_WIDTHS(LM_V1, float, log2) LM_WIDTHS(LM_V1, float, log10)
LM_WIDTHS(LM_V2, float, pow)

/* sin, cos and tan on floatN: the exact reduction and double polynomials,
 * branch-free, per component. (The float fast path with its branch to the
 * out-of-line path per component left float4 sin's work-item loop scalar:
 * 1150 -> 620 Melem/s.) */
#define TRIG_V(N, f)                                                           \
  float##N OVL f(float##N x) {                                                 \
    float##N r;                                                                \
    LM_FOR(N) LM_E(float, r, i) = f##_exact(LM_E(float, x, i));                \
    return r;                                                                  \
  }
LM_WIDTHS(TRIG_V, sin) LM_WIDTHS(TRIG_V, cos) LM_WIDTHS(TRIG_V, tan)
