/* Sub-devices (clCreateSubDevices): a device's compute units split into
 * smaller devices, each a copy of its parent's description with its own
 * cores (desc.core_mask), so the driver runs its launches on those cores
 * only. Every partition takes the parent's cores in ascending order:
 * equally and by counts in consecutive runs, by affinity domain in the
 * groups the driver reports (cores sharing a NUMA node or a cache). */
#include "subdevice.h"
#include <stdlib.h>
#include <string.h>

/* the root device at the top of dev's parent chain */
static cl_device_id root_of(cl_device_id dev) {
  while (dev->parent)
    dev = dev->parent;
  return dev;
}

/* dev's cores, ascending, into cores (the root's compute_units entries at
 * most); returns how many */
bool loom_devices_share_code(cl_device_id a, cl_device_id b) {
  return root_of(a) == root_of(b);
}

static unsigned cores_of(cl_device_id dev, unsigned *cores) {
  unsigned total = root_of(dev)->desc.lim.compute_units, n = 0;
  for (unsigned c = 0; c < total; c++)
    if (!dev->desc.core_mask || (dev->desc.core_mask[c / 64] >> (c % 64) & 1))
      cores[n++] = c;
  return n;
}

static void subdevice_destroy(struct loom_object *o) {
  cl_device_id d = (cl_device_id)o;
  LOOM_RELEASE(d->parent);
  free(d->partition);
  free(d->cores_mask);
  free(d);
}

/* A sub-device of parent running on cores[0 .. n-1]; partition (num
 * entries) is what CL_DEVICE_PARTITION_TYPE reports. NULL when out of
 * memory. */
static cl_device_id subdevice_new(cl_device_id parent, const unsigned *cores, unsigned n,
                                  const cl_device_partition_property *partition, size_t num) {
  unsigned words = (root_of(parent)->desc.lim.compute_units + 63) / 64;
  cl_device_id d = calloc(1, sizeof *d);
  uint64_t *mask = calloc(words, sizeof *mask);
  cl_device_partition_property *props = malloc(num * sizeof *props);
  if (!d || !mask || !props) {
    free(d), free(mask), free(props);
    return NULL;
  }
  for (unsigned i = 0; i < n; i++)
    mask[cores[i] / 64] |= (uint64_t)1 << (cores[i] % 64);
  memcpy(props, partition, num * sizeof *props);
  loom_object_init(&d->obj, LOOM_DEVICE, subdevice_destroy);
  d->platform = parent->platform;
  d->desc = parent->desc;
  d->desc.lim.compute_units = n;
  d->desc.core_mask = mask;
  d->ops = parent->ops;
  d->parent = parent;
  LOOM_RETAIN(parent);
  d->partition = props;
  d->num_partition = num;
  d->cores_mask = mask;
  return d;
}

/* The affinity levels, outermost first (NEXT_PARTITIONABLE's order). */
static const cl_device_affinity_domain levels[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

/* The domain of each of dev's n cores at level into ids; the number of
 * distinct domains, 0 when the machine does not describe the level. */
static unsigned domains_at(cl_device_id dev, const unsigned *cores, unsigned n,
                           cl_device_affinity_domain level, int *ids) {
  if (!dev->ops->core_domain)
    return 0;
  unsigned distinct = 0;
  for (unsigned i = 0; i < n; i++) {
    ids[i] = dev->ops->core_domain(&dev->desc, cores[i], level);
    if (ids[i] < 0)
      return 0;
    bool seen = false;
    for (unsigned j = 0; j < i && !seen; j++)
      seen = ids[j] == ids[i];
    distinct += !seen;
  }
  return distinct;
}

cl_device_affinity_domain loom_device_affinity_domains(cl_device_id dev) {
  unsigned *cores = malloc(root_of(dev)->desc.lim.compute_units * sizeof *cores);
  int *ids = malloc(root_of(dev)->desc.lim.compute_units * sizeof *ids);
  cl_device_affinity_domain found = 0;
  if (cores && ids) {
    unsigned n = cores_of(dev, cores);
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++)
      if (domains_at(dev, cores, n, levels[l], ids) >= 2)
        found |= levels[l];
  }
  free(cores);
  free(ids);
  return found ? found | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

cl_int loom_device_partition(cl_device_id dev, const struct loom_partition *p,
                             const cl_device_partition_property *props, size_t num_props,
                             cl_uint num_devices, cl_device_id *out, cl_uint *num_ret) {
  unsigned total = root_of(dev)->desc.lim.compute_units;
  unsigned *cores = malloc(total * sizeof *cores), *group_of = malloc(total * sizeof *group_of);
  unsigned *chosen = malloc(total * sizeof *chosen);
  int *ids = malloc(total * sizeof *ids), *group_ids = malloc(total * sizeof *group_ids);
  cl_device_partition_property *used = malloc(num_props * sizeof *used);
  cl_int err = CL_SUCCESS;
  unsigned n = 0, groups = 0;
  if (!cores || !group_of || !chosen || !ids || !group_ids || !used) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto done;
  }
  memcpy(used, props, num_props * sizeof *used);
  n = cores_of(dev, cores);
  /* group_of[i]: the sub-device core i goes to (UINT32_MAX: none) */
  if (p->type == CL_DEVICE_PARTITION_EQUALLY) {
    /* one sub-device of every unit would be the device again: not a
     * further partition (the CTS's negative test asks for
     * CL_DEVICE_PARTITION_FAILED then) */
    groups = p->per_device < n ? n / p->per_device : 0;
    for (unsigned i = 0; i < n; i++)
      group_of[i] = i / p->per_device < groups ? i / p->per_device : UINT32_MAX;
  } else if (p->type == CL_DEVICE_PARTITION_BY_COUNTS) {
    unsigned i = 0;
    for (cl_uint g = 0; g < p->num_counts; g++)
      for (cl_uint k = 0; k < p->counts[g] && i < n; k++) /* the api checked the sum */
        group_of[i++] = g;
    while (i < n)
      group_of[i++] = UINT32_MAX;
    groups = p->num_counts;
  } else { /* CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN */
    cl_device_affinity_domain level = p->domain;
    unsigned distinct = 0;
    if (level == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
      for (size_t l = 0; l < sizeof levels / sizeof *levels && distinct < 2; l++)
        if ((distinct = domains_at(dev, cores, n, levels[l], ids)) >= 2)
          level = levels[l];
    } else if ((distinct = domains_at(dev, cores, n, level, ids)) < 2) {
      err = CL_INVALID_VALUE; /* a level that does not split dev (or is not described) */
      goto done;
    }
    if (distinct >= 2) {
      used[1] = (cl_device_partition_property)level; /* NEXT_PARTITIONABLE made concrete */
      /* the groups in the order of their first core */
      for (unsigned i = 0; i < n; i++) {
        unsigned g = 0;
        while (g < groups && group_ids[g] != ids[i])
          g++;
        if (g == groups)
          group_ids[groups++] = ids[i];
        group_of[i] = g;
      }
    }
  }
  /* CL_DEVICE_PARTITION_FAILED: in_device could not be further partitioned */
  if (groups == 0) {
    err = CL_DEVICE_PARTITION_FAILED;
    goto done;
  }
  if (num_ret)
    *num_ret = groups;
  if (!out)
    goto done;
  /* CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
   * than the number of sub-devices created by the partition scheme */
  if (num_devices < groups) {
    err = CL_INVALID_VALUE;
    goto done;
  }
  if (p->type == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN && dev->ops->bind_cores)
    dev->ops->bind_cores(&dev->desc);
  for (unsigned g = 0; g < groups && err == CL_SUCCESS; g++) {
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
      if (group_of[i] == g)
        chosen[k++] = cores[i];
    if (!(out[g] = subdevice_new(dev, chosen, k, used, num_props))) {
      for (unsigned h = 0; h < g; h++)
        loom_release_ext(&out[h]->obj);
      err = CL_OUT_OF_HOST_MEMORY;
    }
  }
done:
  free(cores);
  free(group_of);
  free(chosen);
  free(ids);
  free(group_ids);
  free(used);
  return err;
}
