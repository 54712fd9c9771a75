/* loom-fuzz seed 3120218, line-reduced from the generated program. The
 * loop over j2 has a trip count that differs between work-items (no
 * barrier in the kernel), so wg-barriers runs it a block of unrolled
 * iterations per pass over the group (workgroup/loop_unroll.c). Its header
 * PHI for v3 takes j2's header PHI from the latch; the header PHIs were
 * rebuilt one at a time, and once j2's had been replaced, v3's came from
 * the first iteration of the block instead of the last: out[3] was 2 at
 * -cl-opt-disable and 0 optimised, where PoCL gives 3. All header PHIs are
 * now built before any is replaced (tests/ir/wg-barriers/
 * divergent-loop-phi-chain.ll; test_fuzz_regressions' phi chain).
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/divergent-loop-phi-chain.cl --seed 3120218 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static ushort8 h0(uint2 p0) {
  switch ((((uint)(((uchar)((p0).x))))) & 3u) {
  }
}
static int h1(short p0) {
  switch ((((uint)(hadd(((uchar)(p0)), ((uchar)0x0u))))) & 3u) {
  case 0u: {
    if (((int)((((ushort)(((uint)get_global_id(0)))) == ((ushort)(((uint)get_local_size(1))))) ? ((int)(((uint)get_global_size(1)))) : ((int)(((short)0xeu))))) < hadd(((int)(((uint)get_global_offset(0)))), ((int)(((ushort)(((uint)get_global_size(0)))))))) {
      int16 t0 = as_int16(((((uint16)((uint)(p0))) * ((uint16)(((uint)0x1u), ((uint)0x82d7c892u), ((uint)0xffffffffu), ((uint)0x0u), ((uint)0x1u), ((uint)0x0u), ((uint)0x1u), ((uint)0x80000000u), ((uint)0x394a7484u), ((uint)0x1u), ((uint)0x1u), ((uint)0x80000000u), ((uint)0xffffffffu), ((uint)0x80000000u), ((uint)0x1u), ((uint)0x0u)))) % (select(((uint16)(((uint8)((uint)(p0))), ((uint8)((uint)(((uint)get_global_id(1))))))), ((uint16)((uint)(p0))), (((uint16)((uint)(p0))) % (((uint16)((uint)(p0))) | (uint16)1))) | (uint16)1)));
    }
  }
  }
  return ((int)(((uint)get_local_id(2))));
}
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uint *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  ushort2 pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((ushort2)((ushort)(in[(gl * 3u + q) & 1023u])));
  ushort v0 = ((ushort)(((ulong)((pa[((uint)s.d) & 7u]).y)) >= ((ulong)0xeUL)));
  int v1 = ((int)((((int)(((ushort)(lsz))))) && (((int)(in[(((uint)0x66b7ca8cu)) & 1023u])))));
  uint v3 = ((uint)0x0u);
  ulong v4 = ((ulong)(((long)(v1)) == ((long)(v1))));
  for (uint j2 = 0u; j2 < ((((uint)((pa[(lid) & 7u]).s1))) & 7u); j2++) {
    v3 = j2;
    v0 += ((ushort)((((ushort)(in[(v3) & 1023u]))) && (((ushort)(h1(((short)(~(uint)(((short)0xffffu))))))))));
  }
  if (((long)sdiv_long(((long)(v4)), ((long)(in[(((uint)0x1u)) & 1023u]))))) {
    const uint n5 = (((uint)((as_int2(as_uint2(((int2)((int)(v1)))) - as_uint2(((int2)((int)(v1)))))).s0))) % 4u;
    for (uint i4 = 0u; i4 < n5; i4++) {
      {
        uint j6 = (i4) & 7u;
      }
    }
  } else {
    if (((long)0x1UL) > ((long)(lid))) {
      out[gl * 8u + 3u] = (uint)(v3);
      uint j7 = (((uint)((((uint)((v3) >> ((v3) & 31u)))) ? (uint)((uint)(((uint)0x7u)) % (uint)(((uint)((v3) >> ((v3) & 31u))))) : (uint)(((uint)0x7u))))) & 7u;
      while (j7 > 0u) {
        j7--;
      }
    }
  }
}