/* loom-opt: LoomCL's kernel passes on LLVM IR, like LLVM's `opt`.
 *
 *   loom-opt [-passes=a,b,...] [-until=NAME] [-list] [-spec=KERNEL:X,Y,Z]
 *            [-O0] [-mcpu=CPU] [-mattr=FEATURES] [-no-verify]
 *            [-no-verify-input] [-print-meta] [-o FILE] INPUT.ll|INPUT.bc|-
 *
 * The passes are those of src/compiler/pipeline.c (loom_passes), run
 * through loom_pipeline_run on a module read from a file, set up by
 * loom_pipeline_prepare_alone: each pass finds what earlier passes decided
 * in the IR and in the kernel metadata read from the module. Input IR for
 * a pass: OpenCL C compiled the way the front end does it, then
 * `loom-opt -until=<the pass before>` (tests/ir/README.md).
 *
 * Exit status: 0 success (the module on stdout or in FILE), 1 an unreadable
 * or invalid input, a pass that failed or a module the verifier rejects
 * (the build log on stderr), 2 a usage error (unknown pass or option). */
#include "compiler.h"
#include "pipeline.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 256

static const char usage_text[] =
    "usage: loom-opt [options] INPUT.ll|INPUT.bc|-\n"
    "Runs LoomCL's kernel passes (src/compiler/pipeline.c) on LLVM IR and writes\n"
    "the module as text.\n"
    "  -passes=a,b,...    run exactly these passes, in this order (-passes= : none)\n"
    "  -until=NAME        run the pipeline from its first pass through NAME\n"
    "                     (neither: the whole build stage, up to the first\n"
    "                     code generation pass)\n"
    "  -list              list every pass (index, name, stage, what it does)\n"
    "  -spec=K:X[,Y[,Z]]  specialise kernel K for local size X,Y,Z (wg-specialize)\n"
    "  -O0                as built with -cl-opt-disable\n"
    "  -mcpu=CPU          generate for CPU instead of the host's (x86 names: skylake-avx512)\n"
    "  -mattr=FEATURES    the target's feature string instead of the host's\n"
    "                     (+avx512f,+avx512vl,...: what the x86 rewrites test;\n"
    "                     on the generic x86-64 CPU unless -mcpu is given)\n"
    "  -no-verify         verify neither the input nor the module after each pass\n"
    "  -no-verify-input   do not verify the input (the passes' verifier still runs)\n"
    "  -print-meta        print the kernel metadata as '; loom-meta:' comment lines\n"
    "                     before the module\n"
    "  -o FILE            write the module to FILE instead of stdout\n"
    "  -h, -help          this text\n"
    "Exit status: 0 success, 1 bad input or a pass or the verifier failed (the log\n"
    "on stderr), 2 usage error.\n";

static void list_pass_names(FILE *f) {
  for (size_t i = 0; loom_passes[i].name; i++)
    fprintf(f, "%s%s", i ? ", " : "", loom_passes[i].name);
  fputc('\n', f);
}

/* index of pass `name` in loom_passes, or (size_t)-1 after a message */
static size_t pass_index(const char *name) {
  const struct loom_pass *ps = loom_pass_find(name);
  if (ps)
    return (size_t)(ps - loom_passes);
  fprintf(stderr, "loom-opt: error: unknown pass '%s'; the passes are:\n  ", name);
  list_pass_names(stderr);
  return (size_t)-1;
}

static void list_passes(void) {
  size_t cg = loom_pipeline_codegen_start();
  for (size_t i = 0; loom_passes[i].name; i++)
    printf("%2zu  %-21s %-8s %s\n", i, loom_passes[i].name, i < cg ? "build" : "codegen",
           loom_passes[i].what);
}

/* an exact token of a comma-separated feature string ("+avx512f" is not
 * "+avx512fp16") */
static bool has_token(const char *list, const char *tok) {
  size_t n = strlen(tok);
  for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (!strncmp(p, tok, n) && (p[n] == ',' || p[n] == 0))
      return true;
  return false;
}

/* "-spec=K:X,Y,Z" (Y and Z default to 1), then any number of
 * "+N=image:ORDER,TYPE,PIXEL_SIZE,CHANNELS,IMAGE_TYPE" and "+N=sampler:BITS"
 * (N: the argument; numbers in C notation, e.g. 0x10B5) */
static int parse_spec_arg(const char *p, struct loom_spec_args *args) {
  if (args->num >= LOOM_SPEC_MAX_ARGS)
    return -1;
  struct loom_spec_arg *a = &args->arg[args->num++];
  char *end;
  a->index = (uint32_t)strtoul(p, &end, 0);
  int32_t *fields[5] = {&a->channel_order, &a->channel_type, &a->pixel_size, &a->num_channels,
                        &a->image_type};
  int nfields;
  if (!strncmp(end, "=image:", 7)) {
    p = end + 7;
    nfields = 5;
  } else if (!strncmp(end, "=sampler:", 9)) {
    p = end + 9;
    a->is_sampler = 1;
    fields[0] = &a->sampler_bits;
    nfields = 1;
  } else {
    return -1;
  }
  for (int f = 0; f < nfields; f++) {
    *fields[f] = (int32_t)strtol(p, &end, 0);
    if (end == p || (f + 1 < nfields && *end != ','))
      return -1;
    p = end + 1;
  }
  return *end == 0 || *end == '+' ? 0 : -1;
}

static int parse_spec(const char *text, struct loom_wg_spec *spec, char **kernel) {
  const char *colon = strchr(text, ':');
  if (!colon || colon == text)
    return -1;
  *kernel = strndup(text, (size_t)(colon - text));
  spec->kernel = *kernel;
  spec->local[0] = spec->local[1] = spec->local[2] = 1;
  memset(&spec->args, 0, sizeof spec->args);
  const char *p = colon + 1;
  for (int d = 0; d < 3; d++) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || errno || v == 0 || *p == '-')
      return -1;
    spec->local[d] = v;
    while (*end == '+') {
      if (parse_spec_arg(end + 1, &spec->args) != 0)
        return -1;
      end = strchr(end + 1, '+') ? strchr(end + 1, '+') : end + strlen(end);
    }
    if (*end == 0)
      return 0;
    if (*end != ',' || d == 2)
      return -1;
    p = end + 1;
  }
  return -1;
}

static void print_meta(FILE *f, const struct loom_program_binary *out) {
  for (uint32_t i = 0; i < out->num_kernels; i++) {
    const struct loom_kernel_meta *k = &out->kernels[i];
    fprintf(f,
            "; loom-meta: kernel %s args=%" PRIu32 " arg_buffer=%" PRIu32 " local_static=%" PRIu64
            " private=%" PRIu64 " barriers=%" PRIu32 " scratch_per_item=%" PRIu64
            " scratch_uniform=%" PRIu64 " divergent_loops=%" PRIu32 "\n",
            k->name, k->num_args, k->arg_buffer_size, k->local_static_bytes, k->private_per_item,
            k->num_barriers, k->scratch_per_item, k->scratch_uniform, k->divergent_loops);
    if (k->attributes && *k->attributes)
      fprintf(f, "; loom-meta:   attributes %s\n", k->attributes);
    for (uint32_t a = 0; a < k->num_args; a++) {
      static const char *kinds[] = {"value", "buffer", "local", "sampler", "image"};
      const struct loom_arg_meta *am = &k->args[a];
      fprintf(f, "; loom-meta:   arg %" PRIu32 " %s %s size=%" PRIu32 " offset=%" PRIu32 "%s%s\n", a,
              am->kind <= LOOM_ARG_IMAGE ? kinds[am->kind] : "?",
              am->type_name ? am->type_name : "?", am->size, am->offset, am->name ? " name=" : "",
              am->name ? am->name : "");
    }
  }
}

/* reads textual IR or bitcode (the parser tells them apart) */
static LLVMModuleRef read_module(LLVMContextRef ctx, const char *path) {
  LLVMMemoryBufferRef buf = NULL;
  char *err = NULL;
  LLVMBool failed = !strcmp(path, "-") ? LLVMCreateMemoryBufferWithSTDIN(&buf, &err)
                                       : LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &err);
  if (failed) {
    fprintf(stderr, "loom-opt: error: cannot read %s: %s\n", path, err ? err : "?");
    LLVMDisposeMessage(err);
    return NULL;
  }
  LLVMModuleRef m = NULL;
  /* takes the buffer */
  if (LLVMParseIRInContext(ctx, buf, &m, &err)) {
    /* LLVM's message names the file already */
    if (err)
      fprintf(stderr, "loom-opt: error: %s\n", err);
    else
      fprintf(stderr, "loom-opt: error: %s: cannot parse\n", path);
    LLVMDisposeMessage(err);
    return NULL;
  }
  return m;
}

struct options {
  const char *input, *output, *passes, *until, *mcpu, *mattr;
  bool list, opt_disable, verify, verify_input, print_meta;
  bool have_spec;
  struct loom_wg_spec spec;
  char *spec_kernel;
};

/* 0, 1 (help printed), or 2 (usage error, message printed) */
static int parse_args(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->verify = o->verify_input = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* -x and --x alike, as in opt */
    if (a[0] == '-' && a[1] == '-' && a[2])
      a++;
#define VALUE(opt) (!strncmp(a, opt "=", sizeof opt) ? a + sizeof opt : NULL)
    const char *v;
    if (!strcmp(a, "-h") || !strcmp(a, "-help")) {
      fputs(usage_text, stdout);
      return 1;
    } else if ((v = VALUE("-passes"))) {
      o->passes = v;
    } else if ((v = VALUE("-until"))) {
      o->until = v;
    } else if (!strcmp(a, "-list")) {
      o->list = true;
    } else if ((v = VALUE("-spec"))) {
      free(o->spec_kernel);
      o->spec_kernel = NULL;
      if (parse_spec(v, &o->spec, &o->spec_kernel)) {
        fprintf(stderr, "loom-opt: error: -spec=%s: expected KERNEL:X[,Y[,Z]] with sizes > 0\n", v);
        return 2;
      }
      o->have_spec = true;
    } else if (!strcmp(a, "-O0")) {
      o->opt_disable = true;
    } else if ((v = VALUE("-mcpu"))) {
      o->mcpu = v;
    } else if ((v = VALUE("-mattr"))) {
      o->mattr = v;
    } else if (!strcmp(a, "-no-verify")) {
      o->verify = o->verify_input = false;
    } else if (!strcmp(a, "-no-verify-input")) {
      o->verify_input = false;
    } else if (!strcmp(a, "-print-meta")) {
      o->print_meta = true;
    } else if (!strcmp(a, "-o")) {
      if (++i >= argc) {
        fprintf(stderr, "loom-opt: error: -o needs a file name\n");
        return 2;
      }
      o->output = argv[i];
    } else if ((v = VALUE("-o"))) {
      o->output = v;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "loom-opt: error: unknown option '%s'\n%s", argv[i], usage_text);
      return 2;
    } else if (o->input) {
      fprintf(stderr, "loom-opt: error: more than one input (%s, %s)\n", o->input, a);
      return 2;
    } else {
      o->input = a;
    }
#undef VALUE
  }
  if (o->list)
    return 0;
  if (!o->input) {
    fprintf(stderr, "loom-opt: error: no input file\n%s", usage_text);
    return 2;
  }
  if (o->passes && o->until) {
    fprintf(stderr, "loom-opt: error: -passes and -until exclude each other\n");
    return 2;
  }
  return 0;
}

/* the passes to run, as indices into loom_passes: n, or -1 (message) */
static long plan(const struct options *o, size_t *order) {
  size_t n = 0;
  if (o->passes) {
    char *list = strdup(o->passes), *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
      size_t i = pass_index(name);
      if (i == (size_t)-1 || n == MAX_PASSES) {
        if (n == MAX_PASSES)
          fprintf(stderr, "loom-opt: error: more than %d passes\n", MAX_PASSES);
        free(list);
        return -1;
      }
      order[n++] = i;
    }
    free(list);
    return (long)n;
  }
  size_t last = loom_pipeline_codegen_start() - 1;
  if (o->until && (last = pass_index(o->until)) == (size_t)-1)
    return -1;
  for (size_t i = 0; i <= last; i++)
    order[n++] = i;
  return (long)n;
}

/* what a pass that reads kernel metadata would silently skip */
static void warn_no_kernels(const struct loom_pass *ps, const struct loom_program_binary *out) {
  if (ps->needs && !strcmp(ps->needs, "kernel-meta") && out->num_kernels == 0)
    fprintf(stderr,
            "loom-opt: warning: pass %s works on kernels, and the module has none (a kernel is "
            "a function with !kernel_arg_addr_space metadata or the spir_kernel convention)\n",
            ps->name);
}

static int write_module(const struct options *o, LLVMModuleRef m,
                        const struct loom_program_binary *out) {
  FILE *f = o->output ? fopen(o->output, "w") : stdout;
  if (!f) {
    fprintf(stderr, "loom-opt: error: cannot write %s: %s\n", o->output, strerror(errno));
    return 1;
  }
  if (o->print_meta)
    print_meta(f, out);
  char *text = LLVMPrintModuleToString(m);
  int rc = fputs(text, f) < 0 ? 1 : 0;
  LLVMDisposeMessage(text);
  if (f != stdout ? fclose(f) != 0 : fflush(f) != 0)
    rc = 1;
  if (rc)
    fprintf(stderr, "loom-opt: error: writing %s failed\n", o->output ? o->output : "stdout");
  return rc;
}

int main(int argc, char **argv) {
  struct options o;
  int rc = parse_args(argc, argv, &o);
  if (rc) {
    free(o.spec_kernel);
    return rc == 1 ? 0 : rc;
  }
  if (o.list) {
    list_passes();
    free(o.spec_kernel);
    return 0;
  }
  size_t order[MAX_PASSES];
  long n = plan(&o, order);
  if (n < 0) {
    free(o.spec_kernel);
    return 2;
  }

  struct loom_target target;
  loom_host_target(&target);
  if (o.mcpu)
    target.cpu = o.mcpu;
  if (o.mattr) {
    /* exactly these features: on the generic CPU unless -mcpu names one */
    if (!o.mcpu)
      target.cpu = "x86-64";
    target.features = o.mattr;
    target.simd_bytes = has_token(o.mattr, "+avx512f")                                 ? 64
                        : has_token(o.mattr, "+avx") || has_token(o.mattr, "+avx2") ? 32
                                                                                     : 16;
  }

  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = read_module(ctx, o.input);
  char *log = NULL;
  struct loom_program_binary out;
  memset(&out, 0, sizeof out);
  struct loom_pipeline p;
  memset(&p, 0, sizeof p);
  rc = 1;
  if (!m)
    goto done;
  if (o.verify_input) {
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
      fprintf(stderr, "loom-opt: error: %s: the input module is invalid (LLVM's verifier):\n%s",
              o.input, msg ? msg : "");
      LLVMDisposeMessage(msg);
      goto done;
    }
    LLVMDisposeMessage(msg);
  }
  if (loom_pipeline_prepare_alone(&p, m, &target, &out, &log)) {
    fprintf(stderr, "%s", log ? log : "loom-opt: error: cannot set the pipeline up\n");
    goto done;
  }
  p.opt_disable = o.opt_disable;
  p.spec = o.have_spec ? &o.spec : NULL;
  p.verify_each = o.verify;
  for (long k = 0; k < n; k++) {
    const struct loom_pass *ps = &loom_passes[order[k]];
    warn_no_kernels(ps, &out);
    if (loom_pipeline_run(&p, order[k], order[k])) {
      fprintf(stderr, "%s", log ? log : "");
      if (!log || !*log || log[strlen(log) - 1] != '\n')
        fputc('\n', stderr);
      fprintf(stderr, "loom-opt: error: pass %s failed\n", ps->name);
      goto done;
    }
  }
  if (log && *log) /* warnings of passes that succeeded */
    fprintf(stderr, "%s", log);
  rc = write_module(&o, m, &out);

done:
  loom_pipeline_finish(&p);
  if (p.tm)
    LLVMDisposeTargetMachine(p.tm);
  loom_program_binary_free(&out);
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  free(log);
  free(o.spec_kernel);
  return rc;
}
