/* FIXED (pass shift-lanes; test_fuzz_regressions: test_shift_poison_lane).
 * loom-fuzz seed 1004659, reduced by hand. out[3] was 0xffffffff, which no
 * ushort can be (LoomCL -cl-opt-disable and PoCL: 0xfffe). The two uniform
 * values stored side by side became one SLP vector computing
 * ashr <24, 65535> and and <_, 65535> with a shuffle picking lane 0 of the
 * first and lane 1 of the second; the shift's lane 1 is poison, which LLVM
 * 19's x86 back end took for zero, merging the two with VPOR, while VPSRAVD
 * filled that lane with sign bits.
 * Reproduce: loom-fuzz --file shift-poison-lane.cl --seed 1004659 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uchar2 *la, struct P s, uint u0, int u1) {
  uint g = get_global_id(0);
  char c = (char)u0;
  ushort u = (ushort)(0u - get_work_dim());
  out[g * 8u + 2u] = (uint)c;
  out[g * 8u + 3u] = (uint)u;
}
