/* Relational functions (OpenCL C 2.0, 1.13.6).
 *
 * Scalar versions return int 0/1 and vector versions a -1/0 mask of the
 * signed integer type of the argument's element size: exactly what the C
 * comparison operators give scalars and OpenCL vectors, so one expression
 * serves both. The classification functions test the bits rather than
 * compare floats, so they stay right whatever fast-math flags the calling
 * kernel is built with. */
#include "loom_builtins.h"
#include "loom_cvt.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define AS(x, T) __builtin_astype((x), T)

/* F: float or double, R: the result type at width N, I: the signed integer
 * type of F's size, EXP: the exponent mask, MINN: the smallest normal's bits;
 * MAG is the magnitude's bits (the sign cleared) */
#define MAG(x, I, N) (AS(x, I##N) & (I##N)(I)LOOM_MAX_##I)
#define FP_RELATIONAL(F, R, I, EXP, MINN, N)                                   \
  R OVL isequal(F##N x, F##N y) { return x == y; }                             \
  R OVL isnotequal(F##N x, F##N y) { return x != y; }                          \
  R OVL isgreater(F##N x, F##N y) { return x > y; }                            \
  R OVL isgreaterequal(F##N x, F##N y) { return x >= y; }                      \
  R OVL isless(F##N x, F##N y) { return x < y; }                               \
  R OVL islessequal(F##N x, F##N y) { return x <= y; }                         \
  R OVL islessgreater(F##N x, F##N y) { return (x < y) | (x > y); }            \
  R OVL isordered(F##N x, F##N y) { return (x == x) & (y == y); }              \
  R OVL isunordered(F##N x, F##N y) { return (x != x) | (y != y); }            \
  R OVL isfinite(F##N x) { return MAG(x, I, N) < (I)EXP; }                     \
  R OVL isinf(F##N x) { return MAG(x, I, N) == (I)EXP; }                       \
  R OVL isnan(F##N x) { return MAG(x, I, N) > (I)EXP; }                        \
  R OVL isnormal(F##N x) {                                                     \
    I##N m = MAG(x, I, N);                                                     \
    return (m >= (I)MINN) & (m < (I)EXP);                                      \
  }                                                                            \
  R OVL signbit(F##N x) { return AS(x, I##N) < (I)0; }

#define FP_REL_F(unused, N) FP_RELATIONAL(float, int##N, int, 0x7f800000, 0x00800000, N)
#define FP_REL_D(unused, N)                                                    \
  FP_RELATIONAL(double, long##N, long, 0x7ff0000000000000L, 0x0010000000000000L, N)
FP_RELATIONAL(float, int, int, 0x7f800000, 0x00800000, )
FP_RELATIONAL(double, int, long, 0x7ff0000000000000L, 0x0010000000000000L, )
LOOM_VWIDTHS(FP_REL_F, 0)
LOOM_VWIDTHS(FP_REL_D, 0)
/* half (cl_khr_fp16): vector results are shortn */
#define FP_REL_H(unused, N) FP_RELATIONAL(half, short##N, short, 0x7c00, 0x0400, N)
FP_RELATIONAL(half, int, short, 0x7c00, 0x0400, )
LOOM_VWIDTHS(FP_REL_H, 0)

/* any/all: the most significant bit of any/every component */
#define ANY_ALL_S(T)                                                           \
  int OVL any(T x) { return x < 0; }                                           \
  int OVL all(T x) { return x < 0; }
#define ANY_ALL_V(T, N)                                                        \
  int OVL any(T##N x) { return __builtin_reduce_or(x) < 0; }                   \
  int OVL all(T##N x) { return __builtin_reduce_and(x) < 0; }
ANY_ALL_S(char) ANY_ALL_S(short) ANY_ALL_S(int) ANY_ALL_S(long)
LOOM_VWIDTHS(ANY_ALL_V, char)
LOOM_VWIDTHS(ANY_ALL_V, short)
LOOM_VWIDTHS(ANY_ALL_V, int)
LOOM_VWIDTHS(ANY_ALL_V, long)

/* bitselect: bits of b where c is 1, of a where it is 0. select: b where
 * the selector is true (scalars: nonzero; vectors: most significant bit
 * set), a elsewhere. T: the type, I/U: the signed/unsigned integer types of
 * its size. */
#define BITSELECT(T, I, N)                                                     \
  T##N OVL bitselect(T##N a, T##N b, T##N c) {                                 \
    I##N m = AS(c, I##N);                                                      \
    return AS((I##N)((AS(a, I##N) & ~m) | (AS(b, I##N) & m)), T##N);           \
  }
#define SELECT_S(T, I, U)                                                      \
  T OVL select(T a, T b, I c) { return c ? b : a; }                            \
  T OVL select(T a, T b, U c) { return c ? b : a; }
#define SELECT_V(T, I, U, N)                                                   \
  T##N OVL select(T##N a, T##N b, I##N c) { return c < (I)0 ? b : a; }         \
  T##N OVL select(T##N a, T##N b, U##N c) { return AS(c, I##N) < (I)0 ? b : a; }
#define SEL_ALL(T, I, U)                                                       \
  LOOM_WIDTHS(BITSELECT, T, I) SELECT_S(T, I, U) LOOM_VWIDTHS(SELECT_V, T, I, U)
SEL_ALL(char, char, uchar)
SEL_ALL(uchar, char, uchar)
SEL_ALL(short, short, ushort)
SEL_ALL(ushort, short, ushort)
SEL_ALL(int, int, uint)
SEL_ALL(uint, int, uint)
SEL_ALL(long, long, ulong)
SEL_ALL(ulong, long, ulong)
SEL_ALL(float, int, uint)
SEL_ALL(double, long, ulong)
SEL_ALL(half, short, ushort)
