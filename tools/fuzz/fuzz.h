/* fuzz.h: what the files of loom-fuzz (tools/fuzz/) share: the types that
 * cross files (the string buffer, the random generator, inputs and shapes,
 * OpenCL targets, results, the workers' configuration and the options), the
 * constants of the generated kernels' interface, and the declarations of
 * the functions one file defines and another calls, grouped by the file that
 * defines them. main.c's comment describes the fuzzer. */
#ifndef LOOM_FUZZ_H
#define LOOM_FUZZ_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ */
/* small utilities (util.c)                                            */

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

typedef struct {
    char *p;
    size_t n, cap;
} sbuf;

void sb_vadd(sbuf *s, const char *fmt, va_list ap);
void sb_add(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* a string in the generator's arena, which arena_reset() frees */
char *af(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void arena_reset(void);

/* xorshift64*: the seed reproduces a program, its inputs and its shapes */
typedef struct {
    uint64_t s;
} rng;

void rseed(rng *r, uint64_t seed);
uint64_t rnext(rng *r);
unsigned rn(rng *r, unsigned n);
int chance(rng *r, unsigned pct);

/* ------------------------------------------------------------------ */
/* the kernel generator (generator.c)                                  */

/* sizes the generated kernels, their inputs and their launches share */
#define NOUT 8     /* output slots per work-item */
#define NIN 1024   /* uints of input */
#define NACC 16    /* global atomic counters */
#define LMAX 256   /* largest work-group the shapes use */

/* the whole program for a seed; the caller owns the result */
char *gen_kernel(uint64_t seed);

/* ------------------------------------------------------------------ */
/* inputs and NDRange shapes (shapes.c)                                */

typedef struct {
    cl_ulong e;
    cl_uint a;
    cl_int b;
    cl_ushort c;
    cl_uchar d;
    cl_char f;
    cl_uint g;
} kstruct;

typedef struct {
    cl_uint dim;
    size_t gsz[3], lsz[3], off[3];
} shape;

#define NSHAPES 4 /* the last repeats the first (LoomCL specialises at the second launch) */

size_t shape_items(const shape *s);
size_t shape_local(const shape *s);
void make_shapes(uint64_t seed, shape *sh);
void shape_str(const shape *s, char *b, size_t n);

typedef struct {
    cl_uint in[NIN];
    cl_int acc[NACC];
    kstruct ks;
    cl_uint u0;
    cl_int u1;
} inputs;

void make_inputs(uint64_t seed, inputs *in);

/* ------------------------------------------------------------------ */
/* running on OpenCL platforms, inside a worker process (run_cl.c)     */

typedef struct {
    const char *label;
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    const char *extra_opts;
} target;

int find_platform(const char *needle, target *t, const char *label, const char *opts);

enum { RK_OK, RK_SKIP, RK_MISMATCH, RK_BUILD, RK_RUNERR, RK_CRASH, RK_TIMEOUT, RK_NKINDS };
extern const char *const rkind[RK_NKINDS];

typedef struct {
    uint64_t seed;
    int kind;
    char msg[1536];
} result;

cl_program build(target *t, const char *src, const char *opts, char *log, size_t logn,
                 cl_int *errp);

/* what the worker is doing, in memory the parent shares: a crash or a
 * timeout names the stage, and a reference that hangs is told apart */
typedef struct {
    char what[120];
    int in_reference;
} stage_t;
extern stage_t *stage_page;

void set_stage(int in_ref, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef struct {
    target tgt[3]; /* [0]: LoomCL, then references */
    int nref;
    const char *file; /* --file: source from here instead of the generator */
    int csmith;
    const char *fuzzdir;
    char tmpdir[64];
} worker_cfg;

#define FIRST_REF_ONLY (1ull << 63) /* with a seed: compare with the first reference only */

void run_generated(worker_cfg *c, uint64_t seed, result *res, int first_ref_only);

/* ------------------------------------------------------------------ */
/* csmith (csmith.c)                                                   */

/* nopointers: the second try for a seed whose program compares pointers
 * into different address spaces (valid C, an error in OpenCL C) */
int csmith_source(uint64_t seed, int nopointers, const char *dir, char *path, size_t pathn);
void run_csmith(worker_cfg *c, uint64_t seed, result *res);

/* ------------------------------------------------------------------ */
/* workers (workers.c)                                                 */

typedef struct {
    const char *reference; /* "pocl", "O0", "both" */
    int csmith;
    const char *file;
    const char *fuzzdir;
    int timeout_s;
} options;

/* --no-fork: one program in this process (for a debugger); 1 if it failed */
int run_here(const options *opt, uint64_t seed);

typedef struct {
    pid_t pid;
    int wfd, rfd;
    int busy;
    uint64_t seed;
    double started;
    int done; /* programs since the worker started */
    stage_t *stage;
} worker;

double now(void);
void spawn(worker *w, const options *opt);
void reap(worker *w, int hard);

#endif
