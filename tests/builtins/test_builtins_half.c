/* cl_khr_fp16: the extension as the front end sees it (macros, pragma, half
 * kernel arguments, CL1.2 and CL3.0), the arithmetic operators and every
 * math function of OpenCL C 2.0 6.13.2 for half at widths 1, 3 and 16.
 * Inputs are special values (+-0, the smallest subnormal 2^-24, the smallest
 * normal, 65504, +-Inf, NaN, halfway cases) crossed with each other, and
 * random halves. References are computed on the host in long double (or
 * exactly in integers) and rounded to half by tests/half_ref.h; + - * / sqrt
 * fma and the exact functions must match bit for bit, the others stay within
 * the extension's ULP table. Conversions, relational, common, geometric and
 * the other families are in test_builtins_half_families.c. */
#include "harness.h"
#include "math_ref.h"
#include "half_ref.h"
#include <CL/cl_ext.h>
#include <limits.h>

#define NE 768 /* elements per buffer: divisible by 3 and 16 */

enum kind { UN, BIN, WITH_INT };
struct fn {
  const char *name;
  enum kind kind;
  double ulp; /* 0: correctly rounded or exact, bit for bit */
};
/* the half column of the extension's ULP table */
static const struct fn fns[] = {
    {"acos", UN, 2},       {"acosh", UN, 2},     {"acospi", UN, 2},   {"asin", UN, 2},
    {"asinh", UN, 2},      {"asinpi", UN, 2},    {"atan", UN, 2},     {"atanh", UN, 2},
    {"atanpi", UN, 2},     {"cbrt", UN, 2},      {"ceil", UN, 0},     {"cos", UN, 2},
    {"cosh", UN, 2},       {"cospi", UN, 2},     {"erfc", UN, 4},     {"erf", UN, 4},
    {"exp", UN, 2},        {"exp2", UN, 2},      {"exp10", UN, 2},    {"expm1", UN, 2},
    {"fabs", UN, 0},       {"floor", UN, 0},     {"log", UN, 2},      {"log2", UN, 2},
    {"log10", UN, 2},      {"log1p", UN, 2},     {"logb", UN, 0},     {"rint", UN, 0},
    {"round", UN, 0},      {"rsqrt", UN, 1},     {"sin", UN, 2},      {"sinh", UN, 2},
    {"sinpi", UN, 2},      {"sqrt", UN, 0},      {"tan", UN, 2},      {"tanh", UN, 2},
    {"tanpi", UN, 2},      {"tgamma", UN, 4},    {"lgamma", UN, 64},  {"atan2", BIN, 2},
    {"atan2pi", BIN, 2},   {"copysign", BIN, 0}, {"fdim", BIN, 0},    {"fmax", BIN, 0},
    {"fmin", BIN, 0},      {"fmod", BIN, 0},     {"hypot", BIN, 2},   {"maxmag", BIN, 0},
    {"minmag", BIN, 0},    {"nextafter", BIN, 0}, {"pow", BIN, 4},    {"powr", BIN, 4},
    {"remainder", BIN, 0}, {"pown", WITH_INT, 4}, {"rootn", WITH_INT, 4},
    {"ldexp", WITH_INT, 0},
};
#define NFN (int)(sizeof fns / sizeof fns[0])
/* half slots after the table */
enum { S_FRACT = NFN, S_FRACTI, S_MODF, S_MODFI, S_FREXP, S_LGR, S_REMQUO, S_SIN, S_COS,
       S_FMA, S_MAD, S_ADD, S_SUB, S_MUL, S_DIV, S_NAN, S_LDEXPS, S_MULADD, NSLOT };
/* int slots */
enum { I_ILOGB, I_FREXP, I_LGR, I_REMQUO, NISLOT };

static uint64_t rng_state = 0x51ED2701A3C4E9B5ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

static uint16_t h_of(long double v) { return half_from_ld(v, H_RTE); }
static long double ld(uint16_t h) { return (long double)half_to_float(h); }

/* ---- the front end ---- */

static void test_front_end(struct test_env *env) {
  /* the macro, the pragma, half literals and limits in CL1.2 (the default)
   * and CL3.0 programs; a half scalar and a half4 argument */
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "__kernel void k(__global half *o, __global int *flags, half s, half4 v) {\n"
      "#ifdef cl_khr_fp16\n  flags[0] = 1;\n#else\n  flags[0] = 0;\n#endif\n"
      "  flags[1] = HALF_MANT_DIG == 11 && HALF_MAX_EXP == 16 && HALF_DIG == 3;\n"
      "  flags[2] = sizeof(half) == 2 && sizeof(half3) == 8 && vec_step(half16) == 16;\n"
      "  half x = 1.5h;\n"
      "  o[0] = x * s;\n  o[1] = HALF_MAX;\n  o[2] = HALF_MIN;\n  o[3] = HALF_EPSILON;\n"
      "  o[4] = M_PI_H;\n  o[5] = v.x + v.y + v.z + v.w;\n"
      "  short4 m = v > (half4)2.0h;\n  flags[3] = m.x == 0 && m.w == -1;\n"
      "}\n";
  const char *opts[] = {NULL, "-cl-std=CL1.2", "-cl-std=CL3.0"};
  for (int o = 0; o < 3; o++) {
    cl_kernel k = test_kernel_from(env, src, "k", opts[o]);
    if (!k)
      continue;
    cl_mem out = test_buffer_with(env, 16, NULL), flags = test_buffer_with(env, 16, NULL);
    cl_half s = 0xc000; /* -2 */
    cl_half v[4] = {0x3c00, 0x4000, 0x4200, 0x4400}; /* 1 2 3 4 */
    CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_OK(clSetKernelArg(k, 1, sizeof flags, &flags));
    CHECK_OK(clSetKernelArg(k, 2, sizeof s, &s));
    CHECK_OK(clSetKernelArg(k, 3, sizeof v, v));
    CHECK_ERR(clSetKernelArg(k, 2, 4, &s), CL_INVALID_ARG_SIZE);
    size_t one = 1;
    CHECK_OK(test_run(env, k, 1, NULL, &one, &one));
    uint16_t h[6];
    int f[4];
    test_read_back(env, out, sizeof h, h);
    test_read_back(env, flags, sizeof f, f);
    CHECK(f[0] == 1 && f[1] == 1 && f[2] == 1 && f[3] == 1);
    CHECK(h[0] == 0xc200); /* -3 */
    CHECK(h[1] == 0x7bff && h[2] == 0x0400 && h[3] == 0x1400);
    CHECK(h[4] == 0x4248);                /* pi rounded to half */
    CHECK(h[5] == 0x4900);                /* 10 */
    clReleaseMemObject(out);
    clReleaseMemObject(flags);
    clReleaseKernel(k);
  }
  /* as in OpenCL C 1.2, half variables need the pragma */
  const char *no_pragma = "__kernel void k(__global half *a) { half x = a[0]; a[1] = x; }\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &no_pragma, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[4096] = "";
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  CHECK(strstr(log, "half") != NULL);
  clReleaseProgram(p);
  /* the device reports the extension and its configuration */
  char ext[2048] = "";
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  CHECK(strstr(ext, "cl_khr_fp16") != NULL);
  cl_device_fp_config cfg = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_HALF_FP_CONFIG, sizeof cfg, &cfg, NULL));
  CHECK((cfg & (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA)) ==
        (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
  CHECK(!(cfg & CL_FP_SOFT_FLOAT));
  cl_uint w = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof w, &w, NULL));
  CHECK(w >= 1);
}

/* ---- the math kernel ---- */

static char *kernel_source(int w) {
  size_t len = 0, cap = 8192;
  char *src = malloc(cap);
  char t[16], it[16], ut[16];
  snprintf(t, sizeof t, w == 1 ? "half" : "half%d", w);
  snprintf(it, sizeof it, w == 1 ? "int" : "int%d", w);
  snprintf(ut, sizeof ut, w == 1 ? "ushort" : "ushort%d", w);
  test_appendf(&src, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  if (w == 1)
    test_appendf(&src, &len, &cap, "#define LD(p) (p)[i]\n#define ST(v, p) ((p)[i] = (v))\n");
  else
    test_appendf(&src, &len, &cap,
                 "#define LD(p) vload%d(i, p)\n#define ST(v, p) vstore%d(v, i, p)\n", w, w);
  test_appendf(&src, &len, &cap,
               "__kernel void k(__global const half *a, __global const half *b,\n"
               "  __global const half *c, __global const int *n, __global half *o,\n"
               "  __global int *oi, __global half *gt, __global int *gi) {\n"
               "  size_t i = get_global_id(0);\n  __local %s lt[16];\n"
               "  %s x = LD(a), y = LD(b), z = LD(c), s;\n  %s k = LD(n), q;\n",
               t, t, it);
  for (int f = 0; f < NFN; f++)
    test_appendf(&src, &len, &cap, "  ST(%s(x%s), o + %d * %d);\n", fns[f].name,
                 fns[f].kind == UN ? "" : fns[f].kind == BIN ? ", y" : ", k", f, NE);
  test_appendf(&src, &len, &cap,
               "  ST(fract(x, (__global %s *)gt + i), o + %d * %d);\n"
               "  ST(((__global %s *)gt)[i], o + %d * %d);\n"
               "  ST(modf(x, &lt[get_local_id(0)]), o + %d * %d);\n"
               "  ST(lt[get_local_id(0)], o + %d * %d);\n"
               "  ST(frexp(x, (__global %s *)gi + i), o + %d * %d);\n"
               "  ST(((__global %s *)gi)[i], oi + %d * %d);\n"
               "  ST(lgamma_r(x, &q), o + %d * %d); ST(q, oi + %d * %d);\n"
               "  ST(remquo(x, y, &q), o + %d * %d); ST(q, oi + %d * %d);\n"
               "  ST(sincos(x, &s), o + %d * %d); ST(s, o + %d * %d);\n"
               "  ST(fma(x, y, z), o + %d * %d); ST(mad(x, y, z), o + %d * %d);\n"
               "  ST(x + y, o + %d * %d); ST(x - y, o + %d * %d);\n"
               "  ST(x * y, o + %d * %d); ST(x / y, o + %d * %d);\n"
               "  ST(nan(as_%s(x)), o + %d * %d);\n"
               "  ST(ldexp(x, 3), o + %d * %d);\n"
               "  ST(x * y + z, o + %d * %d);\n"
               "  ST(ilogb(x), oi + %d * %d);\n}\n",
               t, S_FRACT, NE, t, S_FRACTI, NE, S_MODF, NE, S_MODFI, NE, it, S_FREXP, NE, it, I_FREXP,
               NE, S_LGR, NE, I_LGR, NE, S_REMQUO, NE, I_REMQUO, NE, S_SIN, NE, S_COS, NE, S_FMA,
               NE, S_MAD, NE, S_ADD, NE, S_SUB, NE, S_MUL, NE, S_DIV, NE, ut, S_NAN, NE, S_LDEXPS,
               NE, S_MULADD, NE, I_ILOGB, NE);
  return src;
}

/* ---- host references ---- */

static long double mag_ref(long double x, long double y, int max) {
  if (fabsl(x) > fabsl(y)) return max ? x : y;
  if (fabsl(y) > fabsl(x)) return max ? y : x;
  return max ? fmaxl(x, y) : fminl(x, y);
}

/* nextafter on half bit patterns */
static uint16_t nextafter_h(uint16_t x, uint16_t y) {
  float fx = half_to_float(x), fy = half_to_float(y);
  if (isnan(fx) || isnan(fy))
    return 0x7e00;
  if (fx == fy)
    return y;
  if (fx == 0)
    return fy > 0 ? 0x0001 : 0x8001;
  int away = (fx < fy) == (fx > 0);
  return (uint16_t)(away ? x + 1 : x - 1);
}

static long double ref(const struct fn *f, long double x, long double y, int n) {
  const char *m = f->name;
  if (!strcmp(m, "acos")) return acosl(x);
  if (!strcmp(m, "acosh")) return acoshl(x);
  if (!strcmp(m, "acospi")) return acosl(x) / M_PIl;
  if (!strcmp(m, "asin")) return asinl(x);
  if (!strcmp(m, "asinh")) return asinhl(x);
  if (!strcmp(m, "asinpi")) return asinl(x) / M_PIl;
  if (!strcmp(m, "atan")) return atanl(x);
  if (!strcmp(m, "atanh")) return atanhl(x);
  if (!strcmp(m, "atanpi")) return atanl(x) / M_PIl;
  if (!strcmp(m, "cbrt")) return cbrtl(x);
  if (!strcmp(m, "ceil")) return ceill(x);
  if (!strcmp(m, "cos")) return cosl(x);
  if (!strcmp(m, "cosh")) return coshl(x);
  if (!strcmp(m, "cospi")) return cospi_ref(x);
  if (!strcmp(m, "erfc")) return erfcl(x);
  if (!strcmp(m, "erf")) return erfl(x);
  if (!strcmp(m, "exp")) return expl(x);
  if (!strcmp(m, "exp2")) return exp2l(x);
  if (!strcmp(m, "exp10")) return exp10l(x);
  if (!strcmp(m, "expm1")) return expm1l(x);
  if (!strcmp(m, "fabs")) return fabsl(x);
  if (!strcmp(m, "floor")) return floorl(x);
  if (!strcmp(m, "log")) return logl(x);
  if (!strcmp(m, "log2")) return log2l(x);
  if (!strcmp(m, "log10")) return log10l(x);
  if (!strcmp(m, "log1p")) return log1pl(x);
  if (!strcmp(m, "logb")) return logbl(x);
  if (!strcmp(m, "rint")) return rintl(x);
  if (!strcmp(m, "round")) return roundl(x);
  if (!strcmp(m, "rsqrt")) return 1.0L / sqrtl(x);
  if (!strcmp(m, "sin")) return sinl(x);
  if (!strcmp(m, "sinh")) return sinhl(x);
  if (!strcmp(m, "sinpi")) return sinpi_ref(x);
  if (!strcmp(m, "sqrt")) return sqrtl(x);
  if (!strcmp(m, "tan")) return tanl(x);
  if (!strcmp(m, "tanh")) return tanhl(x);
  if (!strcmp(m, "tanpi")) return tanpi_ref(x);
  if (!strcmp(m, "tgamma")) return tgammal(x);
  if (!strcmp(m, "lgamma")) return lgammal(x);
  if (!strcmp(m, "atan2")) return atan2l(x, y);
  if (!strcmp(m, "atan2pi")) {
    if (isinf(x) && isinf(y)) return copysignl(y > 0 ? 0.25L : 0.75L, x);
    return atan2l(x, y) / M_PIl;
  }
  if (!strcmp(m, "copysign")) return copysignl(x, y);
  if (!strcmp(m, "fdim")) return (isnan(x) || isnan(y)) ? NAN : x > y ? x - y : 0.0L;
  if (!strcmp(m, "fmax")) return fmaxl(x, y);
  if (!strcmp(m, "fmin")) return fminl(x, y);
  if (!strcmp(m, "fmod")) return fmodl(x, y);
  if (!strcmp(m, "hypot")) return hypotl(x, y);
  if (!strcmp(m, "maxmag")) return mag_ref(x, y, 1);
  if (!strcmp(m, "minmag")) return mag_ref(x, y, 0);
  if (!strcmp(m, "nextafter")) return ld(nextafter_h(h_of(x), h_of(y)));
  if (!strcmp(m, "pow")) return powl(x, y);
  if (!strcmp(m, "powr")) return powr_ref(x, y);
  if (!strcmp(m, "remainder")) return remainderl(x, y);
  if (!strcmp(m, "pown")) return n == 0 ? 1.0L : powl(x, (long double)n);
  if (!strcmp(m, "rootn")) return rootn_ref(x, n);
  if (!strcmp(m, "ldexp")) return ldexpl(x, n);
  return NAN;
}

/* fma(a, b, c) exactly: the halves are integer multiples of 2^-24 */
static uint16_t fma_ref(uint16_t a, uint16_t b, uint16_t c) {
  long double fa = ld(a), fb = ld(b), fc = ld(c);
  if (isnan(fa) || isnan(fb) || isnan(fc) || isinf(fa) || isinf(fb) || isinf(fc))
    return h_of(fa * fb + fc);
  __int128 p = (__int128)(int64_t)ldexpl(fa, 24) * (int64_t)ldexpl(fb, 24); /* 2^-48 */
  __int128 s = p + ((__int128)(int64_t)ldexpl(fc, 24) << 24);
  if (s == 0) /* exact zero: IEEE signs */
    return ((signbit(fa) != signbit(fb)) && signbit(fc)) ? 0x8000 : 0;
  return half_round(s < 0, (unsigned __int128)(s < 0 ? -s : s), -48, H_RTE);
}

static int reported;
/* got against want: within ulp half ulps, or bit for bit (ulp 0, or where
 * the rounded reference is a zero, an infinity or a NaN) */
static void check_half(const char *what, long double x, long double y, uint16_t got,
                       long double want, double ulp, int w) {
  uint16_t rw = h_of(want);
  long double g = ld(got);
  double err = isnan(want) || isinf(want) ? 0 : (double)(fabsl(g - want) / half_ulp(want));
  int exact = half_is_nan(rw) ? half_is_nan(got) : got == rw;
  int ok;
  if (ulp == 0 || half_is_nan(rw) || (rw & 0x7fff) == 0x7c00 || want == 0)
    ok = exact || (ulp > 0 && !isnan(want) && want != 0 && !isnan(g) && err <= ulp);
  else
    ok = !isnan(g) && !isinf(g) && err <= ulp;
  test_checks++;
  if (!ok) {
    test_failures++;
    if (reported++ < 40)
      fprintf(stderr, "half%d %s(%La, %La) = %La (0x%04x), want %La (%.2f ulp)\n", w, what, x,
              y, g, got, want, err);
  }
}

/* inputs: specials crossed with specials, then random halves */
static void make_inputs(uint16_t *xs, uint16_t *ys, uint16_t *zs, int *ns) {
  static const uint16_t sp[] = {
      0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x7c00,
      0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x3e00, 0xc100, 0x4200, 0x4900,
      0xc700, 0x3bff, 0x3c01, 0x5648, 0x1000, 0x4000, 0x6800, 0x3400, 0x3a00, 0xb400};
  const int nsp = (int)(sizeof sp / sizeof sp[0]);
  int i = 0;
  for (int a = 0; a < nsp && i < NE; a++)
    for (int b = 0; b < nsp && i < NE; b += 2) {
      xs[i] = sp[a];
      ys[i] = sp[b];
      zs[i] = sp[(a + b) % nsp];
      ns[i] = (int)(rnd() % 11) - 5;
      i++;
    }
  /* a * b + c where an fma in float rounds to a half midpoint: rounded again
   * it matches neither the fused nor the unfused result */
  static const uint16_t twice[][3] = {{0x41c9, 0x65e4, 0x9fcd}, {0x228a, 0x6572, 0x145f},
                                      {0x53d3, 0x4888, 0x9df8}, {0x213b, 0x70c8, 0x95ff},
                                      {0x47ab, 0x4d81, 0x995f}};
  for (int t = 0; t < 5; t++, i++) {
    xs[i] = twice[t][0];
    ys[i] = twice[t][1];
    zs[i] = twice[t][2];
    ns[i] = 0;
  }
  while (i < NE) {
    uint64_t r = rnd();
    /* any finite bit pattern, or values of moderate magnitude */
    uint16_t x = (uint16_t)r, y = (uint16_t)(r >> 16), z = (uint16_t)(r >> 32);
    if (r & (1ull << 60)) {
      x = (uint16_t)((x & 0x83ff) | ((0x3000 + (x & 0x1c00)) & 0x7c00));
      y = (uint16_t)((y & 0x83ff) | ((0x3400 + (y & 0x0c00)) & 0x7c00));
    }
    if ((x & 0x7c00) == 0x7c00) x ^= 0x4000;
    if ((y & 0x7c00) == 0x7c00) y ^= 0x4000;
    if ((z & 0x7c00) == 0x7c00) z ^= 0x4000;
    xs[i] = x;
    ys[i] = y;
    zs[i] = z;
    ns[i] = (r & (1ull << 61)) ? (int)(rnd() % 61) - 30 : (int)(rnd() % 9) - 4;
    i++;
  }
}

static int quo_ok(long double x, long double y, long double r, int q) {
  if (isnan(r))
    return 1;
  long double n = rintl((x - r) / y); /* exact for halves */
  long long ni = (long long)fabsl(fmodl(n, 128.0L));
  int neg = (x < 0) != (y < 0);
  return q == (neg ? -(int)ni : (int)ni) || (ni == 0 && q == 0);
}

static void run_width(struct test_env *env, int w) {
  char *src = kernel_source(w);
  cl_program prog;
  cl_kernel k = test_build_kernel(env, src, "k", NULL, &prog);
  free(src);
  uint16_t xs[NE], ys[NE], zs[NE];
  int ns[NE];
  make_inputs(xs, ys, zs, ns);
  cl_mem bufs[8];
  bufs[0] = test_buffer_with(env, sizeof xs, xs);
  bufs[1] = test_buffer_with(env, sizeof ys, ys);
  bufs[2] = test_buffer_with(env, sizeof zs, zs);
  bufs[3] = test_buffer_with(env, sizeof ns, ns);
  bufs[4] = test_buffer_with(env, NSLOT * NE * 2, NULL);
  bufs[5] = test_buffer_with(env, NISLOT * NE * 4, NULL);
  size_t padded = (size_t)(w == 3 ? 4 : w); /* a 3-vector occupies 4 elements */
  bufs[6] = test_buffer_with(env, NE / (size_t)w * padded * 2, NULL);
  bufs[7] = test_buffer_with(env, NE / (size_t)w * padded * 4, NULL);
  for (int i = 0; i < 8; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]));
  size_t global = NE / (size_t)w, local = 16;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  uint16_t *o = malloc(NSLOT * NE * 2);
  int *oi = malloc(NISLOT * NE * 4);
  test_read_back(env, bufs[4], NSLOT * NE * 2, o);
  test_read_back(env, bufs[5], NISLOT * NE * 4, oi);
#define OUT(slot, i) o[(slot) * NE + (i)]
  for (int i = 0; i < NE; i++) {
    long double x = ld(xs[i]), y = ld(ys[i]);
    for (int f = 0; f < NFN; f++) {
      long double want = ref(&fns[f], x, y, ns[i]);
      uint16_t got = OUT(f, i);
      if (!strcmp(fns[f].name, "lgamma") && fabsl(ld(got) - want) < 0x1p-8L)
        got = h_of(want); /* no ULP bound: allow absolute error near the roots */
      /* the sign of a zero chosen from +0 and -0 is unspecified */
      if (x == 0 && y == 0 && ld(got) == 0 && strstr("fmin fmax minmag maxmag", fns[f].name))
        got = h_of(want);
      check_half(fns[f].name, x, fns[f].kind == WITH_INT ? ns[i] : y, got, want, fns[f].ulp, w);
    }
    /* fract and modf: exact */
    long double fl = floorl(x), fr;
    if (isnan(x)) fr = fl = x;
    else if (isinf(x)) fr = copysignl(0, x);
    else if (x == 0) fr = x;
    else fr = fminl(ld(h_of(x - fl)), 0x1.ffcp-1L);
    check_half("fract", x, 0, OUT(S_FRACT, i), fr, 0, w);
    check_half("fract iptr", x, 0, OUT(S_FRACTI, i), fl, 0, w);
    long double tr = truncl(x);
    check_half("modf", x, 0, OUT(S_MODF, i), copysignl(isinf(x) ? 0 : x - tr, x), 0, w);
    check_half("modf iptr", x, 0, OUT(S_MODFI, i), tr, 0, w);
    int e = 0;
    long double m = (isnan(x) || isinf(x)) ? x : frexpl(x, &e);
    check_half("frexp", x, 0, OUT(S_FREXP, i), m, 0, w);
    CHECK(oi[I_FREXP * NE + i] == e);
    int ilb = x == 0 ? INT_MIN : isnan(x) || isinf(x) ? INT_MAX : ilogbl(x);
    CHECK(oi[I_ILOGB * NE + i] == ilb);
    int sg;
    long double lg = lgammal_r(x, &sg);
    if (x == 0 || (x < 0 && x == floorl(x) && !isinf(x)))
      sg = 0;
    else if (isnan(x) || isinf(x))
      sg = oi[I_LGR * NE + i];
    CHECK(oi[I_LGR * NE + i] == sg);
    uint16_t glg = OUT(S_LGR, i);
    if (fabsl(ld(glg) - lg) < 0x1p-8L)
      glg = h_of(lg);
    check_half("lgamma_r", x, 0, glg, lg, 64, w);
    long double rq = remainderl(x, y);
    check_half("remquo", x, y, OUT(S_REMQUO, i), rq, 0, w);
    test_checks++;
    if (!quo_ok(x, y, rq, oi[I_REMQUO * NE + i])) {
      test_failures++;
      fprintf(stderr, "remquo(%La, %La) quo %d\n", x, y, oi[I_REMQUO * NE + i]);
    }
    check_half("sincos sin", x, 0, OUT(S_SIN, i), sinl(x), 2, w);
    check_half("sincos cos", x, 0, OUT(S_COS, i), cosl(x), 2, w);
    /* fma is correctly rounded; + - * / exactly so (the long double result
     * has more than 2 * 11 + 2 bits, so rounding it again to half is exact) */
    uint16_t fw = fma_ref(xs[i], ys[i], zs[i]), fg = OUT(S_FMA, i);
    test_checks++;
    if (half_is_nan(fw) ? !half_is_nan(fg) : fg != fw) {
      test_failures++;
      fprintf(stderr, "half%d fma(%La, %La, %La) = 0x%04x, want 0x%04x\n", w, x, y,
              ld(zs[i]), fg, fw);
    }
    /* mad: implementation-defined; ours is within an ulp of fma */
    long double mw = ld(fw), mg = ld(OUT(S_MAD, i));
    CHECK(half_is_nan(fw) ? half_is_nan(OUT(S_MAD, i))
                          : (mg == mw || fabsl(mg - mw) <= half_ulp(mw)));
    check_half("+", x, y, OUT(S_ADD, i), x + y, 0, w);
    check_half("-", x, y, OUT(S_SUB, i), x - y, 0, w);
    check_half("*", x, y, OUT(S_MUL, i), x * y, 0, w);
    check_half("/", x, y, OUT(S_DIV, i), x / y, 0, w);
    /* nan(code): a quiet NaN */
    CHECK(half_is_nan(OUT(S_NAN, i)) && (OUT(S_NAN, i) & 0x0200));
    check_half("ldexp(x, 3)", x, 3, OUT(S_LDEXPS, i), ldexpl(x, 3), 0, w);
    /* a contracted x * y + z: the fused or the unfused result */
    uint16_t unf = h_of(ld(h_of(x * y)) + ld(zs[i])), ma = OUT(S_MULADD, i);
    test_checks++;
    if (half_is_nan(fw) ? !half_is_nan(ma) : (ma != fw && ma != unf)) {
      test_failures++;
      fprintf(stderr, "half%d %La * %La + %La = 0x%04x, want 0x%04x or 0x%04x\n", w, x, y,
              ld(zs[i]), ma, fw, unf);
    }
  }
#undef OUT
  free(o);
  free(oi);
  for (int i = 0; i < 8; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* the widest vector of `elem` in the IR text (0 if none), e.g. "<16 x half>" */
static int widest(const char *ir, const char *elem) {
  int best = 0;
  char pat[32];
  snprintf(pat, sizeof pat, " x %s>", elem);
  for (const char *p = strstr(ir, pat); p; p = strstr(p + 1, pat)) {
    const char *q = p;
    while (q > ir && q[-1] >= '0' && q[-1] <= '9')
      q--;
    if (q > ir && q[-1] == '<' && atoi(q) > best)
      best = atoi(q);
  }
  return best;
}

/* half kernels run work-items in vector lanes: arithmetic, sqrt (in float
 * lanes) and fma (in double lanes) are widened across work-items, and the
 * sign-bit operations are integer operations (src/compiler/target/x86/half_lower.c) */
static void test_vectorisation(struct test_env *env) {
  const char *src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                    "__kernel void k(__global half *a, __global const half *b,\n"
                    "                __global const half *c, __global half *d) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  a[i] = a[i] * b[i] + sqrt(c[i]);\n"
                    "  d[i] = fma(-a[i], b[i], c[i]);\n}\n";
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  if (!ir)
    ir = strdup("");
  CHECK(widest(ir, "half") >= 4);
  CHECK(widest(ir, "float") >= 4);
  CHECK(widest(ir, "double") >= 4);
  CHECK(strstr(ir, "fneg <") == NULL && strstr(ir, "fneg half") == NULL);
  free(ir);
  if (k)
    clReleaseKernel(k);
}

/* the host reference itself, on cases worked out by hand */
static void test_reference(void) {
  CHECK(half_from_ld(65504.0L, H_RTE) == 0x7bff);
  CHECK(half_from_ld(65519.0L, H_RTE) == 0x7bff);
  CHECK(half_from_ld(65520.0L, H_RTE) == 0x7c00);
  CHECK(half_from_ld(65520.0L, H_RTZ) == 0x7bff);
  CHECK(half_from_ld(-1e9L, H_RTP) == 0xfbff);
  CHECK(half_from_ld(0x1p-24L, H_RTE) == 0x0001);
  CHECK(half_from_ld(0x1p-25L, H_RTE) == 0x0000);
  CHECK(half_from_ld(0x1.8p-25L, H_RTE) == 0x0001);
  CHECK(half_from_ld(-0x1p-30L, H_RTN) == 0x8001);
  CHECK(half_from_ld(1.0L + 0x1p-11L, H_RTE) == 0x3c00);
  CHECK(half_from_ld(1.0L + 0x3p-11L, H_RTE) == 0x3c02);
  CHECK(half_from_ld(0x1.ffep-15L, H_RTE) == 0x0400);
  CHECK(half_from_i64(2049, H_RTE) == 0x6800 && half_from_i64(2051, H_RTE) == 0x6802);
  CHECK(half_to_float(0x3555) == 0x1.554p-2f && half_to_float(0x8001) == -0x1p-24f);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_reference();
  test_front_end(&env);
  test_vectorisation(&env);
  static const int widths[] = {1, 3, 16};
  for (int i = 0; i < 3; i++)
    run_width(&env, widths[i]);
  test_env_release(&env);
  return test_finish("test_builtins_half");
}
