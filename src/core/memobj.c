/* Memory objects: creation, sub-buffers, destruction, destructor callbacks and
 * the registry of active maps. */
#include "memobj.h"
#include <stdlib.h>
#include <string.h>

struct loom_mapping {
  struct loom_mapping *next;
  cl_mem mem;        /* the object that was mapped */
  void *ptr;         /* what the map returned */
  size_t start, end; /* byte range in the root object's storage */
  /* the bytes mapped within it: rows of `width` bytes, row_pitch apart, in
   * slices slice_pitch apart (a 1D map is one row of end - start bytes) */
  size_t width, rows, slices, row_pitch, slice_pitch;
  bool write;
};

static bool has_two(cl_mem_flags f) { return (f & (f - 1)) != 0; }

cl_int loom_mem_check_flags(cl_mem_flags flags) {
  if (flags & ~(cl_mem_flags)LOOM_MEM_CREATE_FLAGS)
    return CL_INVALID_VALUE;
  if (has_two(flags & LOOM_MEM_ACCESS_FLAGS) ||
      has_two(flags & LOOM_MEM_HOST_ACCESS_FLAGS))
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) &&
      (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_mem loom_mem_root(cl_mem mem) {
  while (mem->parent)
    mem = mem->parent;
  return mem;
}

size_t loom_mem_root_offset(cl_mem mem) {
  size_t off = 0;
  for (; mem->parent; mem = mem->parent)
    off += mem->origin;
  return off;
}

/* Runs when the last internal reference goes: no command uses mem any more
 * and every object created from it has been freed. */
static void mem_destroy(struct loom_object *o) {
  cl_mem mem = (cl_mem)o;

  /* The spec: callbacks run (newest first), then the resources are freed. */
  for (struct loom_callback_node *n = mem->destructors; n;) {
    struct loom_callback_node *next = n->next;
    ((void(CL_CALLBACK *)(cl_mem, void *))n->fn)(mem, n->user_data);
    free(n);
    n = next;
  }

  /* maps the application never unmapped */
  if (mem->parent) {
    cl_mem root = loom_mem_root(mem);
    pthread_mutex_lock(&root->lock);
    for (struct loom_mapping **pm = &root->mappings; *pm;) {
      struct loom_mapping *m = *pm;
      if (m->mem == mem) {
        *pm = m->next;
        free(m);
      } else {
        pm = &m->next;
      }
    }
    pthread_mutex_unlock(&root->lock);
  }
  for (struct loom_mapping *m = mem->mappings; m;) {
    struct loom_mapping *next = m->next;
    free(m);
    m = next;
  }

  if (mem->type_data_free)
    mem->type_data_free(mem);
  if (mem->owns_data) {
    cl_device_id dev = mem->context->devices[0];
    dev->ops->mem_free(&dev->desc, mem->data);
  }
  free(mem->props);
  pthread_mutex_destroy(&mem->lock);
  if (mem->parent)
    LOOM_RELEASE(mem->parent);
  LOOM_RELEASE(mem->context);
  free(mem);
}

/* The parts every memory object shares; storage is set up by the caller. */
static cl_mem mem_new(cl_context ctx, cl_mem_object_type type,
                      cl_mem_flags flags, size_t size,
                      const cl_mem_properties *props, size_t num_props) {
  cl_mem mem = calloc(1, sizeof *mem);
  if (!mem)
    return NULL;
  if (props && num_props) {
    mem->props = malloc(num_props * sizeof *props);
    if (!mem->props) {
      free(mem);
      return NULL;
    }
    memcpy(mem->props, props, num_props * sizeof *props);
    mem->num_props = num_props;
  }
  if (pthread_mutex_init(&mem->lock, NULL) != 0) {
    free(mem->props);
    free(mem);
    return NULL;
  }
  loom_object_init(&mem->obj, LOOM_MEM, mem_destroy);
  mem->context = ctx;
  LOOM_RETAIN(ctx);
  mem->type = type;
  mem->flags = flags;
  mem->size = size;
  atomic_init(&mem->map_count, 0);
  return mem;
}

cl_mem loom_mem_create(cl_context ctx, cl_mem_object_type type,
                       cl_mem_flags flags, size_t size, void *host_ptr,
                       const cl_mem_properties *props, size_t num_props,
                       cl_int *err) {
  char *data;
  bool owns = false;
  if (flags & CL_MEM_USE_HOST_PTR) {
    data = host_ptr;
  } else {
    cl_device_id dev = ctx->devices[0];
    data = dev->ops->mem_alloc(&dev->desc, size);
    if (!data) {
      *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
      return NULL;
    }
    owns = true;
    if (flags & CL_MEM_COPY_HOST_PTR)
      memcpy(data, host_ptr, size);
  }

  cl_mem mem = mem_new(ctx, type, flags, size, props, num_props);
  if (!mem) {
    if (owns)
      ctx->devices[0]->ops->mem_free(&ctx->devices[0]->desc, data);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  mem->data = data;
  mem->owns_data = owns;
  if (flags & CL_MEM_USE_HOST_PTR)
    mem->host_ptr = host_ptr;
  *err = CL_SUCCESS;
  return mem;
}

cl_mem loom_mem_create_sub(cl_mem parent, cl_mem_flags flags, size_t origin,
                           size_t size, cl_int *err) {
  return loom_mem_create_view(parent, parent->type, flags, origin, size, NULL, 0, err);
}

cl_mem loom_mem_create_view(cl_mem parent, cl_mem_object_type type, cl_mem_flags flags,
                            size_t origin, size_t size, const cl_mem_properties *props,
                            size_t num_props, cl_int *err) {
  cl_mem mem = mem_new(parent->context, type, flags, size, props, num_props);
  if (!mem) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  mem->data = parent->data + origin;
  mem->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + origin : NULL;
  mem->parent = parent;
  mem->origin = origin;
  LOOM_RETAIN(parent);
  *err = CL_SUCCESS;
  return mem;
}

cl_int loom_mem_add_destructor(cl_mem mem,
                               void(CL_CALLBACK *fn)(cl_mem, void *),
                               void *user_data) {
  struct loom_callback_node *n = malloc(sizeof *n);
  if (!n)
    return CL_OUT_OF_HOST_MEMORY;
  n->fn = (void (*)(void))fn;
  n->user_data = user_data;
  pthread_mutex_lock(&mem->lock);
  n->next = mem->destructors;
  mem->destructors = n;
  pthread_mutex_unlock(&mem->lock);
  return CL_SUCCESS;
}

/* The rows of a mapping in increasing address order (valid pitches make
 * them disjoint and sorted). */
struct row_walk {
  const struct loom_mapping *m;
  size_t y, z;
};

static size_t walk_start(const struct row_walk *w) {
  return w->m->start + w->z * w->m->slice_pitch + w->y * w->m->row_pitch;
}

static bool walk_next(struct row_walk *w) {
  if (++w->y < w->m->rows)
    return true;
  w->y = 0;
  return ++w->z < w->m->slices;
}

/* true when two mappings of one storage share a byte: a merge of their
 * sorted rows, dropping whichever row ends first (it cannot meet any later
 * row of the other mapping) */
static bool mappings_overlap(const struct loom_mapping *a, const struct loom_mapping *b) {
  if (!(a->start < b->end && b->start < a->end))
    return false;
  struct row_walk wa = {a, 0, 0}, wb = {b, 0, 0};
  for (;;) {
    size_t sa = walk_start(&wa), sb = walk_start(&wb);
    if (sa < sb + b->width && sb < sa + a->width)
      return true;
    if (!(sa + a->width <= sb + b->width ? walk_next(&wa) : walk_next(&wb)))
      return false;
  }
}

cl_int loom_mem_map_add(cl_mem mem, void *ptr, size_t offset, size_t size,
                        cl_map_flags flags) {
  const size_t region[3] = {size, 1, 1};
  return loom_mem_map_add_rect(mem, ptr, offset, region, size, size, flags);
}

cl_int loom_mem_map_add_rect(cl_mem mem, void *ptr, size_t offset, const size_t region[3],
                             size_t row_pitch, size_t slice_pitch, cl_map_flags flags) {
  struct loom_mapping *m = malloc(sizeof *m);
  if (!m)
    return CL_OUT_OF_HOST_MEMORY;
  cl_mem root = loom_mem_root(mem);
  m->mem = mem;
  m->ptr = ptr;
  m->start = loom_mem_root_offset(mem) + offset;
  m->width = region[0];
  m->rows = region[1];
  m->slices = region[2];
  m->row_pitch = row_pitch;
  m->slice_pitch = slice_pitch;
  /* the arguments describe bytes of mem's storage: no overflow */
  m->end = m->start + (region[2] - 1) * slice_pitch + (region[1] - 1) * row_pitch + region[0];
  m->write = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;

  pthread_mutex_lock(&root->lock);
  if (m->write) {
    for (struct loom_mapping *o = root->mappings; o; o = o->next) {
      if (o->write && mappings_overlap(o, m)) {
        pthread_mutex_unlock(&root->lock);
        free(m);
        return CL_INVALID_OPERATION;
      }
    }
  }
  m->next = root->mappings;
  root->mappings = m;
  atomic_fetch_add(&mem->map_count, 1);
  pthread_mutex_unlock(&root->lock);
  return CL_SUCCESS;
}

cl_int loom_mem_map_remove(cl_mem mem, void *ptr) {
  cl_mem root = loom_mem_root(mem);
  pthread_mutex_lock(&root->lock);
  for (struct loom_mapping **pm = &root->mappings; *pm; pm = &(*pm)->next) {
    struct loom_mapping *m = *pm;
    if (m->mem == mem && m->ptr == ptr) {
      *pm = m->next;
      atomic_fetch_sub(&mem->map_count, 1);
      pthread_mutex_unlock(&root->lock);
      free(m);
      return CL_SUCCESS;
    }
  }
  pthread_mutex_unlock(&root->lock);
  return CL_INVALID_VALUE;
}
