/* sinpi, cospi, tanpi (OpenCL C 2.0 6.13.2). The argument is reduced exactly
 * (x - 2*floor(x/2) is exact in binary floating point) to [0, 1/4] so the
 * multiplication by pi costs well under an ulp, and the exact zeros and
 * infinities of section 2.5.1 come out of the reduction. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* ax mod 2 for ax >= 0, exactly */
static double mod2(double ax) { return ax - 2.0 * __builtin_floor(ax * 0.5); }

/* sin(pi r) for r in [0, 1/2] */
static double sinpi_half(double r) {
  return r <= 0.25 ? __builtin_sin(M_PI * r) : __builtin_cos(M_PI * (0.5 - r));
}

double OVL sinpi(double x) {
  if (__builtin_isinf(x) || !(x == x))
    return x - x;
  double r = mod2(__builtin_fabs(x)), s = x < 0.0 ? -1.0 : 1.0;
  if (r >= 1.0) { /* sin(pi (r + 1)) = -sin(pi r) */
    r -= 1.0;
    s = -s;
  }
  if (r > 0.5) /* sin(pi (1 - r)) = sin(pi r) */
    r = 1.0 - r;
  double v = sinpi_half(r);
  return v == 0.0 ? __builtin_copysign(0.0, x) : s * v;
}

double OVL cospi(double x) {
  if (__builtin_isinf(x) || !(x == x))
    return x - x;
  double r = mod2(__builtin_fabs(x)), s = 1.0;
  if (r >= 1.0) { /* cos(pi (r + 1)) = -cos(pi r) */
    r -= 1.0;
    s = -s;
  }
  if (r > 0.5) { /* cos(pi (1 - r)) = -cos(pi r) */
    r = 1.0 - r;
    s = -s;
  }
  /* cos(pi r) = sin(pi (1/2 - r)) */
  double v = sinpi_half(0.5 - r);
  return v == 0.0 ? 0.0 : s * v;
}

double OVL tanpi(double x) {
  if (__builtin_isinf(x) || !(x == x))
    return x - x;
  double ax = __builtin_fabs(x), k = __builtin_floor(ax), r = ax - k;
  bool odd = mod2(k) != 0.0;
  double s = 1.0;
  if (r > 0.5) { /* tan(pi (1 - r)) = -tan(pi r) */
    r = 1.0 - r;
    s = -1.0;
  }
  double v = r <= 0.25 ? __builtin_tan(M_PI * r) : 1.0 / __builtin_tan(M_PI * (0.5 - r));
  v *= s;
  /* the prescribed signs of the zeros and poles at odd integers */
  if (odd && (v == 0.0 || __builtin_isinf(v)))
    v = -v;
  return __builtin_signbit(x) ? -v : v; /* tanpi(-0) is -0 */
}

/* the float forms: math_float_pi.cl */
LM_WIDTHS(LM_V1, double, sinpi)
LM_WIDTHS(LM_V1, double, cospi)
LM_WIDTHS(LM_V1, double, tanpi)
