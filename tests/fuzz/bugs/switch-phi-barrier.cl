/* loom-fuzz seeds 7, 21, 67, 73, 75 (--short), 1000002, 1000067, ... (cvise, then by hand).
 * A switch whose cases share a successor block (empty cases: several edges
 * from the switch block to one block) after a barrier: pass wg-barriers
 * reloads the value that lives across the barrier once per PHI entry, so the
 * PHI gets different values for the same predecessor. Invalid IR at every
 * optimisation level (with LOOMCL_VERIFY=0 the check before O3 catches it):
 *   PHI node has multiple entries for the same basic block with different incoming values!
 *   %v.2 = phi i32 [ %live, %for.end ], [ %live9, %for.end ], [ %live11, %for.end ], [ 7, %sw.bb ]
 * The reloads must be made once per predecessor block, not per incoming edge.
 * A barrier in a uniform loop before the switch does the same. PoCL builds and runs it.
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/switch-phi-barrier.cl --seed 1 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uint *la, struct P s, uint u0, int u1) {
  uint gl = get_global_id(0);
  uint v = in[gl & 1023u] + s.a;
  barrier(CLK_LOCAL_MEM_FENCE);
  switch (in[(gl + 1u) & 1023u] & 3u) {
  case 0u:
    v = 7u;
  case 2u: ;
  case 1u: ;
  }
  out[gl * 8u] = v;
}
