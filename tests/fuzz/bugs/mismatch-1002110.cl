/* loom-fuzz seed 1002110 (not reduced yet: loom-fuzz --emit 1002110). Open.
 * LoomCL at default optimisation gives other results than LoomCL
 * -cl-opt-disable and than PoCL 3.1, and not the same ones from run to run:
 * shape 0 (1d g=24 l=8), out[34] (work-item 4, slot 2) was 0xffff7bcd against
 * -cl-opt-disable's 0x00000000 in one run, 0x00000000 against PoCL's
 * 0x00000048 in another. A race or a read of undefined memory: LoomCL's, or
 * undefined behaviour the generator let through; to be reduced and decided.
 * Reproduce: loom-fuzz --seed 1002110 --count 1 --reference pocl (with PoCL's
 * .icd beside LoomCL's in OCL_ICD_VENDORS), or --reference O0 */
/* loom-fuzz seed 1002110 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static int sdiv_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int smod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long smod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uchar4 *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __local uint2 lb0[256];
  __local uchar lb1[256];
  __local int lc[8];
  long4 pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((long4)((long)(in[(gl * 3u + q) & 1023u])));
  ulong v0 = ((ulong)(in[(((uint)0x0u)) & 1023u]));
  ulong v1 = ((ulong)(((uint)(v0))));
  short2 v2 = ((short2)((short)(v0)));
  atomic_or(&acc[6], (int)(((uint)((((uint)(v1))) ? (uint)((uint)(hadd(((uint)0x80000000u), ((uint)(v1)))) / (uint)(((uint)(v1)))) : (uint)(hadd(((uint)0x80000000u), ((uint)(v1))))))));
  lb0[lid] = rotate(vload2((((uint)0x6e0cdde0u)) & 511u, in), bitselect(bitselect(((uint2)(((uint)0xffffffffu), ((uint)0xffffffffu))), ((uint2)((uint)(gl))), convert_uint2(v2)), min(((uint2)((uint)(v0))), ((uint2)((uint)(lsz)))), (convert_uint2((pa[(((uint)(v0))) & 7u]).s20) | ((uint2)((uint)(v0))))));
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((((uint)((((uint)(v1))) >> ((((uint)((pa[(in[(((uint)0x7u)) & 1023u]) & 7u]).s2))) & 31u)))) & 8u)
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    uint j0 = (((uint)0x1u)) & 7u;
    while (j0 > 0u) {
      j0--;
    }
  }
  if (((ushort)(((long)(lsz)) != ((long)((v2).s1)))) > rotate(((ushort)((((short16)(((short)0x8000u), ((short)0xffffu), ((short)0xffffu), ((short)0x1u), ((short)0x0u), ((short)0x1u), ((short)0x4092u), ((short)0xffffu), ((short)0xffffu), ((short)0x0u), ((short)0x8000u), ((short)0x8000u), ((short)0xffffu), ((short)0x8000u), ((short)0x8000u), ((short)0x0u)))).s7)), select(((ushort)(in[(((uint)0x3ffc1791u)) & 1023u])), ((ushort)(v1)), ((ushort)(lid))))) {
  }
  atomic_min(&acc[9], (int)(mad_sat(((uint)0xffffffffu), ((uint)((uint)(((uint)((v2).s0))) + (uint)(((uint)0xffffffffu)))), sub_sat(((uint)0xffffffffu), ((uint)get_local_size(1))))));
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (((ulong)((uint)u1)) <= ((ulong)((pa[(in[(((uint)(v0))) & 1023u]) & 7u]).x))) {
    pa[(((uint)0xeu)) & 7u] = convert_long4((~as_ulong4(((as_ulong4(pa[(gl) & 7u]) ^ convert_ulong4((v2).s1010)) <= ((ulong4)(((ulong)0x1UL), ((ulong)0x7UL), ((ulong)0xaUL), ((ulong)0xffffffffffffffffUL)))))));
  } else {
    {
      uint j1 = (((uint)((((char4)((char)(v1)))).s1))) & 7u;
      while (j1 > 0u) {
        j1--;
      }
    }
  }
  lb0[lid] = (((uint2)(((uint)0x80000000u), ((uint)0x1u))) & vload2((((uint)(v1))) & 511u, in));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint r2 = 1u; r2 < lsz; r2 <<= 1) {
    if ((lid % (2u * r2)) == 0u && lid + r2 < lsz)
      lb0[lid] = lb0[lid] & lb0[lid + r2];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  v1 = ((ulong)((ulong)(((ulong)0x8000000000000000UL)) * (ulong)(((ulong)(u0)))));
  uchar t3 = ((uchar)(((uint)get_local_id(0))));
  if ((((uint)(((int)(lsz))))) & 1u) {
    t3 = ((uchar)(((uint)get_group_id(1))));
  }
  ushort t4 = ((ushort)(v1));
  const uint n6 = ((((uint)((((ushort2)(((ushort)0x0u)))).x)) | ((uint)((v2).s1)))) % 3u;
  for (uint i5 = 0u; i5 < n6; i5++) {
    {
      uint j7 = (popcount(i5)) & 3u;
      do {
        if (t4) {
          t3 |= ((uchar)((pa[(in[(s.a) & 1023u]) & 7u]).w));
          atomic_max(&acc[10], (int)(((uint)(v1))));
          for (uint j8 = 0u; j8 < ((((uint)((uint)(((uint)(v1))) << ((((uint)(v1))) & 31u)))) & 7u); j8++) {
            t3 = bitselect(mul_hi(((uchar)0x1u), ((uchar)((uint)(t3) << ((j8) & 31u)))), min(t3, ((uchar)0x0u)), t3);
            uchar t9 = ((uchar)((pa[(((uint)get_global_offset(1))) & 7u]).s0));
            int4 t10 = convert_int4(pa[(i5) & 7u]);
          }
        } else {
        }
      } while (j7-- != 0u);
    }
  }
  out[gl * 8u + 0u] = (uint)((ulong)(v0) ^ ((ulong)(v0) >> 32));
  out[gl * 8u + 1u] = (uint)((ulong)(v1) ^ ((ulong)(v1) >> 32));
  out[gl * 8u + 2u] = ((uint)(v2).s0 * 1u + (uint)(v2).s1 * 3u);
}
