/* Conversions to integer types (OpenCL C 2.0, 1.2.3): convert_<D><n>[_sat]
 * [_rte|_rtz|_rtp|_rtn] for every integer D from every scalar type.
 *
 * Between integer types the rounding modes change nothing; _sat clamps in
 * the source type to the part of the destination range it can represent.
 * From floating point, the value is first rounded to an integer in the
 * requested mode (truncation by default), then clamped into the range and
 * converted, so no conversion ever sees an out-of-range value (undefined in
 * LLVM). Without _sat the spec leaves out-of-range results to the
 * implementation: they saturate too, and NaN gives the destination minimum.
 * With _sat NaN gives 0. */
#include "loom_builtins.h"
#include "loom_cvt.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define EMAX(a, b) __builtin_elementwise_max(a, b)
#define EMIN(a, b) __builtin_elementwise_min(a, b)

/* integer -> integer */
#define SAT_LO(D, S) (LOOM_MIN_##D > LOOM_MIN_##S ? (S)LOOM_MIN_##D : (S)LOOM_MIN_##S)
#define SAT_HI(D, S) (LOOM_MAX_##D < LOOM_MAX_##S ? (S)LOOM_MAX_##D : (S)LOOM_MAX_##S)
#define I2I(D, S, N, MODE)                                                     \
  D##N OVL convert_##D##N##MODE(S##N x) { return CVT(N, x, D##N); }            \
  D##N OVL convert_##D##N##_sat##MODE(S##N x) {                                \
    return CVT(N, EMIN(EMAX(x, (S##N)SAT_LO(D, S)), (S##N)SAT_HI(D, S)), D##N); \
  }

/* floating point -> integer */
#define F2I_ROUND(x) (x) /* the conversion itself truncates */
#define F2I_ROUND_rtz(x) (x)
#define F2I_ROUND_rte(x) __builtin_elementwise_roundeven(x)
#define F2I_ROUND_rtp(x) __builtin_elementwise_ceil(x)
#define F2I_ROUND_rtn(x) __builtin_elementwise_floor(x)
/* HI_<S>_<D>: the largest S not above D's maximum (D's minimum, 0 or a power
 * of two, is always exact) */
#define HI_float_char 127.0f
#define HI_float_uchar 255.0f
#define HI_float_short 32767.0f
#define HI_float_ushort 65535.0f
#define HI_float_int 0x1.fffffep30f
#define HI_float_uint 0x1.fffffep31f
#define HI_float_long 0x1.fffffep62f
#define HI_float_ulong 0x1.fffffep63f
#define HI_double_char 127.0
#define HI_double_uchar 255.0
#define HI_double_short 32767.0
#define HI_double_ushort 65535.0
#define HI_double_int 2147483647.0
#define HI_double_uint 4294967295.0
#define HI_double_long 0x1.fffffffffffffp62
#define HI_double_ulong 0x1.fffffffffffffp63
/* the clamp as compare-and-select (one max/min instruction each on x86);
 * NaN becomes the minimum */
#define F2I_CLAMPED(D, S, N, y)                                                \
  CVT(N, F2I_MIN(F2I_MAX(y, (S##N)(S)LOOM_MIN_##D), (S##N)HI_##S##_##D), D##N)
#define F2I_MAX(a, b) ((a) > (b) ? (a) : (b))
#define F2I_MIN(a, b) ((a) < (b) ? (a) : (b))
#define F2I(D, S, N, MODE)                                                     \
  D##N OVL convert_##D##N##MODE(S##N x) {                                      \
    S##N y = F2I_ROUND##MODE(x);                                               \
    return F2I_CLAMPED(D, S, N, y);                                            \
  }                                                                            \
  D##N OVL convert_##D##N##_sat##MODE(S##N x) {                                \
    S##N y = F2I_ROUND##MODE(x);                                               \
    y = x != x ? (S##N)0 : y;                                                  \
    D##N r = F2I_CLAMPED(D, S, N, y);                                          \
    /* above HI is above D's maximum, which S may not represent */           \
    return MASK(N, y > (S##N)HI_##S##_##D, LOOM_SI(D)) ? (D##N)LOOM_MAX_##D : r; \
  }

#define I2I_W(D, S, N) LOOM_MODES(I2I, D, S, N)
#define F2I_W(D, S, N) LOOM_MODES(F2I, D, S, N)
#define TO_INT(D)                                                              \
  LOOM_WIDTHS(I2I_W, D, char) LOOM_WIDTHS(I2I_W, D, uchar)                     \
  LOOM_WIDTHS(I2I_W, D, short) LOOM_WIDTHS(I2I_W, D, ushort)                   \
  LOOM_WIDTHS(I2I_W, D, int) LOOM_WIDTHS(I2I_W, D, uint)                       \
  LOOM_WIDTHS(I2I_W, D, long) LOOM_WIDTHS(I2I_W, D, ulong)                     \
  LOOM_WIDTHS(F2I_W, D, float) LOOM_WIDTHS(F2I_W, D, double)

TO_INT(char)
TO_INT(uchar)
TO_INT(short)
TO_INT(ushort)
TO_INT(int)
TO_INT(uint)
TO_INT(long)
TO_INT(ulong)
