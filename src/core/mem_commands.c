/* The commands that move bytes between memory objects and host memory (read,
 * write, copy, in 1D and as rectangles), fill buffers and SVM, or only order and hold
 * references (map, unmap, migrate: storage is host memory, so nothing moves).
 * Their arguments live in the command's inline payload. */
#include "command.h"
#include "memobj.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------- copy ---------- */

struct copy_args {
  struct loom_copy_side dst, src;
  size_t region[3];
};
static_assert(sizeof(struct copy_args) <= sizeof(((struct loom_command *)0)->inline_payload),
              "copy arguments fit inline");

static bool contiguous(const struct loom_copy_side *s, const size_t region[3]) {
  return (region[1] == 1 || s->row_pitch == region[0]) &&
         (region[2] == 1 || s->slice_pitch == region[0] * region[1]);
}

/* Copies and fills of 4 MiB or more are split into 256 KiB chunks that
 * the device runs on its cores (run_chunks): one thread's memcpy reaches
 * about 60% of the bandwidth the cores reach together. Below that, waking
 * the workers costs more than they save. */
#define PARALLEL_MIN ((size_t)4 << 20)
#define CHUNK ((size_t)256 << 10)

struct chunked {
  char *dst;
  const char *src;       /* copies */
  const unsigned char *pattern; /* fills: pattern_size divides CHUNK */
  size_t bytes, pattern_size;
};

static void copy_chunks(void *ctx, size_t first, size_t count) {
  const struct chunked *c = ctx;
  size_t begin = first * CHUNK, end = (first + count) * CHUNK;
  memcpy(c->dst + begin, c->src + begin, (end < c->bytes ? end : c->bytes) - begin);
}

static void fill_chunks(void *ctx, size_t first, size_t count) {
  const struct chunked *c = ctx;
  size_t begin = first * CHUNK, end = (first + count) * CHUNK;
  loom_fill_bytes((unsigned char *)c->dst + begin, c->pattern, c->pattern_size,
                  (end < c->bytes ? end : c->bytes) - begin);
}

/* runs fn over c's bytes on dev's cores, or on this thread */
static void chunked(cl_device_id dev, void (*fn)(void *, size_t, size_t), struct chunked *c) {
  if (c->bytes >= PARALLEL_MIN && dev->ops->run_chunks)
    dev->ops->run_chunks(&dev->desc, (c->bytes + CHUNK - 1) / CHUNK, fn, c);
  else
    fn(c, 0, (c->bytes + CHUNK - 1) / CHUNK);
}

static cl_int copy_run(struct loom_command *cmd) {
  const struct copy_args *a = cmd->payload;
  const size_t *r = a->region;
  if (contiguous(&a->dst, r) && contiguous(&a->src, r)) {
    struct chunked c = {.dst = a->dst.base, .src = a->src.base, .bytes = r[0] * r[1] * r[2]};
    uintptr_t d = (uintptr_t)c.dst, s = (uintptr_t)c.src;
    if ((d >= s ? d - s : s - d) >= c.bytes) /* disjoint */
      chunked(cmd->device, copy_chunks, &c);
    else /* memmove: the application may pass a mapped pointer of the same buffer */
      memmove(a->dst.base, a->src.base, c.bytes);
    return CL_COMPLETE;
  }
  for (size_t z = 0; z < r[2]; z++) {
    char *d = a->dst.base + z * a->dst.slice_pitch;
    const char *s = a->src.base + z * a->src.slice_pitch;
    for (size_t y = 0; y < r[1]; y++)
      memmove(d + y * a->dst.row_pitch, s + y * a->src.row_pitch, r[0]);
  }
  return CL_COMPLETE;
}

static void copy_cleanup(struct loom_command *cmd) {
  struct copy_args *a = cmd->payload;
  if (a->dst.mem)
    LOOM_RELEASE(a->dst.mem);
  if (a->src.mem)
    LOOM_RELEASE(a->src.mem);
  a->dst.mem = a->src.mem = NULL;
}

cl_int loom_enqueue_copy(cl_command_queue q, cl_command_type type,
                         const struct loom_copy_side *dst,
                         const struct loom_copy_side *src,
                         const size_t region[3], cl_uint num_wait,
                         const cl_event *wait, cl_event *event_out,
                         bool blocking) {
  cl_event ev = loom_command_new(q, type);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  struct copy_args *a = (struct copy_args *)ev->cmd.inline_payload.bytes;
  a->dst = *dst;
  a->src = *src;
  memcpy(a->region, region, sizeof a->region);
  if (a->dst.mem)
    LOOM_RETAIN(a->dst.mem);
  if (a->src.mem)
    LOOM_RETAIN(a->src.mem);
  ev->cmd.payload = a;
  ev->cmd.run = copy_run;
  ev->cmd.cleanup = copy_cleanup;
  return loom_command_submit(ev, num_wait, wait, event_out, blocking);
}

/* ---------- fill ---------- */

struct fill_args {
  unsigned char pattern[128];
  cl_mem mem;
  char *dst;
  size_t size, pattern_size;
};
static_assert(sizeof(struct fill_args) <= sizeof(((struct loom_command *)0)->inline_payload),
              "fill arguments fit inline");

void loom_fill_bytes(unsigned char *dst, const void *pattern, size_t pattern_size, size_t size) {
  if (size == 0)
    return;
  if (pattern_size == 1) {
    memset(dst, *(const unsigned char *)pattern, size);
    return;
  }
  /* Lay down one pattern, then double the filled prefix until a chunk of a
   * cache-friendly size exists; then repeat that chunk. */
  const size_t chunk_max = 64 * 1024;
  memcpy(dst, pattern, pattern_size);
  size_t done = pattern_size;
  while (done < size && done < chunk_max) {
    size_t n = done <= size - done ? done : size - done;
    memcpy(dst + done, dst, n);
    done += n;
  }
  const size_t chunk = done; /* a multiple of the pattern size */
  while (done < size) {
    size_t n = chunk <= size - done ? chunk : size - done;
    memcpy(dst + done, dst, n);
    done += n;
  }
}

static cl_int fill_run(struct loom_command *cmd) {
  const struct fill_args *a = cmd->payload;
  struct chunked c = {.dst = a->dst, .pattern = a->pattern, .pattern_size = a->pattern_size,
                      .bytes = a->size};
  chunked(cmd->device, fill_chunks, &c);
  return CL_COMPLETE;
}

static void fill_cleanup(struct loom_command *cmd) {
  struct fill_args *a = cmd->payload;
  if (a->mem)
    LOOM_RELEASE(a->mem);
  a->mem = NULL;
}

cl_int loom_enqueue_fill_ptr(cl_command_queue q, cl_command_type type, cl_mem mem,
                             void *dst, const void *pattern, size_t pattern_size,
                             size_t size, cl_uint num_wait, const cl_event *wait,
                             cl_event *event_out) {
  assert(pattern_size > 0 && pattern_size <= sizeof(((struct fill_args *)0)->pattern));
  cl_event ev = loom_command_new(q, type);
  if (!ev)
    return CL_OUT_OF_HOST_MEMORY;
  struct fill_args *a = (struct fill_args *)ev->cmd.inline_payload.bytes;
  memcpy(a->pattern, pattern, pattern_size);
  a->pattern_size = pattern_size;
  a->mem = mem;
  a->dst = dst;
  a->size = size;
  if (mem)
    LOOM_RETAIN(mem);
  ev->cmd.payload = a;
  ev->cmd.run = fill_run;
  ev->cmd.cleanup = fill_cleanup;
  return loom_command_submit(ev, num_wait, wait, event_out, false);
}

cl_int loom_enqueue_fill(cl_command_queue q, cl_mem mem, const void *pattern,
                         size_t pattern_size, size_t offset, size_t size,
                         cl_uint num_wait, const cl_event *wait,
                         cl_event *event_out) {
  return loom_enqueue_fill_ptr(q, CL_COMMAND_FILL_BUFFER, mem, mem->data + offset, pattern,
                               pattern_size, size, num_wait, wait, event_out);
}

/* ---------- no-op commands holding references ---------- */

struct noop_args {
  cl_uint num_mems;
  cl_mem *mems; /* points at inline_mems or a heap array */
  cl_mem inline_mems[(256 - sizeof(cl_uint) - sizeof(cl_mem *)) / sizeof(cl_mem)];
};
static_assert(sizeof(struct noop_args) <= sizeof(((struct loom_command *)0)->inline_payload),
              "no-op arguments fit inline");

static cl_int noop_run(struct loom_command *cmd) {
  (void)cmd;
  return CL_COMPLETE;
}

static void noop_cleanup(struct loom_command *cmd) {
  struct noop_args *a = cmd->payload;
  for (cl_uint i = 0; i < a->num_mems; i++)
    LOOM_RELEASE(a->mems[i]);
  if (a->mems != a->inline_mems)
    free(a->mems);
  a->num_mems = 0;
  a->mems = a->inline_mems;
}

cl_int loom_enqueue_mem_noop(cl_command_queue q, cl_command_type type,
                             cl_uint num_mems, const cl_mem *mems,
                             cl_uint num_wait, const cl_event *wait,
                             cl_event *event_out, bool blocking) {
  cl_mem *list = NULL;
  size_t cap = sizeof(((struct noop_args *)0)->inline_mems) / sizeof(cl_mem);
  if (num_mems > cap) {
    list = malloc(num_mems * sizeof *list);
    if (!list)
      return CL_OUT_OF_HOST_MEMORY;
  }
  cl_event ev = loom_command_new(q, type);
  if (!ev) {
    free(list);
    return CL_OUT_OF_HOST_MEMORY;
  }
  struct noop_args *a = (struct noop_args *)ev->cmd.inline_payload.bytes;
  a->mems = list ? list : a->inline_mems;
  a->num_mems = num_mems;
  for (cl_uint i = 0; i < num_mems; i++) {
    a->mems[i] = mems[i];
    LOOM_RETAIN(mems[i]);
  }
  ev->cmd.payload = a;
  ev->cmd.run = noop_run;
  ev->cmd.cleanup = noop_cleanup;
  return loom_command_submit(ev, num_wait, wait, event_out, blocking);
}
