/* Vector data load and store builtins (OpenCL C 1.13.7): vloadn/vstoren for
 * every scalar type and width from every address space (generic ones through
 * -cl-std=CL3.0), and the half variants: every half value loaded, and float
 * and double values on both sides of every rounding boundary stored in every
 * rounding mode. Results are compared bit for bit with host references;
 * untouched memory (vstore3 packing, vstorea_half3 padding) is checked too. */
#include "harness.h"
#include <float.h>
#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

/* runs kernel `name` of p with the given buffers as arguments 0..n-1 */
static void run_kernel(struct test_env *env, cl_program p, const char *name, cl_mem *args,
                       int nargs, size_t global, size_t local) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  if (err != CL_SUCCESS)
    return;
  for (int i = 0; i < nargs; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, local ? &local : NULL, 0,
                                  NULL, NULL));
  CHECK_OK(clFinish(env->queue));
  clReleaseKernel(k);
}

static void read_back(struct test_env *env, cl_mem m, size_t size, void *out) {
  CHECK_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

/* ------------------------------------------------------------------ */
/* vloadn / vstoren                                                   */
/* ------------------------------------------------------------------ */

#define N_IN 176   /* input elements */
#define SLOT 400   /* elements per result region */
#define LSLOT 136  /* elements of a __local store region */
#define ITEMS 8    /* one work-group of 8 work-items */
static const int widths[5] = {2, 3, 4, 8, 16};

/* Region w*7+r holds, for width widths[w]: r=0..3 loads from global,
 * constant, local and private memory (written out component by component),
 * r=4..6 stores to global, local and private memory. */
static const char *vls_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define SLOT 400\n#define LSLOT 136\n#define N_IN 176\n"
    "#define COMP(T, dst, v, n) \\\n"
    "  for (int k = 0; k < n; k++) (dst)[i * n + k] = ((private T *)&(v))[k];\n"
    "#define TEST(T, W, n) { \\\n"
    "  global T *o = out + W * 7 * SLOT; \\\n"
    "  T##n v; \\\n"
    "  v = vload##n(i, in + 1); COMP(T, o, v, n) \\\n"
    "  v = vload##n(i, cin + 1); COMP(T, o + SLOT, v, n) \\\n"
    "  v = vload##n(i, lin + 1); COMP(T, o + 2 * SLOT, v, n) \\\n"
    "  for (int k = 0; k < n; k++) ((private T *)&v)[k] = in[1 + i * n + k]; \\\n"
    "  vstore##n(v, i, o + 4 * SLOT + 1); \\\n"
    "  vstore##n(v, i, lout[W] + 1); }\n"
    "#define PTEST(T, W, n) { \\\n"
    "  global T *o = out + W * 7 * SLOT; \\\n"
    "  T##n v; \\\n"
    "  for (int k = 0; k < 3 * n + 1; k++) pb[k] = in[i * n + k]; \\\n"
    "  v = vload##n(2, pb + 1); COMP(T, o + 3 * SLOT, v, n) \\\n"
    "  for (int k = 0; k < n; k++) ((private T *)&v)[k] = in[1 + i * n + k]; \\\n"
    "  for (int k = 0; k < 3 * n + 1; k++) pb[k] = in[k]; \\\n"
    "  vstore##n(v, 2, pb + 1); \\\n"
    "  for (int k = 0; k < 3 * n + 1; k++) o[6 * SLOT + i * (3 * n + 1) + k] = pb[k]; }\n"
    /* private memory gets its own kernel: private arrays in a kernel with
     * barriers cost the work-group compiler much more time */
    "#define KERNEL(T) \\\n"
    "kernel void vls_##T(global const T *in, constant T *cin, global T *out) { \\\n"
    "  local T lin[N_IN]; \\\n"
    "  local T lout[5][LSLOT]; \\\n"
    "  int i = get_local_id(0); \\\n"
    "  for (int j = i; j < N_IN; j += 8) lin[j] = in[j]; \\\n"
    "  for (int w = 0; w < 5; w++) \\\n"
    "    for (int j = i; j < LSLOT; j += 8) lout[w][j] = out[(w * 7 + 5) * SLOT + j]; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  TEST(T, 0, 2) TEST(T, 1, 3) TEST(T, 2, 4) TEST(T, 3, 8) TEST(T, 4, 16) \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  for (int w = 0; w < 5; w++) \\\n"
    "    for (int j = i; j < LSLOT; j += 8) out[(w * 7 + 5) * SLOT + j] = lout[w][j]; \\\n"
    "} \\\n"
    "kernel void vlsp_##T(global const T *in, global T *out) { \\\n"
    "  int i = get_global_id(0); \\\n"
    "  T pb[49]; \\\n"
    "  PTEST(T, 0, 2) PTEST(T, 1, 3) PTEST(T, 2, 4) PTEST(T, 3, 8) PTEST(T, 4, 16) \\\n"
    "}\n"
    "KERNEL(char) KERNEL(uchar) KERNEL(short) KERNEL(ushort) KERNEL(int)\n"
    "KERNEL(uint) KERNEL(long) KERNEL(ulong) KERNEL(float) KERNEL(double)\n";

static void expect_vls(const unsigned char *in, unsigned char *exp, size_t es) {
#define E(region, idx) (exp + ((size_t)(region) * SLOT + (size_t)(idx)) * es)
#define I(idx) (in + (size_t)(idx) * es)
  for (int w = 0; w < 5; w++) {
    int n = widths[w];
    for (int i = 0; i < ITEMS; i++)
      for (int k = 0; k < n; k++) {
        for (int r = 0; r < 3; r++)
          memcpy(E(w * 7 + r, i * n + k), I(1 + i * n + k), es);
        memcpy(E(w * 7 + 3, i * n + k), I(i * n + 2 * n + 1 + k), es);
        memcpy(E(w * 7 + 4, 1 + i * n + k), I(1 + i * n + k), es);
        memcpy(E(w * 7 + 5, 1 + i * n + k), I(1 + i * n + k), es);
      }
    for (int i = 0; i < ITEMS; i++)
      for (int k = 0; k < 3 * n + 1; k++) {
        int from = (k >= 2 * n + 1) ? 1 + i * n + (k - 2 * n - 1) : k;
        memcpy(E(w * 7 + 6, i * (3 * n + 1) + k), I(from), es);
      }
  }
#undef E
#undef I
}

static void test_vloadn_vstoren(struct test_env *env, const char *options) {
  static const char *types[10] = {"char", "uchar", "short", "ushort", "int",
                                  "uint", "long",  "ulong", "float",  "double"};
  static const size_t sizes[10] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  cl_program p = test_program_from(env, vls_src, options);
  if (!p)
    return;
  for (int t = 0; t < 10; t++) {
    size_t es = sizes[t], in_bytes = N_IN * es, out_bytes = 5 * 7 * SLOT * es;
    unsigned char *in = malloc(in_bytes), *out = malloc(out_bytes), *exp = malloc(out_bytes);
    for (size_t j = 0; j < in_bytes; j++)
      in[j] = (unsigned char)rnd();
    for (size_t j = 0; j < out_bytes; j++)
      out[j] = (unsigned char)(0xA5 ^ (j * 7));
    memcpy(exp, out, out_bytes);
    expect_vls(in, exp, es);
    cl_mem args[3] = {test_buffer_with(env, in_bytes, in), test_buffer_with(env, in_bytes, in),
                      test_buffer_with(env, out_bytes, out)};
    char name[32];
    snprintf(name, sizeof name, "vls_%s", types[t]);
    run_kernel(env, p, name, args, 3, ITEMS, ITEMS);
    cl_mem pargs[2] = {args[0], args[2]};
    snprintf(name, sizeof name, "vlsp_%s", types[t]);
    run_kernel(env, p, name, pargs, 2, ITEMS, ITEMS);
    read_back(env, args[2], out_bytes, out);
    int bad = 0;
    for (int region = 0; region < 35; region++)
      for (int j = 0; j < SLOT; j++) {
        size_t at = ((size_t)region * SLOT + (size_t)j) * es;
        if (memcmp(out + at, exp + at, es)) {
          if (bad++ < 4)
            fprintf(stderr, "  %s %s: width %d region %d element %d differs\n",
                    options ? options : "", types[t], widths[region / 7], region % 7, j);
        }
      }
    CHECK(bad == 0);
    for (int i = 0; i < 3; i++)
      clReleaseMemObject(args[i]);
    free(in);
    free(out);
    free(exp);
  }
  clReleaseProgram(p);
}

/* ------------------------------------------------------------------ */
/* half references                                                    */
/* ------------------------------------------------------------------ */

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint64_t d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double u2d(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static double half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = ldexp(m, -24);
  else
    v = ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

static int half_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

enum { RTE, RTZ, RTP, RTN };

/* x rounded to half in the given mode, computed in double arithmetic: the
 * value is scaled so that one half ulp is 1, rounded to an integer, scaled
 * back and encoded. Not valid for NaN. */
static uint16_t ref_to_half(double x, int mode) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isinf(a))
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  int e2;
  frexp(a, &e2);
  int E = e2 - 1; /* a in [2^E, 2^(E+1)) */
  if (E < -14)
    E = -14;
  if (E > 16)
    E = 16;
  double q = ldexp(a, 10 - E);
  int up_dir = (mode == RTP && !sign) || (mode == RTN && sign);
  double n;
  if (mode == RTE)
    n = nearbyint(q);
  else if (up_dir)
    n = ceil(q);
  else
    n = floor(q);
  double r = ldexp(n, E - 10);
  if (r > 65504.0)
    return sign | ((mode == RTE || up_dir) ? 0x7c00 : 0x7bff);
  if (r < ldexp(1, -14))
    return sign | (uint16_t)ldexp(r, 24);
  frexp(r, &e2);
  int re = e2 - 1;
  return sign | (uint16_t)((re + 15) << 10) | (uint16_t)(ldexp(r, 10 - re) - 1024);
}

/* ------------------------------------------------------------------ */
/* vload_half[n], vloada_half[n]: every half value                    */
/* ------------------------------------------------------------------ */

#define NH 65536
static const char *h2f_src =
    "#define NH 65536\n"
    "#define LD(name, n, stride, region) \\\n"
    "  for (size_t j = get_global_id(0); j < NH / stride; j += get_global_size(0)) { \\\n"
    "    float##n v = name(j, h); \\\n"
    "    for (int k = 0; k < n; k++) o[region * NH + j * stride + k] = ((private float *)&v)[k]; \\\n"
    "  }\n"
    "kernel void h2f1(global const half *h, global float *o) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[i] = vload_half(i, h);\n"
    "}\n"
    "kernel void h2fn(global const half *h, global float *o) {\n"
    "  LD(vload_half2, 2, 2, 1) LD(vload_half3, 3, 3, 2) LD(vload_half4, 4, 4, 3)\n"
    "  LD(vload_half8, 8, 8, 4) LD(vload_half16, 16, 16, 5)\n"
    "  LD(vloada_half2, 2, 2, 6) LD(vloada_half3, 3, 4, 7) LD(vloada_half4, 4, 4, 8)\n"
    "  LD(vloada_half8, 8, 8, 9) LD(vloada_half16, 16, 16, 10)\n"
    "}\n";

static void test_vload_half_values(struct test_env *env) {
  cl_program p = test_program_from(env, h2f_src, NULL);
  if (!p)
    return;
  uint16_t *h = malloc(NH * 2);
  for (int i = 0; i < NH; i++)
    h[i] = (uint16_t)i;
  size_t out_bytes = 11 * (size_t)NH * 4;
  uint32_t *o = malloc(out_bytes);
  for (size_t j = 0; j < 11 * (size_t)NH; j++)
    o[j] = 0xDEADBEEF;
  cl_mem args[2] = {test_buffer_with(env, NH * 2, h), test_buffer_with(env, out_bytes, o)};
  run_kernel(env, p, "h2f1", args, 2, NH, 0);
  run_kernel(env, p, "h2fn", args, 2, 1024, 64);
  read_back(env, args[1], out_bytes, o);
  static const int n_of[11] = {1, 2, 3, 4, 8, 16, 2, 3, 4, 8, 16};
  int bad = 0;
  for (int region = 0; region < 11; region++) {
    int n = n_of[region], stride = (region == 7) ? 4 : n;
    for (int i = 0; i < NH; i++) {
      int covered = (i / stride) < NH / stride && (i % stride) < n;
      uint32_t got = o[(size_t)region * NH + (size_t)i];
      int ok;
      if (!covered)
        ok = got == 0xDEADBEEF;
      else if (half_is_nan((uint16_t)i))
        ok = isnan(u2f(got)) && ((got >> 31) == (uint32_t)(i >> 15));
      else
        ok = got == f2u((float)half_value((uint16_t)i));
      if (!ok && bad++ < 5)
        fprintf(stderr, "  vload_half region %d: half 0x%04x -> 0x%08x\n", region, i, got);
    }
  }
  CHECK(bad == 0);
  clReleaseMemObject(args[0]);
  clReleaseMemObject(args[1]);
  free(h);
  free(o);
  clReleaseProgram(p);
}

/* ------------------------------------------------------------------ */
/* vstore_half[n][a][_mode]: rounding of float and double values       */
/* ------------------------------------------------------------------ */

/* 5 "modes" per variant: default, _rte, _rtz, _rtp, _rtn; variants: scalar,
 * then vstore_halfn and vstorea_halfn for n = 2, 3, 4, 8, 16 */
static const char *f2h_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define MODES(T, name, v, j, region) \\\n"
    "  name(v, j, o + ((region) * 5 + 0) * NX); name##_rte(v, j, o + ((region) * 5 + 1) * NX); \\\n"
    "  name##_rtz(v, j, o + ((region) * 5 + 2) * NX); name##_rtp(v, j, o + ((region) * 5 + 3) * NX); \\\n"
    "  name##_rtn(v, j, o + ((region) * 5 + 4) * NX);\n"
    "#define VEC(T, n, region) \\\n"
    "  for (size_t j = get_global_id(0); j < NX / n; j += get_global_size(0)) { \\\n"
    "    T##n v = vload##n(j, x); \\\n"
    "    MODES(T, vstore_half##n, v, j, region) \\\n"
    "  } \\\n"
    "  for (size_t j = get_global_id(0); j < NX / (n == 3 ? 4 : n); j += get_global_size(0)) { \\\n"
    "    T##n v = vload##n(0, x + j * (n == 3 ? 4 : n)); \\\n"
    "    MODES(T, vstorea_half##n, v, j, region + 1) \\\n"
    "  }\n"
    "#define KERNELS(T) \\\n"
    "kernel void f2h1_##T(global const T *x, global half *o, uint NX) { \\\n"
    "  size_t i = get_global_id(0); \\\n"
    "  MODES(T, vstore_half, x[i], i, 0) \\\n"
    "} \\\n"
    "kernel void f2hn_##T(global const T *x, global half *o, uint NX) { \\\n"
    "  VEC(T, 2, 1) VEC(T, 3, 3) VEC(T, 4, 5) VEC(T, 8, 7) VEC(T, 16, 9) \\\n"
    "}\n"
    "KERNELS(float) KERNELS(double)\n";

static int nf_inputs;
static double *collect;
static void add_input(double v) { collect[nf_inputs++] = v; }

/* values on and around every rounding boundary of half, both signs; for
 * doubles also neighbours that rounding through float would get wrong */
static size_t make_inputs(int is_double, double **out) {
  size_t cap = 900000;
  collect = malloc(cap * sizeof(double));
  nf_inputs = 0;
  for (int s = 0; s < 2; s++) {
    double sg = s ? -1.0 : 1.0;
    for (int h = 0; h < 0x7c00; h++) {
      double lo = half_value((uint16_t)h);
      double hi = (h == 0x7bff) ? 65536.0 : half_value((uint16_t)(h + 1));
      double mid = (lo + hi) / 2;
      add_input(sg * lo);
      add_input(sg * mid);
      if (is_double) {
        add_input(sg * nextafter(mid, 0));
        add_input(sg * nextafter(mid, INFINITY));
        add_input(sg * nextafter(lo, INFINITY));
      } else {
        add_input(sg * (double)nextafterf((float)mid, 0));
        add_input(sg * (double)nextafterf((float)mid, INFINITY));
        add_input(sg * (double)nextafterf((float)lo, INFINITY));
      }
    }
    add_input(sg * 65520.0);
    add_input(sg * 65535.0);
    add_input(sg * 65536.0);
    add_input(sg * 1e10);
    add_input(sg * (is_double ? DBL_MAX : FLT_MAX));
    add_input(sg * INFINITY);
    add_input(sg * (is_double ? DBL_MIN : FLT_MIN));
    add_input(sg * (is_double ? 4.9e-324 : (double)1.4e-45f));
    add_input(sg * ldexp(1, -25));
    add_input(sg * ldexp(3, -26));
    add_input(sg * 0.0);
  }
  add_input(NAN);
  add_input(-NAN);
  for (int i = 0; i < 40000; i++) {
    if (is_double) {
      add_input(u2d(rnd()));
      add_input(ldexp((double)(rnd() >> 11) / 9007199254740992.0, (int)(rnd() % 50) - 32) *
                ((rnd() & 1) ? -1 : 1));
    } else {
      add_input((double)u2f((uint32_t)rnd()));
      add_input((double)u2f((uint32_t)(rnd() % 0x47900000u) | (uint32_t)(rnd() & 0x80000000u)));
    }
  }
  /* a multiple of 48 so that every width divides it */
  while (nf_inputs % 48)
    add_input(0.5);
  *out = collect;
  return (size_t)nf_inputs;
}

static void test_vstore_half_rounding(struct test_env *env, int is_double) {
  cl_program p = test_program_from(env, f2h_src, NULL);
  if (!p)
    return;
  double *vals;
  size_t nx = make_inputs(is_double, &vals);
  size_t es = is_double ? 8 : 4;
  unsigned char *x = malloc(nx * es);
  for (size_t i = 0; i < nx; i++) {
    if (is_double) {
      memcpy(x + i * 8, &vals[i], 8);
    } else {
      float f = (float)vals[i];
      memcpy(x + i * 4, &f, 4);
      vals[i] = f; /* exactly the float value */
    }
  }
  size_t regions = 11 * 5, out_bytes = regions * nx * 2;
  uint16_t *o = malloc(out_bytes);
  for (size_t j = 0; j < regions * nx; j++)
    o[j] = 0xBEEF;
  cl_mem args[2] = {test_buffer_with(env, nx * es, x), test_buffer_with(env, out_bytes, o)};
  const char *t = is_double ? "double" : "float";
  char name[32];
  cl_uint nxu = (cl_uint)nx;
  for (int pass = 0; pass < 2; pass++) {
    snprintf(name, sizeof name, pass ? "f2hn_%s" : "f2h1_%s", t);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_OK(err);
    CHECK_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &args[0]));
    CHECK_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &args[1]));
    CHECK_OK(clSetKernelArg(k, 2, sizeof nxu, &nxu));
    size_t global = pass ? 4096 : nx;
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clFinish(env->queue));
    clReleaseKernel(k);
  }
  read_back(env, args[1], out_bytes, o);
  static const int n_of[11] = {1, 2, 2, 3, 3, 4, 4, 8, 8, 16, 16};
  static const int mode_of[5] = {RTE, RTE, RTZ, RTP, RTN};
  int bad = 0;
  for (size_t i = 0; i < nx; i++) {
    uint16_t ref[4];
    int nan = isnan(vals[i]);
    for (int m = 0; m < 4; m++)
      ref[m] = nan ? 0 : ref_to_half(vals[i], m);
    for (int v = 0; v < 11; v++) {
      int n = n_of[v], aligned = v >= 1 && v % 2 == 0;
      int stride = (aligned && n == 3) ? 4 : n;
      int covered = (i / (size_t)stride) < nx / (size_t)stride && (int)(i % (size_t)stride) < n;
      for (int m = 0; m < 5; m++) {
        uint16_t got = o[((size_t)v * 5 + (size_t)m) * nx + i];
        int ok;
        if (!covered)
          ok = got == 0xBEEF;
        else if (nan)
          ok = half_is_nan(got);
        else
          ok = got == ref[mode_of[m]];
        if (!ok && bad++ < 8)
          fprintf(stderr, "  vstore_half %s variant %d mode %d: %.17g (0x%016llx) -> 0x%04x, "
                          "expected 0x%04x\n", t, v, m, vals[i],
                  (unsigned long long)d2u(vals[i]), got, covered ? ref[mode_of[m]] : 0xBEEF);
      }
    }
  }
  CHECK(bad == 0);
  clReleaseMemObject(args[0]);
  clReleaseMemObject(args[1]);
  free(vals);
  free(x);
  free(o);
  clReleaseProgram(p);
}

/* ------------------------------------------------------------------ */
/* half loads and stores in every address space                       */
/* ------------------------------------------------------------------ */

/* 4 work-items. Loads: 11 regions of 64 floats per space (global, constant,
 * local, private). Stores: 14 regions of 64 halves per space (global, local,
 * private; private copies are written out per work-item). */
#define HS_REG 64
static const char *hspaces_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define R 64\n"
    "#define LD1(p, name, vn, n, stride, region) { \\\n"
    "    float##vn v = name(i, p); \\\n"
    "    for (int k = 0; k < n; k++) o[(region) * R + i * stride + k] = ((private float *)&v)[k]; }\n"
    "#define LOADS(p, base) \\\n"
    "  LD1(p, vload_half, , 1, 1, base) LD1(p, vload_half2, 2, 2, 2, base + 1) \\\n"
    "  LD1(p, vload_half3, 3, 3, 3, base + 2) LD1(p, vload_half4, 4, 4, 4, base + 3) \\\n"
    "  LD1(p, vload_half8, 8, 8, 8, base + 4) LD1(p, vload_half16, 16, 16, 16, base + 5) \\\n"
    "  LD1(p, vloada_half2, 2, 2, 2, base + 6) LD1(p, vloada_half3, 3, 3, 4, base + 7) \\\n"
    "  LD1(p, vloada_half4, 4, 4, 4, base + 8) LD1(p, vloada_half8, 8, 8, 8, base + 9) \\\n"
    "  LD1(p, vloada_half16, 16, 16, 16, base + 10)\n"
    "#define ST1(p, T, name, vn, n, stride, region) { \\\n"
    "    T##vn v; \\\n"
    "    for (int k = 0; k < n; k++) ((private T *)&v)[k] = fin[i * stride + k]; \\\n"
    "    name(v, i, p + (region) * R); }\n"
    "#define STORES(p) \\\n"
    "  ST1(p, float, vstore_half, , 1, 1, 0) ST1(p, float, vstore_half2, 2, 2, 2, 1) \\\n"
    "  ST1(p, float, vstore_half3_rtz, 3, 3, 3, 2) ST1(p, float, vstore_half4_rtp, 4, 4, 4, 3) \\\n"
    "  ST1(p, float, vstore_half8_rtn, 8, 8, 8, 4) ST1(p, float, vstore_half16_rte, 16, 16, 16, 5) \\\n"
    "  ST1(p, float, vstorea_half2_rtp, 2, 2, 2, 6) ST1(p, float, vstorea_half3, 3, 3, 4, 7) \\\n"
    "  ST1(p, float, vstorea_half4_rtz, 4, 4, 4, 8) ST1(p, float, vstorea_half8, 8, 8, 8, 9) \\\n"
    "  ST1(p, float, vstorea_half16_rtn, 16, 16, 16, 10) ST1(p, double, vstore_half_rtp, , 1, 1, 11) \\\n"
    "  ST1(p, double, vstore_half3_rtn, 3, 3, 3, 12) ST1(p, double, vstorea_half16_rtz, 16, 16, 16, 13)\n"
    "kernel void hspaces(global const half *gh, constant half *ch, global float *o,\n"
    "                    global half *so, global const float *fin) {\n"
    "  local ushort lh[R];\n"
    "  local ushort ls[14 * R];\n"
    "  int i = get_local_id(0);\n"
    "  for (int j = i; j < R; j += 4) lh[j] = ((global const ushort *)gh)[j];\n"
    "  for (int j = i; j < 14 * R; j += 4) ls[j] = ((global ushort *)so)[14 * R + j];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  private ushort ph[R];\n"
    "  for (int j = 0; j < R; j++) ph[j] = ((global const ushort *)gh)[j];\n"
    "  LOADS(gh, 0) LOADS(ch, 11) LOADS((local half *)lh, 22) LOADS((private half *)ph, 33)\n"
    "  STORES(so) STORES((local half *)ls)\n"
    "  private ushort ps[14 * R];\n"
    "  for (int j = 0; j < 14 * R; j++) ps[j] = 0xBEEF;\n"
    "  STORES((private half *)ps)\n"
    "  for (int j = 0; j < 14 * R; j++) ((global ushort *)so)[(2 + i) * 14 * R + j] = ps[j];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int j = i; j < 14 * R; j += 4) ((global ushort *)so)[14 * R + j] = ls[j];\n"
    "}\n";

static void test_half_spaces(struct test_env *env, const char *options) {
  cl_program p = test_program_from(env, hspaces_src, options);
  if (!p)
    return;
  uint16_t gh[HS_REG];
  for (int j = 0; j < HS_REG; j++)
    gh[j] = (uint16_t)(rnd() & 0xfbff); /* no Inf/NaN: exact comparisons */
  float fin[HS_REG];
  for (int j = 0; j < HS_REG; j++)
    fin[j] = (float)ldexp((double)(rnd() % 2000000) - 1000000.0, (int)(rnd() % 30) - 40);
  size_t lo_n = 44 * HS_REG, st_n = 6 * 14 * HS_REG;
  uint32_t *lo = malloc(lo_n * 4);
  uint16_t *st = malloc(st_n * 2);
  for (size_t j = 0; j < lo_n; j++)
    lo[j] = 0xDEADBEEF;
  for (size_t j = 0; j < st_n; j++)
    st[j] = 0xBEEF;
  cl_mem args[5] = {test_buffer_with(env, sizeof gh, gh), test_buffer_with(env, sizeof gh, gh),
                    test_buffer_with(env, lo_n * 4, lo), test_buffer_with(env, st_n * 2, st),
                    test_buffer_with(env, sizeof fin, fin)};
  run_kernel(env, p, "hspaces", args, 5, 4, 4);
  read_back(env, args[2], lo_n * 4, lo);
  read_back(env, args[3], st_n * 2, st);

  /* loads */
  static const int ln[11] = {1, 2, 3, 4, 8, 16, 2, 3, 4, 8, 16};
  int bad = 0;
  for (int sp = 0; sp < 4; sp++)
    for (int r = 0; r < 11; r++) {
      int n = ln[r], stride = r == 7 ? 4 : n;
      for (int j = 0; j < HS_REG; j++) {
        int covered = j / stride < 4 && j % stride < n;
        uint32_t want = covered ? f2u((float)half_value(gh[j])) : 0xDEADBEEF;
        uint32_t got = lo[(sp * 11 + r) * HS_REG + j];
        if (got != want && bad++ < 5)
          fprintf(stderr, "  %s half load space %d region %d element %d: 0x%08x, expected 0x%08x\n",
                  options ? options : "", sp, r, j, got, want);
      }
    }
  /* stores: copy 0 global, 1 local (all work-items), 2+i private of item i */
  static const int sn[14] = {1, 2, 3, 4, 8, 16, 2, 3, 4, 8, 16, 1, 3, 16};
  static const int sstride[14] = {1, 2, 3, 4, 8, 16, 2, 4, 4, 8, 16, 1, 3, 16};
  static const int smode[14] = {RTE, RTE, RTZ, RTP, RTN, RTE, RTP, RTE, RTZ, RTE, RTN, RTP, RTN, RTZ};
  for (int copy = 0; copy < 6; copy++)
    for (int r = 0; r < 14; r++)
      for (int j = 0; j < HS_REG; j++) {
        int item = j / sstride[r];
        int covered = item < 4 && j % sstride[r] < sn[r] && (copy < 2 || item == copy - 2);
        uint16_t want = covered ? ref_to_half(fin[j], smode[r]) : 0xBEEF;
        uint16_t got = st[(copy * 14 + r) * HS_REG + j];
        if (got != want && bad++ < 10)
          fprintf(stderr, "  %s half store copy %d region %d element %d: 0x%04x, expected 0x%04x\n",
                  options ? options : "", copy, r, j, got, want);
      }
  CHECK(bad == 0);
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(args[i]);
  free(lo);
  free(st);
  clReleaseProgram(p);
}

/* the host reference itself, on values whose halves are known */
static void test_reference(void) {
  CHECK(ref_to_half(1.0, RTE) == 0x3c00);
  CHECK(ref_to_half(-2.0, RTZ) == 0xc000);
  CHECK(ref_to_half(65504.0, RTE) == 0x7bff);
  CHECK(ref_to_half(65520.0, RTE) == 0x7c00);
  CHECK(ref_to_half(65519.0, RTE) == 0x7bff);
  CHECK(ref_to_half(1e6, RTZ) == 0x7bff);
  CHECK(ref_to_half(-1e6, RTP) == 0xfbff);
  CHECK(ref_to_half(-1e6, RTN) == 0xfc00);
  CHECK(ref_to_half(ldexp(1, -24), RTE) == 0x0001);
  CHECK(ref_to_half(ldexp(1, -25), RTE) == 0x0000);
  CHECK(ref_to_half(ldexp(3, -26), RTE) == 0x0001);
  CHECK(ref_to_half(ldexp(1, -30), RTP) == 0x0001);
  CHECK(ref_to_half(-ldexp(1, -30), RTP) == 0x8000);
  CHECK(ref_to_half(ldexp(1023, -24) + ldexp(1, -25), RTE) == 0x0400);
  CHECK(ref_to_half(1.0 + ldexp(1, -11), RTE) == 0x3c00);
  CHECK(ref_to_half(1.0 + ldexp(3, -11), RTE) == 0x3c02);
  CHECK(half_value(0x7bff) == 65504.0 && half_value(0x0001) == ldexp(1, -24));
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_reference();
  test_vloadn_vstoren(&env, NULL);
  test_vloadn_vstoren(&env, "-cl-std=CL3.0");
  test_vload_half_values(&env);
  test_vstore_half_rounding(&env, 0);
  test_vstore_half_rounding(&env, 1);
  test_half_spaces(&env, NULL);
  test_half_spaces(&env, "-cl-std=CL3.0");
  test_env_release(&env);
  return test_finish("test_builtins_vload");
}
