/* cl_khr_fp16 beyond math: conversions to half from every scalar type in
 * every rounding mode and from half to every type (with _sat), the
 * relational functions (int results for scalars, shortn masks for vectors),
 * select and bitselect, shuffle and shuffle2, vloadn/vstoren and as_half,
 * async copies, the common functions and the geometric functions, at widths
 * 1, 3 and 16 (geometric: 1-4). References are computed on the host
 * (tests/half_ref.h rounds exact values to half in each mode). */
#include "harness.h"
#include "half_ref.h"
#include <float.h>

#define NIN 384 /* inputs per source type; a multiple of 48 */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

static const char *const tnames[10] = {"char", "uchar", "short", "ushort", "int",
                                       "uint", "long",  "ulong", "float",  "double"};
static const int tsize[10] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
static const char *const modes[5] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const enum half_mode hmode[5] = {H_RTE, H_RTE, H_RTZ, H_RTP, H_RTN};

static char tbuf[8][24];
static int tbi;
/* "name" or "nameN" */
static const char *vt(const char *s, int w) {
  char *b = tbuf[tbi++ & 7];
  if (w == 1)
    snprintf(b, 24, "%s", s);
  else
    snprintf(b, 24, "%s%d", s, w);
  return b;
}

static int reported;
#define FAIL(...)                                                              \
  do {                                                                         \
    test_failures++;                                                           \
    if (reported++ < 40)                                                       \
      fprintf(stderr, __VA_ARGS__);                                            \
  } while (0)

/* ---- conversions ---- */

/* special halves, then random ones */
static void half_inputs(uint16_t *h, int n) {
  static const uint16_t sp[] = {
      0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3800, 0xb800, 0x3c00, 0xbc00,
      0x3e00, 0xbe00, 0x4100, 0xc100, 0x3a00, 0xba00, 0x57f0, 0x5800, 0xd800, 0x5bf8,
      0x5c00, 0xdc04, 0x77ff, 0x7800, 0xf800, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
      0xfe00, 0x7c01, 0x4ffe, 0x3bff, 0x6bff, 0x6c00, 0xec00, 0x7a00};
  int i = 0;
  for (; i < (int)(sizeof sp / sizeof sp[0]); i++)
    h[i] = sp[i];
  for (; i < n; i++)
    h[i] = (uint16_t)rnd();
}

/* integers around half's rounding boundaries, and random magnitudes */
static void int_inputs(int64_t *v, int n) {
  static const int64_t sp[] = {0, 1, -1, 2047, 2048, 2049, 2050, 2051, -2049, -2051, 4097,
                               4099, -4097, 65504, 65505, 65519, 65520, 65521, 65535, 65536,
                               -65504, -65519, -65520, -65521, 131072, -131073, 127, -128,
                               255, 32767, -32768, 1 << 30, INT32_MIN, INT32_MAX, INT64_MAX,
                               INT64_MIN, (int64_t)UINT32_MAX, 1025, 1027, 3, -3};
  int i = 0;
  for (; i < (int)(sizeof sp / sizeof sp[0]); i++)
    v[i] = sp[i];
  for (; i < n; i++) {
    uint64_t r = rnd();
    v[i] = (int64_t)(r >> (r & 63));
    if (i & 1)
      v[i] = (int64_t)((r >> 8) % 70000) * ((r & 128) ? -1 : 1);
  }
}

/* floats and doubles at half's boundaries: ties, values just beside them,
 * the subnormal range, overflow; the double ones include values that a
 * conversion through float would round twice */
static void fp_inputs(double *v, int n, int dbl) {
  static const double sp[] = {
      0.0, -0.0, 0x1p-24, -0x1p-24, 0x1p-25, -0x1p-25, 0x1.8p-25, 0x1p-26, 0x1.ffcp-15,
      0x1.ffep-15, 0x1p-14, 1 + 0x1p-11, 1 + 0x3p-11, -(1 + 0x1p-11), 1 + 0x1p-11 + 0x1p-20,
      1 + 0x1p-11 - 0x1p-20, 65504, 65519, 65520, -65520, 65519.99, 65536, 1e10, -1e10,
      0x1.ffep15, 0.1, -0.1, 1.0 / 3, 2049, 2051, 3.14159, INFINITY, -INFINITY, NAN,
      /* double rounding traps (double only: exact midpoints in float) */
      1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-11 - 0x1p-40, -(1 + 0x1p-11 + 0x1p-40),
      0x1p-25 + 0x1p-60, 65520 - 0x1p-30, 2049 + 0x1p-30, 0x1.002p-20 + 0x1p-70};
  int nsp = (int)(sizeof sp / sizeof sp[0]) - (dbl ? 0 : 7);
  int i = 0;
  for (; i < nsp; i++)
    v[i] = dbl ? sp[i] : (double)(float)sp[i];
  for (; i < n; i++) {
    uint64_t r = rnd();
    double m = 1.0 + (double)(r >> 12) * 0x1p-52; /* [1, 2) */
    double x = ldexp(m, (int)((r >> 4) % 50) - 30);
    if (r & 1)
      x = -x;
    if ((r & 6) == 6) /* a half midpoint plus a small offset */
      x = ldexp(1.0 + ((double)((r >> 20) & 1023) + 0.5) * 0x1p-10, (int)((r >> 40) % 30) - 14) +
          ((r & 8) ? ldexp(1, -40) : 0);
    v[i] = dbl ? x : (double)(float)x;
  }
}

static char *convert_source(int w) {
  size_t len = 0, cap = 16384;
  char *s = malloc(cap);
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  if (w == 1)
    test_appendf(&s, &len, &cap, "#define LD(p) (p)[i]\n#define ST(v, p) ((p)[i] = (v))\n");
  else
    test_appendf(&s, &len, &cap, "#define LD(p) vload%d(i, p)\n#define ST(v, p) vstore%d(v, i, p)\n",
                 w, w);
  test_appendf(&s, &len, &cap, "__kernel void k(");
  for (int t = 0; t < 10; t++)
    test_appendf(&s, &len, &cap, "__global const %s *in_%s, ", tnames[t], tnames[t]);
  test_appendf(&s, &len, &cap,
               "__global const half *in_h, __global half *oh, __global long *ol, "
               "__global double *od) {\n  size_t i = get_global_id(0);\n  %s h = LD(in_h);\n",
               vt("half", w));
  for (int t = 0; t < 10; t++)
    for (int m = 0; m < 5; m++)
      test_appendf(&s, &len, &cap, "  ST(convert_%s%s(LD(in_%s)), oh + %d * %d);\n",
                   vt("half", w), modes[m], tnames[t], t * 5 + m, NIN);
  for (int t = 0; t < 8; t++)
    for (int v = 0; v < 10; v++)
      test_appendf(&s, &len, &cap, "  ST(convert_%s(convert_%s%s%s(h)), ol + %d * %d);\n",
                   vt("long", w), vt(tnames[t], w), v >= 5 ? "_sat" : "", modes[v % 5],
                   t * 10 + v, NIN);
  for (int m = 0; m < 5; m++)
    test_appendf(&s, &len, &cap,
                 "  ST(convert_%s(convert_%s%s(h)), od + %d * %d);\n"
                 "  ST(convert_%s%s(h), od + %d * %d);\n",
                 vt("double", w), vt("float", w), modes[m], m, NIN, vt("double", w), modes[m],
                 5 + m, NIN);
  test_appendf(&s, &len, &cap, "}\n");
  return s;
}

static long double round_mode(long double x, int m) {
  switch (m) {
  case 1: return rintl(x);
  case 3: return ceill(x);
  case 4: return floorl(x);
  default: return truncl(x);
  }
}

static void test_conversions(struct test_env *env, int w) {
  char *src = convert_source(w);
  cl_program prog;
  cl_kernel k = test_build_kernel(env, src, "k", NULL, &prog);
  free(src);
  int64_t iv[NIN];
  double fv[NIN], dv[NIN];
  uint16_t hv[NIN];
  int_inputs(iv, NIN);
  fp_inputs(fv, NIN, 0);
  fp_inputs(dv, NIN, 1);
  half_inputs(hv, NIN);
  cl_mem in[11];
  for (int t = 0; t < 10; t++) {
    unsigned char buf[NIN * 8];
    for (int i = 0; i < NIN; i++) {
      if (t == 8) {
        float f = (float)fv[i];
        memcpy(buf + i * 4, &f, 4);
      } else if (t == 9) {
        memcpy(buf + i * 8, &dv[i], 8);
      } else {
        memcpy(buf + i * tsize[t], &iv[i], (size_t)tsize[t]); /* little-endian truncation */
      }
    }
    in[t] = test_buffer_with(env, NIN * (size_t)tsize[t], buf);
  }
  in[10] = test_buffer_with(env, sizeof hv, hv);
  cl_mem oh = test_buffer_with(env, 50 * NIN * 2, NULL);
  cl_mem ol = test_buffer_with(env, 80 * NIN * 8, NULL);
  cl_mem od = test_buffer_with(env, 10 * NIN * 8, NULL);
  for (int i = 0; i < 11; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &in[i]));
  CHECK_OK(clSetKernelArg(k, 11, sizeof oh, &oh));
  CHECK_OK(clSetKernelArg(k, 12, sizeof ol, &ol));
  CHECK_OK(clSetKernelArg(k, 13, sizeof od, &od));
  size_t global = NIN / (size_t)w, local = 8;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  uint16_t *gh = malloc(50 * NIN * 2);
  int64_t *gl = malloc(80 * NIN * 8);
  double *gd = malloc(10 * NIN * 8);
  test_read_back(env, oh, 50 * NIN * 2, gh);
  test_read_back(env, ol, 80 * NIN * 8, gl);
  test_read_back(env, od, 10 * NIN * 8, gd);

  /* to half */
  for (int t = 0; t < 10; t++)
    for (int m = 0; m < 5; m++)
      for (int i = 0; i < NIN; i++) {
        uint16_t want, got = gh[(t * 5 + m) * NIN + i];
        long double x;
        if (t == 8)
          x = (long double)(float)fv[i];
        else if (t == 9)
          x = (long double)dv[i];
        else {
          int64_t v = iv[i];
          switch (t) {
          case 0: v = (int8_t)v; break;
          case 1: v = (uint8_t)v; break;
          case 2: v = (int16_t)v; break;
          case 3: v = (uint16_t)v; break;
          case 4: v = (int32_t)v; break;
          case 5: v = (uint32_t)v; break;
          default: break;
          }
          x = t == 7 ? (long double)(uint64_t)v : (long double)v;
        }
        if (t == 7)
          want = half_from_u64((uint64_t)iv[i], hmode[m]);
        else if (t < 8)
          want = half_from_i64((int64_t)x, hmode[m]);
        else
          want = half_from_ld(x, hmode[m]);
        test_checks++;
        if (half_is_nan(want) ? !half_is_nan(got) : got != want)
          FAIL("convert_%s%s(%s %La) = 0x%04x, want 0x%04x\n", vt("half", w), modes[m],
               tnames[t], x, got, want);
      }

  /* from half */
  static const long double lo[8] = {-128, 0, -32768, 0, -2147483648.0L, 0, -0x1p63L, 0};
  static const long double hi[8] = {127, 255, 32767, 65535, 2147483647.0L, 4294967295.0L,
                                    0x1p63L - 1, 0x1p64L - 1};
  for (int t = 0; t < 8; t++)
    for (int v = 0; v < 10; v++)
      for (int i = 0; i < NIN; i++) {
        long double x = half_to_float(hv[i]);
        int sat = v >= 5;
        long double r = round_mode(x, v % 5);
        int64_t got = gl[(t * 10 + v) * NIN + i];
        long double g = (t & 1) ? (long double)(uint64_t)got : (long double)got;
        /* the result type's value, sign- or zero-extended into the long */
        switch (t) {
        case 0: g = (int8_t)got; break;
        case 1: g = (uint8_t)got; break;
        case 2: g = (int16_t)got; break;
        case 3: g = (uint16_t)got; break;
        case 4: g = (int32_t)got; break;
        case 5: g = (uint32_t)got; break;
        default: break;
        }
        long double want;
        if (isnan(x)) {
          if (!sat)
            continue; /* implementation-defined */
          want = 0;
        } else if (r < lo[t] || r > hi[t]) {
          if (!sat)
            continue;
          want = r < lo[t] ? lo[t] : hi[t];
        } else {
          want = r;
        }
        test_checks++;
        if (g != want)
          FAIL("convert_%s%s%s(half %La) = %La, want %La\n", vt(tnames[t], w), sat ? "_sat" : "",
               modes[v % 5], x, g, want);
      }
  for (int v = 0; v < 10; v++)
    for (int i = 0; i < NIN; i++) {
      double x = half_to_float(hv[i]), got = gd[v * NIN + i];
      test_checks++;
      if (isnan(x) ? !isnan(got) : memcmp(&got, &x, 8) != 0)
        FAIL("convert_%s%s(half %a) = %a\n", v < 5 ? "float" : "double", modes[v % 5], x, got);
    }
  free(gh);
  free(gl);
  free(gd);
  for (int i = 0; i < 11; i++)
    clReleaseMemObject(in[i]);
  clReleaseMemObject(oh);
  clReleaseMemObject(ol);
  clReleaseMemObject(od);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* ---- relational, select, bitselect, vload/vstore, as_half ---- */

#define NREL 14
static const char *const rel2[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal",
                                   "isless", "islessequal", "islessgreater", "isordered",
                                   "isunordered"};
static const char *const rel1[] = {"isfinite", "isinf", "isnan", "isnormal", "signbit"};

static int rel_ref(int r, float x, float y) {
  switch (r) {
  case 0: return x == y;
  case 1: return x != y;
  case 2: return x > y;
  case 3: return x >= y;
  case 4: return x < y;
  case 5: return x <= y;
  case 6: return x < y || x > y;
  case 7: return !isnan(x) && !isnan(y);
  case 8: return isnan(x) || isnan(y);
  case 9: return isfinite(x);
  case 10: return isinf(x);
  case 11: return isnan(x);
  case 12: return fabsf(x) >= 0x1p-14f && !isinf(x) && !isnan(x); /* half's normal range */
  default: return signbit(x) != 0;
  }
}

static void test_relational(struct test_env *env, int w) {
  size_t len = 0, cap = 8192;
  char *s = malloc(cap);
  const char *T = vt("half", w), *S = vt("short", w), *U = vt("ushort", w);
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  if (w == 1)
    test_appendf(&s, &len, &cap, "#define LD(p) (p)[i]\n#define ST(v, p) ((p)[i] = (v))\n");
  else
    test_appendf(&s, &len, &cap, "#define LD(p) vload%d(i, p)\n#define ST(v, p) vstore%d(v, i, p)\n",
                 w, w);
  test_appendf(&s, &len, &cap,
               "__kernel void k(__global const half *a, __global const half *b,\n"
               "  __global const short *c, __global short *o, __global half *oh) {\n"
               "  size_t i = get_global_id(0);\n  %s x = LD(a), y = LD(b);\n  %s m = LD(c);\n",
               T, S);
  /* scalar results are int: narrowed to short for the store */
  for (int r = 0; r < 9; r++)
    test_appendf(&s, &len, &cap, "  ST(convert_%s(%s(x, y)), o + %d * %d);\n", S, rel2[r], r, NIN);
  for (int r = 0; r < 5; r++)
    test_appendf(&s, &len, &cap, "  ST(convert_%s(%s(x)), o + %d * %d);\n", S, rel1[r], 9 + r, NIN);
  test_appendf(&s, &len, &cap,
               "  ST(select(x, y, m), oh + 0 * %d);\n"
               "  ST(select(x, y, as_%s(m)), oh + 1 * %d);\n"
               "  ST(bitselect(x, y, as_%s(m)), oh + 2 * %d);\n"
               "  ST(as_%s((%s)(as_%s(x) ^ (%s)0x8000)), oh + 3 * %d);\n"
               "  ST(x < y ? x : y, oh + 4 * %d);\n"
               "  ST(fabs(x), oh + 5 * %d);\n  ST(copysign(x, y), oh + 6 * %d);\n"
               "  ST(-x, oh + 7 * %d);\n}\n",
               NIN, U, NIN, T, NIN, T, S, S, S, NIN, NIN, NIN, NIN, NIN);
  cl_program prog;
  cl_kernel k = test_build_kernel(env, s, "k", NULL, &prog);
  free(s);
  uint16_t a[NIN], b[NIN];
  int16_t c[NIN];
  half_inputs(a, NIN);
  for (int i = 0; i < NIN; i++) {
    b[i] = (i % 3 == 0) ? a[i] : a[(i * 7 + 5) % NIN];
    c[i] = (int16_t)rnd();
  }
  cl_mem A = test_buffer_with(env, sizeof a, a), B = test_buffer_with(env, sizeof b, b),
         C = test_buffer_with(env, sizeof c, c), O = test_buffer_with(env, NREL * NIN * 2, NULL),
         OH = test_buffer_with(env, 8 * NIN * 2, NULL);
  cl_mem args[5] = {A, B, C, O, OH};
  for (int i = 0; i < 5; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
  size_t global = NIN / (size_t)w, local = 8;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  int16_t o[NREL * NIN];
  uint16_t oh[8 * NIN];
  test_read_back(env, O, sizeof o, o);
  test_read_back(env, OH, sizeof oh, oh);
  for (int i = 0; i < NIN; i++) {
    float x = half_to_float(a[i]), y = half_to_float(b[i]);
    for (int r = 0; r < NREL; r++) {
      int want = rel_ref(r, x, y) ? (w == 1 ? 1 : -1) : 0;
      test_checks++;
      if (o[r * NIN + i] != want)
        FAIL("%s %s(%a, %a) = %d, want %d\n", T, r < 9 ? rel2[r] : rel1[r - 9], x, y,
             o[r * NIN + i], want);
    }
    /* select: scalars test the whole value, vectors the most significant bit */
    int pick = w == 1 ? c[i] != 0 : c[i] < 0;
    CHECK(oh[i] == (pick ? b[i] : a[i]));
    CHECK(oh[NIN + i] == (pick ? b[i] : a[i]));
    CHECK(oh[2 * NIN + i] == (uint16_t)((a[i] & ~(uint16_t)c[i]) | (b[i] & (uint16_t)c[i])));
    /* sign-bit operations keep every other bit, signalling NaNs included */
    CHECK(oh[3 * NIN + i] == (uint16_t)(a[i] ^ 0x8000));
    CHECK(oh[5 * NIN + i] == (uint16_t)(a[i] & 0x7fff));
    CHECK(oh[6 * NIN + i] == (uint16_t)((a[i] & 0x7fff) | (b[i] & 0x8000)));
    CHECK(oh[7 * NIN + i] == (uint16_t)(a[i] ^ 0x8000));
    CHECK(oh[4 * NIN + i] == (x < y ? a[i] : b[i]));
  }
  cl_mem all[5] = {A, B, C, O, OH};
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* shuffle/shuffle2 (half16 from half16, half4 from half8), vload3/vstore3 at
 * an offset, vloadn from __local and __constant, and async copies of half */
static void test_misc(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "__kernel void k(__global const half *a, __global const ushort *m, __global half *o,\n"
      "  __constant half *cst, __local half *tmp) {\n"
      "  size_t i = get_global_id(0), l = get_local_id(0);\n"
      "  half16 x = vload16(i, a), y = vload16(i + 1, a);\n"
      "  ushort16 mk = vload16(i, m);\n"
      "  vstore16(shuffle(x, mk), i, o);\n"
      "  vstore16(shuffle2(x, y, mk), i, o + 1 * 512);\n"
      "  vstore4(shuffle(x.lo, mk.lo.lo), i, o + 2 * 512);\n"
      "  vstore3(vload3(i, a + 1), i, o + 3 * 512 + 1);\n"
      "  vstore8(vload8(i, cst), i, o + 4 * 512);\n"
      "  event_t e = async_work_group_copy(tmp, a + get_group_id(0) * 16 * 16, 16 * 16, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  vstore16(vload16(l, tmp), i, o + 5 * 512);\n"
      "}\n";
  cl_program prog;
  cl_kernel k = test_build_kernel(env, src, "k", NULL, &prog);
  enum { G = 32, N = 512 + 16 };
  uint16_t a[N + 16], m[N];
  for (int i = 0; i < N + 16; i++)
    a[i] = (uint16_t)(0x3c00 + i);
  for (int i = 0; i < N; i++)
    m[i] = (uint16_t)rnd();
  cl_mem A = test_buffer_with(env, sizeof a, a), M = test_buffer_with(env, sizeof m, m),
         O = test_buffer_with(env, 6 * 512 * 2, NULL);
  uint16_t zero[6 * 512] = {0};
  CHECK_OK(clEnqueueWriteBuffer(env->queue, O, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
  CHECK_OK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK_OK(clSetKernelArg(k, 1, sizeof M, &M));
  CHECK_OK(clSetKernelArg(k, 2, sizeof O, &O));
  CHECK_OK(clSetKernelArg(k, 3, sizeof A, &A));
  CHECK_OK(clSetKernelArg(k, 4, 16 * 16 * 2, NULL));
  size_t global = G, local = 16;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  uint16_t o[6 * 512];
  test_read_back(env, O, sizeof o, o);
  for (int i = 0; i < G; i++)
    for (int j = 0; j < 16; j++) {
      const uint16_t *x = a + 16 * i, *y = a + 16 * (i + 1);
      uint16_t mk = m[16 * i + j];
      CHECK(o[16 * i + j] == x[mk & 15]);
      CHECK(o[512 + 16 * i + j] == ((mk & 31) < 16 ? x[mk & 15] : y[mk & 15]));
      if (j < 4)
        CHECK(o[2 * 512 + 4 * i + j] == x[m[16 * i + j] & 7]);
      if (j < 8)
        CHECK(o[4 * 512 + 8 * i + j] == a[8 * i + j]);
      CHECK(o[5 * 512 + 16 * i + j] == a[16 * i + j]);
    }
  /* vstore3 writes exactly three elements */
  CHECK(o[3 * 512] == 0);
  for (int i = 0; i < 3 * G; i++)
    CHECK(o[3 * 512 + 1 + i] == a[1 + i]);
  CHECK(o[3 * 512 + 1 + 3 * G] == 0);
  clReleaseMemObject(A);
  clReleaseMemObject(M);
  clReleaseMemObject(O);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* ---- common functions ---- */

static long double clampl(long double x, long double a, long double b) {
  return fminl(fmaxl(x, a), b);
}

static void test_common(struct test_env *env, int w) {
  size_t len = 0, cap = 8192;
  char *s = malloc(cap);
  const char *T = vt("half", w);
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  if (w == 1)
    test_appendf(&s, &len, &cap, "#define LD(p) (p)[i]\n#define ST(v, p) ((p)[i] = (v))\n");
  else
    test_appendf(&s, &len, &cap, "#define LD(p) vload%d(i, p)\n#define ST(v, p) vstore%d(v, i, p)\n",
                 w, w);
  test_appendf(&s, &len, &cap,
               "__kernel void k(__global const half *a, __global const half *b,\n"
               "  __global const half *c, __global half *o) {\n"
               "  size_t i = get_global_id(0);\n  %s x = LD(a), y = LD(b), t = LD(c);\n"
               "  half ys = b[0], ts = c[0];\n"
               "  ST(clamp(x, (%s)-1.0h, (%s)2.0h), o + 0 * %d);\n"
               "  ST(min(x, y), o + 1 * %d);\n  ST(max(x, y), o + 2 * %d);\n"
               "  ST(degrees(x), o + 3 * %d);\n  ST(radians(x), o + 4 * %d);\n"
               "  ST(mix(x, y, t), o + 5 * %d);\n  ST(step(y, x), o + 6 * %d);\n"
               "  ST(smoothstep((%s)-2.0h, (%s)3.0h, x), o + 7 * %d);\n  ST(sign(x), o + 8 * %d);\n"
               "  ST(clamp(x, -1.0h, 2.0h), o + 9 * %d);\n  ST(min(x, ys), o + 10 * %d);\n"
               "  ST(max(x, ys), o + 11 * %d);\n  ST(mix(x, y, ts), o + 12 * %d);\n"
               "  ST(step(ys, x), o + 13 * %d);\n"
               "  ST(smoothstep(-2.0h, 3.0h, x), o + 14 * %d);\n}\n",
               T, T, T, NIN, NIN, NIN, NIN, NIN, NIN, NIN, T, T, NIN, NIN, NIN, NIN, NIN, NIN,
               NIN, NIN);
  cl_program prog;
  cl_kernel k = test_build_kernel(env, s, "k", NULL, &prog);
  free(s);
  uint16_t a[NIN], b[NIN], c[NIN];
  half_inputs(a, NIN);
  for (int i = 0; i < NIN; i++) {
    b[i] = (uint16_t)(rnd() & 0xbfff); /* finite, |b| < 2 */
    c[i] = half_from_ld((long double)(rnd() % 1025) / 1024, H_RTE); /* [0, 1] */
    if (half_is_nan(a[i]) || (a[i] & 0x7fff) == 0x7c00)
      a[i] = 0x4400; /* clamp/min/max/mix of NaN and Inf are undefined */
  }
  cl_mem A = test_buffer_with(env, sizeof a, a), B = test_buffer_with(env, sizeof b, b),
         C = test_buffer_with(env, sizeof c, c), O = test_buffer_with(env, 15 * NIN * 2, NULL);
  cl_mem args[4] = {A, B, C, O};
  for (int i = 0; i < 4; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
  size_t global = NIN / (size_t)w, local = 8;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  uint16_t o[15 * NIN];
  test_read_back(env, O, sizeof o, o);
  for (int i = 0; i < NIN; i++) {
    long double x = half_to_float(a[i]), y = half_to_float(b[i]), t = half_to_float(c[i]);
    long double ys = half_to_float(b[0]), ts = half_to_float(c[0]);
    long double want[15] = {clampl(x, -1, 2), fminl(x, y), fmaxl(x, y), x * 180 / M_PIl,
                            x * M_PIl / 180, x + (y - x) * t, x < y ? 0 : 1, 0, 0,
                            clampl(x, -1, 2), fminl(x, ys), fmaxl(x, ys), x + (y - x) * ts,
                            x < ys ? 0 : 1, 0};
    long double u = clampl((x + 2) / 5, 0, 1);
    want[7] = want[14] = u * u * (3 - 2 * u);
    want[8] = x > 0 ? 1 : x < 0 ? -1 : x;
    /* exact ones bit for bit; degrees/radians within 2 ulp; mix and
     * smoothstep (implementation-defined) within 2 ulp or 2^-14 absolute */
    static const double tol[15] = {0, 0, 0, 2, 2, 2, 0, 2, 0, 0, 0, 0, 2, 0, 2};
    for (int f = 0; f < 15; f++) {
      uint16_t got = o[f * NIN + i];
      long double g = half_to_float(got);
      uint16_t rw = half_from_ld(want[f], H_RTE);
      int ok;
      if (tol[f] == 0 || (rw & 0x7fff) == 0x7c00)
        ok = f == 1 || f == 2 || f == 10 || f == 11 ? g == half_to_float(rw) /* +-0 */
                                                    : got == rw;
      else
        ok = fabsl(g - want[f]) <= tol[f] * half_ulp(want[f]) ||
             ((f == 5 || f == 7 || f == 12 || f == 14) && fabsl(g - want[f]) <= 0x1p-14L);
      test_checks++;
      if (!ok)
        FAIL("%s common #%d(%La, %La, %La) = %La, want %La\n", T, f, x, y, t, g, want[f]);
    }
  }
  cl_mem all[4] = {A, B, C, O};
  for (int i = 0; i < 4; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* ---- geometric functions, n = 1-4 ---- */

static void test_geometric(struct test_env *env, int n) {
  size_t len = 0, cap = 4096;
  char *s = malloc(cap);
  const char *T = vt("half", n);
  int pad = n == 3 ? 4 : n;
  test_appendf(&s, &len, &cap,
               "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
               "__kernel void k(__global const %s *a, __global const %s *b, __global half *o,\n"
               "  __global %s *on, __global %s *oc) {\n"
               "  size_t i = get_global_id(0);\n"
               "  o[4 * i] = dot(a[i], b[i]);\n  o[4 * i + 1] = length(a[i]);\n"
               "  o[4 * i + 2] = distance(a[i], b[i]);\n  on[i] = normalize(a[i]);\n",
               T, T, T, T);
  if (n >= 3)
    test_appendf(&s, &len, &cap, "  oc[i] = cross(a[i], b[i]);\n");
  test_appendf(&s, &len, &cap, "}\n");
  cl_program prog;
  cl_kernel k = test_build_kernel(env, s, "k", NULL, &prog);
  free(s);
  enum { NV = 64 };
  uint16_t a[NV * 4] = {0}, b[NV * 4] = {0};
  for (int i = 0; i < NV; i++)
    for (int j = 0; j < n; j++) {
      uint64_t r = rnd();
      /* moderate values; some vectors large (their squares overflow half)
       * or tiny (their squares underflow it) */
      int scale = i < 8 ? 14 : i < 16 ? -20 : (int)(r % 9) - 4;
      a[i * pad + j] = half_from_ld(ldexpl((long double)((r >> 8) % 2048) / 2048 *
                                               ((r & 1) ? -1 : 1), scale), H_RTE);
      b[i * pad + j] = half_from_ld(ldexpl((long double)((r >> 24) % 2048) / 2048 *
                                               ((r & 2) ? -1 : 1), scale), H_RTE);
    }
  /* edge cases: an infinite component, a zero vector, the smallest subnormal */
  a[0] = 0x7c00;
  for (int j = 0; j < n; j++) {
    a[1 * pad + j] = 0;
    a[2 * pad + j] = j == 0 ? 0x0001 : 0;
  }
  cl_mem A = test_buffer_with(env, sizeof a, a), B = test_buffer_with(env, sizeof b, b),
         O = test_buffer_with(env, NV * 4 * 2, NULL), ON = test_buffer_with(env, sizeof a, NULL),
         OC = test_buffer_with(env, sizeof a, NULL);
  cl_mem args[5] = {A, B, O, ON, OC};
  for (int i = 0; i < 5; i++)
    CHECK_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
  size_t global = NV, local = 16;
  CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
  uint16_t o[NV * 4], on[NV * 4], oc[NV * 4];
  test_read_back(env, O, sizeof o, o);
  test_read_back(env, ON, sizeof on, on);
  test_read_back(env, OC, sizeof oc, oc);
  for (int i = 0; i < NV; i++) {
    long double x[4] = {0}, y[4] = {0}, dot = 0, ss = 0, dd = 0, mx = 0;
    int inf = 0;
    for (int j = 0; j < n; j++) {
      x[j] = half_to_float(a[i * pad + j]);
      y[j] = half_to_float(b[i * pad + j]);
      dot += x[j] * y[j];
      ss += x[j] * x[j];
      dd += (x[j] - y[j]) * (x[j] - y[j]);
      mx = fmaxl(mx, fmaxl(fabsl(x[j]), fabsl(y[j])));
      inf |= isinf(x[j]);
    }
    long double len = sqrtl(ss), dist = sqrtl(dd);
    long double gdot = half_to_float(o[4 * i]), glen = half_to_float(o[4 * i + 1]),
                gdist = half_to_float(o[4 * i + 2]);
    if (!inf) {
      /* dot: absolute error max * max * (2n - 1) * eps (where finite) */
      long double tol = mx * mx * (2 * n - 1) * 0x1p-10L;
      CHECK(half_from_ld(dot, H_RTE) == 0x7c00 || half_from_ld(dot, H_RTE) == 0xfc00
                ? half_from_ld(gdot, H_RTE) == half_from_ld(dot, H_RTE)
                : fabsl(gdot - dot) <= tol + half_ulp(dot));
      test_checks++;
      if (!(fabsl(glen - len) <= (0.25 + 0.5 * n) * half_ulp(len)))
        FAIL("half%d length = %La, want %La\n", n, glen, len);
      test_checks++;
      if (!(fabsl(gdist - dist) <= 2.0 * n * half_ulp(dist)))
        FAIL("half%d distance = %La, want %La\n", n, gdist, dist);
      for (int j = 0; j < n; j++) {
        long double want = len == 0 ? x[j] : x[j] / len, got = half_to_float(on[i * pad + j]);
        test_checks++;
        if (!(fabsl(got - want) <= (1.0 + n) * half_ulp(want)))
          FAIL("half%d normalize[%d] = %La, want %La (|v| = %La)\n", n, j, got, want, len);
      }
    } else {
      CHECK(half_is_nan(o[4 * i + 1]) == 0 && glen == INFINITY);
      /* normalize of a vector with an infinite component: that direction */
      CHECK(half_to_float(on[i * pad]) == 1.0f);
    }
    if (n >= 3 && !inf) {
      long double c[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                          x[0] * y[1] - x[1] * y[0]};
      for (int j = 0; j < 3; j++) {
        long double got = half_to_float(oc[i * pad + j]);
        uint16_t rw = half_from_ld(c[j], H_RTE);
        test_checks++;
        if ((rw & 0x7fff) == 0x7c00 ? oc[i * pad + j] != rw
                                    : !(fabsl(got - c[j]) <= mx * mx * 3 * 0x1p-10L + half_ulp(c[j])))
          FAIL("half%d cross[%d] = %La, want %La\n", n, j, got, c[j]);
      }
      if (n == 4)
        CHECK(oc[i * pad + 3] == 0);
    }
  }
  /* exact cases: the smallest subnormal has length 2^-24; (3, 4) scaled up
   * has length 5 * 2^14 although its squares overflow half */
  CHECK(o[4 * 2 + 1] == 0x0001);
  CHECK(half_to_float(on[2 * pad]) == 1.0f);
  cl_mem all[5] = {A, B, O, ON, OC};
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

/* a length whose squares overflow half: computed without overflow */
static void test_length_overflow(struct test_env *env) {
  const char *src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                    "__kernel void k(__global half *o) {\n"
                    "  o[0] = length((half2)(24576.0h, 32768.0h));\n"
                    "  o[1] = distance((half4)(-30000.0h, 0, 0, 0), (half4)(30000.0h, 0, 0, 0));\n"
                    "  half3 n = normalize((half3)(60000.0h, 0, 60000.0h));\n"
                    "  o[2] = n.x; o[3] = n.z;\n"
                    "  o[4] = dot((half2)(200.0h, 300.0h), (half2)(300.0h, -200.0h));\n}\n";
  cl_kernel k = test_kernel_from(env, src, "k", NULL);
  if (!k)
    return;
  cl_mem O = test_buffer_with(env, 16, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof O, &O));
  size_t one = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &one, &one));
  uint16_t o[5];
  test_read_back(env, O, sizeof o, o);
  CHECK(half_to_float(o[0]) == 40960.0f);
  CHECK(half_to_float(o[1]) == 60000.0f); /* (-30000 - 30000)^2 overflows half */
  CHECK(fabsf(half_to_float(o[2]) - 0.70710678f) < 0x1p-10f && o[2] == o[3]);
  CHECK(o[4] == 0); /* 60000 - 60000 exactly, no intermediate overflow */
  clReleaseMemObject(O);
  clReleaseKernel(k);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  static const int widths[] = {1, 3, 16};
  for (int i = 0; i < 3; i++) {
    test_conversions(&env, widths[i]);
    test_relational(&env, widths[i]);
    test_common(&env, widths[i]);
  }
  test_misc(&env);
  for (int n = 1; n <= 4; n++)
    test_geometric(&env, n);
  test_length_overflow(&env);
  test_env_release(&env);
  return test_finish("test_builtins_half_families");
}
