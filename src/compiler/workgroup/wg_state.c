/* The work-group passes' per-kernel facts, carried in the IR.
 *
 * "wg-barriers" decides the layout of the per-work-item slots (bytes per
 * work-item, the group-uniform area, the divergent loops and their
 * convergence points, whether regions are masked); "wg-function" builds
 * the work-group function from it. The layout is written as a string
 * attribute of the kernel function, so that "wg-function" can run on IR
 * written out after "wg-barriers" (tools/loom-opt) exactly as it runs in a
 * build:
 *   "loom-wg-slots"="<barriers> <bytes/item> <uniform bytes> <masked>
 *                    <where slot> <loops> [<header id>:<exit id> ...]
 *                    <sub-group barriers> [<id>:<op>:<x off>:<x size>:
 *                    <result off>:<result size>:<aux off> ...]"
 * A work-group function with an outer work-item loop says so with
 * "loom-outer-loops", read by the code generation stage. */
#include "workgroup/workgroup.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS_ATTR "loom-wg-slots"
#define OUTER_ATTR "loom-outer-loops"

void loom_wg_record_slots(LLVMValueRef k, unsigned num_barriers, const struct loom_slots *s) {
  size_t cap = 128 + 24 * (size_t)s->num_divergent + 160 * (size_t)s->num_sg, len;
  char *text = malloc(cap);
  if (!text)
    return;
  len = (size_t)snprintf(text, cap, "%u %" PRIu64 " %" PRIu64 " %d %" PRIu64 " %u", num_barriers,
                         s->bytes_per_item, s->uniform_bytes, s->masked ? 1 : 0, s->where_slot,
                         s->num_divergent);
  for (unsigned i = 0; i < s->num_divergent && len < cap; i++)
    len += (size_t)snprintf(text + len, cap - len, " %u:%u", s->divergent[i].header_id,
                            s->divergent[i].exit_id);
  len += (size_t)snprintf(text + len, cap - len, " %u", s->num_sg);
  for (unsigned i = 0; i < s->num_sg && len < cap; i++) {
    const struct loom_sg_point *p = &s->sg[i];
    len += (size_t)snprintf(text + len, cap - len,
                            " %u:%u:%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64, p->id,
                            p->op, p->x_off, p->x_size, p->res_off, p->res_size, p->aux_off);
  }
  loom_add_fn_str_attr(k, SLOTS_ATTR, text);
  free(text);
}

int loom_wg_read_slots(LLVMValueRef k, unsigned *num_barriers, struct loom_slots *s) {
  memset(s, 0, sizeof *s);
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(k, LLVMAttributeFunctionIndex, SLOTS_ATTR,
                                                     sizeof SLOTS_ATTR - 1);
  if (!a)
    return -1;
  unsigned len;
  const char *v = LLVMGetStringAttributeValue(a, &len);
  char *text = strndup(v, len);
  if (!text)
    return -1;
  int masked = 0, used = 0;
  int rc = -1;
  if (sscanf(text, "%u %" SCNu64 " %" SCNu64 " %d %" SCNu64 " %u%n", num_barriers,
             &s->bytes_per_item, &s->uniform_bytes, &masked, &s->where_slot, &s->num_divergent,
             &used) == 6 &&
      s->num_divergent <= 1u << 16) {
    s->masked = masked != 0;
    s->divergent = calloc(s->num_divergent + 1, sizeof *s->divergent);
    const char *p = text + used;
    rc = s->divergent ? 0 : -1;
    for (unsigned i = 0; i < s->num_divergent && rc == 0; i++) {
      int n = 0;
      if (sscanf(p, " %u:%u%n", &s->divergent[i].header_id, &s->divergent[i].exit_id, &n) != 2)
        rc = -1;
      p += n;
    }
    int n = 0;
    if (rc == 0 && sscanf(p, " %u%n", &s->num_sg, &n) == 1 && s->num_sg <= 1u << 16) {
      p += n;
      s->sg = calloc(s->num_sg + 1, sizeof *s->sg);
      rc = s->sg ? 0 : -1;
      for (unsigned i = 0; i < s->num_sg && rc == 0; i++) {
        struct loom_sg_point *q = &s->sg[i];
        n = 0;
        if (sscanf(p, " %u:%u:%" SCNu64 ":%" SCNu64 ":%" SCNu64 ":%" SCNu64 ":%" SCNu64 "%n", &q->id,
                   &q->op, &q->x_off, &q->x_size, &q->res_off, &q->res_size, &q->aux_off, &n) != 7)
          rc = -1;
        p += n;
      }
    } else {
      s->num_sg = 0;
    }
  }
  free(text);
  if (rc != 0) {
    free(s->divergent);
    free(s->sg);
    s->divergent = NULL;
    s->sg = NULL;
    s->num_sg = 0;
  }
  return rc;
}

void loom_wg_mark_outer_loops(LLVMValueRef wg) { loom_add_fn_str_attr(wg, OUTER_ATTR, "1"); }

static bool module_has_attr(LLVMModuleRef m, const char *attr, unsigned len) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, attr, len))
      return true;
  return false;
}

#define JAM_ATTR "loom-jam-loops"
void loom_wg_mark_jammed_loops(LLVMValueRef wg) { loom_add_fn_str_attr(wg, JAM_ATTR, "1"); }

bool loom_module_has_jammed_loops(LLVMModuleRef m) {
  return module_has_attr(m, JAM_ATTR, sizeof JAM_ATTR - 1);
}

bool loom_wg_has_jammed_loops(LLVMValueRef wg) {
  return LLVMGetStringAttributeAtIndex(wg, LLVMAttributeFunctionIndex, JAM_ATTR,
                                       sizeof JAM_ATTR - 1) != NULL;
}

#define WHOLE_ATTR "loom-whole-vectors"
void loom_wg_mark_whole_vectors(LLVMValueRef wg) { loom_add_fn_str_attr(wg, WHOLE_ATTR, "1"); }

bool loom_wg_keeps_vectors_whole(LLVMValueRef wg) {
  return LLVMGetStringAttributeAtIndex(wg, LLVMAttributeFunctionIndex, WHOLE_ATTR,
                                       sizeof WHOLE_ATTR - 1) != NULL;
}

bool loom_module_has_outer_loops(LLVMModuleRef m) {
  return module_has_attr(m, OUTER_ATTR, sizeof OUTER_ATTR - 1);
}

LLVMValueRef loom_wg_function_of(LLVMModuleRef m, const char *kernel) {
  size_t n = strlen(kernel);
  char *name = malloc(n + sizeof LOOM_WG_SUFFIX);
  if (!name)
    return NULL;
  memcpy(name, kernel, n);
  memcpy(name + n, LOOM_WG_SUFFIX, sizeof LOOM_WG_SUFFIX);
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  free(name);
  return f;
}
