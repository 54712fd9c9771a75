/* Host reference for IEEE binary16 (cl_khr_fp16 tests): exact half -> float
 * and correctly rounded conversion of exact values to half in each rounding
 * mode, written with integer arithmetic so that the host's own
 * floating-point rounding never enters. */
#ifndef LOOM_TEST_HALF_REF_H
#define LOOM_TEST_HALF_REF_H
#include <math.h>
#include <stdint.h>
#include <string.h>

enum half_mode { H_RTE, H_RTZ, H_RTP, H_RTN };

static inline float half_to_float(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

static inline int half_is_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

/* The half nearest, in mode m, to (-1)^neg * mag * 2^e2. */
static inline uint16_t half_round(int neg, unsigned __int128 mag, int e2, enum half_mode m) {
  uint16_t sign = neg ? 0x8000 : 0;
  if (mag == 0)
    return sign;
  int len = 0;
  for (unsigned __int128 t = mag; t; t >>= 1)
    len++;
  int top = len - 1 + e2;            /* the value lies in [2^top, 2^(top+1)) */
  int qe = top - 10 < -24 ? -24 : top - 10; /* exponent of the result's ulp */
  int shift = qe - e2;
  unsigned __int128 n;
  int up = 0;
  if (shift <= 0) {
    n = mag << -shift;
  } else {
    unsigned __int128 rem, halfway;
    if (shift >= 127) {
      n = 0;
      rem = mag;
      halfway = (unsigned __int128)1 << 126; /* above any remainder here */
    } else {
      n = mag >> shift;
      rem = mag & (((unsigned __int128)1 << shift) - 1);
      halfway = (unsigned __int128)1 << (shift - 1);
    }
    if (rem != 0)
      switch (m) {
      case H_RTE: up = rem > halfway || (rem == halfway && (n & 1)); break;
      case H_RTZ: up = 0; break;
      case H_RTP: up = !neg; break;
      case H_RTN: up = neg; break;
      }
  }
  n += (unsigned)up;
  if (n == 2048) {
    n = 1024;
    qe++;
  }
  if (qe + 10 > 15 || n > 2047) { /* at or beyond 2^16: overflow */
    int to_inf = m == H_RTE || (m == H_RTP && !neg) || (m == H_RTN && neg);
    return sign | (to_inf ? 0x7c00 : 0x7bff);
  }
  if (n < 1024) /* subnormal (qe is -24) */
    return sign | (uint16_t)n;
  return sign | (uint16_t)(((qe + 25) << 10) | (int)(n - 1024));
}

/* x (exact in long double) rounded to half */
static inline uint16_t half_from_ld(long double x, enum half_mode m) {
  if (isnan(x))
    return 0x7e00;
  int neg = signbit(x) != 0;
  if (isinf(x))
    return neg ? 0xfc00 : 0x7c00;
  if (x == 0)
    return neg ? 0x8000 : 0;
  int ex;
  long double f = frexpl(fabsl(x), &ex); /* [0.5, 1) */
  uint64_t mag = (uint64_t)ldexpl(f, 64);
  return half_round(neg, mag, ex - 64, m);
}

/* integers, exactly */
static inline uint16_t half_from_i64(int64_t v, enum half_mode m) {
  uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  return half_round(v < 0, mag, 0, m);
}
static inline uint16_t half_from_u64(uint64_t v, enum half_mode m) {
  return half_round(0, v, 0, m);
}

/* the size of one unit in the last place of half at |x| (subnormal ulp
 * below 2^-14) */
static inline long double half_ulp(long double x) {
  int e;
  if (x == 0 || isinf(x) || isnan(x))
    return ldexpl(1, -24);
  frexpl(x, &e);
  e -= 1;
  return ldexpl(1, (e < -14 ? -14 : e) - 10);
}

#endif
