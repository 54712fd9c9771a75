/* Host references for math builtins the C library lacks, in long double,
 * with OpenCL C's special cases (section 2.5.1): sinpi, cospi, tanpi, powr,
 * rootn. Shared by the math, half and vectorisation tests. */
#ifndef LOOM_TEST_MATH_REF_H
#define LOOM_TEST_MATH_REF_H
#include <math.h>

static inline long double sinpi_ref(long double x) {
  long double r = fmodl(x, 2.0L);
  if (r == floorl(r))
    return copysignl(0.0L, x);
  return sinl(M_PIl * r);
}
static inline long double cospi_ref(long double x) {
  long double r = fabsl(fmodl(x, 2.0L));
  if (r - floorl(r) == 0.5L)
    return 0.0L;
  return cosl(M_PIl * r);
}
static inline long double tanpi_ref(long double x) {
  long double ax = fabsl(x), k = floorl(ax), r = ax - k, v;
  int odd = fmodl(k, 2.0L) != 0;
  if (r == 0.0L)
    v = odd ? -0.0L : 0.0L;
  else if (r == 0.5L)
    v = odd ? -INFINITY : INFINITY;
  else
    v = tanl(M_PIl * r);
  return signbit(x) ? -v : v; /* tanpi(+-0) is +-0 */
}
static inline long double powr_ref(long double x, long double y) {
  if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) ||
      (x == 1 && isinf(y)))
    return NAN;
  return powl(fabsl(x), y); /* powr(-0, y) is +0 or +inf */
}
static inline long double rootn_ref(long double x, int n) {
  if (n == 0 || (x < 0 && !(n & 1)))
    return NAN;
  if (x == 0)
    return n > 0 ? ((n & 1) ? x : 0.0L) : ((n & 1) ? copysignl(INFINITY, x) : INFINITY);
  long double r = powl(fabsl(x), 1.0L / n);
  return x < 0 ? -r : r;
}

#endif
