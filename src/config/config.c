/* The configuration table (config_table.h), read from the environment once
 * at first use. Values live in atomics so that loom_cfg_set (tests) may
 * change one while compile threads and workers read them: a string is
 * replaced by a new copy and the old one is never freed, since a reader may
 * still hold it (a test sets a few). Every copy stays on one list, so that
 * it is never a leak. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "LOOMCL_"

const struct loom_cfg_row loom_cfg_table[LOOM_CFG_COUNT] = {
#define X(id, type, def, choices, doc) {PREFIX #id, #type, def, choices, doc},
#include "config_table.h"
#undef X
};

/* every string value ever read or set, newest first */
struct kept_text {
  struct kept_text *next;
  char text[];
};
static _Atomic(struct kept_text *) kept;

static const char *keep(const char *text) {
  if (!text)
    return NULL;
  size_t n = strlen(text) + 1;
  struct kept_text *k = malloc(sizeof *k + n);
  if (!k)
    return NULL;
  memcpy(k->text, text, n);
  k->next = atomic_load(&kept);
  while (!atomic_compare_exchange_weak(&kept, &k->next, k))
    ;
  return k->text;
}

static _Atomic int64_t int_values[LOOM_CFG_COUNT];
static _Atomic(const char *) str_values[LOOM_CFG_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool is_type(enum loom_cfg id, const char *type) {
  return !strcmp(loom_cfg_table[id].type, type);
}

/* index of `word` in "a|b|c", or -1 */
static int choice_index(const char *choices, const char *word) {
  int i = 0;
  size_t n = strlen(word);
  for (const char *p = choices; p; i++) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == n && !strncmp(p, word, n))
      return i;
    p = bar ? bar + 1 : NULL;
  }
  return -1;
}

/* Parses value for id into *out (integers) or *text; NULL value: the
 * default. Returns false for an invalid value (then *why says why). */
static bool parse(enum loom_cfg id, const char *value, int64_t *out, const char **text,
                  const char **why) {
  const struct loom_cfg_row *r = &loom_cfg_table[id];
  *out = r->def;
  *text = NULL;
  if (!value || !*value)
    return true;
  if (is_type(id, "TEXT")) {
    *text = value;
    return true;
  }
  if (is_type(id, "CHOICE")) {
    int i = choice_index(r->choices, value);
    *why = "is not one of the allowed words";
    *out = i < 0 ? r->def : i;
    return i >= 0;
  }
  char *end;
  errno = 0;
  unsigned long long v = strtoull(value, &end, 0);
  bool number = *value != '-' && *end == 0 && errno == 0 && v <= INT64_MAX;
  if (is_type(id, "FLAG") && !(number && v <= 1)) {
    *why = "is not 0 or 1";
    return false;
  }
  if (!number) {
    *why = "is not a non-negative number";
    return false;
  }
  *out = (int64_t)v;
  return true;
}

static void warn(enum loom_cfg id, const char *value, const char *why) {
  const struct loom_cfg_row *r = &loom_cfg_table[id];
  if (r->def < 0)
    fprintf(stderr, "LoomCL: %s=%s %s; using the default\n", r->name, value, why);
  else
    fprintf(stderr, "LoomCL: %s=%s %s; using %lld\n", r->name, value, why, (long long)r->def);
}

static void read_environment(void) {
  for (int id = 0; id < LOOM_CFG_COUNT; id++) {
    const char *value = getenv(loom_cfg_table[id].name);
    int64_t v;
    const char *text, *why = "";
    if (!parse(id, value, &v, &text, &why))
      warn(id, value, why);
    atomic_store(&int_values[id], v);
    atomic_store(&str_values[id], keep(text));
  }
}

int64_t loom_cfg_int(enum loom_cfg id) {
  pthread_once(&once, read_environment);
  return atomic_load_explicit(&int_values[id], memory_order_relaxed);
}

const char *loom_cfg_str(enum loom_cfg id) {
  pthread_once(&once, read_environment);
  return atomic_load_explicit(&str_values[id], memory_order_acquire);
}

int loom_cfg_set(const char *name, const char *value) {
  pthread_once(&once, read_environment);
  if (name && !strncmp(name, PREFIX, strlen(PREFIX)))
    name += strlen(PREFIX);
  for (int id = 0; name && id < LOOM_CFG_COUNT; id++) {
    if (strcmp(loom_cfg_table[id].name + strlen(PREFIX), name))
      continue;
    int64_t v;
    const char *text, *why = "";
    if (!parse(id, value, &v, &text, &why))
      return -1;
    const char *copy = keep(text);
    if (text && !copy)
      return -1;
    atomic_store(&int_values[id], v);
    atomic_store_explicit(&str_values[id], copy, memory_order_release);
    return 0;
  }
  return -1;
}

bool loom_log_api_enabled(void) {
  const char *v = loom_cfg_str(LOOM_CFG_LOG);
  if (!v)
    return false;
  for (const char *p = strstr(v, "api"); p; p = strstr(p + 1, "api"))
    if ((p == v || p[-1] == ',') && (p[3] == 0 || p[3] == ','))
      return true;
  return false;
}

void loom_log_api(const char *fn, const char *error, const char *rule) {
  if (loom_log_api_enabled())
    fprintf(stderr, "LoomCL api: %s: %s: %s\n", fn, error, rule);
}
