/* Geometric functions (OpenCL C 1.13.5) for float and double, n = 1-4.
 *
 * length, distance and normalize must not overflow or underflow in the sum of
 * squares when the result itself is representable: float versions sum in
 * double (whose range holds any float squared), double versions scale the
 * vector by a power of two taken from its largest component first. The fast_*
 * variants (float only, as in the spec) share the accurate code: it is
 * already cheap. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define DOT_FNS(S)                                                             \
  S OVL dot(S a, S b) { return a * b; }                                        \
  S OVL dot(S##2 a, S##2 b) { return a.x * b.x + a.y * b.y; }                  \
  S OVL dot(S##3 a, S##3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }      \
  S OVL dot(S##4 a, S##4 b) {                                                  \
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;                      \
  }                                                                            \
  S##3 OVL cross(S##3 a, S##3 b) {                                             \
    return (S##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,                \
                  a.x * b.y - a.y * b.x);                                      \
  }                                                                            \
  S##4 OVL cross(S##4 a, S##4 b) {                                             \
    return (S##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,                \
                  a.x * b.y - a.y * b.x, (S)0);                                \
  }
DOT_FNS(float)
DOT_FNS(double)

/* largest component magnitude */
static INLINE OVL float hmax_f(float a) { return fabs(a); }
static INLINE OVL float hmax_f(float2 a) { return fmax(fabs(a.x), fabs(a.y)); }
static INLINE OVL float hmax_f(float3 a) { return fmax(hmax_f(a.xy), fabs(a.z)); }
static INLINE OVL float hmax_f(float4 a) { return fmax(hmax_f(a.xy), hmax_f(a.zw)); }
static INLINE OVL double hmax_d(double a) { return fabs(a); }
static INLINE OVL double hmax_d(double2 a) { return fmax(fabs(a.x), fabs(a.y)); }
static INLINE OVL double hmax_d(double3 a) { return fmax(hmax_d(a.xy), fabs(a.z)); }
static INLINE OVL double hmax_d(double4 a) { return fmax(hmax_d(a.xy), hmax_d(a.zw)); }

/* float: widen, sum squares exactly enough in double, round once */
#define FLOAT_GEO(N, DN)                                                       \
  float OVL length(N a) {                                                      \
    DN d = __builtin_convertvector(a, DN);                                     \
    return (float)sqrt(dot(d, d));                                             \
  }                                                                            \
  float OVL distance(N a, N b) {                                               \
    DN d = __builtin_convertvector(a, DN) - __builtin_convertvector(b, DN);    \
    return (float)sqrt(dot(d, d));                                             \
  }                                                                            \
  float OVL fast_length(N a) { return length(a); }                             \
  float OVL fast_distance(N a, N b) { return distance(a, b); }                 \
  N OVL normalize(N a) {                                                       \
    N inf_dir = copysign(isinf(a) ? (N)1 : (N)0, a);                           \
    N v = hmax_f(a) == INFINITY ? inf_dir : a;                                 \
    DN d = __builtin_convertvector(v, DN);                                     \
    double len = sqrt(dot(d, d));                                              \
    N r = __builtin_convertvector(d / len, N);                                 \
    return len == 0.0 ? a : r;                                                 \
  }                                                                            \
  N OVL fast_normalize(N a) { return normalize(a); }
FLOAT_GEO(float2, double2)
FLOAT_GEO(float3, double3)
FLOAT_GEO(float4, double4)

float OVL length(float a) { return fabs(a); }
float OVL distance(float a, float b) { return (float)fabs((double)a - (double)b); }
float OVL fast_length(float a) { return fabs(a); }
float OVL fast_distance(float a, float b) { return distance(a, b); }
float OVL normalize(float a) { return a == 0.0f || isnan(a) ? a : copysign(1.0f, a); }
float OVL fast_normalize(float a) { return normalize(a); }

/* double: scale by 2^-e where 2^e is near the largest component */
#define DOUBLE_GEO(N)                                                          \
  double OVL length(N a) {                                                     \
    double m = hmax_d(a);                                                      \
    int e = ilogb(m);                                                          \
    bool scale = m != 0.0 && m != INFINITY && !isnan(m) &&                     \
                 (e > 500 || e < -500);                                        \
    int k = scale ? e : 0;                                                     \
    N s = ldexp(a, -k);                                                        \
    return ldexp(sqrt(dot(s, s)), k);                                          \
  }                                                                            \
  double OVL distance(N a, N b) { return length(a - b); }                      \
  N OVL normalize(N a) {                                                       \
    N inf_dir = copysign(isinf(a) ? (N)1 : (N)0, a);                           \
    double m = hmax_d(a);                                                      \
    N v = m == INFINITY ? inf_dir : a;                                         \
    m = m == INFINITY ? 1.0 : m;                                               \
    int k = (m != 0.0 && !isnan(m)) ? ilogb(m) : 0;                            \
    N s = ldexp(v, -k);                                                        \
    double len = sqrt(dot(s, s));                                              \
    N r = s / len;                                                             \
    return len == 0.0 ? a : r;                                                 \
  }
DOUBLE_GEO(double2)
DOUBLE_GEO(double3)
DOUBLE_GEO(double4)

double OVL length(double a) { return fabs(a); }
double OVL distance(double a, double b) { return fabs(a - b); }
double OVL normalize(double a) { return a == 0.0 || isnan(a) ? a : copysign(1.0, a); }
