kernel void dims(global ulong *o, uint d) {
  size_t i = get_global_id(0);
  if (i == 0 && get_global_id(1) == 0) {
    o[0] = get_global_size(d);
    o[1] = get_local_size(d);
    o[2] = get_global_id(d);
    o[3] = get_num_groups(d);
    o[4] = get_global_size(4);
  }
}
