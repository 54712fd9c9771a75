/* Builds whose code is generated on a compile thread (src/compiler/backend/codegen.c,
 * codegen_jobs.c): clBuildProgram returns before O3 and code generation,
 * and launches, binaries and the disk cache wait for the code (kernels are
 * created without waiting). Checked:
 * results of kernels created in any order, CL_PROGRAM_BINARIES of a build
 * whose code is still pending, a program released before its code exists
 * (and rebuilt meanwhile), many such programs, programs still compiling at
 * exit (the process exits cleanly; those not started are dropped), the
 * synchronous mode (LOOMCL_COMPILE_THREADS=0) and LOOMCL_TIME_BUILD. */
#include "harness.h"
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { N = 512, L = 64 };

/* three kernels: plain, with barriers, with math calls; %u makes the
 * source new to every cache */
static const char *src_fmt =
    "kernel void axpy(global float *y, global const float *x, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n"
    "kernel void group_sum(global float *out, global const float *in) {\n"
    "  local float s[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = in[get_global_id(0)];\n"
    "  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < step) s[l] += s[l + step];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void curve(global float *out, global const float *in) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = sqrt(in[i]) + fabs(in[i] - 3.0f) + %uu * 0.0f;\n"
    "}\n";

static char *make_source(unsigned nonce) {
  size_t len = strlen(src_fmt) + 32;
  char *s = malloc(len);
  snprintf(s, len, src_fmt, nonce);
  return s;
}

static unsigned fresh_nonce(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  static unsigned counter;
  return (unsigned)ts.tv_nsec ^ ((unsigned)getpid() << 12) ^ (++counter * 2654435761u);
}

static cl_program build(struct test_env *env, const char *src) {
  return test_program_from(env, src, "");
}

/* Runs the three kernels of p (created in the order given, right after the
 * build: clCreateKernel does not wait for their code, the first launch
 * does) and checks them against the host; the third through a clone made
 * before any launch. */
static void check_program(struct test_env *env, cl_program p, bool reverse) {
  float x[N], y[N], want[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 37) * 0.5f;
    y[i] = (float)(i % 11) - 5.0f;
  }
  static const char *const names[3] = {"axpy", "group_sum", "curve"};
  cl_kernel k[3];
  for (int i = 0; i < 3; i++) {
    int which = reverse ? 2 - i : i;
    cl_int err;
    k[which] = clCreateKernel(p, names[which], &err);
    CHECK_OK(err);
    if (err != CL_SUCCESS)
      return;
  }
  cl_mem bx = test_buffer_with(env, sizeof x, x), by = test_buffer_with(env, sizeof y, y);
  cl_mem bo = test_buffer_with(env, sizeof y, NULL);
  size_t g = N, l = L;
  float a = 2.5f;
  CHECK_OK(clSetKernelArg(k[0], 0, sizeof by, &by));
  CHECK_OK(clSetKernelArg(k[0], 1, sizeof bx, &bx));
  CHECK_OK(clSetKernelArg(k[0], 2, sizeof a, &a));
  CHECK_OK(test_run(env, k[0], 1, NULL, &g, &l));
  float got[N];
  test_read_back(env, by, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += got[i] != a * x[i] + y[i];
  CHECK(bad == 0);

  CHECK_OK(clSetKernelArg(k[1], 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(k[1], 1, sizeof bx, &bx));
  CHECK_OK(test_run(env, k[1], 1, NULL, &g, &l));
  test_read_back(env, bo, sizeof got, got);
  bad = 0;
  for (int grp = 0; grp < N / L; grp++) {
    float s = 0; /* the values are halves of small integers: sums are exact */
    for (int i = 0; i < L; i++)
      s += x[grp * L + i];
    bad += got[grp] != s;
  }
  CHECK(bad == 0);

  /* a clone made before the first launch: it finds the code at its own */
  cl_int err;
  cl_kernel clone = clCloneKernel(k[2], &err);
  CHECK_OK(err);
  CHECK_OK(clSetKernelArg(clone, 0, sizeof bo, &bo));
  CHECK_OK(clSetKernelArg(clone, 1, sizeof bx, &bx));
  CHECK_OK(test_run(env, clone, 1, NULL, &g, &l));
  clReleaseKernel(clone);
  test_read_back(env, bo, sizeof got, got);
  for (int i = 0; i < N; i++)
    want[i] = sqrtf(x[i]) + fabsf(x[i] - 3.0f);
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += fabsf(got[i] - want[i]) > 1e-5f * fabsf(want[i]);
  CHECK(bad == 0);

  for (int i = 0; i < 3; i++)
    clReleaseKernel(k[i]);
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseMemObject(bo);
}

static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    n += len > 4 && !strcmp(e->d_name + len - 4, ".lcb");
  }
  closedir(d);
  return n;
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (e->d_name[0] == '.')
        continue;
      char path[512];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

/* ---- child processes: started before the parent uses OpenCL ---- */

/* Builds two programs and releases them at once, then exits: their code is
 * still being generated, or waiting for it, at exit. */
static int child_exit_while_compiling(const char *cache_dir) {
  setenv("LOOMCL_CACHE_DIR", cache_dir, 1);
  unsetenv("LOOMCL_CACHE");
  struct test_env env;
  test_env_init(&env);
  char *a = make_source(fresh_nonce()), *b = make_source(fresh_nonce());
  cl_program pa = build(&env, a);
  cl_program pb = build(&env, b);
  if (pa)
    clReleaseProgram(pa);
  if (pb)
    clReleaseProgram(pb);
  free(a);
  free(b);
  test_env_release(&env);
  return test_failures ? 1 : 0;
}

/* LOOMCL_COMPILE_THREADS=0 (code generated inside clBuildProgram) and
 * LOOMCL_TIME_BUILD=1 (phase times on stderr, here a file) */
static int child_synchronous(const char *stderr_path) {
  setenv("LOOMCL_COMPILE_THREADS", "0", 1);
  setenv("LOOMCL_TIME_BUILD", "1", 1);
  setenv("LOOMCL_CACHE", "0", 1);
  int fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || dup2(fd, 2) < 0)
    return 2;
  close(fd);
  struct test_env env;
  test_env_init(&env);
  char *s = make_source(fresh_nonce());
  cl_program p = build(&env, s);
  if (p) {
    check_program(&env, p, false);
    clReleaseProgram(p);
  }
  free(s);
  test_env_release(&env);
  return test_failures ? 1 : 0;
}

static pid_t start_child(int (*fn)(const char *), const char *arg) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    test_failures = 0; /* the child's own */
    exit(fn(arg));
  }
  return pid;
}

static int wait_child(pid_t pid) {
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The scenarios of one process whose cache is `cache_dir`. */
static int child_main_scenarios(const char *cache_dir) {
  setenv("LOOMCL_CACHE_DIR", cache_dir, 1);
  unsetenv("LOOMCL_CACHE");
  struct test_env env;
  test_env_init(&env);

  /* kernels created in the other order than they are defined */
  char *s1 = make_source(fresh_nonce());
  cl_program p1 = build(&env, s1);
  if (p1) {
    check_program(&env, p1, true);
    clReleaseProgram(p1);
  }

  /* CL_PROGRAM_BINARIES while the code may still be generated */
  char *s2 = make_source(fresh_nonce());
  cl_program p2 = build(&env, s2);
  if (p2) {
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(p2, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    CHECK(size > 0);
    unsigned char *bin = malloc(size ? size : 1);
    CHECK_OK(clGetProgramInfo(p2, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    const unsigned char *cbin = bin;
    cl_int status, err;
    cl_program from = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cbin,
                                                &status, &err);
    CHECK_OK(err);
    CHECK_OK(status);
    if (from) {
      CHECK_OK(clBuildProgram(from, 1, &env.device, "", NULL, NULL));
      check_program(&env, from, false);
      clReleaseProgram(from);
    }
    free(bin);
    clReleaseProgram(p2);
  }

  /* released before its code exists, then built again: the second build
   * takes the first one's pending code over (or finds it in the cache) */
  char *s3 = make_source(fresh_nonce());
  cl_program p3 = build(&env, s3);
  if (p3)
    clReleaseProgram(p3);
  p3 = build(&env, s3);
  if (p3) {
    check_program(&env, p3, false);
    clReleaseProgram(p3);
  }

  /* many programs released at once; then one that is used */
  for (int i = 0; i < 40; i++) {
    char *s = make_source(fresh_nonce());
    cl_program p = build(&env, s);
    if (p)
      clReleaseProgram(p);
    free(s);
  }
  char *s4 = make_source(fresh_nonce());
  cl_program p4 = build(&env, s4);
  if (p4) {
    check_program(&env, p4, true);
    clReleaseProgram(p4);
  }
  /* the programs whose code was needed are in the cache by now or soon */
  int entries = 0;
  for (int wait = 0; wait < 200 && entries < 4; wait++) {
    entries = count_entries(cache_dir);
    if (entries < 4)
      usleep(50000);
  }
  CHECK(entries >= 4);
  free(s1);
  free(s2);
  free(s3);
  free(s4);
  test_env_release(&env);
  return test_failures ? 1 : 0;
}

/* Each scenario runs in a process of its own: the exit handler waits
 * (briefly) for what is still compiling when it exits, and its cache folder
 * can be checked and removed afterwards. */
int main(void) {
  char main_dir[] = "/tmp/loomcl-async-XXXXXX", exit_dir[] = "/tmp/loomcl-async-XXXXXX";
  char log_path[] = "/tmp/loomcl-async-log-XXXXXX";
  CHECK(mkdtemp(main_dir) != NULL);
  CHECK(mkdtemp(exit_dir) != NULL);
  int log_fd = mkstemp(log_path);
  CHECK(log_fd >= 0);
  if (log_fd >= 0)
    close(log_fd);

  CHECK_ERR(wait_child(start_child(child_main_scenarios, main_dir)), 0);
  CHECK(count_entries(main_dir) >= 4);

  CHECK_ERR(wait_child(start_child(child_exit_while_compiling, exit_dir)), 0);
  /* released programs are not compiled at exit (codegen_jobs.c): only those
   * whose code generation had already started reach the cache */
  CHECK(count_entries(exit_dir) <= 2);

  CHECK_ERR(wait_child(start_child(child_synchronous, log_path)), 0);
  char *log = test_read_file(log_path);
  CHECK(log && strstr(log, "LoomCL build: O3"));
  free(log);

  unlink(log_path);
  remove_dir(main_dir);
  remove_dir(exit_dir);
  return test_finish("test_build_async");
}
