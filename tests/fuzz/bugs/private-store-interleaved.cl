/* FIXED (no interleaved access groups: vectorize/outer_loop.c;
 * test_fuzz_regressions: test_private_store_then_load).
 * loom-fuzz seed 1007124, reduced by a line-deleting script (its test:
 * mismatch against -cl-opt-disable, none with LOOMCL_SPECIALIZE=0). Wrong
 * from the second launch on (local size 60): the code specialised for the
 * local size read pa[7] in one strided load with pa[6], placed before the
 * store pa[pa[6] & 7] = 1. LLVM 19's loop access analysis records no
 * dependences for a loop annotated parallel, so the vectoriser's interleaved
 * groups took the store and the load as reorderable. PoCL 3.1 gives the same
 * wrong values at its default optimisation (right with -cl-opt-disable).
 * (xchg has lost its return: the reduction's doing; it is never called.)
 * Reproduce: loom-fuzz --file private-store-interleaved.cl --seed 1007124 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static uint xchg(__local uint *l, uint lid, uint lsz, uint v, uint k) {
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uchar *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __local ushort3 lb0[256];
  __local ulong2 lb1[256];
  __local int lc[8];
  __local uint lx[256];
  char pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((char)(in[(gl * 3u + q) & 1023u]));
  long v0 = ((long)(((ulong)(((uint)get_num_groups(0)))) >= ((ulong)((ulong)(((ulong)0x51879fd5a65e121dUL)) & (ulong)(((ulong)((uint)u1)))))));
  ushort4 v1 = ((ushort4)(((ushort)0x0u), ((ushort)0x7u), ((ushort)0x1u), ((ushort)0xffffu)));
  ulong v2 = ((ulong)((v1).s1));
  char2 v3 = convert_char2(((~((uchar2)((uchar)(get_work_dim())))) % ((((uchar2)((uchar)(v0))) * ((uchar2)((uchar)(v0)))) | (uchar2)1)));
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 = ((char2)(((char)0x5eu), ((char)0xffu)));
  if (((ulong)((v3).x))) {
    pa[(((uint)((((uint)((((uint)((v1).z))) ? (uint)((uint)(((uint)0xffffffffu)) / (uint)(((uint)((v1).z)))) : (uint)(((uint)0xffffffffu))))) ? (uint)((uint)(((uint)((((uint)(v0))) ? (uint)((uint)(((uint)(pa[(((uint)((v3).x))) & 7u]))) / (uint)(((uint)(v0)))) : (uint)(((uint)(pa[(((uint)((v3).x))) & 7u])))))) % (uint)(((uint)((((uint)((v1).z))) ? (uint)((uint)(((uint)0xffffffffu)) / (uint)(((uint)((v1).z)))) : (uint)(((uint)0xffffffffu)))))) : (uint)(((uint)((((uint)(v0))) ? (uint)((uint)(((uint)(pa[(((uint)((v3).x))) & 7u]))) / (uint)(((uint)(v0)))) : (uint)(((uint)(pa[(((uint)((v3).x))) & 7u]))))))))) & 7u] = ((char)((((char)((v1).s0))) || (clamp(((char)0x1u), min(((char)(v0)), ((char)(v2))), max(((char)(v0)), ((char)(v2)))))));
    la[lid] = ((uchar)((uint)(((uchar)(pa[(((uint)(pa[(((uint)0xffffffffu)) & 7u]))) & 7u]))) | (uint)(((uchar)((uint)u1)))));
    barrier(CLK_LOCAL_MEM_FENCE);
    v1 = ((ushort4)((ushort)(la[(gl) % lsz])));
    barrier(CLK_LOCAL_MEM_FENCE);
  } else {
  }
  out[gl * 8u + 1u] = ((uint)(v1).s0 * 1u + (uint)(v1).s1 * 3u + (uint)(v1).s2 * 5u + (uint)(v1).s3 * 7u);
}
