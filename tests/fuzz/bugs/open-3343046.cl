/* OPEN, not fixed: loom-fuzz seed 3343046, line-reduced (run it with
 * `loom-fuzz --file tests/fuzz/bugs/open-3343046.cl --seed 3343046 --reference O0`):
 * the launch faults in work-group 0 (signal 11, reported as
 * CL_OUT_OF_RESOURCES), with or without specialisation and group prefetch,
 * in every library since at least cad7e13. Needed: the loop over j1 whose
 * trip count reads the private array pa at an index from the by-value
 * struct (s.a), the later loop over j4 (a uniform trip count will do), and
 * the reads of lb0 after it. */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
static int sdiv_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int smod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static long sdiv_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long smod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static uint xchg(__local uint *l, uint lid, uint lsz, uint v, uint k) {
  uint r = l[(lid + k) % lsz];
  return r;
}
static short2 h0(short2 p0, uint p1) {
  return ((short2)(((short)(p1)), ((short)0xffffu)));
}
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local ushort4 *la, struct P s, uint u0, int u1) {
  const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __local uchar4 lb0[256];
  __local ulong lb1[256];
  __local uint lx[256];
  ushort pa[8];
  for (uint q = 0u; q < 8u; q++) pa[q] = ((ushort)(in[(gl * 3u + q) & 1023u]));
  short v0 = ((short)((uint)(rotate(((short)0xffffu), ((short)0x5019u))) - (uint)(((short)0x0u))));
  char v1 = ((char)((uint)u1));
  long4 v2 = as_long4(as_ulong4(add_sat(convert_long4(vload4((lsz) & 255u, in)), ((long4)(((long)0x1UL), ((long)0xe10189ae1b7e2bf7UL), ((long)0x8000000000000000UL), ((long)0xeUL))))) & as_ulong4(convert_long4(vload4((((uint)0xffffffffu)) & 255u, in))));
  uchar v3 = ((uchar)((h0(convert_short2(vload2((gl) & 511u, in)), ((uint)0x80000000u))).x));
  int v4 = ((int)(v0));
  long2 v5 = as_long2(as_ulong2(((long2)((long)(((int)(gl)))))) ^ as_ulong2(as_long2(as_ulong2(((long2)(((long)0x4UL), ((long)0x1UL)))) | as_ulong2(((long2)((long)(v0)))))));
  uchar2 v6 = mad_sat(bitselect(convert_uchar2((v2).s02), ((uchar2)(((uchar)0x80u), ((uchar)0x1u))), convert_uchar2(vload2((((uint)((v2).z))) & 511u, in))), convert_uchar2((v2).odd), convert_uchar2((v2).odd));
  if (((char)((h0(as_short2((((ushort2)((ushort)(v3))) >> ((ushort2)(((ushort)0xffffu), ((ushort)0x1u))))), ((uint)0x1u))).s0))) {
    short t0 = ((short)(v3));
  }
  if ((((uint)0x5u)) & 4u) {
    for (uint j1 = 0u; j1 < ((((uint)(pa[(s.a) & 7u]))) & 7u); j1++) {
      uchar t2 = popcount(v3);
    }
    char t3 = ((char)(in[(((uint)((v2).z))) & 1023u]));
  } else {
  }
  for (uint j4 = 0u; j4 < ((((uint)abs_diff(((uint)((v2).s3)), in[(((uint)((v2).x))) & 1023u]))) & 7u); j4++) {
  }
  v4 = ((int)((lb0[(((uint)(((ulong)((h0(convert_short2(vload2((u0) & 511u, in)), ((uint)0xffffffffu))).s1)) <= ((ulong)((h0(((short2)((short)(pa[(((uint)((v2).s1))) & 7u]))), (uint)s.d)).s0))))) % lsz]).s3));
  if ((((uint)(pa[(((uint)0x80000000u)) & 7u]))) & 8u) {
    v5 = convert_long2((lb0[(((uint)(v4))) % lsz]).s31);
  }
  out[gl * 8u + 4u] = (uint)(v4);
  out[gl * 8u + 5u] = ((uint)((ulong)(v5).s0 ^ ((ulong)(v5).s0 >> 32)) * 1u + (uint)((ulong)(v5).s1 ^ ((ulong)(v5).s1 >> 32)) * 3u);
}
