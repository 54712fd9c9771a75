/* The on-disk cache of compiled programs. Keyed by a 128-bit hash of
 * everything that affects the code: the inputs, the options, LoomCL's and
 * LLVM's versions, the builtin library and the target CPU.
 * LOOMCL_CACHE_DIR overrides the place ($XDG_CACHE_HOME/loomcl or
 * ~/.cache/loomcl); LOOMCL_CACHE=0 disables it. Entries are written to a
 * temporary name and renamed, so concurrent processes never see half files. */
#include "backend/codegen.h"
#include "compiler.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

extern const unsigned char loom_builtins_cpu[] LOOM_HIDDEN;
extern const size_t loom_builtins_cpu_size LOOM_HIDDEN;

/* two independent 64-bit FNV-1a style streams with different seeds, mixed */
struct hash128 {
  uint64_t a, b;
};

static void hash_bytes(struct hash128 *h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) {
    h->a = (h->a ^ s[i]) * 0x100000001b3ULL;
    h->b = (h->b ^ s[i]) * 0x9e3779b97f4a7c15ULL + 0x7f4a7c15ULL;
  }
  /* the length separates fields: ("ab","c") != ("a","bc") */
  uint64_t len = n;
  for (int i = 0; i < 8; i++) {
    h->a = (h->a ^ ((len >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
    h->b = (h->b ^ ((len >> (8 * i)) & 0xff)) * 0x9e3779b97f4a7c15ULL;
  }
}

static uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

/* Identifies this build of libloomcl: any rebuild of the compiler changes
 * the generated code, so it must change every key. */
static void library_identity(char *out, size_t n) {
  Dl_info info;
  struct stat st;
  if (dladdr((void *)library_identity, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
    snprintf(out, n, "%s:%lld:%lld.%09ld", info.dli_fname, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  else
    snprintf(out, n, "unknown");
}

/* The builtin library (2.4 MB) is hashed once per process, eight bytes at
 * a time: byte by byte it took as long as a whole cached build. */
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;
static struct hash128 builtins_digest;

static void hash_builtins(void) {
  struct hash128 h = {0x84222325cbf29ce4ULL, 0xcbf29ce484222325ULL};
  size_t words = loom_builtins_cpu_size / 8;
  for (size_t i = 0; i < words; i++) {
    uint64_t w;
    memcpy(&w, loom_builtins_cpu + 8 * i, 8);
    h.a = (h.a ^ w) * 0x100000001b3ULL;
    h.a ^= h.a >> 29;
    h.b = (h.b ^ w) * 0x9e3779b97f4a7c15ULL + 0x7f4a7c15ULL;
    h.b ^= h.b >> 31;
  }
  hash_bytes(&h, loom_builtins_cpu + 8 * words, loom_builtins_cpu_size - 8 * words);
  builtins_digest = h;
}

void loom_cache_key(const void *const *parts, const size_t *sizes, size_t n,
                    const struct loom_target *target, char key[33]) {
  struct hash128 h = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
  const char *ident = "LoomCL " LOOMCL_VERSION_STRING " LLVM " LOOMCL_LLVM_VERSION;
  hash_bytes(&h, ident, strlen(ident));
  char lib[4200];
  library_identity(lib, sizeof lib);
  hash_bytes(&h, lib, strlen(lib));
  pthread_once(&builtins_once, hash_builtins);
  hash_bytes(&h, &builtins_digest, sizeof builtins_digest);
  hash_bytes(&h, target->cpu, strlen(target->cpu));
  hash_bytes(&h, target->features, strlen(target->features));
  const char *ext = target->extensions ? target->extensions : "";
  hash_bytes(&h, ext, strlen(ext));
  for (size_t i = 0; i < n; i++)
    hash_bytes(&h, parts[i], sizes[i]);
  snprintf(key, 33, "%016llx%016llx", (unsigned long long)fmix(h.a ^ fmix(h.b)),
           (unsigned long long)fmix(h.b));
}

static bool cache_dir(char *out, size_t n) {
  if (!loom_cfg_int(LOOM_CFG_CACHE))
    return false;
  const char *dir = loom_cfg_str(LOOM_CFG_CACHE_DIR);
  if (dir) {
    snprintf(out, n, "%s", dir);
    return true;
  }
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) {
    snprintf(out, n, "%s/loomcl", xdg);
    return true;
  }
  const char *home = getenv("HOME");
  if (!home || !*home)
    return false;
  snprintf(out, n, "%s/.cache/loomcl", home);
  return true;
}

/* An entry is untrusted input: loom_read_file takes only a regular file of
 * a sane size, loom_binary_deserialize checks its checksum and every
 * length. Whatever fails is a miss: the program is built and the entry
 * written again. */
int loom_cache_get(const char *key, struct loom_blob *out) {
  char dir[3000], path[3200];
  if (!cache_dir(dir, sizeof dir))
    return -1;
  snprintf(path, sizeof path, "%s/%s.lcb", dir, key);
  return loom_read_file(path, out);
}

void loom_cache_put(const char *key, const struct loom_blob *data) {
  char dir[3000], path[3200], tmp[3300];
  if (!cache_dir(dir, sizeof dir) || loom_mkdirs(dir) != 0)
    return;
  snprintf(path, sizeof path, "%s/%s.lcb", dir, key);
  snprintf(tmp, sizeof tmp, "%s.%d.%lx.tmp", path, (int)getpid(), (unsigned long)pthread_self());
  if (loom_write_file(tmp, data->data, data->size) != 0) {
    unlink(tmp);
    return;
  }
  if (rename(tmp, path) != 0) {
    /* a damaged entry that rename cannot replace: an (empty) folder where
     * the file belongs. A folder with contents, or a symbolic link, is left
     * alone (the entry stays uncached), nothing outside the cache is
     * touched. */
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && rmdir(path) == 0 &&
        rename(tmp, path) == 0)
      return;
    unlink(tmp);
  }
}

void loom_cache_put_binary(const char *key, const struct loom_program_binary *bin) {
  char dir[3000];
  if (!cache_dir(dir, sizeof dir))
    return;
  struct loom_blob data = {0};
  if (bin->pending) {
    /* everything but the object code now; the rest when it exists */
    const struct loom_blob none = {0};
    if (loom_binary_serialize_with(bin, &none, &data) == 0)
      loom_codegen_cache_when_done(bin->pending, key, &data);
  } else if (loom_binary_serialize(bin, &data) == 0) {
    loom_cache_put(key, &data);
  }
  loom_blob_free(&data);
}

int loom_cache_get_binary(const char *key, struct loom_program_binary *bin) {
  char dir[3000];
  if (!cache_dir(dir, sizeof dir))
    return -1;
  if (loom_codegen_in_flight(key, bin) == 0)
    return 0;
  struct loom_blob data = {0};
  if (loom_cache_get(key, &data) != 0)
    return -1;
  int rc = loom_binary_deserialize(data.data, data.size, bin);
  loom_blob_free(&data);
  return rc;
}
