/* FIXED (pass hoist-divisions; test_fuzz_regressions: test_invariant_division_in_branch).
 * Cause: LLVM 19's loop vectoriser computes the loop-invariant `x % lsz` in a
 * conditional block for lane 0 only and reads every lane's la[] through lane
 * 0's address, poison when lane 0 skips the branch (here the division became
 * invariant once the local size was a constant).
 * loom-fuzz seeds 1000126 and 1001512 (this one from 1000126 by cvise, partly: the reduction was still
 * running at /tmp/red126/k.cl). The original kernel (loom-fuzz --emit 1000126)
 * is well defined and PoCL and LoomCL -cl-opt-disable agree on it.
 * A kernel with barriers, launched twice with local size 60 (1D, global 180
 * then 180): the first launch is right; the second launch, which runs the code
 * LoomCL specialises for that local size, faults: "LoomCL: kernel 'k' faulted
 * (signal 11) in work-group 0", event status CL_OUT_OF_RESOURCES.
 * LOOMCL_SPECIALIZE=0: no fault, results match. So: the local-size
 * specialisation (wg-specialize and what runs after it) miscompiles this.
 * (The reduction reads __local memory before writing it and has an
 * unreachable switch: cvise's doing; the fault does not depend on values.)
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/specialized-fault.cl --seed 1000126 --reference O0
 *   -> FAIL ... kind=run-error LoomCL launch error -5, shape 1 (1d g=180x1x1 l=60x1x1 ...) */
struct P {
  ulong e;
  int b;
  uchar d;
  uint g
};
__kernel void k(__global uint *in, __global uint *, __global int *acc, __local uint *la, struct P s,
                uint u0, int u1) {
  const uint lid =
      get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * 0;
  char pa[8];
  for (uint q = 0u; q < 8u; q++)
    pa[q] = ((in[(gl * 3u + q) & 1023u]));
  long v6 = 0;
  ushort4 v7 = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  la[lid] = 0;
  v7 = (((la[0 % lsz])));
  uint j2 = 0 & 7u;
  while (j2 > 0u) {
    j2--;
    v6 = clz(0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (0 < ((short)(((((ushort8)(0, (0x6abeu), 0, 0, 0, 0, (0xb48u), 0)) * (((pa[0 & 7u]))))).s6)))
    v7 = (((la[(((uint)get_global_offset(0))) % lsz])));
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    uint j5 = 0 & 7u;
    while (j5 > 0u) {
      j5--;
      if (((v6)) != 0)
        v6 = (((uint)s.d));
      switch (((((((0 | (((uint)(pa)))))) << 0))) & 3u) {
      default:
        v7 += clz(((ushort4)0));
      case 0u:
      }
    }
  }
}
