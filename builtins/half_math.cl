/* Math functions for half (cl_khr_fp16; OpenCL C 2.0 6.13.2 with the half
 * ULP table of the extension). Each is the float function on the exactly
 * widened arguments, rounded once to half (half_util.h): the exact functions
 * stay exact (their float results are halves, or round correctly), + - * /
 * and sqrt are correctly rounded, and the others are within the float
 * function's error plus half an ulp of half, well inside the 2-4 ulp the
 * extension allows. The edge cases of section 2.5.1 carry over from float.
 * Special: fma (correctly rounded through double), fract (clamped below 1
 * in half), nextafter and nan (bit patterns of half). The half_ and native_
 * functions have no half forms (the extension does not list them). */
#include "half_util.h"

/* the float functions the forms below call (a definition of a builtin name
 * hides Clang's own declarations of it) */
#define DECL1(N, f) float##N OVL f(float##N x);
#define DECL2(N, f) float##N OVL f(float##N x, float##N y);
#define DECLI(N, f) float##N OVL f(float##N x, int##N k);

/* V f(V) */
#define HM1(N, f)                                                              \
  DECL1(N, f)                                                                  \
  half##N OVL f(half##N x) { return F2H(N, f(H2F(N, x))); }
/* V f(V, V) */
#define HM2(N, f)                                                              \
  DECL2(N, f)                                                                  \
  half##N OVL f(half##N x, half##N y) {                                       \
    return F2H(N, f(H2F(N, x), H2F(N, y)));                                    \
  }
/* V f(V, intN) */
#define HMI(N, f)                                                              \
  DECLI(N, f)                                                                  \
  half##N OVL f(half##N x, int##N k) { return F2H(N, f(H2F(N, x), k)); }
/* intN f(V) */
#define HIM(N, f)                                                              \
  int##N OVL f(float##N x);                                                    \
  int##N OVL f(half##N x) { return f(H2F(N, x)); }

/* every width: scalar, 2, 3, 4, 8, 16 */
#define HW(M, f)                                                               \
  M(, f) M(2, f) M(3, f) M(4, f) M(8, f) M(16, f)

HW(HM1, acos) HW(HM1, acosh) HW(HM1, acospi) HW(HM1, asin) HW(HM1, asinh)
HW(HM1, asinpi) HW(HM1, atan) HW(HM1, atanh) HW(HM1, atanpi) HW(HM1, cbrt)
HW(HM1, ceil) HW(HM1, cos) HW(HM1, cosh) HW(HM1, cospi) HW(HM1, erfc)
HW(HM1, erf) HW(HM1, exp) HW(HM1, exp2) HW(HM1, exp10) HW(HM1, expm1)
HW(HM1, floor) HW(HM1, lgamma) HW(HM1, log) HW(HM1, log2)
HW(HM1, log10) HW(HM1, log1p) HW(HM1, logb) HW(HM1, rint) HW(HM1, round)
HW(HM1, rsqrt) HW(HM1, sin) HW(HM1, sinh) HW(HM1, sinpi) HW(HM1, sqrt)
HW(HM1, tan) HW(HM1, tanh) HW(HM1, tanpi) HW(HM1, tgamma) HW(HM1, trunc)

HW(HM2, atan2) HW(HM2, atan2pi) HW(HM2, fdim) HW(HM2, fmax)
HW(HM2, fmin) HW(HM2, fmod) HW(HM2, hypot) HW(HM2, maxmag) HW(HM2, minmag)
HW(HM2, pow) HW(HM2, powr) HW(HM2, remainder)

/* ldexp is exact in float for every half and |k| <= 400 (the float version
 * clamps k), so rounding to half is the only rounding */
HW(HMI, ldexp) HW(HMI, pown) HW(HMI, rootn)
HW(HIM, ilogb)

/* fabs and copysign only touch the sign bit (kept as bit operations by the
 * compiler, src/compiler/target/x86/half_lower.c) */
#define HSIGN(N, unused)                                                       \
  half##N OVL fabs(half##N x) { return __builtin_elementwise_abs(x); }         \
  half##N OVL copysign(half##N x, half##N y) {                                 \
    return __builtin_elementwise_copysign(x, y);                               \
  }
HW(HSIGN, _)

/* the vector forms whose second argument is a scalar */
#define HVS(N, f, S)                                                           \
  half##N OVL f(half##N x, S y) { return f(x, (S##N)y); }
#define HVS_ALL(f, S)                                                          \
  HVS(2, f, S) HVS(3, f, S) HVS(4, f, S) HVS(8, f, S) HVS(16, f, S)
HVS_ALL(fmax, half)
HVS_ALL(fmin, half)
HVS_ALL(ldexp, int)

/* mad: llvm.fma on half. With AVX-512 FP16 that is one VFMADD*PH on 32
 * lanes (correctly rounded, which the spec allows for mad); elsewhere x86
 * computes it in float: the product is exact there, so it is one rounding in
 * float and one to half. */
#define HMAD(N, unused)                                                        \
  half##N OVL mad(half##N a, half##N b, half##N c) {                           \
    return __builtin_elementwise_fma(a, b, c);                                 \
  }
HW(HMAD, _)

/* fma, correctly rounded: the product of two halves is exact in double and
 * the sum p + c is rounded to double with its exact error e (TwoSum); when
 * e != 0 the sum is rounded to odd instead (the neighbour with an odd last
 * bit), whose 53 bits leave the final rounding to half (through a float,
 * also rounded to odd) correct. */
#define HFMA(N, unused)                                                        \
  half##N OVL fma(half##N a, half##N b, half##N c) {                           \
    double##N p = H2D(N, a) * H2D(N, b), cd = H2D(N, c);                       \
    double##N s = p + cd;                                                      \
    double##N bb = s - p;                                                      \
    double##N e = (p - (s - bb)) + (cd - bb);                                  \
    long##N bits = __builtin_astype(s, long##N);                               \
    /* e has the sign of the exact value minus s: toward it is +1 on the      \
     * magnitude when e and s have the same sign */                            \
    long##N inexact = MASKS(N, e != (double##N)0, long) &                      \
                      MASKS(N, s == s, long) &                                 \
                      MASKS(N, __builtin_elementwise_abs(s) !=                 \
                                   (double##N)INFINITY, long);                 \
    long##N even = MASKS(N, (bits & 1) == 0, long);                            \
    long##N away = MASKS(N, (e > (double##N)0) == (s > (double##N)0), long);   \
    bits += inexact & even & (away ? (long##N)1 : (long##N)-1);                \
    return loom_h_from_double(__builtin_astype(bits, double##N));              \
  }
HW(HFMA, _)

/* nextafter: one step of the bit pattern; zero steps to the smallest
 * subnormal of y's sign */
#define HNEXTAFTER(N, unused)                                                  \
  half##N OVL nextafter(half##N x, half##N y) {                                \
    short##N b = __builtin_astype(x, short##N);                                \
    short##N up = MASKS(N, (x < y) == (x > (half##N)0), short);                \
    short##N nb = (short##N)(b + (up ? (short##N)1 : (short##N)-1));           \
    half##N r = __builtin_astype(nb, half##N);                                 \
    half##N tiny = __builtin_elementwise_copysign(                             \
        __builtin_astype((short##N)1, half##N), y);                            \
    r = MASK(N, x == (half##N)0, short) ? tiny : r;                            \
    r = MASK(N, x == y, short) ? y : r;                                        \
    return MASK(N, (x != x) | (y != y), short) ? x + y : r;                    \
  }
HW(HNEXTAFTER, _)

/* nan: a quiet NaN carrying the low bits of the code */
#define HNAN(N, unused)                                                        \
  half##N OVL nan(ushort##N code) {                                            \
    ushort##N b = (ushort##N)((code & (ushort)0x1ff) | (ushort)0x7e00);        \
    return __builtin_astype(b, half##N);                                       \
  }
HW(HNAN, _)

/* ---- functions with a pointer argument, in every address space ---- */

/* fract, modf, sincos: V f(V, AS V *); the float results are halves except
 * fract's, which is clamped first to the largest half below 1 */
#define HPTR_V(N, AS)                                                          \
  half##N OVL fract(half##N x, AS half##N *ip) {                               \
    float##N q;                                                                \
    float##N r = fract(H2F(N, x), &q);                                         \
    *ip = F2H(N, q);                                                           \
    /* NaN stays NaN */                                                       \
    return F2H(N, MASK(N, r > (float##N)0x1.ffcp-1f, int) ? (float##N)0x1.ffcp-1f \
                                                          : r);                \
  }                                                                            \
  half##N OVL modf(half##N x, AS half##N *ip) {                                \
    float##N q;                                                                \
    float##N r = modf(H2F(N, x), &q);                                          \
    *ip = F2H(N, q);                                                           \
    return F2H(N, r);                                                          \
  }                                                                            \
  half##N OVL sincos(half##N x, AS half##N *c) {                               \
    float##N xf = H2F(N, x);                                                   \
    *c = F2H(N, cos(xf));                                                      \
    return F2H(N, sin(xf));                                                    \
  }                                                                            \
  half##N OVL frexp(half##N x, AS int##N *e) {                                 \
    int##N q;                                                                  \
    float##N r = frexp(H2F(N, x), &q);                                         \
    *e = q;                                                                    \
    return F2H(N, r);                                                          \
  }                                                                            \
  half##N OVL lgamma_r(half##N x, AS int##N *s) {                              \
    int##N q;                                                                  \
    float##N r = lgamma_r(H2F(N, x), &q);                                      \
    *s = q;                                                                    \
    return F2H(N, r);                                                          \
  }                                                                            \
  half##N OVL remquo(half##N x, half##N y, AS int##N *quo) {                   \
    int##N q;                                                                  \
    float##N r = remquo(H2F(N, x), H2F(N, y), &q);                             \
    *quo = q;                                                                  \
    return F2H(N, r);                                                          \
  }
/* the private float forms they call */
#define HPTR_DECL(N, unused)                                                   \
  float##N OVL fract(float##N x, __private float##N *ip);                      \
  float##N OVL modf(float##N x, __private float##N *ip);                       \
  float##N OVL frexp(float##N x, __private int##N *e);                         \
  float##N OVL lgamma_r(float##N x, __private int##N *s);                      \
  float##N OVL remquo(float##N x, float##N y, __private int##N *quo);
HW(HPTR_DECL, _)
HW(DECL1, cos) HW(DECL1, sin)
#define HPTR_AS(N, unused)                                                     \
  HPTR_V(N, __private) HPTR_V(N, __global) HPTR_V(N, __local)                  \
  HPTR_V(N, __generic)
HW(HPTR_AS, _)
