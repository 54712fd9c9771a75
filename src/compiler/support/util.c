/* Small helpers shared by the compiler: blobs, files, temp dirs. */
#include "support/util.h"
#include <sys/resource.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void loom_blob_free(struct loom_blob *b) {
  free(b->data);
  b->data = NULL;
  b->size = 0;
}

/* Files LoomCL reads (cache entries, the front end's output) are at most
 * this large; anything larger is damage, never something LoomCL wrote. */
#define READ_FILE_MAX ((size_t)1 << 30)

/* Reads a whole regular file (NUL-terminated after size bytes); -1, out
 * empty, for anything else: a missing or unreadable file, a folder, a
 * device, a file over READ_FILE_MAX (a 15 TB sparse file), a short read or
 * no memory. */
int loom_read_file(const char *path, struct loom_blob *out) {
  out->data = NULL;
  out->size = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  /* only a regular file of a sane size: a folder, a device, a FIFO or a
   * (sparse) file of terabytes is not something LoomCL wrote */
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      (uint64_t)st.st_size > (uint64_t)READ_FILE_MAX) {
    close(fd);
    return -1;
  }
  size_t n = (size_t)st.st_size;
  unsigned char *data = malloc(n + 1);
  if (!data) {
    close(fd);
    return -1;
  }
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, data + got, n - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  close(fd);
  if (got != n) {
    free(data);
    return -1;
  }
  data[n] = 0;
  out->data = data;
  out->size = n;
  return 0;
}

int loom_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t w = fwrite(data, 1, size, f);
  return (fclose(f) == 0 && w == size) ? 0 : -1;
}

/* Creates every missing parent folder of path's folder, then the folder. */
int loom_mkdirs(const char *dir) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0755);
      *p = '/';
    }
  return (mkdir(tmp, 0755) == 0 || errno == EEXIST) ? 0 : -1;
}

char *loom_make_temp_dir(void) {
  const char *base = getenv("TMPDIR");
  char tmpl[4096];
  snprintf(tmpl, sizeof tmpl, "%s/loomcl-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(tmpl))
    return NULL;
  return strdup(tmpl);
}

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char child[4096];
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      remove_tree(child);
    }
    closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

void loom_remove_temp_dir(char *dir) {
  if (dir)
    remove_tree(dir);
  free(dir);
}

void loom_str_append(char **s, const char *add) {
  if (!add)
    return;
  size_t a = *s ? strlen(*s) : 0, b = strlen(add);
  char *grown = realloc(*s, a + b + 1);
  if (!grown)
    return; /* out of memory: *s stays as it was, only the message is lost */
  memcpy(grown + a, add, b + 1);
  *s = grown;
}

bool loom_memory_headroom(uint64_t need) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return true;
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (!f)
    return true;
  int got = fscanf(f, "%llu", &pages);
  fclose(f);
  if (got != 1)
    return true;
  uint64_t used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
  return used < (uint64_t)rl.rlim_cur && (uint64_t)rl.rlim_cur - used >= need;
}
