/* Miscellaneous vector functions (OpenCL C 1.13.12): shuffle and shuffle2.
 * Only the low ilogb(m) bits (shuffle) or ilogb(2m) bits (shuffle2) of each
 * mask component count.
 * Every result component is chosen by a chain of compares and selects over
 * the inputs' components: branch-free, so the work-group compiler can still
 * run work-items in SIMD lanes (a variable vector index would not). */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define SHUFFLE(T, U, M, N)                                                    \
  T##N OVL shuffle(T##M x, U##N mask) {                                        \
    U##N idx = mask & (U##N)(M - 1);                                           \
    T##N r = (T##N)(x[0]);                                                     \
    for (int j = 1; j < M; j++)                                                \
      r = idx == (U##N)j ? (T##N)(x[j]) : r;                                   \
    return r;                                                                  \
  }                                                                            \
  T##N OVL shuffle2(T##M x, T##M y, U##N mask) {                               \
    U##N idx = mask & (U##N)(2 * M - 1);                                       \
    T##N r = (T##N)(x[0]);                                                     \
    for (int j = 1; j < M; j++)                                                \
      r = idx == (U##N)j ? (T##N)(x[j]) : r;                                   \
    for (int j = 0; j < M; j++)                                                \
      r = idx == (U##N)(M + j) ? (T##N)(y[j]) : r;                             \
    return r;                                                                  \
  }
#define SHUFFLE_N(T, U, M)                                                     \
  SHUFFLE(T, U, M, 2) SHUFFLE(T, U, M, 4) SHUFFLE(T, U, M, 8)                  \
  SHUFFLE(T, U, M, 16)
#define SHUFFLE_ALL(T, U)                                                      \
  SHUFFLE_N(T, U, 2) SHUFFLE_N(T, U, 4) SHUFFLE_N(T, U, 8) SHUFFLE_N(T, U, 16)

SHUFFLE_ALL(char, uchar) SHUFFLE_ALL(uchar, uchar)
SHUFFLE_ALL(short, ushort) SHUFFLE_ALL(ushort, ushort)
SHUFFLE_ALL(int, uint) SHUFFLE_ALL(uint, uint) SHUFFLE_ALL(float, uint)
SHUFFLE_ALL(long, ulong) SHUFFLE_ALL(ulong, ulong) SHUFFLE_ALL(double, ulong)
SHUFFLE_ALL(half, ushort)
