/* FIXED (builtins/common.cl; test_fuzz_regressions: test_abs_most_negative).
 * loom-fuzz seed 1003421, reduced by hand and a line-deleting script whose
 * test was valgrind's "uninitialised value" report. Results differed from run
 * to run, at -O0 too: out[4] was 0 or 0x00007fxx (leftover pointer bits).
 * Cause: abs(int) computed -x in int; abs(INT_MIN) (defined: 2^31 as a uint)
 * is a signed overflow there, which LLVM folded to poison once the value was
 * a constant, and InstCombine deletes stores of poison: lb0[lid] was never
 * written and the read after the barrier saw stale __local memory. mul24 and
 * mad24 multiplied in int the same way. PoCL 3.1 gives 0 here: its abs has
 * the same flaw (its __local memory happened to hold zeros).
 * Reproduce (before the fix): valgrind loom-fuzz --file abs-most-negative.cl
 *   --seed 1003421 --reference O0 --no-fork */
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local ushort16 *la, struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; } s,
                uint u0, int u1) {
  const uint lid = get_local_id(0);
  const uint lsz = get_local_size(0);
  const uint gl = get_global_id(0) - get_global_offset(0);
  __local uint4 lb0[256];
  int v0 = ((int)0x80000000u);
  int v4 = 0;
  lb0[lid] = (uint4)0xffu ^ (uint4)((uint)((int)abs(v0)));
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 = (int)(lb0[0 % lsz].y);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gl * 8u + 4u] = (uint)(v4);
}
