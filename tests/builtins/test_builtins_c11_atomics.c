/* OpenCL C 2.0 atomics (C11 style, OpenCL C 1.13.11) with -cl-std=CL3.0:
 * every fetch-and-modify operation, both compare-exchanges, exchange, load,
 * store and init on int, uint, long and ulong in __global memory shared by
 * many work-groups, in __local memory, and through generic pointers; the
 * flag functions; float and double load/store/exchange/compare-exchange;
 * the size_t/uintptr_t/intptr_t/ptrdiff_t forms; fences of every order and
 * scope; program-scope atomics. Results are checked against host
 * references, including the old values the operations return. OpenCL C 1.2
 * programs must not see any of it, and misuse must fail to build. */
#include "harness.h"
#include <math.h>
#include <stdint.h>

#define ITEMS 4096
#define LOCAL 64
#define GROUPS (ITEMS / LOCAL)
#define NC 10 /* counters per kernel */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

/* Counter k of every kernel, and the form of the operation applied to it:
 *  0 fetch_add 1 (plain)          1 fetch_add v (explicit, relaxed)
 *  2 fetch_sub v (acq_rel, scope)  3 fetch_or m (release, scope)
 *  4 fetch_xor v (seq_cst, scope)  5 fetch_and ~m (acquire, scope)
 *  6 fetch_min v (plain)           7 fetch_max v (explicit, relaxed)
 *  8 compare_exchange_weak loop adding v (explicit orders)
 *  9 compare_exchange_strong loop adding 2 (plain)
 * plus an exchange chain on a separate object whose old values are kept.
 * SCOPE is memory_scope_device for global memory and memory_scope_work_group
 * for local memory; the ops take generic pointers, so the same function
 * serves both. */
static const char *counters_src =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    /* wrapping addition: signed overflow is undefined in OpenCL C */
    "#define ADD(T, a, b) ((T)((ulong)(a) + (ulong)(b)))\n"
    "#define OPS(T) \\\n"
    "void ops_##T(volatile atomic_##T *c, volatile atomic_##T *x, T v, T m, memory_scope s, \\\n"
    "             global T *o_add, global T *o_xchg, size_t i) { \\\n"
    "  o_add[i] = atomic_fetch_add(&c[0], (T)1); \\\n"
    "  atomic_fetch_add_explicit(&c[1], v, memory_order_relaxed); \\\n"
    "  atomic_fetch_sub_explicit(&c[2], v, memory_order_acq_rel, s); \\\n"
    "  atomic_fetch_or_explicit(&c[3], m, memory_order_release, s); \\\n"
    "  atomic_fetch_xor_explicit(&c[4], v, memory_order_seq_cst, s); \\\n"
    "  atomic_fetch_and_explicit(&c[5], ~m, memory_order_acquire, s); \\\n"
    "  atomic_fetch_min(&c[6], v); \\\n"
    "  atomic_fetch_max_explicit(&c[7], v, memory_order_relaxed); \\\n"
    "  T e = atomic_load_explicit(&c[8], memory_order_relaxed, s); \\\n"
    "  while (!atomic_compare_exchange_weak_explicit(&c[8], &e, ADD(T, e, v), memory_order_acq_rel, \\\n"
    "                                                memory_order_relaxed, s)) {} \\\n"
    "  e = atomic_load(&c[9]); \\\n"
    "  while (!atomic_compare_exchange_strong(&c[9], &e, ADD(T, e, 2))) {} \\\n"
    "  o_xchg[i] = atomic_exchange_explicit(x, v, memory_order_acq_rel, s); \\\n"
    "} \\\n"
    "kernel void g_##T(volatile global atomic_##T *c, volatile global atomic_##T *x, \\\n"
    "                  global const T *vals, global const T *masks, \\\n"
    "                  global T *o_add, global T *o_xchg) { \\\n"
    "  size_t i = get_global_id(0); \\\n"
    "  ops_##T(c, x, vals[i], masks[i], memory_scope_device, o_add, o_xchg, i); \\\n"
    "} \\\n"
    "kernel void l_##T(global const T *init, global const T *vals, global const T *masks, \\\n"
    "                  global T *o_add, global T *o_xchg, global T *res) { \\\n"
    "  local atomic_##T c[11]; \\\n"
    "  size_t i = get_global_id(0), lid = get_local_id(0); \\\n"
    "  if (lid == 0) \\\n"
    "    for (int k = 0; k < 11; k++) atomic_init(&c[k], init[k]); \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  ops_##T(c, &c[10], vals[i], masks[i], memory_scope_work_group, o_add, o_xchg, i); \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  if (lid < 11) \\\n"
    "    res[get_group_id(0) * 11 + lid] = \\\n"
    "        atomic_load_explicit(&c[lid], memory_order_relaxed, memory_scope_work_group); \\\n"
    "}\n"
    "OPS(int) OPS(uint) OPS(long) OPS(ulong)\n";

struct itype {
  const char *name;
  int bits, is_signed;
};

static uint64_t trunc_to(const struct itype *t, uint64_t v) {
  return t->bits == 64 ? v : (v & 0xffffffffull);
}
static int64_t as_signed(const struct itype *t, uint64_t v) {
  return t->bits == 64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}
static int less(const struct itype *t, uint64_t a, uint64_t b) {
  return t->is_signed ? as_signed(t, a) < as_signed(t, b) : a < b;
}
static void pack(const struct itype *t, const uint64_t *v, size_t n, void *out) {
  for (size_t i = 0; i < n; i++) {
    if (t->bits == 64) {
      memcpy((char *)out + i * 8, &v[i], 8);
    } else {
      uint32_t x = (uint32_t)v[i];
      memcpy((char *)out + i * 4, &x, 4);
    }
  }
}
static void unpack(const struct itype *t, const void *in, size_t n, uint64_t *v) {
  for (size_t i = 0; i < n; i++) {
    if (t->bits == 64) {
      memcpy(&v[i], (const char *)in + i * 8, 8);
    } else {
      uint32_t x;
      memcpy(&x, (const char *)in + i * 4, 4);
      v[i] = x;
    }
  }
}

/* the expected counters after items [first, first+n) applied their ops */
static void reference(const struct itype *t, const uint64_t *init, const uint64_t *vals,
                      const uint64_t *masks, size_t first, size_t n, uint64_t *want) {
  for (int k = 0; k < NC; k++)
    want[k] = init[k];
  for (size_t i = first; i < first + n; i++) {
    uint64_t v = vals[i], m = masks[i];
    want[0] += 1;
    want[1] += v;
    want[2] -= v;
    want[3] |= m;
    want[4] ^= v;
    want[5] &= ~m;
    if (less(t, v, want[6]))
      want[6] = v;
    if (less(t, want[7], v))
      want[7] = v;
    want[8] += v;
    want[9] += 2;
  }
  for (int k = 0; k < NC; k++)
    want[k] = trunc_to(t, want[k]);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* the old values of fetch_add(1) over items [first, first+n) are exactly
 * start .. start+n-1; the exchange chain returns every value but the one
 * left in the object, and the initial value once */
static int check_olds(const struct itype *t, const uint64_t *o_add, const uint64_t *o_xchg,
                      const uint64_t *vals, size_t first, size_t n, uint64_t add_start,
                      uint64_t xchg_init, uint64_t xchg_final) {
  int bad = 0;
  uint64_t *s = malloc((n + 1) * sizeof *s), *w = malloc((n + 1) * sizeof *w);
  for (size_t i = 0; i < n; i++)
    s[i] = o_add[first + i];
  qsort(s, n, sizeof *s, cmp_u64);
  for (size_t i = 0; i < n; i++)
    bad += s[i] != trunc_to(t, add_start + i);
  for (size_t i = 0; i < n; i++) {
    s[i] = o_xchg[first + i];
    w[i] = vals[first + i];
  }
  s[n] = xchg_final;
  w[n] = xchg_init;
  qsort(s, n + 1, sizeof *s, cmp_u64);
  qsort(w, n + 1, sizeof *w, cmp_u64);
  for (size_t i = 0; i <= n; i++)
    bad += s[i] != w[i];
  free(s);
  free(w);
  return bad;
}

static void test_counters(struct test_env *env, cl_program prog, const struct itype *t) {
  size_t es = (size_t)t->bits / 8;
  uint64_t *vals = malloc(ITEMS * 8), *masks = malloc(ITEMS * 8);
  for (size_t i = 0; i < ITEMS; i++) {
    vals[i] = trunc_to(t, rnd());
    masks[i] = trunc_to(t, 1ull << (rnd() % (uint64_t)t->bits));
  }
  vals[ITEMS / 3] = trunc_to(t, 1ull << (t->bits - 1)); /* the minimum signed value */
  vals[ITEMS / 2] = trunc_to(t, ~0ull);                  /* the maximum unsigned one */
  uint64_t init[NC + 1];
  for (int k = 0; k < NC; k++)
    init[k] = trunc_to(t, rnd());
  init[0] = 17;
  init[3] = 0;
  init[5] = trunc_to(t, ~0ull);
  init[NC] = trunc_to(t, rnd()); /* the exchanged object */
  void *bv = malloc(ITEMS * es), *bm = malloc(ITEMS * es), *bi = malloc((NC + 1) * es);
  pack(t, vals, ITEMS, bv);
  pack(t, masks, ITEMS, bm);
  pack(t, init, NC + 1, bi);
  cl_mem mv = test_buffer_with(env, ITEMS * es, bv), mm = test_buffer_with(env, ITEMS * es, bm);
  cl_mem madd = test_buffer_with(env, ITEMS * es, NULL), mx = test_buffer_with(env, ITEMS * es, NULL);
  void *raw = malloc(GROUPS * 11 * es + ITEMS * es);
  uint64_t *o_add = malloc(ITEMS * 8), *o_xchg = malloc(ITEMS * 8);
  uint64_t want[NC], got[GROUPS * 11];
  char name[32];
  cl_int err;

  /* __global counters shared by all work-groups */
  cl_mem mc = test_buffer_with(env, NC * es, bi), mobj = test_buffer_with(env, es, (char *)bi + NC * es);
  snprintf(name, sizeof name, "g_%s", t->name);
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK_OK(err);
  cl_mem gargs[6] = {mc, mobj, mv, mm, madd, mx};
  for (cl_uint a = 0; a < 6; a++)
    CHECK_OK(clSetKernelArg(k, a, sizeof(cl_mem), &gargs[a]));
  size_t g = ITEMS, l = LOCAL;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, mc, NC * es, raw);
  unpack(t, raw, NC, got);
  reference(t, init, vals, masks, 0, ITEMS, want);
  for (int c = 0; c < NC; c++)
    if (got[c] != want[c]) {
      fprintf(stderr, "  global %s counter %d: got %llx, want %llx\n", t->name, c,
              (unsigned long long)got[c], (unsigned long long)want[c]);
      CHECK(0);
    }
  uint64_t xfinal;
  test_read_back(env, mobj, es, raw);
  unpack(t, raw, 1, &xfinal);
  test_read_back(env, madd, ITEMS * es, raw);
  unpack(t, raw, ITEMS, o_add);
  test_read_back(env, mx, ITEMS * es, raw);
  unpack(t, raw, ITEMS, o_xchg);
  CHECK(check_olds(t, o_add, o_xchg, vals, 0, ITEMS, 17, init[NC], xfinal) == 0);
  clReleaseKernel(k);
  clReleaseMemObject(mc);
  clReleaseMemObject(mobj);

  /* __local counters, one set per work-group */
  snprintf(name, sizeof name, "l_%s", t->name);
  k = clCreateKernel(prog, name, &err);
  CHECK_OK(err);
  cl_mem minit = test_buffer_with(env, (NC + 1) * es, bi);
  cl_mem mres = test_buffer_with(env, GROUPS * 11 * es, NULL);
  cl_mem largs[6] = {minit, mv, mm, madd, mx, mres};
  for (cl_uint a = 0; a < 6; a++)
    CHECK_OK(clSetKernelArg(k, a, sizeof(cl_mem), &largs[a]));
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, mres, GROUPS * 11 * es, raw);
  unpack(t, raw, GROUPS * 11, got);
  test_read_back(env, madd, ITEMS * es, raw);
  unpack(t, raw, ITEMS, o_add);
  test_read_back(env, mx, ITEMS * es, raw);
  unpack(t, raw, ITEMS, o_xchg);
  int bad = 0;
  for (size_t grp = 0; grp < GROUPS; grp++) {
    reference(t, init, vals, masks, grp * LOCAL, LOCAL, want);
    for (int c = 0; c < NC; c++)
      bad += got[grp * 11 + (size_t)c] != want[c];
    bad += check_olds(t, o_add, o_xchg, vals, grp * LOCAL, LOCAL, 17, init[NC],
                      got[grp * 11 + NC]);
  }
  if (bad)
    fprintf(stderr, "  local %s: %d mismatches\n", t->name, bad);
  CHECK(bad == 0);
  clReleaseKernel(k);
  clReleaseMemObject(minit);
  clReleaseMemObject(mres);
  clReleaseMemObject(mv);
  clReleaseMemObject(mm);
  clReleaseMemObject(madd);
  clReleaseMemObject(mx);
  free(vals);
  free(masks);
  free(bv);
  free(bm);
  free(bi);
  free(raw);
  free(o_add);
  free(o_xchg);
}

/* test_and_set on flag[i / 2]: exactly one of each pair of work-items finds
 * it clear; then the even flags are cleared again. The __local variant does
 * the same within each group and reports what it saw. */
static const char *flag_src =
    "kernel void set(volatile global atomic_flag *f, global int *was) {\n"
    "  size_t i = get_global_id(0);\n"
    "  was[i] = (i & 2) ? atomic_flag_test_and_set(&f[i / 2])\n"
    "                   : atomic_flag_test_and_set_explicit(&f[i / 2], memory_order_acq_rel,\n"
    "                                                       memory_scope_device);\n"
    "}\n"
    "kernel void clear(volatile global atomic_flag *f) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i % 4 == 0) atomic_flag_clear(&f[i / 2]);\n"
    "  else if (i % 4 == 1) atomic_flag_clear_explicit(&f[i / 2], memory_order_release);\n"
    "}\n"
    "kernel void local_flags(global int *was, global int *after) {\n"
    "  local atomic_flag f[8];\n"
    "  size_t lid = get_local_id(0), i = get_global_id(0);\n"
    "  if (lid < 8) atomic_flag_clear_explicit(&f[lid], memory_order_relaxed, memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  was[i] = atomic_flag_test_and_set_explicit(&f[lid % 8], memory_order_seq_cst,\n"
    "                                             memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid < 4) atomic_flag_clear_explicit(&f[lid], memory_order_seq_cst, memory_scope_work_group);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid < 8) after[get_group_id(0) * 8 + lid] = atomic_flag_test_and_set(&f[lid]);\n"
    "}\n";

static void test_flags(struct test_env *env) {
  cl_program p = test_program_from(env, flag_src, "-cl-std=CL3.0");
  if (!p)
    return;
  cl_int err;
  int *zero = calloc(ITEMS, sizeof(int)), *was = malloc(ITEMS * sizeof(int));
  cl_mem mf = test_buffer_with(env, ITEMS / 2 * sizeof(int), zero);
  cl_mem mw = test_buffer_with(env, ITEMS * sizeof(int), NULL);
  cl_kernel set = clCreateKernel(p, "set", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(set, 0, sizeof mf, &mf));
  CHECK_OK(clSetKernelArg(set, 1, sizeof mw, &mw));
  size_t g = ITEMS, l = LOCAL;
  CHECK_OK(test_run(env, set, 1, NULL, &g, &l));
  test_read_back(env, mw, ITEMS * sizeof(int), was);
  int bad = 0;
  for (size_t i = 0; i < ITEMS; i += 2)
    bad += (was[i] != 0) + (was[i + 1] != 0) != 1;
  CHECK(bad == 0);
  cl_kernel clear = clCreateKernel(p, "clear", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(clear, 0, sizeof mf, &mf));
  CHECK_OK(test_run(env, clear, 1, NULL, &g, &l));
  int *flags = malloc(ITEMS / 2 * sizeof(int));
  test_read_back(env, mf, ITEMS / 2 * sizeof(int), flags);
  bad = 0;
  for (size_t j = 0; j < ITEMS / 2; j++)
    bad += (j % 2 == 0) ? flags[j] != 0 : flags[j] == 0;
  CHECK(bad == 0);

  cl_kernel lk = clCreateKernel(p, "local_flags", &err);
  CHECK_OK(err);
  cl_mem ma = test_buffer_with(env, GROUPS * 8 * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(lk, 0, sizeof mw, &mw));
  CHECK_OK(clSetKernelArg(lk, 1, sizeof ma, &ma));
  CHECK_OK(test_run(env, lk, 1, NULL, &g, &l));
  test_read_back(env, mw, ITEMS * sizeof(int), was);
  int *after = malloc(GROUPS * 8 * sizeof(int));
  test_read_back(env, ma, GROUPS * 8 * sizeof(int), after);
  bad = 0;
  for (size_t grp = 0; grp < GROUPS; grp++) {
    int clear_seen[8] = {0};
    for (size_t lid = 0; lid < LOCAL; lid++)
      clear_seen[lid % 8] += was[grp * LOCAL + lid] == 0;
    for (int f = 0; f < 8; f++)
      bad += clear_seen[f] != 1 || after[grp * 8 + (size_t)f] != (f >= 4);
  }
  CHECK(bad == 0);
  clReleaseKernel(set);
  clReleaseKernel(clear);
  clReleaseKernel(lk);
  clReleaseMemObject(mf);
  clReleaseMemObject(mw);
  clReleaseMemObject(ma);
  clReleaseProgram(p);
  free(zero);
  free(was);
  free(flags);
  free(after);
}

/* float and double: store, load, exchange and compare-exchange, which
 * compares object representations (-0.0 and 0.0 differ, a NaN equals
 * itself) */
static const char *float_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "#define FP(T) \\\n"
    "kernel void fp_##T(volatile global atomic_##T *a, global const T *in, global T *out) { \\\n"
    "  size_t i = get_global_id(0); \\\n"
    "  T x = in[i]; \\\n"
    "  atomic_store_explicit(&a[i], x, memory_order_release, memory_scope_device); \\\n"
    "  out[8 * i] = atomic_load_explicit(&a[i], memory_order_acquire); \\\n"
    "  out[8 * i + 1] = atomic_exchange(&a[i], -x); \\\n"
    "  T e = x; \\\n"
    "  out[8 * i + 2] = atomic_compare_exchange_strong(&a[i], &e, (T)7); \\\n"
    "  out[8 * i + 3] = e; \\\n"
    "  e = -x; \\\n"
    "  out[8 * i + 4] = atomic_compare_exchange_weak_explicit(&a[i], &e, x * (T)2, \\\n"
    "                     memory_order_seq_cst, memory_order_seq_cst, memory_scope_all_devices); \\\n"
    "  out[8 * i + 5] = atomic_load(&a[i]); \\\n"
    "  atomic_init(&a[i], (T)0); \\\n"
    "  e = -(T)0; \\\n"
    "  out[8 * i + 6] = atomic_compare_exchange_strong(&a[i], &e, (T)1); \\\n"
    "  out[8 * i + 7] = atomic_load(&a[i]); \\\n"
    "}\n"
    "FP(float) FP(double)\n";

static void test_floats(struct test_env *env) {
  cl_program p = test_program_from(env, float_src, "-cl-std=CL3.0");
  if (!p)
    return;
  enum { N = 256 };
  cl_int err;
  for (int dbl = 0; dbl < 2; dbl++) {
    size_t es = dbl ? 8 : 4;
    double in[N], out[8 * N];
    for (int i = 0; i < N; i++)
      in[i] = (double)((int)(rnd() % 2001) - 1000) / 8.0;
    in[1] = INFINITY;
    in[2] = NAN;
    unsigned char bin[N * 8], bout[8 * N * 8];
    for (int i = 0; i < N; i++) {
      if (dbl) {
        memcpy(bin + i * 8, &in[i], 8);
      } else {
        float f = (float)in[i];
        memcpy(bin + i * 4, &f, 4);
      }
    }
    cl_mem ma = test_buffer_with(env, N * es, NULL), mi = test_buffer_with(env, N * es, bin);
    cl_mem mo = test_buffer_with(env, 8 * N * es, NULL);
    cl_kernel k = clCreateKernel(p, dbl ? "fp_double" : "fp_float", &err);
    CHECK_OK(err);
    CHECK_OK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK_OK(clSetKernelArg(k, 1, sizeof mi, &mi));
    CHECK_OK(clSetKernelArg(k, 2, sizeof mo, &mo));
    size_t g = N;
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, mo, 8 * N * es, bout);
    for (int i = 0; i < 8 * N; i++) {
      if (dbl) {
        memcpy(&out[i], bout + i * 8, 8);
      } else {
        float f;
        memcpy(&f, bout + i * 4, 4);
        out[i] = f;
      }
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
      double x = dbl ? in[i] : (double)(float)in[i], *o = &out[8 * i];
      bool nan = isnan(x);
      /* load, exchange's old value: x; the strong exchange expecting x
       * fails (the object holds -x) and reports -x; the weak one expecting
       * -x succeeds and stores 2x */
      bad += nan ? !isnan(o[0]) || !isnan(o[1]) : o[0] != x || o[1] != x;
      bad += o[2] != 0.0; /* even for zero and NaN: the sign bits differ */
      bad += nan ? !isnan(o[3]) : o[3] != -x;
      bad += o[4] != 1.0;
      bad += nan ? !isnan(o[5]) : o[5] != 2 * x;
      /* +0.0 held, -0.0 expected: representations differ, so it fails */
      bad += o[6] != 0.0 || o[7] != 0.0 || signbit(o[7]);
    }
    if (bad)
      fprintf(stderr, "  %s: %d mismatches\n", dbl ? "double" : "float", bad);
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(ma);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
  }
  clReleaseProgram(p);
}

/* the address-sized types, including atomic_uintptr_t -/+ ptrdiff_t */
static const char *ptr_types_src =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "kernel void k(volatile global atomic_size_t *s, volatile global atomic_uintptr_t *u,\n"
    "              volatile global atomic_intptr_t *ip, volatile global atomic_ptrdiff_t *pd) {\n"
    "  size_t i = get_global_id(0);\n"
    "  atomic_fetch_add(s, i);\n"
    "  atomic_fetch_sub_explicit(u, (ptrdiff_t)-3, memory_order_relaxed);\n"
    "  atomic_fetch_add_explicit(u + 1, (ptrdiff_t)-1, memory_order_relaxed, memory_scope_device);\n"
    "  atomic_fetch_min(ip, (intptr_t)i - 1000);\n"
    "  atomic_fetch_max_explicit(pd, (ptrdiff_t)i * 5, memory_order_acq_rel);\n"
    "  atomic_fetch_or(s + 1, (size_t)1 << (i % 64));\n"
    "}\n";

static void test_pointer_sized(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, ptr_types_src, "k", "-cl-std=CL3.0");
  if (!k)
    return;
  uint64_t s[2] = {5, 0}, u[2] = {100, 1ull << 40};
  int64_t ip = 0, pd = -7;
  cl_mem ms = test_buffer_with(env, sizeof s, s), mu = test_buffer_with(env, sizeof u, u);
  cl_mem mi = test_buffer_with(env, sizeof ip, &ip), mp = test_buffer_with(env, sizeof pd, &pd);
  CHECK_OK(clSetKernelArg(k, 0, sizeof ms, &ms));
  CHECK_OK(clSetKernelArg(k, 1, sizeof mu, &mu));
  CHECK_OK(clSetKernelArg(k, 2, sizeof mi, &mi));
  CHECK_OK(clSetKernelArg(k, 3, sizeof mp, &mp));
  size_t g = ITEMS;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  test_read_back(env, ms, sizeof s, s);
  test_read_back(env, mu, sizeof u, u);
  test_read_back(env, mi, sizeof ip, &ip);
  test_read_back(env, mp, sizeof pd, &pd);
  CHECK(s[0] == 5 + (uint64_t)ITEMS * (ITEMS - 1) / 2);
  CHECK(s[1] == ~0ull);
  CHECK(u[0] == 100 + 3ull * ITEMS);
  CHECK(u[1] == (1ull << 40) - ITEMS);
  CHECK(ip == -1000);
  CHECK(pd == 5 * (ITEMS - 1));
  clReleaseKernel(k);
  clReleaseMemObject(ms);
  clReleaseMemObject(mu);
  clReleaseMemObject(mi);
  clReleaseMemObject(mp);
}

/* fences of every order and scope around a message passed through __local
 * memory, and a program-scope counter: the last work-item to finish (by an
 * acq_rel fetch_add) publishes the total, as the CTS does. Program-scope
 * atomics keep their values across launches of the same program. */
static const char *fence_src =
    "global atomic_uint finished = ATOMIC_VAR_INIT(0);\n"
    "global atomic_int total = ATOMIC_VAR_INIT(1000);\n"
    "kernel void k(global int *out) {\n"
    "  local int data[64];\n"
    "  local atomic_int ready;\n"
    "  size_t lid = get_local_id(0);\n"
    "  if (lid == 0) {\n"
    "    for (int j = 0; j < 64; j++) data[j] = j * 3 + (int)get_group_id(0);\n"
    "    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);\n"
    "    atomic_store_explicit(&ready, 1, memory_order_relaxed, memory_scope_work_group);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int r = atomic_load_explicit(&ready, memory_order_relaxed, memory_scope_work_group);\n"
    "  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel,\n"
    "                         memory_scope_all_devices);\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_svm_devices);\n"
    "  int ok = r == 1 && data[(lid * 7) % 64] == (int)((lid * 7) % 64) * 3 + (int)get_group_id(0);\n"
    "  atomic_fetch_add_explicit(&total, ok, memory_order_relaxed, memory_scope_device);\n"
    "  if (atomic_fetch_add_explicit(&finished, 1u, memory_order_acq_rel, memory_scope_device)\n"
    "      % get_global_size(0) == get_global_size(0) - 1)\n"
    "    out[0] = atomic_load_explicit(&total, memory_order_relaxed, memory_scope_device);\n"
    "}\n";

static void test_fences_and_program_scope(struct test_env *env) {
  cl_program p = test_program_from(env, fence_src, "-cl-std=CL3.0");
  if (!p)
    return;
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_OK(err);
  int out = -1;
  cl_mem mo = test_buffer_with(env, sizeof out, &out);
  CHECK_OK(clSetKernelArg(k, 0, sizeof mo, &mo));
  size_t g = ITEMS, l = LOCAL;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l));
  test_read_back(env, mo, sizeof out, &out);
  CHECK(out == 1000 + ITEMS);
  CHECK_OK(test_run(env, k, 1, NULL, &g, &l)); /* the totals go on */
  test_read_back(env, mo, sizeof out, &out);
  CHECK(out == 1000 + 2 * ITEMS);
  size_t size = 0;
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                 sizeof size, &size, NULL));
  CHECK(size == 8);
  clReleaseKernel(k);
  clReleaseMemObject(mo);
  clReleaseProgram(p);
}

static cl_int build_status_of(struct test_env *env, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  clReleaseProgram(p);
  return err;
}

/* OpenCL C 1.2 programs see neither the types nor the feature macros; misuse
 * is a build error, not a crash */
static void test_language_versions(struct test_env *env) {
  static const char *use = "kernel void k(global atomic_int *a) { atomic_fetch_add(a, 1); }\n";
  CHECK_ERR(build_status_of(env, use, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(build_status_of(env, use, "-cl-std=CL1.2"), CL_BUILD_PROGRAM_FAILURE);
  CHECK_OK(build_status_of(env, use, "-cl-std=CL3.0"));
  CHECK_OK(build_status_of(env, use, "-cl-std=CL3.0"));
  static const char *macros =
      "kernel void k(global int *o) {\n"
      "  int n = 0;\n"
      "#ifdef __opencl_c_atomic_order_acq_rel\n  n |= 1;\n#endif\n"
      "#ifdef __opencl_c_atomic_order_seq_cst\n  n |= 2;\n#endif\n"
      "#ifdef __opencl_c_atomic_scope_device\n  n |= 4;\n#endif\n"
      "#ifdef __opencl_c_atomic_scope_all_devices\n  n |= 8;\n#endif\n"
      "  o[0] = n;\n"
      "}\n";
  const char *opts[2] = {"", "-cl-std=CL3.0"};
  for (int v = 0; v < 2; v++) {
    cl_kernel k = test_kernel_from(env, macros, "k", opts[v]);
    if (!k)
      continue;
    int n = -1;
    cl_mem m = test_buffer_with(env, sizeof n, &n);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 1;
    CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
    test_read_back(env, m, sizeof n, &n);
    CHECK(n == (v ? 15 : 0));
    clReleaseKernel(k);
    clReleaseMemObject(m);
  }
  /* an atomic function on a plain pointer (a warning), a float fetch_add
   * (no cl_ext_float_atomics), orders and scopes swapped (a warning), a
   * pointer for an order */
  CHECK_ERR(build_status_of(env, "kernel void k(global int *a) { atomic_fetch_add(a, 1); }\n",
                            "-cl-std=CL3.0 -Werror"),
            CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(build_status_of(env,
                            "kernel void k(global atomic_int *a) { atomic_store_explicit(a, 1, a); }\n",
                            "-cl-std=CL3.0"),
            CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(build_status_of(env,
                            "kernel void k(global atomic_float *a) { atomic_fetch_add(a, 1.0f); }\n",
                            "-cl-std=CL3.0"),
            CL_BUILD_PROGRAM_FAILURE);
  CHECK_ERR(build_status_of(env,
                            "kernel void k(global atomic_int *a) {\n"
                            "  atomic_store_explicit(a, 1, memory_scope_device, memory_order_relaxed);\n"
                            "}\n",
                            "-cl-std=CL3.0 -Werror"),
            CL_BUILD_PROGRAM_FAILURE);
}

static void test_device_caps(struct test_env *env) {
  cl_device_atomic_capabilities mem = 0, fence = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof mem, &mem, NULL));
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof fence, &fence, NULL));
  const cl_device_atomic_capabilities all =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  CHECK(mem == all);
  CHECK(fence == (all | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));
  CHECK_ERR(clGetDeviceInfo(env->device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, 4, &mem, NULL),
            CL_INVALID_VALUE);
  size_t size = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
  cl_name_version *f = malloc(size);
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL));
  static const char *want[] = {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                               "__opencl_c_atomic_scope_device",
                               "__opencl_c_atomic_scope_all_devices"};
  for (int w = 0; w < 4; w++) {
    int found = 0;
    for (size_t i = 0; i < size / sizeof *f; i++)
      found += !strcmp(f[i].name, want[w]) && f[i].version == CL_MAKE_VERSION(3, 0, 0);
    CHECK(found == 1);
  }
  free(f);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_device_caps(&env);
  cl_program p = test_program_from(&env, counters_src, "-cl-std=CL3.0");
  if (p) {
    static const struct itype types[] = {
        {"int", 32, 1}, {"uint", 32, 0}, {"long", 64, 1}, {"ulong", 64, 0}};
    for (int t = 0; t < 4; t++)
      test_counters(&env, p, &types[t]);
    clReleaseProgram(p);
  }
  test_flags(&env);
  test_floats(&env);
  test_pointer_sized(&env);
  test_fences_and_program_scope(&env);
  test_language_versions(&env);
  test_env_release(&env);
  return test_finish("test_builtins_c11_atomics");
}
