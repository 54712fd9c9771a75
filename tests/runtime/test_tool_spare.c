/* Tools started ahead of the next build (src/compiler/frontend/tool_spare.c).
 * Each scenario runs in a process of its own with its own TMPDIR and no
 * program cache, so every build runs Clang. Checked: builds in a row (each
 * kernel's result) with a spare process waiting after each; a build error's
 * log; a spare killed and reaped by the application before the next build;
 * SIGCHLD ignored (children reaped by the kernel); a fork() child's exit
 * leaving its parent's spare alone; at exit no process left, and no
 * temporary folder after any scenario; LOOMCL_SPARE_TOOLS=0 starts none;
 * SPIR-V builds, whose translator gets a spare of its own. */
#include "harness.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { N = 256, HANG_S = 120 };

/* the pids of this process's children (the spare Clang is the only one);
 * up to max, the count returned */
static int children(pid_t *out, int max) {
  int n = 0;
  DIR *d = opendir("/proc");
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    /* pid (comm) state ppid ...; comm may hold spaces and parentheses */
    char *close_paren = strrchr(buf, ')');
    char state;
    int ppid;
    if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 &&
        ppid == getpid() && state != 'Z' && n < max)
      out[n++] = (pid_t)atoi(e->d_name);
  }
  closedir(d);
  return n;
}

static int count_dir(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d)
    return -1;
  for (struct dirent *e; (e = readdir(d));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* the one spare process expected after a build, or 0 (a failed check) */
static pid_t the_spare(void) {
  pid_t kids[8];
  int n = children(kids, 8);
  CHECK(n == 1);
  return n == 1 ? kids[0] : 0;
}

/* a program with an error: the build fails with Clang's message */
static void build_error(struct test_env *env) {
  const char *src = "kernel void broken(global int *out) { out[0] = undeclared_name; }\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_OK(err);
  if (!p)
    return;
  CHECK_ERR(clBuildProgram(p, 1, &env->device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[4096] = "";
  CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  CHECK(strstr(log, "undeclared_name") != NULL);
  /* the source named as before, not by its temporary folder */
  CHECK(strstr(log, "program.cl:1:") != NULL && strstr(log, "/program.cl") == NULL);
  clReleaseProgram(p);
}

/* builds in a row; the last spare's pid goes to <tmp>.pid for the parent */
static void child_sequence(struct test_env *env, const char *tmp) {
  test_affine_run(env, 3, 0);
  pid_t first = the_spare(); /* waiting for the next build */
  test_affine_run(env, 5, 0);
  pid_t second = the_spare();
  CHECK(second != first); /* the first one compiled; a new spare */
  build_error(env);
  test_affine_run(env, 7, 0);
  CHECK(count_dir(tmp) == 0); /* builds leave nothing; a spare owns no folder */
  char path[512];
  snprintf(path, sizeof path, "%s.pid", tmp);
  FILE *f = fopen(path, "w");
  if (f) {
    fprintf(f, "%d\n", (int)second);
    fclose(f);
  }
}

/* the spare killed and reaped by the application: the next build starts
 * a fresh Clang */
static void child_killed_spare(struct test_env *env, const char *tmp) {
  (void)tmp;
  test_affine_run(env, 11, 0);
  pid_t spare = the_spare();
  if (spare) {
    kill(spare, SIGKILL);
    waitpid(spare, NULL, 0);
  }
  test_affine_run(env, 13, 0);
  /* killed, not reaped: a zombie whose pipe has no reader either */
  spare = the_spare();
  if (spare)
    kill(spare, SIGKILL);
  test_affine_run(env, 17, 0);
}

/* SIGCHLD ignored: children vanish when they exit, waitpid finds none */
static void child_sigchld_ignored(struct test_env *env, const char *tmp) {
  (void)tmp;
  signal(SIGCHLD, SIG_IGN);
  test_affine_run(env, 19, 0);
  build_error(env);
  test_affine_run(env, 23, 0);
}

/* a fork() child exits (its exit handlers run): the parent's spare is still
 * there and serves the parent's next build */
static void child_forks(struct test_env *env, const char *tmp) {
  (void)tmp;
  test_affine_run(env, 29, 0);
  pid_t spare = the_spare();
  fflush(NULL);
  pid_t grandchild = fork();
  if (grandchild == 0) {
    test_no_leak_check = true;
    exit(0);
  }
  int status = -1;
  CHECK(grandchild > 0 && waitpid(grandchild, &status, 0) == grandchild);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(spare && the_spare() == spare); /* the same spare, alive */
  test_affine_run(env, 37, 0);
}

static void child_no_spare(struct test_env *env, const char *tmp) {
  test_set_config("LOOMCL_SPARE_TOOLS", "0");
  test_affine_run(env, 41, 0);
  pid_t kids[8];
  CHECK(children(kids, 8) == 0);
  CHECK(count_dir(tmp) == 0);
}

/* p[i] += 1 from build/spirv/add1-1.0.spv, built with clCreateProgramWithIL */
static void il_build_and_run(struct test_env *env) {
  char path[512];
  snprintf(path, sizeof path, "%s/add1-1.0.spv", LOOMCL_SPIRV_TEST_DIR);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (!f)
    return;
  unsigned char words[4096];
  size_t size = fread(words, 1, sizeof words, f);
  fclose(f);
  cl_int err;
  cl_program p = clCreateProgramWithIL(env->context, words, size, &err);
  CHECK_OK(err);
  if (!p)
    return;
  CHECK_OK(clBuildProgram(p, 1, &env->device, "", NULL, NULL));
  cl_kernel k = clCreateKernel(p, "add1", &err);
  CHECK_OK(err);
  int data[N];
  for (int i = 0; i < N; i++)
    data[i] = i * 3;
  cl_mem m = test_buffer_with(env, sizeof data, data);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t g = N;
  CHECK_OK(test_run(env, k, 1, NULL, &g, NULL));
  int got[N];
  test_read_back(env, m, sizeof got, got);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += got[i] != i * 3 + 1;
  CHECK(bad == 0);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* SPIR-V builds: after the first, the translator's spare waits beside
 * Clang's (the program cache is off, so the second runs it again) */
static void child_spirv(struct test_env *env, const char *tmp) {
  test_affine_run(env, 43, 0);
  pid_t kids[8];
  CHECK(children(kids, 8) == 1);
  il_build_and_run(env);
  CHECK(children(kids, 8) == 2);
  il_build_and_run(env);
  CHECK(children(kids, 8) == 2);
  test_affine_run(env, 47, 0);
  CHECK(count_dir(tmp) == 0);
}

/* runs fn in a process of its own whose TMPDIR is tmp, without the program
 * cache (every build runs Clang); its exit status says whether it passed */
static int run_child(void (*fn)(struct test_env *, const char *), const char *tmp) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    test_failures = 0;
    setenv("TMPDIR", tmp, 1);
    setenv("LOOMCL_CACHE", "0", 1);
    struct test_env env;
    test_env_init(&env);
    fn(&env, tmp);
    test_env_release(&env);
    exit(test_failures ? 1 : 0);
  }
  /* a scenario that hangs is reported and killed, not left to ctest's
   * timeout, which would not say which one */
  int status = 0;
  for (int i = 0; pid > 0 && i < HANG_S * 100; i++) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r < 0)
      return -1;
    usleep(10000);
  }
  if (pid > 0) {
    fprintf(stderr, "scenario in process %d did not end within %d s\n", (int)pid, HANG_S);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
  }
  return -1;
}

/* whether pid is gone (not even a zombie), waiting up to a second */
static bool gone(pid_t pid) {
  for (int i = 0; i < 100; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
      return true;
    fclose(f);
    usleep(10000);
  }
  return false;
}

int main(void) {
  static void (*const scenarios[])(struct test_env *, const char *) = {
      child_sequence, child_killed_spare, child_sigchld_ignored, child_forks, child_no_spare,
      child_spirv};
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
    char tmp[] = "/tmp/loomcl-spare-test-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    int rc = run_child(scenarios[i], tmp);
    if (rc != 0)
      fprintf(stderr, "scenario %zu ended with %d\n", i, rc);
    CHECK(rc == 0);
    /* nothing left in TMPDIR */
    CHECK(count_dir(tmp) == 0);
    if (scenarios[i] == child_sequence) {
      char path[512];
      snprintf(path, sizeof path, "%s.pid", tmp);
      char *text = test_read_file(path);
      int pid = text ? atoi(text) : 0;
      CHECK(pid > 0 && gone(pid));
      free(text);
      unlink(path);
    }
    rmdir(tmp);
  }
  return test_finish("test_tool_spare");
}
