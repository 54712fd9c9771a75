/* The allocation table behind clSVMAlloc and the USM allocators, and the
 * SVM free command (see svm.h). */
#include "svm.h"
#include "command.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void loom_svm_table_init(struct loom_svm_table *t) {
  pthread_mutex_init(&t->lock, NULL);
  t->blocks = NULL;
  t->count = t->cap = 0;
}

static void release_storage(cl_context ctx, void *storage) {
  cl_device_id dev = ctx->devices[0];
  dev->ops->mem_free(&dev->desc, storage);
}

void loom_svm_table_free(cl_context ctx) {
  struct loom_svm_table *t = &ctx->svm;
  for (size_t i = 0; i < t->count; i++)
    release_storage(ctx, t->blocks[i].storage);
  free(t->blocks);
  t->blocks = NULL;
  t->count = t->cap = 0;
  pthread_mutex_destroy(&t->lock);
}

/* Under t->lock: the index of the first block whose base is above p. */
static size_t upper_bound(const struct loom_svm_table *t, const void *p) {
  size_t lo = 0, hi = t->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((const char *)p < t->blocks[mid].base)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

void *loom_svm_alloc(cl_context ctx, const struct loom_svm_block *want, size_t alignment) {
  assert(want->size > 0 && alignment && !(alignment & (alignment - 1)));
  assert(alignment <= LOOM_SVM_MAX_ALIGNMENT);
  /* The device allocator aligns to pages; a larger alignment is found
   * inside an allocation that much larger. */
  size_t extra = alignment > 4096 ? alignment : 0;
  if (want->size > SIZE_MAX - extra)
    return NULL;
  cl_device_id dev = ctx->devices[0];
  char *storage = dev->ops->mem_alloc(&dev->desc, want->size + extra);
  if (!storage)
    return NULL;
  struct loom_svm_block b = *want;
  b.storage = storage;
  b.base = (char *)(((uintptr_t)storage + alignment - 1) & ~(uintptr_t)(alignment - 1));
  assert(b.base + b.size <= storage + want->size + extra);

  struct loom_svm_table *t = &ctx->svm;
  pthread_mutex_lock(&t->lock);
  if (t->count == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    struct loom_svm_block *grown = realloc(t->blocks, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&t->lock);
      release_storage(ctx, storage);
      return NULL;
    }
    t->blocks = grown;
    t->cap = cap;
  }
  size_t at = upper_bound(t, b.base);
  memmove(&t->blocks[at + 1], &t->blocks[at], (t->count - at) * sizeof *t->blocks);
  t->blocks[at] = b;
  t->count++;
  pthread_mutex_unlock(&t->lock);
  return b.base;
}

bool loom_svm_free(cl_context ctx, void *ptr) {
  struct loom_svm_table *t = &ctx->svm;
  pthread_mutex_lock(&t->lock);
  size_t at = upper_bound(t, ptr);
  if (at == 0 || t->blocks[at - 1].base != (char *)ptr) {
    pthread_mutex_unlock(&t->lock);
    return false;
  }
  void *storage = t->blocks[at - 1].storage;
  memmove(&t->blocks[at - 1], &t->blocks[at], (t->count - at) * sizeof *t->blocks);
  t->count--;
  pthread_mutex_unlock(&t->lock);
  release_storage(ctx, storage);
  return true;
}

bool loom_svm_find(cl_context ctx, const void *ptr, struct loom_svm_block *out) {
  struct loom_svm_table *t = &ctx->svm;
  pthread_mutex_lock(&t->lock);
  size_t at = upper_bound(t, ptr);
  bool found = at > 0 &&
               (size_t)((const char *)ptr - t->blocks[at - 1].base) < t->blocks[at - 1].size;
  if (found && out)
    *out = t->blocks[at - 1];
  pthread_mutex_unlock(&t->lock);
  return found;
}

/* ---------- clEnqueueSVMFree ---------- */

struct svm_free_args {
  loom_svm_free_fn fn;
  void *user_data;
  cl_uint n;
  void **ptrs; /* points at inline_ptrs or a heap array */
  void *inline_ptrs[(256 - 3 * sizeof(void *) - sizeof(cl_uint) - 4) / sizeof(void *)];
};
static_assert(sizeof(struct svm_free_args) <= sizeof(((struct loom_command *)0)->inline_payload),
              "SVM free arguments fit inline");

static cl_int svm_free_run(struct loom_command *cmd) {
  struct svm_free_args *a = cmd->payload;
  cl_event ev = loom_command_event(cmd);
  if (a->fn) {
    a->fn(ev->queue, a->n, a->ptrs, a->user_data);
  } else {
    for (cl_uint i = 0; i < a->n; i++)
      if (a->ptrs[i])
        loom_svm_free(ev->context, a->ptrs[i]); /* a stray pointer is ignored */
  }
  return CL_COMPLETE;
}

static void svm_free_cleanup(struct loom_command *cmd) {
  struct svm_free_args *a = cmd->payload;
  if (a->ptrs != a->inline_ptrs)
    free(a->ptrs);
  a->ptrs = a->inline_ptrs;
}

cl_int loom_enqueue_svm_free(cl_command_queue q, cl_uint n, void *const *ptrs,
                             loom_svm_free_fn fn, void *user_data, cl_uint num_wait,
                             const cl_event *wait, cl_event *event_out) {
  cl_event ev = loom_command_new(q, CL_COMMAND_SVM_FREE);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  struct svm_free_args *a = (struct svm_free_args *)ev->cmd.inline_payload.bytes;
  a->fn = fn;
  a->user_data = user_data;
  a->n = n;
  a->ptrs = a->inline_ptrs;
  if (n > sizeof a->inline_ptrs / sizeof *a->inline_ptrs &&
      !(a->ptrs = malloc(n * sizeof *a->ptrs))) {
    a->ptrs = a->inline_ptrs;
    loom_command_discard(ev);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (n)
    memcpy(a->ptrs, ptrs, n * sizeof *a->ptrs);
  ev->cmd.payload = a;
  ev->cmd.run = svm_free_run;
  ev->cmd.cleanup = svm_free_cleanup;
  return loom_command_submit(ev, num_wait, wait, event_out, false);
}
