/* Kernels specialised for their local size (core/variants.c). With
 * LOOMCL_SPECIALIZE=always a kernel with barriers launched a second time
 * with the same local size gets code with the size as constants at that
 * launch. Every launch, before and after, must give the host reference's
 * result: 1D and 2D groups, get_local_size in the kernel, trailing groups of
 * a non-uniform launch (they keep the generic code), a second local size,
 * and programs that must stay generic (writable program-scope variables, no
 * barriers). A kernel with image and sampler arguments, specialised also
 * for its images' formats and its samplers' modes: one variant per format
 * and sampler, each launch right whatever it was specialised for before.
 * Then the default way (verbose): a kernel's first local size compiled at
 * its first launch, later sizes in the background once hot, both codes
 * timed in a trial, the faster kept; results right at every launch on the
 * way; a kernel that fixes its work-group size (reqd_work_group_size), or
 * reads images, compiled at its first launch, its trial settled on the
 * faster code within that launch. Both modes report on stderr, which the
 * test reads back to know what ran. */
#include "harness.h"
#include <unistd.h>

static char *log_path;

/* what LoomCL wrote to stderr since the start (stderr goes to a file) */
static char *stderr_text(void) {
  fflush(stderr);
  FILE *f = fopen(log_path, "rb");
  if (!f)
    return strdup("");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = calloc((size_t)n + 1, 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n)
    s[0] = 0;
  fclose(f);
  return s;
}

static unsigned times_logged(const char *what) {
  char *s = stderr_text();
  unsigned n = 0;
  for (const char *at = strstr(s, what); at; at = strstr(at + 1, what))
    n++;
  free(s);
  return n;
}

static bool logged(const char *what) { return times_logged(what) > 0; }

/* tree sum of each group, written by its first work-item, plus every item's
 * local size so that a wrong constant shows */
static const char *reduce_src =
    "kernel void reduce(global int *o, global const int *in, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = in[get_global_id(0)];\n"
    "  for (size_t s = (n + 1) / 2, m = n; m > 1; m = s, s = (s + 1) / 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < m - s) t[l] += t[l + s];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = l == 0 ? t[0] : (int)n;\n"
    "}\n";

static void want_reduce(const int *in, size_t g, size_t L, int *want) {
  for (size_t base = 0; base < g; base += L) {
    size_t n = g - base < L ? g - base : L;
    int sum = 0;
    for (size_t i = 0; i < n; i++)
      sum += in[base + i];
    for (size_t i = 0; i < n; i++)
      want[base + i] = i == 0 ? sum : (int)n;
  }
}

static void run_reduce(struct test_env *env, cl_kernel k, const int *in, size_t g, size_t L,
                       const char *what) {
  int *want = malloc(g * sizeof *want);
  want_reduce(in, g, L, want);
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  int *got = test_run_io(env, k, in, g, L);
  CHECK(got && test_count_diff(got, want, g, what) == 0);
  free(got);
  free(want);
}

static void test_1d(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, reduce_src, "reduce", "-cl-std=CL3.0");
  if (!k)
    return;
  enum { G = 4096 };
  int in[G];
  test_pattern(in, G, 3);
  run_reduce(env, k, in, G, 64, "reduce 64, first launch");
  CHECK(!logged("kernel reduce specialised for local size 64x1x1"));
  run_reduce(env, k, in, G, 64, "reduce 64, second launch");
  CHECK(logged("kernel reduce specialised for local size 64x1x1"));
  run_reduce(env, k, in, G, 64, "reduce 64, third launch");
  /* the same local size with a trailing partial group: the full groups run
   * the specialised code, the last one the generic code */
  run_reduce(env, k, in, 1000, 64, "reduce 64, non-uniform");
  /* another local size gets its own code */
  run_reduce(env, k, in, G, 48, "reduce 48, first launch");
  run_reduce(env, k, in, G, 48, "reduce 48, second launch");
  CHECK(logged("kernel reduce specialised for local size 48x1x1"));
  run_reduce(env, k, in, 1000, 48, "reduce 48, non-uniform");
  run_reduce(env, k, in, G, 64, "reduce 64, again");
  clReleaseKernel(k);
}

/* An inclusive scan of each group (Hillis-Steele: two barriers a step, the
 * value read before the second live across it). Specialised, the loop over
 * the steps is unrolled (workgroup/spec_unroll.c): each step's value gets
 * its own slot, so the specialised code needs more scratch than the
 * generic code, and the launch must give it that much. (The result read
 * after the loop moves to its slot and back by memcpy: under
 * AddressSanitizer a slot past the scratch shows; the kernel's own stores
 * are not instrumented.) */
static void test_unrolled_scan(struct test_env *env) {
  static const char *src =
      "kernel void scan(global int *o, global const int *in, local int *t) {\n"
      "  uint l = get_local_id(0), n = get_local_size(0);\n"
      "  t[l] = in[get_global_id(0)];\n"
      "  for (uint off = 1; off < n; off <<= 1) {\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    int x = l >= off ? t[l - off] : 0;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    t[l] += x;\n"
      "  }\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int r = t[l];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = r;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "scan", "");
  if (!k)
    return;
  enum { G = 4096 };
  int in[G], want[G];
  test_pattern(in, G, 5);
  static const size_t sizes[] = {64, 256, 64};
  for (int i = 0; i < 3; i++) {
    size_t L = sizes[i];
    for (size_t g = 0; g < G; g++)
      want[g] = (g % L ? want[g - 1] : 0) + in[g];
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    for (int launch = 0; launch < 3; launch++) {
      int *got = test_run_io(env, k, in, G, L);
      char what[64];
      snprintf(what, sizeof what, "scan %zu, launch %d", L, launch + 1);
      CHECK(got && test_count_diff(got, want, G, what) == 0);
      free(got);
    }
  }
  CHECK(logged("kernel scan specialised for local size 64x1x1"));
  CHECK(logged("kernel scan specialised for local size 256x1x1"));
  clReleaseKernel(k);
}

/* 2D groups through a local tile: out = transpose of in, plus the sizes */
static void test_2d(struct test_env *env) {
  static const char *src =
      "kernel void tr(global int *o, global const int *in, int n) {\n"
      "  local int tile[8][17];\n"
      "  int lx = get_local_id(0), ly = get_local_id(1);\n"
      "  int gx = get_group_id(0) * get_local_size(0), gy = get_group_id(1) * get_local_size(1);\n"
      "  tile[ly][lx] = in[(gy + ly) * n + gx + lx];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[(gy + ly) * n + gx + lx] = tile[ly][lx] * 3 + (int)get_local_size(0) * 1000;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "tr", NULL);
  if (!k)
    return;
  enum { N = 64 };
  int in[N * N], want[N * N], got[N * N];
  test_pattern(in, N * N, 5);
  for (int i = 0; i < N * N; i++)
    want[i] = in[i] * 3 + 16 * 1000;
  cl_mem mi = test_buffer_with(env, sizeof in, in), mo = test_buffer_with(env, sizeof got, NULL);
  int n = N;
  CHECK_OK(clSetKernelArg(k, 0, sizeof mo, &mo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof mi, &mi));
  CHECK_OK(clSetKernelArg(k, 2, sizeof n, &n));
  size_t global[2] = {N, N}, local[2] = {16, 8};
  for (int launch = 0; launch < 3; launch++) {
    memset(got, 0, sizeof got);
    CHECK_OK(test_run(env, k, 2, NULL, global, local));
    test_read_back(env, mo, sizeof got, got);
    CHECK(test_count_diff(got, want, N * N, "2D tile") == 0);
  }
  CHECK(logged("kernel tr specialised for local size 16x8x1"));
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
}

/* A specialisation builds one kernel: the program's other kernels return at
 * once in that build (pipeline.c, empty_other_kernels), except a kernel the
 * specialised one calls, which must keep its body. */
static void test_other_kernels(struct test_env *env) {
  static const char *src =
      "kernel void scale(global int *o) { o[get_global_id(0)] *= 7; }\n"
      "kernel void unused(global int *o) { o[get_global_id(0)] = -1; }\n"
      "kernel void shifted(global int *o, global const int *in, local int *t) {\n"
      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
      "  t[l] = in[get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = t[(l + 1) % n];\n"
      "  scale(o);\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "shifted", NULL);
  if (!k)
    return;
  enum { N = 128, L = 32 };
  int in[N], want[N], got[N];
  test_pattern(in, N, 3);
  for (int i = 0; i < N; i++)
    want[i] = in[i - i % L + (i % L + 1) % L] * 7;
  cl_mem mi = test_buffer_with(env, sizeof in, in), mo = test_buffer_with(env, sizeof got, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof mo, &mo));
  CHECK_OK(clSetKernelArg(k, 1, sizeof mi, &mi));
  CHECK_OK(clSetKernelArg(k, 2, sizeof(int) * L, NULL));
  size_t global = N, local = L;
  for (int launch = 0; launch < 3; launch++) {
    memset(got, 0, sizeof got);
    CHECK_OK(test_run(env, k, 1, NULL, &global, &local));
    test_read_back(env, mo, sizeof got, got);
    CHECK(test_count_diff(got, want, N, "kernel calling a kernel") == 0);
  }
  CHECK(logged("kernel shifted specialised for local size 32x1x1"));
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
}

/* each copy of the code would have its own copy of the variable: such a
 * program keeps its one generic function, and its state */
static void test_program_variable(struct test_env *env) {
  static const char *src = "global int launches;\n"
                           "kernel void count(global int *o, global const int *in, local int *t) {\n"
                           "  size_t l = get_local_id(0);\n"
                           "  t[l] = in[get_global_id(0)];\n"
                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  if (get_global_id(0) == 0) launches++;\n"
                           "  o[get_global_id(0)] = t[get_local_size(0) - 1 - l] + launches * 0;\n"
                           "}\n"
                           "kernel void get(global int *o) { o[0] = launches; }\n";
  cl_program p = test_program_from(env, src, "-cl-std=CL3.0");
  if (!p)
    return;
  cl_int err, err_get;
  cl_kernel k = clCreateKernel(p, "count", &err), kg = clCreateKernel(p, "get", &err_get);
  CHECK_OK(err);
  CHECK_OK(err_get);
  if (!k || !kg) {
    clReleaseProgram(p);
    return;
  }
  enum { G = 256, L = 32 };
  int in[G];
  test_pattern(in, G, 7);
  for (int launch = 0; launch < 3; launch++) {
    CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    int *got = test_run_io(env, k, in, G, L);
    int bad = 0;
    for (size_t i = 0; got && i < G; i++)
      bad += got[i] != in[(i / L) * L + L - 1 - i % L];
    CHECK(got && bad == 0);
    free(got);
  }
  CHECK(logged("kernel count not specialised for local size 32x1x1"));
  int launches = -1;
  cl_mem mo = test_buffer_with(env, sizeof launches, NULL);
  CHECK_OK(clSetKernelArg(kg, 0, sizeof mo, &mo));
  size_t one = 1;
  CHECK_OK(test_run(env, kg, 1, NULL, &one, &one));
  test_read_back(env, mo, sizeof launches, &launches);
  CHECK(launches == 3);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
  clReleaseKernel(kg);
  clReleaseProgram(p);
}

/* a kernel without barriers keeps its generic code */
static void test_no_barrier(struct test_env *env) {
  cl_kernel k = test_kernel_from(
      env, "kernel void twice(global int *o, global const int *in) {\n"
           "  o[get_global_id(0)] = 2 * in[get_global_id(0)] + (int)get_local_size(0);\n"
           "}\n",
      "twice", NULL);
  if (!k)
    return;
  enum { G = 512 };
  int in[G], want[G];
  test_pattern(in, G, 9);
  for (int i = 0; i < G; i++)
    want[i] = 2 * in[i] + 64;
  for (int launch = 0; launch < 3; launch++) {
    int *got = test_run_io(env, k, in, G, 64);
    CHECK(got && test_count_diff(got, want, G, "twice") == 0);
    free(got);
  }
  CHECK(!logged("kernel twice"));
  clReleaseKernel(k);
}

/* Reads pixel (x - 1, y) of a 2D image through a sampler for every
 * work-item; out of the image on the left. */
static const char *image_src =
    "kernel void peek(read_only image2d_t img, sampler_t s, global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * get_global_size(0) + x] = read_imagef(img, s, (int2)(x - 1, y));\n"
    "}\n";

enum { IMG_W = 16, IMG_H = 4 };

/* one launch of peek on img with sampler s; want: the host's reading */
static void run_peek(struct test_env *env, cl_kernel k, cl_mem img, cl_sampler smp,
                     const float *want, const char *what) {
  cl_mem out = test_buffer_with(env, IMG_W * IMG_H * 4 * sizeof(float), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK_OK(clSetKernelArg(k, 1, sizeof smp, &smp));
  CHECK_OK(clSetKernelArg(k, 2, sizeof out, &out));
  size_t g[2] = {IMG_W, IMG_H}, l[2] = {8, 2};
  CHECK_OK(test_run(env, k, 2, NULL, g, l));
  float got[IMG_W * IMG_H * 4];
  test_read_back(env, out, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < IMG_W * IMG_H * 4; i++)
    bad += got[i] != want[i];
  if (bad)
    fprintf(stdout, "%s: %d values differ\n", what, bad);
  CHECK(bad == 0);
  clReleaseMemObject(out);
}

/* the host's reading of peek: pixel (x - 1, y), the border colour (alpha
 * 0 for CL_RGBA, 1 for CL_R) or the edge for x = 0 */
static void want_peek(const unsigned char *rgba8, const float *r, bool clamp_to_edge,
                      float *want) {
  for (int y = 0; y < IMG_H; y++)
    for (int x = 0; x < IMG_W; x++) {
      int sx = x - 1 < 0 && clamp_to_edge ? 0 : x - 1;
      float *w = want + (y * IMG_W + x) * 4;
      for (int c = 0; c < 4; c++) {
        if (sx < 0)
          w[c] = r && c == 3 ? 1.0f : 0.0f;
        else if (rgba8)
          w[c] = (float)rgba8[(y * IMG_W + sx) * 4 + c] / 255.0f;
        else
          w[c] = c == 0 ? r[y * IMG_W + sx] : c == 3 ? 1.0f : 0.0f;
      }
    }
}

/* an IMG_W x IMG_H 2D image of `f` holding `data` */
static cl_mem peek_image(struct test_env *env, cl_image_format f, void *data) {
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = IMG_W;
  d.image_height = IMG_H;
  cl_int err;
  cl_mem img = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, data, &err);
  CHECK_OK(err);
  return img;
}

/* an unnormalised sampler with addressing mode `mode` */
static cl_sampler peek_sampler(struct test_env *env, cl_addressing_mode mode) {
  const cl_sampler_properties p[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                     CL_SAMPLER_ADDRESSING_MODE, mode, 0};
  cl_int err;
  cl_sampler s = clCreateSamplerWithProperties(env->context, p, &err);
  CHECK_OK(err);
  return s;
}

static void test_images(struct test_env *env) {
  cl_kernel k = test_kernel_from(env, image_src, "peek", NULL);
  if (!k)
    return;
  unsigned char rgba8[IMG_W * IMG_H * 4];
  float r[IMG_W * IMG_H];
  for (int i = 0; i < IMG_W * IMG_H * 4; i++)
    rgba8[i] = (unsigned char)(i * 37 + 11);
  for (int i = 0; i < IMG_W * IMG_H; i++)
    r[i] = (float)i * 0.25f - 3.0f;
  cl_mem img8 = peek_image(env, (cl_image_format){CL_RGBA, CL_UNORM_INT8}, rgba8);
  cl_mem imgf = peek_image(env, (cl_image_format){CL_R, CL_FLOAT}, r);
  cl_sampler edge = peek_sampler(env, CL_ADDRESS_CLAMP_TO_EDGE);
  cl_sampler border = peek_sampler(env, CL_ADDRESS_CLAMP);
  if (!img8 || !imgf || !edge || !border)
    return;
  static float want8e[IMG_W * IMG_H * 4], want8b[IMG_W * IMG_H * 4];
  static float wantfe[IMG_W * IMG_H * 4], wantfb[IMG_W * IMG_H * 4];
  want_peek(rgba8, NULL, true, want8e);
  want_peek(rgba8, NULL, false, want8b);
  want_peek(NULL, r, true, wantfe);
  want_peek(NULL, r, false, wantfb);
  /* each combination twice (the second launch is specialised), then the
   * first again: its variant must still be the one it gets */
  for (int round = 0; round < 2; round++) {
    run_peek(env, k, img8, edge, want8e, "RGBA8, clamp to edge");
    run_peek(env, k, img8, edge, want8e, "RGBA8, clamp to edge, second");
    run_peek(env, k, imgf, edge, wantfe, "R float, clamp to edge");
    run_peek(env, k, imgf, edge, wantfe, "R float, clamp to edge, second");
    run_peek(env, k, img8, border, want8b, "RGBA8, clamp");
    run_peek(env, k, img8, border, want8b, "RGBA8, clamp, second");
    run_peek(env, k, imgf, border, wantfb, "R float, clamp");
    run_peek(env, k, imgf, border, wantfb, "R float, clamp, second");
  }
  CHECK(logged("kernel peek specialised for local size 8x2x1 and its image and sampler arguments"));
  clReleaseSampler(edge);
  clReleaseSampler(border);
  clReleaseMemObject(img8);
  clReleaseMemObject(imgf);
  clReleaseKernel(k);
}



/* the groups each code ran in the trial logged after `prefix` */
static bool trial_groups(const char *prefix, unsigned long long timed[2]) {
  char *s = stderr_text();
  const char *at = strstr(s, prefix);
  const char *open = at ? strchr(at, '(') : NULL;
  bool ok = open && sscanf(open, "(%llu and %llu groups timed)", &timed[0], &timed[1]) == 2;
  free(s);
  return ok;
}

/* verbose, with a disk cache of its own: the specialised code of an earlier
 * run would be loaded at the first launch */
struct own_cache {
  char dir[32];
  const char *prev;
};

static bool own_cache_begin(struct own_cache *c) {
  strcpy(c->dir, "/tmp/loomcl-spec-cache-XXXXXX");
  if (!mkdtemp(c->dir)) {
    CHECK(!"mkdtemp");
    return false;
  }
  c->prev = getenv("LOOMCL_CACHE_DIR");
  test_set_config("LOOMCL_CACHE_DIR", c->dir);
  test_set_config("LOOMCL_SPECIALIZE", "verbose");
  return true;
}

static void own_cache_end(struct own_cache *c) {
  test_set_config("LOOMCL_SPECIALIZE", NULL);
  test_set_config("LOOMCL_CACHE_DIR", c->prev);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", c->dir);
  CHECK(system(cmd) == 0);
}

/* kernel `name` of src, built in a cache of its own with verbose
 * specialisation (own_cache_begin); NULL, and the cache ended, on failure */
static cl_kernel own_cache_kernel(struct test_env *env, struct own_cache *c, const char *src,
                                  const char *name, const char *options) {
  if (!own_cache_begin(c))
    return NULL;
  cl_kernel k = test_kernel_from(env, src, name, options);
  if (!k)
    own_cache_end(c);
  return k;
}

/* the default: a kernel's first launch gets its code for its local size
 * (compiled in that launch, the trial within it); no later launch waits: the
 * specialisation for another local size, missing in the disk cache, is
 * compiled in the background only once the kernel has run long enough at
 * that size (HOT_NS in variants.c): short launches leave it alone, long
 * ones start it, and the trial ends with a choice, logged */
static void test_background(struct test_env *env) {
  struct own_cache own;
  cl_kernel k = own_cache_kernel(env, &own, reduce_src, "reduce", "-cl-std=CL1.2");
  if (!k)
    return;
  enum { SHORT = 4096, LONG = 1 << 19, L = 128 };
  int *in = malloc(LONG * sizeof *in);
  test_pattern(in, LONG, 11);
  static const char first[] = "kernel reduce specialised for local size 64x1x1";
  unsigned before = times_logged(first);
  run_reduce(env, k, in, SHORT, 64, "reduce 64, first launch");
  CHECK(times_logged(first) == before + 1);
  run_reduce(env, k, in, SHORT, 64, "reduce 64, second launch");
  for (int launch = 0; launch < 20; launch++)
    run_reduce(env, k, in, SHORT, L, "reduce 128, short launch");
  usleep(200000); /* time for a compilation, had one started */
  CHECK(!logged("kernel reduce specialised for local size 128x1x1"));
  bool chosen = false;
  /* the compilation runs beside the launches: give it time between them
   * (at most about 60 s: on a loaded 2-core machine 20 s were not enough) */
  for (int launch = 0; launch < 1200 && !chosen; launch++) {
    char what[64];
    snprintf(what, sizeof what, "reduce %d, background, launch %d", L, launch);
    run_reduce(env, k, in, LONG, L, what);
    chosen = logged("kernel reduce for local size 128x1x1: specialised");
    if (!chosen)
      usleep(launch < 100 ? 1000 : 50000);
  }
  CHECK(logged("kernel reduce specialised for local size 128x1x1"));
  CHECK(chosen);
  for (int launch = 0; launch < 3; launch++)
    run_reduce(env, k, in, LONG, L, "reduce 128, after the trial");
  free(in);
  clReleaseKernel(k);
  own_cache_end(&own);
}

/* a kernel that fixes its work-group size gets its code for that size at
 * its first launch (the trial follows within it), even a short launch; the
 * trailing group of a non-uniform launch keeps the generic code */
static void test_required_size(struct test_env *env) {
  char *src = malloc(strlen(reduce_src) + 64);
  strcpy(src, "__attribute__((reqd_work_group_size(36, 1, 1))) ");
  strcat(src, reduce_src);
  struct own_cache own;
  cl_kernel k = own_cache_kernel(env, &own, src, "reduce", "-cl-std=CL3.0");
  free(src);
  if (!k)
    return;
  enum { GROUPS = 20000, N = 36 * GROUPS, L = 36 };
  static int in[N];
  test_pattern(in, N, 5);
  CHECK(!logged("kernel reduce specialised for local size 36x1x1"));
  run_reduce(env, k, in, N, L, "reduce 36 required, first launch");
  CHECK(logged("kernel reduce specialised for local size 36x1x1"));
  CHECK(logged("kernel reduce for local size 36x1x1: specialised"));
  /* the trial settled within the launch (both codes timed for 2 ms
   * together, or 4096 groups of each where groups take under 250 ns): most
   * groups ran untimed */
  unsigned long long timed[2] = {0, 0};
  CHECK(trial_groups("kernel reduce for local size 36x1x1:", timed));
  CHECK(timed[0] >= 16 && timed[1] >= 16 && timed[0] + timed[1] < GROUPS / 2);
  for (int launch = 0; launch < 2; launch++)
    run_reduce(env, k, in, N, L, "reduce 36 required, after the trial");
  run_reduce(env, k, in, N - 13, L, "reduce 36 required, non-uniform");
  clReleaseKernel(k);
  own_cache_end(&own);
}

/* a kernel reading images gets its code for its first launch's formats in
 * that launch (its generic code dispatches on them for every pixel), and
 * the trial follows within it */
static void test_image_first_launch(struct test_env *env) {
  struct own_cache own;
  if (!own_cache_begin(&own))
    return;
  cl_kernel k = test_kernel_from(env, image_src, "peek", NULL);
  static float r[IMG_W * IMG_H], want[IMG_W * IMG_H * 4];
  for (int i = 0; i < IMG_W * IMG_H; i++)
    r[i] = (float)i * 0.5f + 1.0f;
  cl_mem img = peek_image(env, (cl_image_format){CL_R, CL_FLOAT}, r);
  cl_sampler edge = peek_sampler(env, CL_ADDRESS_CLAMP_TO_EDGE);
  if (k && img && edge) {
    want_peek(NULL, r, true, want);
    static const char done[] = "kernel peek specialised for local size 8x2x1 and its image and sampler arguments";
    unsigned before = times_logged(done);
    run_peek(env, k, img, edge, want, "R float, clamp to edge, first launch");
    CHECK(times_logged(done) == before + 1);
    run_peek(env, k, img, edge, want, "R float, clamp to edge, second launch");
  }
  if (edge)
    clReleaseSampler(edge);
  if (img)
    clReleaseMemObject(img);
  if (k)
    clReleaseKernel(k);
  own_cache_end(&own);
}

/* An application that enqueues many launches before the first completes
 * (PyOpenCL's scan: 32 in a row) still gets a trial of TRIAL_GROUPS groups
 * of each code: the trial counts launches as they complete. Before, it
 * counted them as they were enqueued and decided, at the first completion,
 * on that launch's two groups of each code. Each group here takes about a
 * millisecond, so the queue is full long before the first launch ends. */
static void test_trial_queued_launches(struct test_env *env) {
  static const char *src =
      "kernel void slow(global int *o, global const int *in, local int *t) {\n"
      "  uint l = get_local_id(0);\n"
      "  int x = in[get_global_id(0)];\n"
      "  for (int i = 0; i < 20000; i++) x = x * 1103515245 + 12345;\n"
      "  t[l] = x;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n"
      "}\n";
  struct own_cache own;
  cl_kernel k = own_cache_kernel(env, &own, src, "slow", "");
  if (!k)
    return;
  enum { L = 64, G = 4 * L, LAUNCHES = 40 };
  int in[G], want[G], got[G];
  test_pattern(in, G, 9);
  for (int g = 0; g < G; g++) {
    int mirror = g - g % L + (L - 1 - g % L);
    unsigned x = (unsigned)in[mirror];
    for (int i = 0; i < 20000; i++)
      x = x * 1103515245u + 12345u;
    want[g] = (int)x;
  }
  cl_mem out = test_buffer_with(env, sizeof got, NULL);
  cl_mem inb = test_buffer_with(env, sizeof in, in);
  CHECK_OK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_OK(clSetKernelArg(k, 1, sizeof inb, &inb));
  CHECK_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  size_t global = G, local = L;
  for (int i = 0; i < LAUNCHES; i++)
    CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  test_read_back(env, out, sizeof got, got);
  CHECK(test_count_diff(got, want, G, "slow, queued launches") == 0);
  unsigned long long timed[2] = {0, 0};
  CHECK(trial_groups("kernel slow for local size 64x1x1:", timed));
  CHECK(timed[0] >= 16 && timed[1] >= 16);
  clReleaseMemObject(out);
  clReleaseMemObject(inb);
  clReleaseKernel(k);
  own_cache_end(&own);
}

int main(void) {
  /* specialised at the second launch, deterministically */
  setenv("LOOMCL_SPECIALIZE", "always", 1);
  char path[] = "/tmp/loomcl-test-specialize-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) {
    perror("stderr to a file");
    return 1;
  }
  log_path = path;
  struct test_env env;
  test_env_init(&env);
  test_unrolled_scan(&env); /* first: the workers' scratch not yet grown */
  test_1d(&env);
  test_2d(&env);
  test_other_kernels(&env);
  test_program_variable(&env);
  test_no_barrier(&env);
  test_images(&env);
  test_background(&env);
  test_required_size(&env);
  test_image_first_launch(&env);
  test_trial_queued_launches(&env);
  test_env_release(&env);
  char *text = stderr_text();
  unlink(path);
  /* stderr is the file: report on stdout */
  printf("%s", text);
  printf("%d checks, %d failures\n", test_checks, test_failures);
  free(text);
  return test_failures ? 1 : 0;
}
