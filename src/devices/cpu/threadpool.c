#include "threadpool.h"
#include "config.h"
#include "support/fork_guard.h"
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Workers poll for new work for this long after their last job before they
 * sleep, so back-to-back launches start in microseconds. A time, not a
 * count of pause instructions, whose length differs tenfold between CPUs:
 * 200000 of them were 9 ms on the development machine, long enough for the
 * spinning workers to take a tenth of the CPU from a host program that
 * computes between its kernels. */
#define SPIN_NS 200000

uint64_t loom_pool_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct pool {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  struct loom_pool_job *head, *tail;
  atomic_uint posted; /* jobs queued ever: what spinning workers watch */
  unsigned sleepers;
  unsigned workers;
  pthread_t *threads;
};

/* adaptive: the lock is held for a few instructions at a time, so a thread
 * that finds it taken spins briefly instead of sleeping in the kernel (the
 * host thread submitting small launches and the workers picking them up
 * collide on it constantly: about 12% more launches per second) */
static struct pool pool = {.lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP, .wake = PTHREAD_COND_INITIALIZER};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* under the lock: unlink an exhausted job from the queue */
static void unqueue(struct loom_pool_job *job) {
  if (!job->queued)
    return;
  struct loom_pool_job **p = &pool.head, *prev = NULL;
  while (*p && *p != job) {
    prev = *p;
    p = &(*p)->link;
  }
  if (*p) {
    *p = job->link;
    if (pool.tail == job)
      pool.tail = prev;
  }
  job->queued = false;
}

static bool may_run(const struct loom_pool_job *j, unsigned worker) {
  return !j->workers || (j->workers[worker / 64] >> (worker % 64) & 1);
}

/* Under the lock: the first queued job worker may run that has groups left
 * to claim and nobody works on yet, else the first it may run with groups
 * left; NULL if none. Spreading workers over jobs first means that a stream
 * of small launches (an out-of-order queue) runs each on one worker,
 * without two workers bouncing the job's counters between their caches; a
 * lone large launch still gets every worker. A job whose groups are all
 * claimed is left to those running them: joining it only to leave again
 * made its last group's worker wait for fifteen others to pass the lock
 * (a one-group launch took 29 us on 16 cores). */
static struct loom_pool_job *pick_job(unsigned worker) {
  struct loom_pool_job *first = NULL;
  for (struct loom_pool_job *j = pool.head; j; j = j->link) {
    if (!may_run(j, worker) || atomic_load_explicit(&j->next, memory_order_relaxed) >= j->total)
      continue;
    if (!j->users)
      return j;
    if (!first)
      first = j;
  }
  return first;
}

/* Under the lock: every queued job is one worker may run (those it may not,
 * another sub-device's, are not polled for: the next submit wakes it) */
static bool only_own_jobs(unsigned worker) {
  for (struct loom_pool_job *j = pool.head; j; j = j->link)
    if (!may_run(j, worker))
      return false;
  return true;
}

/* poll for SPIN_NS for a job queued after the `seen`-th; true if one was */
static bool spin_for_work(unsigned seen) {
  uint64_t end = loom_pool_now_ns() + SPIN_NS;
  for (unsigned i = 1; atomic_load_explicit(&pool.posted, memory_order_acquire) == seen; i++) {
    cpu_relax();
    if (i % 64 == 0 && loom_pool_now_ns() >= end)
      return false;
  }
  return true;
}

/* how many of `left` unclaimed work-groups the next claim takes
 * (min_chunk >= 1: loom_pool_submit sets it) */
static size_t guided_chunk(size_t left, unsigned workers, size_t min_chunk) {
  size_t n = left / (4 * (size_t)workers);
  if (n < min_chunk)
    n = min_chunk;
  return n < left ? n : left;
}

/* Guided self-scheduling: each claim takes 1/(4 x workers) of the groups
 * still unclaimed, at least job->chunk. Early claims are large (few atomic
 * operations, long runs of neighbouring groups); the last ones are small,
 * so the workers finish together even when one of them started late, was
 * preempted or drew costlier groups. Fixed chunks of 1/(4 x workers) left
 * up to a whole chunk's time, a quarter of a 16-thread launch, to the
 * slowest worker. A quarter of each worker's share rather than the half
 * of classic guided scheduling: groups may cost very different amounts
 * (Mandelbrot's middle rows iterate 256 times, its edges a few), and a
 * first claim of half a share in the costly middle can hold more than a
 * whole share of the work. Returns the first group, >= job->total when none is
 * left. */
static size_t claim(struct loom_pool_job *job, size_t *count) {
  size_t first = atomic_load_explicit(&job->next, memory_order_relaxed);
  for (;;) {
    if (first >= job->total)
      return first;
    size_t n = guided_chunk(job->total - first, job->num_workers, job->chunk);
    if (atomic_compare_exchange_weak_explicit(&job->next, &first, first + n, memory_order_relaxed,
                                              memory_order_relaxed)) {
      *count = n;
      return first;
    }
  }
}

/* The end of a job, by whoever ran its last groups once no other worker
 * is in it: a synchronous job (loom_pool_run) is only marked, as its
 * caller waits for that and then owns it again; other jobs' finish may
 * free them. */
static void finish(struct loom_pool_job *job) {
  if (job->sync)
    atomic_store_explicit(&job->finished, true, memory_order_release);
  else
    job->finish(job);
}

static void *worker_main(void *arg) {
  unsigned id = (unsigned)(uintptr_t)arg;
  for (;;) {
    pthread_mutex_lock(&pool.lock);
    struct loom_pool_job *job;
    while (!(job = pick_job(id))) {
      /* nothing to claim: new jobs are polled for a while */
      unsigned seen = atomic_load_explicit(&pool.posted, memory_order_relaxed);
      if (only_own_jobs(id)) {
        pthread_mutex_unlock(&pool.lock);
        bool more = spin_for_work(seen);
        pthread_mutex_lock(&pool.lock);
        if (more)
          continue;
        if ((job = pick_job(id)))
          break;
      }
      if (atomic_load_explicit(&pool.posted, memory_order_relaxed) != seen)
        continue; /* queued while the lock was free */
      pool.sleepers++;
      pthread_cond_wait(&pool.wake, &pool.lock);
      pool.sleepers--;
    }
    job->users++;
    pthread_mutex_unlock(&pool.lock);

    for (;;) {
      size_t count;
      size_t first = claim(job, &count);
      if (first >= job->total)
        break;
      job->run(job, first, count, id);
      if (atomic_fetch_add(&job->done, count) + count == job->total) {
        /* the job's memory may be freed by finish(): wait for other users */
        pthread_mutex_lock(&pool.lock);
        unqueue(job);
        job->users--;
        while (job->users) {
          pthread_mutex_unlock(&pool.lock);
          cpu_relax();
          pthread_mutex_lock(&pool.lock);
        }
        pthread_mutex_unlock(&pool.lock);
        finish(job);
        job = NULL;
        break;
      }
    }
    if (job) {
      pthread_mutex_lock(&pool.lock);
      unqueue(job);
      job->users--;
      pthread_mutex_unlock(&pool.lock);
    }
  }
  return NULL;
}

unsigned loom_pool_size(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (loom_cfg_int(LOOM_CFG_THREADS) > 0)
    n = (long)loom_cfg_int(LOOM_CFG_THREADS);
  return n > 0 ? (unsigned)n : 1;
}

static pthread_once_t pin_once = PTHREAD_ONCE_INIT;

/* fork(): the child has none of the workers (support/fork_guard.c keeps
 * pool.lock whole across the fork). Its queue starts empty, the parent's
 * launches being the parent's to finish, and its first launch starts
 * workers of its own (Python's multiprocessing forks workers from a
 * parent that may have run kernels already). */
static void pool_in_fork_child(void) {
  pool.head = pool.tail = NULL;
  atomic_store(&pool.posted, 0);
  pool.sleepers = 0;
  pool.workers = 0;
  /* the parent's handles, not freed: free() could wait for ever on an
   * allocator lock another parent thread held at the fork (AddressSanitizer's:
   * one child in about four hundred hung so); a few bytes */
  pool.threads = NULL;
  pthread_cond_init(&pool.wake, NULL);
  /* glibc's once flag is a plain int: the child runs start_pool again */
  pool_once = (pthread_once_t)PTHREAD_ONCE_INIT;
  pin_once = (pthread_once_t)PTHREAD_ONCE_INIT;
}

static void start_pool(void) {
  loom_fork_guard(&pool.lock, pool_in_fork_child);
  pool.workers = loom_pool_size();
  pool.threads = calloc(pool.workers, sizeof *pool.threads);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* kernels keep private arrays on the stack */
  pthread_attr_setstacksize(&attr, 64u << 20);
  for (unsigned i = 0; i < pool.workers; i++) {
    pthread_t t;
    pthread_create(&t, &attr, worker_main, (void *)(uintptr_t)i);
    pthread_detach(t);
    if (pool.threads)
      pool.threads[i] = t;
  }
  pthread_attr_destroy(&attr);
}

unsigned loom_pool_workers(void) {
  pthread_once(&pool_once, start_pool);
  return pool.workers;
}

int loom_pool_cpu_of(unsigned w) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) == 0)
    return -1;
  unsigned count = (unsigned)CPU_COUNT(&allowed), want = w % count;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &allowed) && want-- == 0)
      return c;
  return -1;
}

static void pin_workers(void) {
  unsigned n = loom_pool_workers();
  for (unsigned w = 0; pool.threads && w < n; w++) {
    int cpu = loom_pool_cpu_of(w);
    if (cpu < 0)
      continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(pool.threads[w], sizeof one, &one); /* best effort */
  }
}

void loom_pool_pin(void) { pthread_once(&pin_once, pin_workers); }

/* Queues job with `users` workers already counted as working on it. */
static void enqueue(struct loom_pool_job *job, unsigned users) {
  unsigned workers = loom_pool_workers();
  if (!job->workers || !job->num_workers) {
    job->workers = NULL;
    job->num_workers = workers;
  }
  atomic_store(&job->next, 0);
  atomic_store(&job->done, 0);
  job->link = NULL;
  if (!job->chunk) {
    /* the smallest claim: a sixty-fourth of each worker's share */
    job->chunk = job->total / ((size_t)job->num_workers * 64);
    if (job->chunk < 1)
      job->chunk = 1;
  }
  pthread_mutex_lock(&pool.lock);
  job->users = users;
  job->queued = true;
  if (pool.tail)
    pool.tail->link = job;
  else
    pool.head = job;
  pool.tail = job;
  atomic_fetch_add_explicit(&pool.posted, 1, memory_order_release);
  if (pool.sleepers)
    pthread_cond_broadcast(&pool.wake);
  pthread_mutex_unlock(&pool.lock);
}

void loom_pool_submit(struct loom_pool_job *job) {
  job->sync = false;
  enqueue(job, 0);
}

/* The caller works on the job like a worker (it may be a worker itself,
 * running a command that became ready when its launch completed), so the
 * job finishes even when no other worker is free. */
void loom_pool_run(struct loom_pool_job *job) {
  job->sync = true;
  atomic_store(&job->finished, false);
  enqueue(job, 1);
  bool last = false;
  for (;;) {
    size_t count;
    size_t first = claim(job, &count);
    if (first >= job->total)
      break;
    job->run(job, first, count, UINT32_MAX);
    if (atomic_fetch_add(&job->done, count) + count == job->total) {
      last = true;
      break;
    }
  }
  pthread_mutex_lock(&pool.lock);
  unqueue(job);
  job->users--;
  while (last && job->users) { /* workers still in it leave first */
    pthread_mutex_unlock(&pool.lock);
    cpu_relax();
    pthread_mutex_lock(&pool.lock);
  }
  pthread_mutex_unlock(&pool.lock);
  if (last)
    return;
  /* a worker runs the last groups; it marks the job once no one is in it */
  while (!atomic_load_explicit(&job->finished, memory_order_acquire))
    cpu_relax();
}
