/* Several object files as one blob: the code of a program whose kernels were
 * compiled in parts on several threads (backend/codegen_split.c). A blob
 * that is one object file is a set of one. */
#ifndef LOOM_OBJECT_SET_H
#define LOOM_OBJECT_SET_H
#include "compiler.h"

enum { LOOM_OBJECT_SET_MAX = 16 };

/* out: the n objects in one blob (n >= 2; one object is kept as it is).
 * 0, or -1 when out of memory. */
int loom_object_set_pack(const struct loom_blob *objects, size_t n, struct loom_blob *out) LOOM_HIDDEN;
/* The objects of blob as views into it (not copies), at most
 * LOOM_OBJECT_SET_MAX: their number, or -1 when blob is a damaged set. */
int loom_object_set_parts(const struct loom_blob *blob,
                          struct loom_blob parts[LOOM_OBJECT_SET_MAX]) LOOM_HIDDEN;
#endif
