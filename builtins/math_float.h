/* Declarations of the functions whose float forms are defined in
 * math_float*.cl (double forms elsewhere), for the files that build the
 * native_, half_ and other variants on them: a file that declares an
 * overload itself no longer gets clang's implicit declarations of the rest. */
#ifndef LOOM_MATH_FLOAT_H
#define LOOM_MATH_FLOAT_H

#define LOOM_MF_DECL1(T, f) T OVL f(T x);
#define LOOM_MF_DECL2(T, f) T OVL f(T x, T y);
#define LOOM_MF_ALL(M, f)                                                      \
  M(float, f) M(float2, f) M(float3, f) M(float4, f) M(float8, f)             \
  M(float16, f) M(double, f) M(double2, f) M(double3, f) M(double4, f)         \
  M(double8, f) M(double16, f)

LOOM_MF_ALL(LOOM_MF_DECL1, exp)
LOOM_MF_ALL(LOOM_MF_DECL1, exp2)
LOOM_MF_ALL(LOOM_MF_DECL1, exp10)
LOOM_MF_ALL(LOOM_MF_DECL1, log)
LOOM_MF_ALL(LOOM_MF_DECL1, log2)
LOOM_MF_ALL(LOOM_MF_DECL1, log10)
LOOM_MF_ALL(LOOM_MF_DECL1, sin)
LOOM_MF_ALL(LOOM_MF_DECL1, cos)
LOOM_MF_ALL(LOOM_MF_DECL1, tan)
LOOM_MF_ALL(LOOM_MF_DECL2, pow)
LOOM_MF_ALL(LOOM_MF_DECL1, expm1)
LOOM_MF_ALL(LOOM_MF_DECL1, log1p)
LOOM_MF_ALL(LOOM_MF_DECL1, sinh)
LOOM_MF_ALL(LOOM_MF_DECL1, cosh)
LOOM_MF_ALL(LOOM_MF_DECL1, tanh)
LOOM_MF_ALL(LOOM_MF_DECL1, atan)
LOOM_MF_ALL(LOOM_MF_DECL1, asin)
LOOM_MF_ALL(LOOM_MF_DECL1, acos)
LOOM_MF_ALL(LOOM_MF_DECL1, sinpi)
LOOM_MF_ALL(LOOM_MF_DECL1, cospi)
LOOM_MF_ALL(LOOM_MF_DECL1, tanpi)
LOOM_MF_ALL(LOOM_MF_DECL1, atanpi)
LOOM_MF_ALL(LOOM_MF_DECL1, asinpi)
LOOM_MF_ALL(LOOM_MF_DECL1, acospi)
LOOM_MF_ALL(LOOM_MF_DECL2, atan2pi)
LOOM_MF_ALL(LOOM_MF_DECL2, atan2)
LOOM_MF_ALL(LOOM_MF_DECL2, hypot)
LOOM_MF_ALL(LOOM_MF_DECL1, cbrt)

#endif
