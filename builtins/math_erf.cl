/* erf and erfc (OpenCL C 2.0 6.13.2), branch-free so that work-item loops
 * calling them vectorise; the float forms are the double ones rounded once.
 *
 * |x| < 1: erf x = x P(x^2), P a degree-11 Chebyshev fit of erf(x)/x
 * (relative error below 1e-17), and erfc = 1 - erf below 1/2; from 1/2 to
 * 1, erfc is a degree-16 fit in x - 3/4 (no cancellation).
 * |x| >= 1: erfc |x| = e^(-x^2) h(t) t with t = 1/|x| and
 * h(t) = |x| erfc(|x|) e^(x^2), which is smooth in t and fitted by degree-16
 * polynomials in t - t0 on three intervals of |x| ([1, 2], [2, 4], [4, 28];
 * relative error below 2e-17). x^2 is a double-double, so e^(-x^2) is
 * within about 1 ulp (exp_dd). erf = 1 - erfc there, and negative arguments
 * use erf(-x) = -erf(x), erfc(-x) = 2 - erfc(x). Results stay within a few
 * ulp (the spec allows 16). The coefficients were computed with 50-digit
 * arithmetic. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_double_core.h"

/* erf(x)/x in x^2 on [0, 1], highest degree first */
static __constant double loom_erf_small[12] = {
    -0x1.ac9585a44fe29p-31, 0x1.d76af6ca49787p-27, -0x1.5c131500d3f88p-23,
    0x1.b981d78881a5dp-20, -0x1.f4ca838adb73bp-17, 0x1.f9a2be4f731a1p-14,
    -0x1.c02db0665e53dp-11, 0x1.565bccfa44156p-8, -0x1.b82ce31203772p-6,
    0x1.ce2f21a040f66p-4, -0x1.812746b0379c1p-2, 0x1.20dd750429b6dp+0};

/* erfc x in x - 3/4 on [1/2, 1], highest degree first */
static __constant double loom_erfc_mid[17] = {
    0x1.a7193065fc0adp-19, -0x1.d7ffd42669fc7p-18, -0x1.72e5460f1fdfcp-16,
    0x1.3da3aa8b39720p-14, 0x1.bd5e3d6412ec9p-14, -0x1.47258ee63c8d3p-11,
    -0x1.86234be8136b4p-13, 0x1.04105cb849879p-8, -0x1.2db332fac173ep-9,
    -0x1.2e0afb0b94bdap-6, 0x1.b8477966b37dcp-6, 0x1.b42a1890ce127p-5,
    -0x1.349b5eaa14599p-3, -0x1.b6e8591f66e55p-6, 0x1.edc5644353c27p-2,
    -0x1.492e42d78d2c5p-1, 0x1.27c6d14c5e341p-2};
/* h(t) in t - t0, highest degree first, for |x| in [1, 2], [2, 4], [4, 28] */
static __constant double loom_erfc_h1[17] = {
    -0x1.576031f09b757p-7, 0x1.54881ea06d150p-7, -0x1.4b9fbddfa19fep-8,
    0x1.0a66e8528c820p-13, 0x1.710cf7364ae1cp-8, -0x1.7b40e9e348d42p-7,
    0x1.0268ac151f361p-6, -0x1.09e0de086bad7p-6, 0x1.6cac0ff3cbc3dp-7,
    0x1.2607f992be38cp-11, -0x1.28d3f1d754427p-6, 0x1.34bef96fed859p-5,
    -0x1.9d6a514f48565p-5, 0x1.4a14f6e4b4ba9p-5, 0x1.3cfedc0bfe592p-6,
    -0x1.5a4720afb6ecep-3, 0x1.df6a7891d7325p-2};
static __constant double loom_erfc_h2[17] = {
    0x1.ab28d1883204cp+1, -0x1.d41f3365dbf53p+1, 0x1.070dfa7478a3fp+1,
    -0x1.b5ba254587393p-2, -0x1.11faef84d0906p-1, 0x1.8fe92354f9ea9p-1,
    -0x1.1c334ecb4f394p-1, 0x1.5cbe2ad839183p-3, 0x1.16c3e0e0491c6p-3,
    -0x1.05d22809a4d22p-2, 0x1.91e7801c228b4p-3, -0x1.35b947fc42d7ep-5,
    -0x1.dc4a70137b076p-4, 0x1.6b0b80c994884p-3, -0x1.78feec12540f9p-4,
    -0x1.367279608aefep-3, 0x1.0fcced7e1e7c8p-1};
static __constant double loom_erfc_h3[17] = {
    0x1.3ce2c32998d01p+9, -0x1.acb1558e3396ap+7, -0x1.f96b1724df054p+5,
    0x1.0ea30d727efe4p+6, -0x1.e2fbb465de725p+3, -0x1.183fda3e1be9ep+3,
    0x1.e14bb18a6ca6ep+2, -0x1.06d6e1afe71e5p+0, -0x1.b22842a815b78p+0,
    0x1.170af647a856dp+0, 0x1.9b1e89d4161cfp-4, -0x1.f1c5ad0acd60ep-2,
    0x1.7845f64fe308dp-3, 0x1.860168b700c52p-3, -0x1.e3936d8aeb00cp-3,
    -0x1.3755762eff9bbp-4, 0x1.1e00de79e0d7bp-1};

/* erfc |x| for 1/2 <= |x| (0 beyond 28, where erfc is below the
 * subnormals) */
static double erfc_pos(double ax) {
  double a = __builtin_elementwise_min(ax, 28.0);
  double t = 1.0 / a;
  int i = a < 1.0 ? 0 : a < 2.0 ? 1 : a < 4.0 ? 2 : 3;
  double tau = i == 0 ? a - 0.75 : t - (i == 1 ? 0.75 : i == 2 ? 0.375 : 0x1.2492492492492p-3);
  double h = 0.0;
#pragma unroll
  for (int j = 0; j < 17; j++)
    h = FMA(h, tau,
            i == 0   ? loom_erfc_mid[j]
            : i == 1 ? loom_erfc_h1[j]
            : i == 2 ? loom_erfc_h2[j]
                     : loom_erfc_h3[j]);
  double s = a * a, s_lo = FMA(a, a, -s);
  double tail = exp_dd(-s, -s_lo) * (h * t);
  return i == 0 ? h : tail;
}

/* erf x for |x| < 1 */
static double erf_small(double x) {
  double z = x * x, p = 0.0;
#pragma unroll
  for (int j = 0; j < 12; j++)
    p = FMA(p, z, loom_erf_small[j]);
  return x * p;
}

double OVL erf(double x) {
  double ax = __builtin_fabs(x);
  double big = __builtin_copysign(1.0 - erfc_pos(ax), x);
  double r = ax < 1.0 ? erf_small(x) : big;
  return x != x ? x : r;
}

double OVL erfc(double x) {
  double ax = __builtin_fabs(x);
  double pos = erfc_pos(ax);
  double r = ax < 0.5 ? 1.0 - erf_small(x) : x < 0.0 ? 2.0 - pos : pos;
  return x != x ? x : r;
}

float OVL erf(float x) { return (float)erf((double)x); }
float OVL erfc(float x) { return (float)erfc((double)x); }

LM_ALL1(erf)
LM_ALL1(erfc)
