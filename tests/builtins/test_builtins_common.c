/* step, smoothstep and sign (OpenCL C 1.13.4) and the geometric functions
 * (1.13.5) of float and double: special values (+-0, +-Inf, NaN,
 * denormals) and random inputs at several widths, vector and scalar edges;
 * length, distance and normalize on vectors whose squares overflow or
 * underflow (1e30 and 1e-30 for float, 1e300 and 1e-300 for double), which
 * must still give the representable result; results against a long double
 * host reference within the spec's ULP limits. */
#include "harness.h"
#include <float.h>
#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double rnd_unit(void) {
  return (double)(test_xorshift64(&rng_state) >> 11) / 9007199254740992.0;
}

static cl_mem buffer(struct test_env *env, size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context,
                            CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size,
                            (void *)data, &err);
  CHECK_OK(err);
  return m;
}

static void run(struct test_env *env, cl_program p, const char *name, size_t items,
                int nbuf, cl_mem *bufs) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  if (err != CL_SUCCESS)
    return;
  for (int i = 0; i < nbuf; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &items, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  clReleaseKernel(k);
}

/* ulps between got and want, measured in want's precision */
static double ulps(long double got, long double want, int dbl) {
  if (isnan(want) && isnan(got))
    return 0;
  if (isnan(want) || isnan(got))
    return INFINITY;
  if (got == want)
    return 0;
  if (isinf(want) || isinf(got))
    return INFINITY;
  int e;
  frexpl(want, &e);
  int mant = dbl ? 53 : 24;
  int min_e = dbl ? -1021 : -125;
  if (e < min_e)
    e = min_e;
  return (double)(fabsl(got - want) / ldexpl(1.0L, e - mant));
}

/* ---------- step, smoothstep, sign ---------- */

#define NSTEP 480 /* elements per buffer, a multiple of 3 and 16 */

static void special_values(double *v, size_t n, int dbl) {
  const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.25, INFINITY, -INFINITY, NAN,
                             dbl ? 4.9e-324 : 1.4e-45, dbl ? -DBL_MIN : -FLT_MIN,
                             dbl ? DBL_MAX : FLT_MAX, 3.0, 2.0, 0.75, -2.5};
  size_t ns = sizeof specials / sizeof specials[0];
  for (size_t i = 0; i < n; i++)
    v[i] = i < ns ? specials[i] : (rnd_unit() * 8.0 - 4.0);
}

static void test_step_family(struct test_env *env, int dbl, int w) {
  const char *s = dbl ? "double" : "float";
  char t[16], src[4096];
  if (w == 1)
    snprintf(t, sizeof t, "%s", s);
  else
    snprintf(t, sizeof t, "%s%d", s, w);
  /* LD/ST: packed loads and stores so every width, 3 included, is dense */
  char ld[64], st[64];
  if (w == 1) {
    snprintf(ld, sizeof ld, "(p)[i]");
    snprintf(st, sizeof st, "(p)[i] = (v)");
  } else {
    snprintf(ld, sizeof ld, "vload%d(i, p)", w);
    snprintf(st, sizeof st, "vstore%d(v, i, p)", w);
  }
  snprintf(src, sizeof src,
           "%s\n#define LD(p) %s\n#define ST(v, p) %s\n"
           "kernel void k(global %s *e0, global %s *e1, global %s *x, global %s *o) {\n"
           "  size_t i = get_global_id(0);\n"
           "  ST(step(LD(e0), LD(x)), o + 0 * %d);\n"
           "  ST(smoothstep(LD(e0), LD(e1), LD(x)), o + 1 * %d);\n"
           "  ST(sign(LD(x)), o + 2 * %d);\n"
           "  ST(step(e0[i], LD(x)), o + 3 * %d);\n"
           "  ST(smoothstep(e0[i], e1[i], LD(x)), o + 4 * %d);\n"
           "}\n",
           dbl ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", ld, st, s, s, s, s,
           NSTEP, NSTEP, NSTEP, NSTEP, NSTEP);
  cl_program p = test_program_from(env, src, NULL);
  if (!p)
    return;
  size_t items = NSTEP / (size_t)w;
  double e0[NSTEP], e1[NSTEP], x[NSTEP];
  special_values(x, NSTEP, dbl);
  for (size_t i = 0; i < NSTEP; i++) {
    e0[i] = rnd_unit() * 4.0 - 2.0;
    e1[i] = e0[i] + 0.125 + rnd_unit() * 3.0;
  }
  e0[3] = NAN; /* x < NaN is false: step gives 1 */
  size_t esz = dbl ? 8 : 4;
  unsigned char be0[NSTEP * 8], be1[NSTEP * 8], bx[NSTEP * 8];
  for (size_t i = 0; i < NSTEP; i++) {
    if (dbl) {
      memcpy(be0 + i * 8, &e0[i], 8);
      memcpy(be1 + i * 8, &e1[i], 8);
      memcpy(bx + i * 8, &x[i], 8);
    } else {
      float a = (float)e0[i], b = (float)e1[i], c = (float)x[i];
      e0[i] = a, e1[i] = b, x[i] = c;
      memcpy(be0 + i * 4, &a, 4);
      memcpy(be1 + i * 4, &b, 4);
      memcpy(bx + i * 4, &c, 4);
    }
  }
  cl_mem bufs[4] = {buffer(env, NSTEP * esz, be0), buffer(env, NSTEP * esz, be1),
                    buffer(env, NSTEP * esz, bx), buffer(env, 5 * NSTEP * esz, NULL)};
  run(env, p, "k", items, 4, bufs);
  unsigned char *out = malloc(5 * NSTEP * esz);
  test_read_back(env, bufs[3], 5 * NSTEP * esz, out);
  int bad = 0;
  for (int f = 0; f < 5; f++)
    for (size_t i = 0; i < NSTEP; i++) {
      double got;
      if (dbl)
        memcpy(&got, out + (f * NSTEP + i) * 8, 8);
      else {
        float g;
        memcpy(&g, out + (f * NSTEP + i) * 4, 4);
        got = g;
      }
      /* the scalar-edge forms take the edge of the work-item, not the lane */
      size_t ei = (f == 3 || f == 4) ? i / (size_t)w : i;
      double a = e0[ei], b = e1[ei], v = x[i], want;
      bool ok;
      if (f == 0 || f == 3) {
        want = v < a ? 0.0 : 1.0;
        ok = got == want;
      } else if (f == 2) {
        want = isnan(v) ? 0.0 : v > 0 ? 1.0 : v < 0 ? -1.0 : v;
        ok = got == want && signbit(got) == signbit(want);
      } else {
        double tt = (v - a) / (b - a);
        tt = tt < 0 ? 0 : tt > 1 ? 1 : tt;
        want = tt * tt * (3 - 2 * tt);
        /* undefined for NaN inputs */
        ok = isnan(v) || isnan(a) || isnan(b) || fabs(got - want) <= (dbl ? 1e-13 : 1e-6);
      }
      if (!ok && bad++ < 5)
        fprintf(stderr, "%s fn %d elem %zu: x=%a e0=%a e1=%a got %a want %a\n", t, f, i,
                v, a, b, got, want);
    }
  CHECK(bad == 0);
  free(out);
  for (int i = 0; i < 4; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseProgram(p);
}

/* ---------- geometric functions ---------- */

#define NGEO 64 /* vectors per width */

/* inputs: random vectors scaled to ordinary, huge and tiny magnitudes, plus
 * vectors holding zeros, infinities and NaNs */
static void geo_inputs(long double *v, int w, int dbl) {
  const double huge = dbl ? 1e300 : 1e30, tiny = dbl ? 1e-300 : 1e-30;
  for (int i = 0; i < NGEO; i++) {
    double scale = (i % 4 == 1) ? huge : (i % 4 == 2) ? tiny : (i % 4 == 3) ? 1e3 : 1.0;
    for (int c = 0; c < w; c++) {
      double r = (rnd_unit() * 2.0 - 1.0) * scale;
      v[i * w + c] = dbl ? (long double)r : (long double)(float)r;
    }
  }
  for (int c = 0; c < w; c++) {
    v[0 * w + c] = 0.0L;                          /* zero vector */
    v[4 * w + c] = c == 0 ? -INFINITY : 2.0L;     /* an infinity */
    v[8 * w + c] = c == w - 1 ? NAN : 1.0L;       /* a NaN */
    v[12 * w + c] = dbl ? 4.9e-324L : 1.4e-45L;   /* all denormal */
  }
}

static long double ref_length(const long double *a, int w) {
  long double s = 0;
  for (int c = 0; c < w; c++)
    s += a[c] * a[c];
  return sqrtl(s);
}

static void ref_normalize(const long double *a, int w, long double *r) {
  long double v[4];
  bool has_inf = false;
  for (int c = 0; c < w; c++)
    has_inf |= isinf(a[c]);
  for (int c = 0; c < w; c++)
    v[c] = has_inf ? (isinf(a[c]) ? copysignl(1.0L, a[c]) : copysignl(0.0L, a[c])) : a[c];
  long double len = ref_length(v, w);
  for (int c = 0; c < w; c++)
    r[c] = len == 0 ? a[c] : v[c] / len;
}

static void test_geometric(struct test_env *env, int dbl, int w) {
  const char *s = dbl ? "double" : "float";
  char t[16], src[4096];
  if (w == 1)
    snprintf(t, sizeof t, "%s", s);
  else
    snprintf(t, sizeof t, "%s%d", s, w);
  char ld[64], st[64];
  if (w == 1) {
    snprintf(ld, sizeof ld, "(p)[i]");
    snprintf(st, sizeof st, "(p)[i] = (v)");
  } else {
    snprintf(ld, sizeof ld, "vload%d(i, p)", w);
    snprintf(st, sizeof st, "vstore%d(v, i, p)", w);
  }
  snprintf(src, sizeof src,
           "%s\n#define LD(p) %s\n#define ST(v, p) %s\n"
           "kernel void k(global %s *a, global %s *b, global %s *len, global %s *nrm) {\n"
           "  size_t i = get_global_id(0);\n"
           "  len[4 * i + 0] = length(LD(a));\n"
           "  len[4 * i + 1] = distance(LD(a), LD(b));\n"
           "  len[4 * i + 2] = %s(LD(a));\n"
           "  len[4 * i + 3] = dot(LD(a), LD(b));\n"
           "  ST(normalize(LD(a)), nrm);\n"
           "  ST(%s(LD(b)), nrm + %d);\n"
           "}\n",
           dbl ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", ld, st, s, s, s, s,
           dbl ? "length" : "fast_length", dbl ? "normalize" : "fast_normalize", NGEO * w);
  cl_program p = test_program_from(env, src, NULL);
  if (!p)
    return;
  long double a[NGEO * 4], b[NGEO * 4];
  geo_inputs(a, w, dbl);
  for (int i = 0; i < NGEO * w; i++) /* b: ordinary, non-special values */
    b[i] = dbl ? (long double)(rnd_unit() * 4 - 2) : (long double)(float)(rnd_unit() * 4 - 2);
  size_t esz = dbl ? 8 : 4;
  unsigned char ba[NGEO * 4 * 8], bb[NGEO * 4 * 8];
  for (int i = 0; i < NGEO * w; i++) {
    if (dbl) {
      double x = (double)a[i], y = (double)b[i];
      memcpy(ba + i * 8, &x, 8);
      memcpy(bb + i * 8, &y, 8);
    } else {
      float x = (float)a[i], y = (float)b[i];
      memcpy(ba + i * 4, &x, 4);
      memcpy(bb + i * 4, &y, 4);
    }
  }
  cl_mem bufs[4] = {buffer(env, NGEO * w * esz, ba), buffer(env, NGEO * w * esz, bb),
                    buffer(env, NGEO * 4 * esz, NULL), buffer(env, 2 * NGEO * w * esz, NULL)};
  run(env, p, "k", NGEO, 4, bufs);
  unsigned char lens[NGEO * 4 * 8], nrms[2 * NGEO * 4 * 8];
  test_read_back(env, bufs[2], NGEO * 4 * esz, lens);
  test_read_back(env, bufs[3], 2 * NGEO * w * esz, nrms);
#define GOT(buf, idx)                                                          \
  (dbl ? (long double)((double *)(void *)(buf))[idx]                           \
       : (long double)((float *)(void *)(buf))[idx])
  int bad = 0;
  for (int i = 0; i < NGEO; i++) {
    long double diff[4], want_n[4], want_fn[4];
    for (int c = 0; c < w; c++)
      diff[c] = a[i * w + c] - b[i * w + c];
    long double want_len = ref_length(a + i * w, w);
    long double want_dist = ref_length(diff, w);
    long double want_dot = 0;
    for (int c = 0; c < w; c++)
      want_dot += a[i * w + c] * b[i * w + c];
    /* the spec's limits: length/distance sqrt + accumulated rounding */
    double lim = 3.0 + 0.5 * (0.5 * w + 0.5 * (w - 1));
    struct {
      int fn;
      long double want;
      double lim;
    } checks[] = {{0, want_len, lim}, {1, want_dist, lim}, {2, want_len, 8192.0}};
    for (int k = 0; k < 3; k++) {
      long double got = GOT(lens, 4 * i + checks[k].fn);
      long double want = dbl ? (long double)(double)checks[k].want
                             : (long double)(float)checks[k].want;
      double e = ulps(got, checks[k].want, dbl);
      if (!(e <= checks[k].lim) && !(isinf(got) && isinf(want)) && bad++ < 8)
        fprintf(stderr, "%s vec %d fn %d: got %La want %La (%g ulp)\n", t, i,
                checks[k].fn, got, checks[k].want, e);
    }
    /* dot: no overflow protection required; check ordinary inputs only */
    if (i % 4 != 1 && i % 4 != 2 && i != 4 && i != 8 && i != 12) {
      long double got = GOT(lens, 4 * i + 3);
      if (fabsl(got - want_dot) > (dbl ? 1e-13L : 1e-4L) * (1 + fabsl(want_dot)) && bad++ < 8)
        fprintf(stderr, "%s vec %d dot: got %La want %La\n", t, i, got, want_dot);
    }
    ref_normalize(a + i * w, w, want_n);
    ref_normalize(b + i * w, w, want_fn);
    double nlim = 2.5 + 0.5 * w + 0.5 * (w - 1);
    for (int c = 0; c < w; c++) {
      long double g1 = GOT(nrms, i * w + c), g2 = GOT(nrms, NGEO * w + i * w + c);
      double e1 = ulps(g1, want_n[c], dbl), e2 = ulps(g2, want_fn[c], dbl);
      bool zero_ok1 = fabsl(want_n[c]) < (dbl ? DBL_MIN : FLT_MIN) && fabsl(g1) < (dbl ? DBL_MIN : FLT_MIN);
      if (!(e1 <= nlim) && !zero_ok1 && bad++ < 8)
        fprintf(stderr, "%s vec %d normalize[%d]: got %La want %La\n", t, i, c, g1, want_n[c]);
      if (!(e2 <= 8192.5 + w) && bad++ < 8)
        fprintf(stderr, "%s vec %d fast_normalize[%d]: got %La want %La\n", t, i, c, g2,
                want_fn[c]);
    }
  }
#undef GOT
  CHECK(bad == 0);
  for (int i = 0; i < 4; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseProgram(p);
}

/* cross products of float3/float4 and double3 against exact arithmetic on
 * small integers (no rounding involved) */
static void test_cross(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void k(global float *a, global float *b, global float *o3, global float4 *o4,\n"
      "              global double *od) {\n"
      "  size_t i = get_global_id(0);\n"
      "  vstore3(cross(vload3(i, a), vload3(i, b)), i, o3);\n"
      "  o4[i] = cross((float4)(vload3(i, a), 7.0f), (float4)(vload3(i, b), -3.0f));\n"
      "  double3 da = convert_double3(vload3(i, a)), db = convert_double3(vload3(i, b));\n"
      "  vstore3(cross(da, db), i, od);\n"
      "}\n";
  cl_program p = test_program_from(env, src, NULL);
  if (!p)
    return;
  enum { N = 32 };
  float a[N * 3], b[N * 3];
  for (int i = 0; i < N * 3; i++) {
    a[i] = (float)((int)(rnd_unit() * 200) - 100);
    b[i] = (float)((int)(rnd_unit() * 200) - 100);
  }
  cl_mem bufs[5] = {buffer(env, sizeof a, a), buffer(env, sizeof b, b),
                    buffer(env, sizeof(float) * N * 3, NULL),
                    buffer(env, sizeof(float) * N * 4, NULL),
                    buffer(env, sizeof(double) * N * 3, NULL)};
  run(env, p, "k", N, 5, bufs);
  float o3[N * 3], o4[N * 4];
  double od[N * 3];
  test_read_back(env, bufs[2], sizeof o3, o3);
  test_read_back(env, bufs[3], sizeof o4, o4);
  test_read_back(env, bufs[4], sizeof od, od);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    const float *x = a + 3 * i, *y = b + 3 * i;
    float want[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                     x[0] * y[1] - x[1] * y[0]};
    for (int c = 0; c < 3; c++)
      bad += o3[3 * i + c] != want[c] || o4[4 * i + c] != want[c] || od[3 * i + c] != want[c];
    bad += o4[4 * i + 3] != 0.0f;
  }
  CHECK(bad == 0);
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseProgram(p);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  const int step_widths[] = {1, 3, 16};
  for (int dbl = 0; dbl < 2; dbl++)
    for (int i = 0; i < 3; i++)
      test_step_family(&env, dbl, step_widths[i]);
  for (int dbl = 0; dbl < 2; dbl++)
    for (int w = 1; w <= 4; w++)
      test_geometric(&env, dbl, w);
  test_cross(&env);
  test_env_release(&env);
  return test_finish("test_builtins_common");
}
