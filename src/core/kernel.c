/* Kernel objects: argument storage and the snapshot a launch takes. */
#include "kernel.h"
#include "image.h"
#include "loom_image.h"
#include "memobj.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void kernel_destroy(struct loom_object *o) {
  cl_kernel k = (cl_kernel)o;
  atomic_fetch_sub(&k->program->kernels_attached, 1);
  LOOM_RELEASE(k->program);
  free(k->args);
  free(k->arg_mem);
  free(k->arg_is_address);
  free(k->local_size);
  free(k->arg_set);
  pthread_mutex_destroy(&k->lock);
  free(k);
}

cl_kernel loom_kernel_new(cl_program p, cl_device_id dev, const struct loom_kernel_meta *meta,
                          loom_wg_fn fn) {
  cl_kernel k = calloc(1, sizeof *k);
  if (!k)
    return NULL;
  k->args = calloc(meta->arg_buffer_size + 16, 1);
  k->arg_mem = calloc(meta->num_args + 1, sizeof *k->arg_mem);
  k->local_size = calloc(meta->num_args + 1, sizeof *k->local_size);
  k->arg_set = calloc(meta->num_args + 1, sizeof *k->arg_set);
  k->arg_is_address = calloc(meta->num_args + 1, sizeof *k->arg_is_address);
  if (!k->args || !k->arg_mem || !k->local_size || !k->arg_set || !k->arg_is_address) {
    free(k->args);
    free(k->arg_mem);
    free(k->arg_is_address);
    free(k->local_size);
    free(k->arg_set);
    free(k);
    return NULL;
  }
  loom_object_init(&k->obj, LOOM_KERNEL, kernel_destroy);
  k->program = p;
  LOOM_RETAIN(p);
  atomic_fetch_add(&p->kernels_attached, 1);
  k->context = p->context;
  k->device = dev;
  k->meta = meta;
  k->fn = fn;
  pthread_mutex_init(&k->lock, NULL);
  return k;
}

/* A sampler as kernels take it: the CLK_* bit field of loom_image.h, the
 * encoding Clang gives `constant sampler_t` initialisers. */
static int32_t loom_sampler_bits(cl_sampler s) {
  int32_t bits = s->normalized_coords ? LOOM_SAMPLER_NORMALIZED : 0;
  switch (s->addressing_mode) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    bits |= LOOM_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
    break;
  case CL_ADDRESS_CLAMP:
    bits |= LOOM_SAMPLER_ADDRESS_CLAMP;
    break;
  case CL_ADDRESS_REPEAT:
    bits |= LOOM_SAMPLER_ADDRESS_REPEAT;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    bits |= LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT;
    break;
  default:
    bits |= LOOM_SAMPLER_ADDRESS_NONE;
    break;
  }
  return bits | (s->filter_mode == CL_FILTER_LINEAR ? LOOM_SAMPLER_FILTER_LINEAR
                                                     : LOOM_SAMPLER_FILTER_NEAREST);
}

cl_kernel loom_kernel_clone(cl_kernel src) {
  pthread_mutex_lock(&src->lock);
  loom_wg_fn fn = src->fn; /* NULL: the clone finds the code at its first launch too */
  pthread_mutex_unlock(&src->lock);
  cl_kernel k = loom_kernel_new(src->program, src->device, src->meta, fn);
  if (!k)
    return NULL;
  pthread_mutex_lock(&src->lock);
  memcpy(k->args, src->args, src->meta->arg_buffer_size);
  memcpy(k->arg_mem, src->arg_mem, src->meta->num_args * sizeof *k->arg_mem);
  memcpy(k->local_size, src->local_size, src->meta->num_args * sizeof *k->local_size);
  memcpy(k->arg_set, src->arg_set, src->meta->num_args * sizeof *k->arg_set);
  memcpy(k->arg_is_address, src->arg_is_address,
         src->meta->num_args * sizeof *k->arg_is_address);
  pthread_mutex_unlock(&src->lock);
  return k;
}

cl_int loom_kernel_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value) {
  /* the API layer checked the index and the size against the metadata: the
   * arrays have num_args entries and k->args arg_buffer_size + 16 bytes */
  assert(index < k->meta->num_args);
  const struct loom_arg_meta *a = &k->meta->args[index];
  assert(a->kind == LOOM_ARG_BUFFER || a->kind == LOOM_ARG_LOCAL ||
         (uint64_t)a->offset + size <= (uint64_t)k->meta->arg_buffer_size + 16);
  pthread_mutex_lock(&k->lock);
  switch (a->kind) {
  case LOOM_ARG_BUFFER:
    k->arg_is_address[index] = false;
    k->arg_mem[index] = value ? *(const cl_mem *)value : NULL;
    break;
  case LOOM_ARG_IMAGE: /* the launch passes the image's descriptor (loom_image.h) */
    k->arg_mem[index] = value ? *(const cl_mem *)value : NULL;
    break;
  case LOOM_ARG_SAMPLER: {
    /* kernels take a sampler as its CLK_* bit field (loom_image.h) */
    uint64_t bits = (uint32_t)loom_sampler_bits(*(const cl_sampler *)value);
    assert(a->size == sizeof bits); /* an 8-byte slot; the kernel reads its low half */
    memcpy(k->args + a->offset, &bits, sizeof bits);
    break;
  }
  case LOOM_ARG_LOCAL:
    k->local_size[index] = size;
    break;
  default:
    memcpy(k->args + a->offset, value, size);
    break;
  }
  k->arg_set[index] = true;
  pthread_mutex_unlock(&k->lock);
  return CL_SUCCESS;
}

cl_int loom_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *ptr) {
  assert(index < k->meta->num_args && k->meta->args[index].kind == LOOM_ARG_BUFFER);
  const struct loom_arg_meta *a = &k->meta->args[index];
  assert(a->offset + sizeof ptr <= k->meta->arg_buffer_size + 16);
  pthread_mutex_lock(&k->lock);
  memcpy(k->args + a->offset, &ptr, sizeof ptr);
  k->arg_mem[index] = NULL;
  k->arg_is_address[index] = true;
  k->arg_set[index] = true;
  pthread_mutex_unlock(&k->lock);
  return CL_SUCCESS;
}

bool loom_kernel_args_complete(cl_kernel k) {
  for (uint32_t i = 0; i < k->meta->num_args; i++)
    if (!k->arg_set[i])
      return false;
  return true;
}

/* Work-group local memory layout: the kernel's __local variables first, then
 * each __local argument at a 128-byte boundary. Stores each argument's
 * offset in offsets[i] (when offsets is given); returns the total size, or
 * UINT64_MAX when the sizes (set by the application, up to SIZE_MAX each)
 * add up to more than 2^64 - 256: such a total exceeds every device's
 * CL_DEVICE_LOCAL_MEM_SIZE instead of wrapping to a small one. */
#define LOCAL_LAYOUT_MAX (UINT64_MAX - 255)
static uint64_t local_layout(cl_kernel k, uint64_t *offsets) {
  uint64_t total = k->meta->local_static_bytes;
  for (uint32_t i = 0; i < k->meta->num_args; i++)
    if (k->meta->args[i].kind == LOOM_ARG_LOCAL) {
      if (total > LOCAL_LAYOUT_MAX)
        return UINT64_MAX;
      total = (total + 127) / 128 * 128;
      if (offsets)
        offsets[i] = total;
      if (k->local_size[i] > LOCAL_LAYOUT_MAX - total)
        return UINT64_MAX;
      total += k->local_size[i];
    }
  return total;
}

uint64_t loom_kernel_local_bytes(cl_kernel k) { return local_layout(k, NULL); }

/* One allocation per launch: the header, the 128-byte aligned argument
 * snapshot (the generated code may load arguments with vector loads) and
 * the buffer references. Small launches are dominated by this bookkeeping. */
loom_wg_fn loom_kernel_code(cl_kernel k) {
  pthread_mutex_lock(&k->lock);
  loom_wg_fn fn = k->fn;
  pthread_mutex_unlock(&k->lock);
  if (fn)
    return fn;
  /* the program's build cannot change while the kernel exists
   * (kernels_attached), nor k->meta, which points into it */
  struct loom_program_build *b = loom_program_build_for(k->program, k->device);
  assert(b && k->meta >= b->bin.kernels && k->meta < b->bin.kernels + b->bin.num_kernels);
  fn = loom_program_kernel_fn(k->program, b, (uint32_t)(k->meta - b->bin.kernels));
  if (fn) {
    pthread_mutex_lock(&k->lock);
    k->fn = fn;
    pthread_mutex_unlock(&k->lock);
  }
  return fn;
}

struct loom_ndrange *loom_ndrange_new(cl_kernel k, size_t state_size) {
  const struct loom_kernel_meta *m = k->meta;
  size_t head = (sizeof(struct loom_ndrange) + 127) & ~(size_t)127;
  size_t args_bytes = (m->arg_buffer_size + 128 + 127) & ~(size_t)127;
  size_t mems_bytes = ((m->num_args + 1) * (sizeof(cl_mem) + sizeof(struct loom_mem_range)) + 63) &
                      ~(size_t)63;
  /* the block holds the header, the arguments (with the 128 bytes of slack
   * vector loads may read past the last one) and num_args + 1 buffers */
  assert(k->fn && m->arg_buffer_size + 128 <= args_bytes);
  struct loom_ndrange *nd;
  if (posix_memalign((void **)&nd, 128, head + args_bytes + mems_bytes + state_size) != 0)
    return NULL;
  memset(nd, 0, sizeof *nd);
  if (state_size) {
    nd->launch.device_state = (unsigned char *)nd + head + args_bytes + mems_bytes;
    memset(nd->launch.device_state, 0, state_size);
  }
  nd->launch.fn = k->fn;
  nd->launch.meta = m;
  nd->kernel = k;
  LOOM_RETAIN(k);
  nd->launch.args = (unsigned char *)nd + head;
  nd->mems = (cl_mem *)(nd->launch.args + args_bytes);
  nd->ranges = (struct loom_mem_range *)(nd->mems + m->num_args + 1);
  nd->launch.mems = nd->ranges;
  uint64_t local_off_small[16];
  uint64_t *local_off = local_off_small;
  if (m->num_args + 1 > sizeof local_off_small / sizeof *local_off_small &&
      !(local_off = calloc(m->num_args + 1, sizeof *local_off))) {
    LOOM_RELEASE(k);
    free(nd);
    return NULL;
  }
  memset(local_off, 0, (m->num_args + 1) * sizeof *local_off);
  pthread_mutex_lock(&k->lock);
  memcpy(nd->launch.args, k->args, m->arg_buffer_size);
  uint64_t local_bytes = local_layout(k, local_off);
  if (local_bytes > k->device->desc.lim.local_mem_size) {
    /* the entry point checked the total; another thread changed a __local
     * argument's size since (the driver allocates local_mem_bytes) */
    pthread_mutex_unlock(&k->lock);
    if (local_off != local_off_small)
      free(local_off);
    LOOM_RELEASE(k);
    free(nd);
    return NULL;
  }
  nd->launch.local_mem_bytes = local_bytes;
  for (uint32_t i = 0; i < m->num_args; i++) {
    const struct loom_arg_meta *a = &m->args[i];
    if (a->kind == LOOM_ARG_BUFFER && k->arg_is_address[i]) {
      continue; /* the snapshot already holds the address */
    } else if (a->kind == LOOM_ARG_BUFFER) {
      cl_mem mem = k->arg_mem[i];
      void *ptr = mem ? mem->data : NULL;
      memcpy(nd->launch.args + a->offset, &ptr, sizeof ptr);
      if (mem) {
        assert(nd->num_mems < m->num_args + 1); /* the mems and ranges arrays */
        LOOM_RETAIN(mem);
        nd->ranges[nd->num_mems] = (struct loom_mem_range){mem->data, mem->size};
        nd->mems[nd->num_mems++] = mem;
        nd->launch.num_mems = nd->num_mems;
      }
    } else if (a->kind == LOOM_ARG_IMAGE) {
      cl_mem mem = k->arg_mem[i];
      const struct loom_image *desc = loom_image_kernel_desc(mem);
      assert(desc); /* clSetKernelArg accepted only an image */
      memcpy(nd->launch.args + a->offset, &desc, sizeof desc);
      assert(nd->num_mems < m->num_args + 1);
      LOOM_RETAIN(mem);
      nd->ranges[nd->num_mems] = (struct loom_mem_range){mem->data, mem->size};
      nd->mems[nd->num_mems++] = mem;
      nd->launch.num_mems = nd->num_mems;
    } else if (a->kind == LOOM_ARG_LOCAL) {
      assert(local_off[i] + k->local_size[i] <= nd->launch.local_mem_bytes);
      memcpy(nd->launch.args + a->offset, &local_off[i], sizeof local_off[i]);
    }
  }
  pthread_mutex_unlock(&k->lock);
  if (local_off != local_off_small)
    free(local_off);
  return nd;
}

void loom_ndrange_free(struct loom_ndrange *nd) {
  if (!nd)
    return;
  for (cl_uint i = 0; i < nd->num_mems; i++)
    LOOM_RELEASE(nd->mems[i]);
  LOOM_RELEASE(nd->kernel);
  free(nd); /* args, mems and the driver state live in the same block */
}
