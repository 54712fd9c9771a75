/* csmith.c: --csmith mode. csmith_source() asks csmith for the program of a
 * seed; run_csmith() builds and runs it on the host with gcc for the
 * reference checksum, wraps it as a single-work-item OpenCL C kernel (the
 * runtime header tests/fuzz/csmith.h, read from the fuzz directory, inlined)
 * and compares LoomCL's checksum with the host's, trying again with csmith
 * --no-pointers where OpenCL C rejects the program's pointer comparisons. */
#include "fuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
int csmith_source(uint64_t seed, int nopointers, const char *dir, char *path, size_t pathn)
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

void run_csmith(worker_cfg *c, uint64_t seed, result *res)
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
