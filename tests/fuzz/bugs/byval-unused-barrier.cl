/* loom-fuzz seeds 55 (--short), 1000000, 1000017, 1000023, ... (cvise, then by hand).
 * An unused by-value struct argument in a kernel with a barrier: LoomCL makes
 * invalid IR in pass wg-function, at every optimisation level (a build error,
 * CL_BUILD_PROGRAM_FAILURE, with LOOMCL_VERIFY=1):
 *   Call parameter type does not match function signature!
 *     %wi18 = load i64, ptr %5, align 8
 *    ptr  call void @llvm.lifetime.end.p0(i64 24, i64 %wi18)
 * The lifetime.end of the argument's private copy (pass byval-copies) gets a
 * work-item index instead of the pointer. Using the struct (even one field
 * before the barrier) hides it. PoCL builds and runs it.
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/byval-unused-barrier.cl --seed 1 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
__kernel void k(__global const uint *in, __global uint *out, __global int *acc,
                __local uint *la, struct P s, uint u0, int u1) {
  out[get_global_id(0)] = u0;
  barrier(CLK_LOCAL_MEM_FENCE);
}
