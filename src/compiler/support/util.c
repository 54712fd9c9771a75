/* Small helpers shared by the compiler: blobs, files, temp dirs. */
#include "support/util.h"
#include <dirent.h>
#include <errno.h>
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

int loom_read_file(const char *path, struct loom_blob *out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  out->data = malloc(n > 0 ? (size_t)n + 1 : 1);
  out->size = n > 0 ? (size_t)fread(out->data, 1, (size_t)n, f) : 0;
  out->data[out->size] = 0;
  fclose(f);
  return out->size == (size_t)(n > 0 ? n : 0) ? 0 : -1;
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
  size_t a = *s ? strlen(*s) : 0, b = strlen(add);
  *s = realloc(*s, a + b + 1);
  memcpy(*s + a, add, b + 1);
}
