/* The integer builtins (OpenCL C 2.0, 1.13.3): abs_diff, add_sat, sub_sat,
 * hadd, rhadd, clz, ctz, popcount, mul_hi, mad_hi, mad_sat, rotate and
 * upsample, for every integer type at widths 1, 3 and 16, on every pair of
 * boundary values (0, +-1, MIN, MAX, their neighbours, bit patterns) plus
 * random ones, compared bit for bit with references computed here with
 * 128-bit arithmetic. */
#include "harness.h"
#include <stdarg.h>
#include <stdint.h>

#define NSPEC 16
#define NCASE 528 /* NSPEC^2 pairs + random cases; a multiple of 48 */
#define NFN 13

struct itype {
  const char *name, *uname, *wide; /* wide: upsample's result, NULL if none */
  int bits, sgn;
};
static const struct itype types[] = {
    {"char", "uchar", "short", 8, 1},    {"uchar", "uchar", "ushort", 8, 0},
    {"short", "ushort", "int", 16, 1},   {"ushort", "ushort", "uint", 16, 0},
    {"int", "uint", "long", 32, 1},      {"uint", "uint", "ulong", 32, 0},
    {"long", "ulong", NULL, 64, 1},      {"ulong", "ulong", NULL, 64, 0},
};
static const char *const fn_names[NFN] = {"abs_diff", "add_sat", "sub_sat", "hadd",
                                          "rhadd",    "clz",     "ctz",     "popcount",
                                          "mul_hi",   "mad_hi",  "mad_sat", "rotate",
                                          "mad_hi(c)"};
static const int widths[] = {1, 3, 16};

typedef __int128 i128;
typedef unsigned __int128 u128;

static uint64_t mask_of(const struct itype *t) {
  return t->bits == 64 ? ~0ull : (1ull << t->bits) - 1;
}
/* the value of raw bits in type t */
static i128 val(const struct itype *t, uint64_t raw) {
  raw &= mask_of(t);
  if (t->sgn && t->bits < 64 && (raw >> (t->bits - 1)))
    return (i128)raw - ((i128)1 << t->bits);
  if (t->sgn && t->bits == 64)
    return (i128)(int64_t)raw;
  return (i128)raw;
}
static uint64_t bits_of(const struct itype *t, i128 v) { return (uint64_t)v & mask_of(t); }
static i128 tmin(const struct itype *t) { return t->sgn ? -((i128)1 << (t->bits - 1)) : 0; }
static i128 tmax(const struct itype *t) {
  return t->sgn ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1;
}
static uint64_t sat(const struct itype *t, i128 v) {
  return bits_of(t, v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v);
}
/* floor(v / 2^s) for a signed 128-bit value */
static i128 floor_shift(i128 v, int s) {
  i128 d = (i128)1 << s;
  i128 q = v / d;
  return (v % d != 0 && v < 0) ? q - 1 : q;
}
static i128 mul_hi_ref(const struct itype *t, uint64_t a, uint64_t b) {
  if (t->bits == 64 && !t->sgn)
    return (i128)(((u128)a * (u128)b) >> 64);
  return floor_shift(val(t, a) * val(t, b), t->bits);
}

static uint64_t ref(const struct itype *t, int fn, uint64_t a, uint64_t b, uint64_t c) {
  i128 x = val(t, a), y = val(t, b), z = val(t, c);
  uint64_t ua = a & mask_of(t);
  int n = 0;
  switch (fn) {
  case 0: return bits_of(t, x > y ? x - y : y - x);
  case 1: return sat(t, x + y);
  case 2: return sat(t, x - y);
  case 3: return bits_of(t, floor_shift(x + y, 1));
  case 4: return bits_of(t, floor_shift(x + y + 1, 1));
  case 5:
    for (int i = t->bits - 1; i >= 0 && !((ua >> i) & 1); i--)
      n++;
    return (uint64_t)n;
  case 6:
    for (int i = 0; i < t->bits && !((ua >> i) & 1); i++)
      n++;
    return (uint64_t)n;
  case 7:
    for (int i = 0; i < t->bits; i++)
      n += (ua >> i) & 1;
    return (uint64_t)n;
  case 8: return bits_of(t, mul_hi_ref(t, a, b));
  case 9: return bits_of(t, mul_hi_ref(t, a, b) + z);
  case 10:
    if (t->bits == 64 && !t->sgn) {
      u128 p = (u128)a * (u128)b + (u128)c;
      return p > (u128)UINT64_MAX ? UINT64_MAX : (uint64_t)p;
    }
    return sat(t, x * y + z);
  case 11: {
    int s = (int)((b & mask_of(t)) % (uint64_t)t->bits);
    return s ? bits_of(t, (i128)((ua << s) | (ua >> (t->bits - s)))) : ua;
  }
  case 12: return bits_of(t, mul_hi_ref(t, a, b) + z); /* mad_hi again, c = a */
  }
  return 0;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

static void make_cases(const struct itype *t, uint64_t *a, uint64_t *b, uint64_t *c) {
  uint64_t m = mask_of(t), mn = bits_of(t, tmin(t)), mx = bits_of(t, tmax(t));
  uint64_t spec[NSPEC] = {0, 1, m, mn, mx, mn + 1, (mx - 1) & m, 2,
                          0x5555555555555555ull & m, 0xAAAAAAAAAAAAAAAAull & m,
                          (m >> 1) >> (t->bits / 2), 3, m - 1, 7 & m,
                          (1ull << (t->bits / 2)) & m, 0x8000000000000001ull & m};
  for (int i = 0; i < NCASE; i++) {
    if (i < NSPEC * NSPEC) {
      a[i] = spec[i / NSPEC];
      b[i] = spec[i % NSPEC];
      c[i] = spec[(i * 7 + 3) % NSPEC];
    } else {
      uint64_t r = rnd();
      /* full-range values, and small ones that exercise other paths */
      a[i] = (i & 1 ? r : r % 200) & m;
      b[i] = (i & 2 ? rnd() : rnd() % 70) & m;
      c[i] = (i & 4 ? rnd() : (uint64_t)(int64_t)(int)(rnd() % 9) - 4) & m;
    }
  }
}

/* one kernel per width: loads W components of a, b, c per work-item, applies
 * every function, stores the results function by function */
static char *kernel_source(const struct itype *t) {
  size_t len = 0, cap = 4096;
  char *s = malloc(cap);
  s[0] = 0;
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
    int w = widths[wi];
    char vt[16], vu[16], vw[16];
    if (w == 1) {
      snprintf(vt, sizeof vt, "%s", t->name);
      snprintf(vu, sizeof vu, "%s", t->uname);
      snprintf(vw, sizeof vw, "%s", t->wide ? t->wide : "");
    } else {
      snprintf(vt, sizeof vt, "%s%d", t->name, w);
      snprintf(vu, sizeof vu, "%s%d", t->uname, w);
      snprintf(vw, sizeof vw, "%s%d", t->wide ? t->wide : "", w);
    }
    test_appendf(&s, &len, &cap,
           "kernel void k%d(global const %s *a, global const %s *b, global const %s *c,\n"
           "                global %s *o, global %s *up) {\n"
           "  int i = get_global_id(0);\n"
           "  %s x, y, z, r[%d];\n"
           "  for (int k = 0; k < %d; k++) {\n"
           "    ((%s *)&x)[k] = a[%d * i + k];\n"
           "    ((%s *)&y)[k] = b[%d * i + k];\n"
           "    ((%s *)&z)[k] = c[%d * i + k];\n"
           "  }\n"
           "  r[0] = as_%s(abs_diff(x, y));\n"
           "  r[1] = add_sat(x, y);\n"
           "  r[2] = sub_sat(x, y);\n"
           "  r[3] = hadd(x, y);\n"
           "  r[4] = rhadd(x, y);\n"
           "  r[5] = clz(x);\n"
           "  r[6] = ctz(x);\n"
           "  r[7] = popcount(x);\n"
           "  r[8] = mul_hi(x, y);\n"
           "  r[9] = mad_hi(x, y, z);\n"
           "  r[10] = mad_sat(x, y, z);\n"
           "  r[11] = rotate(x, y);\n"
           "  r[12] = mad_hi(x, y, x);\n"
           "  for (int f = 0; f < %d; f++)\n"
           "    for (int k = 0; k < %d; k++)\n"
           "      o[f * %d + %d * i + k] = ((%s *)&r[f])[k];\n",
           w, t->name, t->name, t->name, t->name, t->wide ? t->wide : t->name, vt, NFN, w,
           t->name, w, t->name, w, t->name, w, vt, NFN, w, NCASE, w, t->name);
    if (t->wide)
      test_appendf(&s, &len, &cap,
             "  %s u = upsample(x, as_%s(y));\n"
             "  for (int k = 0; k < %d; k++)\n"
             "    up[%d * i + k] = ((%s *)&u)[k];\n",
             vw, vu, w, w, t->wide);
    test_appendf(&s, &len, &cap, "}\n");
  }
  return s;
}

static void store(void *base, int size, int i, uint64_t v) {
  memcpy((char *)base + (size_t)i * size, &v, (size_t)size); /* little endian */
}
static uint64_t load(const void *base, int size, int i) {
  uint64_t v = 0;
  memcpy(&v, (const char *)base + (size_t)i * size, (size_t)size);
  return v;
}

static void test_type(struct test_env *env, const struct itype *t) {
  int size = t->bits / 8, wsize = 2 * size;
  uint64_t a[NCASE], b[NCASE], c[NCASE];
  make_cases(t, a, b, c);
  char *in[3];
  for (int k = 0; k < 3; k++)
    in[k] = malloc((size_t)NCASE * size);
  for (int i = 0; i < NCASE; i++) {
    store(in[0], size, i, a[i]);
    store(in[1], size, i, b[i]);
    store(in[2], size, i, c[i]);
  }
  char *src = kernel_source(t);
  cl_int err;
  const char *csrc = src;
  cl_program p = clCreateProgramWithSource(env->context, 1, &csrc, NULL, &err);
  CHECK_OK(err);
  err = clBuildProgram(p, 1, &env->device, "-cl-std=CL3.0", NULL, NULL); /* ctz is 2.0 */
  CHECK_OK(err);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s: build log:\n%s\n", t->name, log);
    goto out;
  }
  cl_mem ma = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, (size_t)NCASE * size, in[0], &err);
  cl_mem mb = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, (size_t)NCASE * size, in[1], &err);
  cl_mem mc = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, (size_t)NCASE * size, in[2], &err);
  cl_mem mo = clCreateBuffer(env->context, CL_MEM_READ_WRITE, (size_t)NFN * NCASE * size, NULL, &err);
  cl_mem mu = clCreateBuffer(env->context, CL_MEM_READ_WRITE, (size_t)NCASE * wsize, NULL, &err);
  char *o = malloc((size_t)NFN * NCASE * size), *u = malloc((size_t)NCASE * wsize);
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
    int w = widths[wi];
    char name[8];
    snprintf(name, sizeof name, "k%d", w);
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_OK(err);
    clSetKernelArg(k, 0, sizeof ma, &ma);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mc, &mc);
    clSetKernelArg(k, 3, sizeof mo, &mo);
    clSetKernelArg(k, 4, sizeof mu, &mu);
    size_t global = NCASE / w;
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(env->queue, mo, CL_TRUE, 0, (size_t)NFN * NCASE * size, o, 0, NULL, NULL));
    CHECK_OK(clEnqueueReadBuffer(env->queue, mu, CL_TRUE, 0, (size_t)NCASE * wsize, u, 0, NULL, NULL));
    int bad = 0;
    for (int f = 0; f < NFN; f++)
      for (int i = 0; i < NCASE; i++) {
        uint64_t want = ref(t, f, a[i], b[i], f == 12 ? a[i] : c[i]);
        uint64_t got = load(o, size, f * NCASE + i);
        test_checks++;
        if (got != want) {
          test_failures++;
          if (bad++ < 10)
            fprintf(stderr, "%s%d %s(0x%llx, 0x%llx, 0x%llx) = 0x%llx, expected 0x%llx\n",
                    t->name, w, fn_names[f], (unsigned long long)a[i], (unsigned long long)b[i],
                    (unsigned long long)c[i], (unsigned long long)got, (unsigned long long)want);
        }
      }
    if (t->wide)
      for (int i = 0; i < NCASE; i++) {
        uint64_t want = (a[i] << t->bits | b[i]) & (wsize == 8 ? ~0ull : (1ull << (8 * wsize)) - 1);
        uint64_t got = load(u, wsize, i);
        test_checks++;
        if (got != want) {
          test_failures++;
          if (bad++ < 10)
            fprintf(stderr, "%s%d upsample(0x%llx, 0x%llx) = 0x%llx, expected 0x%llx\n", t->name,
                    w, (unsigned long long)a[i], (unsigned long long)b[i],
                    (unsigned long long)got, (unsigned long long)want);
        }
      }
    clReleaseKernel(k);
  }
  free(o);
  free(u);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mc);
  clReleaseMemObject(mo);
  clReleaseMemObject(mu);
out:
  clReleaseProgram(p);
  free(src);
  for (int k = 0; k < 3; k++)
    free(in[k]);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    test_type(&env, &types[i]);
  test_env_release(&env);
  return test_finish("test_builtins_integer");
}
