/* Build options: split the application's option string into arguments for
 * the front end and the flags LoomCL acts on itself. Unknown options are
 * rejected here so that clBuildProgram can return CL_INVALID_BUILD_OPTIONS. */
#include "compiler.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0, or -1 when memory ran out (o keeps what it had) */
static int push(struct loom_build_options *o, const char *a) {
  char *copy = strdup(a);
  char **args = copy ? realloc(o->clang_args, (o->num_clang_args + 2) * sizeof(char *)) : NULL;
  if (!args) {
    free(copy);
    return -1;
  }
  o->clang_args = args;
  o->clang_args[o->num_clang_args++] = copy;
  o->clang_args[o->num_clang_args] = NULL;
  return 0;
}

/* Splits on whitespace, honouring "double" and 'single' quotes. Sets *oom
 * (and returns what it has) when memory runs out. */
static char **tokenize(const char *s, size_t *n, bool *oom) {
  char **toks = NULL;
  *n = 0;
  size_t len = s ? strlen(s) : 0;
  char *cur = malloc(len + 1);
  if (!cur) {
    *oom = true;
    return NULL;
  }
  size_t i = 0;
  while (s && s[i]) {
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
      i++;
    if (!s[i])
      break;
    size_t c = 0;
    char quote = 0;
    while (s[i] && (quote || (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r'))) {
      if (quote && s[i] == quote)
        quote = 0;
      else if (!quote && (s[i] == '"' || s[i] == '\''))
        quote = s[i];
      else if (s[i] == '\\' && s[i + 1] && quote != '\'')
        cur[c++] = s[++i];
      else
        cur[c++] = s[i];
      i++;
    }
    cur[c] = 0;
    char *tok = strdup(cur);
    char **grown = tok ? realloc(toks, (*n + 1) * sizeof(char *)) : NULL;
    if (!grown) {
      free(tok);
      *oom = true;
      break;
    }
    toks = grown;
    toks[(*n)++] = tok;
  }
  free(cur);
  return toks;
}

/* options that the front end understands and that need no action from us */
static const char *const passthrough[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-mad-enable",
    "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size",
    "-w", "-Werror", "-g", NULL};

/* -I dir: the front end runs in a private temporary folder, so a relative
 * folder is taken relative to the application's working directory here */
static int push_include(struct loom_build_options *o, const char *dir) {
  char cwd[4096];
  const char *base = dir[0] != '/' && getcwd(cwd, sizeof cwd) ? cwd : NULL;
  size_t len = strlen(dir) + (base ? strlen(base) + 1 : 0) + 3;
  char *arg = malloc(len);
  if (!arg)
    return -1;
  snprintf(arg, len, "-I%s%s%s", base ? base : "", base ? "/" : "", dir);
  int rc = push(o, arg);
  free(arg);
  return rc;
}

static int std_version(const char *v) {
  if (!strcmp(v, "CL1.0")) return 100;
  if (!strcmp(v, "CL1.1")) return 110;
  if (!strcmp(v, "CL1.2")) return 120;
  if (!strcmp(v, "CL2.0")) return 200;
  if (!strcmp(v, "CL3.0")) return 300;
  return -1;
}

/* the OpenCL C versions of CL_DEVICE_OPENCL_C_ALL_VERSIONS (api/device.c):
 * 2.0 is not one of them (no pipes, device-side enqueue or images, which
 * OpenCL C 2.0 requires); its optional-feature successor 3.0 is */
static bool std_supported(int version) { return version != 200; }

int loom_parse_options(const char *options, bool for_link, struct loom_build_options *o,
                       char **log) {
  memset(o, 0, sizeof *o);
  size_t n;
  bool oom = false;
  char **t = tokenize(options, &n, &oom);
  int rc = oom ? -1 : 0;
  const char *why = NULL; /* a message of its own for the failing option */
  if (oom && log)
    *log = strdup("error: out of host memory reading the options\n");
  for (size_t i = 0; i < n && rc == 0; i++) {
    const char *a = t[i];
    bool pass = false;
    for (int k = 0; passthrough[k]; k++)
      if (!strcmp(a, passthrough[k]))
        pass = true;
    if (!strcmp(a, "-create-library") && for_link) {
      o->create_library = true;
    } else if (!strcmp(a, "-enable-link-options") && for_link) {
      o->enable_link_options = true;
    } else if (for_link && (!strcmp(a, "-cl-denorms-are-zero") ||
                            !strcmp(a, "-cl-no-signed-zeros") ||
                            !strcmp(a, "-cl-unsafe-math-optimizations") ||
                            !strcmp(a, "-cl-finite-math-only") ||
                            !strcmp(a, "-cl-fast-relaxed-math") ||
                            !strcmp(a, "-cl-no-subgroup-ifp"))) {
      if (!strcmp(a, "-cl-fast-relaxed-math"))
        o->fast_math = true;
    } else if (for_link) {
      /* OpenCL 3.0, 5.8.7: a link takes -create-library,
       * -enable-link-options and the -cl-* math options above; compiler
       * options (-D, -I, -cl-std, ...) are CL_INVALID_LINKER_OPTIONS */
      why = "is not a link option (clLinkProgram takes -create-library, "
            "-enable-link-options, -cl-denorms-are-zero, -cl-no-signed-zeros, "
            "-cl-unsafe-math-optimizations, -cl-finite-math-only, -cl-fast-relaxed-math, "
            "-cl-no-subgroup-ifp)";
      rc = -1;
    } else if (!strcmp(a, "-cl-no-subgroup-ifp")) {
      /* no sub-groups on this device: nothing to do, and Clang does not know it */
    } else if (pass) {
      rc = push(o, a);
      if (!strcmp(a, "-cl-denorms-are-zero"))
        o->denorms_are_zero = true;
    } else if (!strcmp(a, "-cl-opt-disable")) {
      o->opt_disable = true;
      rc = push(o, a);
    } else if (!strcmp(a, "-cl-fast-relaxed-math")) {
      o->fast_math = true;
      rc = push(o, a);
    } else if (!strcmp(a, "-cl-kernel-arg-info")) {
      o->kernel_arg_info = true;
      rc = push(o, a);
    } else if (!strncmp(a, "-cl-std=", 8)) {
      o->cl_std = std_version(a + 8);
      if (o->cl_std < 0) {
        rc = -1;
      } else if (!std_supported(o->cl_std)) {
        why = "names a version of OpenCL C this device does not support "
              "(CL_DEVICE_OPENCL_C_ALL_VERSIONS: 1.0, 1.1, 1.2, 3.0; OpenCL C 3.0 has "
              "the generic address space and the 2.0 atomics: -cl-std=CL3.0)";
        rc = -1;
      } else {
        rc = push(o, a);
      }
    } else if (!strcmp(a, "-I") && i + 1 < n) {
      rc = push_include(o, t[++i]);
    } else if (!strncmp(a, "-I", 2) && a[2]) {
      rc = push_include(o, a + 2);
    } else if (!strcmp(a, "-D") && i + 1 < n) {
      size_t len = strlen(t[i + 1]) + 3;
      char *joined = malloc(len);
      if (joined) {
        snprintf(joined, len, "%s%s", a, t[i + 1]);
        rc = push(o, joined);
        free(joined);
      } else {
        rc = -1;
      }
      i++;
    } else if (!strncmp(a, "-D", 2) && a[2]) {
      rc = push(o, a);
    } else if (!strcmp(a, "-cl-strict-aliasing")) {
      /* OpenCL 1.0's option, deprecated since 1.1: accepted, no effect */
    } else if (!strncmp(a, "-W", 2) || !strcmp(a, "-O0") || !strcmp(a, "-O1") ||
               !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
      rc = push(o, a); /* warnings control and optimisation levels are harmless */
    } else {
      rc = -1;
    }
    if (rc && log) {
      char msg[1024];
      if (why)
        snprintf(msg, sizeof msg, "error: '%.200s' %s\n", a, why);
      else
        snprintf(msg, sizeof msg, "error: invalid build option '%.400s'\n", a);
      *log = strdup(msg);
    }
  }
  for (size_t i = 0; i < n; i++)
    free(t[i]);
  free(t);
  if (rc)
    loom_free_options(o);
  return rc;
}

bool loom_options_nonuniform(const char *options) {
  if (!options || strstr(options, "-cl-uniform-work-group-size"))
    return false;
  return strstr(options, "-cl-std=CL2.") || strstr(options, "-cl-std=CL3.");
}

void loom_free_options(struct loom_build_options *o) {
  for (size_t i = 0; i < o->num_clang_args; i++)
    free(o->clang_args[i]);
  free(o->clang_args);
  o->clang_args = NULL;
  o->num_clang_args = 0;
}

int loom_parse_compile_options(const char *options, struct loom_build_options *out, char **log) {
  char *optlog = NULL;
  int rc = loom_parse_options(options, false, out, &optlog) != 0 ? -2 : 0;
  if (rc != 0 && optlog)
    loom_str_append(log, optlog);
  free(optlog);
  return rc;
}
