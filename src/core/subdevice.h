/* Sub-devices (subdevice.c). */
#ifndef LOOM_SUBDEVICE_H
#define LOOM_SUBDEVICE_H
#include "loom.h"

/* A partition request as the api parsed and checked it. */
struct loom_partition {
  cl_device_partition_property type; /* CL_DEVICE_PARTITION_EQUALLY, _BY_COUNTS or _BY_AFFINITY_DOMAIN */
  cl_uint per_device;                /* EQUALLY: compute units per sub-device (>= 1) */
  const cl_uint *counts;             /* BY_COUNTS: the non-zero counts, adding up to at */
  cl_uint num_counts;                /* most the device's compute units */
  cl_device_affinity_domain domain;  /* BY_AFFINITY_DOMAIN: one level, or NEXT_PARTITIONABLE */
};

/* Splits dev as p says. props (num_props entries with the terminating 0)
 * is the list the application gave, which each sub-device reports (with
 * NEXT_PARTITIONABLE replaced by the level used). *num_ret (if given)
 * receives the number of sub-devices; with out, they are created there
 * (one application reference each). CL_DEVICE_PARTITION_FAILED when dev
 * cannot be split that way, CL_INVALID_VALUE for an affinity level that
 * does not split dev or num_devices too small,
 * CL_OUT_OF_HOST_MEMORY. */
cl_int loom_device_partition(cl_device_id dev, const struct loom_partition *p,
                             const cl_device_partition_property *props, size_t num_props,
                             cl_uint num_devices, cl_device_id *out, cl_uint *num_ret) LOOM_HIDDEN;

/* true when code built for a runs on b: both are a root device or its
 * sub-devices (the same machine code; each runs it on its own cores) */
bool loom_devices_share_code(cl_device_id a, cl_device_id b) LOOM_HIDDEN;

/* The affinity levels dev's cores can be split along
 * (CL_DEVICE_PARTITION_AFFINITY_DOMAIN): those the machine describes that
 * give dev at least two groups, and NEXT_PARTITIONABLE with them; 0 when
 * none does. A level with one group (one NUMA node, a shared L3) is not
 * offered: "partitioning" along it would give the device back, and the
 * CTS expects every offered level to partition. */
cl_device_affinity_domain loom_device_affinity_domains(cl_device_id dev) LOOM_HIDDEN;

#endif
