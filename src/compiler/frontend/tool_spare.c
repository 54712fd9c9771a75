/* Tool processes started ahead of the build that needs them.
 *
 * Clang 19's driver spends about 100 ms before main on this project's
 * machines, loading libclang-cpp and libLLVM and applying their half a
 * million relocations, then 30 ms on a small program; the SPIR-V
 * translator (LLVM 15) about 80 ms before main. A process started with the
 * single argument `@/dev/fd/0` pays the first part and then blocks reading
 * its response file from a pipe (both tools expand response files); a build
 * writes its arguments there (absolute paths, or Clang's -working-directory:
 * the process itself runs in `/`) and reads the output from a second pipe.
 * After each build one such spare process of that tool is started for the
 * next, so an application that builds several programs waits only for the
 * work itself.
 *
 * A spare owns nothing on disk, and it ends when this process does: at
 * exit it is killed; if this process dies first, the tool reads
 * end-of-file, finds no input and exits. A spare that died before reading
 * (killed, or reaped by the application's SIGCHLD handler) is replaced by a
 * fresh process for that build. A child of fork() leaves its parent's
 * spares alone. */
#include "frontend/tool_spare.h"
#include "compiler.h"
#include "support/fork_guard.h"
#include "support/util.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct loom_tool {
  pid_t pid;
  int args_fd;      /* write end of Clang's stdin (close-on-exec) */
  int output_fd;    /* read end of its stdout and stderr (close-on-exec) */
  pid_t owner;      /* the process that started it */
  const char *path; /* the tool's (a configuration string or a constant) */
};

/* one spare a tool: Clang and the translator */
enum { MAX_TOOLS = 2 };
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  const char *path;
  struct loom_tool *spare;
  pid_t spawning; /* the process starting a spare now (a fork child's copy of its parent's says no) */
} tools[MAX_TOOLS];

/* path's entry in tools, a free one taken for it, or NULL (all taken by
 * other paths); under spare_lock */
static int tool_index(const char *path) {
  for (int i = 0; i < MAX_TOOLS; i++)
    if (tools[i].path && !strcmp(tools[i].path, path))
      return i;
  for (int i = 0; i < MAX_TOOLS; i++)
    if (!tools[i].path) {
      tools[i].path = path;
      return i;
    }
  return -1;
}
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* a descriptor >= 3, so that no file action below maps it onto itself
 * (dup2 onto the same number would keep its close-on-exec flag) */
static int above_stdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return moved;
}

static int make_pipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  fds[0] = above_stdio(fds[0]);
  fds[1] = above_stdio(fds[1]);
  if (fds[0] >= 0 && fds[1] >= 0)
    return 0;
  int e = errno;
  if (fds[0] >= 0)
    close(fds[0]);
  if (fds[1] >= 0)
    close(fds[1]);
  errno = e;
  return -1;
}

/* the child's standard input as a response file: /dev/fd is a link to
 * /proc/self/fd that some minimal containers lack */
static const char *stdin_response_file(void) {
  return access("/dev/fd", F_OK) == 0 ? "@/dev/fd/0" : "@/proc/self/fd/0";
}

/* starts path `@/dev/fd/0` into c; 0, or an errno value */
static int spawn_into(struct loom_tool *c, const char *path) {
  int in[2], out[2];
  if (make_pipe(in) != 0)
    return errno;
  if (make_pipe(out) != 0) {
    int e = errno;
    close(in[0]);
    close(in[1]);
    return e;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  /* not the application's folder, which it may want to remove */
  posix_spawn_file_actions_addchdir_np(&fa, "/");
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  char *argv[] = {(char *)path, (char *)stdin_response_file(), NULL};
  int rc = posix_spawn(&c->pid, path, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    return rc;
  }
  c->args_fd = in[1];
  c->output_fd = out[0];
  c->owner = getpid();
  c->path = path;
  return 0;
}

static struct loom_tool *spawn_new(const char *path) {
  struct loom_tool *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  int rc = spawn_into(c, path);
  if (rc != 0) {
    free(c);
    errno = rc;
    return NULL;
  }
  return c;
}

static void discard(struct loom_tool *c) {
  kill(c->pid, SIGKILL);
  close(c->args_fd);
  close(c->output_fd);
  while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
    ;
  free(c);
}

/* a fork child's copy of its parent's spare: closed and freed here, the
 * process left to the parent */
static void drop_inherited(struct loom_tool *c) {
  close(c->args_fd);
  close(c->output_fd);
  free(c);
}

static void kill_spares_at_exit(void) {
  for (int i = 0; i < MAX_TOOLS; i++) {
    pthread_mutex_lock(&spare_lock);
    struct loom_tool *c = tools[i].spare;
    tools[i].spare = NULL;
    pthread_mutex_unlock(&spare_lock);
    if (c && c->owner == getpid())
      discard(c);
    else if (c)
      drop_inherited(c);
  }
}

static void register_exit(void) { atexit(kill_spares_at_exit); }

/* the exit handler takes spare_lock, in a fork child too */
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static void register_guard(void) { loom_fork_guard(&spare_lock, NULL); }

static void prepare(const char *path) {
  if (!loom_cfg_int(LOOM_CFG_SPARE_TOOLS))
    return;
  pthread_once(&exit_once, register_exit);
  pthread_mutex_lock(&spare_lock);
  int i = tool_index(path);
  bool wanted = i >= 0 && tools[i].spawning != getpid() &&
                (!tools[i].spare || tools[i].spare->owner != getpid());
  if (wanted)
    tools[i].spawning = getpid();
  pthread_mutex_unlock(&spare_lock);
  if (!wanted)
    return;
  struct loom_tool *c = spawn_new(path);
  pthread_mutex_lock(&spare_lock);
  tools[i].spawning = 0;
  struct loom_tool *inherited = NULL;
  if (tools[i].spare && tools[i].spare->owner != getpid()) {
    inherited = tools[i].spare;
    tools[i].spare = NULL;
  }
  if (!tools[i].spare) {
    tools[i].spare = c;
    c = NULL;
  }
  pthread_mutex_unlock(&spare_lock);
  if (inherited)
    drop_inherited(inherited);
  if (c) /* another thread's spare is there */
    discard(c);
}

static struct loom_tool *take(const char *path) {
  pthread_mutex_lock(&spare_lock);
  int i = tool_index(path);
  struct loom_tool *c = i >= 0 ? tools[i].spare : NULL;
  if (i >= 0)
    tools[i].spare = NULL;
  pthread_mutex_unlock(&spare_lock);
  if (c && c->owner != getpid()) {
    drop_inherited(c);
    c = NULL;
  }
  return c ? c : spawn_new(path);
}

/* the arguments as a response file: each in double quotes, `"` and `\`
 * escaped with `\` (GNU quoting, Clang's default on Linux) */
static char *response_text(char *const *args, size_t n, size_t *len) {
  size_t size = 1;
  for (size_t i = 0; i < n; i++) {
    size_t s = 3;
    for (const char *p = args[i]; *p; p++)
      s += (*p == '"' || *p == '\\') ? 2 : 1;
    if (__builtin_add_overflow(size, s, &size))
      return NULL;
  }
  char *text = malloc(size);
  if (!text)
    return NULL;
  char *o = text;
  for (size_t i = 0; i < n; i++) {
    *o++ = '"';
    for (const char *p = args[i]; *p; p++) {
      if (*p == '"' || *p == '\\')
        *o++ = '\\';
      *o++ = *p;
    }
    *o++ = '"';
    *o++ = '\n';
  }
  *o = 0;
  *len = (size_t)(o - text);
  return text;
}

/* writes all of text to fd without SIGPIPE reaching the process (the
 * reader may be gone); 0, or an errno value (EPIPE: nobody reads) */
static int write_all(int fd, const char *text, size_t len) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  int err = 0;
  while (len && !err) {
    ssize_t w = write(fd, text, len);
    if (w > 0) {
      text += w;
      len -= (size_t)w;
    } else if (w < 0 && errno != EINTR) {
      err = errno;
    }
  }
  if (err == EPIPE && !sigismember(&old, SIGPIPE)) {
    /* the SIGPIPE this thread raised is consumed before unblocking */
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE)) {
      struct timespec zero = {0, 0};
      sigtimedwait(&pipe_only, NULL, &zero);
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return err;
}

/* everything fd yields until end-of-file, appended to *out */
static void read_all(int fd, char **out) {
  char buf[4096];
  for (;;) {
    ssize_t r = read(fd, buf, sizeof buf - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return;
    buf[r] = 0;
    loom_str_append(out, buf);
  }
}

/* gives c the arguments and waits for it; 0 or an errno value. *known:
 * whether *status is (false: reaped by someone else, e.g. an application's
 * SIGCHLD handler) */
static int run_once(struct loom_tool *c, const char *text, size_t len, char **output,
                    int *status, bool *known) {
  int err = write_all(c->args_fd, text, len);
  close(c->args_fd);
  read_all(c->output_fd, output);
  close(c->output_fd);
  *known = false;
  for (;;) {
    if (waitpid(c->pid, status, 0) == c->pid) {
      *known = true;
      break;
    }
    if (errno != EINTR)
      break;
  }
  return err;
}

static int run(struct loom_tool *c, char *const *args, size_t n, const char *what,
               char **log) {
  size_t len = 0;
  char *text = response_text(args, n, &len);
  char *output = NULL;
  int status = 0;
  bool known = false;
  int err = text ? run_once(c, text, len, &output, &status, &known) : ENOMEM;
  if (!text) {
    discard(c);
    c = NULL;
  }
  if (c && (err == EPIPE || (!err && known && WIFSIGNALED(status) && !output))) {
    /* it died before reading its arguments (nobody read the pipe), or was
     * killed before it said a word (perhaps before reading): once more in
     * a new process */
    err = spawn_into(c, c->path);
    if (!err)
      err = run_once(c, text, len, &output, &status, &known);
  }
  free(text);
  free(c);
  if (output)
    loom_str_append(log, output);
  free(output);
  if (err) {
    char msg[512];
    snprintf(msg, sizeof msg, "error: cannot run %s: %s\n", what, strerror(err));
    loom_str_append(log, msg);
    return -1;
  }
  if (known && WIFSIGNALED(status)) {
    /* e.g. Clang's parser out of stack on an expression nested 100,000 deep */
    char msg[256];
    snprintf(msg, sizeof msg, "error: %s died of signal %d (%s)\n", what, WTERMSIG(status),
             strsignal(WTERMSIG(status)));
    loom_str_append(log, msg);
  }
  return !known || (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : -1;
}

int loom_tool_call(const char *path, char *const *args, size_t n, const char *what,
                   char **log) {
  pthread_once(&guard_once, register_guard);
  struct loom_tool *c = take(path);
  int err = errno;
  prepare(path);
  if (!c) {
    char msg[4400];
    snprintf(msg, sizeof msg, "error: cannot run %s %s: %s\n", what, path, strerror(err));
    loom_str_append(log, msg);
    return -1;
  }
  return run(c, args, n, what, log);
}
