/* Common and geometric functions for half (cl_khr_fp16; OpenCL C 2.0
 * 6.13.4-6.13.5). clamp, min, max, step and sign are exact; degrees,
 * radians and smoothstep are evaluated in float, mix in double, and rounded
 * once. The geometric functions widen to float and use the float versions
 * (geometric.cl), which sum in double: no overflow for any half input (half
 * max squared is about 2^32) and one rounding to half at the end. */
#include "half_util.h"

/* N: the width suffix (empty for scalars) */
#define HC(unused, N)                                                          \
  half##N OVL clamp(half##N x, half##N lo, half##N hi) {                       \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);    \
  }                                                                            \
  half##N OVL min(half##N a, half##N b) { return __builtin_elementwise_min(a, b); } \
  half##N OVL max(half##N a, half##N b) { return __builtin_elementwise_max(a, b); } \
  half##N OVL degrees(half##N r) {                                             \
    return F2H(N, H2F(N, r) * (float)(180.0 / M_PI));                          \
  }                                                                            \
  half##N OVL radians(half##N d) {                                             \
    return F2H(N, H2F(N, d) * (float)(M_PI / 180.0));                          \
  }                                                                            \
  /* in double, (y - x) * a is exact (at most 40 + 11 bits): one rounding */  \
  half##N OVL mix(half##N x, half##N y, half##N a) {                           \
    double##N xd = H2D(N, x);                                                  \
    return loom_h_from_double(xd + (H2D(N, y) - xd) * H2D(N, a));              \
  }                                                                            \
  half##N OVL step(half##N edge, half##N x) {                                  \
    return MASK(N, x < edge, short) ? (half##N)0 : (half##N)1;                 \
  }                                                                            \
  half##N OVL smoothstep(half##N e0, half##N e1, half##N x) {                  \
    float##N f0 = H2F(N, e0);                                                  \
    float##N t = (H2F(N, x) - f0) / (H2F(N, e1) - f0);                         \
    t = __builtin_elementwise_min(__builtin_elementwise_max(t, (float##N)0),   \
                                  (float##N)1);                                \
    return F2H(N, t * t * ((float##N)3 - (float##N)2 * t));                    \
  }                                                                            \
  /* sign(NaN) is 0; sign(+-0) keeps the zero's sign */                        \
  half##N OVL sign(half##N x) {                                                \
    half##N r = MASK(N, x > (half##N)0, short) ? (half##N)1 : (half##N)-1;     \
    r = MASK(N, x == (half##N)0, short) ? x : r;                               \
    return MASK(N, x != x, short) ? (half##N)0 : r;                            \
  }
LOOM_WIDTHS(HC, _)

/* vector forms with scalar arguments */
#define HC_VS(unused, N)                                                       \
  half##N OVL clamp(half##N x, half lo, half hi) {                             \
    return clamp(x, (half##N)lo, (half##N)hi);                                 \
  }                                                                            \
  half##N OVL min(half##N a, half b) { return min(a, (half##N)b); }            \
  half##N OVL max(half##N a, half b) { return max(a, (half##N)b); }            \
  half##N OVL mix(half##N x, half##N y, half a) { return mix(x, y, (half##N)a); } \
  half##N OVL step(half edge, half##N x) { return step((half##N)edge, x); }    \
  half##N OVL smoothstep(half e0, half e1, half##N x) {                        \
    return smoothstep((half##N)e0, (half##N)e1, x);                            \
  }
LOOM_VWIDTHS(HC_VS, _)

/* ---- geometric functions, n = 1-4 ---- */

#define HGEO_DECL(N, unused)                                                   \
  float OVL dot(float##N a, float##N b);                                       \
  float OVL length(float##N a);                                                \
  float OVL distance(float##N a, float##N b);                                  \
  float##N OVL normalize(float##N a);
#define HGEO(N, unused)                                                        \
  HGEO_DECL(N, _)                                                              \
  half OVL dot(half##N a, half##N b) { return (half)dot(H2F(N, a), H2F(N, b)); } \
  half OVL length(half##N a) { return (half)length(H2F(N, a)); }               \
  half OVL distance(half##N a, half##N b) {                                    \
    return (half)distance(H2F(N, a), H2F(N, b));                               \
  }                                                                            \
  half##N OVL normalize(half##N a) { return F2H(N, normalize(H2F(N, a))); }
HGEO(, _) HGEO(2, _) HGEO(3, _) HGEO(4, _)

float3 OVL cross(float3 a, float3 b);
float4 OVL cross(float4 a, float4 b);
half3 OVL cross(half3 a, half3 b) { return F2H(3, cross(H2F(3, a), H2F(3, b))); }
half4 OVL cross(half4 a, half4 b) { return F2H(4, cross(H2F(4, a), H2F(4, b))); }
