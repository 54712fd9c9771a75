/* generator.c: the kernel generator. gen_kernel() writes, for a seed, a
 * random but well-defined OpenCL C program (one kernel "k" with optional
 * helper functions) built around what LoomCL's work-group transformation
 * handles: barriers in uniform loops and branches, static and argument
 * __local arrays, atomics, vectors, divergent control flow, every integer
 * width, private arrays and structs by value. Every work-item folds its
 * variables into NOUT output slots; loom-fuzz --emit SEED prints the result. */
#include "fuzz.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
#define NLC 8      /* local atomic counters */
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
                /* braces: take() writes nothing when no variable can take the
                 * value, and the barrier below must not become the if's body */
                line(g, "if %s {", cond(g, 0));
                g->ind++;
                take(g, rd, at);
                g->ind--;
                line(g, "}");
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
char *gen_kernel(uint64_t seed)
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
