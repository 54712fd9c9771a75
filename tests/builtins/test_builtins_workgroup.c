/* Work-group collective functions (OpenCL C 2.0 6.13.15): work_group_all/any,
 * work_group_broadcast (1D, 2D, 3D forms) and work_group_reduce/scan_inclusive/
 * scan_exclusive for add, min and max, for int, uint, long, ulong, float,
 * double and half (cl_khr_fp16), checked against a host reference on 1D, 2D and 3D ranges with
 * uniform and non-uniform (smaller last) work-groups of several sizes,
 * including 1 and non-powers of two. The kernel computes its values in
 * divergent branches before the collectives, uses the results in divergent
 * branches after them, calls collectives in a loop whose trip count differs
 * between groups and in uniform branches, and keeps __local variables and a
 * __local argument alive across them (the collectives' scratch must not
 * overlap them). OpenCL C 1.2 programs must not see the functions or the
 * feature macro; CL_KERNEL_LOCAL_MEM_SIZE must count the scratch. */
#include "harness.h"
#include <math.h>

/* outputs per work-item, in order, in the typed output buffer */
enum {
  O_RED_ADD, O_RED_MIN, O_RED_MAX,
  O_INC_ADD, O_INC_MIN, O_INC_MAX,
  O_EXC_ADD, O_EXC_MIN, O_EXC_MAX,
  O_BCAST, O_LOOP, O_NEIGHBOUR, O_FIRST,
  NOUT
};
/* outputs per work-item in the int buffer */
enum { I_CMP, I_ALL, I_ANY, NIOUT };

static const char *kernel_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define KERNEL(T) \\\n"
    "kernel void wg_##T(global const T *in, global const int *pred, global T *out, \\\n"
    "                   global int *iout, local T *larg) { \\\n"
    "  size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2); \\\n"
    "  size_t gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * \\\n"
    "      ((get_global_id(1) - get_global_offset(1)) + \\\n"
    "       get_global_size(1) * (get_global_id(2) - get_global_offset(2))); \\\n"
    "  size_t lid = get_local_linear_id(); \\\n"
    "  size_t ls = get_local_size(0) * get_local_size(1) * get_local_size(2); \\\n"
    "  local T first[3]; \\\n"
    "  T v; \\\n"
    "  if (lid % 3 == 1) v = in[gl] * (T)2; \\\n"
    "  else if (lid % 3 == 2) v = in[gl] - (T)1; \\\n"
    "  else v = in[gl]; \\\n"
    "  larg[lid] = v; \\\n"
    "  if (lid == 0) first[1] = v; \\\n"
    "  out[0 * n + gl] = work_group_reduce_add(v); \\\n"
    "  out[1 * n + gl] = work_group_reduce_min(v); \\\n"
    "  out[2 * n + gl] = work_group_reduce_max(v); \\\n"
    "  out[3 * n + gl] = work_group_scan_inclusive_add(v); \\\n"
    "  out[4 * n + gl] = work_group_scan_inclusive_min(v); \\\n"
    "  T imax = work_group_scan_inclusive_max(v); \\\n"
    "  if (imax == v) iout[3 * gl + 0] = 1; \\\n"
    "  else iout[3 * gl + 0] = 2; \\\n"
    "  out[5 * n + gl] = imax; \\\n"
    "  out[6 * n + gl] = work_group_scan_exclusive_add(v); \\\n"
    "  out[7 * n + gl] = work_group_scan_exclusive_min(v); \\\n"
    "  out[8 * n + gl] = work_group_scan_exclusive_max(v); \\\n"
    "  size_t bx = (get_group_id(0) * 5 + 3) % get_local_size(0); \\\n"
    "  size_t by = (get_group_id(1) * 3 + 1) % get_local_size(1); \\\n"
    "  size_t bz = (get_group_id(2) + 2) % get_local_size(2); \\\n"
    "  T b; \\\n"
    "  if (get_work_dim() == 1) b = work_group_broadcast(v, bx); \\\n"
    "  else if (get_work_dim() == 2) b = work_group_broadcast(v, bx, by); \\\n"
    "  else b = work_group_broadcast(v, bx, by, bz); \\\n"
    "  out[9 * n + gl] = b; \\\n"
    "  T acc = (T)0; \\\n"
    "  for (int it = 0; it <= (int)(get_group_id(0) % 3); it++) { \\\n"
    "    acc += work_group_reduce_max(v + (T)it); \\\n"
    "    acc += work_group_scan_inclusive_min(v - (T)it); \\\n"
    "  } \\\n"
    "  out[10 * n + gl] = acc; \\\n"
    "  int p = pred[gl]; \\\n"
    "  iout[3 * gl + 1] = work_group_all(p) ? 1 : 0; \\\n"
    "  iout[3 * gl + 2] = work_group_any(p) ? 1 : 0; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  out[11 * n + gl] = larg[(lid + 1) % ls]; \\\n"
    "  out[12 * n + gl] = first[1]; \\\n"
    "}\n"
    "#ifdef SOME_TYPES\n"
    "KERNEL(int) KERNEL(double)\n"
    "#else\n"
    "KERNEL(int) KERNEL(uint) KERNEL(long) KERNEL(ulong) KERNEL(float) KERNEL(double)\n"
    "KERNEL(half)\n"
    "#endif\n";

struct shape {
  cl_uint dims;
  size_t global[3], local[3], offset[3];
};

static const struct shape shapes[] = {
    {1, {1000, 1, 1}, {64, 1, 1}, {0, 0, 0}},  /* last group of 40 */
    {1, {300, 1, 1}, {1, 1, 1}, {0, 0, 0}},
    {1, {780, 1, 1}, {7, 1, 1}, {5, 0, 0}},    /* last group of 3 */
    {1, {512, 1, 1}, {256, 1, 1}, {0, 0, 0}},
    {2, {37, 11, 1}, {8, 4, 1}, {0, 0, 0}},    /* non-uniform in x and y */
    {2, {15, 30, 1}, {5, 6, 1}, {2, 3, 0}},
    {3, {9, 7, 5}, {4, 3, 2}, {3, 1, 2}},      /* non-uniform in x, y and z */
    {3, {8, 8, 8}, {4, 4, 4}, {0, 0, 0}},
};
#define NSHAPES (sizeof shapes / sizeof *shapes)

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* predicates for all/any: each group gets one of four patterns so that both
 * outcomes of both functions occur */
static void make_predicates(const struct shape *s, int *pred, size_t n) {
  for (size_t i = 0; i < n; i++)
    pred[i] = 0;
  size_t ng[3], gi[3];
  for (int d = 0; d < 3; d++)
    ng[d] = (s->global[d] + s->local[d] - 1) / s->local[d];
  for (gi[2] = 0; gi[2] < ng[2]; gi[2]++)
    for (gi[1] = 0; gi[1] < ng[1]; gi[1]++)
      for (gi[0] = 0; gi[0] < ng[0]; gi[0]++) {
        int mode = (int)(test_xorshift64(&rng) % 4);
        size_t a[3], items = 1;
        for (int d = 0; d < 3; d++) {
          size_t rest = s->global[d] - gi[d] * s->local[d];
          a[d] = rest < s->local[d] ? rest : s->local[d];
          items *= a[d];
        }
        size_t odd = test_xorshift64(&rng) % items, lin = 0;
        for (size_t z = 0; z < a[2]; z++)
          for (size_t y = 0; y < a[1]; y++)
            for (size_t x = 0; x < a[0]; x++, lin++) {
              size_t g = (gi[0] * s->local[0] + x) +
                         s->global[0] * ((gi[1] * s->local[1] + y) +
                                         s->global[1] * (gi[2] * s->local[2] + z));
              int nonzero = mode == 0 ? 1 : mode == 1 ? 0 : mode == 2 ? lin != odd : lin == odd;
              pred[g] = nonzero ? (int)(test_xorshift64(&rng) % 7) - 10 : 0;
            }
      }
}

/* Defines the host side for type T: input generation (the kernel's
 * arithmetic on inputs must not overflow a signed type; sums of floats stay
 * exact), the reference (adds wrap through the unsigned type U) and the run. */
#define HOST(T, U, NAME, MIN_ID, MAX_ID, RANDOM)                                       \
  static T NAME##_min(T a, T b) { return b < a ? b : a; }                               \
  static T NAME##_max(T a, T b) { return a < b ? b : a; }                               \
  static T NAME##_add(T a, T b) { return (T)((U)a + (U)b); }                            \
  static int NAME##_eq(T a, T b) { return memcmp(&a, &b, sizeof a) == 0; }              \
  static int check_##NAME(const struct shape *s, const T *in, const int *pred,          \
                          const T *out, const int *iout, size_t n) {                    \
    int bad = 0;                                                                        \
    size_t ng[3], gi[3];                                                                \
    for (int d = 0; d < 3; d++)                                                         \
      ng[d] = (s->global[d] + s->local[d] - 1) / s->local[d];                           \
    size_t max_items = s->local[0] * s->local[1] * s->local[2];                         \
    T *v = malloc(max_items * sizeof *v);                                               \
    size_t *gidx = malloc(max_items * sizeof *gidx);                                    \
    for (gi[2] = 0; gi[2] < ng[2]; gi[2]++)                                             \
      for (gi[1] = 0; gi[1] < ng[1]; gi[1]++)                                           \
        for (gi[0] = 0; gi[0] < ng[0]; gi[0]++) {                                       \
          size_t a[3], items = 0;                                                       \
          for (int d = 0; d < 3; d++) {                                                 \
            size_t rest = s->global[d] - gi[d] * s->local[d];                           \
            a[d] = rest < s->local[d] ? rest : s->local[d];                             \
          }                                                                             \
          for (size_t z = 0; z < a[2]; z++)                                             \
            for (size_t y = 0; y < a[1]; y++)                                           \
              for (size_t x = 0; x < a[0]; x++, items++) {                              \
                size_t g = (gi[0] * s->local[0] + x) +                                  \
                           s->global[0] * ((gi[1] * s->local[1] + y) +                  \
                                           s->global[1] * (gi[2] * s->local[2] + z));   \
                gidx[items] = g;                                                        \
                v[items] = items % 3 == 1 ? (T)(in[g] * (T)2)                           \
                           : items % 3 == 2 ? (T)(in[g] - (T)1) : in[g];                \
              }                                                                         \
          T sum = 0, mn = MIN_ID, mx = MAX_ID;                                          \
          int all = 1, any = 0;                                                         \
          for (size_t i = 0; i < items; i++) {                                          \
            sum = NAME##_add(sum, v[i]);                                                \
            mn = NAME##_min(mn, v[i]);                                                  \
            mx = NAME##_max(mx, v[i]);                                                  \
            all &= pred[gidx[i]] != 0;                                                  \
            any |= pred[gidx[i]] != 0;                                                  \
          }                                                                             \
          size_t bx = (gi[0] * 5 + 3) % a[0], by = (gi[1] * 3 + 1) % a[1];              \
          size_t bz = (gi[2] + 2) % a[2];                                               \
          T bcast = v[bx + a[0] * (by + a[1] * bz)];                                    \
          T acc = 0;                                                                    \
          T ia = 0, imn = MIN_ID, imx = MAX_ID;                                         \
          for (size_t i = 0; i < items; i++) {                                          \
            size_t g = gidx[i];                                                         \
            T want[NOUT];                                                               \
            want[O_RED_ADD] = sum;                                                      \
            want[O_RED_MIN] = mn;                                                       \
            want[O_RED_MAX] = mx;                                                       \
            want[O_EXC_ADD] = ia;                                                       \
            want[O_EXC_MIN] = imn;                                                      \
            want[O_EXC_MAX] = imx;                                                      \
            ia = NAME##_add(ia, v[i]);                                                  \
            imn = NAME##_min(imn, v[i]);                                                \
            imx = NAME##_max(imx, v[i]);                                                \
            want[O_INC_ADD] = ia;                                                       \
            want[O_INC_MIN] = imn;                                                      \
            want[O_INC_MAX] = imx;                                                      \
            want[O_BCAST] = bcast;                                                      \
            acc = 0;                                                                    \
            for (int it = 0; it <= (int)(gi[0] % 3); it++) {                            \
              T rmax = MAX_ID, pmin = MIN_ID;                                           \
              for (size_t j = 0; j < items; j++)                                        \
                rmax = NAME##_max(rmax, (T)(v[j] + (T)it));                             \
              for (size_t j = 0; j <= i; j++)                                           \
                pmin = NAME##_min(pmin, (T)(v[j] - (T)it));                             \
              acc = NAME##_add(NAME##_add(acc, rmax), pmin);                            \
            }                                                                           \
            want[O_LOOP] = acc;                                                         \
            want[O_NEIGHBOUR] = v[(i + 1) % items];                                     \
            want[O_FIRST] = v[0];                                                       \
            for (int o = 0; o < NOUT; o++)                                              \
              if (!NAME##_eq(out[(size_t)o * n + g], want[o]) && bad++ < 5)             \
                fprintf(stderr, #NAME " dims %u item %zu output %d: got %.17g want %.17g\n", \
                        s->dims, g, o, (double)out[(size_t)o * n + g], (double)want[o]); \
            int iwant[NIOUT] = {imx == v[i] ? 1 : 2, all, any};                         \
            for (int o = 0; o < NIOUT; o++)                                             \
              if (iout[3 * g + (size_t)o] != iwant[o] && bad++ < 5)                     \
                fprintf(stderr, #NAME " dims %u item %zu int output %d: got %d want %d\n", \
                        s->dims, g, o, iout[3 * g + (size_t)o], iwant[o]);              \
          }                                                                             \
        }                                                                               \
    free(v);                                                                            \
    free(gidx);                                                                         \
    return bad;                                                                         \
  }                                                                                     \
  static void run_##NAME(struct test_env *env, cl_program p, const struct shape *s) {   \
    cl_int err;                                                                         \
    cl_kernel k = clCreateKernel(p, "wg_" #NAME, &err);                                    \
    CHECK_OK(err);                                                                      \
    if (err != CL_SUCCESS)                                                              \
      return;                                                                           \
    size_t n = s->global[0] * s->global[1] * s->global[2];                              \
    T *in = malloc(n * sizeof *in), *out = malloc(NOUT * n * sizeof *out);              \
    int *pred = malloc(n * sizeof *pred), *iout = malloc(NIOUT * n * sizeof *iout);     \
    for (size_t i = 0; i < n; i++)                                                      \
      in[i] = RANDOM;                                                                   \
    make_predicates(s, pred, n);                                                        \
    cl_mem bin = test_buffer_with(env, n * sizeof *in, in);                             \
    cl_mem bpred = test_buffer_with(env, n * sizeof *pred, pred);                       \
    cl_mem bout = test_buffer_with(env, NOUT * n * sizeof *out, NULL);                  \
    cl_mem biout = test_buffer_with(env, NIOUT * n * sizeof *iout, NULL);               \
    CHECK_OK(clSetKernelArg(k, 0, sizeof bin, &bin));                                   \
    CHECK_OK(clSetKernelArg(k, 1, sizeof bpred, &bpred));                               \
    CHECK_OK(clSetKernelArg(k, 2, sizeof bout, &bout));                                 \
    CHECK_OK(clSetKernelArg(k, 3, sizeof biout, &biout));                               \
    CHECK_OK(clSetKernelArg(k, 4, s->local[0] * s->local[1] * s->local[2] * sizeof(T),  \
                            NULL));                                                     \
    CHECK_OK(test_run(env, k, s->dims, s->offset, s->global, s->local));                \
    test_read_back(env, bout, NOUT * n * sizeof *out, out);                             \
    test_read_back(env, biout, NIOUT * n * sizeof *iout, iout);                         \
    CHECK(check_##NAME(s, in, pred, out, iout, n) == 0);                                \
    clReleaseMemObject(bin);                                                            \
    clReleaseMemObject(bpred);                                                          \
    clReleaseMemObject(bout);                                                           \
    clReleaseMemObject(biout);                                                          \
    clReleaseKernel(k);                                                                 \
    free(in);                                                                           \
    free(out);                                                                          \
    free(pred);                                                                         \
    free(iout);                                                                         \
  }

#define R64 test_xorshift64(&rng)
/* halves in [-1000, 1000): every sum of a group is exact */
#define RHALF ((double)(int64_t)(R64 % 4000) / 2.0 - 1000.0)
HOST(cl_int, cl_uint, int, INT32_MAX, INT32_MIN, (cl_int)((int64_t)(R64 % (1u << 27)) - (1 << 26)))
HOST(cl_uint, cl_uint, uint, UINT32_MAX, 0, (cl_uint)R64)
HOST(cl_long, cl_ulong, long, INT64_MAX, INT64_MIN,
     (cl_long)(R64 % (1ull << 59)) - (cl_long)(1ull << 58))
HOST(cl_ulong, cl_ulong, ulong, UINT64_MAX, 0, (cl_ulong)R64)
HOST(cl_float, cl_float, float, INFINITY, -INFINITY, (cl_float)RHALF)
HOST(cl_double, cl_double, double, INFINITY, -INFINITY, RHALF)
/* small integers for half: every sum of a group (at most 256 items of at
 * most 16) stays an exact half */
HOST(_Float16, _Float16, half, (_Float16)INFINITY, (_Float16)-INFINITY,
     (_Float16)((int)(R64 % 16) - 8))

static void run_all(struct test_env *env, cl_program p) {
  for (size_t i = 0; i < NSHAPES; i++) {
    const struct shape *s = &shapes[i];
    run_int(env, p, s);
    run_uint(env, p, s);
    run_long(env, p, s);
    run_ulong(env, p, s);
    run_float(env, p, s);
    run_double(env, p, s);
    run_half(env, p, s);
  }
}

/* edge values: extremes of every type, infinities, all-equal groups */
static const char *edge_src =
    "kernel void edge(global int *o, global long *l, global float *f, global int *it) {\n"
    "  size_t i = get_local_id(0);\n"
    "  o[i * 4 + 0] = work_group_reduce_min(i == 5 ? INT_MIN : INT_MAX);\n"
    "  o[i * 4 + 1] = work_group_scan_exclusive_max(i == 0 ? INT_MIN : 3);\n"
    "  o[i * 4 + 2] = work_group_all(i + 1);\n"
    "  o[i * 4 + 3] = work_group_any(0);\n"
    "  int x = (int)(i * 3 % 7), iters = 0;\n" /* a loop whose condition is a collective */
    "  while (work_group_any(x > 0)) { x--; iters++; }\n"
    "  it[i] = iters;\n"
    "  l[i * 2 + 0] = work_group_scan_inclusive_add(i == 0 ? LONG_MAX : 1L);\n"
    "  l[i * 2 + 1] = (long)work_group_scan_exclusive_min((ulong)i + 7);\n"
    "  f[i * 2 + 0] = work_group_scan_exclusive_min(i == 2 ? -INFINITY : 1.0f);\n"
    "  f[i * 2 + 1] = work_group_reduce_max(-INFINITY);\n"
    "}\n";

static void test_edges(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, edge_src, "edge", "-cl-std=CL3.0");
  if (!k)
    return;
  enum { L = 8 };
  int o[L * 4];
  cl_long l[L * 2];
  float f[L * 2];
  cl_mem bo = test_buffer_with(env, sizeof o, NULL), bl = test_buffer_with(env, sizeof l, NULL);
  cl_mem bf = test_buffer_with(env, sizeof f, NULL);
  int iters[L];
  cl_mem bi = test_buffer_with(env, sizeof iters, NULL);
  CHECK_OK(clSetKernelArg(k, 3, sizeof bi, &bi));
  CHECK_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof bl, &bl));
  CHECK_OK(clSetKernelArg(k, 2, sizeof bf, &bf));
  size_t g = L;
  CHECK_OK(test_run(env, k, 1, NULL, &g, &g));
  test_read_back(env, bo, sizeof o, o);
  test_read_back(env, bl, sizeof l, l);
  test_read_back(env, bf, sizeof f, f);
  test_read_back(env, bi, sizeof iters, iters);
  for (int i = 0; i < L; i++) {
    CHECK(o[i * 4 + 0] == INT32_MIN);
    CHECK(o[i * 4 + 1] == (i == 0 ? INT32_MIN : i == 1 ? INT32_MIN : 3));
    CHECK(o[i * 4 + 2] == 1);
    CHECK(o[i * 4 + 3] == 0);
    CHECK(l[i * 2 + 0] == (cl_long)((cl_ulong)INT64_MAX + (cl_ulong)i)); /* wraps */
    CHECK(l[i * 2 + 1] == (i == 0 ? -1 : 7));                        /* ULONG_MAX first */
    CHECK(f[i * 2 + 0] == (i == 0 ? INFINITY : i <= 2 ? 1.0f : -INFINITY));
    CHECK(f[i * 2 + 1] == -INFINITY);
    CHECK(iters[i] == 6); /* the largest i * 3 % 7 */
  }
  clReleaseMemObject(bo);
  clReleaseMemObject(bl);
  clReleaseMemObject(bf);
  clReleaseMemObject(bi);
  clReleaseKernel(k);
}

/* OpenCL C 1.2 has neither the functions nor the feature macro; 3.0 has both */
static const char *feature_src =
    "kernel void f(global int *o) {\n"
    "#ifdef __opencl_c_work_group_collective_functions\n"
    "  o[0] = 1;\n"
    "#else\n"
    "  o[0] = 2;\n"
    "#endif\n"
    "}\n";

static int feature_macro(struct test_env *env, const char *options) {
  cl_kernel k = test_kernel_from(env, feature_src, "f", options);
  if (!k)
    return -1;
  int o = 0;
  cl_mem b = test_buffer_with(env, sizeof o, &o);
  CHECK_OK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t one = 1;
  CHECK_OK(test_run(env, k, 1, NULL, &one, &one));
  test_read_back(env, b, sizeof o, &o);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  return o;
}

static void test_versions(struct test_env *env) {
  CHECK(feature_macro(env, "") == 2);
  CHECK(feature_macro(env, "-cl-std=CL1.2") == 2);
  CHECK(feature_macro(env, "-cl-std=CL3.0") == 1);

  const char *src = "kernel void k(global int *o) { o[0] = work_group_all(o[0]); }\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  CHECK_ERR(clBuildProgram(p, 1, &env->device, "-cl-std=CL1.2", NULL, NULL),
            CL_BUILD_PROGRAM_FAILURE);
  size_t size = 0;
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size));
  char *log = calloc(size + 1, 1);
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, size, log, NULL));
  CHECK(strstr(log, "work_group_all") != NULL);
  free(log);
  clReleaseProgram(p);
}

/* the collectives' scratch is part of the group's __local memory */
static void test_local_mem_size(struct test_env *env) {
  const char *src =
      "kernel void with(global int *o) {\n"
      "  local int t[5];\n"
      "  t[get_local_id(0) % 5] = o[0];\n"
      "  o[get_global_id(0)] = work_group_reduce_add(t[0]);\n"
      "}\n"
      "kernel void without(global int *o) {\n"
      "  local int t[5];\n"
      "  t[get_local_id(0) % 5] = o[0];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = t[0];\n"
      "}\n"
      "kernel void with_arg(global int *o, local int *a) {\n"
      "  local int t[5];\n"
      "  a[get_local_id(0)] = (int)get_local_id(0);\n"
      "  t[get_local_id(0) % 5] = 1;\n"
      "  int s = work_group_scan_inclusive_add(a[get_local_id(0)] + t[0]);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = s + a[(get_local_id(0) + 1) % get_local_size(0)];\n"
      "}\n";
  cl_program p = test_program_from(env, src, "-cl-std=CL3.0");
  if (!p)
    return;
  cl_int err;
  cl_kernel kw = clCreateKernel(p, "with", &err), ko = clCreateKernel(p, "without", &err);
  cl_kernel ka = clCreateKernel(p, "with_arg", &err);
  cl_ulong with = 0, without = 0, with_arg = 0;
  CHECK_OK(clGetKernelWorkGroupInfo(kw, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof with, &with,
                                    NULL));
  CHECK_OK(clGetKernelWorkGroupInfo(ko, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof without,
                                    &without, NULL));
  CHECK(without == 5 * sizeof(cl_int));
  CHECK(with >= without + 3 * sizeof(cl_long)); /* reduce and scan slots */
  /* a __local argument comes after the static part, scratch included */
  enum { G = 64, L = 16 };
  CHECK_OK(clSetKernelArg(ka, 1, L * sizeof(cl_int), NULL));
  CHECK_OK(clGetKernelWorkGroupInfo(ka, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof with_arg,
                                    &with_arg, NULL));
  CHECK(with_arg >= with + L * sizeof(cl_int));
  cl_mem b = test_buffer_with(env, G * sizeof(cl_int), NULL);
  CHECK_OK(clSetKernelArg(ka, 0, sizeof b, &b));
  size_t g = G, l = L;
  CHECK_OK(test_run(env, ka, 1, NULL, &g, &l));
  int out[G];
  test_read_back(env, b, sizeof out, out);
  for (int i = 0; i < G; i++) {
    int lid = i % L;
    CHECK(out[i] == lid * (lid + 1) / 2 + (lid + 1) + (lid + 1) % L);
  }
  clReleaseMemObject(b);
  clReleaseKernel(kw);
  clReleaseKernel(ko);
  clReleaseKernel(ka);
  clReleaseProgram(p);
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  cl_bool support = CL_FALSE;
  CHECK_OK(clGetDeviceInfo(env.device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                           sizeof support, &support, NULL));
  CHECK(support == CL_TRUE);

  cl_program p30 = test_program_from(&env, kernel_src, "-cl-std=CL3.0");
  if (p30) {
    run_all(&env, p30);
    clReleaseProgram(p30);
  }
  /* OpenCL C 2.0 programs have the functions too (fewer types: build time) */
  cl_program p20 = test_program_from(&env, kernel_src, "-cl-std=CL3.0 -DSOME_TYPES");
  if (p20) {
    for (size_t i = 4; i < 7; i++) {
      run_int(&env, p20, &shapes[i]);
      run_double(&env, p20, &shapes[i]);
    }
    clReleaseProgram(p20);
  }
  test_edges(&env);
  test_versions(&env);
  test_local_mem_size(&env);
  test_env_release(&env);
  return test_finish("test_builtins_workgroup");
}
