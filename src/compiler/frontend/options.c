/* Build options: split the application's option string into arguments for
 * the front end and the flags LoomCL acts on itself. Unknown options are
 * rejected here so that clBuildProgram can return CL_INVALID_BUILD_OPTIONS. */
#include "compiler.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct loom_build_options *o, const char *a) {
  o->clang_args = realloc(o->clang_args, (o->num_clang_args + 2) * sizeof(char *));
  o->clang_args[o->num_clang_args++] = strdup(a);
  o->clang_args[o->num_clang_args] = NULL;
}

/* Splits on whitespace, honouring "double" and 'single' quotes. */
static char **tokenize(const char *s, size_t *n) {
  char **toks = NULL;
  *n = 0;
  size_t len = s ? strlen(s) : 0;
  char *cur = malloc(len + 1);
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
    toks = realloc(toks, (*n + 1) * sizeof(char *));
    toks[(*n)++] = strdup(cur);
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

static int std_version(const char *v) {
  if (!strcmp(v, "CL1.0")) return 100;
  if (!strcmp(v, "CL1.1")) return 110;
  if (!strcmp(v, "CL1.2")) return 120;
  if (!strcmp(v, "CL2.0")) return 200;
  if (!strcmp(v, "CL3.0")) return 300;
  return -1;
}

int loom_parse_options(const char *options, bool for_link, struct loom_build_options *o,
                       char **log) {
  memset(o, 0, sizeof *o);
  size_t n;
  char **t = tokenize(options, &n);
  int rc = 0;
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
      rc = -1;
    } else if (!strcmp(a, "-cl-no-subgroup-ifp")) {
      /* no sub-groups on this device: nothing to do, and Clang does not know it */
    } else if (pass) {
      push(o, a);
      if (!strcmp(a, "-cl-denorms-are-zero"))
        o->denorms_are_zero = true;
    } else if (!strcmp(a, "-cl-opt-disable")) {
      o->opt_disable = true;
      push(o, a);
    } else if (!strcmp(a, "-cl-fast-relaxed-math")) {
      o->fast_math = true;
      push(o, a);
    } else if (!strcmp(a, "-cl-kernel-arg-info")) {
      o->kernel_arg_info = true;
      push(o, a);
    } else if (!strncmp(a, "-cl-std=", 8)) {
      o->cl_std = std_version(a + 8);
      if (o->cl_std < 0)
        rc = -1;
      else
        push(o, a);
    } else if ((!strcmp(a, "-D") || !strcmp(a, "-I")) && i + 1 < n) {
      char *joined = malloc(strlen(t[i + 1]) + 3);
      sprintf(joined, "%s%s", a, t[i + 1]);
      push(o, joined);
      free(joined);
      i++;
    } else if ((!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) && a[2]) {
      push(o, a);
    } else if (!strncmp(a, "-W", 2) || !strcmp(a, "-O0") || !strcmp(a, "-O1") ||
               !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
      push(o, a); /* warnings control and optimisation levels are harmless */
    } else {
      rc = -1;
    }
    if (rc && log) {
      char msg[512];
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
