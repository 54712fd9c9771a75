/* Math function throughput: one builtin per case over 4M elements, so that
 * each function's cost shows on its own (math_heavy in cases_compute.c mixes
 * four). Results are checked against the C library in double (long double
 * for the double cases) within the spec's ulp bound of the function. */
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One function under test (its case is the row of bench_math_cases with the
 * same index). `expr` is the kernel's expression of x. */
struct math_fn {
  const char *expr;
  bool fp64;
  double lo, hi;  /* input range */
  bool log_range; /* inputs spread over [lo, hi] logarithmically */
  double ulps;    /* OpenCL C's bound for the function */
  long double (*ref)(long double x);
  unsigned vec; /* > 1: on vectors of this many components (vloadn) */
};

static long double ref_exp(long double x) { return expl(x); }
static long double ref_exp2(long double x) { return exp2l(x); }
static long double ref_log(long double x) { return logl(x); }
static long double ref_log2(long double x) { return log2l(x); }
static long double ref_sin(long double x) { return sinl(x); }
static long double ref_cos(long double x) { return cosl(x); }
static long double ref_tan(long double x) { return tanl(x); }
static long double ref_sqrt(long double x) { return sqrtl(x); }
static long double ref_tanh(long double x) { return tanhl(x); }
static long double ref_atan(long double x) { return atanl(x); }
/* the exponent is computed in float on the device and on the host alike */
static long double ref_pow(long double x) { return powl(x, (long double)(0.75f * (float)x)); }
static long double ref_pow_fp64(long double x) { return powl(x, (long double)(0.75 * (double)x)); }
static long double ref_cbrt(long double x) { return cbrtl(x); }

static const struct math_fn functions[] = {
    {"exp(x)", false, -80, 80, false, 3, ref_exp, 1},
    {"exp2(x)", false, -120, 120, false, 3, ref_exp2, 1},
    {"log(x)", false, 1e-30, 1e30, true, 3, ref_log, 1},
    {"log2(x)", false, 1e-30, 1e30, true, 3, ref_log2, 1},
    {"sin(x)", false, -100, 100, false, 4, ref_sin, 1},
    {"cos(x)", false, -100, 100, false, 4, ref_cos, 1},
    {"tan(x)", false, -100, 100, false, 5, ref_tan, 1},
    {"pow(x, 0.75f * x)", false, 0.1, 20, false, 16, ref_pow, 1},
    {"sqrt(x)", false, 1e-30, 1e30, true, 0, ref_sqrt, 1},
    {"tanh(x)", false, -10, 10, false, 5, ref_tanh, 1},
    {"atan(x)", false, -100, 100, false, 5, ref_atan, 1},
    {"exp(x)", true, -700, 700, false, 3, ref_exp, 1},
    {"sin(x)", true, -100, 100, false, 4, ref_sin, 1},
    {"log(x)", true, 1e-300, 1e300, true, 3, ref_log, 1},
    {"atan(x)", true, -100, 100, false, 5, ref_atan, 1},
    {"tanh(x)", true, -10, 10, false, 5, ref_tanh, 1},
    {"pow(x, 0.75 * x)", true, 0.1, 20, false, 16, ref_pow_fp64, 1},
    {"cbrt(x)", true, 1e-300, 1e300, true, 2, ref_cbrt, 1},
    {"atan(x)", true, -100, 100, false, 5, ref_atan, 4},
    {"sin(x)", false, -100, 100, false, 4, ref_sin, 4},
};
enum { N_FUNCTIONS = sizeof functions / sizeof functions[0] };

struct math_host {
  const struct math_fn *fn;
  size_t n;
  void *in; /* float or double */
};

static void *math_fn_prepare(const struct math_fn *fn, bool quick, struct case_work *wk) {
  struct math_host *h = calloc(1, sizeof *h);
  h->fn = fn;
  h->n = quick ? (size_t)1 << 16 : (size_t)4 << 20;
  h->in = bench_alloc(h->n * (fn->fp64 ? sizeof(double) : sizeof(float)));
  unsigned seed = 97;
  for (size_t i = 0; i < h->n; i++) {
    double u = bench_randf(&seed, 0.0f, 1.0f);
    double x = fn->log_range ? exp(log(fn->lo) + (log(fn->hi) - log(fn->lo)) * u)
                             : fn->lo + (fn->hi - fn->lo) * u;
    if (fn->fp64)
      ((double *)h->in)[i] = x;
    else
      ((float *)h->in)[i] = (float)x;
  }
  *wk = (struct case_work){.amount = (double)h->n, .scale = 1e6, .unit = "Melem/s"};
  return h;
}

static void math_fn_release(void *p) {
  struct math_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *math_fn_open(struct platform_env *env, void *host) {
  struct math_host *h = host;
  const char *t = h->fn->fp64 ? "double" : "float";
  char source[640];
  unsigned vec = h->fn->vec > 1 ? h->fn->vec : 1;
  if (vec > 1)
    snprintf(source, sizeof source,
             "%s"
             "kernel void f(global const %s *in, global %s *out) {\n"
             "  size_t i = get_global_id(0);\n"
             "  %s%u x = vload%u(i, in);\n"
             "  vstore%u(%s, i, out);\n"
             "}\n",
             h->fn->fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", t, t, t, vec,
             vec, vec, h->fn->expr);
  else
    snprintf(source, sizeof source,
             "%s"
             "kernel void f(global const %s *in, global %s *out) {\n"
             "  size_t i = get_global_id(0);\n"
             "  %s x = in[i];\n"
             "  out[i] = %s;\n"
             "}\n",
             h->fn->fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", t, t, t,
             h->fn->expr);
  return bench_open_elementwise(env, source, "f", h->n,
                                h->fn->fp64 ? sizeof(double) : sizeof(float), h->in, vec);
}

/* the size of one unit in the last place of w in the result's format */
static long double ulp_of(long double w, bool fp64) {
  int e;
  frexpl(w, &e);
  int min_e = fp64 ? -1021 : -125, digits = fp64 ? 53 : 24;
  return ldexpl(1.0L, (e < min_e ? min_e : e) - digits);
}

static bool math_fn_check(struct instance *in, void *host) {
  struct math_host *h = host;
  bool fp64 = h->fn->fp64;
  size_t bytes = h->n * (fp64 ? sizeof(double) : sizeof(float));
  void *got = bench_alloc(bytes);
  bool ok = bench_read(in, 1, got, bytes);
  /* a correctly rounded function is off by at most half an ulp */
  long double bound = h->fn->ulps > 0.5 ? h->fn->ulps : 0.5;
  for (size_t i = 0; ok && i < h->n; i++) {
    long double x = fp64 ? ((double *)h->in)[i] : ((float *)h->in)[i];
    long double g = fp64 ? ((double *)got)[i] : ((float *)got)[i];
    long double want = h->fn->ref(x);
    if (g != want && !(fabsl(g - want) <= bound * ulp_of(want, fp64))) {
      fprintf(stderr, "    %s(%.17Lg) = %.17Lg, want %.17Lg\n", h->fn->expr, x, g, want);
      ok = false;
    }
  }
  free(got);
  return ok;
}

/* a prepare function per table row: the suite's prepare takes no argument */
#define MATH_PREPARE(i)                                                        \
  static void *math_prepare_##i(bool quick, struct case_work *wk) {            \
    return math_fn_prepare(&functions[i], quick, wk);                          \
  }
MATH_PREPARE(0) MATH_PREPARE(1) MATH_PREPARE(2) MATH_PREPARE(3) MATH_PREPARE(4)
MATH_PREPARE(5) MATH_PREPARE(6) MATH_PREPARE(7) MATH_PREPARE(8) MATH_PREPARE(9)
MATH_PREPARE(10) MATH_PREPARE(11) MATH_PREPARE(12) MATH_PREPARE(13) MATH_PREPARE(14)
MATH_PREPARE(15) MATH_PREPARE(16) MATH_PREPARE(17) MATH_PREPARE(18) MATH_PREPARE(19)
_Static_assert(N_FUNCTIONS == 20, "one MATH_PREPARE and one MATH_CASE per function");

#define MATH_ROW(i, nm, desc, f64)                                             \
  {.name = nm, .what = desc, .limit = LIMIT_NONE, .needs_fp64 = f64,           \
   .prepare = math_prepare_##i, .open = math_fn_open, .check = math_fn_check,  \
   .release_host = math_fn_release}

const struct bench_case bench_math_cases[] = {
    MATH_ROW(0, "math_exp", "exp, 4M floats in [-80, 80]", false),
    MATH_ROW(1, "math_exp2", "exp2, 4M floats in [-120, 120]", false),
    MATH_ROW(2, "math_log", "log, 4M floats in [1e-30, 1e30]", false),
    MATH_ROW(3, "math_log2", "log2, 4M floats in [1e-30, 1e30]", false),
    MATH_ROW(4, "math_sin", "sin, 4M floats in [-100, 100]", false),
    MATH_ROW(5, "math_cos", "cos, 4M floats in [-100, 100]", false),
    MATH_ROW(6, "math_tan", "tan, 4M floats in [-100, 100]", false),
    MATH_ROW(7, "math_pow", "pow(x, 0.75 x), 4M floats in [0.1, 20]", false),
    MATH_ROW(8, "math_sqrt", "sqrt, 4M floats in [1e-30, 1e30]", false),
    MATH_ROW(9, "math_tanh", "tanh, 4M floats in [-10, 10]", false),
    MATH_ROW(10, "math_atan", "atan, 4M floats in [-100, 100]", false),
    MATH_ROW(11, "math_exp_fp64", "exp, 4M doubles in [-700, 700]", true),
    MATH_ROW(12, "math_sin_fp64", "sin, 4M doubles in [-100, 100]", true),
    MATH_ROW(13, "math_log_fp64", "log, 4M doubles in [1e-300, 1e300]", true),
    MATH_ROW(14, "math_atan_fp64", "atan, 4M doubles in [-100, 100]", true),
    MATH_ROW(15, "math_tanh_fp64", "tanh, 4M doubles in [-10, 10]", true),
    MATH_ROW(16, "math_pow_fp64", "pow(x, 0.75 x), 4M doubles in [0.1, 20]", true),
    MATH_ROW(17, "math_cbrt_fp64", "cbrt, 4M doubles in [1e-300, 1e300]", true),
    MATH_ROW(18, "math_atan_fp64x4", "atan on double4, 4M doubles in [-100, 100]", true),
    MATH_ROW(19, "math_sin_x4", "sin on float4, 4M floats in [-100, 100]", false),
    {.name = NULL},
};
