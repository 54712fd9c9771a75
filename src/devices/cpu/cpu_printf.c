/* printf on the CPU device. A printf call formats its text on the calling
 * worker thread, reserves room for all of it in the launch's buffer with a
 * compare-and-swap, and copies it there: output of one call never mixes with
 * another's, a work-item's calls stay in program order (its work-group runs
 * on one thread), and a call that does not fit returns -1 and writes nothing.
 * The launch writes the buffer to stdout before its event completes. */
#include "cpu_printf.h"
#include "printf/printf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread struct loom_printf_buffer *current;

void loom_cpu_printf_bind(struct loom_printf_buffer *b) {
  current = b;
}

static char *storage(struct loom_printf_buffer *b) {
  char *d = atomic_load_explicit(&b->data, memory_order_acquire);
  if (d)
    return d;
  char *mine = malloc(b->capacity ? b->capacity : 1);
  if (!mine)
    return NULL;
  if (atomic_compare_exchange_strong(&b->data, &d, mine))
    return mine;
  free(mine); /* another work-group allocated it first */
  return d;
}

/* reserves n bytes; returns their offset, or SIZE_MAX when they do not fit */
static size_t reserve(struct loom_printf_buffer *b, size_t n) {
  size_t at = atomic_load_explicit(&b->used, memory_order_relaxed);
  do {
    if (n > b->capacity - at)
      return SIZE_MAX;
  } while (!atomic_compare_exchange_weak(&b->used, &at, at + n));
  return at;
}

int loom_cpu_printf(const char *format, const void *records, int num_records) {
  struct loom_printf_buffer *b = current;
  if (!b || !format || num_records < 0)
    return -1;
  char local[1024];
  struct loom_printf_out out = {local, 0, sizeof local, false, b->capacity};
  int rc = loom_printf_render(format, records, (unsigned)num_records, &out);
  if (rc == 0 && out.len) {
    char *d = storage(b);
    size_t at = d ? reserve(b, out.len) : SIZE_MAX;
    if (at == SIZE_MAX)
      rc = -1;
    else
      memcpy(d + at, out.data, out.len);
  }
  if (out.heap)
    free(out.data);
  return rc;
}

void loom_cpu_printf_flush(struct loom_printf_buffer *b) {
  char *d = atomic_load(&b->data);
  if (!d)
    return;
  size_t n = atomic_load(&b->used);
  if (n) {
    fwrite(d, 1, n, stdout);
    fflush(stdout);
  }
  free(d);
  atomic_store(&b->data, NULL);
  atomic_store(&b->used, 0);
}
