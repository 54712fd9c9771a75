/* A fork() child of a process using LoomCL exits, whatever LoomCL's threads
 * were doing at the fork, and can use OpenCL itself. The child has none of the parent's threads, only
 * a copy of their memory: a lock one of them held then stays held in the
 * child for ever, and the exit handlers (codegen_jobs.c waits for compile
 * jobs, tool_spare.c and clang_overlap.c drop their spares) must not wait
 * on it. One thread builds programs (no program cache: each build runs
 * Clang and a compile job) and runs each kernel; the main thread meanwhile
 * forks children that exit at once and waits for each. A child not gone
 * within HANG_S is a hang: its pid is reported, the child killed and the
 * test failed. (Before the fork handlers, about one child in fifty forked
 * right after a build hung in codegen_jobs.c's exit handler.) Then, the
 * parent's workers and compile threads running, a child builds and runs
 * kernels in the parent's context and in one of its own (Python's
 * multiprocessing forks its workers so; they waited for ever for the
 * parent's worker threads). */
#include "harness.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BUILDS = 12, N = 256, HANG_S = 30 };

static atomic_bool building_done;

static void *builder(void *arg) {
  struct test_env *env = arg;
  for (int k = 0; k < BUILDS; k++) {
    char src[512];
    /* a barrier: the kernel's variants and their background compiles too */
    snprintf(src, sizeof src,
             "kernel void scaled(global int *out, global const int *in) {\n"
             "  local int tile[64];\n"
             "  size_t l = get_local_id(0);\n"
             "  tile[l] = in[get_global_id(0)];\n"
             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  out[get_global_id(0)] = tile[63 - l] * %d;\n"
             "}\n", k + 2);
    cl_kernel kern = test_kernel_from(env, src, "scaled", "");
    if (!kern)
      break;
    int in[N], want[N];
    test_pattern(in, N, k);
    for (int i = 0; i < N; i++)
      want[i] = in[i - i % 64 + 63 - i % 64] * (k + 2);
    for (int run = 0; run < 3; run++) {
      int *got = test_run_io(env, kern, in, N, 64);
      CHECK(got && test_count_diff(got, want, N, "scaled") == 0);
      free(got);
    }
    clReleaseKernel(kern);
  }
  atomic_store(&building_done, true);
  return NULL;
}

/* waits for child, at most HANG_S seconds; false (the child killed) if it
 * is still there then */
static bool exits(pid_t child) {
  for (int i = 0; i < HANG_S * 100; i++) {
    int status;
    pid_t r = waitpid(child, &status, WNOHANG);
    if (r == child)
      return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (r < 0)
      return false;
    usleep(10000);
  }
  fprintf(stderr, "fork child %d did not exit within %d s\n", (int)child, HANG_S);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  return false;
}

int main(void) {
  setenv("LOOMCL_CACHE", "0", 1);
  struct test_env env;
  test_env_init(&env);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, builder, &env) == 0);
  int forks = 0, hung = 0;
  while (!atomic_load(&building_done)) {
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
      test_no_leak_check = true;
      exit(0); /* the exit handlers run in the child */
    }
    CHECK(child > 0);
    if (child < 0)
      break;
    forks++;
    hung += !exits(child);
  }
  pthread_join(t, NULL);
  CHECK(hung == 0);
  CHECK(forks > 0);
  /* a child that uses OpenCL: its exit status says whether its kernels
   * gave the right results */
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) {
    test_failures = 0;
    test_no_leak_check = true;
    struct test_env own;
    test_env_init(&own);
    test_affine_run(&env, -1, 7); /* the parent's context and queue */
    test_affine_run(&own, -1, 8); /* a context of its own */
    test_env_release(&own);
    exit(test_failures ? 1 : 0);
  }
  CHECK(child > 0 && exits(child));
  /* the parent goes on: a build after all those forks */
  test_affine_run(&env, -1, 99);
  test_env_release(&env);
  printf("%d fork children exited\n", forks);
  return test_finish("test_fork");
}
