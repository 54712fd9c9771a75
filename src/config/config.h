/* LoomCL's one configuration point, included by every layer (like Lua's
 * luaconf.h): the visibility macro, and every LOOMCL_* environment
 * variable (config_table.h), each read once, at first use, and checked:
 * an invalid value is reported once on stderr, naming the variable and the
 * value used instead. */
#ifndef LOOM_CONFIG_H
#define LOOM_CONFIG_H
#include <stdbool.h>
#include <stdint.h>

/* internal symbols: only the cl* entry points leave the library */
#define LOOM_HIDDEN __attribute__((visibility("hidden")))

/* Debug builds verify the kernel module after every pass by default */
#ifndef LOOMCL_VERIFY_DEFAULT
#define LOOMCL_VERIFY_DEFAULT 0
#endif

enum loom_cfg {
#define X(id, type, def, choices, doc) LOOM_CFG_##id,
#include "config_table.h"
#undef X
  LOOM_CFG_COUNT
};

/* FLAG, COUNT, AUTO (-1: not given) and CHOICE (the word's index) values */
int64_t loom_cfg_int(enum loom_cfg id) LOOM_HIDDEN;
/* TEXT values: NULL when not given (or given empty) */
const char *loom_cfg_str(enum loom_cfg id) LOOM_HIDDEN;

/* Sets LOOMCL_<name> (name without the prefix, or with it) as if the
 * environment had held `value` (NULL: unset); safe while other threads read
 * the configuration (tests use it through clGetExtensionFunctionAddress-
 * ForPlatform(..., "loomclSetConfig")). 0, or -1 for an unknown name or an
 * invalid value (left unchanged). */
int loom_cfg_set(const char *name, const char *value) LOOM_HIDDEN;

/* the table, for tools/loom-config-doc */
struct loom_cfg_row {
  const char *name; /* "LOOMCL_CACHE" */
  const char *type; /* "FLAG", ... */
  int64_t def;
  const char *choices; /* CHOICE: "a|b|c" */
  const char *doc;
};
extern const struct loom_cfg_row loom_cfg_table[LOOM_CFG_COUNT] LOOM_HIDDEN;

/* LOOMCL_LOG=api: the rule behind an error an entry point returns */
bool loom_log_api_enabled(void) LOOM_HIDDEN;
void loom_log_api(const char *fn, const char *error, const char *rule) LOOM_HIDDEN;

#endif
