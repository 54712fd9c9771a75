/* Loading native code: one ORC LLJIT per process, one JITDylib per loaded
 * program (programs may define the same kernel names), symbols the code
 * needs from the process (memcpy, ...) found by a process search, libm's
 * functions in libm itself. */
#include "cpu_jit.h"
#include "backend/codegen.h"
#include "binary/object_set.h"
#include "support/build_time.h"
#include "support/llvm_util.h"
#include "support/util.h"
#include <llvm-c/Error.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loom_device_code {
  LLVMOrcJITDylibRef dylib;
  /* code still being generated: added when a kernel is first looked up
   * (under jit_lock) */
  struct loom_codegen *pending;
  bool added;
};

static pthread_once_t jit_once = PTHREAD_ONCE_INIT;
static LLVMOrcLLJITRef jit;
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint dylib_counter;

/* JITDylibs of unloaded programs, cleared, with their generators: LLVM 19's
 * C API cannot remove a JITDylib from the session (only clear it), so a
 * cleared one is kept here and given to the next program that loads. The
 * number of JITDylibs is then the most programs ever loaded at once, not
 * the number of builds (a build/release loop would otherwise leak each
 * JITDylib, its symbol table and its generators). Under jit_lock. */
struct free_dylib {
  LLVMOrcJITDylibRef dylib;
  struct free_dylib *next;
};
static struct free_dylib *free_dylibs;
static unsigned unloads_since_sweep;

/* errors reach callers as return values (and the build log); ORC's own
 * report on stderr would only duplicate them */
static void ignore_error(void *ctx, LLVMErrorRef err) {
  (void)ctx;
  LLVMConsumeError(err);
}

/* LOOMCL_PERF: the RTDyld linking layer, the one ORC layer that reports
 * loaded objects to JIT event listeners, with LLVM's jitdump writer for
 * perf. (LLJIT's default layer is JITLink, which the C API cannot observe.) */
static LLVMOrcObjectLayerRef create_perf_layer(void *ctx, LLVMOrcExecutionSessionRef es,
                                               const char *triple) {
  (void)ctx;
  (void)triple;
  LLVMOrcObjectLayerRef layer = LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(es);
  LLVMJITEventListenerRef perf = LLVMCreatePerfJITEventListener();
  if (perf)
    LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(layer, perf);
  else
    fprintf(stderr, "LoomCL: LOOMCL_PERF: this LLVM has no perf support (LLVM_USE_PERF)\n");
  return layer;
}

static void create_jit(void) {
  loom_llvm_init();
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  if (loom_cfg_int(LOOM_CFG_PERF))
    LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(builder, create_perf_layer, NULL);
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, builder);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "LoomCL: cannot create the JIT: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
    jit = NULL;
    return;
  }
  LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(jit), ignore_error, NULL);
}

/* Host functions generated code calls (e.g. the printf runtime). They are
 * hidden in libloomcl, so the process search cannot find them: every
 * program's JITDylib gets them as absolute symbols. */
#define MAX_HOST_SYMBOLS 8
static struct {
  const char *name;
  uint64_t addr;
} host_symbols[MAX_HOST_SYMBOLS];
static unsigned num_host_symbols;

void loom_jit_add_host_symbol(const char *name, uint64_t addr) {
  pthread_mutex_lock(&jit_lock);
  unsigned i;
  for (i = 0; i < num_host_symbols && strcmp(host_symbols[i].name, name); i++)
    ;
  if (i < MAX_HOST_SYMBOLS) {
    host_symbols[i].name = name;
    host_symbols[i].addr = addr;
    if (i == num_host_symbols)
      num_host_symbols++;
  }
  pthread_mutex_unlock(&jit_lock);
}

/* called with jit_lock held */
static LLVMErrorRef define_host_symbols(LLVMOrcJITDylibRef jd) {
  if (!num_host_symbols)
    return NULL;
  LLVMOrcCSymbolMapPair pairs[MAX_HOST_SYMBOLS];
  for (unsigned i = 0; i < num_host_symbols; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, host_symbols[i].name);
    pairs[i].Sym.Address = host_symbols[i].addr;
    pairs[i].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, num_host_symbols);
  LLVMErrorRef e = LLVMOrcJITDylibDefine(jd, mu);
  if (e)
    LLVMOrcDisposeMaterializationUnit(mu);
  return e;
}

static void set_error(char **log, const char *what, LLVMErrorRef e) {
  char *msg = LLVMGetErrorMessage(e);
  char buf[1024];
  snprintf(buf, sizeof buf, "error: %s: %s\n", what, msg);
  loom_str_append(log, buf);
  LLVMDisposeErrorMessage(msg);
}

/* called with jit_lock held */
/* the object, or each object of a set (a program compiled in parts) */
static LLVMErrorRef add_object(LLVMOrcJITDylibRef jd, const void *data, size_t size) {
  struct loom_blob parts[LOOM_OBJECT_SET_MAX];
  int n = loom_object_set_parts(&(struct loom_blob){(unsigned char *)data, size}, parts);
  if (n < 0)
    return LLVMCreateStringError("a damaged set of object files");
  LLVMErrorRef e = NULL;
  for (int i = 0; i < n && !e; i++) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        (const char *)parts[i].data, parts[i].size, "loomcl-object");
    e = LLVMOrcLLJITAddObjectFile(jit, jd, buf);
  }
  return e;
}

/* Removes everything a program put into its JITDylib (code, data, symbol
 * table entries, the memory of its objects) and keeps the JITDylib for the
 * next program. A JITDylib that cannot be cleared is never reused. */
static void release_dylib(LLVMOrcJITDylibRef jd) {
  pthread_mutex_lock(&jit_lock);
  LLVMErrorRef e = LLVMOrcJITDylibClear(jd);
  if (e) {
    LLVMConsumeError(e);
  } else {
    struct free_dylib *f = malloc(sizeof *f);
    if (f) {
      f->dylib = jd;
      f->next = free_dylibs;
      free_dylibs = f;
    }
  }
  /* symbol names nobody refers to any more (each program's kernel names) */
  uint64_t every = (uint64_t)loom_cfg_int(LOOM_CFG_JIT_SWEEP);
  if (++unloads_since_sweep >= (every ? every : 1)) {
    unloads_since_sweep = 0;
    LLVMOrcSymbolStringPoolClearDeadEntries(
        LLVMOrcExecutionSessionGetSymbolStringPool(LLVMOrcLLJITGetExecutionSession(jit)));
  }
  pthread_mutex_unlock(&jit_lock);
}

/* A JITDylib for one program, with everything but its own code; then the
 * program's object code unless `object` is NULL. */
static struct loom_device_code *load(const struct loom_blob *object, char **log) {
  struct loom_timer t;
  loom_time_start(&t);
  pthread_once(&jit_once, create_jit);
  if (!jit) {
    loom_str_append(log, "error: the JIT is unavailable\n");
    return NULL;
  }
  struct loom_device_code *c = calloc(1, sizeof *c);
  if (!c) {
    loom_str_append(log, "error: out of host memory loading native code\n");
    return NULL;
  }
  pthread_mutex_lock(&jit_lock);
  LLVMOrcExecutionSessionRef es = LLVMOrcLLJITGetExecutionSession(jit);
  LLVMOrcJITDylibRef jd = NULL;
  LLVMErrorRef e = NULL;
  bool reused = free_dylibs != NULL;
  if (reused) {
    /* cleared at unload; its generators stay */
    struct free_dylib *f = free_dylibs;
    free_dylibs = f->next;
    jd = f->dylib;
    free(f);
  } else {
    char name[64];
    snprintf(name, sizeof name, "loomcl-program-%u", atomic_fetch_add(&dylib_counter, 1));
    e = LLVMOrcExecutionSessionCreateJITDylib(es, &jd, name);
  }
  if (!e && !reused) {
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL);
    if (!e)
      LLVMOrcJITDylibAddGenerator(jd, gen);
  }
  if (!e && !reused) {
    /* libm by name: when the ICD loader opened libloomcl (RTLD_LOCAL) and
     * the application itself does not link libm, the process search cannot
     * see the math functions kernels call */
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(
        &gen, "libm.so.6", LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL);
    if (!e)
      LLVMOrcJITDylibAddGenerator(jd, gen);
  }
  if (!e)
    e = define_host_symbols(jd);
  if (!e && object)
    e = add_object(jd, object->data, object->size);
  pthread_mutex_unlock(&jit_lock);
  loom_time_phase(&t, "JIT: add object");
  if (e) {
    set_error(log, "loading native code", e);
    if (jd)
      release_dylib(jd);
    free(c);
    return NULL;
  }
  c->dylib = jd;
  return c;
}

struct loom_device_code *loom_jit_load(const struct loom_blob *object, char **log) {
  return load(object, log);
}

struct loom_device_code *loom_jit_load_binary(const struct loom_program_binary *bin,
                                              char **log) {
  if (!bin->pending)
    return load(&bin->object, log);
  struct loom_device_code *c = load(NULL, log);
  if (c)
    c->pending = loom_codegen_retain(bin->pending);
  return c;
}

/* Adds the program's object code, once it exists. */
static int add_pending(struct loom_device_code *code) {
  const struct loom_blob *object = loom_codegen_object(code->pending);
  if (!object)
    return -1;
  pthread_mutex_lock(&jit_lock);
  LLVMErrorRef e = NULL;
  if (!code->added) {
    e = add_object(code->dylib, object->data, object->size);
    code->added = e == NULL;
  }
  pthread_mutex_unlock(&jit_lock);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "LoomCL: loading native code: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
  }
  return 0;
}

struct lookup_result {
  atomic_int done;
  uint64_t addr;
  pthread_mutex_t lock;
  pthread_cond_t cond;
};

static void on_lookup(LLVMErrorRef err, LLVMOrcCSymbolMapPairs result, size_t n, void *ctx) {
  struct lookup_result *r = ctx;
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    fprintf(stderr, "LoomCL: symbol lookup failed: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
  } else if (n > 0) {
    r->addr = result[0].Sym.Address;
  }
  pthread_mutex_lock(&r->lock);
  atomic_store(&r->done, 1);
  pthread_cond_broadcast(&r->cond);
  pthread_mutex_unlock(&r->lock);
}

loom_wg_fn loom_jit_lookup(struct loom_device_code *code, const char *kernel_name) {
  if (code->pending && add_pending(code) != 0)
    return NULL;
  struct loom_timer t;
  loom_time_start(&t);
  size_t len = strlen(kernel_name) + sizeof ".loom_wg";
  char *sym = malloc(len);
  snprintf(sym, len, "%s.loom_wg", kernel_name);
  LLVMOrcExecutionSessionRef es = LLVMOrcLLJITGetExecutionSession(jit);
  LLVMOrcCJITDylibSearchOrderElement order = {code->dylib,
                                              LLVMOrcJITDylibLookupFlagsMatchAllSymbols};
  LLVMOrcCLookupSetElement want = {LLVMOrcLLJITMangleAndIntern(jit, sym),
                                   LLVMOrcSymbolLookupFlagsRequiredSymbol};
  struct lookup_result r = {.addr = 0};
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.cond, NULL);
  LLVMOrcExecutionSessionLookup(es, LLVMOrcLookupKindStatic, &order, 1, &want, 1, on_lookup, &r);
  pthread_mutex_lock(&r.lock);
  while (!atomic_load(&r.done))
    pthread_cond_wait(&r.cond, &r.lock);
  pthread_mutex_unlock(&r.lock);
  pthread_mutex_destroy(&r.lock);
  pthread_cond_destroy(&r.cond);
  /* no release of want.Name: the lookup took over the reference interning
   * gave (llvm-c/Orc.h). Releasing it too dropped the count of the kernel's
   * symbol name to zero while ORC still used it; the periodic sweep below
   * then freed the string and the process's heap was corrupted (PyOpenCL's
   * test_clmath and test_array aborted, "corrupted double-linked list"). */
  free(sym);
  loom_time_phase(&t, "JIT: look up a kernel");
  loom_wg_fn fn;
  uintptr_t a = (uintptr_t)r.addr;
  memcpy(&fn, &a, sizeof fn);
  return fn;
}

int loom_jit_add(struct loom_device_code *code, const struct loom_blob *object, char **log) {
  if (code->pending && add_pending(code) != 0)
    return -1;
  pthread_mutex_lock(&jit_lock);
  LLVMErrorRef e = add_object(code->dylib, object->data, object->size);
  pthread_mutex_unlock(&jit_lock);
  if (e) {
    set_error(log, "loading native code", e);
    return -1;
  }
  return 0;
}

void loom_jit_unload(struct loom_device_code *code) {
  if (!code)
    return;
  release_dylib(code->dylib);
  loom_codegen_release(code->pending);
  free(code);
}
