/* Work-item functions (OpenCL C 1.13.1). Out-of-range dimensions return the
 * spec's defaults: 0 for ids and offsets, 1 for sizes. */
#include "loom_builtins.h"

uint OVL get_work_dim(void) { return (uint)__loom_wi(LOOM_WI_WORK_DIM, 0); }

size_t OVL get_global_size(uint d) { return d < 3 ? __loom_wi(LOOM_WI_GLOBAL_SIZE, d) : 1; }
size_t OVL get_local_size(uint d) { return d < 3 ? __loom_wi(LOOM_WI_LOCAL_SIZE, d) : 1; }
size_t OVL get_enqueued_local_size(uint d) {
  return d < 3 ? __loom_wi(LOOM_WI_ENQ_LOCAL_SIZE, d) : 1;
}
size_t OVL get_num_groups(uint d) { return d < 3 ? __loom_wi(LOOM_WI_NUM_GROUPS, d) : 1; }
size_t OVL get_group_id(uint d) { return d < 3 ? __loom_wi(LOOM_WI_GROUP_ID, d) : 0; }
size_t OVL get_global_offset(uint d) { return d < 3 ? __loom_wi(LOOM_WI_GLOBAL_OFFSET, d) : 0; }
size_t OVL get_local_id(uint d) { return d < 3 ? __loom_wi(LOOM_WI_LOCAL_ID, d) : 0; }

size_t OVL get_global_id(uint d) {
  if (d >= 3)
    return 0;
  return __loom_wi(LOOM_WI_GROUP_ID, d) * __loom_wi(LOOM_WI_ENQ_LOCAL_SIZE, d) +
         __loom_wi(LOOM_WI_LOCAL_ID, d) + __loom_wi(LOOM_WI_GLOBAL_OFFSET, d);
}

size_t OVL get_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}

size_t OVL get_global_linear_id(void) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  return (z * get_global_size(1) + y) * get_global_size(0) + x;
}
