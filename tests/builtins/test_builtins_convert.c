/* The explicit conversions (OpenCL C 2.0, 1.2.3): convert_<D><n>[_sat]
 * [_rte|_rtz|_rtp|_rtn] from each of the 10 scalar types to each of them, at
 * widths 1, 3 and 16, on boundary values (every type's limits and their
 * neighbours, ties at .5 and at 2^24+1, 2^53+1 and below 2^63 and 2^64,
 * +-0, denormals, +-Inf, NaN) and random values.
 *
 * References: integer results from 128-bit and long double arithmetic (long
 * double holds every 64-bit integer exactly) after rounding with rint, trunc,
 * ceil or floor; floating-point results from the host's own conversion run
 * under fesetround with the requested mode. Out-of-range float-to-integer
 * conversions without _sat are implementation-defined and only have to
 * complete; NaN results may be any NaN. */
#include "harness.h"
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>

#define NIN 384 /* inputs per source type; a multiple of 48 */
#define NVAR 10 /* the variants of one destination */

struct ctype {
  const char *name;
  int size, sgn, fp;
};
static const struct ctype types[10] = {
    {"char", 1, 1, 0},  {"uchar", 1, 0, 0}, {"short", 2, 1, 0}, {"ushort", 2, 0, 0},
    {"int", 4, 1, 0},   {"uint", 4, 0, 0},  {"long", 8, 1, 0},  {"ulong", 8, 0, 0},
    {"float", 4, 1, 1}, {"double", 8, 1, 1},
};
static const char *const modes[5] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int widths[] = {1, 3, 16};
#define NWIDTHS 3

/* variant v of a destination: mode v % 5, saturated when v >= 5 */
static int nvariants(const struct ctype *d) { return d->fp ? 5 : 10; }

typedef __int128 i128;

static uint64_t rng_state = 0xD1B54A32D192ED03ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

/* ---------- inputs ---------- */

static const uint64_t int_spec[] = {
    0, 1, 2, 3, (uint64_t)-1, (uint64_t)-2, 127, 128, 129, (uint64_t)-127, (uint64_t)-128,
    (uint64_t)-129, 255, 256, 32767, 32768, (uint64_t)-32768, (uint64_t)-32769, 65535, 65536,
    0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, (uint64_t)-0x80000000ll,
    (uint64_t)-0x80000001ll, INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX, (uint64_t)INT64_MIN + 1,
    /* float ties and neighbours: 2^24 + 1 (tie), 2^25 + 2, 2^25 + 6, 2^31 - 64 ... */
    1 << 24, (1 << 24) + 1, (1 << 24) + 2, (1 << 24) + 3, (1 << 24) - 1, (uint64_t)-((1 << 24) + 1),
    (uint64_t)-((1 << 24) + 3), (1 << 25) + 2, (1 << 25) + 6, (1 << 25) + 1, (1 << 25) + 3,
    0x7fffffc0, 0x7fffffbf, 0x7fffffc1, 0xffffff80, 0xffffff7f, 0xffffff81, (uint64_t)-0x7fffffc0ll,
    /* double ties: 2^53 + 1, ...; near 2^63 and 2^64 for float and double */
    (1ull << 53), (1ull << 53) + 1, (1ull << 53) + 2, (1ull << 53) + 3, (uint64_t)-((1ll << 53) + 1),
    (uint64_t)-((1ll << 53) + 3), (1ull << 63) - 512, (1ull << 63) - 513, (1ull << 63) - 511,
    UINT64_MAX - 1023, UINT64_MAX - 1024, UINT64_MAX - 1022, (1ull << 63) - (1ull << 38),
    (1ull << 63) - (1ull << 38) - 1, UINT64_MAX - (1ull << 39) + 1, UINT64_MAX - (1ull << 39),
    (uint64_t)INT64_MIN + 512, (uint64_t)INT64_MIN + 513, 0x123456789abcdef0ull,
    0xfedcba9876543210ull, 0x00000000ffffff7full, 0x000000007fffffbfull, 0x8000008000000001ull,
};

static const float float_spec[] = {
    0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -1.5f, -2.5f, 0.49999997f, 0.50000006f, 1.0f, -1.0f,
    0.99999994f, -0.99999994f, 126.5f, 127.0f, 127.4f, 127.5f, 127.99999f, 128.0f, 128.5f,
    -127.5f, -128.0f, -128.5f, -128.6f, -129.0f, 254.5f, 255.0f, 255.5f, 256.0f, -0.7f, 32766.5f,
    32767.0f, 32767.5f, 32768.0f, -32768.0f, -32768.5f, -32769.0f, 65534.5f, 65535.0f, 65535.5f,
    65536.0f, 2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f,
    4294967296.0f, 9223371487098961920.0f, 9223372036854775808.0f, -9223372036854775808.0f,
    -9223373136366403584.0f, 18446742974197923840.0f, 18446744073709551616.0f, 1e30f, -1e30f,
    FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -NAN, FLT_MIN, -FLT_MIN, 0x1p-149f, -0x1p-149f,
    1e-40f, 8388607.5f, 4194304.5f, -8388607.5f, 16777215.0f, 16777216.0f, 3.5f, -3.5f, 0.25f,
};

static const double double_spec[] = {
    2147483647.0, 2147483647.5, 2147483646.5, 2147483648.0, -2147483648.5, -2147483647.5,
    -2147483649.0, 4294967295.0, 4294967295.5, 4294967296.0, 9223372036854774784.0,
    18446744073709549568.0, -9223372036854775808.0, -9223372036854777856.0,
    /* double -> float: ties and neighbours at 1, at FLT_MAX, in the denormals */
    1 + 0x1p-24, 1 + 0x3p-24, 1 + 0x1p-24 + 0x1p-52, 1 + 0x1p-25, -(1 + 0x1p-24),
    -(1 + 0x3p-24), -(1 + 0x1p-24 + 0x1p-52), 0x1.fffffep127, 0x1.fffffep127 + 0x1p103,
    0x1.fffffep127 + 0x1p102, -(0x1.fffffep127 + 0x1p103), -(0x1.fffffep127 + 0x1p102), 0x1p128,
    -0x1p128, 1e300, -1e300, DBL_MAX, -DBL_MAX, 0x1p-149, 0x1p-150, 0x3p-151, 0x1p-151, 0x3p-150,
    -0x1p-150, -0x3p-151, 1e-40, 1e-39, -1e-39, 0x1.fffffffp-127, DBL_MIN, 0x1p-1074, -0x1p-1074,
    /* double -> integer ties */
    4503599627370496.5, 4503599627370497.5, -4503599627370496.5, 0x1p52 - 0.5, 1e16, -1e16,
};

/* raw bits of NIN inputs of type s */
static void make_inputs(const struct ctype *s, uint64_t *in) {
  int n = 0;
  if (!s->fp) {
    for (size_t i = 0; i < sizeof int_spec / sizeof *int_spec; i++)
      in[n++] = int_spec[i];
    while (n < NIN) {
      uint64_t r = rnd();
      in[n] = n & 1 ? r : r >> (rnd() % 64); /* every magnitude */
      n++;
    }
    for (int i = 0; i < NIN; i++)
      in[i] &= s->size == 8 ? ~0ull : (1ull << (8 * s->size)) - 1;
    return;
  }
  double vals[NIN];
  for (size_t i = 0; i < sizeof float_spec / sizeof *float_spec; i++)
    vals[n++] = float_spec[i];
  if (s->size == 8)
    for (size_t i = 0; i < sizeof double_spec / sizeof *double_spec; i++)
      vals[n++] = double_spec[i];
  while (n < NIN) {
    /* random magnitudes up to 2^66, every fourth a tie at .5 */
    double v = ldexp((double)(rnd() >> 11), (int)(rnd() % 67) - 53);
    if (n % 4 == 0)
      v = floor(v) + 0.5;
    vals[n++] = rnd() & 1 ? -v : v;
  }
  for (int i = 0; i < NIN; i++) {
    if (s->size == 8) {
      memcpy(&in[i], &vals[i], 8);
    } else {
      float f = (float)vals[i];
      uint32_t u;
      memcpy(&u, &f, 4);
      in[i] = u;
    }
  }
}

/* ---------- references ---------- */

struct value {
  int fp;
  i128 i;   /* integer sources */
  double f; /* floating-point sources (float is exact in double) */
};
static struct value value_of(const struct ctype *s, uint64_t raw) {
  struct value v = {s->fp, 0, 0};
  if (s->fp && s->size == 4) {
    float f;
    uint32_t u = (uint32_t)raw;
    memcpy(&f, &u, 4);
    v.f = f;
  } else if (s->fp) {
    memcpy(&v.f, &raw, 8);
  } else if (s->sgn) {
    int sh = 64 - 8 * s->size;
    v.i = (i128)((int64_t)(raw << sh) >> sh);
  } else {
    v.i = (i128)raw;
  }
  return v;
}

static i128 dmin(const struct ctype *d) { return d->sgn ? -((i128)1 << (8 * d->size - 1)) : 0; }
static i128 dmax(const struct ctype *d) {
  return ((i128)1 << (8 * d->size - d->sgn)) - 1;
}
static uint64_t bits_of(const struct ctype *d, i128 v) {
  return (uint64_t)v & (d->size == 8 ? ~0ull : (1ull << (8 * d->size)) - 1);
}

/* integer destination: 0 when the result is implementation-defined */
static int ref_int(const struct ctype *d, struct value v, int mode, int sat, uint64_t *out) {
  if (!v.fp) {
    i128 x = v.i;
    if (sat)
      x = x < dmin(d) ? dmin(d) : x > dmax(d) ? dmax(d) : x;
    *out = bits_of(d, x);
    return 1;
  }
  if (isnan(v.f)) {
    *out = 0;
    return sat;
  }
  double r = mode == 1 ? rint(v.f) : mode == 3 ? ceil(v.f) : mode == 4 ? floor(v.f) : trunc(v.f);
  long double lr = r;
  if (lr < (long double)dmin(d) || lr > (long double)dmax(d)) {
    *out = bits_of(d, lr < 0 ? dmin(d) : dmax(d));
    return sat;
  }
  *out = bits_of(d, lr < 0 ? (i128)(int64_t)lr : (i128)(uint64_t)lr);
  return 1;
}

/* floating-point destination: the host converts under the requested mode
 * (volatile keeps the conversion between the fesetround calls) */
static uint64_t ref_fp(const struct ctype *d, struct value v, int mode) {
  static const int fe[5] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  volatile double vf = v.f;
  volatile int64_t vi = (int64_t)v.i;
  volatile uint64_t vu = (uint64_t)v.i;
  int from_signed = v.i < 0;
  uint64_t out = 0;
  fesetround(fe[mode]);
  if (d->size == 4) {
    volatile float r = v.fp ? (float)vf : from_signed ? (float)vi : (float)vu;
    float rr = r;
    memcpy(&out, &rr, 4);
  } else {
    volatile double r = v.fp ? (double)vf : from_signed ? (double)vi : (double)vu;
    double rr = r;
    memcpy(&out, &rr, 8);
  }
  fesetround(FE_TONEAREST);
  return out;
}

static int is_nan_bits(const struct ctype *d, uint64_t b) {
  if (d->size == 4)
    return (b & 0x7fffffff) > 0x7f800000;
  return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

/* ---------- kernels ---------- */

static void vtype(char *buf, size_t n, const char *scalar, int w) {
  if (w == 1)
    snprintf(buf, n, "%s", scalar);
  else
    snprintf(buf, n, "%s%d", scalar, w);
}

/* for source s: kernel k<w> converts its W inputs to every destination in
 * every variant; output o<d> holds variant v of input j at v * NIN + j */
static char *kernel_source(const struct ctype *s) {
  size_t len = 0, cap = 65536;
  char *src = malloc(cap);
  src[0] = 0;
  test_appendf(&src, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  for (int wi = 0; wi < NWIDTHS; wi++) {
    int w = widths[wi];
    char vs[16];
    vtype(vs, sizeof vs, s->name, w);
    test_appendf(&src, &len, &cap, "kernel void k%d(global const %s *in", w, s->name);
    for (int d = 0; d < 10; d++)
      test_appendf(&src, &len, &cap, ", global %s *o%d", types[d].name, d);
    test_appendf(&src, &len, &cap,
           ") {\n  int i = get_global_id(0);\n  %s x;\n"
           "  for (int k = 0; k < %d; k++) ((%s *)&x)[k] = in[%d * i + k];\n",
           vs, w, s->name, w);
    for (int d = 0; d < 10; d++) {
      char vd[16];
      vtype(vd, sizeof vd, types[d].name, w);
      for (int v = 0; v < nvariants(&types[d]); v++)
        test_appendf(&src, &len, &cap,
               "  { %s r = convert_%s%s%s(x);\n"
               "    for (int k = 0; k < %d; k++) o%d[%d + %d * i + k] = ((%s *)&r)[k]; }\n",
               vd, vd, v >= 5 ? "_sat" : "", modes[v % 5], w, d, v * NIN, w, types[d].name);
    }
    test_appendf(&src, &len, &cap, "}\n");
  }
  return src;
}

static void test_source(struct test_env *env, const struct ctype *s) {
  uint64_t in[NIN];
  make_inputs(s, in);
  char *raw = malloc((size_t)NIN * s->size);
  for (int i = 0; i < NIN; i++)
    memcpy(raw + (size_t)i * s->size, &in[i], (size_t)s->size);
  char *src = kernel_source(s);
  cl_int err;
  const char *csrc = src;
  cl_program p = clCreateProgramWithSource(env->context, 1, &csrc, NULL, &err);
  CHECK_OK(err);
  err = clBuildProgram(p, 1, &env->device, NULL, NULL, NULL);
  CHECK_OK(err);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "from %s: build log:\n%s\n", s->name, log);
  } else {
    cl_mem bin = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, (size_t)NIN * s->size, raw, &err);
    CHECK_OK(err);
    cl_mem bout[10];
    char *out[10];
    for (int d = 0; d < 10; d++) {
      size_t size = (size_t)NVAR * NIN * types[d].size;
      bout[d] = clCreateBuffer(env->context, CL_MEM_READ_WRITE, size, NULL, &err);
      CHECK_OK(err);
      out[d] = malloc(size);
    }
    for (int wi = 0; wi < NWIDTHS; wi++) {
      int w = widths[wi], bad = 0;
      char name[8];
      snprintf(name, sizeof name, "k%d", w);
      cl_kernel k = clCreateKernel(p, name, &err);
      CHECK_OK(err);
      CHECK_OK(clSetKernelArg(k, 0, sizeof bin, &bin));
      for (int d = 0; d < 10; d++)
        CHECK_OK(clSetKernelArg(k, (cl_uint)d + 1, sizeof bout[d], &bout[d]));
      size_t global = NIN / w;
      CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
      for (int d = 0; d < 10; d++)
        CHECK_OK(clEnqueueReadBuffer(env->queue, bout[d], CL_TRUE, 0,
                                     (size_t)NVAR * NIN * types[d].size, out[d], 0, NULL, NULL));
      clReleaseKernel(k);
      for (int d = 0; d < 10; d++) {
        const struct ctype *dt = &types[d];
        for (int v = 0; v < nvariants(dt); v++)
          for (int j = 0; j < NIN; j++) {
            struct value x = value_of(s, in[j]);
            uint64_t want = 0, got = 0;
            memcpy(&got, out[d] + ((size_t)v * NIN + j) * dt->size, (size_t)dt->size);
            int ok;
            if (dt->fp) {
              want = ref_fp(dt, x, v % 5);
              ok = got == want || (is_nan_bits(dt, want) && is_nan_bits(dt, got));
            } else {
              if (!ref_int(dt, x, v % 5, v >= 5, &want))
                continue; /* implementation-defined */
              ok = got == want;
            }
            test_checks++;
            if (!ok) {
              test_failures++;
              if (bad++ < 12)
                fprintf(stderr, "convert_%s%s%s%s(%s 0x%llx) = 0x%llx, expected 0x%llx (width %d)\n",
                        dt->name, w == 1 ? "" : w == 3 ? "3" : "16", v >= 5 ? "_sat" : "",
                        modes[v % 5], s->name, (unsigned long long)in[j],
                        (unsigned long long)got, (unsigned long long)want, w);
            }
          }
      }
    }
    clReleaseMemObject(bin);
    for (int d = 0; d < 10; d++) {
      clReleaseMemObject(bout[d]);
      free(out[d]);
    }
  }
  clReleaseProgram(p);
  free(src);
  free(raw);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  for (int s = 0; s < 10; s++)
    test_source(&env, &types[s]);
  test_env_release(&env);
  return test_finish("test_builtins_convert");
}
