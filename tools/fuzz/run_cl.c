/* run_cl.c: running on OpenCL platforms, inside a worker process.
 * find_platform() opens a platform by name, build() compiles a program,
 * run_generated() builds a generated kernel (or a --file one) on LoomCL and
 * on the references, launches it over the seed's shapes and compares the
 * output buffers and atomic counters bit for bit, saying which reference,
 * shape and word differ. set_stage() records what the worker is doing in
 * the page it shares with the parent, so a crash or a timeout names it. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int find_platform(const char *needle, target *t, const char *label, const char *opts)
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

/* the names of the RK_ kinds (fuzz.h), as the results print them */
const char *const rkind[RK_NKINDS] = {"ok", "skipped", "mismatch", "build", "run-error", "crash", "timeout"};

cl_program build(target *t, const char *src, const char *opts, char *log, size_t logn,
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

/* the worker's stage_t (fuzz.h), in memory the parent shares; NULL outside a worker */
stage_t *stage_page;

void set_stage(int in_ref, const char *fmt, ...)
{
    if (!stage_page)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(stage_page->what, sizeof stage_page->what, fmt, ap);
    va_end(ap);
    stage_page->in_reference = in_ref;
}

/* LOOM_FUZZ_DUMP=FILE: every differing word of a mismatch, for reducing */
static void dump_mismatch(const char *ref, int shape, const cl_uint *got, const cl_uint *want,
                          size_t n, const cl_int *acc, const cl_int *refacc)
{
    const char *path = getenv("LOOM_FUZZ_DUMP");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "shape %d, vs %s:\n", shape, ref);
    for (size_t j = 0; j < n; j++)
        if (got[j] != want[j])
            fprintf(f, "  out[%zu] (work-item %zu, slot %zu) 0x%08x, reference 0x%08x\n", j,
                    j / NOUT, j % NOUT, got[j], want[j]);
    for (int j = 0; j < NACC; j++)
        if (acc[j] != refacc[j])
            fprintf(f, "  acc[%d] 0x%08x, reference 0x%08x\n", j, (unsigned)acc[j],
                    (unsigned)refacc[j]);
    fclose(f);
}

void run_generated(worker_cfg *c, uint64_t seed, result *res, int first_ref_only)
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
            if (bad != (size_t)-1 || badacc >= 0)
                dump_mismatch(c->tgt[i].label, s, o[0], o[i], n, acc[0], acc[i]);
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
