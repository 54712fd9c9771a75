/* Conversions to and from half (cl_khr_fp16; OpenCL C 2.0, 1.2.3):
 * convert_half<n>[_rte|_rtz|_rtp|_rtn] from every scalar type, and
 * convert_<D><n>[_sat][_mode] from half for every D.
 *
 * To half: a float is rounded to nearest by the hardware conversion; the
 * directed modes compare that result with the source and step one unit of
 * its bit pattern, as convert_to_float.cl does for double -> float. A double
 * is first rounded to odd in float (half_util.h), which keeps every mode
 * correct. Integers are clamped to +-2^17 (beyond which every mode gives the
 * same half: infinity or the largest finite value) and are then exact in
 * float.
 * From half: every half is exact in float, so the float conversions (with
 * their rounding modes and saturation) give the right integer, and float and
 * double results are exact. */
#include "half_util.h"

#define AS(x, T) __builtin_astype((x), T)

/* ---- float -> half in each rounding mode ---- */

/* One step of r's bit pattern b (sign and magnitude): +1 moves away from
 * zero, -1 toward it. gt/lt: r above/below x, as -1/0 masks. */
#define F2H_STEP(N, step_expr)                                                 \
  half##N r = F2H(N, x);                                                       \
  float##N back = H2F(N, r);                                                   \
  short##N gt = MASKS(N, back > x, short);                                     \
  short##N lt = MASKS(N, back < x, short);                                     \
  short##N b = AS(r, short##N);                                                \
  short##N neg = b >> 15;                                                      \
  short##N step = step_expr;                                                   \
  return AS((ushort##N)(AS(b, ushort##N) + AS(step, ushort##N)), half##N);
#define F2H_MODES(unused, N)                                                   \
  static INLINE OVL half##N h_from_float_rte(float##N x) { return F2H(N, x); } \
  static INLINE OVL half##N h_from_float_rtz(float##N x) {                     \
    F2H_STEP(N, (neg & lt) | (~neg & gt))                                      \
  }                                                                            \
  static INLINE OVL half##N h_from_float_rtp(float##N x) {                     \
    F2H_STEP(N, lt & (neg | (short)1))                                         \
  }                                                                            \
  static INLINE OVL half##N h_from_float_rtn(float##N x) {                     \
    F2H_STEP(N, gt & (~neg | (short)1))                                        \
  }
LOOM_WIDTHS(F2H_MODES, _)

/* the mode suffix of a conversion -> the helper's suffix */
#define HMODE_ _rte
#define HMODE__rte _rte
#define HMODE__rtz _rtz
#define HMODE__rtp _rtp
#define HMODE__rtn _rtn
#define H_FROM_FLOAT(MODE) LOOM_CAT(h_from_float, HMODE_##MODE)

/* ---- to half ---- */

#define TO_HALF_FLOAT(S, N, MODE)                                              \
  half##N OVL convert_half##N##MODE(float##N x) { return H_FROM_FLOAT(MODE)(x); }
#define TO_HALF_DOUBLE(S, N, MODE)                                             \
  half##N OVL convert_half##N##MODE(double##N x) {                             \
    return H_FROM_FLOAT(MODE)(loom_rto_float(x));                              \
  }
#define TO_HALF_HALF(S, N, MODE)                                               \
  half##N OVL convert_half##N##MODE(half##N x) { return x; }
/* integers whose range float holds exactly */
#define TO_HALF_SMALL(S, N, MODE)                                              \
  half##N OVL convert_half##N##MODE(S##N x) {                                  \
    return H_FROM_FLOAT(MODE)(CVT(N, x, float##N));                            \
  }
/* the others, clamped to +-2^17 first */
#define TO_HALF_SIGNED(S, N, MODE)                                             \
  half##N OVL convert_half##N##MODE(S##N x) {                                  \
    S##N c = __builtin_elementwise_min(                                        \
        __builtin_elementwise_max(x, (S##N)(-(1 << 17))), (S##N)(1 << 17));    \
    return H_FROM_FLOAT(MODE)(CVT(N, c, float##N));                            \
  }
#define TO_HALF_UNSIGNED(S, N, MODE)                                           \
  half##N OVL convert_half##N##MODE(S##N x) {                                  \
    S##N c = __builtin_elementwise_min(x, (S##N)(1 << 17));                    \
    return H_FROM_FLOAT(MODE)(CVT(N, c, float##N));                            \
  }

#define TO_HALF_W(KIND, S, N) LOOM_MODES(KIND, S, N)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_FLOAT, float)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_DOUBLE, double)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_HALF, half)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SMALL, char)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SMALL, uchar)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SMALL, short)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SMALL, ushort)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SIGNED, int)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_UNSIGNED, uint)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_SIGNED, long)
LOOM_WIDTHS(TO_HALF_W, TO_HALF_UNSIGNED, ulong)

/* ---- from half ---- */

/* to float and double: exact in every mode */
#define FROM_HALF_FP(D, N, MODE)                                               \
  D##N OVL convert_##D##N##MODE(half##N x) { return CVT(N, x, D##N); }
/* to integers: through the exact float (convert_to_int.cl; declared here
 * because a definition of the name hides Clang's builtin declarations) */
#define FROM_HALF_INT(D, N, MODE)                                              \
  D##N OVL convert_##D##N##MODE(float##N x);                                   \
  D##N OVL convert_##D##N##_sat##MODE(float##N x);                             \
  D##N OVL convert_##D##N##MODE(half##N x) {                                   \
    return convert_##D##N##MODE(H2F(N, x));                                   \
  }                                                                            \
  D##N OVL convert_##D##N##_sat##MODE(half##N x) {                             \
    return convert_##D##N##_sat##MODE(H2F(N, x));                              \
  }

#define FROM_HALF_W(KIND, D, N) LOOM_MODES(KIND, D, N)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_FP, float)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_FP, double)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, char)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, uchar)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, short)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, ushort)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, int)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, uint)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, long)
LOOM_WIDTHS(FROM_HALF_W, FROM_HALF_INT, ulong)
