/* Cases of features beyond OpenCL 1.2: shared virtual memory (a pointer
 * chase through lists the host links in fine-grain buffer SVM; copies
 * between coarse-grain SVM buffers), cl_intel_unified_shared_memory (copies
 * between device allocations) and SPIR-V programs (saxpy built from SPIR-V,
 * and its cold build against the same kernel's from OpenCL C). A platform
 * whose device lacks the feature skips the case and says what it lacks. */
#include "suite.h"

#include <CL/cl_ext.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- what the device supports ---- */

/* CL_DEVICE_SVM_CAPABILITIES; 0 where the query fails (OpenCL 1.x) */
static cl_device_svm_capabilities svm_capabilities(struct platform_env *env) {
  cl_device_svm_capabilities caps = 0;
  if (clGetDeviceInfo(env->device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) !=
      CL_SUCCESS)
    return 0;
  return caps;
}

/* ---- svm_pointer_chase: linked lists in fine-grain buffer SVM ---- */

/* Every work-item sums one list. The kernel reads pointers the host wrote:
 * a list's nodes lie in a random order across the whole pool. A kernel
 * argument that points to pointers needs OpenCL C 2.0 or later. */
static const char *chase_source =
    "typedef struct node { int value; global struct node *next; } node;\n"
    "kernel void chase(global node *global *heads, global int *sums) {\n"
    "  size_t l = get_global_id(0);\n"
    "  int s = 0;\n"
    "  for (global const node *p = heads[l]; p; p = p->next)\n"
    "    s += p->value;\n"
    "  sums[l] = s;\n"
    "}\n";

/* the kernel's struct node, on a device whose pointers are the host's */
struct node {
  cl_int value;
  struct node *next;
};

enum { CHASE_LOCAL = 64 };

struct chase_host {
  size_t nodes, lists, length; /* length = nodes / lists, every list's */
  int repeat;
  uint32_t *order; /* a permutation of the nodes: list l is order[l * length ...] in turn */
  cl_int *values;  /* node i's value */
  cl_int *want;    /* list l's sum */
};

struct chase_instance {
  struct instance base; /* the program and its kernel; no buffers */
  struct node *pool;    /* fine-grain buffer SVM, all three */
  struct node **heads;
  cl_int *sums;
};

static const char *chase_unsupported(struct platform_env *env) {
  if (!(svm_capabilities(env) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    return "no fine-grain buffer SVM";
  cl_uint bits = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
  if (bits != sizeof(void *) * 8)
    return "its pointers are not the host's size";
  return NULL;
}

static void *chase_prepare(bool quick, struct case_work *w) {
  struct chase_host *h = calloc(1, sizeof *h);
  h->nodes = quick ? (size_t)1 << 16 : (size_t)1 << 20;
  h->lists = quick ? 256 : 4096;
  h->length = h->nodes / h->lists;
  h->repeat = quick ? 1 : 4;
  h->order = bench_alloc(h->nodes * sizeof *h->order);
  h->values = bench_alloc(h->nodes * sizeof *h->values);
  h->want = bench_alloc(h->lists * sizeof *h->want);
  unsigned seed = 2024;
  for (size_t i = 0; i < h->nodes; i++) {
    h->order[i] = (uint32_t)i;
    h->values[i] = (cl_int)(bench_rand(&seed) & 0xffff);
  }
  for (size_t i = h->nodes - 1; i > 0; i--) { /* Fisher-Yates */
    size_t j = bench_rand(&seed) % (i + 1);
    uint32_t t = h->order[i];
    h->order[i] = h->order[j];
    h->order[j] = t;
  }
  for (size_t l = 0; l < h->lists; l++) {
    cl_int s = 0; /* at most 256 values below 2^16: no overflow */
    for (size_t k = 0; k < h->length; k++)
      s += h->values[h->order[l * h->length + k]];
    h->want[l] = s;
  }
  *w = (struct case_work){.amount = (double)h->nodes * h->repeat, .scale = 1e6,
                          .unit = "Mnode/s"};
  return h;
}

static void chase_release(void *p) {
  struct chase_host *h = p;
  free(h->order);
  free(h->values);
  free(h->want);
  free(h);
}

static void chase_close(struct instance *in) {
  struct chase_instance *ci = (struct chase_instance *)in;
  cl_context ctx = in->env->ctx;
  if (ci->pool)
    clSVMFree(ctx, ci->pool);
  if (ci->heads)
    clSVMFree(ctx, ci->heads);
  if (ci->sums)
    clSVMFree(ctx, ci->sums);
  bench_close_instance(in);
}

/* OpenCL C 3.0 on an OpenCL 3.0 device, else 2.0 (SVM needs 2.0 at least) */
static const char *chase_options(struct platform_env *env) {
  char *version = bench_device_string(env, CL_DEVICE_VERSION);
  bool v3 = version && strncmp(version, "OpenCL 3", 8) == 0;
  free(version);
  return v3 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

static struct instance *chase_open(struct platform_env *env, void *host) {
  struct chase_host *h = host;
  const char *names[] = {"chase", NULL};
  struct instance *base = bench_open_instance(env, chase_source, chase_options(env), names);
  if (!base)
    return NULL;
  /* the instance grows into a chase_instance: base stays its first member */
  struct chase_instance *ci = realloc(base, sizeof *ci);
  if (!ci) {
    bench_close_instance(base);
    return NULL;
  }
  ci->pool = NULL;
  ci->heads = NULL;
  ci->sums = NULL;
  struct instance *in = &ci->base;
  const cl_svm_mem_flags fine = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
  ci->pool = clSVMAlloc(env->ctx, fine, h->nodes * sizeof *ci->pool, 0);
  ci->heads = clSVMAlloc(env->ctx, fine, h->lists * sizeof *ci->heads, 0);
  ci->sums = clSVMAlloc(env->ctx, fine, h->lists * sizeof *ci->sums, 0);
  if (!ci->pool || !ci->heads || !ci->sums) {
    fprintf(stderr, "    clSVMAlloc of fine-grain buffers failed\n");
    chase_close(in);
    return NULL;
  }
  /* the host links the lists in place: fine-grain memory needs no map */
  for (size_t l = 0; l < h->lists; l++) {
    const uint32_t *o = &h->order[l * h->length];
    ci->heads[l] = &ci->pool[o[0]];
    for (size_t k = 0; k < h->length; k++) {
      ci->pool[o[k]].value = h->values[o[k]];
      ci->pool[o[k]].next = k + 1 < h->length ? &ci->pool[o[k + 1]] : NULL;
    }
  }
  /* the nodes are no argument, only reached through pointers in SVM: the
   * kernel must be told of their allocation */
  void *indirect[] = {ci->pool};
  cl_kernel k = in->kernels[0];
  cl_int err = clSetKernelArgSVMPointer(k, 0, ci->heads);
  if (err == CL_SUCCESS)
    err = clSetKernelArgSVMPointer(k, 1, ci->sums);
  if (err == CL_SUCCESS)
    err = clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof indirect, indirect);
  if (err != CL_SUCCESS) {
    bench_report_cl_error("SVM kernel arguments", err);
    chase_close(in);
    return NULL;
  }
  in->repeat = h->repeat;
  size_t g = h->lists, l = CHASE_LOCAL;
  bench_add_launch(in, 0, 1, &g, &l);
  return in;
}

/* sums = -1 before every run, so that the check sees the last run's */
static bool chase_reset(struct instance *in, void *host) {
  struct chase_host *h = host;
  memset(((struct chase_instance *)in)->sums, 0xff, h->lists * sizeof(cl_int));
  return true;
}

/* every list's sum, read by the host in place (the run ended with clFinish) */
static bool chase_check(struct instance *in, void *host) {
  struct chase_host *h = host;
  const cl_int *got = ((struct chase_instance *)in)->sums;
  for (size_t l = 0; l < h->lists; l++)
    if (got[l] != h->want[l]) {
      fprintf(stderr, "    list %zu: sum %d, want %d\n", l, (int)got[l], (int)h->want[l]);
      return false;
    }
  return true;
}

/* ---- usm_memcpy, svm_memcpy: stream_copy's 128 MiB, 4 copies a repetition ---- */

struct memcpy_host {
  size_t bytes;
  int repeat;
  unsigned char *data; /* the source's contents */
};

struct memcpy_instance {
  struct instance base; /* no program, no buffers */
  bool usm;             /* USM device allocations, else coarse-grain SVM buffers */
  void *src, *dst;
  clMemBlockingFreeINTEL_fn usm_free;
  clEnqueueMemcpyINTEL_fn usm_memcpy;
  clEnqueueMemFillINTEL_fn usm_fill;
};

static const char *usm_unsupported(struct platform_env *env) {
  if (!bench_has_extension(env, "cl_intel_unified_shared_memory"))
    return "no cl_intel_unified_shared_memory";
  cl_device_unified_shared_memory_capabilities_intel caps = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL, sizeof caps, &caps, NULL);
  if (!(caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL))
    return "no USM device allocations";
  return NULL;
}

static const char *svm_coarse_unsupported(struct platform_env *env) {
  return svm_capabilities(env) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
             ? NULL
             : "no coarse-grain buffer SVM";
}

static void *memcpy_prepare(bool quick, struct case_work *w) {
  struct memcpy_host *h = calloc(1, sizeof *h);
  h->bytes = quick ? (size_t)4 << 20 : (size_t)128 << 20;
  h->repeat = quick ? 1 : 4;
  h->data = bench_alloc(h->bytes);
  unsigned seed = 99;
  for (size_t i = 0; i < h->bytes; i += 4) {
    uint32_t v = bench_rand(&seed);
    memcpy(h->data + i, &v, 4);
  }
  /* every byte read once and written once per copy, as stream_copy counts */
  *w = (struct case_work){.amount = 2.0 * (double)h->bytes * h->repeat, .scale = 1e9,
                          .unit = "GB/s"};
  return h;
}

static void memcpy_release(void *p) {
  struct memcpy_host *h = p;
  free(h->data);
  free(h);
}

static cl_int copy_bytes(struct memcpy_instance *m, cl_bool blocking, void *dst, const void *src,
                         size_t size) {
  cl_command_queue q = m->base.env->queue;
  return m->usm ? m->usm_memcpy(q, blocking, dst, src, size, 0, NULL, NULL)
                : clEnqueueSVMMemcpy(q, blocking, dst, src, size, 0, NULL, NULL);
}

static cl_int zero_bytes(struct memcpy_instance *m, void *dst, size_t size) {
  cl_command_queue q = m->base.env->queue;
  const cl_uint zero = 0;
  return m->usm ? m->usm_fill(q, dst, &zero, sizeof zero, size, 0, NULL, NULL)
                : clEnqueueSVMMemFill(q, dst, &zero, sizeof zero, size, 0, NULL, NULL);
}

static void memcpy_close(struct instance *in) {
  struct memcpy_instance *m = (struct memcpy_instance *)in;
  void *mem[] = {m->src, m->dst};
  for (int i = 0; i < 2; i++) {
    if (!mem[i])
      continue;
    if (m->usm)
      m->usm_free(in->env->ctx, mem[i]);
    else
      clSVMFree(in->env->ctx, mem[i]);
  }
  bench_close_instance(in);
}

static struct instance *memcpy_open(struct platform_env *env, struct memcpy_host *h, bool usm) {
  struct memcpy_instance *m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  m->base.env = env;
  m->base.repeat = h->repeat;
  m->usm = usm;
  cl_int err = CL_SUCCESS;
  if (usm) {
    cl_platform_id p = env->platform;
    clDeviceMemAllocINTEL_fn alloc = (clDeviceMemAllocINTEL_fn)
        clGetExtensionFunctionAddressForPlatform(p, "clDeviceMemAllocINTEL");
    m->usm_free = (clMemBlockingFreeINTEL_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clMemBlockingFreeINTEL");
    m->usm_memcpy = (clEnqueueMemcpyINTEL_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clEnqueueMemcpyINTEL");
    m->usm_fill = (clEnqueueMemFillINTEL_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clEnqueueMemFillINTEL");
    if (!alloc || !m->usm_free || !m->usm_memcpy || !m->usm_fill) {
      fprintf(stderr, "    cl_intel_unified_shared_memory's entry points are missing\n");
      free(m);
      return NULL;
    }
    m->src = alloc(env->ctx, env->device, NULL, h->bytes, 0, &err);
    if (m->src)
      m->dst = alloc(env->ctx, env->device, NULL, h->bytes, 0, &err);
    if (!m->dst)
      bench_report_cl_error("clDeviceMemAllocINTEL", err);
  } else {
    m->src = clSVMAlloc(env->ctx, CL_MEM_READ_WRITE, h->bytes, 0);
    m->dst = clSVMAlloc(env->ctx, CL_MEM_READ_WRITE, h->bytes, 0);
    if (!m->src || !m->dst)
      fprintf(stderr, "    clSVMAlloc of coarse-grain buffers failed\n");
  }
  if (m->src && m->dst) {
    err = copy_bytes(m, CL_TRUE, m->src, h->data, h->bytes);
    if (err != CL_SUCCESS)
      bench_report_cl_error("copying the source in", err);
  }
  if (!m->src || !m->dst || err != CL_SUCCESS) {
    memcpy_close(&m->base);
    return NULL;
  }
  return &m->base;
}

static struct instance *usm_memcpy_open(struct platform_env *env, void *host) {
  return memcpy_open(env, host, true);
}

static struct instance *svm_memcpy_open(struct platform_env *env, void *host) {
  return memcpy_open(env, host, false);
}

/* the destination zeroed before every run, so that the check sees the last run's copy */
static bool memcpy_reset(struct instance *in, void *host) {
  struct memcpy_host *h = host;
  struct memcpy_instance *m = (struct memcpy_instance *)in;
  cl_int err = zero_bytes(m, m->dst, h->bytes);
  if (err == CL_SUCCESS)
    err = clFinish(in->env->queue);
  if (err != CL_SUCCESS)
    bench_report_cl_error("zeroing the destination", err);
  return err == CL_SUCCESS;
}

static double memcpy_run(struct instance *in, void *host) {
  struct memcpy_host *h = host;
  struct memcpy_instance *m = (struct memcpy_instance *)in;
  double t0 = bench_now();
  for (int r = 0; r < in->repeat; r++) {
    cl_int err = copy_bytes(m, CL_FALSE, m->dst, m->src, h->bytes);
    if (err != CL_SUCCESS) {
      bench_report_cl_error(m->usm ? "clEnqueueMemcpyINTEL" : "clEnqueueSVMMemcpy", err);
      clFinish(in->env->queue);
      return -1;
    }
  }
  if (clFinish(in->env->queue) != CL_SUCCESS)
    return -1;
  return bench_now() - t0;
}

/* the destination holds the source's bytes, every one */
static bool memcpy_check(struct instance *in, void *host) {
  struct memcpy_host *h = host;
  struct memcpy_instance *m = (struct memcpy_instance *)in;
  unsigned char *got = bench_alloc(h->bytes);
  cl_int err = copy_bytes(m, CL_TRUE, got, m->dst, h->bytes);
  bool ok = err == CL_SUCCESS && memcmp(got, h->data, h->bytes) == 0;
  if (err != CL_SUCCESS)
    bench_report_cl_error("reading the destination", err);
  else if (!ok)
    fprintf(stderr, "    the destination does not hold the source's bytes\n");
  free(got);
  return ok;
}

/* ---- SPIR-V: saxpy from bench/saxpy.spvasm, assembled by the build ---- */

/* the name of the module's second kernel, which the cold build rewrites */
static const char unique_placeholder[] = "b_unique_0000000000000000";
enum { MAX_NAME_COPIES = 4 };

static struct {
  bool tried;
  unsigned char *bytes;
  size_t size;
  size_t names[MAX_NAME_COPIES]; /* offsets of the placeholder (entry point, OpName) */
  int n_names;
} module;

/* Reads the module once; false (saying why) when it is missing. */
static bool load_module(void) {
  if (module.tried)
    return module.bytes != NULL;
  module.tried = true;
  FILE *f = fopen(LOOMCL_BENCH_SPIRV, "rb");
  long size = -1;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    size = ftell(f);
    rewind(f);
  }
  unsigned char *bytes = size > 0 ? malloc((size_t)size) : NULL;
  if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "    cannot read %s (was spirv-as missing when bench_suite was built?)\n",
            LOOMCL_BENCH_SPIRV);
    free(bytes);
    if (f)
      fclose(f);
    return false;
  }
  fclose(f);
  size_t len = strlen(unique_placeholder);
  for (size_t i = 0; i + len <= (size_t)size && module.n_names < MAX_NAME_COPIES; i++)
    if (memcmp(bytes + i, unique_placeholder, len) == 0)
      module.names[module.n_names++] = i;
  module.bytes = bytes;
  module.size = (size_t)size;
  return true;
}

static const char *spirv_unsupported(struct platform_env *env) {
  char *il = bench_device_string(env, CL_DEVICE_IL_VERSION);
  bool spirv = il && strstr(il, "SPIR-V");
  free(il);
  return spirv ? NULL : "no SPIR-V in CL_DEVICE_IL_VERSION";
}

/* spirv_saxpy: the saxpy case's arrays and steps (cases_memory.c) on the
 * kernel built from SPIR-V */
static struct instance *spirv_saxpy_open(struct platform_env *env, void *host) {
  struct instance *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->env = env;
  in->repeat = 1;
  in->program = bench_build_il(env, module.bytes, module.size, NULL);
  cl_int err = CL_SUCCESS;
  if (in->program) {
    in->kernels[0] = clCreateKernel(in->program, "saxpy", &err);
    if (!in->kernels[0])
      bench_report_cl_error("clCreateKernel(saxpy)", err);
  }
  if (!in->kernels[0] || !bench_saxpy_setup(in, host)) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

/* ---- cold builds of saxpy, from SPIR-V and from OpenCL C ---- */

/* the module's two kernels in OpenCL C (%s: the second one's name) */
static const char *saxpy_c_format =
    "kernel void saxpy(global float *y, global const float *x, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n"
    "kernel void %s(global int *p) { *p = 1; }\n";

enum { BUILD_ITEMS = 256 };

struct build_host {
  bool il;        /* from the SPIR-V module, else from OpenCL C */
  uint64_t nonce; /* makes the programs unique to this process */
  unsigned counter;
  float x[BUILD_ITEMS];
};

static void *build_prepare(bool il) {
  struct build_host *h = calloc(1, sizeof *h);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  h->il = il;
  h->nonce = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
             ((uint64_t)getpid() << 32);
  for (int i = 0; i < BUILD_ITEMS; i++)
    h->x[i] = (float)i;
  return h;
}

static void *build_il_prepare(bool quick, struct case_work *w) {
  (void)quick;
  *w = (struct case_work){.amount = 0};
  return build_prepare(true);
}

static void *build_source_prepare(bool quick, struct case_work *w) {
  (void)quick;
  *w = (struct case_work){.amount = 0};
  return build_prepare(false);
}

/* buffers 0 = y, 1 = x; the program is built by every run */
static struct instance *build_open(struct platform_env *env, void *host) {
  struct build_host *h = host;
  struct instance *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->env = env;
  in->buffers[0] = bench_buffer(env, sizeof h->x, NULL);
  in->buffers[1] = bench_buffer(env, sizeof h->x, h->x);
  if (!in->buffers[0] || !in->buffers[1]) {
    bench_close_instance(in);
    return NULL;
  }
  return in;
}

/* y = 0 before every run, so that the check sees the last program's result */
static bool build_reset(struct instance *in, void *host) {
  struct build_host *h = host;
  const cl_uint zero = 0;
  cl_int err = clEnqueueFillBuffer(in->env->queue, in->buffers[0], &zero, sizeof zero, 0,
                                   sizeof h->x, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(in->env->queue);
  return err == CL_SUCCESS;
}

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9u;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

/* One cold build up to the first result: the program (its second kernel
 * renamed, so that no cache has seen it), clBuildProgram, saxpy created and
 * launched once on BUILD_ITEMS items, clFinish. */
static double build_run(struct instance *in, void *host) {
  struct build_host *h = host;
  struct platform_env *env = in->env;
  char name[sizeof unique_placeholder];
  snprintf(name, sizeof name, "b_unique_%016" PRIx64, mix64(h->nonce + h->counter++));
  if (in->kernels[0])
    clReleaseKernel(in->kernels[0]);
  if (in->program)
    clReleaseProgram(in->program);
  in->kernels[0] = NULL;
  in->program = NULL;
  unsigned char *il = NULL;
  char *source = NULL;
  if (h->il) {
    il = malloc(module.size);
    if (!il)
      return -1;
    memcpy(il, module.bytes, module.size);
    for (int i = 0; i < module.n_names; i++)
      memcpy(il + module.names[i], name, strlen(name));
  } else {
    size_t len = strlen(saxpy_c_format) + sizeof name;
    source = malloc(len);
    if (!source)
      return -1;
    snprintf(source, len, saxpy_c_format, name);
  }
  double t0 = bench_now();
  in->program = h->il ? bench_build_il(env, il, module.size, "") : bench_build(env, source, "");
  cl_int err = CL_SUCCESS;
  if (in->program)
    in->kernels[0] = clCreateKernel(in->program, "saxpy", &err);
  bool ok = in->kernels[0] && bench_args(in, 0, "bbf", 0, 1, 2.0);
  size_t g = BUILD_ITEMS, l = 64;
  if (ok)
    err = clEnqueueNDRangeKernel(env->queue, in->kernels[0], 1, NULL, &g, &l, 0, NULL, NULL);
  if (ok && err == CL_SUCCESS)
    err = clFinish(env->queue);
  double t = bench_now() - t0;
  free(il);
  free(source);
  if (!in->program || !ok || err != CL_SUCCESS) {
    if (err != CL_SUCCESS)
      bench_report_cl_error("saxpy's first launch", err);
    return -1;
  }
  return t;
}

/* the last program's saxpy ran: y = 2 x + 0, exactly */
static bool build_check(struct instance *in, void *host) {
  struct build_host *h = host;
  float got[BUILD_ITEMS];
  if (!bench_read(in, 0, got, sizeof got))
    return false;
  for (int i = 0; i < BUILD_ITEMS; i++)
    if (got[i] != 2.0f * h->x[i]) {
      fprintf(stderr, "    saxpy: y[%d] = %g, want %g\n", i, got[i], 2.0f * h->x[i]);
      return false;
    }
  return true;
}

/* a module without the placeholder cannot be made new: no cold build */
static bool cold_module_available(void) {
  if (!load_module())
    return false;
  if (module.n_names == 0)
    fprintf(stderr, "    %s has no kernel named %s\n", LOOMCL_BENCH_SPIRV, unique_placeholder);
  return module.n_names > 0;
}

const struct bench_case bench_svm_cases[] = {
    {.name = "svm_pointer_chase",
     .what = "2^20 nodes in fine-grain SVM, linked by the host into 4096 random lists, a "
             "work-item sums each, 4 times",
     .unsupported = chase_unsupported, .prepare = chase_prepare, .open = chase_open,
     .reset = chase_reset, .check = chase_check, .close = chase_close,
     .release_host = chase_release},
    {.name = "usm_memcpy",
     .what = "clEnqueueMemcpyINTEL between USM device allocations, 128 MiB, 4 times",
     .limit = LIMIT_BANDWIDTH, .unsupported = usm_unsupported, .prepare = memcpy_prepare,
     .open = usm_memcpy_open, .reset = memcpy_reset, .run = memcpy_run, .check = memcpy_check,
     .close = memcpy_close, .release_host = memcpy_release},
    {.name = "svm_memcpy",
     .what = "clEnqueueSVMMemcpy between coarse-grain SVM buffers, 128 MiB, 4 times",
     .limit = LIMIT_BANDWIDTH, .unsupported = svm_coarse_unsupported,
     .prepare = memcpy_prepare, .open = svm_memcpy_open, .reset = memcpy_reset,
     .run = memcpy_run, .check = memcpy_check, .close = memcpy_close,
     .release_host = memcpy_release},
    {.name = "spirv_saxpy",
     .what = "the saxpy case with its kernel built from SPIR-V (bench/saxpy.spvasm)",
     .limit = LIMIT_BANDWIDTH, .available = load_module, .unsupported = spirv_unsupported,
     .prepare = bench_saxpy_prepare, .open = spirv_saxpy_open, .reset = bench_saxpy_reset,
     .check = bench_saxpy_check, .release_host = bench_saxpy_release},
    {.name = "spirv_build_il",
     .what = "saxpy's SPIR-V module never seen before: clCreateProgramWithIL, build, first "
             "launch",
     .limit = LIMIT_NONE, .reps = 3, .no_warmup = true, .available = cold_module_available,
     .unsupported = spirv_unsupported, .prepare = build_il_prepare, .open = build_open,
     .reset = build_reset, .run = build_run, .check = build_check},
    {.name = "spirv_build_source",
     .what = "the same kernels from OpenCL C never seen before: build, first launch",
     .limit = LIMIT_NONE, .reps = 3, .no_warmup = true, .unsupported = spirv_unsupported,
     .prepare = build_source_prepare, .open = build_open, .reset = build_reset,
     .run = build_run, .check = build_check},
    {.name = NULL},
};
