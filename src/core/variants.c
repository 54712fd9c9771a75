/* Kernels specialised for the local size they are launched with.
 *
 * The work-group function a build makes works for any local size, which it
 * reads from its context. Compiled again with the size as constants
 * (compiler/workgroup/wg_specialize.c), O3 knows the work-item loops' trip
 * counts: on 2 cores tiled SGEMM on 16x16 groups runs 1.65x faster, DGEMM
 * 1.23x, the transpose 1.15x. But not every kernel gains: a tree reduction
 * written the tutorial way (barrier after the conditional add) ran 30%
 * slower specialised. So:
 *
 *  - A kernel's first launch gets its code for that launch's local size
 *    (and image formats) as the last step of the kernel's build, on the
 *    launching thread: from the disk cache (a few milliseconds), or compiled
 *    (0.05-0.5 s; PoCL compiles at the first launch too, and slower), and
 *    the trial runs in that launch. So the launches after the first run
 *    the code the hundredth runs: CLBlast's XgemmDirectTN (8 x 8, SGEMM 512
 *    on AMD Zen 5) ran its generic code at 28 GFLOP/s for the 0.7 s its
 *    background compilation took, a 3 x 3 filter on a 2048^2 float image
 *    its second launch in 60-130 ms for 7, a tiled SGEMM 1024 its launches
 *    2-10 in 31-75 ms for 16 (first launches now 2.7 s instead of 2.1,
 *    125 ms instead of 190, 130 ms instead of 40; PoCL 3.1: 8.0 s, 315 ms,
 *    1.3 s). So does a kernel that fixes its work-group size
 *    (reqd_work_group_size) at that size, first launch or not: it runs at
 *    no other size (but for a non-uniform launch's last groups, which keep
 *    the generic code).
 *  - Another local size (or other formats) of the same kernel asks one
 *    background thread for its code, and no launch waits for it: launches
 *    run the generic code until it is loaded. The disk cache keeps the code
 *    for later runs, and a cached one is loaded at once.
 *  - Not in the cache, it is compiled only once launches of that size have
 *    run the generic code for HOT_NS: a compilation takes 0.1-0.5 s of a
 *    core, which on 2 cores slowed the launches beside it by up to 2x
 *    (CLBlast's SGEMM 512: 34 calls at 15-20 ms instead of 10, for a
 *    specialised XgemmDirectTN 0.7% faster). A kernel that runs briefly at
 *    that size never pays for it. (At a lower priority, the compilation
 *    took seconds beside a long kernel using every core, and DGEMM ran
 *    generic meanwhile.) Except a kernel with image arguments, compiled at
 *    once: its generic code dispatches on the formats for every pixel and
 *    runs 10-20x slower, so the compilation pays for itself within tens of
 *    milliseconds.
 *  - The look in the cache goes ahead of queued compilations (one thread
 *    does both; a kernel's second variant otherwise learnt it was not
 *    cached only after another kernel's 2 s compilation on a loaded
 *    machine).
 *  - Then a trial: the next launch's full-sized groups alternate between the
 *    two codes, each group timed by the driver; once TRIAL_GROUPS of each
 *    ran (one launch of 32 groups or more), the faster code stays (the
 *    specialised one must not be slower) if it is 25% faster, else once
 *    four times as many ran (a close call on a noisy machine goes either
 *    way on few groups); the driver runs the rest of
 *    that launch on the code faster so far once each ran TRIAL_GROUPS groups
 *    and both TRIAL_SETTLE_NS together (or each TRIAL_SETTLE_MANY). Timing groups side by side in one
 *    launch compares them in the same cache and load conditions, and costs
 *    at most 2 ms of the slower code (half the launch, before the driver
 *    settled: the image filter's trial launch took 60 ms for 7).
 *
 * Only kernels with barriers are specialised for their local size: their
 * work-item loops are short (one per region between barriers), so the loop
 * overhead the constants remove is large; without barriers the one
 * work-item loop spans the group and gains little. Kernels with image or
 * sampler arguments are specialised for their images' formats and their
 * samplers' modes as well (a variant per local size and formats): the
 * image builtins dispatch on them, which keeps a work-item loop from
 * vectorising; as constants, the dispatch folds away. Kernels whose divergent loops run in passes
 * over the group (divergent_loops.c) are left generic too: with constant
 * sizes O3 reshapes those passes badly (Mandelbrot 47 -> 30). So are
 * kernels with sub-group barriers (workgroup/sg_driver.c): their constant
 * loops get unrolled rather than vectorised (a sub-group reduction of
 * 128 MiB: 34 -> 18 GB/s).
 *
 * LOOMCL_SPECIALIZE=0 turns this off; =verbose reports each kernel
 * specialised and each trial's outcome on stderr; =always specialises on
 * the launching thread at the second launch and keeps the code untimed (as
 * verbose, reported): the test suite and the fuzzer use it to run the
 * specialised code deterministically. */
#include "loom_image.h"
#include "program.h"
#include "support/fork_guard.h"
#include "support/util.h"
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VARIANTS_PER_KERNEL = 4, TRIAL_GROUPS = 16, MAX_TRIAL_LAUNCHES = 32 };
/* run time of the generic code after which a specialisation is compiled */
#define HOT_NS ((uint64_t)100 * 1000 * 1000)
/* a trial launch settles on one code once each ran TRIAL_GROUPS groups and
 * both together this long: 16 groups of a tree reduction's 100 ns, timed one
 * by one while the caches warmed, chose the slower code as often as not */
#define TRIAL_SETTLE_NS ((uint64_t)2 * 1000 * 1000)
/* ... or once each ran this many: groups of 60 ns (a 36-item reduction on
 * a machine with a fast clock) took 25000 groups to reach 2 ms, the whole
 * launch and more; 4096 of each, clipped, decide as well */
#define TRIAL_SETTLE_MANY ((uint64_t)4096)
/* a trial decides on TRIAL_GROUPS groups of each code when one is this
 * much faster a group, else on TRIAL_CLOSE_GROUPS of each (or
 * MAX_TRIAL_LAUNCHES launches) */
#define TRIAL_CLEAR_MARGIN 1.25
#define TRIAL_CLOSE_GROUPS ((uint64_t)4 * TRIAL_GROUPS)
enum { MODE_OFF, MODE_ON, MODE_VERBOSE, MODE_ALWAYS };

/* LOOMCL_SPECIALIZE's words are 0, 1, verbose, always: MODE_* in that order */
_Static_assert(MODE_OFF == 0 && MODE_ON == 1 && MODE_VERBOSE == 2 && MODE_ALWAYS == 3,
               "LOOMCL_SPECIALIZE choices");

static int mode(void) { return (int)loom_cfg_int(LOOM_CFG_SPECIALIZE); }

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

/* Specialises kernel i of build b for v's local size and loads the code;
 * unless `compile`, only from the disk cache (else v becomes COLD).
 * The caller holds a kernel of the program, so the build cannot be
 * replaced meanwhile; the program's lock is held only to load the code,
 * so that the program's kernels can be launched while this compiles. */
static void specialise(cl_program p, struct loom_program_build *b, uint32_t i,
                       struct loom_variant *v, cl_device_id dev, bool compile) {
  const char *options = b->bin.options ? b->bin.options : "";
  const char *kernel = b->bin.kernels[i].name;
  struct loom_target target;
  loom_device_target(dev, &target);
  static const char what[] = "specialised kernel";
  const void *parts[] = {what, b->bin.bitcode.data, options, kernel, v->local, &v->args};
  size_t sizes[] = {sizeof what, b->bin.bitcode.size, strlen(options), strlen(kernel) + 1,
                    sizeof v->local, sizeof v->args};
  char key[33];
  loom_cache_key(parts, sizes, 6, &target, key);
  struct loom_program_binary sb = {0};
  char *log = NULL;
  int rc = loom_cache_get_binary(key, &sb);
  if (rc != 0 && !compile && !v->args.num) {
    atomic_store(&v->state, LOOM_VARIANT_COLD);
    return;
  }
  if (rc != 0) {
    rc = loom_specialize_kernel(&b->bin.bitcode, options, &target, kernel, v->local, &v->args,
                                &sb, &log);
    if (rc == 0)
      loom_cache_put_binary(key, &sb);
  }
  /* its scratch: the build may have unrolled a barrier loop (more values
   * live across barriers than in the generic code) */
  const struct loom_kernel_meta *sm = NULL;
  for (uint32_t j = 0; rc == 0 && j < sb.num_kernels && !sm; j++)
    if (!strcmp(sb.kernels[j].name, kernel))
      sm = &sb.kernels[j];
  if (sm) {
    v->scratch[0] = sm->scratch_per_item;
    v->scratch[1] = sm->scratch_uniform;
  }
  loom_wg_fn fn = NULL;
  pthread_mutex_lock(&p->lock);
  if (sm && b->device->ops->code_add(b->code, &sb.object, &log) == 0) {
    char symbol[LOOM_SPEC_SYMBOL_MAX];
    loom_wg_spec_symbol(kernel, v->local, &v->args, symbol, sizeof symbol);
    fn = b->device->ops->code_lookup(b->code, symbol);
  }
  atomic_store_explicit(&v->fn, fn, memory_order_release);
  atomic_store(&v->state, !fn                    ? LOOM_VARIANT_FAILED
                          : mode() == MODE_ALWAYS ? LOOM_VARIANT_READY
                                                  : LOOM_VARIANT_TRIAL);
  pthread_mutex_unlock(&p->lock);
  if (mode() >= MODE_VERBOSE)
    fprintf(stderr, "LoomCL: kernel %s %s for local size %llux%llux%llu%s%s%s\n", kernel,
            fn ? "specialised" : "not specialised", (unsigned long long)v->local[0],
            (unsigned long long)v->local[1], (unsigned long long)v->local[2],
            v->args.num ? " and its image and sampler arguments" : "",
            fn || !log ? "" : ": ", fn || !log ? "" : log);
  loom_program_binary_free(&sb);
  free(log);
}

/* The image and sampler arguments of a launch (args: its argument
 * snapshot, where an image is its descriptor's address) as a
 * specialisation fixes them; zero-filled beyond the used entries. */
static void spec_args_of(const struct loom_kernel_meta *m, const unsigned char *args,
                         struct loom_spec_args *out) {
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; i < m->num_args && out->num < LOOM_SPEC_MAX_ARGS; i++) {
    const struct loom_arg_meta *a = &m->args[i];
    struct loom_spec_arg *s = &out->arg[out->num];
    if (a->kind == LOOM_ARG_SAMPLER) {
      int32_t bits;
      memcpy(&bits, args + a->offset, sizeof bits);
      *s = (struct loom_spec_arg){.index = i, .is_sampler = 1, .sampler_bits = bits};
      out->num++;
    } else if (a->kind == LOOM_ARG_IMAGE) {
      const struct loom_image *img;
      memcpy(&img, args + a->offset, sizeof img);
      assert(img); /* clSetKernelArg accepts only images */
      *s = (struct loom_spec_arg){.index = i,
                                  .channel_order = img->channel_order,
                                  .channel_type = img->channel_type,
                                  .pixel_size = img->pixel_size,
                                  .num_channels = img->num_channels,
                                  .image_type = img->image_type};
      out->num++;
    }
  }
}

static bool has_image_args(const struct loom_kernel_meta *m) {
  for (uint32_t i = 0; i < m->num_args; i++)
    if (m->args[i].kind == LOOM_ARG_IMAGE || m->args[i].kind == LOOM_ARG_SAMPLER)
      return true;
  return false;
}

/* Is `local` the size the kernel requires (reqd_work_group_size)? */
static bool fixed_size(const struct loom_kernel_meta *m, const size_t local[3]) {
  for (int d = 0; d < 3; d++)
    if (!m->reqd_work_group_size[d] || m->reqd_work_group_size[d] != local[d])
      return false;
  return true;
}

/* the variant of kernel i of b for `local` and `args`, made if there is
 * room (p->lock held) */
static struct loom_variant *find_or_add(struct loom_program_build *b, uint32_t i,
                                        const size_t local[3], const struct loom_spec_args *args) {
  if (!b->variants && !(b->variants = calloc(b->bin.num_kernels + 1, sizeof *b->variants)))
    return NULL;
  unsigned n = 0;
  for (struct loom_variant *v = b->variants[i]; v; v = v->next, n++)
    if (v->local[0] == local[0] && v->local[1] == local[1] && v->local[2] == local[2] &&
        !memcmp(&v->args, args, sizeof *args))
      return v;
  if (n >= MAX_VARIANTS_PER_KERNEL)
    return NULL;
  struct loom_variant *v = calloc(1, sizeof *v);
  if (!v)
    return NULL;
  for (int d = 0; d < 3; d++)
    v->local[d] = local[d];
  v->args = *args;
  v->next = b->variants[i];
  b->variants[i] = v;
  return v;
}

/* ---- the background thread ---- */

struct spec_job {
  cl_kernel kernel; /* an internal reference: no rebuild meanwhile */
  struct loom_program_build *b;
  uint32_t i;
  struct loom_variant *v;
  bool compile; /* else only from the cache */
  struct spec_job *next;
};

static struct {
  pthread_mutex_t lock;
  pthread_cond_t work;
  struct spec_job *head, *tail;
  bool started;
} bg = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

static void *background(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&bg.lock);
    while (!bg.head)
      pthread_cond_wait(&bg.work, &bg.lock);
    struct spec_job *j = bg.head;
    bg.head = j->next;
    if (!bg.head)
      bg.tail = NULL;
    pthread_mutex_unlock(&bg.lock);
    /* releasing the kernel may unload the program's code from the JIT:
     * LLVM work too, which exit must wait for */
    bool working = loom_compiler_work_begin();
    if (working)
      specialise(j->kernel->program, j->b, j->i, j->v, j->kernel->device, j->compile);
    else /* exiting: nobody will launch it */
      atomic_store(&j->v->state, LOOM_VARIANT_FAILED);
    LOOM_RELEASE(j->kernel);
    if (working)
      loom_compiler_work_end();
    free(j);
  }
  return NULL;
}

/* fork(): the child has no background thread (support/fork_guard.c keeps
 * bg.lock whole). Jobs queued in the parent are left to the parent: their
 * variants stay compiling in the child, whose launches run the generic
 * code; its next job starts a thread of its own. */
static void bg_in_fork_child(void) {
  bg.head = bg.tail = NULL;
  bg.started = false;
  pthread_cond_init(&bg.work, NULL);
}

static void guard_bg(void) { loom_fork_guard(&bg.lock, bg_in_fork_child); }

/* queues the specialisation of kernel i of b (k's) for v; false if it cannot */
static bool queue_job(cl_kernel k, struct loom_program_build *b, uint32_t i, struct loom_variant *v,
                      bool compile) {
  struct spec_job *j = calloc(1, sizeof *j);
  if (!j)
    return false;
  LOOM_RETAIN(k);
  *j = (struct spec_job){k, b, i, v, compile, NULL};
  static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
  pthread_once(&guard_once, guard_bg);
  pthread_mutex_lock(&bg.lock);
  if (!bg.started) {
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20); /* LLVM recurses over big functions */
    bg.started = pthread_create(&t, &attr, background, NULL) == 0;
    if (bg.started)
      pthread_detach(t);
    pthread_attr_destroy(&attr);
  }
  bool ok = bg.started;
  if (ok) {
    if (!compile) { /* a look in the cache goes first: no waiting behind a compilation */
      j->next = bg.head;
      bg.head = j;
      if (!bg.tail)
        bg.tail = j;
    } else {
      if (bg.tail)
        bg.tail->next = j;
      else
        bg.head = j;
      bg.tail = j;
    }
    pthread_cond_signal(&bg.work);
  }
  pthread_mutex_unlock(&bg.lock);
  if (!ok) {
    LOOM_RELEASE(k);
    free(j);
  }
  return ok;
}

/* ---- choosing the code of a launch ---- */

struct loom_variant *loom_kernel_variant(cl_kernel k, const size_t local[3],
                                         const unsigned char *args, bool *use_spec,
                                         struct loom_code_trial *trial, bool *timed) {
  *use_spec = *timed = false;
  /* the kernel's metadata never changes: most launches end here, without
   * taking the program's lock */
  if (mode() == MODE_OFF || k->meta->divergent_loops || k->meta->sub_group_barriers ||
      (!k->meta->num_barriers && !has_image_args(k->meta)))
    return NULL;
  struct loom_spec_args spec;
  spec_args_of(k->meta, args, &spec);
  cl_program p = k->program;
  pthread_mutex_lock(&p->lock);
  struct loom_program_build *b = loom_program_build_for(p, k->device);
  struct loom_variant *v = NULL;
  if (b && b->code && b->bin.bitcode.size && k->meta >= b->bin.kernels &&
      k->meta < b->bin.kernels + b->bin.num_kernels &&
      !(b->bin.options && strstr(b->bin.options, "-cl-opt-disable"))) {
    uint32_t i = (uint32_t)(k->meta - b->bin.kernels);
    v = find_or_add(b, i, local, &spec);
    int state = v ? atomic_load(&v->state) : LOOM_VARIANT_FAILED;
    if (v && state == LOOM_VARIANT_NEW && mode() == MODE_ALWAYS) {
      /* the second launch waits for it: deterministic, for tests */
      if (++v->launches == 2) {
        atomic_store(&v->state, LOOM_VARIANT_COMPILING);
        pthread_mutex_unlock(&p->lock);
        specialise(p, b, i, v, k->device, true);
        *use_spec = atomic_load(&v->state) == LOOM_VARIANT_READY;
        return v;
      }
    } else if (v && state == LOOM_VARIANT_NEW &&
               (fixed_size(k->meta, local) || (b->variants[i] == v && !v->next))) {
      /* the kernel's first launch, or the size it fixes: its code for that
       * size (those formats) is the last step of its build, at that launch
       * (the generic code stays for the trial and a non-uniform launch's
       * last groups) */
      atomic_store(&v->state, LOOM_VARIANT_COMPILING);
      pthread_mutex_unlock(&p->lock);
      specialise(p, b, i, v, k->device, true);
      pthread_mutex_lock(&p->lock);
      state = atomic_load(&v->state); /* this launch runs the trial below */
    } else if (v && (state == LOOM_VARIANT_NEW ||
                     (state == LOOM_VARIANT_COLD && atomic_load(&v->run_ns) >= HOT_NS))) {
      bool compile = state == LOOM_VARIANT_COLD;
      atomic_store(&v->state, queue_job(k, b, i, v, compile) ? LOOM_VARIANT_COMPILING
                                                             : LOOM_VARIANT_FAILED);
    }
    if (state == LOOM_VARIANT_TRIAL) {
      /* groups alternate, starting with the other code each time: a
       * launch of one group still tries both over two launches */
      *use_spec = *timed = true;
      trial->parity = v->trial_launches++ & 1;
      trial->settle_groups = TRIAL_GROUPS;
      trial->settle_ns = TRIAL_SETTLE_NS;
      trial->settle_many = TRIAL_SETTLE_MANY;
      atomic_init(&trial->settled, -1);
      for (int c = 0; c < 2; c++)
        atomic_init(&trial->min_ns[c], UINT64_MAX);
    } else if (state == LOOM_VARIANT_READY) {
      *use_spec = true;
    }
  }
  pthread_mutex_unlock(&p->lock);
  return v;
}

void loom_variant_ran(struct loom_variant *v, uint64_t ns) {
  atomic_fetch_add_explicit(&v->run_ns, ns, memory_order_relaxed);
}

void loom_variant_timed(cl_kernel k, struct loom_variant *v, const struct loom_code_trial *t) {
  cl_program p = k->program;
  pthread_mutex_lock(&p->lock);
  if (atomic_load(&v->state) != LOOM_VARIANT_TRIAL) {
    pthread_mutex_unlock(&p->lock); /* decided while this launch ran */
    return;
  }
  for (int i = 0; i < 2; i++) {
    v->trial_ns[i] += atomic_load_explicit(&t->ns[i], memory_order_relaxed);
    v->trial_groups[i] += atomic_load_explicit(&t->groups[i], memory_order_relaxed);
  }
  /* enough groups of each, or launches that have no full-sized groups.
   * Counted as they complete: PyOpenCL's scan enqueued its 32 launches
   * before the first completed, and the trial decided on that one launch's
   * 6 groups of each code */
  v->trial_done++;
  double per_group[2];
  for (int i = 0; i < 2; i++)
    per_group[i] = v->trial_groups[i] ? (double)v->trial_ns[i] / (double)v->trial_groups[i] : 0;
  bool keep = v->trial_groups[0] && v->trial_groups[1] && per_group[1] <= per_group[0];
  /* a close call waits for more groups: PyOpenCL's scan runs 18 groups of
   * each code in its first launch, milliseconds each beside a background
   * compilation, and kept either code by up to 18% (4.1 against 3.7 GB/s) */
  uint64_t fewest = v->trial_groups[0] < v->trial_groups[1] ? v->trial_groups[0] : v->trial_groups[1];
  double lo = keep ? per_group[1] : per_group[0], hi = keep ? per_group[0] : per_group[1];
  bool clear = hi >= TRIAL_CLEAR_MARGIN * lo;
  bool decided = (fewest >= TRIAL_GROUPS && clear) || fewest >= TRIAL_CLOSE_GROUPS ||
                 v->trial_done >= MAX_TRIAL_LAUNCHES;
  if (decided)
    atomic_store(&v->state, keep ? LOOM_VARIANT_READY : LOOM_VARIANT_SLOWER);
  pthread_mutex_unlock(&p->lock);
  if (decided && mode() >= MODE_VERBOSE)
    fprintf(stderr,
            "LoomCL: kernel %s for local size %llux%llux%llu: specialised %.0f ns, generic %.0f ns a group "
            "(%llu and %llu groups timed): %s\n",
            k->meta->name, (unsigned long long)v->local[0], (unsigned long long)v->local[1],
            (unsigned long long)v->local[2], per_group[1], per_group[0],
            (unsigned long long)v->trial_groups[1], (unsigned long long)v->trial_groups[0],
            keep ? "specialised kept" : "generic kept");
}
