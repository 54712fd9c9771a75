/* loom-fuzz seed 2000195 (generated, not reduced). The kernel has no barrier
 * and several divergent loops (the helpers' while and do-while loops, inlined).
 * Pass wg-barriers (divergent_loops.c) unrolls each qualifying loop in turn
 * without redoing its analysis, and the check of a later loop followed
 * successors into the blocks the unrolling of an earlier one had made: not in
 * the analysis, so their index SIZE_MAX read 1 byte before an array (heap
 * corruption: "double free or corruption", AddressSanitizer a heap overflow
 * in finish_without_loop). Unknown blocks now count as loop blocks.
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/divergent-loops-new-blocks.cl --seed 2000195 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static int sdiv_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int smod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long smod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static uint xchg(__local uint *l, uint lid, uint lsz, uint v, uint k) {
  l[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = l[(lid + k) % lsz];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static int2 h0(short p0, short p1, struct P ps) {
  ps.a += ((uint)(p0));
  uint sx = ps.a ^ (uint)ps.e ^ (uint)ps.b ^ ps.c;
  p1 = ((short)(((uint)get_global_id(0))));
  {
    uint j0 = (((uint)(0u - (uint)(sx)))) & 7u;
    while (j0 > 0u) {
      j0--;
      p0 = p1;
      p0 = ((short)0x3b68u);
      uchar t1 = ((uchar)(p1));
    }
  }
  {
    uint j2 = (((uint)((((short)((uint)(((short)(((uint)get_global_id(2))))) | (uint)(((short)0x0u)))) < mul_hi(((short)(((uint)get_local_size(2)))), p0)) ? ((uint)(0u - (uint)(((uint)get_global_size(0))))) : (((uint)0x1u) ^ sx)))) & 3u;
    do {
      sx *= ((uint)get_num_groups(2));
      sx &= sx;
    } while (j2-- != 0u);
  }
  return popcount(as_int2((~((uint2)((uint)(sx))))));
}
static ushort4 h1(char p0, struct P ps) {
  ps.a += ((uint)(p0));
  uint sx = ps.a ^ (uint)ps.e ^ (uint)ps.b ^ ps.c;
  p0 = p0;
  p0 = p0;
  ushort t3 = ((ushort)((((ulong)(((char)abs_diff(p0, p0)))) != ((ulong)((((ulong)(sx))) >> ((((uint)(p0 > ((char)(sx))))) & 63u)))) ? ((ushort)0x1u) : clamp(((ushort)(p0)), min(((ushort)(((uint)get_local_size(2)))), ((ushort)(((uint)get_global_id(1))))), max(((ushort)(((uint)get_local_size(2)))), ((ushort)(((uint)get_global_id(1))))))));
  long t4 = ((long)(p0));
  return (rotate(((ushort4)(((ushort2)((ushort)(p0))), ((ushort2)((ushort)(sx))))), ((ushort4)(((ushort2)(((ushort)0x90b7u), ((ushort)0xffffu))), ((ushort2)((ushort)(sx)))))) << ((((ushort4)((ushort)(sx))) / (((ushort4)((ushort)(sx))) | (ushort4)1)) ^ ((ushort4)((ushort)(((uint)get_global_id(0)))))));
}
static long4 h2(long2 p0, int p1) {
  {
    uint j5 = (min(((uint)(((short)(((uint)get_local_id(0)))))), rotate(((uint)((p0).s0)), ((uint)0x0u)))) & 3u;
    do {
      p1 = ((int)((((uchar)0x1u) != ((uchar)((uint)(((uchar)(p1))) % ((uint)(((uchar)(p1))) | 1u)))) ? ((int)0xf6034c74u) : ((int)sdiv_int(((int)((uint)(((int)(((uint)get_local_id(1))))) ^ (uint)(p1))), ((int)((uint)(p1) & (uint)(((int)((p0).s1)))))))));
    } while (j5-- != 0u);
  }
  p1 = ((int)0x0u);
  p0.s10 = mad_sat(as_long2(abs(clz(((long2)(((long)0x1UL), ((long)0x1UL)))))), convert_long2(((((ulong2)((ulong)(p1))) & ((ulong2)((ulong)(p1)))) >> (((ulong2)((ulong)(p1))) - ((ulong2)(((ulong)0xffffffffffffffffUL), ((ulong)0x0UL)))))), ((long2)((long)(((uint)get_global_id(0))))));
  return (p0).s0011;
}
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uchar *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __local int lc[8];
  __local uint lx[256];
  long pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((long)(in[(gl * 3u + q) & 1023u]));
  ushort v0 = clamp(((ushort)(pa[(((uint)0x1u)) & 7u])), min(((ushort)(((ushort)0x0u) == ((ushort)0x556u))), ((ushort)((((long)0xfUL) != ((long)0xe6669957accef9e8UL)) ? ((ushort)(pa[(((uint)(pa[(((uint)(pa[(((uint)0x1u)) & 7u]))) & 7u]))) & 7u])) : ((ushort)(pa[(((uint)0x0u)) & 7u]))))), max(((ushort)(((ushort)0x0u) == ((ushort)0x556u))), ((ushort)((((long)0xfUL) != ((long)0xe6669957accef9e8UL)) ? ((ushort)(pa[(((uint)(pa[(((uint)(pa[(((uint)0x1u)) & 7u]))) & 7u]))) & 7u])) : ((ushort)(pa[(((uint)0x0u)) & 7u]))))));
  ulong4 v1 = select((convert_ulong4_sat(vload4((((uint)(v0))) & 255u, in)) * ((ulong4)((ulong)(v0)))), (~((ulong4)((ulong)(pa[(lsz) & 7u])))), as_ulong4(abs_diff(((ulong4)(((ulong)0x0UL))), ((ulong4)((ulong)(pa[(((uint)get_global_size(0))) & 7u]))))));
  long v2 = ((long)0x0UL);
  short v3 = ((short)((h0(((short)((((int2)((int)(((uint)get_global_offset(0)))))).y)), ((short)(((ulong)(v2)))), s)).s0));
  ushort v4 = ((ushort)((uint)(((ushort)(v2))) ^ (uint)(((ushort)(v2)))));
  short16 v5 = (((short16)(((short)0x0u), ((short)0x9870u), ((short)0xffffu), ((short)0x1u), ((short)0xffffu), ((short)0x0u), ((short)0xeefau), ((short)0x0u), ((short)0x0u), ((short)0xdu), ((short)0x8000u), ((short)0x1u), ((short)0x0u), ((short)0xffffu), ((short)0x8000u), ((short)0xe0e1u))) == ((short16)(((short)0x0u))));
  v5 = as_short16((convert_ushort16(v5) % (((ushort16)(((ushort)0xffffu), ((ushort)0xffffu), ((ushort)0x1u), ((ushort)0x5u), ((ushort)0x1u), ((ushort)0xe9eeu), ((ushort)0x1u), ((ushort)0xeu), ((ushort)0x8000u), ((ushort)0xffffu), ((ushort)0x7760u), ((ushort)0xdcc8u), ((ushort)0xffffu), ((ushort)0x0u), ((ushort)0xffffu), ((ushort)0x1u))) | (ushort16)1)));
  if (((ulong)(v2)) >= clamp(popcount(((ulong)0xfUL)), min(((ulong)(in[(((uint)(0u - (uint)(((uint)(v0)))))) & 1023u])), ((ulong)((((char)0x1u) < ((char)(((uint)get_group_id(2))))) ? ((ulong)(v2)) : ((ulong)(v3))))), max(((ulong)(in[(((uint)(0u - (uint)(((uint)(v0)))))) & 1023u])), ((ulong)((((char)0x1u) < ((char)(((uint)get_group_id(2))))) ? ((ulong)(v2)) : ((ulong)(v3))))))) {
    v1.s3 = ((ulong)(get_work_dim()));
    switch ((min(max(((uint)0x0u), ((uint)((v5).s7))), ((uint)(((int)(v4)))))) & 3u) {
    case 0u: {
      if ((((uint)((uint)(mad_sat(((uint)0x0u), in[(((uint)((v5).sc))) & 1023u], ((uint)get_global_offset(0)))) << ((hadd(((uint)(pa[((uint)u1) & 7u])), ((uint)((v1).s2)))) & 31u)))) & 2u) {
        atomic_xor(&acc[5], (int)(((uint)((v1).z))));
        v3 = ((short)(pa[((uint)s.d) & 7u]));
      }
      v0 &= ((ushort)((uint)(((ushort)(lsz))) + (uint)(((ushort)((as_int16(as_uint16(convert_int16((v1).s3031220020032233)) | as_uint16(((int16)(((int)0x1u), ((int)0xffffffffu), ((int)0x1u), ((int)0xffffffffu), ((int)0x5u), ((int)0xdu), ((int)0xd52e7ec8u), ((int)0xbu), ((int)0x80000000u), ((int)0x80000000u), ((int)0xffffffffu), ((int)0x3d0fbd76u), ((int)0x0u), ((int)0xffffffffu), ((int)0x0u), ((int)0x1u)))))).sf)))));
    }
      break;
    case 1u: {
      v1 = (popcount((convert_ulong4(vload4((((uint)(v2))) & 255u, in)) - ((ulong4)(((ulong)0x6f27defa39bbe341UL))))) ^ (sub_sat(((ulong4)(((ulong)0xb29990e65c5b189bUL))), ((ulong4)(((ulong)0xffffffffffffffffUL)))) + (v1 / (convert_ulong4(vload4((((uint)((v1).w))) & 255u, in)) | (ulong4)1))));
      v1 = (((ulong4)((ulong)(in[(((uint)(v4))) & 1023u]))) >> (~(((ulong4)((ulong)(in[(((uint)0x0u)) & 1023u]))) ^ convert_ulong4(vload4((((uint)((v5).s2))) & 255u, in)))));
    }
    case 2u: {
      v3 = select(((short)((h0(((short)((uint)(((short)0x7u)) + (uint)(((short)0x1u)))), ((short)(pa[(((uint)((v5).sd))) & 7u])), s)).y)), ((short)((((short)((((ushort)0x8000u) != ((ushort)((v1).s2))) ? v3 : ((short)((v5).s6))))) || (((short)abs_diff(((short)(in[(((uint)get_global_offset(0))) & 1023u])), ((short)(v0))))))), ((short)((v5).s1)));
      short2 t6 = (as_short2(as_ushort2((((short2)(((short)0x0u), ((short)0x8000u))) >= ((short2)(((short)0x10c5u), ((short)0x3u))))) - as_ushort2(convert_short2((~((ushort2)((ushort)(v3))))))) != ((short2)((short)(((ulong)(((short)(pa[(((uint)(pa[(((uint)(v4))) & 7u]))) & 7u]))))))));
    }
      break;
    default: {
      pa[(((uint)0xffffffffu)) & 7u] = ((long)((h1(((char)(v2)), s)).s2));
      v3 = ((short)(((ulong)(((char)(gl))))));
    }
    }
    v0 &= ((ushort)((uint)(rhadd(((ushort)(((uint)(v0)) >= ((uint)(pa[(((uint)((v5).s8))) & 7u])))), ((ushort)0x8000u))) + (uint)(((ushort)0x8u))));
  } else {
    if ((((uint)abs(((uint)((h1(((char)(v0)), s)).y))))) & 2u) {
      v1.s3 = ((ulong)(0u - (ulong)(((ulong)(((uint)get_local_id(1)))))));
      v3 = ((short)((((~((ushort4)(((ushort)0xbu)))) % (((ushort4)((ushort)(v3))) | (ushort4)1))).s1));
      if (((long)(in[(((uint)((v1).y))) & 1023u])) <= ((long)((((uint)(v3)) * ((uint)(v4)))))) {
        v0 = v4;
      } else {
        switch ((((uint)((hadd(((uint)0x5cc53e31u), (uint)u1) == ((uint)(((ushort)(in[((uint)u1) & 1023u]))))) ? ((uint)((((ushort)(((uint)get_local_id(0)))) <= v0) ? ((uint)0x4u) : ((uint)((v1).s2)))) : ((uint)((uint)(((uint)(pa[(((uint)((v5).s1))) & 7u]))) ^ (uint)(gl)))))) & 3u) {
        case 0u: {
          v0 = ((ushort)((uint)u1));
          v0 = ((ushort)((h1(((char)(get_work_dim())), s)).w));
        }
        case 1u: {
          pa[(rotate(((uint)(v0)), ((uint)((((uint)0x0u)) >> ((((uint)(v4))) & 31u))))) & 7u] = pa[(((uint)0x0u)) & 7u];
          ulong4 t7 = mad_sat(convert_ulong4(vload4((gl) & 255u, in)), ((ulong4)(convert_ulong2((h2(((long2)((long)(s.g))), ((int)(lid)))).s11), ((ulong2)((ulong)(pa[(((uint)((v5).sc))) & 7u]))))), v1);
        }
        case 2u: {
          v1.s0 = rhadd(((ulong)(popcount(v2) <= ((long)(v4)))), ((ulong)abs_diff(((ulong)((convert_ushort4(v1)).s1)), clamp(((ulong)((v1).s2)), min(((ulong)((uint)s.b)), ((ulong)(v2))), max(((ulong)((uint)s.b)), ((ulong)(v2)))))));
        }
        default: {
        }
          break;
        }
      }
    }
  }
  out[gl * 8u + 0u] = (uint)(v0);
  out[gl * 8u + 1u] = ((uint)((ulong)(v1).s0 ^ ((ulong)(v1).s0 >> 32)) * 1u + (uint)((ulong)(v1).s1 ^ ((ulong)(v1).s1 >> 32)) * 3u + (uint)((ulong)(v1).s2 ^ ((ulong)(v1).s2 >> 32)) * 5u + (uint)((ulong)(v1).s3 ^ ((ulong)(v1).s3 >> 32)) * 7u);
  out[gl * 8u + 2u] = (uint)((ulong)(v2) ^ ((ulong)(v2) >> 32));
  out[gl * 8u + 3u] = (uint)(v3);
  out[gl * 8u + 4u] = (uint)(v4);
  out[gl * 8u + 5u] = ((uint)(v5).s0 * 1u + (uint)(v5).s1 * 3u + (uint)(v5).s2 * 5u + (uint)(v5).s3 * 7u + (uint)(v5).s4 * 9u + (uint)(v5).s5 * 11u + (uint)(v5).s6 * 13u + (uint)(v5).s7 * 15u + (uint)(v5).s8 * 17u + (uint)(v5).s9 * 19u + (uint)(v5).sa * 21u + (uint)(v5).sb * 23u + (uint)(v5).sc * 25u + (uint)(v5).sd * 27u + (uint)(v5).se * 29u + (uint)(v5).sf * 31u);
}
