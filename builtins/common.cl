/* Common and integer functions (OpenCL C 1.13.3-1.13.4): clamp, mix,
 * degrees/radians, min/max, abs, mad24. step, smoothstep and sign are in
 * common_step.cl; geometric functions in geometric.cl. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define ALLW(M, S) M(S) M(S##2) M(S##3) M(S##4) M(S##8) M(S##16)

#define FCOMMON(T)                                                             \
  T OVL clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }               \
  T OVL mix(T x, T y, T a) { return x + (y - x) * a; }                         \
  T OVL degrees(T r) { return r * (T)(180.0 / M_PI); }                         \
  T OVL radians(T d) { return d * (T)(M_PI / 180.0); }
FCOMMON(float)
FCOMMON(double)

#define FCOMMON_V(T, S)                                                        \
  T OVL clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }               \
  T OVL clamp(T x, S lo, S hi) { return fmin(fmax(x, (T)lo), (T)hi); }         \
  T OVL mix(T x, T y, T a) { return x + (y - x) * a; }                         \
  T OVL mix(T x, T y, S a) { return x + (y - x) * a; }                         \
  T OVL degrees(T r) { return r * (S)(180.0 / M_PI); }                         \
  T OVL radians(T d) { return d * (S)(M_PI / 180.0); }
#define FCOMMON_VS(S)                                                          \
  FCOMMON_V(S##2, S) FCOMMON_V(S##3, S) FCOMMON_V(S##4, S) FCOMMON_V(S##8, S)  \
  FCOMMON_V(S##16, S)
FCOMMON_VS(float)
FCOMMON_VS(double)

/* integer min/max/clamp/abs for every integer type and width */
#define IMINMAX(T)                                                             \
  T OVL min(T a, T b) { return __builtin_elementwise_min(a, b); }              \
  T OVL max(T a, T b) { return __builtin_elementwise_max(a, b); }              \
  T OVL clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
/* vector with scalar: min(gentype, sgentype) and friends */
#define IMINMAX_VS(V, S)                                                       \
  V OVL min(V a, S b) { return min(a, (V)b); }                                 \
  V OVL max(V a, S b) { return max(a, (V)b); }                                 \
  V OVL clamp(V x, S lo, S hi) { return clamp(x, (V)lo, (V)hi); }
#define IMINMAX_VS_ALL(S)                                                      \
  IMINMAX_VS(S##2, S) IMINMAX_VS(S##3, S) IMINMAX_VS(S##4, S)                  \
  IMINMAX_VS(S##8, S) IMINMAX_VS(S##16, S)
ALLW(IMINMAX, char) ALLW(IMINMAX, uchar) ALLW(IMINMAX, short) ALLW(IMINMAX, ushort)
ALLW(IMINMAX, int) ALLW(IMINMAX, uint) ALLW(IMINMAX, long) ALLW(IMINMAX, ulong)
IMINMAX_VS_ALL(char) IMINMAX_VS_ALL(uchar) IMINMAX_VS_ALL(short) IMINMAX_VS_ALL(ushort)
IMINMAX_VS_ALL(int) IMINMAX_VS_ALL(uint) IMINMAX_VS_ALL(long) IMINMAX_VS_ALL(ulong)
/* min/max of floats are fmin/fmax */
#define FMINMAX(T)                                                             \
  T OVL min(T a, T b) { return fmin(a, b); }                                   \
  T OVL max(T a, T b) { return fmax(a, b); }
ALLW(FMINMAX, float) ALLW(FMINMAX, double)
#define FMINMAX_VS(V, S)                                                       \
  V OVL min(V a, S b) { return __builtin_elementwise_min(a, (V)b); }          \
  V OVL max(V a, S b) { return __builtin_elementwise_max(a, (V)b); }          \
  V OVL fmin(V a, S b) { return __builtin_elementwise_min(a, (V)b); }         \
  V OVL fmax(V a, S b) { return __builtin_elementwise_max(a, (V)b); }
#define FMINMAX_VS_ALL(S)                                                      \
  FMINMAX_VS(S##2, S) FMINMAX_VS(S##3, S) FMINMAX_VS(S##4, S)                  \
  FMINMAX_VS(S##8, S) FMINMAX_VS(S##16, S)
FMINMAX_VS_ALL(float) FMINMAX_VS_ALL(double)

#define IABS(T, U)                                                             \
  U OVL abs(T x) { return __builtin_astype(__builtin_elementwise_abs(x), U); }
#define IABS_U(T) T OVL abs(T x) { return x; }
/* |x| in the unsigned type: -x in T would overflow for the most negative
 * value (undefined in C; LLVM turned it into poison and deleted stores of it),
 * while OpenCL defines abs(INT_MIN) as 2^31 */
#define IABS_S(T, U) U OVL abs(T x) { return x < 0 ? (U)(0u - (U)x) : (U)x; }
#define IABS_ALL(S, US)                                                        \
  IABS_S(S, US) IABS(S##2, US##2) IABS(S##3, US##3) IABS(S##4, US##4)            \
  IABS(S##8, US##8) IABS(S##16, US##16) ALLW(IABS_U, US)
IABS_ALL(char, uchar) IABS_ALL(short, ushort) IABS_ALL(int, uint) IABS_ALL(long, ulong)

/* Outside 24 bits the result is implementation-defined, not undefined: the
 * product wraps (computed unsigned, so that no signed overflow makes it poison) */
#define MAD24(T, U)                                                            \
  T OVL mul24(T a, T b) {                                                      \
    return __builtin_astype(__builtin_astype(a, U) * __builtin_astype(b, U), T); \
  }                                                                            \
  T OVL mad24(T a, T b, T c) {                                                 \
    return __builtin_astype(__builtin_astype(a, U) * __builtin_astype(b, U) +  \
                                __builtin_astype(c, U), T);                    \
  }
#define MAD24_ALL(T, U)                                                        \
  MAD24(T, U) MAD24(T##2, U##2) MAD24(T##3, U##3) MAD24(T##4, U##4)            \
  MAD24(T##8, U##8) MAD24(T##16, U##16)
MAD24_ALL(int, uint) MAD24_ALL(uint, uint)
