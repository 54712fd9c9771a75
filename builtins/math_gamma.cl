/* tgamma, lgamma and lgamma_r (OpenCL C 2.0 6.13.2), branch-free.
 *
 * Both rest on Stirling's series, ln G(z) = (z - 1/2) ln z - z + ln(2 pi)/2
 * + sum B_2k / (2k (2k - 1) z^(2k-1)), evaluated in double-double for
 * z >= 10, where ten terms leave a truncation error below 2^-62:
 * - x >= 10: z = x;
 * - -10 < x < 10: z = x + n >= 10 (n <= 20, z held exactly as a
 *   double-double) and G(x) = G(z) / (x (x+1) ... (x+n-1)), the product
 *   formed in double-double too;
 * - x <= -10: the reflection G(x) = -pi / (x sinpi(x) G(-x)), with z = -x,
 *   in logarithms so that results near the underflow threshold stay exact
 *   to rounding.
 * tgamma takes e^ of the double-double logarithm (math_double_core.h), about
 * 2 ulp in all (the limit is 16). lgamma has no accuracy requirement; it
 * takes the Taylor series at its zeros 1 and 2 near them, which keeps the
 * relative error small there too. The float forms round the double result. */
#include "loom_builtins.h"
#include "math_double_core.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

double OVL sinpi(double x);

/* (ln(2 pi) - 1) / 2 */
#define STIRLING_C_HI 0x1.acfe390c97d69p-2
#define STIRLING_C_LO 0x1.3494bc9001442p-56
#define LN_PI_HI 0x1.250d048e7a1bdp+0
#define LN_PI_LO 0x1.7abf2ad8d5088p-57

/* ln G(z) for z = zh + zl >= 10 (zl tiny), as hi + *lo, in the form
 * (z - 1/2)(ln z - 1) + (ln(2 pi) - 1)/2 + series, whose product overflows
 * only where ln G(z) does */
static double stirling(double zh, double zl, __private double *lo) {
  double ll, l = log_dd(zh, &ll);
  double l1l, l1 = two_sum(l, -1.0, &l1l);
  l1l += ll + zl / zh;
  double a = zh - 0.5; /* exact below 2^52; relatively negligible above */
  double p = a * l1;
  double pl = FMA(a, l1, -p) + FMA(a, l1l, zl * l1);
  double e2, t = two_sum(p, STIRLING_C_HI, &e2);
  double w = 1.0 / zh, w2 = w * w;
  double c = -0x1.6476701181f3ap+0;
  c = FMA(c, w2, 0x1.6fe96381e0680p-3);
  c = FMA(c, w2, -0x1.e4286cb0f5398p-6);
  c = FMA(c, w2, 0x1.a41a41a41a41ap-8);
  c = FMA(c, w2, -0x1.f6ab0d9993c7dp-10);
  c = FMA(c, w2, 0x1.b951e2b18ff23p-11);
  c = FMA(c, w2, -0x1.3813813813814p-11);
  c = FMA(c, w2, 0x1.a01a01a01a01ap-11);
  c = FMA(c, w2, -0x1.6c16c16c16c17p-9);
  c = FMA(c, w2, 0x1.5555555555555p-4);
  double e = e2 + (pl + STIRLING_C_LO + c * w);
  double r = t + e;
  *lo = e - (r - t);
  return p == __builtin_inf() ? p : r;
}

/* (h, l) * (fh, fl), renormalised */
static double dd_mul(double h, double l, double fh, double fl, __private double *lo) {
  double p = h * fh;
  double e = FMA(h, fh, -p) + FMA(h, fl, l * fh);
  double r = p + e;
  *lo = e - (r - p);
  return r;
}

/* the pieces every x needs: *z (held as zh + *zl) for Stirling's series,
 * and for -10 < x < 10 the product (x+1) ... (x+n-1) as *ph + *pl */
struct gamma_parts {
  double zh, zl; /* the argument of Stirling's series */
  double ph, pl; /* (x+1) ... (x+n-1), 1 outside (-10, 10) */
  bool shifted;  /* -10 < x < 10 */
  bool reflected; /* x <= -10 */
};

static struct gamma_parts gamma_parts(double x) {
  struct gamma_parts g;
  g.shifted = x > -10.0 && x < 10.0;
  g.reflected = x <= -10.0;
  double n = g.shifted ? __builtin_elementwise_ceil(10.0 - x) : 0.0;
  g.zh = two_sum(x, n, &g.zl);
  g.zh = g.reflected ? -x : g.zh;
  g.zl = g.reflected ? 0.0 : g.zl;
  g.ph = 1.0, g.pl = 0.0;
#pragma unroll /* no loop left: the work-item loop stays innermost */
  for (int i = 1; i < 20; i++) {
    double fl, fh = two_sum(x, (double)i, &fl);
    bool use = (double)i < n;
    double ph = dd_mul(g.ph, g.pl, use ? fh : 1.0, use ? fl : 0.0, &g.pl);
    g.ph = ph;
  }
  return g;
}

/* ln |x sinpi(x)| for the reflection, as hi + *lo */
static double ln_x_sinpi(double x, double s, __private double *lo) {
  double p = x * s, pe = FMA(x, s, -p);
  double l = log_dd(__builtin_fabs(p), lo);
  *lo += pe / p;
  return l;
}

/* x NaN, +-infinity, zero or a negative integer. The first three as one
 * integer test: as floating-point tests InstCombine merges them into
 * llvm.is.fpclass, which LLVM 19's loop vectoriser cannot widen. */
static bool gamma_special(double x) {
  ulong a = AS_UL(x) & 0x7fffffffffffffffUL;
  return a - 1 >= 0x7ff0000000000000UL - 1 || (x < 0.0 && x == __builtin_elementwise_floor(x));
}

double OVL tgamma(double x) {
  struct gamma_parts g = gamma_parts(x);
  double ll, l = stirling(g.zh, g.zl, &ll);
  double s = sinpi(x);
  double rl, rh = ln_x_sinpi(x, s, &rl);
  /* reflected: ln |G(x)| = ln pi - ln |x sinpi(x)| - ln G(-x) */
  double e1, h = two_sum(LN_PI_HI, -rh, &e1);
  double e2, h2 = two_sum(h, -l, &e2);
  double refl = exp_dd(h2, e1 + e2 + (LN_PI_LO - rl - ll));
  refl = s > 0.0 ? refl : -refl; /* the sign of G(x) is that of sinpi(x) there */
  double gz = exp_dd(l, ll);
  /* shifted: G(z) / ((x+1) ... (x+n-1)) / x */
  double q = gz / g.ph;
  q = FMA(-q, g.pl / g.ph, q) / x;
  double r = g.reflected ? refl : g.shifted ? q : gz;
  double special = x == 0.0 ? __builtin_copysign(__builtin_inf(), x)
                   : x == __builtin_inf() ? x : __builtin_nan("");
  return gamma_special(x) ? (x != x ? x : special) : r;
}

/* ln |G(1 + t)| and ln |G(2 + t)|: their Taylor series (the zeta function's
 * values), for |t| <= 0.15 and |t| <= 0.25 */
static double lgamma_near_1(double t) {
  double p = 0x1.555556aaafdcdp-5;
  p = FMA(p, t, -0x1.642c88591b66dp-5);
  p = FMA(p, t, 0x1.745d1d1778df9p-5);
  p = FMA(p, t, -0x1.86186db77bfbfp-5);
  p = FMA(p, t, 0x1.9999b3352d5bap-5);
  p = FMA(p, t, -0x1.af28a1b5688a0p-5);
  p = FMA(p, t, 0x1.c71ce3a20b419p-5);
  p = FMA(p, t, -0x1.e1e2d311e8abdp-5);
  p = FMA(p, t, 0x1.00010064cdeb2p-4);
  p = FMA(p, t, -0x1.11133476e7fe0p-4);
  p = FMA(p, t, 0x1.2496df8320c5fp-4);
  p = FMA(p, t, -0x1.3b1d971fc5985p-4);
  p = FMA(p, t, 0x1.556ad63243bc4p-4);
  p = FMA(p, t, -0x1.748c33114c6d6p-4);
  p = FMA(p, t, 0x1.9a01e385d5f8fp-4);
  p = FMA(p, t, -0x1.c806706d57db4p-4);
  p = FMA(p, t, 0x1.010b36af86397p-3);
  p = FMA(p, t, -0x1.2703a1dcea3aep-3);
  p = FMA(p, t, 0x1.5b40cb100c306p-3);
  p = FMA(p, t, -0x1.a8b9c17aa6149p-3);
  p = FMA(p, t, 0x1.151322ac7d848p-2);
  p = FMA(p, t, -0x1.9a4d55beab2d7p-2);
  p = FMA(p, t, 0x1.a51a6625307d3p-1);
  p = FMA(p, t, -0x1.2788cfc6fb619p-1);
  return FMA(p, t, 0.0); /* +0 at t = 0 */
}
static double lgamma_near_2(double t) {
  double p = 0x1.7469daccfadcdp-27;
  p = FMA(p, t, -0x1.862c734df3eacp-26);
  p = FMA(p, t, 0x1.99b93c2070b0fp-25);
  p = FMA(p, t, -0x1.af5a6cbbf8a97p-24);
  p = FMA(p, t, 0x1.c76bbb3f07a4dp-23);
  p = FMA(p, t, -0x1.e2600d93cfd2fp-22);
  p = FMA(p, t, 0x1.0064cdeb22f0fp-20);
  p = FMA(p, t, -0x1.11b2eb7679541p-19);
  p = FMA(p, t, 0x1.2597a39f34aacp-18);
  p = FMA(p, t, -0x1.3cbc963ce2243p-17);
  p = FMA(p, t, 0x1.580dcee66eb02p-16);
  p = FMA(p, t, -0x1.78de5bd7c81efp-15);
  p = FMA(p, t, 0x1.a127b0f17d65ap-14);
  p = FMA(p, t, -0x1.d3fd4c76d2fc8p-13);
  p = FMA(p, t, 0x1.0b36af86396e9p-11);
  p = FMA(p, t, -0x1.38ac5c2bf8e08p-10);
  p = FMA(p, t, 0x1.7add6eadb6c30p-9);
  p = FMA(p, t, -0x1.e404fc218f5f2p-8);
  p = FMA(p, t, 0x1.51322ac7d8483p-6);
  p = FMA(p, t, -0x1.13e001a557607p-4);
  p = FMA(p, t, 0x1.4a34cc4a60fa6p-2);
  p = FMA(p, t, 0x1.b0ee6072093cep-2);
  return p * t;
}

static double lgamma_d(double x) {
  struct gamma_parts g = gamma_parts(x);
  double ll, l = stirling(g.zh, g.zl, &ll);
  double ax = __builtin_fabs(x);
  /* shifted: ln G(z) - ln |x| - ln |(x+1) ... (x+n-1)| */
  double xl, lx = log_dd(ax, &xl);
  double pl, lp = log_dd(__builtin_fabs(g.ph), &pl);
  pl += g.pl / g.ph;
  double e1, h = two_sum(l, -lx, &e1);
  double e2, h2 = two_sum(h, -lp, &e2);
  double shifted = h2 + (e1 + e2 + (ll - xl - pl));
  /* reflected: ln pi - ln |x sinpi(x)| - ln G(-x) */
  double rl, rh = ln_x_sinpi(x, sinpi(x), &rl);
  double e3, r = two_sum(LN_PI_HI, -rh, &e3);
  double e4, r2 = two_sum(r, -l, &e4);
  double refl = r2 + (e3 + e4 + (LN_PI_LO - rl - ll));
  double res = g.reflected ? refl : g.shifted ? shifted : l;
  res = ax < 0x1p-60 ? -lx : res; /* G(x) = 1/x - 0.577... */
  res = __builtin_fabs(x - 1.0) <= 0.15 ? lgamma_near_1(x - 1.0) : res;
  res = __builtin_fabs(x - 2.0) <= 0.25 ? lgamma_near_2(x - 2.0) : res;
  return gamma_special(x) ? (x != x ? x : __builtin_inf()) : res;
}

double OVL lgamma(double x) { return lgamma_d(x); }

/* The sign of G(x); 0 where x is zero or a negative integer (a pole) */
static int gamma_sign(double x) {
  bool pole = x == 0.0 || (x < 0.0 && x == __builtin_elementwise_floor(x) && !__builtin_isinf(x));
  /* a negative non-integer: the sign of sinpi(x), from floor(x)'s parity
   * (|x| < 2^52 here, so floor(x) / 2 is exact) */
  double f = __builtin_elementwise_floor(x);
  bool odd = f * 0.5 != __builtin_elementwise_floor(f * 0.5);
  int s = x < 0.0 && !__builtin_isinf(x) && odd ? -1 : 1;
  return pole ? 0 : s;
}

double OVL lgamma_r(double x, __private int *signp) {
  *signp = gamma_sign(x);
  return lgamma_d(x);
}

float OVL tgamma(float x) { return (float)tgamma((double)x); }
float OVL lgamma(float x) { return (float)lgamma_d((double)x); }
float OVL lgamma_r(float x, __private int *signp) {
  *signp = gamma_sign((double)x);
  return (float)lgamma_d((double)x);
}

LM_ALL1(tgamma)
LM_ALL1(lgamma)

/* lgamma_r for the other address spaces and the vector widths */
#define LGR_S(S, AS) LM_SP(S, lgamma_r, AS, int)
LM_OTHER_AS(LGR_S, float)
LM_OTHER_AS(LGR_S, double)
#define LGR_V(S, AS) LM_WIDTHS(LM_VPI, S, lgamma_r, AS)
LM_ALL_AS(LGR_V, float)
LM_ALL_AS(LGR_V, double)
