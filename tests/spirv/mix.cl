kernel void mix(global float *out, global const float *in, global int *counter, local float *tmp,
                int n) {
  size_t gid = get_global_id(0), lid = get_local_id(0);
  float x = in[gid];
  tmp[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  float neighbour = tmp[(lid + 1) % get_local_size(0)];
  float4 v = vload4(gid / 4, in);
  float r = sin(x) * 0.5f + sqrt(fabs(neighbour)) + dot(v, v) + (float)convert_int_sat(x * 3.0f);
  int total = work_group_reduce_add((int)(x > 0.0f));
  atomic_add(counter, 1);
  atomic_fetch_add_explicit((volatile global atomic_int *)counter + 1, (int)lid, memory_order_relaxed);
  out[gid] = r + (float)total + (gid < (size_t)n ? 1.0f : 0.0f);
}
