/* The relational builtins (OpenCL C 2.0, 1.13.6): the comparisons and
 * classifications of float and double on every pair of special values
 * (+-0, +-1, denormals, FLT_MIN/DBL_MIN, the maxima, +-Inf, quiet and
 * signalling NaNs of both signs) at widths 1, 3 and 16, checking the 1 of
 * scalars and the -1 of vectors and the result types (int for scalars, intn
 * for floatn, longn for doublen); any and all of every signed type and
 * width; bitselect and select of every type with signed and unsigned
 * selectors (scalar select tests truth, vector select the top bit). */
#include "harness.h"
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>

static const int widths[] = {1, 3, 16};
#define NWIDTHS 3

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

static void type_name(char *buf, size_t n, const char *scalar, int w) {
  if (w == 1)
    snprintf(buf, n, "%s", scalar);
  else
    snprintf(buf, n, "%s%d", scalar, w);
}

/* runs kernel `name` of p over `items` work-items with the buffers as
 * arguments */
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

static cl_mem buffer(struct test_env *env, size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                            size, (void *)data, &err);
  CHECK_OK(err);
  return m;
}

/* ---------- comparisons and classification ---------- */

#define NSPEC 20
#define NCASE 432 /* NSPEC^2 pairs + random; a multiple of 48 */
#define NREL 14
static const char *const rel_names[NREL] = {
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
    "islessgreater", "isordered", "isunordered", "isfinite", "isinf", "isnan",
    "isnormal", "signbit"};

static int rel_ref(int f, double x, double y, int dbl) {
  switch (f) {
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
  case 12: return dbl ? isnormal(x) : isnormal((float)x); /* float denormals */
  case 13: return signbit(x) != 0;
  }
  return 0;
}

static char *rel_source(const char *ft, const char *it) {
  size_t len = 0, cap = 4096;
  char *s = malloc(cap);
  s[0] = 0;
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  for (int wi = 0; wi < NWIDTHS; wi++) {
    int w = widths[wi];
    char vf[16], rt[16], st[16];
    type_name(vf, sizeof vf, ft, w);
    /* the declared result type: a mismatch does not compile */
    type_name(rt, sizeof rt, w == 1 ? "int" : it, w);
    snprintf(st, sizeof st, "%s", w == 1 ? "int" : it);
    test_appendf(&s, &len, &cap,
           "kernel void k%d(global const %s *a, global const %s *b, global int *o) {\n"
           "  int i = get_global_id(0);\n"
           "  %s x, y;\n"
           "  for (int k = 0; k < %d; k++) {\n"
           "    ((%s *)&x)[k] = a[%d * i + k];\n"
           "    ((%s *)&y)[k] = b[%d * i + k];\n"
           "  }\n"
           "  %s r[%d];\n"
           "  r[0] = isequal(x, y); r[1] = isnotequal(x, y); r[2] = isgreater(x, y);\n"
           "  r[3] = isgreaterequal(x, y); r[4] = isless(x, y); r[5] = islessequal(x, y);\n"
           "  r[6] = islessgreater(x, y); r[7] = isordered(x, y); r[8] = isunordered(x, y);\n"
           "  r[9] = isfinite(x); r[10] = isinf(x); r[11] = isnan(x); r[12] = isnormal(x);\n"
           "  r[13] = signbit(x);\n"
           "  for (int f = 0; f < %d; f++)\n"
           "    for (int k = 0; k < %d; k++)\n"
           "      o[f * %d + %d * i + k] = (int)((%s *)&r[f])[k];\n"
           "}\n",
           w, ft, ft, vf, w, ft, w, ft, w, rt, NREL, NREL, w, NCASE, w, st);
  }
  return s;
}

static void test_rel(struct test_env *env, int dbl) {
  static const uint32_t fspec[NSPEC] = {
      0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0xc0200000, 0x00800000,
      0x80800000, 0x00000001, 0x80000001, 0x007fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000,
      0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, 0x3f800001};
  static const uint64_t dspec[NSPEC] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
      0xbff0000000000000ull, 0x3ff8000000000000ull, 0xc004000000000000ull,
      0x0010000000000000ull, 0x8010000000000000ull, 0x0000000000000001ull,
      0x8000000000000001ull, 0x000fffffffffffffull, 0x7fefffffffffffffull,
      0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
      0x7fffffffffffffffull, 0x3ff0000000000001ull};
  int size = dbl ? 8 : 4;
  uint64_t a[NCASE], b[NCASE];
  for (int i = 0; i < NCASE; i++) {
    if (i < NSPEC * NSPEC) {
      a[i] = dbl ? dspec[i / NSPEC] : fspec[i / NSPEC];
      b[i] = dbl ? dspec[i % NSPEC] : fspec[i % NSPEC];
    } else { /* random finite values, sometimes equal */
      double x = (double)(int64_t)(rnd() % 2001) / 8 - 125, y = i & 1 ? x : (double)(int64_t)(rnd() % 2001) / 8 - 125;
      if (dbl) {
        memcpy(&a[i], &x, 8);
        memcpy(&b[i], &y, 8);
      } else {
        float fx = (float)x, fy = (float)y;
        uint32_t ux, uy;
        memcpy(&ux, &fx, 4);
        memcpy(&uy, &fy, 4);
        a[i] = ux;
        b[i] = uy;
      }
    }
  }
  char *ha = malloc((size_t)NCASE * size), *hb = malloc((size_t)NCASE * size);
  for (int i = 0; i < NCASE; i++) {
    memcpy(ha + (size_t)i * size, &a[i], (size_t)size);
    memcpy(hb + (size_t)i * size, &b[i], (size_t)size);
  }
  char *src = rel_source(dbl ? "double" : "float", dbl ? "long" : "int");
  cl_program p = test_program_from(env, src, NULL);
  if (p) {
    cl_mem bufs[3] = {buffer(env, (size_t)NCASE * size, ha), buffer(env, (size_t)NCASE * size, hb),
                      buffer(env, (size_t)NREL * NCASE * sizeof(int), NULL)};
    int *o = malloc((size_t)NREL * NCASE * sizeof(int));
    for (int wi = 0; wi < NWIDTHS; wi++) {
      int w = widths[wi], bad = 0;
      char name[8];
      snprintf(name, sizeof name, "k%d", w);
      run(env, p, name, NCASE / w, 3, bufs);
      CHECK_OK(clEnqueueReadBuffer(env->queue, bufs[2], CL_TRUE, 0,
                                   (size_t)NREL * NCASE * sizeof(int), o, 0, NULL, NULL));
      for (int f = 0; f < NREL; f++)
        for (int i = 0; i < NCASE; i++) {
          double x, y;
          if (dbl) {
            memcpy(&x, &a[i], 8);
            memcpy(&y, &b[i], 8);
          } else {
            float fx, fy;
            uint32_t ux = (uint32_t)a[i], uy = (uint32_t)b[i];
            memcpy(&fx, &ux, 4);
            memcpy(&fy, &uy, 4);
            x = fx;
            y = fy;
          }
          int want = rel_ref(f, x, y, dbl) ? (w == 1 ? 1 : -1) : 0;
          int got = o[f * NCASE + i];
          test_checks++;
          if (got != want) {
            test_failures++;
            if (bad++ < 10)
              fprintf(stderr, "%s%d %s(0x%llx, 0x%llx) = %d, expected %d\n",
                      dbl ? "double" : "float", w, rel_names[f], (unsigned long long)a[i],
                      (unsigned long long)b[i], got, want);
          }
        }
    }
    free(o);
    for (int i = 0; i < 3; i++)
      clReleaseMemObject(bufs[i]);
    clReleaseProgram(p);
  }
  free(src);
  free(ha);
  free(hb);
}

/* ---------- any, all ---------- */

#define NVEC 64
static void test_any_all(struct test_env *env) {
  static const char *const names[4] = {"char", "short", "int", "long"};
  static const int all_widths[6] = {1, 2, 3, 4, 8, 16};
  size_t len = 0, cap = 4096;
  char *s = malloc(cap);
  s[0] = 0;
  for (int t = 0; t < 4; t++)
    for (int wi = 0; wi < 6; wi++) {
      int w = all_widths[wi];
      char vt[16];
      type_name(vt, sizeof vt, names[t], w);
      test_appendf(&s, &len, &cap,
             "kernel void aa_%s%d(global const %s *a, global int *o) {\n"
             "  int i = get_global_id(0);\n"
             "  %s x;\n"
             "  for (int k = 0; k < %d; k++) ((%s *)&x)[k] = a[%d * i + k];\n"
             "  o[2 * i] = any(x);\n"
             "  o[2 * i + 1] = all(x);\n"
             "}\n",
             names[t], w, names[t], vt, w, names[t], w);
    }
  cl_program p = test_program_from(env, s, NULL);
  free(s);
  if (!p)
    return;
  for (int t = 0; t < 4; t++) {
    int size = 1 << t;
    for (int wi = 0; wi < 6; wi++) {
      int w = all_widths[wi], bad = 0;
      /* per vector: no, one, some or every component negative */
      size_t n = (size_t)NVEC * w;
      uint64_t *v = malloc(n * sizeof *v);
      char *raw = malloc(n * size);
      for (int i = 0; i < NVEC; i++) {
        int mode = i % 4, one = (int)(rnd() % (uint64_t)w);
        for (int k = 0; k < w; k++) {
          uint64_t r = rnd() >> 1 >> (64 - 8 * size); /* top bit clear */
          int neg = mode == 3 || (mode == 1 && k == one) || (mode == 2 && (rnd() & 1));
          if (neg)
            r |= 1ull << (8 * size - 1);
          v[(size_t)i * w + k] = r;
          memcpy(raw + ((size_t)i * w + k) * size, &r, (size_t)size);
        }
      }
      cl_mem bufs[2] = {buffer(env, n * size, raw), buffer(env, 2 * NVEC * sizeof(int), NULL)};
      char name[16];
      snprintf(name, sizeof name, "aa_%s%d", names[t], w);
      run(env, p, name, NVEC, 2, bufs);
      int o[2 * NVEC];
      CHECK_OK(clEnqueueReadBuffer(env->queue, bufs[1], CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
      for (int i = 0; i < NVEC; i++) {
        int any = 0, all = 1;
        for (int k = 0; k < w; k++) {
          int msb = (int)(v[(size_t)i * w + k] >> (8 * size - 1)) & 1;
          any |= msb;
          all &= msb;
        }
        test_checks += 2;
        if (o[2 * i] != any || o[2 * i + 1] != all) {
          test_failures++;
          if (bad++ < 5)
            fprintf(stderr, "%s%d vector %d: any %d all %d, expected %d %d\n", names[t], w, i,
                    o[2 * i], o[2 * i + 1], any, all);
        }
      }
      clReleaseMemObject(bufs[0]);
      clReleaseMemObject(bufs[1]);
      free(v);
      free(raw);
    }
  }
  clReleaseProgram(p);
}

/* ---------- bitselect, select ---------- */

#define NSEL 240 /* a multiple of 48 */
struct stype {
  const char *name, *sname, *uname; /* the type and its selectors */
  int size;
};
static const struct stype stypes[] = {
    {"char", "char", "uchar", 1},   {"uchar", "char", "uchar", 1},  {"short", "short", "ushort", 2},
    {"ushort", "short", "ushort", 2}, {"int", "int", "uint", 4},    {"uint", "int", "uint", 4},
    {"long", "long", "ulong", 8},   {"ulong", "long", "ulong", 8},  {"float", "int", "uint", 4},
    {"double", "long", "ulong", 8},
};

static void test_select(struct test_env *env, const struct stype *t) {
  size_t len = 0, cap = 4096;
  char *s = malloc(cap);
  s[0] = 0;
  test_appendf(&s, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  for (int wi = 0; wi < NWIDTHS; wi++) {
    int w = widths[wi];
    char vt[16], vs[16], vu[16];
    type_name(vt, sizeof vt, t->name, w);
    type_name(vs, sizeof vs, t->sname, w);
    type_name(vu, sizeof vu, t->uname, w);
    test_appendf(&s, &len, &cap,
           "kernel void k%d(global const %s *a, global const %s *b, global const %s *c,\n"
           "                global %s *o) {\n"
           "  int i = get_global_id(0);\n"
           "  %s x, y, r[3];\n"
           "  %s z;\n"
           "  for (int k = 0; k < %d; k++) {\n"
           "    ((%s *)&x)[k] = a[%d * i + k];\n"
           "    ((%s *)&y)[k] = b[%d * i + k];\n"
           "    ((%s *)&z)[k] = c[%d * i + k];\n"
           "  }\n"
           "  r[0] = bitselect(x, y, as_%s(z));\n"
           "  r[1] = select(x, y, z);\n"
           "  r[2] = select(x, y, as_%s(z));\n"
           "  for (int f = 0; f < 3; f++)\n"
           "    for (int k = 0; k < %d; k++)\n"
           "      o[f * %d + %d * i + k] = ((%s *)&r[f])[k];\n"
           "}\n",
           w, t->name, t->name, t->sname, t->name, vt, vs, w, t->name, w, t->name, w, t->sname, w,
           vt, vu, w, NSEL, w, t->name);
  }
  cl_program p = test_program_from(env, s, NULL);
  free(s);
  if (!p)
    return;
  int size = t->size, bits = 8 * size;
  uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
  uint64_t a[NSEL], b[NSEL], c[NSEL];
  const uint64_t cspec[8] = {0, 1, m, 1ull << (bits - 1), m >> 1, (1ull << (bits - 1)) | 1, 2, 0};
  char *ha = malloc(NSEL * (size_t)size), *hb = malloc(NSEL * (size_t)size),
       *hc = malloc(NSEL * (size_t)size), *o = malloc(3 * NSEL * (size_t)size);
  for (int i = 0; i < NSEL; i++) {
    a[i] = rnd() & m;
    b[i] = rnd() & m;
    c[i] = i % 2 ? cspec[(i / 2) % 8] : rnd() & m;
    memcpy(ha + (size_t)i * size, &a[i], (size_t)size);
    memcpy(hb + (size_t)i * size, &b[i], (size_t)size);
    memcpy(hc + (size_t)i * size, &c[i], (size_t)size);
  }
  cl_mem bufs[4] = {buffer(env, NSEL * (size_t)size, ha), buffer(env, NSEL * (size_t)size, hb),
                    buffer(env, NSEL * (size_t)size, hc), buffer(env, 3 * NSEL * (size_t)size, NULL)};
  for (int wi = 0; wi < NWIDTHS; wi++) {
    int w = widths[wi], bad = 0;
    char name[8];
    snprintf(name, sizeof name, "k%d", w);
    run(env, p, name, NSEL / w, 4, bufs);
    CHECK_OK(clEnqueueReadBuffer(env->queue, bufs[3], CL_TRUE, 0, 3 * NSEL * (size_t)size, o, 0,
                                 NULL, NULL));
    for (int f = 0; f < 3; f++)
      for (int i = 0; i < NSEL; i++) {
        uint64_t want, got = 0;
        int pick = w == 1 ? c[i] != 0 : (int)(c[i] >> (bits - 1));
        want = f == 0 ? (a[i] & ~c[i]) | (b[i] & c[i]) : pick ? b[i] : a[i];
        memcpy(&got, o + ((size_t)f * NSEL + i) * size, (size_t)size);
        test_checks++;
        if (got != want) {
          test_failures++;
          if (bad++ < 10)
            fprintf(stderr, "%s%d %s(0x%llx, 0x%llx, 0x%llx) = 0x%llx, expected 0x%llx\n",
                    t->name, w, f == 0 ? "bitselect" : f == 1 ? "select(signed)" : "select(unsigned)",
                    (unsigned long long)a[i], (unsigned long long)b[i], (unsigned long long)c[i],
                    (unsigned long long)got, (unsigned long long)want);
        }
      }
  }
  for (int i = 0; i < 4; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseProgram(p);
  free(ha);
  free(hb);
  free(hc);
  free(o);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_rel(&env, 0);
  test_rel(&env, 1);
  test_any_all(&env);
  for (size_t i = 0; i < sizeof stypes / sizeof *stypes; i++)
    test_select(&env, &stypes[i]);
  test_env_release(&env);
  return test_finish("test_builtins_relational");
}
