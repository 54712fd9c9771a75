/* loom-fuzz seed 3341278, reduced: the switch on pa[7].s8 & 3 shares blocks
 * between cases; at -cl-opt-disable its phi (v1) passed for uniform and was
 * kept in one slot for the group across the barrier in xchg (see
 * test_fuzz_regressions, test_switch_shared_cases). */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static int sdiv_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int smod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long smod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static uint xchg(__local uint *l, uint lid, uint lsz, uint v, uint k) {
  uint r = l[(lid + k) % lsz];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static ushort4 h0(ulong p0, ushort p1, struct P ps) {
  uint sx = ps.a ^ (uint)ps.e ^ (uint)ps.b ^ ps.c;
  {
    uint j0 = (((uint)(((((ulong8)((ulong)(((uint)get_global_id(2))))) & ((ulong8)((ulong)(p0))))).s2))) & 3u;
    do {
      {
        uint j1 = (sx) & 7u;
        while (j1 > 0u) {
          j1--;
        }
      }
    } while (j0-- != 0u);
  }
  return ((ushort4)((ushort)(p0)));
}
static int h1(long3 p0, struct P ps) {
  uint sx = ps.a ^ (uint)ps.e ^ (uint)ps.b ^ ps.c;
  if (((long)0x0UL)) {
    int3 t2 = (((int3)((int)(((ushort)((p0).s2))))) < ((int3)((int)(sx))));
  }
  short t3 = ((short)0x2024u);
  if ((clz(((uint)get_local_id(0)))) & 2u) {
  } else {
  }
  return ((int)(((long)(sub_sat(((short)0x8000u), ((short)((p0).y))) < ((short)(((int)((p0).x))))))));
}
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uint *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __local uint2 lb0[256];
  __local int lc[8];
  __local uint lx[256];
  long16 pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((long16)((long)(in[(gl * 3u + q) & 1023u])));
  uchar v0 = ((uchar)0xffu);
  uint v1 = ((uint)(v0));
  char4 v2 = convert_char4((~clamp(((uchar4)((uchar)(v1))), min(((uchar4)(((uchar)0x19u), ((uchar)0x0u), ((uchar)0xffu), ((uchar)0xb6u))), ((uchar4)(((uchar)0x0u), ((uchar)0x1u), ((uchar)0x1u), ((uchar)0x80u)))), max(((uchar4)(((uchar)0x19u), ((uchar)0x0u), ((uchar)0xffu), ((uchar)0xb6u))), ((uchar4)(((uchar)0x0u), ((uchar)0x1u), ((uchar)0x1u), ((uchar)0x80u)))))));
  char2 v3 = ((char2)(((char)0x9u)));
  if (((int)(((short)((v3).s0)) < ((short)((((uint4)((uint)(v0)))).s0))))) {
  } else {
  }
  switch ((((uint)((pa[(v1) & 7u]).s8))) & 3u) {
  case 0u: {
  }
  case 1u: {
    atomic_min((volatile __global uint *)&acc[12], ((uint)0xffffffffu));
  }
    break;
  case 2u: {
  }
  default: {
    v1 = ((uint)((((uint)(((convert_ulong4_sat(v2) / (((ulong4)(((ulong)0x4UL), ((ulong)0x4UL), ((ulong)0xaUL), ((ulong)0x9UL))) | (ulong4)1))).s0))) || (((uint)(((((ulong)0x5UL) | ((ulong)((v3).s0))) <= ((ulong)((v2).x))) ? ((uint)(((short)((v2).w)))) : ((uint)((uint)(((uint)0x80000000u)) * (uint)(((uint)((pa[(((uint)((v3).s1))) & 7u]).sa))))))))));
  }
    break;
  }
  v2 = ((char4)((char)(xchg(lx, lid, lsz, ((uint)((h0(((ulong)((ulong)(((ulong)0x0UL)) ^ (ulong)(((ulong)(((uint)get_group_id(2))))))), ((ushort)(((uint)get_global_id(2)))), s)).x)), ((uint)get_local_size(2))))));
  out[gl * 8u + 1u] = (uint)(v1);
}
