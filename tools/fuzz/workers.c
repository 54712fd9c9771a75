/* workers.c: the worker processes. spawn() forks a worker with a pipe each
 * way and a shared stage page; the worker opens LoomCL and the references
 * once (worker_setup()) and then runs the seeds it reads from its pipe,
 * writing back a result for each. reap() ends a worker, now() is the clock
 * the timeouts use, and run_here() runs one program in this process
 * (--no-fork, for a debugger). */
#include "fuzz.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
int run_here(const options *opt, uint64_t seed)
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

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void spawn(worker *w, const options *opt)
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

void reap(worker *w, int hard)
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
