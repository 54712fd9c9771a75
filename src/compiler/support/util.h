#ifndef LOOM_COMPILER_UTIL_H
#define LOOM_COMPILER_UTIL_H
#include "compiler.h"

int loom_read_file(const char *path, struct loom_blob *out) LOOM_HIDDEN;
int loom_write_file(const char *path, const void *data, size_t size) LOOM_HIDDEN;
int loom_mkdirs(const char *dir) LOOM_HIDDEN;
/* a fresh private folder under $TMPDIR (or /tmp); caller frees via remove */
char *loom_make_temp_dir(void) LOOM_HIDDEN;
void loom_remove_temp_dir(char *dir) LOOM_HIDDEN;
/* appends to a malloc'd string (which may be NULL) */
void loom_str_append(char **s, const char *add) LOOM_HIDDEN;

/* Whether the address space limit (RLIMIT_AS, set by the application or
 * its shell) leaves `need` bytes beside what the process maps now: LLVM
 * cannot report running out of memory (std::bad_alloc aborts the process),
 * so a build that would run into the limit is refused before it starts. */
bool loom_memory_headroom(uint64_t need) LOOM_HIDDEN;

#endif
