/* LoomCL's benchmark suite: the same kernels on every selected OpenCL CPU
 * platform in one invocation, through the ICD loader.
 *
 *   bench_suite [--quick] [--reps N] [--cases a,b] [--list] [platform...]
 *
 * Platforms are chosen by case-insensitive name substrings (default: every
 * platform with a CPU device). Each case runs best-of-N with the platforms
 * interleaved per repetition, checks its result against a host reference,
 * and is printed with its time, throughput, fraction of the machine's
 * measured limit, and the speedup of LoomCL over each other platform. */
#include "machine_limits.h"
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PLATFORMS = 8, DEFAULT_REPS = 5, MAX_WARMUP_RUNS = 100, MAX_CASES = 128 };
#define WARMUP_SECONDS 1.0

struct options {
  bool quick, list;
  int reps;
  const char *case_filter; /* comma-separated substrings, or NULL */
  const char *platform_filters[MAX_PLATFORMS];
  int n_platform_filters;
};

/* What one case did on one platform. */
enum outcome { OUTCOME_OK, OUTCOME_FAIL, OUTCOME_ERROR, OUTCOME_SKIPPED };
struct result {
  enum outcome outcome;
  double seconds; /* best of the repetitions */
};

/* One row of the final summary. */
struct summary_row {
  const struct bench_case *c;
  struct case_work work;
  struct result r[MAX_PLATFORMS];
};

static const struct bench_case *const case_tables[] = {
    bench_memory_cases,     bench_formulation_cases, bench_compute_cases,
    bench_image_cases,      bench_math_cases,        bench_thirdparty_cases,
    bench_runtime_cases,    bench_svm_cases,         bench_subgroup_cases};

static void usage(FILE *f) {
  fprintf(f, "usage: bench_suite [--quick] [--reps N] [--cases name,name] [--list] "
             "[platform-substring...]\n"
             "  platforms: case-insensitive substrings of CL_PLATFORM_NAME (default: all "
             "platforms with a CPU device)\n"
             "  --quick    small sizes, one repetition (smoke test)\n"
             "  --reps N   best of N repetitions per case (default %d)\n"
             "  --cases    run only cases whose name contains one of the substrings\n"
             "  --list     list the cases and exit\n",
             DEFAULT_REPS);
}

static bool parse_options(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->reps = DEFAULT_REPS;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--quick"))
      o->quick = true;
    else if (!strcmp(a, "--list"))
      o->list = true;
    else if (!strcmp(a, "--reps") && i + 1 < argc) {
      o->reps = atoi(argv[++i]);
      if (o->reps < 1)
        return false;
    } else if (!strcmp(a, "--cases") && i + 1 < argc)
      o->case_filter = argv[++i];
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      exit(0);
    } else if (a[0] == '-')
      return false;
    else if (o->n_platform_filters < MAX_PLATFORMS)
      o->platform_filters[o->n_platform_filters++] = a;
  }
  return true;
}

static bool case_selected(const struct options *o, const char *name) {
  if (!o->case_filter)
    return true;
  const char *p = o->case_filter;
  while (*p) {
    size_t len = strcspn(p, ",");
    char word[64];
    if (len > 0 && len < sizeof word) {
      memcpy(word, p, len);
      word[len] = '\0';
      if (strcasestr(name, word))
        return true;
    }
    p += len;
    if (*p == ',')
      p++;
  }
  return false;
}

/* ---- platforms ---- */
/* "PoCL 3.1", "PoCL 7.1" (from CL_PLATFORM_VERSION: two PoCLs share one
 * platform name), else the platform name's first word */
static void make_short_name(struct platform_env *e, const char *version) {
  if (strcasestr(e->name, "Portable Computing Language") || strcasestr(e->name, "pocl")) {
    const char *v = strstr(version, "PoCL ");
    int len = v ? (int)strcspn(v + 5, " +") : 0;
    snprintf(e->short_name, sizeof e->short_name, "PoCL%s%.*s", len ? " " : "", len > 6 ? 6 : len,
             v ? v + 5 : "");
  } else {
    size_t len = strcspn(e->name, " ");
    if (len >= sizeof e->short_name)
      len = sizeof e->short_name - 1;
    memcpy(e->short_name, e->name, len);
    e->short_name[len] = '\0';
  }
}

static bool open_platform(cl_platform_id id, struct platform_env *e) {
  memset(e, 0, sizeof *e);
  e->platform = id;
  clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof e->name - 1, e->name, NULL);
  char version[256] = "";
  clGetPlatformInfo(id, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL);
  make_short_name(e, version);
  if (clGetDeviceIDs(id, CL_DEVICE_TYPE_CPU, 1, &e->device, NULL) != CL_SUCCESS)
    return false;
  cl_int err;
  e->ctx = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
  if (!e->ctx)
    return false;
  e->queue = clCreateCommandQueueWithProperties(e->ctx, e->device, NULL, &err);
  if (!e->queue) {
    clReleaseContext(e->ctx);
    return false;
  }
  cl_command_queue_properties qp = 0;
  clGetDeviceInfo(e->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof qp, &qp, NULL);
  if (qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   0};
    e->ooo_queue = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
  }
  e->has_ooo = e->ooo_queue != NULL;
  if (!e->ooo_queue) {
    e->ooo_queue = e->queue;
    clRetainCommandQueue(e->queue);
  }
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(e->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  e->has_fp64 = fp64 != 0;
  return true;
}

static void close_platform(struct platform_env *e) {
  clReleaseCommandQueue(e->ooo_queue);
  clReleaseCommandQueue(e->queue);
  clReleaseContext(e->ctx);
}

static bool platform_wanted(const struct options *o, const struct platform_env *e, int *rank) {
  if (o->n_platform_filters == 0) {
    *rank = 0;
    return true;
  }
  for (int i = 0; i < o->n_platform_filters; i++)
    if (strcasestr(e->name, o->platform_filters[i]) ||
        strcasestr(e->short_name, o->platform_filters[i])) {
      *rank = i;
      return true;
    }
  return false;
}

/* Opens the selected platforms, ordered as on the command line. */
static int open_platforms(const struct options *o, struct platform_env *envs) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0)
    return 0;
  cl_platform_id *ids = calloc(n, sizeof *ids);
  if (!ids || clGetPlatformIDs(n, ids, NULL) != CL_SUCCESS) {
    free(ids);
    return 0;
  }
  int count = 0, ranks[MAX_PLATFORMS];
  for (cl_uint i = 0; i < n && count < MAX_PLATFORMS; i++) {
    struct platform_env e;
    int rank;
    if (!open_platform(ids[i], &e))
      continue;
    if (!platform_wanted(o, &e, &rank)) {
      close_platform(&e);
      continue;
    }
    int pos = count++; /* insertion sort by rank, stable */
    while (pos > 0 && ranks[pos - 1] > rank) {
      envs[pos] = envs[pos - 1];
      ranks[pos] = ranks[pos - 1];
      pos--;
    }
    envs[pos] = e;
    ranks[pos] = rank;
  }
  free(ids);
  return count;
}

static void print_platform(const struct platform_env *e) {
  char dev[256] = "", ver[256] = "";
  cl_uint cus = 0;
  clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof dev - 1, dev, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  printf("  %-7s %s | %s | %s | %u compute units%s%s\n", e->short_name, e->name, dev, ver, cus,
         e->has_ooo ? "" : " | no out-of-order queue", e->has_fp64 ? "" : " | no fp64");
}

/* ---- running one case ---- */
static double limit_value(const struct machine_limits *m, enum limit_kind k) {
  switch (k) {
  case LIMIT_BANDWIDTH:
    return m->triad_gbs;
  case LIMIT_FP32:
    return m->fp32_gflops;
  case LIMIT_FP64:
    return m->fp64_gflops;
  default:
    return 0;
  }
}

static const char *limit_name(enum limit_kind k) {
  switch (k) {
  case LIMIT_BANDWIDTH:
    return "triad";
  case LIMIT_FP32:
    return "FP32 peak";
  case LIMIT_FP64:
    return "FP64 peak";
  default:
    return "";
  }
}

static void format_time(char *buf, size_t size, const struct case_work *w, double s) {
  if (w->time_in_us)
    snprintf(buf, size, "%9.2f us", s * 1e6);
  else
    snprintf(buf, size, "%9.2f ms", s * 1e3);
}

static void print_case(const struct summary_row *row, int n_envs, const struct platform_env *envs,
                       int ref, const struct machine_limits *m) {
  const struct bench_case *c = row->c;
  const struct case_work *w = &row->work;
  for (int p = 0; p < n_envs; p++) {
    const struct result *r = &row->r[p];
    char t[32] = "", thr[40] = "", frac[32] = "", ratio[48] = "";
    const char *status = r->outcome == OUTCOME_OK     ? "ok"
                         : r->outcome == OUTCOME_FAIL ? "FAIL"
                         : r->outcome == OUTCOME_SKIPPED ? "skipped"
                                                         : "ERROR";
    if (r->outcome == OUTCOME_OK || r->outcome == OUTCOME_FAIL) {
      format_time(t, sizeof t, w, r->seconds);
      if (w->amount > 0) {
        double rate = w->amount / r->seconds / w->scale;
        snprintf(thr, sizeof thr, "%10.2f %-9s", rate, w->unit);
        double lim = limit_value(m, c->limit);
        if (lim > 0)
          snprintf(frac, sizeof frac, "%5.1f%% %s", 100.0 * rate / lim, limit_name(c->limit));
      }
    }
    if (p != ref && r->outcome == OUTCOME_OK && row->r[ref].outcome == OUTCOME_OK)
      snprintf(ratio, sizeof ratio, "%s/%s %.2fx", envs[ref].short_name, envs[p].short_name,
               r->seconds / row->r[ref].seconds);
    printf("%-20s %-7s %13s %21s %-16s %-7s %s\n", p == 0 ? c->name : "", envs[p].short_name, t,
           thr, frac, status, ratio);
  }
  fflush(stdout);
}

/* Whether env's device has what c needs (fp64, and what c->unsupported
 * asks); says what it lacks otherwise. */
static bool platform_supports(const struct bench_case *c, struct platform_env *env) {
  if (c->needs_fp64 && !env->has_fp64)
    return false;
  const char *lacks = c->unsupported ? c->unsupported(env) : NULL;
  if (lacks)
    fprintf(stderr, "    %s: skipped on %s: %s\n", c->name, env->short_name, lacks);
  return !lacks;
}

static void run_case(const struct bench_case *c, const struct options *o,
                     struct platform_env *envs, int n_envs, struct summary_row *row) {
  memset(row, 0, sizeof *row);
  row->c = c;
  bool available = !c->available || c->available();
  bool supported[MAX_PLATFORMS], any = false;
  for (int p = 0; p < n_envs; p++) {
    supported[p] = available && platform_supports(c, &envs[p]);
    any = any || supported[p];
  }
  void *host = any ? c->prepare(o->quick, &row->work) : NULL;
  struct instance *inst[MAX_PLATFORMS] = {0};
  for (int p = 0; p < n_envs; p++) {
    row->r[p].outcome = supported[p] ? OUTCOME_ERROR : OUTCOME_SKIPPED;
    row->r[p].seconds = INFINITY;
    if (host && supported[p])
      inst[p] = c->open(&envs[p], host);
  }
  double (*run)(struct instance *, void *) = c->run ? c->run : bench_run_launches;
  int reps = o->quick ? 1 : (c->reps && c->reps < o->reps ? c->reps : o->reps);
  bool ok[MAX_PLATFORMS];
  for (int p = 0; p < n_envs; p++)
    ok[p] = inst[p] != NULL;
  /* warm-up (first-launch compilation, page faults, and LoomCL's background
   * specialisation for the local size and its trial: steady state, which
   * the hundredth launch of an application sees; 1 s, since the
   * specialisation of CLBlast's XgemmDirectTN takes 0.4 s of one of two
   * cores after its 2 s program build, and timed runs beside it ran at
   * 13-18 instead of 27 GFLOP/s), then the timed runs with
   * the platform order alternating every repetition */
  for (int rep = c->no_warmup ? 0 : -1; rep < reps; rep++) {
    for (int i = 0; i < n_envs; i++) {
      int p = (rep & 1) ? n_envs - 1 - i : i;
      /* the warm-up repeats itself until WARMUP_SECONDS have passed */
      double warm_until = bench_now() + (rep < 0 && !o->quick ? WARMUP_SECONDS : 0);
      int runs = 0;
      do {
        double s = ok[p] && (!c->reset || c->reset(inst[p], host)) ? run(inst[p], host) : -1;
        if (s < 0)
          ok[p] = false;
        else if (rep >= 0 && s < row->r[p].seconds)
          row->r[p].seconds = s;
      } while (ok[p] && ++runs < MAX_WARMUP_RUNS && bench_now() < warm_until);
    }
  }
  for (int p = 0; p < n_envs; p++) {
    if (ok[p])
      row->r[p].outcome = c->check(inst[p], host) ? OUTCOME_OK : OUTCOME_FAIL;
    if (inst[p])
      (c->close ? c->close : bench_close_instance)(inst[p]);
  }
  if (host)
    (c->release_host ? c->release_host : free)(host);
}

/* ---- summary ---- */
static void print_summary(const struct summary_row *rows, int n_rows,
                          const struct platform_env *envs, int n_envs, int ref,
                          const struct machine_limits *m) {
  printf("\nSummary (speedup = other's time / %s's time; > 1: %s is faster)\n",
         envs[ref].short_name, envs[ref].short_name);
  printf("| case | %s | %% of limit |", envs[ref].short_name);
  for (int p = 0; p < n_envs; p++)
    if (p != ref)
      printf(" %s | speedup |", envs[p].short_name);
  printf("\n|---|---|---|");
  for (int p = 0; p < n_envs; p++)
    if (p != ref)
      printf("---|---|");
  printf("\n");
  for (int i = 0; i < n_rows; i++) {
    const struct summary_row *row = &rows[i];
    const struct case_work *w = &row->work;
    printf("| %s |", row->c->name);
    for (int k = 0; k < n_envs; k++) {
      int p = k == 0 ? ref : (k <= ref ? k - 1 : k);
      const struct result *r = &row->r[p];
      char cell[48];
      if (r->outcome != OUTCOME_OK)
        snprintf(cell, sizeof cell, "%s", r->outcome == OUTCOME_FAIL      ? "FAIL"
                                          : r->outcome == OUTCOME_SKIPPED ? "skipped"
                                                                          : "ERROR");
      else if (w->amount > 0)
        snprintf(cell, sizeof cell, "%.2f %s", w->amount / r->seconds / w->scale, w->unit);
      else if (w->time_in_us)
        snprintf(cell, sizeof cell, "%.1f us", r->seconds * 1e6);
      else
        snprintf(cell, sizeof cell, "%.1f ms", r->seconds * 1e3);
      printf(" %s |", cell);
      if (p == ref) {
        double lim = limit_value(m, row->c->limit);
        if (r->outcome == OUTCOME_OK && lim > 0 && w->amount > 0)
          printf(" %.1f%% |", 100.0 * w->amount / r->seconds / w->scale / lim);
        else
          printf(" - |");
      } else if (r->outcome == OUTCOME_OK && row->r[ref].outcome == OUTCOME_OK)
        printf(" %.2f |", r->seconds / row->r[ref].seconds);
      else
        printf(" - |");
    }
    printf("\n");
  }
  for (int p = 0; p < n_envs; p++) {
    if (p == ref)
      continue;
    double log_sum = 0;
    int n = 0;
    for (int i = 0; i < n_rows; i++) {
      const struct result *a = &rows[i].r[ref], *b = &rows[i].r[p];
      if (a->outcome == OUTCOME_OK && b->outcome == OUTCOME_OK) {
        log_sum += log(b->seconds / a->seconds);
        n++;
      }
    }
    if (n > 0)
      printf("\nGeometric mean speedup %s/%s over %d cases: %.2fx\n", envs[ref].short_name,
             envs[p].short_name, n, exp(log_sum / n));
  }
}

int main(int argc, char **argv) {
  struct options o;
  if (!parse_options(argc, argv, &o)) {
    usage(stderr);
    return 2;
  }
  if (o.list) {
    for (size_t t = 0; t < sizeof case_tables / sizeof case_tables[0]; t++)
      for (const struct bench_case *c = case_tables[t]; c->name; c++)
        printf("%-20s %s\n", c->name, c->what);
    return 0;
  }

  /* the machine's limits first, before any OpenCL runtime starts threads */
  struct machine_limits m;
  measure_machine_limits(&m, o.quick);
  printf("Machine: %s, %d cores online, %s\n", m.cpu_model, m.threads, m.isa);
  printf("  peak FP32 FMA  %8.1f GFLOP/s  (%d threads, %d-lane FMA, 12 chains each)\n",
         m.fp32_gflops, m.threads, m.fp32_lanes);
  printf("  peak FP32 FMA  %8.1f GFLOP/s  (1 thread)\n", m.fp32_gflops_one_core);
  printf("  peak FP64 FMA  %8.1f GFLOP/s\n", m.fp64_gflops);
  printf("  STREAM triad   %8.1f GB/s     (%d threads, 3 arrays of %.0f MiB)\n", m.triad_gbs,
         m.threads, m.triad_mib);

  static struct platform_env envs[MAX_PLATFORMS];
  int n_envs = open_platforms(&o, envs);
  if (n_envs == 0) {
    fprintf(stderr, "no matching OpenCL platform with a CPU device (check OCL_ICD_VENDORS)\n");
    return 2;
  }
  int ref = 0;
  for (int p = n_envs - 1; p >= 0; p--)
    if (strcasestr(envs[p].name, "LoomCL"))
      ref = p;
  printf("Platforms:\n");
  for (int p = 0; p < n_envs; p++)
    print_platform(&envs[p]);
  printf("Best of %d repetitions%s, platforms interleaved.\n\n", o.quick ? 1 : o.reps,
         o.quick ? " (--quick)" : "");
  printf("(of limit: against the figures above; speedup: the other platform's time / %s's)\n",
         envs[ref].short_name);
  printf("%-20s %-7s %13s %21s %-16s %-7s %s\n", "case", "platform", "time", "throughput",
         "of limit", "check", "speedup");

  static struct summary_row rows[MAX_CASES];
  int n_rows = 0, failures = 0;
  bool full = false;
  for (size_t t = 0; t < sizeof case_tables / sizeof case_tables[0] && !full; t++)
    for (const struct bench_case *c = case_tables[t]; c->name && !full; c++) {
      if (!case_selected(&o, c->name))
        continue;
      if (n_rows == MAX_CASES) { /* never silently: the case tables grew past the summary */
        fprintf(stderr, "bench_suite: more than %d cases; %s and the rest not run\n", MAX_CASES,
                c->name);
        failures++;
        full = true;
        continue;
      }
      struct summary_row *row = &rows[n_rows++];
      run_case(c, &o, envs, n_envs, row);
      print_case(row, n_envs, envs, ref, &m);
      for (int p = 0; p < n_envs; p++)
        if (row->r[p].outcome == OUTCOME_FAIL || row->r[p].outcome == OUTCOME_ERROR)
          failures++;
    }
  /* the machine is often shared: measure the limits again and keep the best,
   * so that the summary's fractions are against the least disturbed figures */
  struct machine_limits end;
  measure_machine_limits(&end, o.quick);
  if (end.fp32_gflops > m.fp32_gflops)
    m.fp32_gflops = end.fp32_gflops;
  if (end.fp32_gflops_one_core > m.fp32_gflops_one_core)
    m.fp32_gflops_one_core = end.fp32_gflops_one_core;
  if (end.fp64_gflops > m.fp64_gflops)
    m.fp64_gflops = end.fp64_gflops;
  if (end.triad_gbs > m.triad_gbs)
    m.triad_gbs = end.triad_gbs;
  printf("\nMachine limits, best of the start and the end of the run: FP32 %.1f GFLOP/s, "
         "FP64 %.1f GFLOP/s, triad %.1f GB/s; FP32 on one core %.1f GFLOP/s (all cores: "
         "%.1fx one)\n",
         m.fp32_gflops, m.fp64_gflops, m.triad_gbs, m.fp32_gflops_one_core,
         m.fp32_gflops / m.fp32_gflops_one_core);
  print_summary(rows, n_rows, envs, n_envs, ref, &m);
  for (int p = 0; p < n_envs; p++)
    close_platform(&envs[p]);
  if (failures)
    printf("\n%d case run(s) failed\n", failures);
  return failures ? 1 : 0;
}
