kernel void async_copy(global const int *src, global int *dst, local int *tmp) {
  size_t g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  tmp[l] = tmp[l] * 2 + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(dst + g * n, tmp, n, 1, 0);
  wait_group_events(1, &e);
}
