/* The object set format: "LOOMOBJS", a 32-bit count (2 to
 * LOOM_OBJECT_SET_MAX), then each object as a 64-bit size and its bytes,
 * little-endian, nothing after the last. Reading checks every size against
 * what is left: a set comes from CL_PROGRAM_BINARIES and the disk cache,
 * and applications may pass anything. */
#include "binary/object_set.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SET_MAGIC "LOOMOBJS"
enum { MAGIC_BYTES = 8, COUNT_BYTES = 4, SIZE_BYTES = 8 };

static void put_le(unsigned char *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

int loom_object_set_pack(const struct loom_blob *objects, size_t n, struct loom_blob *out) {
  *out = (struct loom_blob){0};
  if (n < 2 || n > LOOM_OBJECT_SET_MAX)
    return -1;
  size_t total = MAGIC_BYTES + COUNT_BYTES;
  for (size_t i = 0; i < n; i++) {
    if (objects[i].size > SIZE_MAX - total - SIZE_BYTES)
      return -1;
    total += SIZE_BYTES + objects[i].size;
  }
  unsigned char *p = malloc(total);
  if (!p)
    return -1;
  out->data = p;
  out->size = total;
  memcpy(p, SET_MAGIC, MAGIC_BYTES);
  put_le(p + MAGIC_BYTES, n, COUNT_BYTES);
  p += MAGIC_BYTES + COUNT_BYTES;
  for (size_t i = 0; i < n; i++) {
    put_le(p, objects[i].size, SIZE_BYTES);
    if (objects[i].size)
      memcpy(p + SIZE_BYTES, objects[i].data, objects[i].size);
    p += SIZE_BYTES + objects[i].size;
  }
  return 0;
}

int loom_object_set_parts(const struct loom_blob *blob, struct loom_blob parts[LOOM_OBJECT_SET_MAX]) {
  if (blob->size < MAGIC_BYTES || memcmp(blob->data, SET_MAGIC, MAGIC_BYTES) != 0) {
    parts[0] = *blob; /* one object */
    return 1;
  }
  size_t left = blob->size - MAGIC_BYTES;
  const unsigned char *p = blob->data + MAGIC_BYTES;
  if (left < COUNT_BYTES)
    return -1;
  uint64_t n = get_le(p, COUNT_BYTES);
  p += COUNT_BYTES;
  left -= COUNT_BYTES;
  if (n < 2 || n > LOOM_OBJECT_SET_MAX)
    return -1;
  for (uint64_t i = 0; i < n; i++) {
    if (left < SIZE_BYTES)
      return -1;
    uint64_t size = get_le(p, SIZE_BYTES);
    p += SIZE_BYTES;
    left -= SIZE_BYTES;
    if (size == 0 || size > left)
      return -1;
    parts[i] = (struct loom_blob){(unsigned char *)p, (size_t)size};
    p += size;
    left -= (size_t)size;
  }
  return left == 0 ? (int)n : -1;
}
