/* OpenCL 1.x atomic builtins (atomic_* and the atom_* extension names, 32 and
 * 64 bit) on __global memory shared by many work-groups and on __local
 * memory, and through generic pointers with -cl-std=CL3.0. Every work-item
 * applies every operation to the same counters; the results must be exact,
 * and the values the operations return must be consistent with them (the old
 * values of atomic_inc are a permutation, exchanges lose nothing, ...). */
#include "harness.h"
#include <stdint.h>

#define ITEMS 16384
#define LOCAL 64
#define GROUPS (ITEMS / LOCAL)
#define NC 11 /* counters per kernel */
#define NG (NC + 2) /* the global kernel adds two stress counters */
#define STRESS 512 /* increments per work-item on them */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) { return test_xorshift64(&rng_state); }

/* Counter k: 0 inc, 1 add, 2 sub, 3 dec, 4 min, 5 max, 6 and, 7 or, 8 xor,
 * 9 xchg, 10 a cmpxchg loop adding 2; the global kernel also hammers 11 and
 * 12 with STRESS increments per work-item, long enough for work-groups on
 * different threads to collide if an operation were not atomic. When the
 * device does not report an atomics extension its functions are declared
 * here, which gives them the same names the library defines. */
static const char *atomics_src =
    "#define OVL __attribute__((overloadable))\n"
    "#define STRESS 512\n"
    "#define DECL_BASE(P, AS, T) \\\n"
    "  T OVL P##_add(volatile AS T *, T); T OVL P##_sub(volatile AS T *, T); \\\n"
    "  T OVL P##_xchg(volatile AS T *, T); T OVL P##_inc(volatile AS T *); \\\n"
    "  T OVL P##_dec(volatile AS T *); T OVL P##_cmpxchg(volatile AS T *, T, T);\n"
    "#define DECL_EXT(P, AS, T) \\\n"
    "  T OVL P##_min(volatile AS T *, T); T OVL P##_max(volatile AS T *, T); \\\n"
    "  T OVL P##_and(volatile AS T *, T); T OVL P##_or(volatile AS T *, T); \\\n"
    "  T OVL P##_xor(volatile AS T *, T);\n"
    "#ifdef cl_khr_global_int32_base_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable\n"
    "#else\n"
    "DECL_BASE(atom, __global, int) DECL_BASE(atom, __global, uint)\n"
    "#endif\n"
    "#ifdef cl_khr_global_int32_extended_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable\n"
    "#else\n"
    "DECL_EXT(atom, __global, int) DECL_EXT(atom, __global, uint)\n"
    "#endif\n"
    "#ifdef cl_khr_local_int32_base_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable\n"
    "#else\n"
    "DECL_BASE(atom, __local, int) DECL_BASE(atom, __local, uint)\n"
    "#endif\n"
    "#ifdef cl_khr_local_int32_extended_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable\n"
    "#else\n"
    "DECL_EXT(atom, __local, int) DECL_EXT(atom, __local, uint)\n"
    "#endif\n"
    "#ifdef cl_khr_int64_base_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#else\n"
    "DECL_BASE(atom, __global, long) DECL_BASE(atom, __global, ulong)\n"
    "DECL_BASE(atom, __local, long) DECL_BASE(atom, __local, ulong)\n"
    "#endif\n"
    "#ifdef cl_khr_int64_extended_atomics\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "#else\n"
    "DECL_EXT(atom, __global, long) DECL_EXT(atom, __global, ulong)\n"
    "DECL_EXT(atom, __local, long) DECL_EXT(atom, __local, ulong)\n"
    "#endif\n"
    /* OpenCL C 2.0 declares no generic atomic_*; the library has them */
    "#ifdef USE_GENERIC\n"
    "DECL_BASE(atomic, __generic, int) DECL_BASE(atomic, __generic, uint)\n"
    "DECL_EXT(atomic, __generic, int) DECL_EXT(atomic, __generic, uint)\n"
    "float OVL atomic_xchg(volatile __generic float *, float);\n"
    "#define GEN_atomic(T, c) ((volatile __generic T *)(c))\n"
    "#else\n"
    "#define GEN_atomic(T, c) (c)\n"
    "#endif\n"
    "#define GEN_atom(T, c) (c)\n"
    "#define OPS(P, c, T) \\\n"
    "  o_inc[gid] = P##_inc(&(c)[0]); \\\n"
    "  P##_add(&(c)[1], v); \\\n"
    "  P##_sub(&(c)[2], v); \\\n"
    "  o_dec[gid] = P##_dec(&(c)[3]); \\\n"
    "  P##_min(&(c)[4], v); \\\n"
    "  P##_max(&(c)[5], v); \\\n"
    "  P##_and(&(c)[6], ~m); \\\n"
    "  P##_or(&(c)[7], m); \\\n"
    "  P##_xor(&(c)[8], v); \\\n"
    "  o_xchg[gid] = P##_xchg(&(c)[9], v); \\\n"
    "  { T old; do { old = (c)[10]; } while (P##_cmpxchg(&(c)[10], old, old + (T)2) != old); }\n"
    "#define KERNELS(P, T) \\\n"
    "kernel void g_##P##_##T(volatile global T *c, global const T *vals, global const T *masks, \\\n"
    "                        global T *o_inc, global T *o_dec, global T *o_xchg) { \\\n"
    "  size_t gid = get_global_id(0); \\\n"
    "  T v = vals[gid], m = masks[gid]; \\\n"
    "  OPS(P, GEN_##P(T, c), T) \\\n"
    "  for (int r = 0; r < STRESS; r++) { P##_inc(GEN_##P(T, c) + 11); P##_add(GEN_##P(T, c) + 12, (T)3); } \\\n"
    "} \\\n"
    "kernel void l_##P##_##T(global const T *init, global const T *vals, global const T *masks, \\\n"
    "                        global T *o_inc, global T *o_dec, global T *o_xchg, global T *res) { \\\n"
    "  volatile local T c[11]; \\\n"
    "  size_t gid = get_global_id(0), lid = get_local_id(0); \\\n"
    "  if (lid < 11) c[lid] = init[lid]; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  T v = vals[gid], m = masks[gid]; \\\n"
    "  OPS(P, GEN_##P(T, c), T) \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  if (lid < 11) res[get_group_id(0) * 11 + lid] = c[lid]; \\\n"
    "}\n"
    "KERNELS(atomic, int) KERNELS(atomic, uint) KERNELS(atom, int) KERNELS(atom, uint)\n"
    "#ifndef USE_GENERIC\n"
    "KERNELS(atom, long) KERNELS(atom, ulong)\n"
    "#endif\n"
    "kernel void g_fxchg(volatile global float *c, global float *o) {\n"
    "  o[get_global_id(0)] = atomic_xchg(GEN_atomic(float, c), (float)get_global_id(0));\n"
    "}\n"
    "kernel void l_fxchg(global float *o, global float *res) {\n"
    "  volatile local float c;\n"
    "  if (get_local_id(0) == 0) c = -1.5f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = atomic_xchg(GEN_atomic(float, &c), (float)get_global_id(0));\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) res[get_group_id(0)] = c;\n"
    "}\n";

struct itype {
  const char *prefix, *name;
  int bits, is_signed;
};

/* values live in uint64_t, truncated to the type's width */
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
static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* the expected counters after items [first, first+n) ran from init */
static void expect(const struct itype *t, const uint64_t *init, const uint64_t *vals,
                   const uint64_t *masks, size_t first, size_t n, uint64_t *c) {
  memcpy(c, init, NC * sizeof *c);
  for (size_t i = first; i < first + n; i++) {
    c[0] = trunc_to(t, c[0] + 1);
    c[1] = trunc_to(t, c[1] + vals[i]);
    c[2] = trunc_to(t, c[2] - vals[i]);
    c[3] = trunc_to(t, c[3] - 1);
    if (less(t, vals[i], c[4]))
      c[4] = vals[i];
    if (less(t, c[5], vals[i]))
      c[5] = vals[i];
    c[6] &= trunc_to(t, ~masks[i]);
    c[7] |= masks[i];
    c[8] ^= vals[i];
    c[10] = trunc_to(t, c[10] + 2);
  }
}

/* the old values of items [first, first+n) are start, start+1, ... in any order */
static int is_sequence(const uint64_t *olds, size_t first, size_t n, uint64_t start) {
  uint64_t *s = malloc(n * sizeof *s);
  memcpy(s, olds + first, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_u64);
  int ok = 1;
  for (size_t i = 0; i < n; i++)
    ok &= s[i] == start + i;
  free(s);
  return ok;
}

/* {first exchange value} + the items' values == what they got back + final */
static int exchanges_consistent(const uint64_t *vals, const uint64_t *olds, size_t first,
                                size_t n, uint64_t init, uint64_t final) {
  uint64_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
  memcpy(a, vals + first, n * sizeof *a);
  a[n] = init;
  memcpy(b, olds + first, n * sizeof *b);
  b[n] = final;
  qsort(a, n + 1, sizeof *a, cmp_u64);
  qsort(b, n + 1, sizeof *b, cmp_u64);
  int ok = !memcmp(a, b, (n + 1) * sizeof *a);
  free(a);
  free(b);
  return ok;
}

static void run(struct test_env *env, cl_kernel k, size_t global, size_t local) {
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_OK(clFinish(env->queue));
}

static void test_type(struct test_env *env, cl_program p, const struct itype *t,
                      const char *label) {
  size_t es = (size_t)t->bits / 8;
  uint64_t *vals = malloc(ITEMS * 8), *masks = malloc(ITEMS * 8);
  for (size_t i = 0; i < ITEMS; i++) {
    uint64_t r = rnd();
    /* a mix of small, negative and extreme values */
    if (i % 4 == 0)
      r = (uint64_t)((int64_t)(r % 2001) - 1000);
    vals[i] = trunc_to(t, r);
    masks[i] = (i % 512 == 7) ? trunc_to(t, 1ull << (rnd() % (uint64_t)t->bits)) : 0;
  }
  uint64_t init[NC] = {0, 12345, 777, ITEMS, trunc_to(t, 1ull << (t->bits - 2)),
                       trunc_to(t, 5), trunc_to(t, ~0ull), 0x10, trunc_to(t, 0x5a5a5a5a5a5a5a5aull),
                       42, 100};
  void *buf_vals = malloc(ITEMS * es), *buf_masks = malloc(ITEMS * es), *tmp = malloc(ITEMS * es);
  pack(t, vals, ITEMS, buf_vals);
  pack(t, masks, ITEMS, buf_masks);
  uint64_t *o_inc = malloc(ITEMS * 8), *o_dec = malloc(ITEMS * 8), *o_xchg = malloc(ITEMS * 8);
  uint64_t c[NG], want[NC];
  char name[64];
  cl_int err;

  /* __global: one set of counters for all work-groups */
  uint64_t ginit[NG];
  memcpy(ginit, init, sizeof init);
  ginit[11] = 1;
  ginit[12] = 2;
  pack(t, ginit, NG, tmp);
  cl_mem counters = test_buffer_with(env, NG * es, tmp);
  cl_mem bv = test_buffer_with(env, ITEMS * es, buf_vals), bm = test_buffer_with(env, ITEMS * es, buf_masks);
  cl_mem bo[3];
  for (int i = 0; i < 3; i++)
    bo[i] = test_buffer_with(env, ITEMS * es, buf_vals);
  snprintf(name, sizeof name, "g_%s_%s", t->prefix, t->name);
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  cl_mem gargs[6] = {counters, bv, bm, bo[0], bo[1], bo[2]};
  for (cl_uint i = 0; i < 6; i++)
    CHECK_OK(clSetKernelArg(k, i, sizeof(cl_mem), &gargs[i]));
  run(env, k, ITEMS, LOCAL);
  clReleaseKernel(k);
  CHECK_OK(clEnqueueReadBuffer(env->queue, counters, CL_TRUE, 0, NG * es, tmp, 0, NULL, NULL));
  unpack(t, tmp, NG, c);
  CHECK(c[11] == trunc_to(t, 1 + (uint64_t)STRESS * ITEMS));
  CHECK(c[12] == trunc_to(t, 2 + 3 * (uint64_t)STRESS * ITEMS));
  uint64_t *olds[3] = {o_inc, o_dec, o_xchg};
  for (int i = 0; i < 3; i++) {
    CHECK_OK(clEnqueueReadBuffer(env->queue, bo[i], CL_TRUE, 0, ITEMS * es, tmp, 0, NULL, NULL));
    unpack(t, tmp, ITEMS, olds[i]);
  }
  expect(t, init, vals, masks, 0, ITEMS, want);
  int bad = 0;
  for (int i = 0; i < NC; i++)
    if (i != 9 && c[i] != want[i] && bad++ < 4)
      fprintf(stderr, "  %s global %s: counter %d = 0x%llx, expected 0x%llx\n", label, name, i,
              (unsigned long long)c[i], (unsigned long long)want[i]);
  CHECK(bad == 0);
  CHECK(is_sequence(o_inc, 0, ITEMS, 0));
  CHECK(is_sequence(o_dec, 0, ITEMS, 1));
  CHECK(exchanges_consistent(vals, o_xchg, 0, ITEMS, init[9], c[9]));

  /* __local: counters per work-group, atomic_dec counting down from LOCAL */
  uint64_t linit[NC];
  memcpy(linit, init, sizeof linit);
  linit[3] = LOCAL;
  pack(t, linit, NC, tmp);
  cl_mem binit = test_buffer_with(env, NC * es, tmp);
  void *res_raw = malloc(GROUPS * NC * es);
  memset(res_raw, 0, GROUPS * NC * es);
  cl_mem bres = test_buffer_with(env, GROUPS * NC * es, res_raw);
  snprintf(name, sizeof name, "l_%s_%s", t->prefix, t->name);
  k = clCreateKernel(p, name, &err);
  CHECK_OK(err);
  cl_mem largs[7] = {binit, bv, bm, bo[0], bo[1], bo[2], bres};
  for (cl_uint i = 0; i < 7; i++)
    CHECK_OK(clSetKernelArg(k, i, sizeof(cl_mem), &largs[i]));
  run(env, k, ITEMS, LOCAL);
  clReleaseKernel(k);
  CHECK_OK(clEnqueueReadBuffer(env->queue, bres, CL_TRUE, 0, GROUPS * NC * es, res_raw, 0, NULL,
                               NULL));
  uint64_t *res = malloc(GROUPS * NC * 8);
  unpack(t, res_raw, GROUPS * NC, res);
  for (int i = 0; i < 3; i++) {
    CHECK_OK(clEnqueueReadBuffer(env->queue, bo[i], CL_TRUE, 0, ITEMS * es, tmp, 0, NULL, NULL));
    unpack(t, tmp, ITEMS, olds[i]);
  }
  bad = 0;
  for (size_t g = 0; g < GROUPS; g++) {
    expect(t, linit, vals, masks, g * LOCAL, LOCAL, want);
    int ok = 1;
    for (int i = 0; i < NC; i++)
      ok &= i == 9 || res[g * NC + i] == want[i];
    ok &= is_sequence(o_inc, g * LOCAL, LOCAL, 0);
    ok &= is_sequence(o_dec, g * LOCAL, LOCAL, 1);
    ok &= exchanges_consistent(vals, o_xchg, g * LOCAL, LOCAL, init[9], res[g * NC + 9]);
    if (!ok && bad++ < 3)
      fprintf(stderr, "  %s local %s: group %zu wrong\n", label, name, g);
  }
  CHECK(bad == 0);

  clReleaseMemObject(counters);
  clReleaseMemObject(bv);
  clReleaseMemObject(bm);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(bo[i]);
  clReleaseMemObject(binit);
  clReleaseMemObject(bres);
  free(vals);
  free(masks);
  free(buf_vals);
  free(buf_masks);
  free(tmp);
  free(o_inc);
  free(o_dec);
  free(o_xchg);
  free(res_raw);
  free(res);
}

static void test_float_xchg(struct test_env *env, cl_program p) {
  cl_int err;
  float init = 0.25f, *o = calloc(ITEMS, sizeof(float)), res[GROUPS] = {0};
  cl_mem bc = test_buffer_with(env, sizeof init, &init);
  cl_mem bo = test_buffer_with(env, ITEMS * sizeof(float), o);
  cl_mem br = test_buffer_with(env, sizeof res, res);
  cl_kernel k = clCreateKernel(p, "g_fxchg", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bc, &bc));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
  run(env, k, ITEMS, LOCAL);
  clReleaseKernel(k);
  float final;
  CHECK_OK(clEnqueueReadBuffer(env->queue, bc, CL_TRUE, 0, sizeof final, &final, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, ITEMS * sizeof(float), o, 0, NULL,
                               NULL));
  /* every value 0..ITEMS-1 and 0.25 appears once among the olds and final */
  char *seen = calloc(ITEMS + 1, 1);
  int ok = 1;
  for (size_t i = 0; i <= ITEMS; i++) {
    float v = i < ITEMS ? o[i] : final;
    size_t slot = v == 0.25f ? ITEMS : (size_t)v;
    ok &= (v == 0.25f || (v >= 0 && v < ITEMS && v == (float)slot)) && !seen[slot];
    if (slot <= ITEMS)
      seen[slot] = 1;
  }
  CHECK(ok);

  k = clCreateKernel(p, "l_fxchg", &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof br, &br));
  run(env, k, ITEMS, LOCAL);
  clReleaseKernel(k);
  CHECK_OK(clEnqueueReadBuffer(env->queue, bo, CL_TRUE, 0, ITEMS * sizeof(float), o, 0, NULL,
                               NULL));
  CHECK_OK(clEnqueueReadBuffer(env->queue, br, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
  ok = 1;
  for (size_t g = 0; g < GROUPS; g++) {
    memset(seen, 0, ITEMS + 1);
    for (size_t i = 0; i <= LOCAL; i++) {
      float v = i < LOCAL ? o[g * LOCAL + i] : res[g];
      size_t slot = v == -1.5f ? ITEMS : (size_t)v;
      ok &= (v == -1.5f || (v >= (float)(g * LOCAL) && v < (float)((g + 1) * LOCAL))) &&
            !seen[slot];
      if (slot <= ITEMS)
        seen[slot] = 1;
    }
  }
  CHECK(ok);
  free(seen);
  free(o);
  clReleaseMemObject(bc);
  clReleaseMemObject(bo);
  clReleaseMemObject(br);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  static const struct itype types[6] = {{"atomic", "int", 32, 1},  {"atomic", "uint", 32, 0},
                                        {"atom", "int", 32, 1},    {"atom", "uint", 32, 0},
                                        {"atom", "long", 64, 1},   {"atom", "ulong", 64, 0}};
  cl_program p = test_program_from(&env, atomics_src, NULL);
  if (p) {
    for (int i = 0; i < 6; i++)
      test_type(&env, p, &types[i], "CL1.2");
    test_float_xchg(&env, p);
    clReleaseProgram(p);
  }
  p = test_program_from(&env, atomics_src, "-cl-std=CL3.0 -DUSE_GENERIC");
  if (p) {
    for (int i = 0; i < 4; i++)
      test_type(&env, p, &types[i], "CL2.0 generic");
    test_float_xchg(&env, p);
    clReleaseProgram(p);
  }
  test_env_release(&env);
  return test_finish("test_builtins_atomics");
}
