/* Clang processes started before their arguments are known (clang_spare.c).
 * Starting clang 19 costs about 100 ms of loading and relocating its shared
 * libraries before main; a spare process pays that while nothing waits. */
#ifndef LOOM_CLANG_SPARE_H
#define LOOM_CLANG_SPARE_H
#include <stddef.h>

/* A Clang process blocked reading its arguments. */
struct loom_clang;

/* The spare process if one is waiting, else one started now; NULL (errno
 * set) if none can start. */
struct loom_clang *loom_clang_take(const char *clang_path);
/* Gives c its arguments (args[0..n), everything after Clang's path; it runs
 * in `/`, so relative paths need -working-directory), waits for it and
 * appends its output to *log; frees c. 0 when Clang exited with status 0
 * (or was reaped by someone else: then the caller finds out from its
 * output file); -1 otherwise (the log says why). */
int loom_clang_run(struct loom_clang *c, char *const *args, size_t n, const char *what,
                   char **log);
/* Kills c's process and frees c. */
void loom_clang_discard(struct loom_clang *c);
/* Starts a spare process if none is waiting (and LOOMCL_CLANG_SPARE allows). */
void loom_clang_prepare(const char *clang_path);

#endif
