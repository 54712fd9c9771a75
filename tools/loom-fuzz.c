/* loom-fuzz: a differential compiler fuzzer for LoomCL.
 *
 * A seeded generator writes random but well-defined OpenCL C kernels built
 * around what LoomCL's work-group transformation handles (barriers in uniform
 * loops and branches, static and argument __local arrays, atomics, vectors,
 * divergent control flow, every integer width, helper functions, private
 * arrays, structs by value). Each runs on LoomCL and on a reference (PoCL,
 * or LoomCL itself with -cl-opt-disable) over several NDRange shapes and the
 * output buffers are compared bit for bit. With --csmith, csmith programs are
 * wrapped as single-work-item kernels and their checksum is compared with
 * the same program built for the host. Programs run in worker processes, so
 * a crash or hang is reported with its seed and the campaign goes on.
 * tests/fuzz/README.md says how to run it and reproduce a failure. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* small utilities                                                     */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("loom-fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

typedef struct {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_vadd(sbuf *s, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0)
        die("vsnprintf failed");
    if (s->n + (size_t)k + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 4096;
        while (c < s->n + (size_t)k + 1)
            c *= 2;
        s->p = realloc(s->p, c);
        if (!s->p)
            die("out of memory");
        s->cap = c;
    }
    vsnprintf(s->p + s->n, (size_t)k + 1, fmt, ap);
    s->n += (size_t)k;
}

__attribute__((format(printf, 2, 3))) static void sb_add(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(s, fmt, ap);
    va_end(ap);
}

/* arena for the generator's expression strings: reset per program */
typedef struct ablock {
    struct ablock *next;
    size_t used, cap;
    char data[];
} ablock;
static ablock *arena;

static void *aalloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!arena || arena->used + n > arena->cap) {
        size_t cap = n > (1u << 20) ? n : (1u << 20);
        ablock *b = malloc(sizeof(ablock) + cap);
        if (!b)
            die("out of memory");
        b->next = arena;
        b->used = 0;
        b->cap = cap;
        arena = b;
    }
    void *p = arena->data + arena->used;
    arena->used += n;
    return p;
}

static void arena_reset(void)
{
    while (arena) {
        ablock *n = arena->next;
        free(arena);
        arena = n;
    }
}

__attribute__((format(printf, 1, 2))) static char *af(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *p = aalloc((size_t)k + 1);
    vsnprintf(p, (size_t)k + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* xorshift64*: the seed reproduces a program, its inputs and its shapes */
typedef struct {
    uint64_t s;
} rng;

static void rseed(rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!r->s)
        r->s = 1;
    for (int i = 0; i < 4; i++) {
        r->s ^= r->s >> 12;
        r->s ^= r->s << 25;
        r->s ^= r->s >> 27;
    }
}

static uint64_t rnext(rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

static unsigned rn(rng *r, unsigned n) { return n ? (unsigned)((rnext(r) >> 33) % n) : 0; }
static int chance(rng *r, unsigned pct) { return rn(r, 100) < pct; }

/* ------------------------------------------------------------------ */
/* the kernel generator                                                */

enum { K_CHAR, K_UCHAR, K_SHORT, K_USHORT, K_INT, K_UINT, K_LONG, K_ULONG, NKINDS };
static const char *const kname[NKINDS] = {"char", "uchar", "short", "ushort",
                                          "int", "uint", "long", "ulong"};
static const int kbits[NKINDS] = {8, 8, 16, 16, 32, 32, 64, 64};
static int ksigned(int k) { return !(k & 1); }

typedef struct {
    int k, w; /* element kind, width 1 (scalar), 2, 3, 4, 8, 16 */
} ty;

static ty T(int k, int w)
{
    ty t = {k, w};
    return t;
}
static int teq(ty a, ty b) { return a.k == b.k && a.w == b.w; }
static const char *tn(ty t) { return t.w == 1 ? kname[t.k] : af("%s%d", kname[t.k], t.w); }
static ty tu(ty t) { return T(t.k | 1, t.w); }
/* the scalar type narrow arithmetic is done in: no signed overflow */
static const char *opu(ty t) { return kbits[t.k] == 64 ? "ulong" : "uint"; }

#define MAXVARS 256
#define NOUT 8     /* output slots per work-item */
#define NIN 1024   /* uints of input */
#define NACC 16    /* global atomic counters */
#define NLC 8      /* local atomic counters */
#define LMAX 256   /* largest work-group the shapes use */
#define NPRIV 8

typedef struct {
    const char *name;
    ty t;
    int uniform, assignable;
} var;

typedef struct {
    ty ret, p[3];
    int np, use_struct;
    int barrier; /* the exchange helper: called in uniform control flow only */
} helper;

typedef struct {
    rng r;
    sbuf out;
    var v[MAXVARS];
    int nv;
    int ind;
    int names;
    int barriers;      /* this kernel may use barriers (then no early return) */
    int in_helper;     /* generating a helper's body: no kernel-only names */
    int loop_depth;    /* divergent loops: break/continue allowed */
    int uloop_depth;   /* uniform loops */
    int budget;        /* statements left */
    int nlocal;        /* static __local arrays lb0.. */
    ty local_t[3];
    ty larg_t;         /* element type of the __local kernel argument */
    int has_lc;        /* __local atomic counters */
    int has_xchg;      /* the exchange helper with a barrier inside */
    ty priv_t;         /* private array element type */
    helper h[4];
    int nh;
    int ntop;          /* output variables: v[0..ntop) */
} gen;

static void line(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(gen *g, const char *fmt, ...)
{
    for (int i = 0; i < g->ind; i++)
        sb_add(&g->out, "  ");
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(&g->out, fmt, ap);
    va_end(ap);
    sb_add(&g->out, "\n");
}

static ty rand_ty(gen *g, int allow_vec)
{
    static const int widths[] = {2, 4, 8, 16, 3, 2, 4};
    int k = (int)rn(&g->r, NKINDS);
    int w = 1;
    if (allow_vec && chance(&g->r, 40))
        w = widths[rn(&g->r, 7)];
    return T(k, w);
}

static const char *newname(gen *g, const char *pfx) { return af("%s%d", pfx, g->names++); }

static var *add_var(gen *g, const char *name, ty t, int uniform, int assignable)
{
    if (g->nv >= MAXVARS)
        return NULL;
    var *v = &g->v[g->nv++];
    v->name = name;
    v->t = t;
    v->uniform = uniform;
    v->assignable = assignable;
    return v;
}

static const char *hexdig = "0123456789abcdef";

/* a constant of scalar kind k, as text that converts exactly */
static const char *cst_scalar(gen *g, int k)
{
    uint64_t v;
    switch (rn(&g->r, 6)) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = ~0ull; break;
    case 3: v = rn(&g->r, 16); break;
    case 4: v = 1ull << (kbits[k] - 1); break;
    default: v = rnext(&g->r); break;
    }
    if (kbits[k] < 64)
        v &= (1ull << kbits[k]) - 1;
    if (kbits[k] == 64)
        return af("((%s)0x%" PRIx64 "UL)", kname[k], v);
    return af("((%s)0x%" PRIx64 "u)", kname[k], v);
}

static const char *cst(gen *g, ty t)
{
    if (t.w == 1)
        return cst_scalar(g, t.k);
    if (chance(&g->r, 30))
        return af("((%s)(%s))", tn(t), cst_scalar(g, t.k));
    sbuf s = {0};
    sb_add(&s, "((%s)(", tn(t));
    for (int i = 0; i < t.w; i++)
        sb_add(&s, "%s%s", i ? ", " : "", cst_scalar(g, t.k));
    sb_add(&s, "))");
    char *r = af("%s", s.p);
    free(s.p);
    return r;
}

/* a swizzle selecting n components of a w-wide vector */
static const char *swz(gen *g, int w, int n)
{
    if (n == 1) {
        if (w <= 4 && chance(&g->r, 50))
            return af(".%c", "xyzw"[rn(&g->r, (unsigned)w)]);
        return af(".s%c", hexdig[rn(&g->r, (unsigned)w)]);
    }
    if (w == 2 * n && w >= 4 && w != 6 && chance(&g->r, 40)) {
        static const char *const halves[] = {".lo", ".hi", ".even", ".odd"};
        return halves[rn(&g->r, 4)];
    }
    char b[24];
    b[0] = '.';
    b[1] = 's';
    for (int i = 0; i < n; i++)
        b[2 + i] = hexdig[rn(&g->r, (unsigned)w)];
    b[2 + n] = 0;
    return af("%s", b);
}

/* converts expression e of type from to type to */
static const char *conv(gen *g, const char *e, ty from, ty to)
{
    if (teq(from, to))
        return e;
    if (from.w == to.w) {
        if (to.w == 1)
            return af("((%s)(%s))", tn(to), e);
        if (kbits[from.k] == kbits[to.k] && to.w != 3 && chance(&g->r, 40))
            return af("as_%s(%s)", tn(to), e);
        if (chance(&g->r, 25))
            return af("convert_%s_sat(%s)", tn(to), e);
        return af("convert_%s(%s)", tn(to), e);
    }
    if (to.w == 1)
        return af("((%s)((%s)%s))", tn(to), e, swz(g, from.w, 1));
    if (from.w == 1)
        return af("((%s)((%s)(%s)))", tn(to), kname[to.k], e);
    const char *s = af("(%s)%s", e, swz(g, from.w, to.w));
    if (from.k == to.k)
        return s;
    return af("convert_%s(%s)", tn(to), s);
}

static const char *ex(gen *g, ty t, int d, int uni);

static const char *uexpr(gen *g, int d, int uni) { return ex(g, T(K_UINT, 1), d, uni); }

/* uniform or per-work-item values the kernel can see */
static const char *leaf_id(gen *g, int uni)
{
    static const char *const ub[] = {"get_group_id", "get_local_size", "get_num_groups",
                                     "get_global_size", "get_global_offset"};
    static const char *const nb[] = {"get_local_id", "get_global_id"};
    int dim = (int)rn(&g->r, 3);
    if (g->in_helper) {
        if (!uni && chance(&g->r, 50))
            return af("((uint)%s(%d))", nb[rn(&g->r, 2)], dim);
        return af("((uint)%s(%d))", ub[rn(&g->r, 5)], dim);
    }
    switch (rn(&g->r, uni ? 6 : 10)) {
    case 0: return af("((uint)%s(%d))", ub[rn(&g->r, 5)], dim);
    case 1: return "get_work_dim()";
    case 2: {
        static const char *const f[] = {"s.a", "(uint)s.b", "(uint)s.c", "(uint)s.d",
                                        "(uint)s.e", "(uint)s.f", "s.g", "(uint)(s.e >> 32)"};
        return f[rn(&g->r, 8)];
    }
    case 3: return rn(&g->r, 2) ? "u0" : "(uint)u1";
    case 4: return "lsz";
    case 5: return af("in[(%s) & %uu]", uexpr(g, 0, 1), NIN - 1);
    case 6: return af("((uint)%s(%d))", nb[rn(&g->r, 2)], dim);
    case 7: return "lid";
    case 8: return "gl";
    default: return af("in[(%s) & %uu]", uexpr(g, 1, 0), NIN - 1);
    }
}

static const char *leaf_var(gen *g, ty t, int uni)
{
    int cand[MAXVARS], n = 0, same = 0;
    for (int i = 0; i < g->nv; i++)
        if (!uni || g->v[i].uniform) {
            if (teq(g->v[i].t, t))
                same++;
            cand[n++] = i;
        }
    if (!n)
        return NULL;
    if (same && chance(&g->r, 60)) {
        int k = (int)rn(&g->r, (unsigned)same);
        for (int i = 0; i < n; i++)
            if (teq(g->v[cand[i]].t, t) && k-- == 0)
                return g->v[cand[i]].name;
    }
    var *v = &g->v[cand[rn(&g->r, (unsigned)n)]];
    return conv(g, v->name, v->t, t);
}

static const char *leaf(gen *g, ty t, int uni)
{
    switch (rn(&g->r, 8)) {
    case 0:
    case 1: return cst(g, t);
    case 2:
        if (t.w > 1 && t.w != 3 && !g->in_helper) {
            /* vloadN from the input */
            const char *e = af("vload%d((%s) & %uu, in)", t.w, uexpr(g, 0, uni),
                               NIN / (unsigned)t.w - 1);
            return conv(g, e, T(K_UINT, t.w), t);
        }
        return conv(g, leaf_id(g, uni), T(K_UINT, 1), t);
    case 3: return conv(g, leaf_id(g, uni), T(K_UINT, 1), t);
    case 4:
        if (!g->in_helper && !uni) {
            const char *e = af("pa[(%s) & %du]", uexpr(g, 0, 0), NPRIV - 1);
            return conv(g, e, g->priv_t, t);
        }
        /* fall through */
    default: {
        const char *v = leaf_var(g, t, uni);
        return v ? v : cst(g, t);
    }
    }
}

static const char *const arith_ops[] = {"+", "-", "*", "&", "|", "^"};
static const char *const cmp_ops[] = {"<", "<=", ">", ">=", "==", "!="};

static const char *ex_scalar_op(gen *g, ty t, int d, int uni)
{
    const char *U = opu(t);
    const char *tt = tn(t);
    int S = kbits[t.k] == 64 ? 63 : 31;
    switch (rn(&g->r, 16)) {
    case 0:
    case 1:
    case 2: {
        const char *a = ex(g, t, d - 1, uni), *b = ex(g, t, d - 1, uni);
        const char *op = arith_ops[rn(&g->r, 6)];
        if ((t.k == K_UINT || t.k == K_ULONG) && chance(&g->r, 50))
            return af("(%s %s %s)", a, op, b);
        return af("((%s)((%s)(%s) %s (%s)(%s)))", tt, U, a, op, U, b);
    }
    case 3: {
        const char *a = ex(g, t, d - 1, uni), *b = uexpr(g, d - 1, uni);
        if (rn(&g->r, 2))
            return af("((%s)((%s)(%s) << ((%s) & %du)))", tt, U, a, b, S);
        return af("((%s)((%s) >> ((%s) & %du)))", tt, a, b, S); /* arithmetic for signed */
    }
    case 4: {
        const char *a = ex(g, t, d - 1, uni), *b = ex(g, t, d - 1, uni);
        if (ksigned(t.k) && chance(&g->r, 60)) {
            const char *w = kbits[t.k] == 64 ? "long" : "int";
            return af("((%s)sdiv_%s(%s, %s))", tt, w, a, b);
        }
        if (ksigned(t.k) && chance(&g->r, 60)) {
            const char *w = kbits[t.k] == 64 ? "long" : "int";
            return af("((%s)smod_%s(%s, %s))", tt, w, a, b);
        }
        const char *op = rn(&g->r, 2) ? "/" : "%";
        if (rn(&g->r, 2))
            return af("((%s)((%s)(%s) %s ((%s)(%s) | 1u)))", tt, U, a, op, U, b);
        return af("((%s)((%s) ? (%s)((%s)(%s) %s (%s)(%s)) : (%s)(%s)))", tt, b, tt, U, a, op, U, b, tt, a);
    }
    case 5: {
        ty ct = rand_ty(g, 0);
        return af("((%s)(%s %s %s))", tt, ex(g, ct, d - 1, uni), cmp_ops[rn(&g->r, 6)],
                  ex(g, ct, d - 1, uni));
    }
    case 6: {
        ty ct = rand_ty(g, 0);
        const char *c = af("(%s %s %s)", ex(g, ct, d - 1, uni), cmp_ops[rn(&g->r, 6)],
                           ex(g, ct, d - 1, uni));
        return af("((%s)(%s ? %s : %s))", tt, c, ex(g, t, d - 1, uni), ex(g, t, d - 1, uni));
    }
    case 7:
        if (rn(&g->r, 2))
            return af("((%s)(~(%s)(%s)))", tt, U, ex(g, t, d - 1, uni));
        return af("((%s)(0u - (%s)(%s)))", tt, U, ex(g, t, d - 1, uni));
    case 8:
        return af("((%s)((%s) %s (%s)))", tt, ex(g, t, d - 1, uni), rn(&g->r, 2) ? "&&" : "||",
                  ex(g, t, d - 1, uni));
    default: return NULL;
    }
}

/* gentype builtins: scalar or vector of type t */
static const char *ex_builtin(gen *g, ty t, int d, int uni)
{
    const char *tt = tn(t);
    const char *a = ex(g, t, d - 1, uni), *b = ex(g, t, d - 1, uni);
    switch (rn(&g->r, 14)) {
    case 0: return af("min(%s, %s)", a, b);
    case 1: return af("max(%s, %s)", a, b);
    case 2: {
        const char *c = ex(g, t, d - 1, uni);
        return af("clamp(%s, min(%s, %s), max(%s, %s))", a, b, c, b, c);
    }
    case 3:
        return t.w == 1 ? af("((%s)abs(%s))", tt, a) : af("as_%s(abs(%s))", tt, a);
    case 4:
        return t.w == 1 ? af("((%s)abs_diff(%s, %s))", tt, a, b)
                        : af("as_%s(abs_diff(%s, %s))", tt, a, b);
    case 5: return af("add_sat(%s, %s)", a, b);
    case 6: return af("sub_sat(%s, %s)", a, b);
    case 7: return af("%s(%s, %s)", rn(&g->r, 2) ? "hadd" : "rhadd", a, b);
    case 8: return af("mul_hi(%s, %s)", a, b);
    case 9: return af("rotate(%s, %s)", a, b);
    case 10: return af("%s(%s)", rn(&g->r, 2) ? "popcount" : "clz", a);
    case 11: return af("bitselect(%s, %s, %s)", a, b, ex(g, t, d - 1, uni));
    case 12: return af("select(%s, %s, %s)", a, b, ex(g, t, d - 1, uni));
    default: return af("mad_sat(%s, %s, %s)", a, b, ex(g, t, d - 1, uni));
    }
}

static const char *ex_vector_op(gen *g, ty t, int d, int uni)
{
    const char *tt = tn(t);
    ty u = tu(t);
    int sgn = ksigned(t.k);
    switch (rn(&g->r, 8)) {
    case 0:
    case 1:
    case 2: {
        const char *a = ex(g, t, d - 1, uni), *b = ex(g, t, d - 1, uni);
        const char *op = arith_ops[rn(&g->r, 6)];
        if (!sgn)
            return af("(%s %s %s)", a, op, b);
        if (t.w == 3)
            return af("convert_%s(convert_%s(%s) %s convert_%s(%s))", tt, tn(u), a, op, tn(u), b);
        return af("as_%s(as_%s(%s) %s as_%s(%s))", tt, tn(u), a, op, tn(u), b);
    }
    case 3: {
        /* OpenCL C masks the shift count to the element width */
        const char *a = ex(g, u, d - 1, uni), *b = ex(g, u, d - 1, uni);
        return conv(g, af("(%s %s %s)", a, rn(&g->r, 2) ? "<<" : ">>", b), u, t);
    }
    case 4: {
        /* a comparison gives -1/0 in a signed vector of the same element size */
        const char *a = ex(g, t, d - 1, uni), *b = ex(g, t, d - 1, uni);
        ty st = T(t.k & ~1, t.w);
        return conv(g, af("(%s %s %s)", a, cmp_ops[rn(&g->r, 6)], b), st, t);
    }
    case 5: {
        const char *a = ex(g, u, d - 1, uni), *b = ex(g, u, d - 1, uni);
        if (rn(&g->r, 2))
            return conv(g, af("(%s / (%s | (%s)1))", a, b, tn(u)), u, t);
        return conv(g, af("(%s %% (%s | (%s)1))", a, b, tn(u)), u, t);
    }
    case 6: return conv(g, af("(~%s)", ex(g, u, d - 1, uni)), u, t);
    default: {
        /* built from parts */
        if (t.w == 2 || t.w == 3) {
            ty s = T(t.k, 1);
            sbuf b = {0};
            sb_add(&b, "((%s)(", tt);
            for (int i = 0; i < t.w; i++)
                sb_add(&b, "%s%s", i ? ", " : "", ex(g, s, d - 1, uni));
            sb_add(&b, "))");
            char *r = af("%s", b.p);
            free(b.p);
            return r;
        }
        ty h = T(t.k, t.w / 2);
        return af("((%s)(%s, %s))", tt, ex(g, h, d - 1, uni), ex(g, h, d - 1, uni));
    }
    }
}

static const char *ex_call(gen *g, ty t, int d, int uni)
{
    /* helpers may read get_local_id: never uniform */
    if (g->in_helper || !g->nh || uni)
        return NULL;
    int i = (int)rn(&g->r, (unsigned)g->nh);
    helper *h = &g->h[i];
    if (h->barrier)
        return NULL;
    sbuf b = {0};
    sb_add(&b, "h%d(", i);
    for (int p = 0; p < h->np; p++)
        sb_add(&b, "%s%s", p ? ", " : "", ex(g, h->p[p], d - 1, uni));
    if (h->use_struct)
        sb_add(&b, "%ss", h->np ? ", " : "");
    sb_add(&b, ")");
    const char *r = conv(g, af("%s", b.p), h->ret, t);
    free(b.p);
    return r;
}

/* an expression of type t; uni: only work-group-uniform values */
static const char *ex(gen *g, ty t, int d, int uni)
{
    if (d <= 0 || chance(&g->r, 25))
        return leaf(g, t, uni);
    const char *r = NULL;
    switch (rn(&g->r, 10)) {
    case 0:
    case 1: r = ex_builtin(g, t, d, uni); break;
    case 2: r = ex_call(g, t, d, uni); break;
    case 3: {
        ty o = rand_ty(g, 1);
        r = conv(g, ex(g, o, d - 1, uni), o, t);
        break;
    }
    default: r = t.w == 1 ? ex_scalar_op(g, t, d, uni) : ex_vector_op(g, t, d, uni); break;
    }
    return r ? r : leaf(g, t, uni);
}

static const char *cond(gen *g, int uni)
{
    ty t = rand_ty(g, 0);
    switch (rn(&g->r, 3)) {
    case 0: return af("(%s %s %s)", ex(g, t, 2, uni), cmp_ops[rn(&g->r, 6)], ex(g, t, 2, uni));
    case 1: return af("((%s) & %uu)", uexpr(g, 2, uni), 1u << rn(&g->r, 4));
    default: return af("(%s)", ex(g, t, 2, uni));
    }
}

/* a uint folding any value into an output slot */
static const char *fold(ty t, const char *e)
{
    if (t.w == 1) {
        if (kbits[t.k] == 64)
            return af("(uint)((ulong)(%s) ^ ((ulong)(%s) >> 32))", e, e);
        return af("(uint)(%s)", e);
    }
    sbuf b = {0};
    sb_add(&b, "(");
    for (int i = 0; i < t.w; i++) {
        const char *c = af("(%s).s%c", e, hexdig[i]);
        if (kbits[t.k] == 64)
            c = af("(uint)((ulong)%s ^ ((ulong)%s >> 32))", c, c);
        else
            c = af("(uint)%s", c);
        sb_add(&b, "%s%s * %uu", i ? " + " : "", c, 2u * (unsigned)i + 1u);
    }
    sb_add(&b, ")");
    char *r = af("%s", b.p);
    free(b.p);
    return r;
}

static void emit_outputs(gen *g)
{
    for (int i = 0; i < g->ntop && i < NOUT; i++)
        line(g, "out[gl * %du + %du] = %s;", NOUT, i, fold(g->v[i].t, g->v[i].name));
}

static var *pick_assignable(gen *g, int uni_ctx)
{
    int cand[MAXVARS], n = 0;
    for (int i = 0; i < g->nv; i++)
        if (g->v[i].assignable && (uni_ctx || !g->v[i].uniform))
            cand[n++] = i;
    return n ? &g->v[cand[rn(&g->r, (unsigned)n)]] : NULL;
}

static void block(gen *g, int n, int d, int uni_ctx);

static const char *fence(gen *g)
{
    switch (rn(&g->r, 4)) {
    case 0: return "CLK_GLOBAL_MEM_FENCE";
    case 1: return "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
    default: return "CLK_LOCAL_MEM_FENCE";
    }
}

static void st_assign(gen *g, int uni_ctx)
{
    var *v = pick_assignable(g, uni_ctx);
    if (!v)
        return;
    int uni = v->uniform;
    if (v->t.w > 1 && chance(&g->r, 30)) {
        int n = v->t.w == 3 ? 1 : (int)(1u << rn(&g->r, 2));
        while (n > v->t.w || n == 3)
            n /= 2;
        /* an lvalue swizzle: distinct components */
        char b[24] = ".s";
        int used[16] = {0}, m = 0;
        while (m < n) {
            int c = (int)rn(&g->r, (unsigned)v->t.w);
            if (!used[c]) {
                used[c] = 1;
                b[2 + m++] = hexdig[c];
            }
        }
        b[2 + m] = 0;
        line(g, "%s%s = %s;", v->name, b, ex(g, T(v->t.k, n), 3, uni));
        return;
    }
    if (!ksigned(v->t.k) && chance(&g->r, 30)) {
        static const char *const cops[] = {"+=", "-=", "*=", "^=", "|=", "&="};
        line(g, "%s %s %s;", v->name, cops[rn(&g->r, 6)], ex(g, v->t, 3, uni));
        return;
    }
    line(g, "%s = %s;", v->name, ex(g, v->t, 3, uni));
}

static void st_decl(gen *g, int uni_ctx)
{
    ty t = rand_ty(g, 1);
    int uni = uni_ctx && chance(&g->r, 40);
    const char *n = newname(g, "t");
    line(g, "%s %s = %s;", tn(t), n, ex(g, t, 3, uni));
    add_var(g, n, t, uni, 1);
}

static void st_atomic_global(gen *g)
{
    int slot = (int)rn(&g->r, NACC);
    const char *e = uexpr(g, 2, 0);
    /* each slot has one kind of operation, so the result does not depend on
     * the order the work-items run in */
    switch (slot) {
    case 0: case 1: case 14: case 15: {
        static const char *const f[] = {"atomic_add", "atomic_sub"};
        if (chance(&g->r, 25)) {
            line(g, "%s(&acc[%d]);", rn(&g->r, 2) ? "atomic_inc" : "atomic_dec", slot);
            return;
        }
        line(g, "%s(&acc[%d], (int)(%s));", f[rn(&g->r, 2)], slot, e);
        return;
    }
    case 2: case 3: line(g, "atomic_add((volatile __global uint *)&acc[%d], %s);", slot, e); return;
    case 4: case 5: line(g, "atomic_xor(&acc[%d], (int)(%s));", slot, e); return;
    case 6: line(g, "atomic_or(&acc[%d], (int)(%s));", slot, e); return;
    case 7: line(g, "atomic_and(&acc[%d], (int)(%s));", slot, e); return;
    case 8: case 9: line(g, "atomic_min(&acc[%d], (int)(%s));", slot, e); return;
    case 10: case 11: line(g, "atomic_max(&acc[%d], (int)(%s));", slot, e); return;
    case 12: line(g, "atomic_min((volatile __global uint *)&acc[%d], %s);", slot, e); return;
    default: line(g, "atomic_max((volatile __global uint *)&acc[%d], %s);", slot, e); return;
    }
}

static void st_atomic_local_op(gen *g)
{
    int slot = (int)rn(&g->r, NLC);
    const char *e = uexpr(g, 2, 0);
    switch (slot) {
    case 0: case 1: line(g, "atomic_%s(&lc[%d], (int)(%s));", rn(&g->r, 2) ? "add" : "sub", slot, e); return;
    case 2: line(g, "atomic_xor(&lc[2], (int)(%s));", e); return;
    case 3: line(g, "atomic_or((volatile __local uint *)&lc[3], %s);", e); return;
    case 4: line(g, "atomic_and(&lc[4], (int)(%s));", e); return;
    case 5: line(g, "atomic_min(&lc[5], (int)(%s));", e); return;
    case 6: line(g, "atomic_max((volatile __local uint *)&lc[6], %s);", e); return;
    default: line(g, "%s(&lc[7]);", rn(&g->r, 2) ? "atomic_inc" : "atomic_dec"); return;
    }
}

/* a non-uniform variable receives a value read from local memory */
static void take(gen *g, const char *e, ty from)
{
    var *v = pick_assignable(g, 0);
    if (v)
        line(g, "%s = %s;", v->name, conv(g, e, from, v->t));
}

/* __local constructs: need uniform control flow and a barrier-using kernel */
static void st_local(gen *g)
{
    const char *f = "CLK_LOCAL_MEM_FENCE";
    int which = (int)rn(&g->r, 6);
    if (which == 5 && g->has_lc) {
        line(g, "for (uint q = lid; q < %du; q += lsz) lc[q] = (int)(%s);", NLC, uexpr(g, 1, 1));
        line(g, "barrier(%s);", f);
        int n = 1 + (int)rn(&g->r, 4);
        for (int i = 0; i < n; i++) {
            if (chance(&g->r, 50)) {
                line(g, "if %s {", cond(g, 0));
                g->ind++;
                st_atomic_local_op(g);
                g->ind--;
                line(g, "}");
            } else {
                st_atomic_local_op(g);
            }
        }
        line(g, "barrier(%s);", f);
        take(g, af("lc[%u]", rn(&g->r, NLC)), T(K_INT, 1));
        line(g, "barrier(%s);", f);
        return;
    }
    if (which == 4 && g->has_xchg) {
        var *v = pick_assignable(g, 0);
        if (v)
            line(g, "%s = %s;", v->name,
                 conv(g, af("xchg(lx, lid, lsz, %s, %s)", uexpr(g, 2, 0), uexpr(g, 1, 0)),
                      T(K_UINT, 1), v->t));
        return;
    }
    /* the kernel argument or a static array */
    const char *arr;
    ty at;
    int a = (int)rn(&g->r, (unsigned)g->nlocal + 1);
    if (a == g->nlocal) {
        arr = "la";
        at = g->larg_t;
    } else {
        arr = af("lb%d", a);
        at = g->local_t[a];
    }
    line(g, "%s[lid] = %s;", arr, ex(g, at, 3, 0));
    line(g, "barrier(%s);", chance(&g->r, 80) ? f : "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE");
    if (which == 0 || which == 3) {
        /* a tree reduction with a barrier in a uniform loop */
        static const char *const rop[] = {"+", "^", "|", "&"};
        const char *sv = newname(g, "r");
        const char *x = af("%s[lid]", arr), *y = af("%s[lid + %s]", arr, sv);
        const char *comb = rn(&g->r, 3) ? af("%s %s %s", x, rop[rn(&g->r, 4)], y)
                                         : af("%s(%s, %s)", rn(&g->r, 2) ? "max" : "min", x, y);
        line(g, "for (uint %s = 1u; %s < lsz; %s <<= 1) {", sv, sv, sv);
        g->ind++;
        line(g, "if ((lid %% (2u * %s)) == 0u && lid + %s < lsz)", sv, sv);
        line(g, "  %s = %s;", x, comb);
        line(g, "barrier(%s);", f);
        g->ind--;
        line(g, "}");
        take(g, af("%s[0]", arr), at);
    } else {
        int n = 1 + (int)rn(&g->r, 3);
        for (int i = 0; i < n; i++) {
            const char *rd = af("%s[(%s) %% lsz]", arr, uexpr(g, 2, 0));
            if (chance(&g->r, 30)) {
                line(g, "if %s", cond(g, 0));
                g->ind++;
                take(g, rd, at);
                g->ind--;
            } else {
                take(g, rd, at);
            }
        }
    }
    line(g, "barrier(%s);", f);
}

static void st(gen *g, int d, int uni_ctx)
{
    g->budget--;
    int can_bar = uni_ctx && g->barriers && !g->in_helper;
    int c = (int)rn(&g->r, 20);
    if (d <= 0 && c >= 8)
        c = (int)rn(&g->r, 8);
    switch (c) {
    case 0: case 1: case 2: case 3: st_assign(g, uni_ctx); return;
    case 4: st_decl(g, uni_ctx); return;
    case 5:
        if (!g->in_helper) {
            line(g, "pa[(%s) & %du] = %s;", uexpr(g, 2, 0), NPRIV - 1, ex(g, g->priv_t, 3, 0));
            return;
        }
        st_assign(g, uni_ctx);
        return;
    case 6:
        if (!g->in_helper && chance(&g->r, 50)) {
            st_atomic_global(g);
            return;
        }
        st_assign(g, uni_ctx);
        return;
    case 7:
        if (can_bar) {
            line(g, "barrier(%s);", fence(g));
            return;
        }
        if (g->loop_depth && chance(&g->r, 50)) {
            line(g, "if %s %s;", cond(g, 0), rn(&g->r, 2) ? "break" : "continue");
            return;
        }
        if (!g->barriers && !g->in_helper && chance(&g->r, 30)) {
            line(g, "if %s {", cond(g, 0));
            g->ind++;
            emit_outputs(g);
            line(g, "return;");
            g->ind--;
            line(g, "}");
            return;
        }
        st_assign(g, uni_ctx);
        return;
    case 8: case 9: {
        /* divergent branch */
        line(g, "if %s {", cond(g, 0));
        block(g, 1 + (int)rn(&g->r, 3), d - 1, 0);
        if (rn(&g->r, 2)) {
            line(g, "} else {");
            block(g, 1 + (int)rn(&g->r, 3), d - 1, 0);
        }
        line(g, "}");
        return;
    }
    case 10: case 11: {
        /* divergent loop: per-work-item trip count */
        const char *i = newname(g, "j");
        int kind = (int)rn(&g->r, 3);
        g->loop_depth++;
        if (kind == 0) {
            line(g, "for (uint %s = 0u; %s < ((%s) & 7u); %s++) {", i, i, uexpr(g, 2, 0), i);
            int nv = g->nv;
            add_var(g, i, T(K_UINT, 1), 0, 0);
            block(g, 1 + (int)rn(&g->r, 3), d - 1, 0);
            g->nv = nv;
            line(g, "}");
        } else if (kind == 1) {
            line(g, "{");
            g->ind++;
            line(g, "uint %s = (%s) & 3u;", i, uexpr(g, 2, 0));
            line(g, "do {");
            block(g, 1 + (int)rn(&g->r, 3), d - 1, 0);
            line(g, "} while (%s-- != 0u);", i);
            g->ind--;
            line(g, "}");
        } else {
            line(g, "{");
            g->ind++;
            line(g, "uint %s = (%s) & 7u;", i, uexpr(g, 2, 0));
            line(g, "while (%s > 0u) {", i);
            g->ind++;
            line(g, "%s--;", i);
            g->ind--;
            block(g, 1 + (int)rn(&g->r, 3), d - 1, 0);
            line(g, "}");
            g->ind--;
            line(g, "}");
        }
        g->loop_depth--;
        return;
    }
    case 12: {
        int ld = g->loop_depth;
        g->loop_depth = 0; /* break leaves the switch */
        line(g, "switch ((%s) & 3u) {", uexpr(g, 2, uni_ctx && rn(&g->r, 2)));
        for (int k = 0; k < 4; k++) {
            line(g, k == 3 ? "default: {" : "case %du: {", k);
            block(g, 1 + (int)rn(&g->r, 2), d - 1, 0);
            line(g, "}");
            if (rn(&g->r, 3))
                line(g, "  break;");
        }
        line(g, "}");
        g->loop_depth = ld;
        return;
    }
    case 13: case 14: {
        if (!uni_ctx) {
            st_assign(g, uni_ctx);
            return;
        }
        /* uniform branch: may hold barriers */
        line(g, "if %s {", cond(g, 1));
        block(g, 1 + (int)rn(&g->r, 3), d - 1, 1);
        if (rn(&g->r, 2)) {
            line(g, "} else {");
            block(g, 1 + (int)rn(&g->r, 3), d - 1, 1);
        }
        line(g, "}");
        return;
    }
    case 15: case 16: {
        if (!uni_ctx) {
            st_assign(g, uni_ctx);
            return;
        }
        /* uniform loop: a trip count the whole work-group shares */
        const char *i = newname(g, "i"), *n = newname(g, "n");
        line(g, "const uint %s = (%s) %% %uu;", n, uexpr(g, 2, 1), 2u + rn(&g->r, 3));
        line(g, "for (uint %s = 0u; %s < %s; %s++) {", i, i, n, i);
        int nv = g->nv;
        add_var(g, i, T(K_UINT, 1), 1, 0);
        g->uloop_depth++;
        int ld = g->loop_depth;
        g->loop_depth = 0;
        block(g, 1 + (int)rn(&g->r, 4), d - 1, 1);
        if (chance(&g->r, 20)) {
            g->ind++;
            line(g, "if %s %s;", cond(g, 1), rn(&g->r, 2) ? "break" : "continue");
            g->ind--;
            block(g, 1, d - 1, 1);
        }
        g->loop_depth = ld;
        g->uloop_depth--;
        g->nv = nv;
        line(g, "}");
        return;
    }
    default:
        if (can_bar && !g->in_helper) {
            st_local(g);
            return;
        }
        if (!g->in_helper && chance(&g->r, 40)) {
            st_atomic_global(g);
            return;
        }
        st_decl(g, uni_ctx);
        return;
    }
}

static void block(gen *g, int n, int d, int uni_ctx)
{
    int nv = g->nv;
    g->ind++;
    for (int i = 0; i < n && g->budget > 0; i++)
        st(g, d, uni_ctx);
    g->ind--;
    g->nv = nv;
}

static const char *prelude =
    "struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };\n"
    "static int sdiv_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }\n"
    "static int smod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }\n"
    "static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }\n"
    "static long smod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }\n";

static void gen_helper(gen *g, int i)
{
    helper *h = &g->h[i];
    h->ret = rand_ty(g, 1);
    h->np = 1 + (int)rn(&g->r, 3);
    h->use_struct = chance(&g->r, 40);
    sbuf sig = {0};
    g->nv = 0;
    g->in_helper = 1;
    for (int p = 0; p < h->np; p++) {
        h->p[p] = rand_ty(g, 1);
        const char *pn = af("p%d", p);
        sb_add(&sig, "%s%s %s", p ? ", " : "", tn(h->p[p]), pn);
        add_var(g, pn, h->p[p], 0, 1);
    }
    if (h->use_struct)
        sb_add(&sig, ", struct P ps");
    line(g, "static %s h%d(%s) {", tn(h->ret), i, sig.p);
    free(sig.p);
    if (h->use_struct) {
        g->ind++;
        line(g, "ps.a += %s;", conv(g, "p0", h->p[0], T(K_UINT, 1)));
        line(g, "uint sx = ps.a ^ (uint)ps.e ^ (uint)ps.b ^ ps.c;");
        g->ind--;
        add_var(g, "sx", T(K_UINT, 1), 0, 1);
    }
    g->budget = 4 + (int)rn(&g->r, 5);
    block(g, g->budget, 2, 0);
    g->ind++;
    line(g, "return %s;", ex(g, h->ret, 3, 0));
    g->ind--;
    line(g, "}");
    g->in_helper = 0;
    g->nv = 0;
    g->nh = i + 1;
}

/* the whole program for a seed; the caller owns the result */
static char *gen_kernel(uint64_t seed)
{
    gen g;
    memset(&g, 0, sizeof g);
    rseed(&g.r, seed ^ 0x6b65726e656cull);
    g.barriers = chance(&g.r, 75);
    sb_add(&g.out, "/* loom-fuzz seed %" PRIu64 " */\n%s", seed, prelude);
    if (g.barriers && chance(&g.r, 40)) {
        g.has_xchg = 1;
        sb_add(&g.out,
               "static uint xchg(__local uint *l, uint lid, uint lsz, uint v, uint k) {\n"
               "  l[lid] = v;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
               "  uint r = l[(lid + k) %% lsz];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  return r;\n}\n");
    }
    int nh = (int)rn(&g.r, 4);
    for (int i = 0; i < nh; i++)
        gen_helper(&g, i);
    g.larg_t = tu(rand_ty(&g, 1));
    sb_add(&g.out,
           "__kernel void k(__global const uint *in, __global uint *out, __global int *acc,\n"
           "                __local %s *la, struct P s, uint u0, int u1) {\n",
           tn(g.larg_t));
    g.ind = 1;
    line(&g, "const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
             "get_local_size(1) * get_local_id(2));");
    line(&g, "const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);");
    line(&g, "const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * "
             "((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * "
             "(get_global_id(2) - get_global_offset(2)));");
    if (g.barriers) {
        g.nlocal = (int)rn(&g.r, 3);
        for (int i = 0; i < g.nlocal; i++) {
            g.local_t[i] = tu(rand_ty(&g, 1));
            line(&g, "__local %s lb%d[%d];", tn(g.local_t[i]), i, LMAX);
        }
        g.has_lc = chance(&g.r, 50);
        if (g.has_lc)
            line(&g, "__local int lc[%d];", NLC);
        if (g.has_xchg)
            line(&g, "__local uint lx[%d];", LMAX);
    }
    g.priv_t = rand_ty(&g, 1);
    line(&g, "%s pa[%d];", tn(g.priv_t), NPRIV);
    line(&g, "for (uint q = 0u; q < %du; q++) pa[q] = %s;", NPRIV,
         conv(&g, af("in[(gl * 3u + q) & %uu]", NIN - 1), T(K_UINT, 1), g.priv_t));
    /* output variables first: v[0..ntop) */
    g.ntop = 2 + (int)rn(&g.r, NOUT - 1);
    for (int i = 0; i < g.ntop; i++) {
        ty t = rand_ty(&g, 1);
        const char *n = af("v%d", i);
        int uni = chance(&g.r, 35);
        line(&g, "%s %s = %s;", tn(t), n, ex(&g, t, 2, uni));
        add_var(&g, n, t, uni, 1);
    }
    g.budget = 12 + (int)rn(&g.r, 30);
    g.ind = 0;
    block(&g, 1000, 4, 1);
    g.ind = 1;
    emit_outputs(&g);
    sb_add(&g.out, "}\n");
    arena_reset();
    return g.out.p;
}

/* ------------------------------------------------------------------ */
/* inputs and NDRange shapes                                           */

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

static size_t shape_items(const shape *s) { return s->gsz[0] * s->gsz[1] * s->gsz[2]; }
static size_t shape_local(const shape *s) { return s->lsz[0] * s->lsz[1] * s->lsz[2]; }

static void make_local(rng *r, shape *s)
{
    static const size_t l1[] = {1, 2, 3, 7, 8, 13, 16, 32, 60, 64, 100, 128, 256};
    static const size_t l2[][2] = {{1, 1}, {2, 3}, {4, 4}, {8, 8}, {5, 7}, {16, 4}, {1, 9}, {3, 1}, {16, 16}};
    static const size_t l3[][3] = {{1, 1, 1}, {2, 2, 2}, {2, 3, 4}, {4, 4, 4}, {3, 1, 5}, {1, 8, 2}, {4, 2, 8}};
    for (int i = 0; i < 3; i++)
        s->lsz[i] = 1;
    if (s->dim == 1)
        s->lsz[0] = l1[rn(r, 13)];
    else if (s->dim == 2) {
        unsigned k = rn(r, 9);
        s->lsz[0] = l2[k][0];
        s->lsz[1] = l2[k][1];
    } else {
        unsigned k = rn(r, 7);
        for (int i = 0; i < 3; i++)
            s->lsz[i] = l3[k][i];
    }
}

static void make_global(rng *r, shape *s)
{
    for (int i = 0; i < 3; i++) {
        size_t groups = 1 + rn(r, s->dim == 1 ? 4 : 2);
        s->gsz[i] = i < (int)s->dim ? s->lsz[i] * groups : 1;
        s->off[i] = i < (int)s->dim && chance(r, 20) ? rn(r, 5) : 0;
    }
}

static void make_shapes(uint64_t seed, shape *sh)
{
    rng r;
    rseed(&r, seed ^ 0x7368617065ull);
    for (int i = 0; i < 3; i++) {
        shape *s = &sh[i];
        memset(s, 0, sizeof *s);
        s->dim = 1 + rn(&r, 3);
        if (i == 1) {
            /* the same local size as shape 0, another global size */
            s->dim = sh[0].dim;
            memcpy(s->lsz, sh[0].lsz, sizeof s->lsz);
        } else {
            make_local(&r, s);
        }
        make_global(&r, s);
    }
    sh[3] = sh[0];
}

static void shape_str(const shape *s, char *b, size_t n)
{
    snprintf(b, n, "%ud g=%zux%zux%zu l=%zux%zux%zu off=%zu,%zu,%zu", s->dim, s->gsz[0], s->gsz[1],
             s->gsz[2], s->lsz[0], s->lsz[1], s->lsz[2], s->off[0], s->off[1], s->off[2]);
}

typedef struct {
    cl_uint in[NIN];
    cl_int acc[NACC];
    kstruct ks;
    cl_uint u0;
    cl_int u1;
} inputs;

static void make_inputs(uint64_t seed, inputs *in)
{
    rng r;
    rseed(&r, seed ^ 0x696e707574ull);
    for (int i = 0; i < NIN; i++) {
        uint64_t x = rnext(&r);
        switch (rn(&r, 4)) {
        case 0: in->in[i] = (cl_uint)rn(&r, 64); break;
        case 1: in->in[i] = (cl_uint)(x >> 32) | 0x80000000u; break;
        default: in->in[i] = (cl_uint)(x >> 32); break;
        }
    }
    for (int i = 0; i < NACC; i++)
        in->acc[i] = (cl_int)(rnext(&r) >> 40);
    memset(&in->ks, 0, sizeof in->ks);
    in->ks.e = rnext(&r);
    in->ks.a = (cl_uint)rnext(&r);
    in->ks.b = (cl_int)(rnext(&r) >> 33) - (1 << 29);
    in->ks.c = (cl_ushort)rnext(&r);
    in->ks.d = (cl_uchar)rnext(&r);
    in->ks.f = (cl_char)(rn(&r, 256) - 128);
    in->ks.g = rn(&r, 10);
    in->u0 = (cl_uint)rn(&r, 1000);
    in->u1 = (cl_int)(rnext(&r) >> 33);
}

/* ------------------------------------------------------------------ */
/* running on OpenCL platforms (inside a worker process)               */

typedef struct {
    const char *label;
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    const char *extra_opts;
} target;

static int find_platform(const char *needle, target *t, const char *label, const char *opts)
{
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, needle))
            continue;
        cl_device_id d;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS)
            continue;
        cl_int err;
        t->label = label;
        t->plat = ps[i];
        t->dev = d;
        t->ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            return 0;
        t->q = clCreateCommandQueueWithProperties(t->ctx, d, NULL, &err);
        if (err != CL_SUCCESS)
            return 0;
        t->extra_opts = opts;
        return 1;
    }
    return 0;
}

enum { RK_OK, RK_SKIP, RK_MISMATCH, RK_BUILD, RK_RUNERR, RK_CRASH, RK_TIMEOUT, RK_NKINDS };
static const char *const rkind[RK_NKINDS] = {"ok", "skipped", "mismatch", "build", "run-error", "crash", "timeout"};

typedef struct {
    uint64_t seed;
    int kind;
    char msg[1536];
} result;

static cl_program build(target *t, const char *src, const char *opts, char *log, size_t logn,
                        cl_int *errp)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(t->ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        *errp = err;
        snprintf(log, logn, "clCreateProgramWithSource: %d", err);
        return NULL;
    }
    char o[256];
    snprintf(o, sizeof o, "-w %s %s", opts, t->extra_opts);
    err = clBuildProgram(p, 1, &t->dev, o, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        log[0] = 0;
        clGetProgramBuildInfo(p, t->dev, CL_PROGRAM_BUILD_LOG, logn - 1, log, &n);
        log[logn - 1] = 0;
        clReleaseProgram(p);
        *errp = err;
        return NULL;
    }
    *errp = CL_SUCCESS;
    return p;
}

/* one launch of the generated kernel; out/acc get the results */
static cl_int launch(target *t, cl_kernel k, const inputs *in, const shape *s, cl_uint *out,
                     cl_int *acc, size_t larg_elem)
{
    cl_int err;
    size_t items = shape_items(s);
    size_t outn = items * NOUT;
    for (size_t i = 0; i < outn; i++)
        out[i] = 0xdeadbeefu;
    memcpy(acc, in->acc, sizeof in->acc);
    cl_mem bin = clCreateBuffer(t->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in->in,
                                (void *)in->in, &err);
    if (err)
        return err;
    cl_mem bout = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 outn * sizeof(cl_uint), out, &err);
    if (err) {
        clReleaseMemObject(bin);
        return err;
    }
    cl_mem bacc = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in->acc,
                                 acc, &err);
    if (err) {
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        return err;
    }
    err = clSetKernelArg(k, 0, sizeof bin, &bin);
    err |= clSetKernelArg(k, 1, sizeof bout, &bout);
    err |= clSetKernelArg(k, 2, sizeof bacc, &bacc);
    err |= clSetKernelArg(k, 3, larg_elem * shape_local(s), NULL);
    err |= clSetKernelArg(k, 4, sizeof in->ks, &in->ks);
    err |= clSetKernelArg(k, 5, sizeof in->u0, &in->u0);
    err |= clSetKernelArg(k, 6, sizeof in->u1, &in->u1);
    cl_event ev = NULL;
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(t->q, k, s->dim, s->off, s->gsz, s->lsz, 0, NULL, &ev);
    if (err == CL_SUCCESS) {
        /* a kernel that faults ends with a negative event status */
        cl_int status = CL_COMPLETE;
        clWaitForEvents(1, &ev);
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (status < 0)
            err = status;
    }
    if (ev)
        clReleaseEvent(ev);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(t->q, bout, CL_TRUE, 0, outn * sizeof(cl_uint), out, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(t->q, bacc, CL_TRUE, 0, sizeof in->acc, acc, 0, NULL, NULL);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseMemObject(bacc);
    return err;
}

/* the element size of the __local argument, from the source's signature */
static size_t larg_size_from_src(const char *src)
{
    const char *p = strstr(src, "__local ");
    const char *q = strstr(src, "__kernel void k(");
    if (!q)
        return 4;
    p = strstr(q, "__local ");
    if (!p)
        return 4;
    p += 8;
    static const char *const names[] = {"uchar", "ushort", "uint", "ulong"};
    static const size_t sz[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(names[i]);
        if (!strncmp(p, names[i], n)) {
            int w = atoi(p + n);
            if (w == 0)
                w = 1;
            if (w == 3)
                w = 4;
            return sz[i] * (size_t)w;
        }
    }
    return 4;
}

/* what the worker is doing, in memory the parent shares: a crash or a
 * timeout names the stage, and a reference that hangs is told apart */
typedef struct {
    char what[120];
    int in_reference;
} stage_t;
static stage_t *stage_page;

static void set_stage(int in_ref, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_stage(int in_ref, const char *fmt, ...)
{
    if (!stage_page)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(stage_page->what, sizeof stage_page->what, fmt, ap);
    va_end(ap);
    stage_page->in_reference = in_ref;
}

typedef struct {
    target tgt[3]; /* [0]: LoomCL, then references */
    int nref;
    const char *file; /* --file: source from here instead of the generator */
    int csmith;
    const char *fuzzdir;
    char tmpdir[64];
} worker_cfg;

#define FIRST_REF_ONLY (1ull << 63) /* with a seed: compare with the first reference only */

static void run_generated(worker_cfg *c, uint64_t seed, result *res, int first_ref_only)
{
    char *src;
    if (c->file) {
        FILE *f = fopen(c->file, "rb");
        if (!f) {
            res->kind = RK_SKIP;
            snprintf(res->msg, sizeof res->msg, "cannot read %s", c->file);
            return;
        }
        sbuf b = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            sb_add(&b, "%.*s", (int)n, buf);
        fclose(f);
        src = b.p ? b.p : strdup("");
    } else {
        src = gen_kernel(seed);
    }
    inputs in;
    make_inputs(seed, &in);
    shape sh[NSHAPES];
    make_shapes(seed, sh);
    size_t lel = larg_size_from_src(src);

    static char log[1 << 14];
    cl_int err;
    cl_program pr[3] = {0};
    cl_kernel kr[3] = {0};
    int nt = 1 + (first_ref_only && c->nref > 1 ? 1 : c->nref);
    /* references first: a program they reject is skipped */
    for (int i = nt - 1; i >= 0; i--) {
        set_stage(!strstr(c->tgt[i].label, "LoomCL"), "%s build", c->tgt[i].label);
        pr[i] = build(&c->tgt[i], src, "", log, sizeof log, &err);
        if (!pr[i]) {
            /* a reference that rejects the program skips it, unless that
             * reference is LoomCL itself and another one built it, or
             * LoomCL says it made invalid IR */
            int loom_ref = i > 0 && !strcmp(c->tgt[i].label, "LoomCL -cl-opt-disable");
            int bug = i == 0 || (loom_ref && (i < nt - 1 || strstr(log, "LoomCL made invalid IR")));
            res->kind = bug ? RK_BUILD : RK_SKIP;
            log[300] = 0;
            snprintf(res->msg, sizeof res->msg, "%s build failed (%d): %.300s", c->tgt[i].label, err, log);
            goto out;
        }
        kr[i] = clCreateKernel(pr[i], "k", &err);
        if (!kr[i]) {
            res->kind = i ? RK_SKIP : RK_BUILD;
            snprintf(res->msg, sizeof res->msg, "%s clCreateKernel: %d", c->tgt[i].label, err);
            goto out;
        }
    }
    size_t maxitems = 0;
    for (int s = 0; s < NSHAPES; s++)
        if (shape_items(&sh[s]) > maxitems)
            maxitems = shape_items(&sh[s]);
    cl_uint *o[3], *ref0[3] = {0};
    cl_int acc[3][NACC], refacc0[3][NACC];
    for (int i = 0; i < 3; i++)
        o[i] = malloc(maxitems * NOUT * sizeof(cl_uint));
    res->kind = RK_OK;
    for (int s = 0; s < NSHAPES && res->kind == RK_OK; s++) {
        char sd[128];
        shape_str(&sh[s], sd, sizeof sd);
        size_t n = shape_items(&sh[s]) * NOUT;
        int repeat = s == NSHAPES - 1; /* references: their results of shape 0 */
        for (int i = nt - 1; i >= 0; i--) {
            if (i > 0 && repeat) {
                memcpy(o[i], ref0[i], n * sizeof(cl_uint));
                memcpy(acc[i], refacc0[i], sizeof acc[i]);
                continue;
            }
            set_stage(!strstr(c->tgt[i].label, "LoomCL"), "%s launch, shape %d (%s)", c->tgt[i].label, s, sd);
            err = launch(&c->tgt[i], kr[i], &in, &sh[s], o[i], acc[i], lel);
            if (err != CL_SUCCESS) {
                res->kind = i ? RK_SKIP : RK_RUNERR;
                snprintf(res->msg, sizeof res->msg, "%s launch error %d, shape %d (%s)",
                         c->tgt[i].label, err, s, sd);
                break;
            }
            if (i > 0 && s == 0) {
                ref0[i] = malloc(n * sizeof(cl_uint));
                memcpy(ref0[i], o[i], n * sizeof(cl_uint));
                memcpy(refacc0[i], acc[i], sizeof acc[i]);
            }
        }
        for (int i = 1; i < nt && res->kind == RK_OK; i++) {
            size_t bad = (size_t)-1;
            for (size_t j = 0; j < n; j++)
                if (o[0][j] != o[i][j]) {
                    bad = j;
                    break;
                }
            int badacc = -1;
            for (int j = 0; j < NACC; j++)
                if (acc[0][j] != acc[i][j]) {
                    badacc = j;
                    break;
                }
            if (bad != (size_t)-1) {
                res->kind = RK_MISMATCH;
                snprintf(res->msg, sizeof res->msg,
                         "vs %s, shape %d (%s): out[%zu] (work-item %zu, slot %zu) = 0x%08x, "
                         "reference 0x%08x",
                         c->tgt[i].label, s, sd, bad, bad / NOUT, bad % NOUT, o[0][bad], o[i][bad]);
            } else if (badacc >= 0) {
                res->kind = RK_MISMATCH;
                snprintf(res->msg, sizeof res->msg,
                         "vs %s, shape %d (%s): acc[%d] = 0x%08x, reference 0x%08x",
                         c->tgt[i].label, s, sd, badacc, (unsigned)acc[0][badacc],
                         (unsigned)acc[i][badacc]);
            }
        }
    }
    for (int i = 0; i < 3; i++) {
        free(o[i]);
        free(ref0[i]);
    }
out:
    for (int i = 0; i < 3; i++) {
        if (kr[i])
            clReleaseKernel(kr[i]);
        if (pr[i])
            clReleaseProgram(pr[i]);
    }
    free(src);
}

/* ------------------------------------------------------------------ */
/* csmith                                                              */

static const char *csmith_opts =
    "--no-argc --no-bitfields --no-packed-struct --max-funcs 5 --max-block-depth 4 "
    "--max-array-dim 2 --max-array-len-per-dim 8 --no-builtins";

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    sbuf b = {0};
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_add(&b, "%.*s", (int)n, buf);
    fclose(f);
    return b.p ? b.p : strdup("");
}

/* csmith's program as OpenCL C: the runtime header inlined, LL suffixes
 * (long long is reserved in OpenCL C) made L, main called from a kernel */
static char *csmith_kernel(const char *prog, const char *hdr)
{
    sbuf b = {0};
    sb_add(&b, "%s\n", hdr);
    const char *p = prog;
    const char *inc = strstr(p, "#include \"csmith.h\"");
    if (inc) {
        sb_add(&b, "%.*s", (int)(inc - p), p);
        p = inc + strlen("#include \"csmith.h\"");
    }
    for (; *p; p++) {
        if (p[0] == 'L' && p[1] == 'L' && p > prog &&
            ((p[-1] >= '0' && p[-1] <= '9') || (p[-1] >= 'A' && p[-1] <= 'F') ||
             (p[-1] >= 'a' && p[-1] <= 'f') || p[-1] == 'U')) {
            sb_add(&b, "L");
            p++;
            continue;
        }
        if (!strncmp(p, "int main (void)", 15)) {
            sb_add(&b, "static int csmith_main(void)");
            p += 14;
            continue;
        }
        sb_add(&b, "%c", *p);
    }
    sb_add(&b, "\n__kernel void entry(__global uint *r) { csmith_main(); r[0] = csmith_checksum; }\n");
    return b.p;
}

static int run_cmd(const char *cmd, char *out, size_t outn)
{
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t n = 0;
    if (out && outn) {
        n = fread(out, 1, outn - 1, f);
        out[n] = 0;
    } else {
        char buf[256];
        while (fread(buf, 1, sizeof buf, f) > 0) {
        }
    }
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* nopointers: the second try for a seed whose program compares pointers
 * into different address spaces (valid C, an error in OpenCL C) */
static int csmith_source(uint64_t seed, int nopointers, const char *dir, char *path, size_t pathn)
{
    snprintf(path, pathn, "%s/cs-%" PRIu64 "%s.c", dir, seed, nopointers ? "-nopointers" : "");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "csmith --seed %" PRIu64 " %s%s -o %s 2>&1", seed, csmith_opts,
             nopointers ? " --no-pointers" : "", path);
    return run_cmd(cmd, NULL, 0);
}

static void run_csmith_once(worker_cfg *c, uint64_t seed, int nopointers, result *res)
{
    char path[512], cmd[2048], outb[512];
    res->kind = RK_SKIP;
    if (csmith_source(seed, nopointers, c->tmpdir, path, sizeof path) != 0) {
        snprintf(res->msg, sizeof res->msg, "csmith failed");
        return;
    }
    char exe[600];
    set_stage(1, "host build and run");
    snprintf(exe, sizeof exe, "%s/cs-%" PRIu64, c->tmpdir, seed);
    snprintf(cmd, sizeof cmd, "timeout 60 gcc -O1 -w -I '%s' %s -o %s 2>&1", c->fuzzdir, path, exe);
    if (run_cmd(cmd, NULL, 0) != 0) {
        snprintf(res->msg, sizeof res->msg, "host build failed");
        unlink(path);
        return;
    }
    snprintf(cmd, sizeof cmd, "timeout 2 %s 2>&1", exe);
    int rc = run_cmd(cmd, outb, sizeof outb);
    unlink(exe);
    unsigned want = 0;
    if (rc != 0 || sscanf(outb, "checksum = %X", &want) != 1) {
        snprintf(res->msg, sizeof res->msg, "host run failed or timed out");
        unlink(path);
        return;
    }
    char hpath[600];
    snprintf(hpath, sizeof hpath, "%s/csmith.h", c->fuzzdir);
    char *hdr = read_file(hpath);
    char *prog = read_file(path);
    unlink(path);
    if (!hdr || !prog) {
        free(hdr);
        free(prog);
        snprintf(res->msg, sizeof res->msg, "cannot read %s", hpath);
        return;
    }
    char *src = csmith_kernel(prog, hdr);
    free(hdr);
    free(prog);
    static char log[1 << 14];
    cl_int err;
    target *t = &c->tgt[0];
    set_stage(0, "LoomCL build");
    cl_program p = build(t, src, "-cl-std=CL3.0 -w", log, sizeof log, &err);
    free(src);
    if (!p) {
        /* OpenCL C is stricter than C in places csmith goes (comparing
         * pointers into different address spaces, ...): the front end's
         * errors skip the program; anything else is a LoomCL bug */
        res->kind = strstr(log, "LoomCL made invalid IR") || !strstr(log, ": error:") ? RK_BUILD : RK_SKIP;
        log[400] = 0;
        snprintf(res->msg, sizeof res->msg, "LoomCL build failed (%d): %.400s", err, log);
        return;
    }
    cl_kernel k = clCreateKernel(p, "entry", &err);
    cl_uint got = 0xdeadbeefu;
    if (!k) {
        res->kind = RK_BUILD;
        snprintf(res->msg, sizeof res->msg, "clCreateKernel: %d", err);
        clReleaseProgram(p);
        return;
    }
    cl_mem b = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof got, &got, &err);
    size_t one = 1;
    set_stage(0, "LoomCL launch");
    err |= clSetKernelArg(k, 0, sizeof b, &b);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(t->q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(t->q);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(t->q, b, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    if (err != CL_SUCCESS) {
        res->kind = RK_RUNERR;
        snprintf(res->msg, sizeof res->msg, "LoomCL launch error %d", err);
        return;
    }
    if (got != want) {
        res->kind = RK_MISMATCH;
        snprintf(res->msg, sizeof res->msg, "checksum 0x%X, host 0x%X", got, want);
        return;
    }
    res->kind = RK_OK;
}

static void run_csmith(worker_cfg *c, uint64_t seed, result *res)
{
    run_csmith_once(c, seed, 0, res);
    if (res->kind == RK_SKIP && strstr(res->msg, "non-overlapping address spaces")) {
        memset(res->msg, 0, sizeof res->msg);
        run_csmith_once(c, seed, 1, res);
        if (res->kind != RK_SKIP)
            snprintf(res->msg + strlen(res->msg), sizeof res->msg - strlen(res->msg),
                     " (csmith --no-pointers)");
    }
}

/* ------------------------------------------------------------------ */
/* workers                                                             */

typedef struct {
    const char *reference; /* "pocl", "O0", "both" */
    int csmith;
    const char *file;
    const char *fuzzdir;
    int timeout_s;
} options;

static void worker_setup(const options *opt, worker_cfg *cp);

static void worker_setup(const options *opt, worker_cfg *cp)
{

    worker_cfg c;
    memset(&c, 0, sizeof c);
    c.csmith = opt->csmith;
    c.file = opt->file;
    c.fuzzdir = opt->fuzzdir;
    snprintf(c.tmpdir, sizeof c.tmpdir, "/tmp/loom-fuzz-XXXXXX");
    if (!mkdtemp(c.tmpdir))
        die("mkdtemp: %s", strerror(errno));
    if (!find_platform("LoomCL", &c.tgt[0], "LoomCL", "")) {
        cl_uint n = 0;
        cl_int e = clGetPlatformIDs(0, NULL, &n);
        die("no LoomCL platform (OCL_ICD_VENDORS=%s; clGetPlatformIDs: %d, %u platforms)",
            getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "unset", e, n);
    }
    if (!opt->csmith) {
        int want_pocl = !strcmp(opt->reference, "pocl") || !strcmp(opt->reference, "both");
        int want_o0 = !strcmp(opt->reference, "O0") || !strcmp(opt->reference, "both");
        /* O0 before PoCL: PoCL is built first (programs are built from the last
         * reference down), so a program PoCL accepts and LoomCL -O0 rejects is a bug */
        if (want_o0 && find_platform("LoomCL", &c.tgt[1 + c.nref], "LoomCL -cl-opt-disable",
                                     "-cl-opt-disable"))
            c.nref++;
        if (want_pocl) {
            if (find_platform("Portable Computing Language", &c.tgt[1 + c.nref], "PoCL", ""))
                c.nref++;
            else if (!strcmp(opt->reference, "pocl"))
                die("no PoCL platform");
        }
        if (!c.nref)
            die("no reference platform");
    }
    *cp = c;
}

/* --no-fork: one program in this process (for a debugger); 1 if it failed */
static int run_here(const options *opt, uint64_t seed)
{
    worker_cfg c;
    worker_setup(opt, &c);
    result res;
    memset(&res, 0, sizeof res);
    res.seed = seed;
    if (opt->csmith)
        run_csmith(&c, seed, &res);
    else
        run_generated(&c, seed, &res, 0);
    rmdir(c.tmpdir);
    printf("%s seed=%" PRIu64 " %s\n", rkind[res.kind], seed, res.msg);
    return res.kind != RK_OK && res.kind != RK_SKIP;
}

static void worker_main(const options *opt, int rfd, int wfd)
{
    worker_cfg c;
    worker_setup(opt, &c);
    for (;;) {
        uint64_t seed;
        ssize_t n = read(rfd, &seed, sizeof seed);
        if (n != (ssize_t)sizeof seed)
            break;
        int first_ref_only = (seed & FIRST_REF_ONLY) != 0;
        seed &= ~FIRST_REF_ONLY;
        result res;
        memset(&res, 0, sizeof res);
        res.seed = seed;
        set_stage(0, "generation");
        if (opt->csmith)
            run_csmith(&c, seed, &res);
        else
            run_generated(&c, seed, &res, first_ref_only);
        if (write(wfd, &res, sizeof res) != (ssize_t)sizeof res)
            break;
    }
    rmdir(c.tmpdir);
    _exit(0);
}

typedef struct {
    pid_t pid;
    int wfd, rfd;
    int busy;
    uint64_t seed;
    double started;
    int done; /* programs since the worker started */
    stage_t *stage;
} worker;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void spawn(worker *w, const options *opt)
{
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        die("pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    if (!w->stage) {
        w->stage = mmap(NULL, sizeof(stage_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (w->stage == MAP_FAILED)
            die("mmap: %s", strerror(errno));
    }
    snprintf(w->stage->what, sizeof w->stage->what, "start-up");
    w->stage->in_reference = 0;
    pid_t p = fork();
    if (p < 0)
        die("fork: %s", strerror(errno));
    if (p == 0) {
        stage_page = w->stage;
        /* only this worker's ends: another worker's pipe held open here
         * would never see its end of file */
        for (int fd = 3; fd < 1024; fd++)
            if (fd != a[0] && fd != b[1])
                close(fd);
        worker_main(opt, a[0], b[1]);
        _exit(0);
    }
    close(a[0]);
    close(b[1]);
    w->pid = p;
    w->wfd = a[1];
    w->rfd = b[0];
    w->busy = 0;
    w->done = 0;
}

static void reap(worker *w, int hard)
{
    if (w->pid <= 0)
        return;
    close(w->wfd);
    close(w->rfd);
    if (hard)
        kill(w->pid, SIGKILL);
    int st;
    waitpid(w->pid, &st, 0);
    w->pid = 0;
}

static void keep_source(const options *opt, const char *keep, uint64_t seed)
{
    if (!keep)
        return;
    mkdir(keep, 0777);
    char path[1024];
    if (opt->csmith) {
        char src[600];
        csmith_source(seed, 0, keep, src, sizeof src); /* <keep>/cs-<seed>.c */
        csmith_source(seed, 1, keep, src, sizeof src); /* and the --no-pointers one */
        return;
    }
    if (opt->file)
        return;
    snprintf(path, sizeof path, "%s/seed-%" PRIu64 ".cl", keep, seed);
    char *s = gen_kernel(seed);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(s, f);
        fclose(f);
    }
    free(s);
}

static const char *default_fuzzdir(void)
{
    /* tests/fuzz beside this source file */
    static char dir[1024];
    const char *f = __FILE__;
    const char *slash = strrchr(f, '/');
    if (!slash)
        return "tests/fuzz";
    snprintf(dir, sizeof dir, "%.*s/../tests/fuzz", (int)(slash - f), f);
    return dir;
}

/* the ctest environment names LoomCL's .icd folder only: add PoCL's */
static void add_pocl_vendor(void)
{
    const char *pocl = "/etc/OpenCL/vendors/pocl.icd";
    const char *v = getenv("OCL_ICD_VENDORS");
    if (access(pocl, R_OK) != 0 || !v)
        return;
    struct stat stt;
    if (stat(v, &stt) != 0 || !S_ISDIR(stt.st_mode))
        return;
    char probe[1200];
    snprintf(probe, sizeof probe, "%s/pocl.icd", v);
    if (access(probe, R_OK) == 0)
        return;
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/loom-fuzz-icd-%d", (int)getpid());
    mkdir(dir, 0777);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "cp '%s'/*.icd '%s' '%s'/ 2>/dev/null", v, pocl, dir);
    if (system(cmd) != 0)
        return;
    setenv("OCL_ICD_VENDORS", dir, 1);
}

static void usage(void)
{
    fputs("usage: loom-fuzz [--seed N] [--count N] [--reference pocl|O0|both] [--csmith]\n"
          "                 [--short] [--keep DIR] [--jobs N] [--timeout S]\n"
          "                 [--emit SEED] [--file KERNEL.cl --seed N] [--no-fork] [-v]\n",
          stderr);
    exit(2);
}

#define SHORT_COUNT 100
#define SHORT_POCL 4

int main(int argc, char **argv)
{
    options opt = {.reference = NULL, .timeout_s = 120};
    uint64_t seed = (uint64_t)time(NULL);
    long count = 100;
    int nofork = 0, jobs = 0, shortmode = 0, seed_given = 0, verbose = 0;
    const char *keep = NULL;
    opt.fuzzdir = default_fuzzdir();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v) {
            seed = strtoull(v, NULL, 0);
            seed_given = 1;
            i++;
        } else if (!strcmp(a, "--count") && v) {
            count = atol(v);
            i++;
        } else if (!strcmp(a, "--reference") && v) {
            opt.reference = v;
            i++;
        } else if (!strcmp(a, "--keep") && v) {
            keep = v;
            i++;
        } else if (!strcmp(a, "--jobs") && v) {
            jobs = atoi(v);
            i++;
        } else if (!strcmp(a, "--timeout") && v) {
            opt.timeout_s = atoi(v);
            i++;
        } else if (!strcmp(a, "--fuzz-dir") && v) {
            opt.fuzzdir = v;
            i++;
        } else if (!strcmp(a, "--file") && v) {
            opt.file = v;
            count = 1;
            i++;
        } else if (!strcmp(a, "--emit") && v) {
            char *s = gen_kernel(strtoull(v, NULL, 0));
            fputs(s, stdout);
            free(s);
            return 0;
        } else if (!strcmp(a, "--csmith")) {
            opt.csmith = 1;
        } else if (!strcmp(a, "--short")) {
            shortmode = 1;
        } else if (!strcmp(a, "--no-fork")) {
            nofork = 1;
        } else if (!strcmp(a, "-v")) {
            verbose = 1;
        } else {
            usage();
        }
    }
    if (shortmode) {
        if (!seed_given)
            seed = 1;
        count = SHORT_COUNT;
        if (!jobs)
            jobs = 2;
        if (!opt.reference)
            opt.reference = "both";
    }
    if (jobs < 1)
        jobs = 1;
    if (!opt.reference)
        opt.reference = access("/etc/OpenCL/vendors/pocl.icd", R_OK) == 0 ? "pocl" : "O0";
    if (strcmp(opt.reference, "pocl") && strcmp(opt.reference, "O0") && strcmp(opt.reference, "both"))
        usage();
    if (strcmp(opt.reference, "O0"))
        add_pocl_vendor();
    /* every program is compiled for real: no program caches */
    setenv("LOOMCL_CACHE", "0", 0);
    setenv("POCL_KERNEL_CACHE", "0", 0);
    signal(SIGPIPE, SIG_IGN);
    if (nofork)
        return run_here(&opt, seed);
    printf("loom-fuzz: %s, seeds %" PRIu64 "..%" PRIu64 ", reference %s, %d job%s\n",
           opt.csmith ? "csmith programs" : "generated kernels", seed, seed + (uint64_t)count - 1,
           opt.csmith ? "host gcc" : opt.reference, jobs, jobs == 1 ? "" : "s");
    fflush(stdout);

    worker ws[64];
    if (jobs > 64)
        jobs = 64;
    memset(ws, 0, sizeof ws);
    long next = 0, finished = 0, failed = 0;
    int startup_failures = 0, nretry = 0;
    uint64_t retry[64];
    long kinds[RK_NKINDS] = {0};
    double t0 = now();
    while (finished < count) {
        /* hand out work */
        for (int i = 0; i < jobs; i++) {
            worker *w = &ws[i];
            if (w->busy || (next >= count && !nretry))
                continue;
            if (w->pid && w->done >= 400)
                reap(w, 0); /* a fresh process now and then: leaks stay bounded */
            if (!w->pid)
                spawn(w, &opt);
            if (nretry) {
                w->seed = retry[--nretry];
                uint64_t m = w->seed;
                if (write(w->wfd, &m, sizeof m) != (ssize_t)sizeof m)
                    die("cannot start a worker");
                w->busy = 1;
                w->started = now();
                continue;
            }
            w->seed = seed + (uint64_t)next;
            /* --short: PoCL (slow) checks the first few programs, O0 all */
            uint64_t msg = w->seed | (shortmode && next >= SHORT_POCL ? FIRST_REF_ONLY : 0);
            next++;
            if (write(w->wfd, &msg, sizeof msg) != (ssize_t)sizeof msg) {
                reap(w, 1);
                spawn(w, &opt);
                if (write(w->wfd, &msg, sizeof msg) != (ssize_t)sizeof msg)
                    die("cannot start a worker");
            }
            w->busy = 1;
            w->started = now();
        }
        struct pollfd pf[64];
        int np = 0;
        for (int i = 0; i < jobs; i++) {
            pf[i].fd = ws[i].busy ? ws[i].rfd : -1;
            pf[i].events = POLLIN;
            pf[i].revents = 0;
            np++;
        }
        poll(pf, (nfds_t)np, 1000);
        for (int i = 0; i < jobs; i++) {
            worker *w = &ws[i];
            if (!w->busy)
                continue;
            result res;
            int have = 0;
            if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                ssize_t n = read(w->rfd, &res, sizeof res);
                if (n == (ssize_t)sizeof res) {
                    have = 1;
                } else {
                    int st = 0;
                    close(w->wfd);
                    close(w->rfd);
                    waitpid(w->pid, &st, 0);
                    w->pid = 0;
                    memset(&res, 0, sizeof res);
                    res.seed = w->seed;
                    res.kind = RK_CRASH;
                    if (WIFSIGNALED(st))
                        snprintf(res.msg, sizeof res.msg, "worker killed by signal %d (%s) in %s",
                                 WTERMSIG(st), strsignal(WTERMSIG(st)), w->stage->what);
                    else
                        snprintf(res.msg, sizeof res.msg, "worker exited with status %d in %s",
                                 WIFEXITED(st) ? WEXITSTATUS(st) : -1, w->stage->what);
                    if (w->stage->in_reference)
                        res.kind = RK_SKIP; /* the reference crashed */
                    if (!strcmp(w->stage->what, "start-up")) {
                        /* no platform: say so, try again with a fresh worker */
                        if (++startup_failures >= 3)
                            die("workers fail to start (%s)", res.msg);
                        fprintf(stderr, "loom-fuzz: a worker failed to start; seed %" PRIu64 " again\n",
                                w->seed);
                        w->busy = 0;
                        retry[nretry++] = w->seed;
                        continue;
                    }
                    startup_failures = 0;
                    have = 1;
                }
            } else if (now() - w->started > opt.timeout_s) {
                reap(w, 1);
                memset(&res, 0, sizeof res);
                res.seed = w->seed;
                res.kind = w->stage->in_reference ? RK_SKIP : RK_TIMEOUT;
                snprintf(res.msg, sizeof res.msg, "no result after %d s, in %s", opt.timeout_s,
                         w->stage->what);
                have = 1;
            }
            if (!have)
                continue;
            w->busy = 0;
            w->done++;
            finished++;
            kinds[res.kind]++;
            if (res.kind != RK_OK && res.kind != RK_SKIP) {
                failed++;
                printf("FAIL seed=%" PRIu64 " kind=%s %s\n", res.seed, rkind[res.kind], res.msg);
                keep_source(&opt, keep, res.seed);
            } else if (verbose || (res.kind == RK_SKIP && shortmode)) {
                printf("%s seed=%" PRIu64 " %s\n", rkind[res.kind], res.seed, res.msg);
            }
            if (!shortmode && finished % 100 == 0)
                printf("progress: %ld/%ld programs, %ld failed, %ld skipped, %.0f s\n", finished,
                       count, failed, kinds[RK_SKIP], now() - t0);
            fflush(stdout);
        }
    }
    for (int i = 0; i < jobs; i++)
        reap(&ws[i], 0);
    printf("loom-fuzz: kinds: ok %ld, skipped %ld, mismatch %ld, build %ld, run-error %ld, "
           "crash %ld, timeout %ld; %.1f s\n",
           kinds[RK_OK], kinds[RK_SKIP], kinds[RK_MISMATCH], kinds[RK_BUILD], kinds[RK_RUNERR],
           kinds[RK_CRASH], kinds[RK_TIMEOUT], now() - t0);
    printf("loom-fuzz: %ld programs, %ld failed\n", count, failed);
    return failed ? 1 : 0;
}
