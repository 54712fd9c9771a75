/* The CPU driver's JIT (cpu_jit.c): one ORC LLJIT per process, one
 * JITDylib per loaded program. */
#ifndef LOOM_CPU_JIT_H
#define LOOM_CPU_JIT_H
#include "device.h"

struct loom_device_code;
/* Loads native code; returns NULL on failure (message in *log). */
struct loom_device_code *loom_jit_load(const struct loom_blob *object, char **log) LOOM_HIDDEN;
/* Loads an executable's code; code still being generated is loaded when
 * loom_jit_lookup first asks for a kernel. */
struct loom_device_code *loom_jit_load_binary(const struct loom_program_binary *bin,
                                              char **log) LOOM_HIDDEN;
loom_wg_fn loom_jit_lookup(struct loom_device_code *code, const char *kernel_name) LOOM_HIDDEN;
void loom_jit_unload(struct loom_device_code *code) LOOM_HIDDEN;
/* Adds more object code to loaded code (a specialised kernel); 0 on success. */
int loom_jit_add(struct loom_device_code *code, const struct loom_blob *object, char **log) LOOM_HIDDEN;
/* Makes a host function callable by name from code loaded afterwards (the
 * device runtime's entry points, e.g. the printf runtime). */
void loom_jit_add_host_symbol(const char *name, uint64_t addr) LOOM_HIDDEN;

#endif
