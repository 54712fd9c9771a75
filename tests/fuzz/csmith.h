/* csmith.h for loom-fuzz: csmith's runtime (Debian's csmith ships none), written
 * so that the same text compiles as host C (gcc/clang, the reference) and as
 * OpenCL C 3.0 (the kernel that wraps csmith's main). The safe_* functions
 * follow csmith's safe_math.h: an operation that would be undefined returns
 * its first operand. The checksum is CRC-32 of every global, as in csmith. */
#ifndef LOOM_FUZZ_CSMITH_H
#define LOOM_FUZZ_CSMITH_H

#ifdef __OPENCL_C_VERSION__
typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;
#define printf(...) 0
#define CSMITH_STATIC static
static uint32_t csmith_checksum;
#define platform_main_end(c, p) (csmith_checksum = (uint32_t)(c))
#else
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define CSMITH_STATIC static
#define platform_main_end(c, p) printf("checksum = %X\n", (unsigned)(c))
#endif

#define platform_main_begin() ((void)0)

#undef INT8_MIN
#undef INT8_MAX
#undef INT16_MIN
#undef INT16_MAX
#undef INT32_MIN
#undef INT32_MAX
#undef INT64_MIN
#undef INT64_MAX
#undef UINT8_MAX
#undef UINT16_MAX
#undef UINT32_MAX
#undef UINT64_MAX
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL

static uint32_t crc32_tab[256];
static uint32_t crc32_context = 0xFFFFFFFFUL;

static void crc32_gentab(void)
{
    uint32_t crc;
    const uint32_t poly = 0xEDB88320UL;
    int i, j;
    for (i = 0; i < 256; i++) {
        crc = i;
        for (j = 8; j > 0; j--) {
            if (crc & 1)
                crc = (crc >> 1) ^ poly;
            else
                crc >>= 1;
        }
        crc32_tab[i] = crc;
    }
}

static void crc32_byte(uint8_t b)
{
    crc32_context = ((crc32_context >> 8) & 0x00FFFFFF) ^ crc32_tab[(crc32_context ^ b) & 0xFF];
}

static void crc32_8bytes(uint64_t val)
{
    crc32_byte((val >> 0) & 0xff);
    crc32_byte((val >> 8) & 0xff);
    crc32_byte((val >> 16) & 0xff);
    crc32_byte((val >> 24) & 0xff);
    crc32_byte((val >> 32) & 0xff);
    crc32_byte((val >> 40) & 0xff);
    crc32_byte((val >> 48) & 0xff);
    crc32_byte((val >> 56) & 0xff);
}

/* the variable's name (a string literal: __constant in OpenCL C) is dropped */
#define transparent_crc(val, vname, flag) crc32_8bytes((uint64_t)(val))

/* signed: T name(T a, T b); shifts: T name(T left, int|unsigned right) */
#define LF_SIGNED(T, MIN, MAX, BITS)                                                        \
    CSMITH_STATIC T safe_unary_minus_func_##T##_s(T si)                                     \
    { return (si == (MIN)) ? si : (T)(-si); }                                               \
    CSMITH_STATIC T safe_add_func_##T##_s_s(T si1, T si2)                                   \
    { return (((si1 > 0) && (si2 > 0) && (si1 > ((MAX) - si2))) ||                          \
              ((si1 < 0) && (si2 < 0) && (si1 < ((MIN) - si2)))) ? si1 : (T)(si1 + si2); }  \
    CSMITH_STATIC T safe_sub_func_##T##_s_s(T si1, T si2)                                   \
    { return (((si2 < 0) && (si1 > ((MAX) + si2))) ||                                       \
              ((si2 > 0) && (si1 < ((MIN) + si2)))) ? si1 : (T)(si1 - si2); }               \
    CSMITH_STATIC T safe_mul_func_##T##_s_s(T si1, T si2)                                   \
    { return ((((si1 > 0) && (si2 > 0) && (si1 > ((MAX) / si2))) ||                          \
               ((si1 > 0) && (si2 <= 0) && (si2 < ((MIN) / si1))) ||                        \
               ((si1 <= 0) && (si2 > 0) && (si1 < ((MIN) / si2))) ||                        \
               ((si1 <= 0) && (si2 <= 0) && (si1 != 0) && (si2 < ((MAX) / si1)))))          \
                 ? si1 : (T)(si1 * si2); }                                                  \
    CSMITH_STATIC T safe_mod_func_##T##_s_s(T si1, T si2)                                   \
    { return ((si2 == 0) || ((si1 == (MIN)) && (si2 == (-1)))) ? si1 : (T)(si1 % si2); }    \
    CSMITH_STATIC T safe_div_func_##T##_s_s(T si1, T si2)                                   \
    { return ((si2 == 0) || ((si1 == (MIN)) && (si2 == (-1)))) ? si1 : (T)(si1 / si2); }    \
    CSMITH_STATIC T safe_lshift_func_##T##_s_s(T left, int right)                           \
    { return ((left < 0) || (right < 0) || (right >= (BITS)) ||                             \
              (left > ((MAX) >> right))) ? left : (T)(left << right); }                     \
    CSMITH_STATIC T safe_lshift_func_##T##_s_u(T left, unsigned int right)                  \
    { return ((left < 0) || (right >= (BITS)) || (left > ((MAX) >> right)))                 \
                 ? left : (T)(left << right); }                                             \
    CSMITH_STATIC T safe_rshift_func_##T##_s_s(T left, int right)                           \
    { return ((left < 0) || (right < 0) || (right >= (BITS))) ? left : (T)(left >> right); } \
    CSMITH_STATIC T safe_rshift_func_##T##_s_u(T left, unsigned int right)                  \
    { return ((left < 0) || (right >= (BITS))) ? left : (T)(left >> right); }

/* U is the type the operation is done in (unsigned int or uint64_t) */
#define LF_UNSIGNED(T, U, MAX, BITS)                                                        \
    CSMITH_STATIC T safe_unary_minus_func_##T##_u(T ui)                                     \
    { return (T)(-(U)ui); }                                                                 \
    CSMITH_STATIC T safe_add_func_##T##_u_u(T ui1, T ui2)                                   \
    { return (T)((U)ui1 + (U)ui2); }                                                        \
    CSMITH_STATIC T safe_sub_func_##T##_u_u(T ui1, T ui2)                                   \
    { return (T)((U)ui1 - (U)ui2); }                                                        \
    CSMITH_STATIC T safe_mul_func_##T##_u_u(T ui1, T ui2)                                   \
    { return (T)((U)ui1 * (U)ui2); }                                                        \
    CSMITH_STATIC T safe_mod_func_##T##_u_u(T ui1, T ui2)                                   \
    { return (ui2 == 0) ? ui1 : (T)(ui1 % ui2); }                                           \
    CSMITH_STATIC T safe_div_func_##T##_u_u(T ui1, T ui2)                                   \
    { return (ui2 == 0) ? ui1 : (T)(ui1 / ui2); }                                           \
    CSMITH_STATIC T safe_lshift_func_##T##_u_s(T left, int right)                           \
    { return ((right < 0) || (right >= (BITS)) || (left > ((MAX) >> right)))                \
                 ? left : (T)((U)left << right); }                                          \
    CSMITH_STATIC T safe_lshift_func_##T##_u_u(T left, unsigned int right)                  \
    { return ((right >= (BITS)) || (left > ((MAX) >> right))) ? left : (T)((U)left << right); } \
    CSMITH_STATIC T safe_rshift_func_##T##_u_s(T left, int right)                           \
    { return ((right < 0) || (right >= (BITS))) ? left : (T)(left >> right); }              \
    CSMITH_STATIC T safe_rshift_func_##T##_u_u(T left, unsigned int right)                  \
    { return (right >= (BITS)) ? left : (T)(left >> right); }

LF_SIGNED(int8_t, INT8_MIN, INT8_MAX, 32)
LF_SIGNED(int16_t, INT16_MIN, INT16_MAX, 32)
LF_SIGNED(int32_t, INT32_MIN, INT32_MAX, 32)
LF_SIGNED(int64_t, INT64_MIN, INT64_MAX, 64)
LF_UNSIGNED(uint8_t, unsigned int, UINT8_MAX, 32)
LF_UNSIGNED(uint16_t, unsigned int, UINT16_MAX, 32)
LF_UNSIGNED(uint32_t, unsigned int, UINT32_MAX, 32)
LF_UNSIGNED(uint64_t, uint64_t, UINT64_MAX, 64)

#endif
