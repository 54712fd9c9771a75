/* Kernels on shared virtual memory: linked data built by the host and
 * walked by kernels across allocations (coarse grain with map/unmap, fine
 * grain, fine-grain system memory from malloc), pointers into the middle
 * of an allocation, pointers written by kernels and followed by the host,
 * SVM atomics racing between host threads and a running kernel, cloned
 * kernels keeping their SVM arguments, and buffer and SVM arguments
 * replacing each other. */
#include "harness.h"
#include <pthread.h>
#include <stdatomic.h>

static struct test_env env;

/* a list node as both sides see it: 64-bit pointers on host and device */
struct node {
  int value;
  int pad;
  struct node *next;
};

static const char *walk_src =
    "typedef struct node { int value; int pad; global struct node *next; } node;\n"
    "kernel void walk(global const node *const global *heads, global int *sums) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int s = 0;\n"
    "  for (global const node *n = heads[i]; n; n = n->next) s += n->value;\n"
    "  sums[i] = s;\n"
    "}\n"
    /* each work-item links its node to the one after it */
    "kernel void link(global node *nodes, int n) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  nodes[i].value = i * 3;\n"
    "  nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;\n"
    "}\n"
    "kernel void add_at(global int *p, int v) { p[get_global_id(0)] += v; }\n";

/* heads[i] starts a list of i + 1 nodes spread over two node pools;
 * returns the expected sums */
static void build_lists(struct node **heads, struct node *pool_a, struct node *pool_b, int lists,
                        int *want) {
  int used_a = 0, used_b = 0;
  for (int i = 0; i < lists; i++) {
    struct node *prev = NULL;
    want[i] = 0;
    for (int j = 0; j <= i; j++) {
      struct node *n = (i + j) % 2 ? &pool_a[used_a++] : &pool_b[used_b++];
      n->value = i * 100 + j;
      n->next = NULL;
      want[i] += n->value;
      if (prev)
        prev->next = n;
      else
        heads[i] = n;
      prev = n;
    }
  }
}

enum { LISTS = 40, NODES = LISTS * (LISTS + 1) / 2 };

static void run_walk(cl_kernel walk, struct node **heads, int *sums, const int *want,
                     const char *what) {
  CHECK_OK(clSetKernelArgSVMPointer(walk, 0, heads));
  CHECK_OK(clSetKernelArgSVMPointer(walk, 1, sums));
  size_t g = LISTS;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, walk, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  int bad = test_count_diff(sums, want, LISTS, what);
  CHECK(bad == 0);
}

static void test_lists(cl_program prog) {
  cl_int err;
  cl_kernel walk = clCreateKernel(prog, "walk", &err);
  CHECK_OK(err);
  int want[LISTS];

  /* fine-grain buffers: the host writes, the kernel reads, no map */
  struct node **heads = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                   LISTS * sizeof *heads, 0);
  struct node *a = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, NODES * sizeof *a, 0);
  struct node *b = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, NODES * sizeof *b, 0);
  int *sums = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, LISTS * sizeof *sums, 0);
  build_lists(heads, a, b, LISTS, want);
  void *indirect[2] = {a, b}; /* reached through pointers, not arguments */
  CHECK_OK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof indirect, indirect));
  run_walk(walk, heads, sums, want, "fine-grain lists");

  /* coarse grain: the host writes between map and unmap */
  struct node **cheads = clSVMAlloc(env.context, 0, LISTS * sizeof *cheads, 0);
  struct node *ca = clSVMAlloc(env.context, 0, NODES * sizeof *ca, 0);
  struct node *cb = clSVMAlloc(env.context, CL_MEM_READ_ONLY, NODES * sizeof *cb, 0);
  int *csums = clSVMAlloc(env.context, CL_MEM_WRITE_ONLY, LISTS * sizeof *csums, 0);
  void *maps[3] = {cheads, ca, cb};
  size_t sizes[3] = {LISTS * sizeof *cheads, NODES * sizeof *ca, NODES * sizeof *cb};
  for (int i = 0; i < 3; i++)
    CHECK_OK(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE, maps[i], sizes[i], 0, NULL, NULL));
  build_lists(cheads, ca, cb, LISTS, want);
  for (int i = 0; i < 3; i++)
    CHECK_OK(clEnqueueSVMUnmap(env.queue, maps[i], 0, NULL, NULL));
  void *cindirect[2] = {ca, cb};
  CHECK_OK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof cindirect, cindirect));
  run_walk(walk, cheads, csums, want, "coarse-grain lists");

  /* fine-grain system SVM: plain malloc memory */
  struct node **mheads = malloc(LISTS * sizeof *mheads);
  struct node *ma = malloc(NODES * sizeof *ma), *mb = malloc(NODES * sizeof *mb);
  int *msums = malloc(LISTS * sizeof *msums);
  build_lists(mheads, ma, mb, LISTS, want);
  cl_bool system = CL_TRUE;
  CHECK_OK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof system,
                               &system));
  run_walk(walk, mheads, msums, want, "malloc lists");

  /* a clone keeps the SVM arguments; the original may change them */
  cl_kernel clone = clCloneKernel(walk, &err);
  CHECK_OK(err);
  memset(msums, 0, LISTS * sizeof *msums);
  CHECK_OK(clSetKernelArgSVMPointer(walk, 1, sums)); /* changes walk only */
  size_t g = LISTS;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, clone, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  CHECK(test_count_diff(msums, want, LISTS, "cloned kernel") == 0);
  clReleaseKernel(clone);

  free(mheads), free(ma), free(mb), free(msums);
  void *all[8] = {heads, a, b, sums, cheads, ca, cb, csums};
  CHECK_OK(clEnqueueSVMFree(env.queue, 8, all, NULL, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  clReleaseKernel(walk);
}

/* pointers a kernel stores are followed by the host; an argument pointing
 * into the middle of an allocation */
static void test_kernel_pointers(cl_program prog) {
  cl_int err;
  cl_kernel link = clCreateKernel(prog, "link", &err);
  cl_kernel add = clCreateKernel(prog, "add_at", &err);
  enum { n = 1000 };
  struct node *nodes = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof *nodes, 0);
  int count = n;
  CHECK_OK(clSetKernelArgSVMPointer(link, 0, nodes));
  CHECK_OK(clSetKernelArg(link, 1, sizeof count, &count));
  size_t g = n;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, link, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  int steps = 0;
  long sum = 0;
  for (struct node *p = nodes; p && steps <= n; p = p->next, steps++)
    sum += p->value;
  CHECK(steps == n && sum == 3L * n * (n - 1) / 2);

  int *v = clSVMAlloc(env.context, 0, 256 * sizeof(int), 0);
  for (int i = 0; i < 256; i++)
    v[i] = i;
  int inc = 1000;
  CHECK_OK(clSetKernelArgSVMPointer(add, 0, v + 100));
  CHECK_OK(clSetKernelArg(add, 1, sizeof inc, &inc));
  g = 50;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, add, 1, NULL, &g, NULL, 0, NULL, NULL));
  /* a buffer argument replaces the SVM pointer, and the reverse */
  int host[8] = {0};
  cl_mem buf = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_OK(clSetKernelArg(add, 0, sizeof buf, &buf));
  g = 8;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, add, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  CHECK(host[0] == 1000 && host[7] == 1000);
  CHECK_OK(clSetKernelArgSVMPointer(add, 0, v));
  g = 1;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, add, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clFinish(env.queue));
  int bad = 0;
  for (int i = 0; i < 256; i++)
    bad += v[i] != i + ((i >= 100 && i < 150) || i == 0 ? 1000 : 0);
  CHECK(bad == 0);
  clReleaseMemObject(buf);
  clSVMFree(env.context, v);
  clSVMFree(env.context, nodes);
  clReleaseKernel(link);
  clReleaseKernel(add);
}

/* SVM atomics: a kernel and host threads add to the same counters at the
 * same time, and the kernel builds a lock-free list the host also pushes
 * to; nothing may be lost */
static const char *atomic_src =
    "kernel void count(volatile global atomic_int *counters, int rounds) {\n"
    "  for (int r = 0; r < rounds; r++)\n"
    "    atomic_fetch_add_explicit(&counters[get_global_id(0) % 4], 1,\n"
    "                              memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "}\n"
    "typedef struct item { int value; int pad; atomic_uintptr_t next; } item;\n"
    "kernel void push(global item *items, global atomic_uintptr_t *head, int base) {\n"
    "  global item *it = &items[get_global_id(0)];\n"
    "  it->value = base + (int)get_global_id(0);\n"
    "  uintptr_t old = atomic_load_explicit(head, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "  do {\n"
    "    atomic_store_explicit(&it->next, old, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "  } while (!atomic_compare_exchange_weak_explicit(head, &old, (uintptr_t)it,\n"
    "             memory_order_release, memory_order_relaxed, memory_scope_all_svm_devices));\n"
    "}\n";

struct item {
  int value;
  int pad;
  _Atomic(struct item *) next;
};

struct host_worker {
  atomic_int *counters;
  _Atomic(struct item *) *head;
  struct item *items;
  int n;
};

static void *host_work(void *arg) {
  struct host_worker *w = arg;
  for (int i = 0; i < w->n; i++) {
    atomic_fetch_add_explicit(&w->counters[i % 4], 1, memory_order_relaxed);
    struct item *it = &w->items[i];
    it->value = -1 - i;
    struct item *old = atomic_load(w->head);
    do
      atomic_store_explicit(&it->next, old, memory_order_relaxed);
    while (!atomic_compare_exchange_weak(w->head, &old, it));
  }
  return NULL;
}

static void test_atomics(void) {
  cl_program prog = test_program_from(&env, atomic_src, "-cl-std=CL3.0");
  if (!prog)
    return;
  cl_int err;
  cl_kernel count = clCreateKernel(prog, "count", &err);
  cl_kernel push = clCreateKernel(prog, "push", &err);
  const cl_svm_mem_flags fine = CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  atomic_int *counters = clSVMAlloc(env.context, fine, 4 * sizeof *counters, 0);
  for (int i = 0; i < 4; i++)
    atomic_init(&counters[i], 0);
  enum { kernel_items = 4096, rounds = 64, host_items = 20000 };
  int r = rounds;
  CHECK_OK(clSetKernelArgSVMPointer(count, 0, counters));
  CHECK_OK(clSetKernelArg(count, 1, sizeof r, &r));

  _Atomic(struct item *) *head = clSVMAlloc(env.context, fine, sizeof *head, 0);
  atomic_init(head, NULL);
  struct item *kitems = clSVMAlloc(env.context, fine, kernel_items * sizeof *kitems, 0);
  struct item *hitems = malloc(host_items * sizeof *hitems);
  int base = 1;
  CHECK_OK(clSetKernelArgSVMPointer(push, 0, kitems));
  CHECK_OK(clSetKernelArgSVMPointer(push, 1, head));
  CHECK_OK(clSetKernelArg(push, 2, sizeof base, &base));

  /* the host thread runs while both kernels do */
  struct host_worker w = {counters, head, hitems, host_items};
  size_t g = kernel_items;
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, count, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clEnqueueNDRangeKernel(env.queue, push, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK_OK(clFlush(env.queue));
  pthread_t t;
  pthread_create(&t, NULL, host_work, &w);
  pthread_join(t, NULL);
  CHECK_OK(clFinish(env.queue));

  long total = 0;
  for (int i = 0; i < 4; i++)
    total += atomic_load(&counters[i]);
  CHECK(total == (long)kernel_items * rounds + host_items);
  /* every item is on the list exactly once */
  char *seen_k = calloc(kernel_items, 1), *seen_h = calloc(host_items, 1);
  int items = 0, dup = 0;
  for (struct item *it = atomic_load(head); it && items <= kernel_items + host_items;
       it = atomic_load(&it->next), items++) {
    if (it->value > 0 && it->value <= kernel_items)
      dup += seen_k[it->value - 1]++ != 0;
    else if (it->value < 0 && -it->value <= host_items)
      dup += seen_h[-it->value - 1]++ != 0;
    else
      dup++;
  }
  CHECK(items == kernel_items + host_items && dup == 0);
  free(seen_k), free(seen_h), free(hitems);
  clSVMFree(env.context, kitems);
  clSVMFree(env.context, (void *)head);
  clSVMFree(env.context, counters);
  clReleaseKernel(count);
  clReleaseKernel(push);
  clReleaseProgram(prog);
}

int main(void) {
  test_env_init(&env);
  cl_program prog = test_program_from(&env, walk_src, "-cl-std=CL3.0");
  if (prog) {
    test_lists(prog);
    test_kernel_pointers(prog);
    clReleaseProgram(prog);
  }
  test_atomics();
  test_env_release(&env);
  return test_finish("test_svm_kernels");
}
