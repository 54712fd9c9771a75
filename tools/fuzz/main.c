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
 * tests/fuzz/README.md says how to run it and reproduce a failure.
 *
 * The parts, in tools/fuzz/: this file parses the options and runs the
 * campaign (handing seeds to workers, collecting and printing results);
 * util.c holds small utilities and the seeded random generator,
 * generator.c the kernel generator, shapes.c a seed's inputs and NDRange
 * shapes, run_cl.c running a program on the OpenCL platforms, csmith.c the
 * --csmith mode, workers.c the worker processes; fuzz.h what they share. */
#include "fuzz.h"

#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
    /* tests/fuzz in the source tree this file (tools/fuzz/main.c) is in */
    static char dir[1024];
    const char *f = __FILE__;
    const char *slash = strrchr(f, '/');
    if (!slash)
        return "tests/fuzz";
    snprintf(dir, sizeof dir, "%.*s/../../tests/fuzz", (int)(slash - f), f);
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
    /* the second shape reuses the first's local size: its launch runs the
     * code specialised for it */
    setenv("LOOMCL_SPECIALIZE", "always", 0);
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
