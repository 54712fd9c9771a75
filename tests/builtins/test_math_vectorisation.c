/* Math builtins inside a work-item loop are vectorised across work-items:
 * the branch-free float functions (builtins/math_float*.cl) and double
 * ones (math_double*.cl, math_pow.cl) are widened outright, with their
 * special cases (infinities, NaN, signed zeros, subnormals) checked against
 * the host's C library (fmod, remainder and remquo exactly), and
 * no C-library call is left (the double sine's huge arguments call an
 * out-of-line path of LoomCL's own). Each kernel's optimised IR is checked for
 * vector code, and its results against the host's libm. */
#include "harness.h"
#include "math_ref.h"
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

/* the text of the work-group function (the vectorised work-item loops) */
static const char *wg_function(const char *ir) {
  const char *p = ir ? strstr(ir, ".loom_wg(") : NULL;
  return p ? p : "";
}

/* |got - want| within `ulps` units in the last place of want, as a float */
static int within_float(float got, double want, double ulps) {
  if (isnan(want))
    return isnan(got);
  if (isinf((float)want)) /* overflows float: infinity is the right result */
    return got == (float)want;
  int e;
  frexp(want, &e);
  double ulp = ldexp(1.0, (e < -125 ? -125 : e) - 24);
  return fabs((double)got - want) <= ulps * ulp;
}

static bool only_intrinsic_calls(const char *wg, const char *what, bool cold);

static void test_float_functions(struct test_env *env) {
  const char *src =
      "kernel void k(global const float *x, global float *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float v = x[i];\n"
      "  out[8 * i + 0] = exp(v);\n"
      "  out[8 * i + 1] = log(fabs(v));\n"
      "  out[8 * i + 2] = sin(v);\n"
      "  out[8 * i + 3] = cos(v);\n"
      "  out[8 * i + 4] = tan(v);\n"
      "  out[8 * i + 5] = pow(fabs(v), 1.5f);\n"
      "  out[8 * i + 6] = tanh(v);\n"
      "  out[8 * i + 7] = atan(v);\n"
      "}\n";
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  const char *wg = wg_function(ir);
  /* widened arithmetic (sin, cos and tan in float since their fast path;
   * pow and others through double), and no call to a math function left
   * but sin, cos and tan's out-of-line path for huge arguments, under a
   * condition, through its masked vector variant */
  CHECK(strstr(wg, "<16 x float>") != NULL && strstr(wg, "x double>") != NULL);
  static const char *const calls[] = {"@llvm.sin.", "@llvm.cos.", "@llvm.exp.", "@llvm.log.",
                                      "@llvm.pow.", "@llvm.tan.", "@llvm.tanh.", "@llvm.atan.",
                                      "@sin", "@exp", "@tanh", NULL};
  for (int i = 0; calls[i]; i++)
    if (strstr(wg, calls[i])) {
      fprintf(stderr, "  call to %s left in the work-group function\n", calls[i]);
      CHECK(0);
    }
  CHECK(only_intrinsic_calls(wg, "float functions", true));
  free(ir);
  if (!k)
    return;
  float *x = malloc(N * sizeof *x), *out = malloc(8 * N * sizeof *out);
  uint64_t s = 11;
  for (int i = 0; i < N; i++)
    x[i] = (float)((double)(test_xorshift64(&s) % 2000001) / 10000.0 - 100.0);
  x[0] = 0.0f, x[1] = -0.0f, x[2] = 1e-30f, x[3] = 88.0f, x[4] = -90.0f, x[5] = 1e30f;
  cl_mem bx = test_buffer_with(env, N * sizeof *x, x);
  cl_mem bo = test_buffer_with(env, 8 * N * sizeof *out, NULL);
  clSetKernelArg(k, 0, sizeof bx, &bx);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, bo, 8 * N * sizeof *out, out);
  int bad = 0;
  for (int i = 0; i < N && bad < 5; i++) {
    double v = x[i];
    double want[8] = {exp(v), log(fabs(v)), sin(v), cos(v), tan(v), pow(fabs(v), 1.5),
                      tanh(v), atan(v)};
    static const double ulps[8] = {3, 3, 4, 4, 5, 16, 5, 5};
    for (int f = 0; f < 8; f++)
      if (!within_float(out[8 * i + f], want[f], ulps[f])) {
        fprintf(stderr, "  function %d of %.9g: got %.9g, want %.17g\n", f, v,
                out[8 * i + f], want[f]);
        bad++;
      }
  }
  CHECK(bad == 0);
  /* signed zeros survive */
  CHECK(signbit(out[8 * 1 + 2]) && signbit(out[8 * 1 + 6]) && signbit(out[8 * 1 + 7]));
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(x);
  free(out);
}

/* |got - want| within `ulps` units in the last place of want in the result's
 * format; NaN, infinities and zeros (with their sign) must match exactly */
static int within(double got, long double want, double ulps, bool fp64) {
  double w = fp64 ? (double)want : (double)(float)want;
  if (isnan(want))
    return isnan(got);
  if (isinf(w) || want == 0)
    return got == w && signbit(got) == signbit(w);
  int e;
  frexpl(want, &e);
  int min_e = fp64 ? -1021 : -125, digits = fp64 ? 53 : 24;
  long double ulp = ldexpl(1.0L, (e < min_e ? min_e : e) - digits);
  return fabsl((long double)got - want) <= ulps * ulp;
}

/* The functions converted from C library calls to branch-free code, in
 * groups of one kernel each: every result of kernel `k` is r[j] of a
 * work-item, from v = x[i], w = y[i] and k = n[i]. */
struct fn_group {
  const char *what, *body;
  int nf;
  bool fp64;
  double ulps[12]; /* OpenCL C's bounds */
  void (*ref)(long double v, long double w, int k, long double *want);
};

static void ref_inverse(long double v, long double w, int k, long double *r) {
  (void)k;
  long double pi = 3.14159265358979323846264338327950288L;
  r[0] = atanl(v), r[1] = atan2l(v, w), r[2] = asinl(v), r[3] = acosl(v);
  r[4] = atanl(v) / pi, r[5] = atan2l(v, w) / pi, r[6] = asinl(v) / pi, r[7] = acosl(v) / pi;
}
static void ref_hyperbolic(long double v, long double w, int k, long double *r) {
  (void)k;
  r[0] = sinhl(v), r[1] = coshl(v), r[2] = tanhl(v), r[3] = expm1l(v);
  r[4] = log1pl(v), r[5] = hypotl(v, w), r[6] = cbrtl(v), r[7] = erfl(v);
  r[8] = erfcl(v), r[9] = asinhl(v), r[10] = acoshl(v), r[11] = atanhl(v);
}
static void ref_powers(long double v, long double w, int k, long double *r) {
  r[0] = powl(v, w), r[1] = powl(v, (long double)k), r[2] = powr_ref(v, w);
  r[3] = rootn_ref(v, k);
}
static void ref_float(long double v, long double w, int k, long double *r) {
  r[0] = asinhl(v), r[1] = acoshl(v), r[2] = atanhl(v), r[3] = powl(v, (long double)k);
  r[4] = powr_ref(v, w), r[5] = rootn_ref(v, k), r[6] = erfl(v), r[7] = erfcl(v);
}

static void ref_pi(long double v, long double w, int k, long double *r) {
  (void)w, (void)k;
  if (isinf(v) || isnan(v)) {
    r[0] = r[1] = r[2] = NAN;
    return;
  }
  r[0] = sinpi_ref(v), r[1] = cospi_ref(v), r[2] = tanpi_ref(v);
}
static void ref_remainders(long double v, long double w, int k, long double *r) {
  (void)k;
  r[0] = fmodl(v, w), r[1] = remainderl(v, w), r[2] = r[1];
}

static void ref_gamma(long double v, long double w, int k, long double *r) {
  (void)w, (void)k;
  int sign;
  r[0] = tgammal(v), r[1] = lgammal_r(v, &sign), r[2] = r[1];
  bool pole = v == 0 || (v < 0 && isfinite(v) && v == floorl(v));
  r[3] = pole ? 0 : isnan(v) || isinf(v) ? 1 : sign; /* OpenCL C: 0 at the poles */
}

static const struct fn_group groups[] = {
    {"double sinpi, cospi, tanpi", "r[0] = sinpi(v); r[1] = cospi(v); r[2] = tanpi(v);\n", 3,
     true, {4, 4, 6}, ref_pi},
    {"float fmod, remainder, remquo",
     "int q; r[0] = fmod(v, w); r[1] = remainder(v, w); r[2] = remquo(v, w, &q);\n", 3, false,
     {0, 0, 0}, ref_remainders},
    {"double fmod, remainder, remquo",
     "int q; r[0] = fmod(v, w); r[1] = remainder(v, w); r[2] = remquo(v, w, &q);\n", 3, true,
     {0, 0, 0}, ref_remainders},
    {"float tgamma, lgamma, lgamma_r",
     "int s; r[0] = tgamma(v); r[1] = lgamma(v); r[2] = lgamma_r(v, &s); r[3] = s;\n", 4, false,
     {16, 4, 4, 0}, ref_gamma},
    {"double inverse trigonometric",
     "r[0] = atan(v); r[1] = atan2(v, w); r[2] = asin(v); r[3] = acos(v);\n"
     "r[4] = atanpi(v); r[5] = atan2pi(v, w); r[6] = asinpi(v); r[7] = acospi(v);\n",
     8, true, {5, 6, 4, 4, 5, 6, 5, 5}, ref_inverse},
    {"double hyperbolic, inverse hyperbolic, cbrt, erf",
     "r[0] = sinh(v); r[1] = cosh(v); r[2] = tanh(v); r[3] = expm1(v);\n"
     "r[4] = log1p(v); r[5] = hypot(v, w); r[6] = cbrt(v); r[7] = erf(v); r[8] = erfc(v);\n"
     "r[9] = asinh(v); r[10] = acosh(v); r[11] = atanh(v);\n",
     12, true, {4, 4, 5, 3, 2, 4, 2, 16, 16, 4, 4, 5}, ref_hyperbolic},
    {"double powers",
     "r[0] = pow(v, w); r[1] = pown(v, k); r[2] = powr(v, w); r[3] = rootn(v, k);\n", 4, true,
     {16, 16, 16, 16}, ref_powers},
    {"float",
     "r[0] = asinh(v); r[1] = acosh(v); r[2] = atanh(v); r[3] = pown(v, k);\n"
     "r[4] = powr(v, w); r[5] = rootn(v, k); r[6] = erf(v); r[7] = erfc(v);\n",
     8, false, {4, 4, 5, 16, 16, 16, 16, 16}, ref_float},
};

/* inputs: every pair of the edge values first, then magnitudes spread over
 * [-1, 1], [-20, 20], 2^+-60 and the whole exponent range */
static const double edges[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 2.0,
                               -3.0, 0x1p-1074, -0x1p-1000, 0x1p-149, 1e-300, 1e300, -1e300,
                               0x1.fffffffffffffp1023, 710.0, -710.0, 1e-20, 0.75, 40.0, -745.5};
enum { N_EDGES = sizeof edges / sizeof edges[0] };
static const int edge_n[] = {0, 1, -1, 2, -2, 3, -3, 5, 8, -7, 1000, -1023, 65536, 0x7fffffff};

static double spread(uint64_t *s) {
  double u = (double)(test_xorshift64(s) % 1000001) / 1000000.0;
  double sign = test_xorshift64(s) & 1 ? -1.0 : 1.0;
  switch (test_xorshift64(s) % 4) {
  case 0: return sign * u;
  case 1: return sign * 20.0 * u;
  case 2: return sign * ldexp(1.0 + u, (int)(test_xorshift64(s) % 121) - 60);
  default: return sign * ldexp(1.0 + u, (int)(test_xorshift64(s) % 2090) - 1070);
  }
}

/* every call left in the work-group function is one of an LLVM intrinsic
 * (or, with `cold`, of a builtin's out-of-line path or a vector variant of
 * one): no C library call */
static bool only_intrinsic_calls(const char *wg, const char *what, bool cold) {
  for (const char *c = strstr(wg, "call "); c; c = strstr(c + 5, "call ")) {
    const char *callee = strchr(c, '@');
    bool out_of_line = callee && (!strncmp(callee, "@__loom_cold_", 13) ||
                                  !strncmp(callee, "@__loom_vec", 11));
    if (callee && strncmp(callee, "@llvm.", 6) != 0 && !(cold && out_of_line)) {
      fprintf(stderr, "  %s: call to %.40s\n", what, callee);
      return false;
    }
  }
  return true;
}

static void test_group(struct test_env *env, const struct fn_group *gr) {
  const char *t = gr->fp64 ? "double" : "float";
  char src[2048];
  snprintf(src, sizeof src,
           "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
           "kernel void k(global const %s *x, global const %s *y, global const int *n,\n"
           "              global %s *out) {\n"
           "  size_t i = get_global_id(0);\n"
           "  %s v = x[i], w = y[i];\n"
           "  int k = n[i];\n"
           "  global %s *r = out + %d * i;\n"
           "%s}\n",
           t, t, t, t, t, gr->nf, gr->body);
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  const char *wg = wg_function(ir);
  /* widened (the float functions compute in double), and every call left
   * is an LLVM intrinsic: no C library call and no vector variant of one */
  CHECK(strstr(wg, "<8 x double>") != NULL || strstr(wg, "<16 x double>") != NULL);
  CHECK(only_intrinsic_calls(wg, gr->what, true));
  free(ir);
  if (!k)
    return;
  size_t es = gr->fp64 ? sizeof(double) : sizeof(float);
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  int *n = malloc(N * sizeof *n);
  void *xs = malloc(N * es), *ys = malloc(N * es), *out = malloc((size_t)gr->nf * N * es);
  uint64_t s = 17;
  for (int i = 0; i < N; i++) {
    bool edge = i < N_EDGES * N_EDGES;
    x[i] = edge ? edges[i / N_EDGES] : spread(&s);
    y[i] = edge ? edges[i % N_EDGES] : spread(&s);
    n[i] = i < 64 * 14 ? edge_n[i % 14] : (int)(test_xorshift64(&s) % 41) - 20;
    if (gr->fp64) {
      ((double *)xs)[i] = x[i], ((double *)ys)[i] = y[i];
    } else {
      ((float *)xs)[i] = (float)x[i], ((float *)ys)[i] = (float)y[i];
      x[i] = ((float *)xs)[i], y[i] = ((float *)ys)[i];
    }
  }
  cl_mem bx = test_buffer_with(env, N * es, xs), by = test_buffer_with(env, N * es, ys);
  cl_mem bn = test_buffer_with(env, N * sizeof *n, n);
  cl_mem bo = test_buffer_with(env, (size_t)gr->nf * N * es, NULL);
  clSetKernelArg(k, 0, sizeof bx, &bx);
  clSetKernelArg(k, 1, sizeof by, &by);
  clSetKernelArg(k, 2, sizeof bn, &bn);
  clSetKernelArg(k, 3, sizeof bo, &bo);
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, bo, (size_t)gr->nf * N * es, out);
  int bad = 0;
  for (int i = 0; i < N && bad < 8; i++) {
    long double want[12];
    gr->ref(x[i], y[i], n[i], want);
    for (int f = 0; f < gr->nf; f++) {
      size_t o = (size_t)gr->nf * i + f;
      double got = gr->fp64 ? ((double *)out)[o] : ((float *)out)[o];
      if (!within(got, want[f], gr->ulps[f], gr->fp64)) {
        fprintf(stderr, "  %s function %d of (%a, %a, %d): got %a, want %La\n", gr->what, f,
                x[i], y[i], n[i], got, want[f]);
        bad++;
      }
    }
  }
  CHECK(bad == 0);
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseMemObject(bn);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  free(x), free(y), free(n), free(xs), free(ys), free(out);
}

/* Builds kernel `k(global const double *x, global double *out)` from src,
 * checks that its work-item loop is vectorised with no call but to LLVM
 * intrinsics (or out-of-line builtins, with `cold`), and runs it over the N
 * values of x. Returns the nout * N results (to free), or NULL. */
static double *run_double_kernel(struct test_env *env, const char *src, const char *what,
                                 bool cold, const double *x, int nout) {
  char *ir;
  cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
  const char *wg = wg_function(ir);
  CHECK(strstr(wg, "<8 x double>") != NULL || strstr(wg, "<16 x double>") != NULL);
  CHECK(only_intrinsic_calls(wg, what, cold));
  free(ir);
  if (!k)
    return NULL;
  double *out = malloc((size_t)nout * N * sizeof *out);
  cl_mem bx = test_buffer_with(env, N * sizeof *x, x);
  cl_mem bo = test_buffer_with(env, (size_t)nout * N * sizeof *out, NULL);
  clSetKernelArg(k, 0, sizeof bx, &bx);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, bo, (size_t)nout * N * sizeof *out, out);
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  return out;
}

/* double tgamma (16 ulp), and lgamma, whose accuracy OpenCL C leaves open:
 * 4 ulp, or between -10 and 0, where its zeros make the relative error
 * grow, an absolute 2^-50; all vectorised */
static void test_double_gamma(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void k(global const double *x, global double *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  int s;\n"
      "  out[3 * i] = tgamma(x[i]);\n"
      "  out[3 * i + 1] = lgamma_r(x[i], &s);\n"
      "  out[3 * i + 2] = s;\n"
      "}\n";
  double *x = malloc(N * sizeof *x);
  uint64_t s = 23;
  for (int i = 0; i < N; i++) {
    double u = (double)(test_xorshift64(&s) % 1000001) / 1000000.0;
    x[i] = i < N_EDGES ? edges[i] : i % 3 ? 400.0 * u - 200.0 : spread(&s);
  }
  double *out = run_double_kernel(env, src, "double gamma", false, x, 3);
  if (!out) {
    free(x);
    return;
  }
  int bad = 0;
  for (int i = 0; i < N && bad < 8; i++) {
    long double want[4];
    ref_gamma(x[i], 0, 0, want);
    bool near_zeros = x[i] > -10 && x[i] < 0 && isfinite(want[1]);
    bool lg_ok = within(out[3 * i + 1], want[1], 4, true) ||
                 (near_zeros && fabsl(out[3 * i + 1] - want[1]) <= 0x1p-50L);
    if (!within(out[3 * i], want[0], 16, true) || !lg_ok || out[3 * i + 2] != want[3]) {
      fprintf(stderr, "  gamma of %a: got %a %a %g, want %La %La %Lg\n", x[i], out[3 * i],
              out[3 * i + 1], out[3 * i + 2], want[0], want[1], want[3]);
      bad++;
    }
  }
  CHECK(bad == 0);
  free(x);
  free(out);
}

/* double sin, cos and tan of huge arguments (Payne and Hanek's reduction,
 * out of line and called only for the lanes that need it): vectorised,
 * within 2 ulp of the host's long double functions, and exact to rounding at the double closest to a
 * multiple of pi/2 (6381956970095103 2^797, where cos and tan lose 61
 * bits to cancellation; the expected values come from a 3000-bit
 * evaluation) */
static void test_huge_arguments(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void k(global const double *x, global double *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  double v = x[i];\n"
      "  out[3 * i] = sin(v);\n"
      "  out[3 * i + 1] = cos(v);\n"
      "  out[3 * i + 2] = tan(v);\n"
      "}\n";
  double *x = malloc(N * sizeof *x);
  uint64_t s = 5;
  for (int i = 0; i < N; i++) {
    double u = 1.0 + (double)(test_xorshift64(&s) % 1000001) / 1000000.0;
    x[i] = ldexp(u, 18 + (int)(test_xorshift64(&s) % 1006)) * (i & 1 ? -1.0 : 1.0);
  }
  const double worst = 0x1.6ac5b262ca1ffp+849;
  x[0] = worst, x[1] = -worst, x[2] = DBL_MAX, x[3] = 0x1p20, x[4] = -0x1p20;
  x[5] = 1e22, x[6] = INFINITY, x[7] = -INFINITY, x[8] = NAN, x[9] = 0x1.fffffffffffffp19;
  double *out = run_double_kernel(env, src, "huge arguments", true, x, 3);
  if (!out) {
    free(x);
    return;
  }
  int bad = 0;
  for (int i = 0; i < N && bad < 5; i++) {
    long double v = x[i];
    long double want[3] = {sinl(v), cosl(v), tanl(v)};
    if (fabs(x[i]) == worst) {
      want[1] = -0x1.14ae72e6ba22fp-61L;
      want[2] = (x[i] < 0 ? 1 : -1) * 0x1.d9ba9a7975636p+60L;
    }
    for (int f = 0; f < 3; f++)
      if (!within(out[3 * i + f], want[f], fabs(x[i]) == worst ? 0.5 : 2, true)) {
        fprintf(stderr, "  function %d of %a: got %a, want %La\n", f, x[i], out[3 * i + f],
                want[f]);
        bad++;
      }
  }
  CHECK(bad == 0);
  free(x);
  free(out);
}

/* -cl-fast-relaxed-math allows 2.5 ulp for x / y: the back end must not use
 * its one-step reciprocal estimate (3 ulp at 8.25 / 0.0655, found by the
 * CTS) */
static void test_relaxed_division(struct test_env *env) {
  /* scalar, and vectors within a work-item, as the CTS runs it */
  const char *src =
      "kernel void k1(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  o[i] = a[i] / b[i];\n"
      "}\n"
      "kernel void k4(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore4(vload4(i, a) / vload4(i, b), i, o);\n"
      "}\n"
      "kernel void k16(global const float *a, global const float *b, global float *o) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore16(vload16(i, a) / vload16(i, b), i, o);\n"
      "}\n";
  cl_program p = test_program_from(env, src, "-cl-fast-relaxed-math");
  if (!p)
    return;
  float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *o = malloc(N * sizeof *o);
  uint64_t s = 3;
  for (int i = 0; i < N; i++) {
    uint32_t ua = 0x3c000000u + (uint32_t)(test_xorshift64(&s) % 0x8000000u);
    uint32_t ub = 0x3c000000u + (uint32_t)(test_xorshift64(&s) % 0x8000000u);
    memcpy(&a[i], &ua, 4);
    memcpy(&b[i], &ub, 4);
  }
  a[0] = 0x1.081e54p+3f, b[0] = 0x1.0c2e92p-4f;
  cl_mem ba = test_buffer_with(env, N * sizeof *a, a), bb = test_buffer_with(env, N * sizeof *b, b);
  cl_mem bo = test_buffer_with(env, N * sizeof *o, NULL);
  static const int widths[] = {1, 4, 16};
  for (int w = 0; w < 3; w++) {
    char name[8];
    snprintf(name, sizeof name, "k%d", widths[w]);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_OK(err);
    if (!k)
      continue;
    clSetKernelArg(k, 0, sizeof ba, &ba);
    clSetKernelArg(k, 1, sizeof bb, &bb);
    clSetKernelArg(k, 2, sizeof bo, &bo);
    size_t g = N / (size_t)widths[w];
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, bo, N * sizeof *o, o);
    int bad = 0;
    for (int i = 0; i < N; i++)
      if (!within_float(o[i], (double)a[i] / (double)b[i], 2.5) && bad++ < 5)
        fprintf(stderr, "  width %d: %a / %a = %a, want %a\n", widths[w], a[i], b[i], o[i],
                (double)a[i] / b[i]);
    CHECK(bad == 0);
    clReleaseKernel(k);
  }
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bo);
  clReleaseProgram(p);
  free(a);
  free(b);
  free(o);
}

/* Math on OpenCL vectors (double3, double4, float4): the components are
 * split into scalars so that the work-item loop is still widened across
 * work-items (to 8 lanes, where SLP alone would pack one work-item's 4
 * components); double8 is left to SLP, which keeps it at the full width.
 * Every component is checked. */
static void test_vector_arguments(struct test_env *env) {
  static const char *const kinds[] = {"3", "4", "8"};
  for (int kind = 0; kind < 3; kind++) {
    const char *w = kinds[kind];
    char src[1024];
    snprintf(src, sizeof src,
             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
             "kernel void k(global const double *x, global double *out) {\n"
             "  size_t i = get_global_id(0), n = %s * get_global_size(0);\n"
             "  double%s v = vload%s(i, x);\n"
             "  vstore%s(atan(v), i, out);\n"
             "  vstore%s(asin(v), i, out + n);\n"
             "  vstore%s(exp(v), i, out + 2 * n);\n"
             "  vstore%s(convert_double%s(sin(convert_float%s(v))), i, out + 3 * n);\n"
             "}\n",
             w, w, w, w, w, w, w, w, w);
    char *ir;
    cl_kernel k = test_kernel_with_ir(env, src, "k", NULL, &ir);
    const char *wg = wg_function(ir);
    CHECK(strstr(wg, "<8 x double>") != NULL || strstr(wg, "<16 x double>") != NULL);
    CHECK(only_intrinsic_calls(wg, src, true));
    free(ir);
    if (!k)
      return;
    int width = atoi(w), items = N / 8;
    size_t n = (size_t)width * items;
    double *x = malloc(n * sizeof *x), *out = malloc(4 * n * sizeof *out);
    uint64_t s = 29;
    for (size_t i = 0; i < n; i++)
      x[i] = i < N_EDGES ? edges[i] : spread(&s);
    cl_mem bx = test_buffer_with(env, n * sizeof *x, x);
    cl_mem bo = test_buffer_with(env, 4 * n * sizeof *out, NULL);
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof bo, &bo);
    size_t g = (size_t)items;
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, bo, 4 * n * sizeof *out, out);
    int bad = 0;
    for (size_t i = 0; i < n && bad < 8; i++) {
      long double v = x[i];
      long double want[4] = {atanl(v), asinl(v), expl(v), sinl((float)x[i])};
      static const double ulps[4] = {5, 4, 3, 4};
      for (int f = 0; f < 4; f++)
        if (!within(out[f * n + i], want[f], ulps[f], f < 3)) {
          fprintf(stderr, "  double%s function %d of %a: got %a, want %La\n", w, f, x[i],
                  out[f * n + i], want[f]);
          bad++;
        }
    }
    CHECK(bad == 0);
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    free(x);
    free(out);
  }
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_float_functions(&env);
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    test_group(&env, &groups[i]);
  test_double_gamma(&env);
  test_huge_arguments(&env);
  test_vector_arguments(&env);
  test_relaxed_division(&env);
  test_env_release(&env);
  return test_finish("test_math_vectorisation");
}
