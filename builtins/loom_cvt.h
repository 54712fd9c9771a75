/* Macros shared by the integer, relational and conversion builtins.
 *
 * They let one body serve a scalar type and all its vector widths: N is a
 * width suffix, empty for scalars or one of 2, 3, 4, 8, 16, so `T##N` names
 * the type of that width. Scalars and vectors differ in two places the
 * macros below hide: a conversion is a cast for scalars but
 * __builtin_convertvector for vectors, and a comparison gives int 0/1 for
 * scalars but a -1/0 mask of the operands' element size for vectors. */
#ifndef LOOM_CVT_H
#define LOOM_CVT_H

#define LOOM_CAT(a, b) LOOM_CAT_(a, b)
#define LOOM_CAT_(a, b) a##b

/* M(args..., N) for every width */
#define LOOM_WIDTHS(M, ...)                                                    \
  M(__VA_ARGS__, ) M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4)      \
  M(__VA_ARGS__, 8) M(__VA_ARGS__, 16)
/* only the vector widths */
#define LOOM_VWIDTHS(M, ...)                                                   \
  M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 8)     \
  M(__VA_ARGS__, 16)

/* M(args..., MODE) for every rounding-mode suffix of the conversions */
#define LOOM_MODES(M, ...)                                                     \
  M(__VA_ARGS__, ) M(__VA_ARGS__, _rte) M(__VA_ARGS__, _rtz)                    \
  M(__VA_ARGS__, _rtp) M(__VA_ARGS__, _rtn)

/* CVT(N, x, T): C conversion of every component of x to T (T has width N) */
#define CVT(N, x, T) CVT_##N(x, T)
#define CVT_(x, T) ((T)(x))
#define CVT_2(x, T) __builtin_convertvector((x), T)
#define CVT_3(x, T) __builtin_convertvector((x), T)
#define CVT_4(x, T) __builtin_convertvector((x), T)
#define CVT_8(x, T) __builtin_convertvector((x), T)
#define CVT_16(x, T) __builtin_convertvector((x), T)

/* MASK(N, m, I): a comparison result m as a condition for a ternary whose
 * operands have elements of the size of scalar signed type I. Scalars keep
 * their 0/1; vector masks are sign-extended or truncated (-1 stays -1). */
#define MASK(N, m, I) MASK_X(N, m, I)
#define MASK_X(N, m, I) MASK_##N(m, I)
#define MASK_(m, I) (m)
#define MASK_2(m, I) __builtin_convertvector((m), I##2)
#define MASK_3(m, I) __builtin_convertvector((m), I##3)
#define MASK_4(m, I) __builtin_convertvector((m), I##4)
#define MASK_8(m, I) __builtin_convertvector((m), I##8)
#define MASK_16(m, I) __builtin_convertvector((m), I##16)

/* MASKS(N, m, I): the same as a full mask, all bits set when true, for
 * scalars too (-1/0 of type I), so that masks can be used in arithmetic */
#define MASKS(N, m, I) MASKS_X(N, m, I)
#define MASKS_X(N, m, I) MASKS_##N(m, I)
#define MASKS_(m, I) ((I)-(m))
#define MASKS_2 MASK_2
#define MASKS_3 MASK_3
#define MASKS_4 MASK_4
#define MASKS_8 MASK_8
#define MASKS_16 MASK_16

/* the signed and unsigned integer types of the same size */
#define LOOM_SI(T) LOOM_CAT(LOOM_SI_, T)
#define LOOM_SI_char char
#define LOOM_SI_uchar char
#define LOOM_SI_short short
#define LOOM_SI_ushort short
#define LOOM_SI_int int
#define LOOM_SI_uint int
#define LOOM_SI_long long
#define LOOM_SI_ulong long
#define LOOM_SI_float int
#define LOOM_SI_double long
#define LOOM_SI_half short
#define LOOM_UI(T) LOOM_CAT(LOOM_UI_, T)
#define LOOM_UI_char uchar
#define LOOM_UI_uchar uchar
#define LOOM_UI_short ushort
#define LOOM_UI_ushort ushort
#define LOOM_UI_int uint
#define LOOM_UI_uint uint
#define LOOM_UI_long ulong
#define LOOM_UI_ulong ulong
#define LOOM_UI_float uint
#define LOOM_UI_double ulong
#define LOOM_UI_half ushort

/* those types at width N */
#define LOOM_SIN(T, N) LOOM_CAT(LOOM_SI(T), N)
#define LOOM_UIN(T, N) LOOM_CAT(LOOM_UI(T), N)

/* integer ranges: minima as long, maxima as ulong, so that any two can be
 * compared in constant expressions */
#define LOOM_MIN_char (-128L)
#define LOOM_MIN_uchar 0L
#define LOOM_MIN_short (-32768L)
#define LOOM_MIN_ushort 0L
#define LOOM_MIN_int (-2147483647L - 1)
#define LOOM_MIN_uint 0L
#define LOOM_MIN_long (-9223372036854775807L - 1)
#define LOOM_MIN_ulong 0L
#define LOOM_MAX_char 127UL
#define LOOM_MAX_uchar 255UL
#define LOOM_MAX_short 32767UL
#define LOOM_MAX_ushort 65535UL
#define LOOM_MAX_int 2147483647UL
#define LOOM_MAX_uint 4294967295UL
#define LOOM_MAX_long 9223372036854775807UL
#define LOOM_MAX_ulong 18446744073709551615UL

#endif
