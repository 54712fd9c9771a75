/* The exact argument reductions of sinpi, cospi and tanpi, shared by the
 * float forms (math_float_pi.cl) and the double ones (math_double_trig.cl).
 * |x| - 2 floor(|x|/2) is exact in binary floating point, and so are the
 * reflections below, so the prescribed exact zeros and poles (section 2.5.1)
 * fall out of the reduction. Arguments and results are doubles, ax >= 0. */
#ifndef LOOM_MATH_PI_REDUCE_H
#define LOOM_MATH_PI_REDUCE_H

/* ax mod 2, exactly */
static inline double pi_mod2(double ax) { return ax - 2.0 * __builtin_elementwise_floor(ax * 0.5); }

/* r in [0, 1/2] with sin(pi ax) = *s sin(pi r) */
static inline double sinpi_reduce(double ax, __private double *s) {
  double r = pi_mod2(ax);
  bool upper = r >= 1.0; /* sin(pi (r + 1)) = -sin(pi r) */
  r = upper ? r - 1.0 : r;
  *s = upper ? -1.0 : 1.0;
  return r > 0.5 ? 1.0 - r : r; /* sin(pi (1 - r)) = sin(pi r) */
}

/* r in [0, 1/2] with cos(pi ax) = *s cos(pi r) = *s sin(pi (1/2 - r)) */
static inline double cospi_reduce(double ax, __private double *s) {
  double r = pi_mod2(ax);
  bool upper = r >= 1.0; /* cos(pi (r + 1)) = -cos(pi r) */
  r = upper ? r - 1.0 : r;
  bool mirror = r > 0.5; /* cos(pi (1 - r)) = -cos(pi r) */
  *s = upper != mirror ? -1.0 : 1.0;
  return mirror ? 1.0 - r : r;
}

/* r in [0, 1/2] with tan(pi ax) = (*mirror ? -1 : 1) tan(pi r); *odd: the
 * integer part of ax is odd (it decides the signs of zeros and poles) */
static inline double tanpi_reduce(double ax, __private bool *odd, __private bool *mirror) {
  double k = __builtin_elementwise_floor(ax), r = ax - k;
  *odd = pi_mod2(k) != 0.0;
  *mirror = r > 0.5; /* tan(pi (1 - r)) = -tan(pi r) */
  return *mirror ? 1.0 - r : r;
}

#endif
