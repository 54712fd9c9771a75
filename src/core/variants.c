/* Kernels specialised for the local size they are launched with.
 *
 * The work-group function a build makes works for any local size, which it
 * reads from its context. Compiled again with the size as constants
 * (compiler/workgroup/wg_specialize.c), O3 knows the work-item loops' trip counts:
 * on 2 cores tiled SGEMM on 16x16 groups runs 1.65x faster, DGEMM 1.23x,
 * the transpose and the tree reduction 1.15x. A (kernel, local size)
 * launched a second time is specialised then, on the launching thread
 * (tens of milliseconds; the disk cache keeps the code for later runs), and
 * that launch and the later ones run their full-sized groups with it. Done
 * in the background instead, the compilation took one of the two cores
 * from the launches it was meant to speed up (DGEMM 40 -> 24-48 GFLOP/s).
 *
 * Only kernels with barriers are specialised: their work-item loops are
 * short (one per region between barriers), so the loop overhead the
 * constants remove is large. Without barriers the one work-item loop spans
 * the group and gains little, and some kernels lost (n-body's outer-loop
 * vectorisation 90 -> 70 GFLOP/s). Kernels whose divergent loops run in
 * passes over the group (divergent_loops.c) are left generic too: with
 * constant sizes O3 reshapes those passes badly (Mandelbrot 47 -> 30).
 *
 * LOOMCL_SPECIALIZE=0 turns this off; =verbose reports each kernel
 * specialised on stderr. */
#include "program.h"
#include "support/util.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VARIANTS_PER_KERNEL = 4, LAUNCHES_BEFORE_SPECIALISING = 2 };
enum { MODE_OFF, MODE_ON, MODE_VERBOSE };

/* LOOMCL_SPECIALIZE's words are 0, 1, verbose: MODE_* in that order */
_Static_assert(MODE_OFF == 0 && MODE_ON == 1 && MODE_VERBOSE == 2, "LOOMCL_SPECIALIZE choices");

void loom_variants_free(struct loom_program_build *b) {
  if (b->variants)
    for (uint32_t i = 0; i < b->bin.num_kernels; i++)
      for (struct loom_variant *v = b->variants[i], *next; v; v = next) {
        next = v->next;
        free(v);
      }
  free(b->variants);
  b->variants = NULL;
}

/* Specialises kernel i of build b for v's local size and loads the code.
 * The caller holds a kernel of the program, so the build cannot be
 * replaced meanwhile; the program's lock is held only to load the code,
 * so that the program's kernels can be launched while this compiles. */
static void specialise(cl_program p, struct loom_program_build *b, uint32_t i,
                       struct loom_variant *v, cl_device_id dev) {
  const char *options = b->bin.options ? b->bin.options : "";
  const char *kernel = b->bin.kernels[i].name;
  struct loom_target target;
  loom_device_target(dev, &target);
  static const char what[] = "specialised kernel";
  const void *parts[] = {what, b->bin.bitcode.data, options, kernel, v->local};
  size_t sizes[] = {sizeof what, b->bin.bitcode.size, strlen(options), strlen(kernel) + 1,
                    sizeof v->local};
  char key[33];
  loom_cache_key(parts, sizes, 5, &target, key);
  struct loom_blob object = {0};
  char *log = NULL;
  int rc = loom_cache_get(key, &object);
  if (rc != 0) {
    rc = loom_specialize_kernel(&b->bin.bitcode, options, &target, kernel, v->local, &object,
                                &log);
    if (rc == 0)
      loom_cache_put(key, &object);
  }
  loom_wg_fn fn = NULL;
  pthread_mutex_lock(&p->lock);
  if (rc == 0 && b->device->ops->code_add(b->code, &object, &log) == 0) {
    char symbol[LOOM_SPEC_SYMBOL_MAX];
    loom_wg_spec_symbol(kernel, v->local, symbol, sizeof symbol);
    fn = b->device->ops->code_lookup(b->code, symbol);
  }
  atomic_store_explicit(&v->fn, fn, memory_order_release);
  atomic_store(&v->state, fn ? LOOM_VARIANT_READY : LOOM_VARIANT_FAILED);
  pthread_mutex_unlock(&p->lock);
  if (loom_cfg_int(LOOM_CFG_SPECIALIZE) == MODE_VERBOSE)
    fprintf(stderr, "LoomCL: kernel %s %s for local size %llux%llux%llu%s%s\n", kernel,
            fn ? "specialised" : "not specialised", (unsigned long long)v->local[0],
            (unsigned long long)v->local[1], (unsigned long long)v->local[2],
            fn || !log ? "" : ": ", fn || !log ? "" : log);
  loom_blob_free(&object);
  free(log);
}

/* the variant of kernel i of b for `local`, made if there is room (p->lock held) */
static struct loom_variant *find_or_add(struct loom_program_build *b, uint32_t i,
                                        const size_t local[3]) {
  if (!b->variants && !(b->variants = calloc(b->bin.num_kernels + 1, sizeof *b->variants)))
    return NULL;
  unsigned n = 0;
  for (struct loom_variant *v = b->variants[i]; v; v = v->next, n++)
    if (v->local[0] == local[0] && v->local[1] == local[1] && v->local[2] == local[2])
      return v;
  if (n >= MAX_VARIANTS_PER_KERNEL)
    return NULL;
  struct loom_variant *v = calloc(1, sizeof *v);
  if (!v)
    return NULL;
  for (int d = 0; d < 3; d++)
    v->local[d] = local[d];
  v->next = b->variants[i];
  b->variants[i] = v;
  return v;
}

struct loom_variant *loom_kernel_variant(cl_kernel k, const size_t local[3]) {
  /* the kernel's metadata never changes: most launches end here, without
   * taking the program's lock */
  if (loom_cfg_int(LOOM_CFG_SPECIALIZE) == MODE_OFF || !k->meta->num_barriers || k->meta->divergent_loops)
    return NULL;
  cl_program p = k->program;
  pthread_mutex_lock(&p->lock);
  struct loom_program_build *b = loom_program_build_for(p, k->device);
  struct loom_variant *v = NULL;
  bool compile = false;
  if (b && b->code && b->bin.bitcode.size && k->meta >= b->bin.kernels &&
      k->meta < b->bin.kernels + b->bin.num_kernels &&
      !(b->bin.options && strstr(b->bin.options, "-cl-opt-disable"))) {
    uint32_t i = (uint32_t)(k->meta - b->bin.kernels);
    v = find_or_add(b, i, local);
    if (v && ++v->launches == LAUNCHES_BEFORE_SPECIALISING &&
        atomic_load(&v->state) == LOOM_VARIANT_NEW) {
      atomic_store(&v->state, LOOM_VARIANT_COMPILING);
      compile = true;
    }
    if (compile) {
      pthread_mutex_unlock(&p->lock);
      specialise(p, b, i, v, k->device);
      return v;
    }
  }
  pthread_mutex_unlock(&p->lock);
  return v;
}
