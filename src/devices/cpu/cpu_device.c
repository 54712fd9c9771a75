/* The CPU device: memory is host memory; kernels run on the thread pool. */
#include "device.h"
#include "cpu.h"
#include "cpu_jit.h"
#include "cpu_printf.h"
#include "printf/printf.h"
#include "config.h"
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define PAGE ((size_t)4096)

/* Buffer storage: never in the malloc heap. Applications' kernels write past
 * the end of their buffers (piglit's bswap writes 96 bytes into a 32-byte
 * buffer; valgrind names many such programs): in the heap that destroys
 * malloc's metadata and glibc aborts the process later, far from the cause.
 * Every buffer is its own anonymous mapping, page aligned, rounded up to
 * whole pages plus one page of padding, so an overrun of up to a page lands
 * in the buffer's own padding (never another buffer, never the heap), and
 * beyond that in another mapping or an unmapped page (a fault, which a kernel
 * reports as CL_OUT_OF_RESOURCES). Large buffers are aligned to 2 MiB and
 * asked for transparent huge pages (where the system leaves that to
 * madvise): a kernel streaming through them then takes a TLB miss per 2 MiB
 * instead of per 4 KiB, and the first touch faults in fewer, larger pages.
 * The padding costs address space only: a page never touched takes no
 * memory.
 *
 * The mappings' lengths live in a table beside them (mem_free gets only the
 * pointer), out of an overrun's reach; small freed mappings are kept for
 * reuse, so creating and releasing small buffers stays cheap.
 *
 * Debug mode (LOOMCL_CHECK_OVERRUN=1): the padding is filled with a pattern, checked when the buffer is
 * freed; a changed byte is reported on stderr with the buffer's size and how
 * far past its end the kernel wrote. */
#define OVERRUN_BYTE 0xA5u

struct span {
  uintptr_t ptr; /* 0: empty; TOMB: deleted */
  size_t map_len; /* the whole mapping, padding included */
  size_t size; /* what was asked for */
};
#define TOMB ((uintptr_t)1)

static pthread_mutex_t spans_lock = PTHREAD_MUTEX_INITIALIZER;
static struct span *spans;
static size_t spans_cap, spans_used; /* used counts live entries and tombstones */

/* freed small mappings, by length in pages (1 .. CACHE_PAGES) */
#define CACHE_PAGES 16
#define CACHE_DEPTH 16
static void *cache[CACHE_PAGES + 1][CACHE_DEPTH];
static int cache_n[CACHE_PAGES + 1];

/* Freed large mappings, kept for the next buffer of the same length: a
 * library that makes its temporaries on every call (CLBlast's padded and
 * transposed copies of A, B and C) otherwise gets fresh pages each time, and
 * the kernel zeroes every one at its first touch: 5% of CLBlast's SGEMM
 * 1024 went to clear_page. At most BIG_DEPTH mappings and BIG_BYTES in all,
 * the oldest dropped first, and all of them before an allocation fails. A
 * buffer's contents are undefined until written (OpenCL), so a reused
 * mapping is not cleared. */
#define BIG_DEPTH 8
#define BIG_BYTES ((size_t)256 << 20)
static struct {
  void *ptr;
  size_t len;
} big[BIG_DEPTH];
static int big_n;
static size_t big_bytes;

/* spans_lock held: a kept mapping of exactly len bytes, or NULL */
static void *big_take(size_t len) {
  for (int i = big_n - 1; i >= 0; i--)
    if (big[i].len == len) {
      void *p = big[i].ptr;
      big_bytes -= len;
      memmove(&big[i], &big[i + 1], (size_t)(big_n - i - 1) * sizeof big[0]);
      big_n--;
      return p;
    }
  return NULL;
}

/* spans_lock held: keeps p (len bytes); the mappings that no longer fit go
 * to out[] (*nout of them) to be unmapped after the lock */
static void big_keep(void *p, size_t len, void **out, size_t *out_len, int *nout) {
  *nout = 0;
  if (len > BIG_BYTES) {
    out[0] = p, out_len[0] = len, *nout = 1;
    return;
  }
  while (big_n > 0 && (big_n == BIG_DEPTH || big_bytes + len > BIG_BYTES)) {
    out[*nout] = big[0].ptr, out_len[*nout] = big[0].len, (*nout)++;
    big_bytes -= big[0].len;
    memmove(&big[0], &big[1], (size_t)(big_n - 1) * sizeof big[0]);
    big_n--;
  }
  big[big_n].ptr = p, big[big_n].len = len, big_n++;
  big_bytes += len;
}

/* drops every kept large mapping (before an allocation is retried) */
static bool big_flush(void) {
  void *out[BIG_DEPTH];
  size_t out_len[BIG_DEPTH];
  pthread_mutex_lock(&spans_lock);
  int n = big_n;
  for (int i = 0; i < n; i++)
    out[i] = big[i].ptr, out_len[i] = big[i].len;
  big_n = 0;
  big_bytes = 0;
  pthread_mutex_unlock(&spans_lock);
  for (int i = 0; i < n; i++)
    munmap(out[i], out_len[i]);
  return n > 0;
}

static size_t span_hash(uintptr_t p, size_t cap) {
  return (size_t)(((p >> 12) * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

/* spans_lock held */
static bool spans_insert(uintptr_t p, size_t map_len, size_t size) {
  if ((spans_used + 1) * 4 >= spans_cap * 3) {
    size_t ncap = spans_cap ? spans_cap * 2 : 256;
    size_t live = 0;
    for (size_t i = 0; i < spans_cap; i++)
      live += spans[i].ptr > TOMB;
    while (ncap / 4 > live * 2 + 64 && ncap > 256)
      ncap /= 2; /* mostly tombstones: rehash at the same size or smaller */
    struct span *n = calloc(ncap, sizeof *n);
    if (!n)
      return false;
    for (size_t i = 0; i < spans_cap; i++) {
      if (spans[i].ptr <= TOMB)
        continue;
      size_t h = span_hash(spans[i].ptr, ncap);
      while (n[h].ptr)
        h = (h + 1) & (ncap - 1);
      n[h] = spans[i];
    }
    free(spans);
    spans = n;
    spans_cap = ncap;
    spans_used = live;
  }
  size_t h = span_hash(p, spans_cap);
  while (spans[h].ptr > TOMB)
    h = (h + 1) & (spans_cap - 1);
  if (!spans[h].ptr)
    spans_used++;
  spans[h] = (struct span){p, map_len, size};
  return true;
}

/* spans_lock held; removes and returns the entry (ptr 0 if unknown) */
static struct span spans_take(uintptr_t p) {
  struct span none = {0, 0, 0};
  if (!spans_cap)
    return none;
  size_t h = span_hash(p, spans_cap);
  while (spans[h].ptr) {
    if (spans[h].ptr == p) {
      struct span s = spans[h];
      spans[h].ptr = TOMB;
      return s;
    }
    h = (h + 1) & (spans_cap - 1);
  }
  return none;
}

/* LOOMCL_CHECK_OVERRUN */
static bool check_overrun(void) { return loom_cfg_int(LOOM_CFG_CHECK_OVERRUN) > 0; }

static void *map_pages(size_t len, size_t align) {
  size_t extra = align > PAGE ? align : 0;
  char *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  if (!extra)
    return p;
  char *a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
  if (a > p)
    munmap(p, (size_t)(a - p));
  if ((size_t)(a - p) < extra)
    munmap(a + len, extra - (size_t)(a - p));
  return a;
}

static void *cpu_mem_alloc(const struct loom_device_desc *dev, size_t size) {
  (void)dev;
  if (size > SIZE_MAX - 2 * PAGE)
    return NULL;
  size_t len = ((size + PAGE - 1) & ~(PAGE - 1)) + PAGE; /* whole pages and one of padding */
  bool large = size >= 2 * HUGE_PAGE;
  size_t pages = len / PAGE;
  void *p = NULL;
  pthread_mutex_lock(&spans_lock);
  if (pages <= CACHE_PAGES && cache_n[pages] > 0)
    p = cache[pages][--cache_n[pages]];
  else if (pages > CACHE_PAGES)
    p = big_take(len);
  pthread_mutex_unlock(&spans_lock);
  if (!p) {
    p = map_pages(len, large ? HUGE_PAGE : PAGE);
    if (!p && big_flush())
      p = map_pages(len, large ? HUGE_PAGE : PAGE);
    if (!p)
      return NULL;
    if (large)
      madvise(p, len, MADV_HUGEPAGE); /* advice only: failure is harmless */
  }
  pthread_mutex_lock(&spans_lock);
  bool ok = spans_insert((uintptr_t)p, len, size);
  pthread_mutex_unlock(&spans_lock);
  if (!ok) {
    munmap(p, len);
    return NULL;
  }
  if (check_overrun())
    memset((char *)p + size, OVERRUN_BYTE, len - size);
  return p;
}

/* the padding of a buffer about to be freed, in debug mode */
static void report_overrun(const char *p, size_t size, size_t len) {
  size_t first = len, last = 0;
  for (size_t i = size; i < len; i++) {
    if ((unsigned char)p[i] != OVERRUN_BYTE) {
      if (first == len)
        first = i;
      last = i;
    }
  }
  if (first == len)
    return;
  fprintf(stderr,
          "LoomCL: a buffer of %zu bytes at %p was written past its end: bytes %zu to %zu "
          "after it were changed (LOOMCL_CHECK_OVERRUN)\n",
          size, (const void *)p, first - size, last - size);
}

static void cpu_mem_free(const struct loom_device_desc *dev, void *ptr) {
  (void)dev;
  if (!ptr)
    return;
  pthread_mutex_lock(&spans_lock);
  struct span s = spans_take((uintptr_t)ptr);
  pthread_mutex_unlock(&spans_lock);
  assert(s.ptr && "mem_free of storage mem_alloc did not return");
  if (!s.ptr)
    return;
  if (check_overrun())
    report_overrun(ptr, s.size, s.map_len);
  size_t pages = s.map_len / PAGE;
  if (pages <= CACHE_PAGES) {
    pthread_mutex_lock(&spans_lock);
    bool kept = cache_n[pages] < CACHE_DEPTH;
    if (kept)
      cache[pages][cache_n[pages]++] = ptr;
    pthread_mutex_unlock(&spans_lock);
    if (kept)
      return;
  } else {
    void *out[BIG_DEPTH + 1];
    size_t out_len[BIG_DEPTH + 1];
    int n;
    pthread_mutex_lock(&spans_lock);
    big_keep(ptr, s.map_len, out, out_len, &n);
    pthread_mutex_unlock(&spans_lock);
    for (int i = 0; i < n; i++)
      munmap(out[i], out_len[i]);
    return;
  }
  munmap(ptr, s.map_len);
}

static const struct loom_device_ops cpu_ops = {
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .run_chunks = loom_cpu_run_chunks,
    .ndrange = loom_cpu_ndrange,
    .ndrange_state_size = LOOM_CPU_LAUNCH_STATE_SIZE,
    .code_load = loom_jit_load_binary,
    .code_add = loom_jit_add,
    .code_lookup = loom_jit_lookup,
    .code_unload = loom_jit_unload,
    .core_domain = loom_cpu_core_domain,
    .bind_cores = loom_cpu_bind_cores,
};

int loom_cpu_device_init(struct loom_device_desc *desc, const struct loom_device_ops **ops) {
  loom_cpu_fill_info(desc);
  loom_jit_add_host_symbol(LOOM_SYM_PRINTF, (uint64_t)(uintptr_t)loom_cpu_printf);
  *ops = &cpu_ops;
  return 0;
}
