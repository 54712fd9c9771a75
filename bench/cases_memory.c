/* Memory-bound cases: STREAM copy and triad, saxpy, transpose through local
 * memory, tree reduction, prefix scan, histograms. Their limit is the
 * machine's STREAM-triad bandwidth; bytes count what the kernel must read
 * and write (no write-allocate traffic), as STREAM does. */
#include "suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *memory_source =
    "kernel void copy(global const float *a, global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i];\n"
    "}\n"
    "kernel void triad(global float *a, global const float *b, global const float *c,\n"
    "                  float s) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = b[i] + s * c[i];\n"
    "}\n"
    "kernel void saxpy(global float *y, global const float *x, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n"
    "#define T 16\n"
    "kernel void transpose(global const float *in, global float *out, int n) {\n"
    "  local float tile[T][T + 1];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  int gx = get_group_id(0) * T, gy = get_group_id(1) * T;\n"
    "  tile[ly][lx] = in[(gy + ly) * n + gx + lx];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[(gx + ly) * n + gy + lx] = tile[lx][ly];\n"
    "}\n"
    /* classic tree: halve the active work-items every step */
    /* inclusive scan of one work-group's block (Hillis-Steele in local memory);
     * *total gets the block's sum */
    "uint group_scan(uint x, local uint *tmp, uint *total) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = x;\n"
    "  for (uint off = 1; off < n; off <<= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uint t = l >= off ? tmp[l - off] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    tmp[l] += t;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint r = tmp[l];\n"
    "  *total = tmp[n - 1];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  return r;\n"
    "}\n"
    "kernel void scan_blocks(global const uint *in, global uint *out, global uint *sums,\n"
    "                        local uint *tmp) {\n"
    "  uint total;\n"
    "  out[get_global_id(0)] = group_scan(in[get_global_id(0)], tmp, &total);\n"
    "  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;\n"
    "}\n"
    /* second pass: one work-group turns the block sums into exclusive offsets */
    "kernel void scan_sums(global uint *sums, uint count, local uint *tmp) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0), carry = 0;\n"
    "  for (uint base = 0; base < count; base += n) {\n"
    "    uint x = base + l < count ? sums[base + l] : 0, total;\n"
    "    uint r = group_scan(x, tmp, &total);\n"
    "    if (base + l < count) sums[base + l] = carry + r - x;\n"
    "    carry += total;\n"
    "  }\n"
    "}\n"
    "kernel void add_offsets(global uint *out, global const uint *offsets) {\n"
    "  out[get_global_id(0)] += offsets[get_group_id(0)];\n"
    "}\n"
    /* each work-item counts ITEMS bytes, strided so that loads stay coalesced */
    "#define ITEMS 16\n"
    "kernel void hist_global(global const uchar *in, global uint *hist) {\n"
    "  size_t base = get_group_id(0) * get_local_size(0) * ITEMS + get_local_id(0);\n"
    "  for (int i = 0; i < ITEMS; i++)\n"
    "    atomic_inc(&hist[in[base + i * get_local_size(0)]]);\n"
    "}\n"
    "kernel void hist_local(global const uchar *in, global uint *hist) {\n"
    "  local uint h[256];\n"
    "  for (size_t b = get_local_id(0); b < 256; b += get_local_size(0)) h[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  size_t base = get_group_id(0) * get_local_size(0) * ITEMS + get_local_id(0);\n"
    "  for (int i = 0; i < ITEMS; i++)\n"
    "    atomic_inc(&h[in[base + i * get_local_size(0)]]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t b = get_local_id(0); b < 256; b += get_local_size(0))\n"
    "    if (h[b]) atomic_add(&hist[b], h[b]);\n"
    "}\n";

enum { LOCAL = 256 };

static struct instance *open_memory(struct platform_env *env, const char *const *kernels) {
  return bench_open_instance(env, memory_source, NULL, kernels);
}

/* ---- STREAM copy / triad, saxpy: three float arrays ---- */
struct stream_host {
  size_t n;
  float *a, *b, *c; /* inputs */
  float scalar;
  int repeat;
};

static void *stream_prepare(bool quick, struct case_work *w, int arrays_moved) {
  struct stream_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 20 : (size_t)32 << 20; /* 128 MiB per array */
  h->repeat = quick ? 1 : 4;
  h->scalar = 3.0f;
  h->a = bench_alloc(h->n * sizeof(float));
  h->b = bench_alloc(h->n * sizeof(float));
  h->c = bench_alloc(h->n * sizeof(float));
  unsigned seed = 12345;
  for (size_t i = 0; i < h->n; i++) {
    h->a[i] = bench_randf(&seed, -1, 1);
    h->b[i] = bench_randf(&seed, -1, 1);
    h->c[i] = bench_randf(&seed, -1, 1);
  }
  *w = (struct case_work){.amount = (double)arrays_moved * h->n * sizeof(float) * h->repeat,
                          .scale = 1e9,
                          .unit = "GB/s"};
  return h;
}

static void stream_release(void *p) {
  struct stream_host *h = p;
  free(h->a);
  free(h->b);
  free(h->c);
  free(h);
}

static void *copy_prepare(bool quick, struct case_work *w) { return stream_prepare(quick, w, 2); }
static void *triad_prepare(bool quick, struct case_work *w) { return stream_prepare(quick, w, 3); }

/* buffers: 0 = a, 1 = b, 2 = c (initialised from the host arrays), and the
 * launch of kernel 0 over the arrays */
static bool stream_buffers(struct instance *in, const struct stream_host *h) {
  size_t bytes = h->n * sizeof(float);
  in->buffers[0] = bench_buffer(in->env, bytes, h->a);
  in->buffers[1] = bench_buffer(in->env, bytes, h->b);
  in->buffers[2] = bench_buffer(in->env, bytes, h->c);
  if (!in->buffers[0] || !in->buffers[1] || !in->buffers[2])
    return false;
  in->repeat = h->repeat;
  size_t g = h->n, l = LOCAL;
  bench_add_launch(in, 0, 1, &g, &l);
  return true;
}

static struct instance *stream_open(struct platform_env *env, struct stream_host *h,
                                    const char *kernel) {
  const char *names[] = {kernel, NULL};
  struct instance *in = open_memory(env, names);
  if (in && !stream_buffers(in, h)) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

static struct instance *copy_open(struct platform_env *env, void *host) {
  struct instance *in = stream_open(env, host, "copy");
  if (in && !bench_args(in, 0, "bb", 1, 2)) { /* c = b */
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

static bool copy_check(struct instance *in, void *host) {
  struct stream_host *h = host;
  float *got = bench_alloc(h->n * sizeof(float));
  bool ok = bench_read(in, 2, got, h->n * sizeof(float)) &&
            bench_close_f(got, h->b, h->n, 0, 0);
  free(got);
  return ok;
}

static struct instance *triad_open(struct platform_env *env, void *host) {
  struct stream_host *h = host;
  struct instance *in = stream_open(env, host, "triad");
  if (in && !bench_args(in, 0, "bbbf", 0, 1, 2, (double)h->scalar)) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

static bool triad_check(struct instance *in, void *host) {
  struct stream_host *h = host;
  float *got = bench_alloc(h->n * sizeof(float)), *want = bench_alloc(h->n * sizeof(float));
  for (size_t i = 0; i < h->n; i++)
    want[i] = h->b[i] + h->scalar * h->c[i];
  bool ok = bench_read(in, 0, got, h->n * sizeof(float)) &&
            bench_close_f(got, want, h->n, 1e-6, 1e-6);
  free(got);
  free(want);
  return ok;
}

/* saxpy updates y in place, `repeat` times per run, so y is restored (untimed)
 * before every run: buffer 0 = y, 1 = x (b), 2 = the initial y (c), copied to
 * 0 by bench_saxpy_reset. spirv_saxpy (cases_svm.c) runs the same steps on
 * the kernel built from SPIR-V. */
bool bench_saxpy_setup(struct instance *in, void *host) {
  struct stream_host *h = host;
  return stream_buffers(in, h) && bench_args(in, 0, "bbf", 0, 1, (double)h->scalar);
}

static struct instance *saxpy_open(struct platform_env *env, void *host) {
  const char *names[] = {"saxpy", NULL};
  struct instance *in = open_memory(env, names);
  if (in && !bench_saxpy_setup(in, host)) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

void *bench_saxpy_prepare(bool quick, struct case_work *w) {
  struct stream_host *h = stream_prepare(quick, w, 3);
  h->scalar = 0.75f;
  return h;
}

void bench_saxpy_release(void *host) { stream_release(host); }

bool bench_saxpy_reset(struct instance *in, void *host) {
  struct stream_host *h = host;
  cl_int err = clEnqueueCopyBuffer(in->env->queue, in->buffers[2], in->buffers[0], 0, 0,
                                   h->n * sizeof(float), 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(in->env->queue);
  return err == CL_SUCCESS;
}

bool bench_saxpy_check(struct instance *in, void *host) {
  struct stream_host *h = host;
  float *got = bench_alloc(h->n * sizeof(float)), *want = bench_alloc(h->n * sizeof(float));
  for (size_t i = 0; i < h->n; i++) {
    want[i] = h->c[i];
    for (int r = 0; r < h->repeat; r++)
      want[i] = h->scalar * h->b[i] + want[i];
  }
  /* a device may fuse the multiply-add: a few ulp per pass */
  bool ok = bench_read(in, 0, got, h->n * sizeof(float)) &&
            bench_close_f(got, want, h->n, 1e-6 * h->repeat, 1e-6 * h->repeat);
  free(got);
  free(want);
  return ok;
}

/* ---- transpose: n x n floats through a local tile ---- */
struct matrix_host {
  int n;
  float *in;
  int repeat;
};

static void *transpose_prepare(bool quick, struct case_work *w) {
  struct matrix_host *h = calloc(1, sizeof *h);
  h->n = quick ? 256 : 4096;
  h->repeat = quick ? 1 : 6;
  size_t count = (size_t)h->n * h->n;
  h->in = bench_alloc(count * sizeof(float));
  for (size_t i = 0; i < count; i++)
    h->in[i] = (float)i;
  *w = (struct case_work){.amount = 2.0 * count * sizeof(float) * h->repeat,
                          .scale = 1e9,
                          .unit = "GB/s"};
  return h;
}

static void matrix_release(void *p) {
  struct matrix_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *transpose_open(struct platform_env *env, void *host) {
  struct matrix_host *h = host;
  const char *names[] = {"transpose", NULL};
  struct instance *in = open_memory(env, names);
  if (!in)
    return NULL;
  size_t bytes = (size_t)h->n * h->n * sizeof(float);
  in->buffers[0] = bench_buffer(env, bytes, h->in);
  in->buffers[1] = bench_buffer(env, bytes, NULL);
  if (!in->buffers[0] || !in->buffers[1] || !bench_args(in, 0, "bbi", 0, 1, h->n)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g[2] = {(size_t)h->n, (size_t)h->n}, l[2] = {16, 16};
  bench_add_launch(in, 0, 2, g, l);
  in->repeat = h->repeat;
  return in;
}

static bool transpose_check(struct instance *in, void *host) {
  struct matrix_host *h = host;
  size_t n = (size_t)h->n;
  float *got = bench_alloc(n * n * sizeof(float));
  bool ok = bench_read(in, 1, got, n * n * sizeof(float));
  for (size_t r = 0; ok && r < n; r++)
    for (size_t c = 0; c < n; c++)
      if (got[r * n + c] != h->in[c * n + r]) {
        fprintf(stderr, "    transpose mismatch at (%zu, %zu)\n", r, c);
        ok = false;
        break;
      }
  free(got);
  return ok;
}

/* ---- prefix scan: block scans, a scan of the block sums, offsets ---- */
struct scan_host {
  size_t n;
  uint32_t *in, *want;
  int repeat;
};

static void *scan_prepare(bool quick, struct case_work *w) {
  struct scan_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 18 : (size_t)16 << 20;
  h->repeat = quick ? 1 : 2;
  h->in = bench_alloc(h->n * sizeof(uint32_t));
  h->want = bench_alloc(h->n * sizeof(uint32_t));
  unsigned seed = 4242;
  uint32_t acc = 0;
  for (size_t i = 0; i < h->n; i++) {
    h->in[i] = bench_rand(&seed) & 1023;
    acc += h->in[i];
    h->want[i] = acc;
  }
  /* pass 1 reads and writes n, pass 3 reads and writes n */
  *w = (struct case_work){.amount = 4.0 * h->n * sizeof(uint32_t) * h->repeat,
                          .scale = 1e9,
                          .unit = "GB/s"};
  return h;
}

static void scan_release(void *p) {
  struct scan_host *h = p;
  free(h->in);
  free(h->want);
  free(h);
}

static struct instance *scan_open(struct platform_env *env, void *host) {
  struct scan_host *h = host;
  const char *names[] = {"scan_blocks", "scan_sums", "add_offsets", NULL};
  struct instance *in = open_memory(env, names);
  if (!in)
    return NULL;
  size_t groups = h->n / LOCAL;
  in->buffers[0] = bench_buffer(env, h->n * sizeof(uint32_t), h->in);
  in->buffers[1] = bench_buffer(env, h->n * sizeof(uint32_t), NULL);
  in->buffers[2] = bench_buffer(env, groups * sizeof(uint32_t), NULL);
  size_t tmp = LOCAL * sizeof(uint32_t);
  if (!in->buffers[0] || !in->buffers[1] || !in->buffers[2] ||
      !bench_args(in, 0, "bbbl", 0, 1, 2, tmp) ||
      !bench_args(in, 1, "bul", 2, (unsigned)groups, tmp) || !bench_args(in, 2, "bb", 1, 2)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = h->n, l = LOCAL, one = LOCAL;
  bench_add_launch(in, 0, 1, &g, &l);
  bench_add_launch(in, 1, 1, &one, &l);
  bench_add_launch(in, 2, 1, &g, &l);
  in->repeat = h->repeat;
  return in;
}

static bool scan_check(struct instance *in, void *host) {
  struct scan_host *h = host;
  uint32_t *got = bench_alloc(h->n * sizeof(uint32_t));
  bool ok = bench_read(in, 1, got, h->n * sizeof(uint32_t));
  for (size_t i = 0; ok && i < h->n; i++)
    if (got[i] != h->want[i]) {
      fprintf(stderr, "    scan mismatch at %zu: got %u, want %u\n", i, got[i], h->want[i]);
      ok = false;
    }
  free(got);
  return ok;
}

/* ---- histograms of 256 bins over bytes with a triangular distribution ---- */
enum { HIST_ITEMS = 16 };
struct hist_host {
  size_t n;
  uint8_t *in;
  uint32_t want[256];
};

static void *hist_prepare(bool quick, struct case_work *w) {
  struct hist_host *h = calloc(1, sizeof *h);
  h->n = quick ? (size_t)1 << 20 : (size_t)64 << 20;
  h->in = bench_alloc(h->n);
  unsigned seed = 99;
  for (size_t i = 0; i < h->n; i++) {
    unsigned r = bench_rand(&seed);
    h->in[i] = (uint8_t)(((r & 255) + ((r >> 8) & 255)) / 2);
    h->want[h->in[i]]++;
  }
  *w = (struct case_work){.amount = (double)h->n, .scale = 1e9, .unit = "GB/s"};
  return h;
}

static void hist_release(void *p) {
  struct hist_host *h = p;
  free(h->in);
  free(h);
}

static struct instance *hist_open(struct platform_env *env, void *host, const char *kernel) {
  struct hist_host *h = host;
  const char *names[] = {kernel, NULL};
  struct instance *in = open_memory(env, names);
  if (!in)
    return NULL;
  in->buffers[0] = bench_buffer(env, h->n, h->in);
  in->buffers[1] = bench_buffer(env, 256 * sizeof(uint32_t), NULL);
  if (!in->buffers[0] || !in->buffers[1] || !bench_args(in, 0, "bb", 0, 1)) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = h->n / HIST_ITEMS, l = LOCAL;
  bench_add_launch(in, 0, 1, &g, &l);
  return in;
}

static struct instance *hist_global_open(struct platform_env *env, void *host) {
  return hist_open(env, host, "hist_global");
}

static struct instance *hist_local_open(struct platform_env *env, void *host) {
  return hist_open(env, host, "hist_local");
}

static bool hist_reset(struct instance *in, void *host) {
  (void)host;
  const cl_uint zero = 0;
  cl_int err = clEnqueueFillBuffer(in->env->queue, in->buffers[1], &zero, sizeof zero, 0,
                                   256 * sizeof(uint32_t), 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(in->env->queue);
  return err == CL_SUCCESS;
}

static bool hist_check(struct instance *in, void *host) {
  struct hist_host *h = host;
  uint32_t got[256];
  if (!bench_read(in, 1, got, sizeof got))
    return false;
  for (int b = 0; b < 256; b++)
    if (got[b] != h->want[b]) {
      fprintf(stderr, "    histogram bin %d: got %u, want %u\n", b, got[b], h->want[b]);
      return false;
    }
  return true;
}

const struct bench_case bench_memory_cases[] = {
    {.name = "stream_copy", .what = "c[i] = a[i], 128 MiB arrays", .limit = LIMIT_BANDWIDTH,
     .prepare = copy_prepare, .open = copy_open, .check = copy_check,
     .release_host = stream_release},
    {.name = "stream_triad", .what = "a[i] = b[i] + s * c[i], 128 MiB arrays",
     .limit = LIMIT_BANDWIDTH, .prepare = triad_prepare, .open = triad_open,
     .check = triad_check, .release_host = stream_release},
    {.name = "saxpy", .what = "y = a * x + y in place, 4 times, 128 MiB arrays",
     .limit = LIMIT_BANDWIDTH, .prepare = bench_saxpy_prepare, .open = saxpy_open,
     .reset = bench_saxpy_reset, .check = bench_saxpy_check,
     .release_host = bench_saxpy_release},
    {.name = "transpose", .what = "4096^2 floats through a 16x16 local tile",
     .limit = LIMIT_BANDWIDTH, .prepare = transpose_prepare, .open = transpose_open,
     .check = transpose_check, .release_host = matrix_release},
    {.name = "prefix_scan", .what = "16M uints: group scans, scan of sums, add offsets",
     .limit = LIMIT_BANDWIDTH, .prepare = scan_prepare, .open = scan_open,
     .check = scan_check, .release_host = scan_release},
    {.name = "histogram_global", .what = "256 bins, global atomics, 64 MiB of bytes",
     .limit = LIMIT_BANDWIDTH, .prepare = hist_prepare, .open = hist_global_open,
     .reset = hist_reset, .check = hist_check, .release_host = hist_release},
    {.name = "histogram_local", .what = "256 bins, local atomics merged per group",
     .limit = LIMIT_BANDWIDTH, .prepare = hist_prepare, .open = hist_local_open,
     .reset = hist_reset, .check = hist_check, .release_host = hist_release},
    {.name = NULL},
};
