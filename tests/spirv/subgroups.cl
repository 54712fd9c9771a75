kernel void sg(global int *o) {
  size_t i = get_global_id(0);
  int v = (int)(i * 3 % 7);
  o[i * 4] = sub_group_reduce_add(v);
  o[i * 4 + 1] = sub_group_non_uniform_scan_inclusive_add(v);
  o[i * 4 + 2] = (int)sub_group_ballot(v > 3).x;
  o[i * 4 + 3] = intel_sub_group_shuffle(v, 1u);
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg8(global int *o) {
  size_t i = get_global_id(0);
  o[i * 2] = (int)get_sub_group_size();
  o[i * 2 + 1] = sub_group_reduce_add((int)i);
}
