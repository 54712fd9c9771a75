/* One computation written the equivalent ways people write it: a tree sum
 * of 32M values per 256-item group, with
 *  - the barrier at the top of the loop (`reduction`, the suite's own form);
 *  - the tutorial form: a barrier before the loop and after the add;
 *  - that form with the group size a constant instead of get_local_size(0);
 *  - that form on int data;
 *  - that form reading float4s, each work-item summing its four first.
 * Each reads the same 128 MiB; they should run at about the same rate
 * (issue 18: within 20% of each other). The data are multiples of 1/8 below
 * 2, so every partial sum is exact in float whatever the order. */
#include "suite.h"
#include <stdlib.h>

enum { GROUP = 256 };

static const char *source =
    "kernel void top(global const float *in, global float *partial, local float *s) {\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = in[get_global_id(0)];\n"
    "  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < step) s[l] += s[l + step];\n"
    "  }\n"
    "  if (l == 0) partial[get_group_id(0)] = s[0];\n"
    "}\n"
    "#define TUTORIAL(NAME, T, LOAD, SIZE)                                         \\\n"
    "kernel void NAME(global const T *in, global T *partial, local T *s) {           \\\n"
    "  int l = get_local_id(0);                                                   \\\n"
    "  s[l] = LOAD;                                                                \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);                                               \\\n"
    "  for (int step = SIZE / 2; step > 0; step >>= 1) {                           \\\n"
    "    if (l < step) s[l] += s[l + step];                                        \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                             \\\n"
    "  }                                                                           \\\n"
    "  if (l == 0) partial[get_group_id(0)] = s[0];                                \\\n"
    "}\n"
    "TUTORIAL(tutorial, float, in[get_global_id(0)], get_local_size(0))\n"
    "TUTORIAL(tutorial_const, float, in[get_global_id(0)], 256)\n"
    "TUTORIAL(tutorial_int, int, in[get_global_id(0)], get_local_size(0))\n"
    "#define SUM4(v) (((v).x + (v).y) + ((v).z + (v).w))\n"
    "kernel void tutorial_float4(global const float4 *in, global float *partial, local float *s) {\n"
    "  int l = get_local_id(0);\n"
    "  float4 v = in[get_global_id(0)];\n"
    "  s[l] = SUM4(v);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int step = get_local_size(0) / 2; step > 0; step >>= 1) {\n"
    "    if (l < step) s[l] += s[l + step];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) partial[get_group_id(0)] = s[0];\n"
    "}\n";

enum variant { TOP, TUTORIAL, TUTORIAL_CONST, TUTORIAL_INT, TUTORIAL_FLOAT4 };
static const char *const kernel_names[] = {"top", "tutorial", "tutorial_const", "tutorial_int",
                                           "tutorial_float4"};

struct form_host {
  enum variant variant;
  size_t n;          /* values */
  size_t per_item;   /* values a work-item reads */
  float *in;         /* as float, or the ints' bits for TUTORIAL_INT */
  float *partials;   /* reference, per group */
  int repeat;
};

static void *form_prepare(bool quick, struct case_work *w, enum variant v) {
  struct form_host *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  h->variant = v;
  h->n = quick ? (size_t)1 << 20 : (size_t)32 << 20;
  h->per_item = v == TUTORIAL_FLOAT4 ? 4 : 1;
  h->repeat = quick ? 1 : 3;
  size_t groups = h->n / h->per_item / GROUP, values = GROUP * h->per_item;
  h->in = bench_alloc(h->n * sizeof(float));
  h->partials = bench_alloc(groups * sizeof(float));
  unsigned seed = 777;
  for (size_t i = 0; i < h->n; i++) {
    unsigned k = bench_rand(&seed) & 15;
    if (v == TUTORIAL_INT)
      ((int *)h->in)[i] = (int)k;
    else
      h->in[i] = (float)k * 0.125f;
  }
  for (size_t g = 0; g < groups; g++) {
    double s = 0;
    for (size_t i = 0; i < values; i++)
      s += v == TUTORIAL_INT ? (double)((int *)h->in)[g * values + i] : (double)h->in[g * values + i];
    h->partials[g] = (float)s;
  }
  *w = (struct case_work){.amount = (double)h->n * sizeof(float) * h->repeat, .scale = 1e9,
                          .unit = "GB/s"};
  return h;
}

static void *top_prepare(bool q, struct case_work *w) { return form_prepare(q, w, TOP); }
static void *tutorial_prepare(bool q, struct case_work *w) { return form_prepare(q, w, TUTORIAL); }
static void *const_prepare(bool q, struct case_work *w) { return form_prepare(q, w, TUTORIAL_CONST); }
static void *int_prepare(bool q, struct case_work *w) { return form_prepare(q, w, TUTORIAL_INT); }
static void *float4_prepare(bool q, struct case_work *w) { return form_prepare(q, w, TUTORIAL_FLOAT4); }

static void form_release(void *p) {
  struct form_host *h = p;
  free(h->in);
  free(h->partials);
  free(h);
}

static struct instance *form_open(struct platform_env *env, void *host) {
  struct form_host *h = host;
  const char *names[] = {kernel_names[h->variant], NULL};
  struct instance *in = bench_open_instance(env, source, NULL, names);
  if (!in)
    return NULL;
  size_t items = h->n / h->per_item, groups = items / GROUP;
  in->buffers[0] = bench_buffer(env, h->n * sizeof(float), h->in);
  in->buffers[1] = bench_buffer(env, groups * sizeof(float), NULL);
  if (!in->buffers[0] || !in->buffers[1] ||
      !bench_args(in, 0, "bbl", 0, 1, (size_t)GROUP * sizeof(float))) {
    bench_close_instance(in);
    return NULL;
  }
  size_t g = items, l = GROUP;
  bench_add_launch(in, 0, 1, &g, &l);
  in->repeat = h->repeat;
  return in;
}

static bool form_check(struct instance *in, void *host) {
  struct form_host *h = host;
  size_t groups = h->n / h->per_item / GROUP;
  float *got = bench_alloc(groups * sizeof(float));
  bool ok = bench_read(in, 1, got, groups * sizeof(float));
  if (ok && h->variant == TUTORIAL_INT)
    for (size_t g = 0; g < groups; g++)
      got[g] = (float)((int *)got)[g];
  ok = ok && bench_close_f(got, h->partials, groups, 0, 0);
  free(got);
  return ok;
}

#define FORM_CASE(NAME, WHAT, PREPARE)                                                        \
  {.name = NAME, .what = WHAT, .limit = LIMIT_BANDWIDTH, .prepare = PREPARE,                 \
   .open = form_open, .check = form_check, .release_host = form_release}

const struct bench_case bench_formulation_cases[] = {
    FORM_CASE("reduction", "tree sum per 256-item group, barriers in a loop", top_prepare),
    FORM_CASE("form_reduce_tutorial", "the same, barriers before the loop and after the add",
              tutorial_prepare),
    FORM_CASE("form_reduce_const", "the tutorial form, the group size a constant 256", const_prepare),
    FORM_CASE("form_reduce_int", "the tutorial form on ints", int_prepare),
    FORM_CASE("form_reduce_float4", "the tutorial form, each work-item reading a float4", float4_prepare),
    {.name = NULL},
};
