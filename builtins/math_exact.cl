/* The exactly specified math functions (OpenCL C 2.0 6.13.2: 0 ulp or
 * correctly rounded): fdim, maxmag, minmag, nan, nextafter, ilogb, logb,
 * ldexp, frexp, modf, fract (fmod, remainder and remquo: math_float_rem.cl,
 * math_double_rem.cl). Mostly bit manipulation of the IEEE encoding;
 * subnormals are handled exactly. */
#include "loom_builtins.h"
#include "math_map.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* S: the float type, U/I: unsigned/signed integers of its width, MB: mantissa
 * bits, BIAS: exponent bias, DEN: 2^(MB+2) (scales any subnormal to normal),
 * LDEN: log2 of DEN, ONEM: the largest value below 1 */
#define EXACT(S, U, I, MB, BIAS, DEN, LDEN, ONEM)                              \
  S OVL fdim(S x, S y) {                                                       \
    if (!(x == x) || !(y == y))                                                \
      return x + y;                                                            \
    return x > y ? x - y : (S)0;                                               \
  }                                                                            \
  S OVL maxmag(S x, S y) {                                                     \
    S ax = __builtin_fabs(x), ay = __builtin_fabs(y);                          \
    if (ax > ay) return x;                                                     \
    if (ay > ax) return y;                                                     \
    if (!(x == x)) return y;                                                   \
    if (!(y == y)) return x;                                                   \
    return __builtin_signbit(x) ? y : x;                                       \
  }                                                                            \
  S OVL minmag(S x, S y) {                                                     \
    S ax = __builtin_fabs(x), ay = __builtin_fabs(y);                          \
    if (ax < ay) return x;                                                     \
    if (ay < ax) return y;                                                     \
    if (!(x == x)) return y;                                                   \
    if (!(y == y)) return x;                                                   \
    return __builtin_signbit(x) ? x : y;                                       \
  }                                                                            \
  S OVL nan(U code) {                                                          \
    U quiet = (U)1 << (MB - 1), exp = ((U)2 * BIAS + 1) << MB;                 \
    return __builtin_astype(exp | quiet | (code & (quiet - 1)), S);            \
  }                                                                            \
  S OVL nextafter(S x, S y) {                                                  \
    if (!(x == x) || !(y == y))                                                \
      return x + y;                                                            \
    if (x == y)                                                                \
      return y;                                                                \
    if (x == (S)0)                                                             \
      return __builtin_copysign(__builtin_astype((U)1, S), y);                 \
    I b = __builtin_astype(x, I);                                              \
    b += ((x < y) == (x > (S)0)) ? 1 : -1;                                     \
    return __builtin_astype(b, S);                                             \
  }                                                                            \
  int OVL ilogb(S x) {                                                         \
    U b = __builtin_astype(x, U) & ~((U)1 << (sizeof(U) * 8 - 1));            \
    int e = (int)(b >> MB);                                                    \
    if (e == 2 * BIAS + 1)                                                     \
      return (b << (sizeof(U) * 8 - MB)) ? FP_ILOGBNAN : INT_MAX;              \
    if (e == 0) {                                                              \
      if (b == 0)                                                              \
        return FP_ILOGB0;                                                      \
      return (int)(sizeof(U) * 8 - 1) - (int)(sizeof(U) == 4 ? __builtin_clz((uint)b) : __builtin_clzl((ulong)b)) -    \
             (BIAS - 1 + MB);                                                  \
    }                                                                          \
    return e - BIAS;                                                           \
  }                                                                            \
  S OVL logb(S x) {                                                            \
    if (!(x == x))                                                             \
      return x;                                                                \
    if (__builtin_isinf(x))                                                    \
      return __builtin_fabs(x);                                                \
    if (x == (S)0)                                                             \
      return -__builtin_inf();                                                 \
    return (S)ilogb(x);                                                        \
  }                                                                            \
  S OVL frexp(S x, __private int *e) {                                         \
    if (x == (S)0 || !(x == x) || __builtin_isinf(x)) {                        \
      *e = 0;                                                                  \
      return x;                                                                \
    }                                                                          \
    int adj = 0;                                                               \
    U b = __builtin_astype(x, U);                                              \
    if (((b >> MB) & (U)(2 * BIAS + 1)) == 0) {                                \
      x *= (S)DEN;                                                             \
      adj = LDEN;                                                              \
      b = __builtin_astype(x, U);                                              \
    }                                                                          \
    *e = (int)((b >> MB) & (U)(2 * BIAS + 1)) - (BIAS - 1) - adj;              \
    b = (b & ~((U)(2 * BIAS + 1) << MB)) | ((U)(BIAS - 1) << MB);              \
    return __builtin_astype(b, S);                                             \
  }                                                                            \
  S OVL modf(S x, __private S *ip) {                                           \
    S t = __builtin_elementwise_trunc(x);                                      \
    *ip = t;                                                                   \
    return __builtin_copysign(__builtin_isinf(x) ? (S)0 : x - t, x);           \
  }                                                                            \
  S OVL fract(S x, __private S *ip) {                                          \
    S fl = __builtin_elementwise_floor(x);                                     \
    *ip = fl;                                                                  \
    if (!(x == x) || x == (S)0)                                                \
      return x;                                                                \
    if (__builtin_isinf(x))                                                    \
      return __builtin_copysign((S)0, x);                                      \
    return __builtin_elementwise_min(x - fl, (S)ONEM);                         \
  }
EXACT(float, uint, int, 23, 127, 0x1p25f, 25, 0x1.fffffep-1f)
EXACT(double, ulong, long, 52, 1023, 0x1p54, 54, 0x1.fffffffffffffp-1)

/* 2^j for j in [-1074, 1023], subnormal powers included */
static double pow2d(int j) {
  return j >= -1022 ? __builtin_astype((ulong)(j + 1023) << 52, double)
                    : __builtin_astype(1UL << (j + 1074), double);
}

/* x * 2^k rounded once: intermediate products are exact, only the last one
 * may round (to a subnormal, zero or infinity) */
double OVL ldexp(double x, int k) {
  if (x == 0.0 || !(x == x) || __builtin_isinf(x) || k == 0)
    return x;
  k = k < -2200 ? -2200 : k > 2200 ? 2200 : k;
  if (k > 0) {
    int a = k < 1000 ? k : 1000, b = k - a < 1000 ? k - a : 1000;
    return x * pow2d(a) * pow2d(b) * pow2d(k - a - b);
  }
  if (__builtin_fabs(x) < 0x1p-1022) {
    x *= 0x1p54;
    k -= 54;
  }
  int ex = (int)((__builtin_astype(x, ulong) >> 52) & 0x7ff) - 1023, j = ex + k;
  if (j >= -1022) {
    int a = k > -1022 ? k : -1022;
    return x * pow2d(a) * pow2d(k - a);
  }
  if (j < -1075)
    return __builtin_copysign(0.0, x);
  double m = x * pow2d(-ex); /* |m| in [1, 2) */
  return j == -1075 ? (m * 0.5) * pow2d(-1074) : m * pow2d(j);
}
/* float: exact in double over the clamped range, then rounded once */
float OVL ldexp(float x, int k) {
  k = k < -400 ? -400 : k > 400 ? 400 : k;
  return (float)((double)x * pow2d(k));
}

LM_ALL2(fdim)
LM_ALL2(maxmag)
LM_ALL2(minmag)
LM_ALL2(nextafter)
/* the scalar forms: math_float_rem.cl and math_double_rem.cl */
float OVL remquo(float x, float y, __private int *quo);
double OVL remquo(double x, double y, __private int *quo);
float OVL remainder(float x, float y);
double OVL remainder(double x, double y);
LM_ALL2(remainder)
LM_ALL1(logb)
LM_ALLIV(ilogb)
LM_ALLVI(ldexp)

/* ldexp(floatn, int) */
#define LDEXP_SI(N, S, unused)                                                 \
  S##N OVL ldexp(S##N x, int k) { return ldexp(x, (int##N)k); }
LM_WIDTHS(LDEXP_SI, float, _)
LM_WIDTHS(LDEXP_SI, double, _)

#define NAN_V(N, S, U)                                                         \
  S##N OVL nan(U##N c) {                                                       \
    S##N r;                                                                    \
    LM_FOR(N) LM_E(S, r, i) = nan(LM_E(U, c, i));                           \
    return r;                                                                  \
  }
LM_WIDTHS(NAN_V, float, uint)
LM_WIDTHS(NAN_V, double, ulong)

/* the pointer-output functions in every address space */
#define PTR_FORMS(S, AS)                                                       \
  LM_SP(S, fract, AS, S) LM_SP(S, modf, AS, S) LM_SP(S, frexp, AS, int)         \
  LM_SSP(S, remquo, AS, int)
LM_OTHER_AS(PTR_FORMS, float)
LM_OTHER_AS(PTR_FORMS, double)
#define PTR_VFORMS(S, AS)                                                      \
  LM_WIDTHS(LM_VP, S, fract, AS) LM_WIDTHS(LM_VP, S, modf, AS)                  \
  LM_WIDTHS(LM_VPI, S, frexp, AS) LM_WIDTHS(LM_VVPI, S, remquo, AS)
LM_ALL_AS(PTR_VFORMS, float)
LM_ALL_AS(PTR_VFORMS, double)
