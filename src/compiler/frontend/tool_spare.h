/* Tool processes (Clang, the SPIR-V translator) started before their
 * arguments are known (tool_spare.c). Starting clang 19 costs about 100 ms
 * of loading and relocating its shared libraries before main, the
 * translator about 80; a spare process pays that while nothing waits. */
#ifndef LOOM_TOOL_SPARE_H
#define LOOM_TOOL_SPARE_H
#include <stddef.h>

/* Runs the tool at path (a spare process if one is waiting, else one started
 * now; then a spare is started for the next call) with args[0..n),
 * everything after the tool's path: it runs in `/`, so paths are absolute
 * or relative to Clang's -working-directory. Waits for it and appends its
 * output to *log; what names the tool in error lines ("the SPIR-V
 * translator"). 0 when it exited with status 0 (or was reaped by someone
 * else: then the caller finds out from its output file); -1 otherwise (the
 * log says why). path must live as long as the process (a configuration
 * string or a constant). Spares are started unless LOOMCL_SPARE_TOOLS=0. */
int loom_tool_call(const char *path, char *const *args, size_t n, const char *what,
                   char **log);

#endif
