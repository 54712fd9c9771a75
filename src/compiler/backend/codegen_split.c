/* A program's O3 and code generation in parts, on several threads.
 *
 * Most of a cold build is O3 and instruction selection of the whole
 * program on one compile thread (6 kernels: 85 + 132 ms of a 290 ms build
 * and first launch on 2 cores). Kernels are independent once their
 * work-group functions exist, so a program with several is split: its
 * kernels are dealt, largest first, to the least loaded of P parts (P: the
 * compile threads, at most the kernels), each part a module of its own
 * work-group functions with everything else copied, compiled on its own
 * thread in its own LLVM context, and the objects are kept together as one
 * object set (binary/object_set.c) that the JIT loads as one program.
 *
 * Part 0 is the original module with the other parts' kernels deleted, so
 * the largest kernel is compiled exactly as before; the other parts are read
 * back from bitcode, whose use lists come back in another order (O3 is
 * sensitive to it: codegen.c). Function definitions other than the
 * work-group functions are internal after O3 (pass local-helpers), so the
 * copies in several objects do not clash in the JIT.
 *
 * Not split: one kernel; writable program-scope variables (each object
 * would have its own); LOOMCL_DUMP_IR_OPT (the file holds one module);
 * programs under MIN_SPLIT_INSTRUCTIONS, whose parts would cost more in
 * bitcode and thread start than they save. */
#include "backend/codegen_internal.h"
#include "binary/object_set.h"
#include "pipeline.h"
#include "support/build_time.h"
#include "support/llvm_util.h"
#include "support/util.h"
#include "workgroup/workgroup.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

enum { MAX_PARTS = 8, MIN_SPLIT_INSTRUCTIONS = 400 };
_Static_assert((int)MAX_PARTS <= (int)LOOM_OBJECT_SET_MAX, "every part is one object of the set");

struct kernel_fn {
  char *name; /* a copy: part 0 deletes functions from the module */
  size_t size;      /* instructions */
  unsigned part;
};

struct part {
  const struct loom_codegen *cg;
  const struct kernel_fn *kernels;
  size_t num_kernels;
  unsigned index;
  LLVMMemoryBufferRef bitcode; /* the whole program (parts 1...) */
  struct loom_blob object;
  char *log;
  int rc;
  pthread_t thread;
  bool started;
};

static size_t instructions(LLVMValueRef f) {
  size_t n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      n++;
  return n;
}

static void free_kernels(struct kernel_fn *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(k[i].name);
  free(k);
}

static int by_size_descending(const void *a, const void *b) {
  const struct kernel_fn *x = a, *y = b;
  return x->size < y->size ? 1 : x->size > y->size ? -1 : strcmp(x->name, y->name);
}

/* deletes from m the work-group functions of the other parts */
static void keep_part(LLVMModuleRef m, const struct part *p) {
  for (size_t k = 0; k < p->num_kernels; k++) {
    if (p->kernels[k].part == p->index)
      continue;
    LLVMValueRef f = LLVMGetNamedFunction(m, p->kernels[k].name);
    assert(f && !LLVMGetFirstUse(f));
    LLVMDeleteFunction(f);
  }
}

static void compile_part(struct part *p, LLVMModuleRef m, LLVMTargetMachineRef tm) {
  keep_part(m, p);
  struct loom_timer t;
  loom_time_start(&t);
  p->rc = loom_pipeline_codegen(m, tm, p->cg->opt_disable, p->cg->any_outer, &p->object, &p->log);
  loom_time_phase(&t, "O3 and code generation of one part");
  if (p->rc == 0 && (p->log || !p->object.size))
    p->rc = -1;
}

/* parts 1...: the program read back into a context of this thread's own */
static void *part_main(void *arg) {
  struct part *p = arg;
  p->rc = -1;
  LLVMContextRef c = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(c, loom_codegen_on_diagnostic, &p->log);
  LLVMModuleRef m = NULL;
  struct loom_target target = {.cpu = p->cg->cpu, .features = p->cg->features};
  LLVMTargetMachineRef tm = loom_target_machine(&target);
  if (tm && !LLVMParseBitcodeInContext2(c, p->bitcode, &m))
    compile_part(p, m, tm);
  else
    loom_str_append(&p->log, "error: a part of the program could not be read back\n");
  if (m)
    LLVMDisposeModule(m);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  LLVMContextDispose(c);
  return NULL;
}

/* the kernels' work-group functions, or 0 when the program is not split */
static size_t split_plan(LLVMModuleRef m, struct kernel_fn **out, unsigned *num_parts) {
  long threads = loom_codegen_threads();
  if (threads < 2 || loom_cfg_str(LOOM_CFG_DUMP_IR_OPT) || loom_has_writable_globals(m))
    return 0;
  size_t n = 0, cap = 0, total = 0;
  struct kernel_fn *k = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!loom_is_wg_function(f))
      continue;
    if (LLVMGetFirstUse(f)) { /* only the runtime calls them */
      free_kernels(k, n);
      return 0;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      struct kernel_fn *grown = realloc(k, cap * sizeof *k);
      if (!grown) {
        free_kernels(k, n);
        return 0;
      }
      k = grown;
    }
    size_t len;
    k[n] = (struct kernel_fn){.name = strdup(LLVMGetValueName2(f, &len)), .size = instructions(f)};
    if (!k[n].name) {
      free_kernels(k, n);
      return 0;
    }
    total += k[n++].size;
  }
  if (n < 2 || total < MIN_SPLIT_INSTRUCTIONS) {
    free_kernels(k, n);
    return 0;
  }
  unsigned parts = (unsigned)(threads < MAX_PARTS ? threads : MAX_PARTS);
  parts = n < parts ? (unsigned)n : parts;
  /* largest first, each to the least loaded part: part 0 gets the largest */
  qsort(k, n, sizeof *k, by_size_descending);
  size_t load[MAX_PARTS] = {0};
  for (size_t i = 0; i < n; i++) {
    unsigned best = 0;
    for (unsigned p = 1; p < parts; p++)
      if (load[p] < load[best])
        best = p;
    k[i].part = best;
    load[best] += k[i].size;
  }
  *out = k;
  *num_parts = parts;
  return n;
}

int loom_codegen_in_parts(struct loom_codegen *cg, LLVMTargetMachineRef tm) {
  struct kernel_fn *kernels = NULL;
  unsigned num_parts = 0;
  size_t n = split_plan(cg->module, &kernels, &num_parts);
  if (!n)
    return LOOM_CODEGEN_WHOLE;
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(cg->module);
  if (!bitcode) { /* out of memory: in one part */
    free_kernels(kernels, n);
    return LOOM_CODEGEN_WHOLE;
  }
  struct part parts[MAX_PARTS];
  for (unsigned i = 0; i < num_parts; i++)
    parts[i] = (struct part){.cg = cg, .kernels = kernels, .num_kernels = n, .index = i,
                             .bitcode = bitcode, .rc = -1};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 16u << 20); /* LLVM recurses over big functions */
  for (unsigned i = 1; i < num_parts; i++)
    parts[i].started = pthread_create(&parts[i].thread, &attr, part_main, &parts[i]) == 0;
  pthread_attr_destroy(&attr);
  compile_part(&parts[0], cg->module, tm);
  for (unsigned i = 1; i < num_parts; i++) {
    if (parts[i].started)
      pthread_join(parts[i].thread, NULL);
    else
      part_main(&parts[i]); /* no thread: here, after part 0 */
  }
  int rc = 0;
  struct loom_blob objects[MAX_PARTS];
  for (unsigned i = 0; i < num_parts; i++) {
    if (parts[i].rc != 0)
      rc = -1;
    if (parts[i].log)
      loom_str_append(&cg->log, parts[i].log);
    free(parts[i].log);
    objects[i] = parts[i].object;
  }
  if (rc == 0 && loom_object_set_pack(objects, num_parts, &cg->object) != 0) {
    loom_str_append(&cg->log, "error: out of memory keeping the program's code\n");
    rc = -1;
  }
  for (unsigned i = 0; i < num_parts; i++)
    loom_blob_free(&parts[i].object);
  LLVMDisposeMemoryBuffer(bitcode);
  free_kernels(kernels, n);
  return rc;
}
