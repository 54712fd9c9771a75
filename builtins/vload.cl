/* Vector data load and store functions (OpenCL C 1.13.7): vloadn/vstoren for
 * every scalar type, and the half variants, which convert between float (or
 * double) and IEEE binary16 bit patterns with integer arithmetic so they work
 * without cl_khr_fp16.
 *
 * vloadn/vstoren only require the alignment of the element type, so they go
 * through under-aligned vector typedefs: one unaligned vector load or store.
 * 3-element variants touch exactly three packed elements. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LOAD_SPACES(M, ...)                                                    \
  M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__constant, __VA_ARGS__)  \
  M(__private, __VA_ARGS__) M(__generic, __VA_ARGS__)
#define STORE_SPACES(M, ...)                                                   \
  M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__private, __VA_ARGS__)   \
  M(__generic, __VA_ARGS__)

/* ---- vloadn / vstoren ---- */

#define UNALIGNED_TYPES(T)                                                     \
  typedef T##2 __attribute__((aligned(sizeof(T)))) T##2_ua;                    \
  typedef T##4 __attribute__((aligned(sizeof(T)))) T##4_ua;                    \
  typedef T##8 __attribute__((aligned(sizeof(T)))) T##8_ua;                    \
  typedef T##16 __attribute__((aligned(sizeof(T)))) T##16_ua;

#define VLOADN(AS, T, N)                                                       \
  T##N OVL vload##N(size_t offset, const AS T *p) {                            \
    return *(const AS T##N##_ua *)(p + offset * N);                            \
  }
#define VSTOREN(AS, T, N)                                                      \
  void OVL vstore##N(T##N data, size_t offset, AS T *p) {                      \
    *(AS T##N##_ua *)(p + offset * N) = data;                                  \
  }
#define VLOAD3(AS, T)                                                          \
  T##3 OVL vload3(size_t offset, const AS T *p) {                              \
    const AS T *q = p + offset * 3;                                            \
    return (T##3)(q[0], q[1], q[2]);                                           \
  }
#define VSTORE3(AS, T)                                                         \
  void OVL vstore3(T##3 data, size_t offset, AS T *p) {                        \
    AS T *q = p + offset * 3;                                                  \
    q[0] = data.x;                                                             \
    q[1] = data.y;                                                             \
    q[2] = data.z;                                                             \
  }
#define VLOAD_ALL(AS, T)                                                       \
  VLOADN(AS, T, 2) VLOAD3(AS, T) VLOADN(AS, T, 4) VLOADN(AS, T, 8)             \
  VLOADN(AS, T, 16)
#define VSTORE_ALL(AS, T)                                                      \
  VSTOREN(AS, T, 2) VSTORE3(AS, T) VSTOREN(AS, T, 4) VSTOREN(AS, T, 8)         \
  VSTOREN(AS, T, 16)
#define VLOADSTORE(T)                                                          \
  UNALIGNED_TYPES(T) LOAD_SPACES(VLOAD_ALL, T) STORE_SPACES(VSTORE_ALL, T)

VLOADSTORE(char) VLOADSTORE(uchar) VLOADSTORE(short) VLOADSTORE(ushort)
VLOADSTORE(int) VLOADSTORE(uint) VLOADSTORE(long) VLOADSTORE(ulong)
VLOADSTORE(float) VLOADSTORE(double) VLOADSTORE(half)

/* ---- binary16 <-> binary32/binary64 bit conversions ---- */

#define RM_RTE 0
#define RM_RTZ 1
#define RM_RTP 2
#define RM_RTN 3

/* integer width changes that work for scalars and vectors alike */
#define WIDEN_NARROW(N)                                                        \
  static INLINE uint##N OVL h_widen(ushort##N x) {                             \
    return __builtin_convertvector(x, uint##N);                                \
  }                                                                            \
  static INLINE ushort##N OVL h_narrow(uint##N x) {                            \
    return __builtin_convertvector(x, ushort##N);                              \
  }                                                                            \
  static INLINE ushort##N OVL h_narrow(ulong##N x) {                           \
    return __builtin_convertvector(x, ushort##N);                              \
  }                                                                            \
  static INLINE float##N OVL h_tofloat(uint##N x) {                            \
    return __builtin_convertvector(x, float##N);                               \
  }
WIDEN_NARROW(2) WIDEN_NARROW(3) WIDEN_NARROW(4) WIDEN_NARROW(8) WIDEN_NARROW(16)
static INLINE uint OVL h_widen(ushort x) { return x; }
static INLINE ushort OVL h_narrow(uint x) { return (ushort)x; }
static INLINE ushort OVL h_narrow(ulong x) { return (ushort)x; }
static INLINE float OVL h_tofloat(uint x) { return (float)x; }

/* half bits (in the low 16 bits of uintN) -> float. Exact; NaN payloads kept.
 * S is the type comparisons of uintN values yield. */
#define HALF_TO_FLOAT(N, S)                                                    \
  static INLINE float##N OVL half_bits_to_float(uint##N h) {                   \
    typedef uint##N U;                                                         \
    U sign = (h & (U)0x8000) << 16;                                            \
    U e = (h >> 10) & (U)0x1f;                                                 \
    U m = h & (U)0x3ff;                                                        \
    U normal = ((e + (U)112) << 23) | (m << 13);                               \
    U special = (U)0x7f800000 | (m << 13);                                     \
    /* subnormal halves are m * 2^-24: exact in float */                       \
    U subnormal = as_uint##N(h_tofloat(m) * (float##N)0x1p-24f);               \
    S is_sub = e == (U)0;                                                      \
    S is_special = e == (U)0x1f;                                               \
    U r = is_sub ? subnormal : (is_special ? special : normal);                \
    return as_float##N(r | sign);                                              \
  }

/* Correctly rounded conversion of the bits of a float or double (U holds
 * them) to half bits, for rounding mode `mode` (a constant after inlining).
 * The significand of x is shifted right by `s` bits: 13 (float) or 42
 * (double) for normal halves, more for subnormal ones; the dropped bits
 * decide the rounding. Overflow gives Inf or the largest finite half as the
 * mode says; NaNs stay NaNs (quiet, with the payload's top bits). The other
 * parameters describe the source format (FLOAT_TO_HALF, DOUBLE_TO_HALF). */
#define TO_HALF(NAME, U, S, SIGN_SHIFT, MANT, BIAS_DIFF_BITS, NORM_MIN,      \
                NORM_SHIFT, SUB_SHIFT_BASE, MAX_SHIFT, OVF_MIN, INF_BITS,     \
                ABS_MASK)                                                     \
  static INLINE U OVL NAME(U u, int mode) {                                   \
    U sign = (u >> SIGN_SHIFT) & (U)0x8000;                                    \
    U a = u & (U)ABS_MASK;                                                     \
    U e = a >> MANT;                                                           \
    S norm = a >= (U)NORM_MIN;                                                 \
    U sig = (a & (((U)1 << MANT) - (U)1)) |                                    \
            (e != (U)0 ? ((U)1 << MANT) : (U)0);                               \
    U x = norm ? a - (U)BIAS_DIFF_BITS : sig;                                  \
    U s = norm ? (U)NORM_SHIFT                                                 \
               : __builtin_elementwise_min((U)SUB_SHIFT_BASE - e,              \
                                           (U)MAX_SHIFT);                      \
    U t = x >> s;                                                              \
    U r = x & (((U)1 << s) - (U)1);                                            \
    U half_ulp = (U)1 << (s - (U)1);                                           \
    S up, away;                                                                \
    if (mode == RM_RTE) {                                                      \
      up = (r > half_ulp) | ((r == half_ulp) & ((t & (U)1) != (U)0));          \
      away = sign == sign;                                                     \
    } else if (mode == RM_RTZ) {                                               \
      up = r != r;                                                             \
      away = up;                                                               \
    } else if (mode == RM_RTP) {                                               \
      away = sign == (U)0;                                                     \
      up = (r != (U)0) & away;                                                 \
    } else {                                                                   \
      away = sign != (U)0;                                                     \
      up = (r != (U)0) & away;                                                 \
    }                                                                          \
    U rounded = t + (up ? (U)1 : (U)0);                                        \
    U overflow = away ? (U)0x7c00 : (U)0x7bff;                                 \
    U nan = (U)0x7e00 | ((a >> NORM_SHIFT) & (U)0x3ff);                        \
    U special = a > (U)INF_BITS ? nan : (U)0x7c00;                             \
    U r16 = a >= (U)INF_BITS ? special                                         \
                             : (a >= (U)OVF_MIN ? overflow : rounded);         \
    return sign | r16;                                                         \
  }

/* float: 23-bit mantissa; half normals start at 2^-14 (biased 113), the
 * half exponent is the float one minus 112; 2^16 overflows (biased 143) */
#define FLOAT_TO_HALF(U, S)                                                    \
  TO_HALF(float_bits_to_half, U, S, 16, 23, 0x38000000, 0x38800000, 13, 126,  \
          31, 0x47800000, 0x7f800000, 0x7fffffff)
/* double: 52-bit mantissa, exponent bias 1023 (1008 = 1023 - 15) */
#define DOUBLE_TO_HALF(U, S)                                                   \
  TO_HALF(double_bits_to_half, U, S, 48, 52, 0x3f00000000000000UL,            \
          0x3f10000000000000UL, 42, 1051, 63, 0x40f0000000000000UL,            \
          0x7ff0000000000000UL, 0x7fffffffffffffffUL)

#define CONVERSIONS(N, SN)                                                     \
  HALF_TO_FLOAT(N, SN)                                                         \
  FLOAT_TO_HALF(uint##N, SN)
CONVERSIONS(, int) CONVERSIONS(2, int2) CONVERSIONS(3, int3)
CONVERSIONS(4, int4) CONVERSIONS(8, int8) CONVERSIONS(16, int16)
DOUBLE_TO_HALF(ulong, int) DOUBLE_TO_HALF(ulong2, long2)
DOUBLE_TO_HALF(ulong3, long3) DOUBLE_TO_HALF(ulong4, long4)
DOUBLE_TO_HALF(ulong8, long8) DOUBLE_TO_HALF(ulong16, long16)

static INLINE ushort OVL to_half(float x, int mode) {
  return h_narrow(float_bits_to_half(as_uint(x), mode));
}
static INLINE ushort OVL to_half(double x, int mode) {
  return h_narrow(double_bits_to_half(as_ulong(x), mode));
}
#define TO_HALF_VEC(N)                                                         \
  static INLINE ushort##N OVL to_half(float##N x, int mode) {                  \
    return h_narrow(float_bits_to_half(as_uint##N(x), mode));                  \
  }                                                                            \
  static INLINE ushort##N OVL to_half(double##N x, int mode) {                 \
    return h_narrow(double_bits_to_half(as_ulong##N(x), mode));                \
  }
TO_HALF_VEC(2) TO_HALF_VEC(3) TO_HALF_VEC(4) TO_HALF_VEC(8) TO_HALF_VEC(16)

/* ---- vload_half, vload_halfn, vloada_halfn ---- */

#define VLOAD_HALF(AS, unused)                                                 \
  float OVL vload_half(size_t offset, const AS half *p) {                      \
    return half_bits_to_float(h_widen(((const AS ushort *)p)[offset]));        \
  }                                                                            \
  float3 OVL vload_half3(size_t offset, const AS half *p) {                    \
    const AS ushort *q = (const AS ushort *)p + offset * 3;                    \
    return half_bits_to_float(h_widen((ushort3)(q[0], q[1], q[2])));           \
  }                                                                            \
  float3 OVL vloada_half3(size_t offset, const AS half *p) {                   \
    const AS ushort *q = (const AS ushort *)p + offset * 4;                    \
    return half_bits_to_float(h_widen((ushort3)(q[0], q[1], q[2])));           \
  }                                                                            \
  VLOAD_HALFN(AS, 2) VLOAD_HALFN(AS, 4) VLOAD_HALFN(AS, 8) VLOAD_HALFN(AS, 16)
#define VLOAD_HALFN(AS, N)                                                     \
  float##N OVL vload_half##N(size_t offset, const AS half *p) {                \
    return half_bits_to_float(                                                 \
        h_widen(*((const AS ushort##N##_ua *)p + offset)));                    \
  }                                                                            \
  float##N OVL vloada_half##N(size_t offset, const AS half *p) {               \
    return half_bits_to_float(h_widen(*((const AS ushort##N *)p + offset)));   \
  }
LOAD_SPACES(VLOAD_HALF, )

/* ---- vstore_half[n][_mode], vstorea_halfn[_mode] for float and double ---- */

#define STORE_HALF1(AS, T, SUFFIX, MODE)                                       \
  void OVL vstore_half##SUFFIX(T data, size_t offset, AS half *p) {            \
    ((AS ushort *)p)[offset] = to_half(data, MODE);                            \
  }                                                                            \
  void OVL vstore_half3##SUFFIX(T##3 data, size_t offset, AS half *p) {        \
    ushort3 h = to_half(data, MODE);                                           \
    AS ushort *q = (AS ushort *)p + offset * 3;                                \
    q[0] = h.x;                                                                \
    q[1] = h.y;                                                                \
    q[2] = h.z;                                                                \
  }                                                                            \
  /* the padding element after a half3 is left untouched */                    \
  void OVL vstorea_half3##SUFFIX(T##3 data, size_t offset, AS half *p) {       \
    ushort3 h = to_half(data, MODE);                                           \
    AS ushort *q = (AS ushort *)p + offset * 4;                                \
    q[0] = h.x;                                                                \
    q[1] = h.y;                                                                \
    q[2] = h.z;                                                                \
  }                                                                            \
  STORE_HALFN(AS, T, SUFFIX, MODE, 2) STORE_HALFN(AS, T, SUFFIX, MODE, 4)      \
  STORE_HALFN(AS, T, SUFFIX, MODE, 8) STORE_HALFN(AS, T, SUFFIX, MODE, 16)
#define STORE_HALFN(AS, T, SUFFIX, MODE, N)                                    \
  void OVL vstore_half##N##SUFFIX(T##N data, size_t offset, AS half *p) {      \
    *((AS ushort##N##_ua *)p + offset) = to_half(data, MODE);                  \
  }                                                                            \
  void OVL vstorea_half##N##SUFFIX(T##N data, size_t offset, AS half *p) {     \
    *((AS ushort##N *)p + offset) = to_half(data, MODE);                       \
  }
#define STORE_HALF_MODES(AS, T)                                                \
  STORE_HALF1(AS, T, , RM_RTE) STORE_HALF1(AS, T, _rte, RM_RTE)                \
  STORE_HALF1(AS, T, _rtz, RM_RTZ) STORE_HALF1(AS, T, _rtp, RM_RTP)            \
  STORE_HALF1(AS, T, _rtn, RM_RTN)
STORE_SPACES(STORE_HALF_MODES, float)
STORE_SPACES(STORE_HALF_MODES, double)
