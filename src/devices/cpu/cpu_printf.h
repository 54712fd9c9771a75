/* printf output of kernel launches on the CPU device: each launch owns a
 * buffer of CL_DEVICE_PRINTF_BUFFER_SIZE bytes that its work-groups append
 * whole printf records to, written to stdout when the launch completes. */
#ifndef LOOM_CPU_PRINTF_H
#define LOOM_CPU_PRINTF_H
#include "config.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* CL_DEVICE_PRINTF_BUFFER_SIZE: the output one launch can hold (the spec's
 * minimum for the full profile) */
#define LOOM_CPU_PRINTF_BUFFER_SIZE ((size_t)1 << 20)

struct loom_printf_buffer {
  _Atomic(char *) data; /* allocated by the first printf of the launch */
  atomic_size_t used;   /* bytes of data holding complete records */
  size_t capacity;
};

/* Makes b the buffer printf calls on this thread append to, until the next
 * loom_cpu_printf_bind (NULL: none). */
void loom_cpu_printf_bind(struct loom_printf_buffer *b) LOOM_HIDDEN;
/* Writes what b holds to stdout, flushes stdout and frees b's storage. */
void loom_cpu_printf_flush(struct loom_printf_buffer *b) LOOM_HIDDEN;
/* What generated code calls for printf (printf.h: LOOM_SYM_PRINTF). */
int loom_cpu_printf(const char *format, const void *records, int num_records) LOOM_HIDDEN;

/* printf_render.c: the output of one printf call. The text is appended to
 * *out, which starts in caller-provided storage (heap = false) and moves to
 * the heap when it outgrows it (free data if heap is set afterwards).
 * Returns 0, or -1 for an invalid format, when the text would exceed limit
 * bytes, or when memory runs out. */
struct loom_printf_out {
  char *data;
  size_t len, cap;
  bool heap;
  size_t limit;
};
int loom_printf_render(const char *format, const void *records, unsigned num_records,
                       struct loom_printf_out *out) LOOM_HIDDEN;

#endif
