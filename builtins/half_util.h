/* Helpers for the cl_khr_fp16 builtins (half_*.cl).
 *
 * Half values are computed in float (or double) and rounded once to half.
 * float -> half is one hardware conversion (round to nearest even); every
 * half is exact in float. Rounding a float result to half is a second
 * rounding, harmless for + - * / sqrt of halves (float has more than
 * 2 * 11 + 2 bits) and within a few hundredths of an ulp for functions whose
 * float result is within an ulp of float; double -> half goes through a float
 * rounded to odd, which rounds once overall (see h_from_double). */
#ifndef LOOM_HALF_UTIL_H
#define LOOM_HALF_UTIL_H
#include "loom_builtins.h"
#include "loom_cvt.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* halfN <-> floatN (N empty for scalars) */
#define H2F(N, x) CVT(N, x, float##N)
#define F2H(N, x) CVT(N, x, half##N)
#define H2D(N, x) CVT(N, x, double##N)

/* the largest half below 1 (fract) */
#define HALF_ONEM 0x1.ffcp-1h

/* The float nearest to x rounded to odd: x itself when it is a float,
 * otherwise whichever float neighbour of x has an odd significand. A float
 * has 24 bits, at least 2 more than half's 11, so rounding the result to
 * half in any mode rounds x itself correctly (no double rounding); values
 * beyond the float range become +-FLT_MAX or +-inf, which round the same as
 * x. NaN stays NaN. */
#define RTO_FLOAT(unused, N)                                                   \
  static INLINE OVL float##N loom_rto_float(double##N x) {                     \
    float##N f = CVT(N, x, float##N);                                          \
    double##N b = CVT(N, f, double##N);                                        \
    int##N bits = __builtin_astype(f, int##N);                                 \
    int##N inexact = MASKS(N, b != x, int) & MASKS(N, x == x, int);            \
    int##N even = MASKS(N, (bits & 1) == 0, int);                              \
    /* toward zero (-1 on the magnitude) when |f| > |x|, else away (+1) */     \
    int##N down = MASKS(N, __builtin_elementwise_abs(b) >                      \
                               __builtin_elementwise_abs(x), int);             \
    bits += inexact & even & (down | 1);                                       \
    return __builtin_astype(bits, float##N);                                   \
  }
LOOM_WIDTHS(RTO_FLOAT, _)

/* double -> half, correctly rounded to nearest even */
#define H_FROM_DOUBLE(unused, N)                                               \
  static INLINE OVL half##N loom_h_from_double(double##N x) {                  \
    return F2H(N, loom_rto_float(x));                                          \
  }
LOOM_WIDTHS(H_FROM_DOUBLE, _)

#endif
