/* Programs made from SPIR-V: the module and its specialization constants
 * (the build itself is program_build.c's, through loom_compile_spirv). */
#include "program.h"
#include <stdlib.h>
#include <string.h>

cl_int loom_program_set_il(cl_program p, const void *il, size_t size, char **log) {
  *log = strdup("");
  if (!*log)
    return CL_OUT_OF_HOST_MEMORY;
  if (loom_spirv_inspect(il, size, &p->il_info, log) != 0)
    return CL_INVALID_VALUE;
  p->il = malloc(size);
  if (!p->il) {
    loom_spirv_info_free(&p->il_info);
    return CL_OUT_OF_HOST_MEMORY;
  }
  memcpy(p->il, il, size);
  p->il_size = size;
  return CL_SUCCESS;
}

cl_int loom_program_set_spec_constant(cl_program p, cl_uint id, size_t size, const void *value) {
  const struct loom_spirv_spec_const *sc = NULL;
  for (size_t i = 0; i < p->il_info.num_spec; i++)
    if (p->il_info.spec[i].id == id)
      sc = &p->il_info.spec[i];
  if (!sc)
    return CL_INVALID_SPEC_ID;
  if (size != sc->size)
    return CL_INVALID_VALUE;
  struct loom_spec_value v;
  memset(&v, 0, sizeof v); /* padding included: the values are hashed into cache keys */
  v.id = id;
  v.size = (uint32_t)size;
  v.is_bool = sc->is_bool;
  memcpy(&v.bits, value, size); /* little-endian: the low bytes */
  if (v.is_bool)
    v.bits = v.bits != 0;
  pthread_mutex_lock(&p->lock);
  size_t i = 0;
  while (i < p->num_spec_values && p->spec_values[i].id != id)
    i++;
  if (i == p->num_spec_values) {
    struct loom_spec_value *grown =
        realloc(p->spec_values, (p->num_spec_values + 1) * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&p->lock);
      return CL_OUT_OF_HOST_MEMORY;
    }
    p->spec_values = grown;
    p->num_spec_values++;
  }
  memcpy(&p->spec_values[i], &v, sizeof v);
  pthread_mutex_unlock(&p->lock);
  return CL_SUCCESS;
}
