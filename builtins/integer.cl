/* Integer functions (OpenCL C 2.0, 1.13.3) for every integer type and width.
 * abs, min, max, clamp, mul24 and mad24 live in common.cl.
 *
 * Every body is straight-line code on whole vectors (no per-component loops)
 * so that it stays vectorisable; arithmetic that may wrap is done on the
 * unsigned twin of the type, since signed overflow would be undefined. There
 * is no 128-bit type on spir64: 64-bit mul_hi and mad_sat are assembled from
 * 32-bit halves. */
#include "loom_builtins.h"
#include "loom_cvt.h"

#define AS(x, T) __builtin_astype((x), T)
#define EMAX(a, b) __builtin_elementwise_max(a, b)
#define EMIN(a, b) __builtin_elementwise_min(a, b)

/* Scalar arguments of the elementwise builtins undergo the integer
 * promotions, which would saturate chars and shorts at the int range: scalars
 * go through a two-component vector instead (LLVM folds it back). */
#define SATOP(N, T, op, x, y) SATOP_##N(T, op, x, y)
#define SATOP_(T, op, x, y) __builtin_elementwise_##op((T##2)(x), (T##2)(y)).s0
#define SATOP_V(T, op, x, y) __builtin_elementwise_##op(x, y)
#define SATOP_2 SATOP_V
#define SATOP_3 SATOP_V
#define SATOP_4 SATOP_V
#define SATOP_8 SATOP_V
#define SATOP_16 SATOP_V

/* T: the type, U: its unsigned twin, B: its bits, N: the width suffix */
#define INT_COMMON(T, U, B, N)                                                 \
  U##N OVL abs_diff(T##N x, T##N y) {                                          \
    T##N hi = EMAX(x, y), lo = EMIN(x, y);                                     \
    return (U##N)(AS(hi, U##N) - AS(lo, U##N));                                \
  }                                                                            \
  T##N OVL add_sat(T##N x, T##N y) { return SATOP(N, T, add_sat, x, y); }      \
  T##N OVL sub_sat(T##N x, T##N y) { return SATOP(N, T, sub_sat, x, y); }      \
  /* floor((x + y) / 2) and floor((x + y + 1) / 2) without a wider type */    \
  T##N OVL hadd(T##N x, T##N y) { return (T##N)((x & y) + ((x ^ y) >> 1)); }  \
  T##N OVL rhadd(T##N x, T##N y) { return (T##N)((x | y) - ((x ^ y) >> 1)); } \
  T##N OVL rotate(T##N v, T##N i) {                                            \
    U##N u = AS(v, U##N);                                                      \
    U##N s = AS(i, U##N) & (U)(B - 1);                                         \
    U##N r = (U##N)((u << s) | (u >> (((U)B - s) & (U)(B - 1))));               \
    return AS(r, T##N);                                                        \
  }                                                                            \
  T##N OVL mad_hi(T##N a, T##N b, T##N c) {                                    \
    return AS((U##N)(AS(mul_hi(a, b), U##N) + AS(c, U##N)), T##N);             \
  }

/* the bit counts: scalars map onto LLVM's ctlz/cttz/ctpop */
#define INT_BITS_SCALAR(T, U, B)                                               \
  T OVL clz(T x) { return (T)__builtin_clzg((U)x, B); }                        \
  T OVL ctz(T x) { return (T)__builtin_ctzg((U)x, B); }                        \
  T OVL popcount(T x) { return (T)__builtin_popcountg((U)x); }

/* vectors: the SWAR population count, which LLVM recognises as ctpop of the
 * whole vector; clz is B minus the population count once the leading one has
 * been smeared into every lower bit, ctz the population count of the zeros
 * below the trailing one (all B bits for 0). Shift amounts are reduced
 * modulo B so that one sequence serves every size (the surplus steps then
 * shift by 0 and change nothing). */
#define SWAR_POPCOUNT(U, B, u)                                                 \
  u = u - ((u >> 1) & (U)(~0UL / 3));                                          \
  u = (u & (U)(~0UL / 5)) + ((u >> 2) & (U)(~0UL / 5));                        \
  u = (u + (u >> 4)) & (U)(~0UL / 17);                                         \
  u = (u * (U)(~0UL / 255)) >> (B - 8);
#define INT_BITS_VECTOR(T, U, B, N)                                            \
  T##N OVL popcount(T##N x) {                                                  \
    U##N u = AS(x, U##N);                                                      \
    SWAR_POPCOUNT(U, B, u)                                                     \
    return AS(u, T##N);                                                        \
  }                                                                            \
  T##N OVL clz(T##N x) {                                                       \
    U##N u = AS(x, U##N);                                                      \
    u |= u >> 1;                                                               \
    u |= u >> 2;                                                               \
    u |= u >> 4;                                                               \
    u |= u >> (8 & (B - 1));                                                   \
    u |= u >> (16 & (B - 1));                                                  \
    u |= u >> (32 & (B - 1));                                                  \
    SWAR_POPCOUNT(U, B, u)                                                     \
    return AS((U##N)((U)B - u), T##N);                                         \
  }                                                                            \
  T##N OVL ctz(T##N x) {                                                       \
    U##N u = AS(x, U##N);                                                      \
    u = ~u & (u - (U)1);                                                       \
    SWAR_POPCOUNT(U, B, u)                                                     \
    return AS(u, T##N);                                                        \
  }

/* mul_hi and mad_sat of 8-, 16- and 32-bit types through the type W of
 * twice the size and the same signedness */
#define INT_WIDE(T, W, N)                                                      \
  T##N OVL mul_hi(T##N x, T##N y) {                                            \
    W##N p = (W##N)(CVT(N, x, W##N) * CVT(N, y, W##N));                        \
    return CVT(N, p >> (8 * sizeof(T)), T##N);                                 \
  }                                                                            \
  T##N OVL mad_sat(T##N a, T##N b, T##N c) {                                   \
    W##N p = (W##N)(CVT(N, a, W##N) * CVT(N, b, W##N) + CVT(N, c, W##N));      \
    p = EMIN(EMAX(p, (W##N)(W)LOOM_MIN_##T), (W##N)(W)LOOM_MAX_##T);           \
    return CVT(N, p, T##N);                                                    \
  }

/* 64 bits: the 128-bit product from four 32x32->64 partial products */
#define INT_64(unused, N)                                                      \
  ulong##N OVL mul_hi(ulong##N a, ulong##N b) {                                \
    ulong##N al = a & 0xffffffffUL, ah = a >> 32;                              \
    ulong##N bl = b & 0xffffffffUL, bh = b >> 32;                              \
    ulong##N ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;           \
    ulong##N mid = (ll >> 32) + (lh & 0xffffffffUL) + (hl & 0xffffffffUL);     \
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);                         \
  }                                                                            \
  /* signed high half = unsigned high half - (a < 0 ? b : 0) - (b < 0 ? a : 0) */ \
  long##N OVL mul_hi(long##N a, long##N b) {                                   \
    ulong##N ua = AS(a, ulong##N), ub = AS(b, ulong##N);                       \
    ulong##N h = mul_hi(ua, ub) - (AS(a >> 63, ulong##N) & ub) -               \
                 (AS(b >> 63, ulong##N) & ua);                                 \
    return AS(h, long##N);                                                     \
  }                                                                            \
  ulong##N OVL mad_sat(ulong##N a, ulong##N b, ulong##N c) {                   \
    ulong##N lo = a * b, s = lo + c;                                           \
    return ((mul_hi(a, b) != 0) | (s < lo)) ? (ulong##N)ULONG_MAX : s;         \
  }                                                                            \
  long##N OVL mad_sat(long##N a, long##N b, long##N c) {                       \
    ulong##N lo = AS(a, ulong##N) * AS(b, ulong##N), uc = AS(c, ulong##N);     \
    ulong##N s = lo + uc;                                                      \
    ulong##N carry = ((lo & uc) | ((lo | uc) & ~s)) >> 63;                     \
    /* the exact sum as a 128-bit (hi, s) pair; it fits in 64 bits when hi   \
     * is the sign extension of s */                                           \
    long##N hi = AS(AS(mul_hi(a, b), ulong##N) + AS(c >> 63, ulong##N) + carry, \
                    long##N);                                                  \
    long##N r = AS(s, long##N);                                                \
    long##N sat = hi < 0 ? (long##N)LONG_MIN : (long##N)LONG_MAX;              \
    return hi == (r >> 63) ? r : sat;                                          \
  }

#define INT_ALL(T, U, W, B, N) INT_WIDE(T, W, N) INT_COMMON(T, U, B, N)
#define INT_ALL64(T, U, B, N) INT_COMMON(T, U, B, N)

LOOM_WIDTHS(INT_64, 0)
LOOM_WIDTHS(INT_ALL, char, uchar, short, 8)
LOOM_WIDTHS(INT_ALL, uchar, uchar, ushort, 8)
LOOM_WIDTHS(INT_ALL, short, ushort, int, 16)
LOOM_WIDTHS(INT_ALL, ushort, ushort, uint, 16)
LOOM_WIDTHS(INT_ALL, int, uint, long, 32)
LOOM_WIDTHS(INT_ALL, uint, uint, ulong, 32)
LOOM_WIDTHS(INT_ALL64, long, ulong, 64)
LOOM_WIDTHS(INT_ALL64, ulong, ulong, 64)

INT_BITS_SCALAR(char, uchar, 8)
INT_BITS_SCALAR(uchar, uchar, 8)
INT_BITS_SCALAR(short, ushort, 16)
INT_BITS_SCALAR(ushort, ushort, 16)
INT_BITS_SCALAR(int, uint, 32)
INT_BITS_SCALAR(uint, uint, 32)
INT_BITS_SCALAR(long, ulong, 64)
INT_BITS_SCALAR(ulong, ulong, 64)
LOOM_VWIDTHS(INT_BITS_VECTOR, char, uchar, 8)
LOOM_VWIDTHS(INT_BITS_VECTOR, uchar, uchar, 8)
LOOM_VWIDTHS(INT_BITS_VECTOR, short, ushort, 16)
LOOM_VWIDTHS(INT_BITS_VECTOR, ushort, ushort, 16)
LOOM_VWIDTHS(INT_BITS_VECTOR, int, uint, 32)
LOOM_VWIDTHS(INT_BITS_VECTOR, uint, uint, 32)
LOOM_VWIDTHS(INT_BITS_VECTOR, long, ulong, 64)
LOOM_VWIDTHS(INT_BITS_VECTOR, ulong, ulong, 64)

/* upsample: hi in the upper half, lo in the lower half of the wider type */
#define UPSAMPLE(H, L, W, UW, B, N)                                            \
  W##N OVL upsample(H##N hi, L##N lo) {                                        \
    UW##N u = (UW##N)((CVT(N, CVT(N, hi, W##N), UW##N) << B) | CVT(N, lo, UW##N)); \
    return AS(u, W##N);                                                        \
  }
LOOM_WIDTHS(UPSAMPLE, char, uchar, short, ushort, 8)
LOOM_WIDTHS(UPSAMPLE, uchar, uchar, ushort, ushort, 8)
LOOM_WIDTHS(UPSAMPLE, short, ushort, int, uint, 16)
LOOM_WIDTHS(UPSAMPLE, ushort, ushort, uint, uint, 16)
LOOM_WIDTHS(UPSAMPLE, int, uint, long, ulong, 32)
LOOM_WIDTHS(UPSAMPLE, uint, uint, ulong, ulong, 32)
