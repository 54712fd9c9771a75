/* The program binary container (CL_PROGRAM_BINARIES, the disk cache):
 *   "LOOMCLB" + format version, then length-prefixed fields.
 * Deserialisation checks every length: applications may pass anything. */
#include "backend/codegen.h"
#include "compiler.h"
#include <stdlib.h>
#include <string.h>

#include "loom_abi.h"
#define MAGIC "LOOMCLB"
#define FORMAT_VERSION 7u

static uint64_t checksum(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ULL;
  return h ^ (h >> 29);
}

struct writer {
  struct loom_blob *b;
  size_t cap;
  bool bad; /* out of memory: nothing more is written */
};

static void put(struct writer *w, const void *p, size_t n) {
  if (w->bad)
    return;
  if (w->b->size + n > w->cap) {
    size_t cap = (w->b->size + n) * 2 + 256;
    unsigned char *grown = realloc(w->b->data, cap);
    if (!grown) {
      w->bad = true;
      return;
    }
    w->b->data = grown;
    w->cap = cap;
  }
  memcpy(w->b->data + w->b->size, p, n);
  w->b->size += n;
}
static void put_u64(struct writer *w, uint64_t v) { put(w, &v, 8); }
static void put_bytes(struct writer *w, const void *p, size_t n) {
  put_u64(w, n);
  if (n)
    put(w, p, n);
}
static void put_str(struct writer *w, const char *s) {
  if (!s) {
    put_u64(w, UINT64_MAX);
    return;
  }
  put_bytes(w, s, strlen(s));
}

int loom_binary_serialize(const struct loom_program_binary *b, struct loom_blob *out) {
  const struct loom_blob *object = b->pending ? loom_codegen_object(b->pending) : &b->object;
  if (!object) {
    out->data = NULL;
    out->size = 0;
    return -1;
  }
  return loom_binary_serialize_with(b, object, out);
}

int loom_binary_serialize_with(const struct loom_program_binary *b, const struct loom_blob *object,
                               struct loom_blob *out) {
  out->data = NULL;
  out->size = 0;
  struct writer w = {out, 0, false};
  put(&w, MAGIC, 7);
  uint8_t ver = FORMAT_VERSION;
  put(&w, &ver, 1);
  put_u64(&w, (uint64_t)b->kind);
  put_str(&w, b->options);
  put_str(&w, b->log);
  put_u64(&w, b->nonuniform);
  put_bytes(&w, b->bitcode.data, b->bitcode.size);
  put_bytes(&w, object->data, object->size);
  put_u64(&w, b->num_kernels);
  for (uint32_t i = 0; i < b->num_kernels; i++) {
    const struct loom_kernel_meta *k = &b->kernels[i];
    put_str(&w, k->name);
    put_str(&w, k->attributes);
    put_u64(&w, k->num_args);
    put_u64(&w, k->arg_buffer_size);
    for (int d = 0; d < 3; d++) {
      put_u64(&w, k->reqd_work_group_size[d]);
      put_u64(&w, k->work_group_size_hint[d]);
    }
    put_u64(&w, k->local_static_bytes);
    put_u64(&w, k->scratch_per_item);
    put_u64(&w, k->scratch_uniform);
    put_u64(&w, k->private_per_item);
    put_u64(&w, k->num_barriers);
    put_u64(&w, k->divergent_loops);
    put_u64(&w, k->sub_group_size);
    put_u64(&w, k->reqd_sub_group_size);
    put_u64(&w, k->sub_group_barriers);
    for (uint32_t a = 0; a < k->num_args; a++) {
      const struct loom_arg_meta *m = &k->args[a];
      put_u64(&w, m->kind);
      put_u64(&w, m->size);
      put_u64(&w, m->offset);
      put_u64(&w, m->address_qualifier);
      put_u64(&w, m->access_qualifier);
      put_u64(&w, m->type_qualifier);
      put_str(&w, m->type_name);
      put_str(&w, m->name);
    }
  }
  /* a checksum over everything: a damaged binary is refused, never run */
  if (!w.bad)
    put_u64(&w, checksum(out->data, out->size));
  if (w.bad) {
    loom_blob_free(out);
    return -1;
  }
  return 0;
}

/* the most bytes of local, scratch or private memory a kernel of a valid
 * binary declares (1 TiB: far beyond what any device offers, far from
 * wrapping when the runtime multiplies by a work-group size) */
#define SANE_KERNEL_BYTES ((uint64_t)1 << 40)

struct reader {
  const unsigned char *p, *end;
  bool bad;
};

static uint64_t get_u64(struct reader *r) {
  uint64_t v = 0;
  if (r->end - r->p < 8) {
    r->bad = true;
    return 0;
  }
  memcpy(&v, r->p, 8);
  r->p += 8;
  return v;
}
static void get_bytes(struct reader *r, struct loom_blob *b) {
  uint64_t n = get_u64(r);
  if (r->bad || n > (uint64_t)(r->end - r->p)) {
    r->bad = true;
    return;
  }
  b->data = malloc(n ? n : 1);
  if (!b->data) {
    r->bad = true;
    return;
  }
  memcpy(b->data, r->p, n);
  b->size = n;
  r->p += n;
}
static char *get_str(struct reader *r) {
  uint64_t n = get_u64(r);
  if (r->bad || n == UINT64_MAX)
    return NULL;
  if (n > (uint64_t)(r->end - r->p)) {
    r->bad = true;
    return NULL;
  }
  char *s = strndup((const char *)r->p, n);
  r->p += n;
  return s;
}

int loom_binary_deserialize(const void *data, size_t size, struct loom_program_binary *b) {
  memset(b, 0, sizeof *b);
  if (!data || size < 16 || memcmp(data, MAGIC, 7) != 0 ||
      ((const unsigned char *)data)[7] != FORMAT_VERSION)
    return -1;
  uint64_t sum;
  memcpy(&sum, (const unsigned char *)data + size - 8, 8);
  if (sum != checksum(data, size - 8))
    return -1;
  struct reader r = {(const unsigned char *)data + 8, (const unsigned char *)data + size - 8, false};
  b->kind = (enum loom_binary_kind)get_u64(&r);
  b->options = get_str(&r);
  b->log = get_str(&r);
  b->nonuniform = get_u64(&r) != 0;
  get_bytes(&r, &b->bitcode);
  get_bytes(&r, &b->object);
  uint64_t nk = get_u64(&r);
  if (r.bad || nk > 100000 || b->kind < LOOM_BINARY_OBJECT || b->kind > LOOM_BINARY_EXECUTABLE) {
    loom_program_binary_free(b);
    return -1;
  }
  b->kernels = calloc(nk + 1, sizeof *b->kernels);
  if (!b->kernels) {
    loom_program_binary_free(b);
    return -1;
  }
  b->num_kernels = (uint32_t)nk;
  for (uint32_t i = 0; i < b->num_kernels && !r.bad; i++) {
    struct loom_kernel_meta *k = &b->kernels[i];
    k->name = get_str(&r);
    k->attributes = get_str(&r);
    uint64_t na = get_u64(&r);
    if (na > 100000) {
      r.bad = true;
      break;
    }
    k->num_args = (uint32_t)na;
    k->arg_buffer_size = (uint32_t)get_u64(&r);
    for (int d = 0; d < 3; d++) {
      k->reqd_work_group_size[d] = get_u64(&r);
      k->work_group_size_hint[d] = get_u64(&r);
    }
    k->local_static_bytes = get_u64(&r);
    k->scratch_per_item = get_u64(&r);
    k->scratch_uniform = get_u64(&r);
    k->private_per_item = get_u64(&r);
    k->num_barriers = (uint32_t)get_u64(&r);
    k->divergent_loops = (uint32_t)get_u64(&r);
    uint64_t sg = get_u64(&r), reqd_sg = get_u64(&r), sg_barriers = get_u64(&r);
    /* compiled objects and libraries carry no sub-group size yet (0): the
     * work-group transformation that chooses it runs at the link */
    if ((sg < 1 && b->kind == LOOM_BINARY_EXECUTABLE) || sg > LOOM_SG_MAX_SIZE ||
        reqd_sg > LOOM_SG_MAX_SIZE || sg_barriers > k->num_barriers)
      r.bad = true;
    k->sub_group_barriers = (uint32_t)sg_barriers;
    k->sub_group_size = (uint32_t)sg;
    k->reqd_sub_group_size = (uint32_t)reqd_sg;
    /* sizes the runtime adds and multiplies (local memory, scratch per
     * work-item): a binary whose checksum matches but whose sizes no
     * compiled kernel has is refused, not trusted */
    if (k->local_static_bytes > SANE_KERNEL_BYTES || k->scratch_per_item > SANE_KERNEL_BYTES ||
        k->scratch_uniform > SANE_KERNEL_BYTES || k->private_per_item > SANE_KERNEL_BYTES)
      r.bad = true;
    k->args = calloc(na + 1, sizeof *k->args);
    if (!k->args) {
      r.bad = true;
      break;
    }
    for (uint32_t a = 0; a < k->num_args && !r.bad; a++) {
      struct loom_arg_meta *m = &k->args[a];
      m->kind = (enum loom_arg_kind)get_u64(&r);
      m->size = (uint32_t)get_u64(&r);
      m->offset = (uint32_t)get_u64(&r);
      m->address_qualifier = (uint32_t)get_u64(&r);
      m->access_qualifier = (uint32_t)get_u64(&r);
      m->type_qualifier = get_u64(&r);
      m->type_name = get_str(&r);
      m->name = get_str(&r);
      if (m->offset + (uint64_t)m->size > k->arg_buffer_size + 8ull || m->kind > LOOM_ARG_IMAGE)
        r.bad = true;
    }
    if (!k->name)
      r.bad = true;
  }
  if (r.bad) {
    loom_program_binary_free(b);
    return -1;
  }
  return 0;
}

void loom_kernels_meta_free(struct loom_program_binary *b) {
  for (uint32_t i = 0; i < b->num_kernels; i++) {
    struct loom_kernel_meta *k = &b->kernels[i];
    for (uint32_t a = 0; k->args && a < k->num_args; a++) {
      free(k->args[a].type_name);
      free(k->args[a].name);
    }
    free(k->args);
    free(k->name);
    free(k->attributes);
  }
  free(b->kernels);
  b->kernels = NULL;
  b->num_kernels = 0;
}

void loom_program_binary_free(struct loom_program_binary *b) {
  loom_kernels_meta_free(b);
  loom_codegen_release(b->pending);
  loom_blob_free(&b->bitcode);
  loom_blob_free(&b->object);
  free(b->options);
  free(b->log);
  memset(b, 0, sizeof *b);
}
