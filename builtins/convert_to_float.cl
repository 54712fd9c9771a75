/* Conversions to float and double (OpenCL C 2.0, 1.2.3):
 * convert_<D><n>[_rte|_rtz|_rtp|_rtn] from every scalar type.
 *
 * The default mode is round to nearest even, which is what the plain
 * conversion does. Where the destination cannot represent every source value
 * (int, uint, long, ulong to float; long, ulong to double; double to float)
 * the directed modes convert to nearest and then correct: the nearest value r
 * is compared exactly with the source, and if it lies on the wrong side it is
 * replaced by its neighbour toward zero, +inf or -inf (one step of its bit
 * pattern). No floating-point environment is touched, and the code stays
 * branch-free. */
#include "loom_builtins.h"
#include "loom_cvt.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define AS(x, T) __builtin_astype((x), T)

/* which conversions can round */
#define KIND_char_float EXACT
#define KIND_uchar_float EXACT
#define KIND_short_float EXACT
#define KIND_ushort_float EXACT
#define KIND_int_float INT
#define KIND_uint_float INT
#define KIND_long_float INT
#define KIND_ulong_float INT
#define KIND_float_float EXACT
#define KIND_double_float NARROW
#define KIND_char_double EXACT
#define KIND_uchar_double EXACT
#define KIND_short_double EXACT
#define KIND_ushort_double EXACT
#define KIND_int_double EXACT
#define KIND_uint_double EXACT
#define KIND_long_double INT
#define KIND_ulong_double INT
#define KIND_float_double EXACT
#define KIND_double_double EXACT

/* 2^bits of the source's non-negative range: the one value the nearest
 * conversion can reach that the source type cannot hold */
#define TOP_int 0x1p31
#define TOP_uint 0x1p32
#define TOP_long 0x1p63
#define TOP_ulong 0x1p64

/* The comparisons leave gt (r > x) and lt (r < x) as full masks (-1/0) of
 * D's size. From integers: r is integral, so it is compared in the source
 * type, except when it is TOP, which is above every source value. */
#define CMP_INT(D, S, N)                                                       \
  D##N r = CVT(N, x, D##N);                                                    \
  LOOM_SIN(D, N) over = MASKS(N, r >= (D##N)TOP_##S, LOOM_SI(D));              \
  S##N rb = CVT(N, over ? (D##N)0 : r, S##N);                                  \
  LOOM_SIN(D, N) gt = over | MASKS(N, rb > x, LOOM_SI(D));                     \
  LOOM_SIN(D, N) lt = ~over & MASKS(N, rb < x, LOOM_SI(D));
/* From double to float: compared in double, where r is exact. NaN compares
 * false both ways and is left alone; an infinite r after a finite x steps
 * back to the largest finite value. */
#define CMP_NARROW(D, S, N)                                                    \
  D##N r = CVT(N, x, D##N);                                                    \
  S##N rs = CVT(N, r, S##N);                                                   \
  LOOM_SIN(D, N) gt = MASKS(N, rs > x, LOOM_SI(D));                            \
  LOOM_SIN(D, N) lt = MASKS(N, rs < x, LOOM_SI(D));

/* One step of r's bit pattern b: adding 1 moves away from zero, subtracting
 * 1 toward zero, for either sign. The steps never start from a zero of the
 * wrong sign (+0 is never above x, -0 never below) nor from a NaN. The step
 * is computed from the masks with integer arithmetic alone, so the code has
 * neither branches nor selects. */
#define STEP(D, N, step)                                                       \
  LOOM_SIN(D, N) b = AS(r, LOOM_SIN(D, N));                                    \
  LOOM_SIN(D, N) neg = b >> (8 * sizeof(LOOM_SI(D)) - 1);                      \
  b = AS(AS(b, LOOM_UIN(D, N)) + AS(step, LOOM_UIN(D, N)), LOOM_SIN(D, N));    \
  return AS(b, D##N);
/* toward zero: -1 when |r| > |x| */
#define STEP_rtz(D, N) STEP(D, N, (neg & lt) | (~neg & gt))
/* toward +inf when r < x: +1 for r >= 0, -1 for r < 0 */
#define STEP_rtp(D, N) STEP(D, N, lt & (neg | 1))
/* toward -inf when r > x: -1 for r >= 0, +1 for r < 0 */
#define STEP_rtn(D, N) STEP(D, N, gt & (~neg | 1))

/* bodies per kind and mode */
#define BODY_PLAIN(D, S, N) return CVT(N, x, D##N);
#define BODY_INT(D, S, N) BODY_PLAIN(D, S, N)
#define BODY_INT_rte(D, S, N) BODY_PLAIN(D, S, N)
#define BODY_INT_rtz(D, S, N) CMP_INT(D, S, N) STEP_rtz(D, N)
#define BODY_INT_rtp(D, S, N) CMP_INT(D, S, N) STEP_rtp(D, N)
#define BODY_INT_rtn(D, S, N) CMP_INT(D, S, N) STEP_rtn(D, N)
#define BODY_NARROW(D, S, N) BODY_PLAIN(D, S, N)
#define BODY_NARROW_rte(D, S, N) BODY_PLAIN(D, S, N)
#define BODY_NARROW_rtz(D, S, N) CMP_NARROW(D, S, N) STEP_rtz(D, N)
#define BODY_NARROW_rtp(D, S, N) CMP_NARROW(D, S, N) STEP_rtp(D, N)
#define BODY_NARROW_rtn(D, S, N) CMP_NARROW(D, S, N) STEP_rtn(D, N)
#define BODY_EXACT(D, S, N) BODY_PLAIN(D, S, N)
#define BODY_EXACT_rte BODY_EXACT
#define BODY_EXACT_rtz BODY_EXACT
#define BODY_EXACT_rtp BODY_EXACT
#define BODY_EXACT_rtn BODY_EXACT

#define TO_FP(D, S, N, MODE)                                                   \
  D##N OVL convert_##D##N##MODE(S##N x) {                                      \
    LOOM_CAT(LOOM_CAT(BODY_, KIND_##S##_##D), MODE)(D, S, N)                   \
  }
#define TO_FP_W(D, S, N) LOOM_MODES(TO_FP, D, S, N)
#define TO_FP_ALL(D)                                                           \
  LOOM_WIDTHS(TO_FP_W, D, char) LOOM_WIDTHS(TO_FP_W, D, uchar)                 \
  LOOM_WIDTHS(TO_FP_W, D, short) LOOM_WIDTHS(TO_FP_W, D, ushort)               \
  LOOM_WIDTHS(TO_FP_W, D, int) LOOM_WIDTHS(TO_FP_W, D, uint)                   \
  LOOM_WIDTHS(TO_FP_W, D, long) LOOM_WIDTHS(TO_FP_W, D, ulong)                 \
  LOOM_WIDTHS(TO_FP_W, D, float) LOOM_WIDTHS(TO_FP_W, D, double)

TO_FP_ALL(float)
TO_FP_ALL(double)
