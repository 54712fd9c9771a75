/* Tool processes (Clang, the SPIR-V translator) started before their
 * arguments are known (tool_spare.c). Starting clang 19 costs about 100 ms
 * of loading and relocating its shared libraries before main, the
 * translator about 80; a spare process pays that while nothing waits. */
#ifndef LOOM_TOOL_SPARE_H
#define LOOM_TOOL_SPARE_H
#include <stddef.h>

/* A tool's process blocked reading its arguments. */
struct loom_tool;

/* The spare process of the tool at path if one is waiting, else one
 * started now; NULL (errno set) if none can start. path must live as long
 * as the process (a configuration string or a constant). */
struct loom_tool *loom_tool_take(const char *path);
/* Gives t its arguments (args[0..n), everything after the tool's path; it
 * runs in `/`, so paths are absolute or relative to Clang's
 * -working-directory), waits for it and appends its output to *log; frees
 * t. 0 when it exited with status 0 (or was reaped by someone else: then
 * the caller finds out from its output file); -1 otherwise (the log says
 * why). */
int loom_tool_run(struct loom_tool *t, char *const *args, size_t n, const char *what,
                  char **log);
/* Kills t's process and frees t. */
void loom_tool_discard(struct loom_tool *t);
/* Starts a spare process of the tool at path if none is waiting (and
 * LOOMCL_SPARE_TOOLS allows). */
void loom_tool_prepare(const char *path);

#endif
