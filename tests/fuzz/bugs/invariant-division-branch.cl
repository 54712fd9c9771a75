/* FIXED (pass hoist-divisions; test_fuzz_regressions: test_invariant_division_in_branch).
 * Cause: LLVM 19's loop vectoriser: the loop-invariant 0x3c7ab399 % lsz in a
 * branch is computed for lane 0 only (pred.urem.if on lane 0's mask bit) and
 * the gather of la[] uses that lane's result for every lane: poison, a
 * pointer's low bits, when lane 0 skips the branch. The analysis below was
 * right about the symptom and wrong about the cause.
 * loom-fuzz seed 1001392 (reduced by cvise,
 * partly: the reduction was still running at /tmp/red1392/k.cl). The original
 * kernel (loom-fuzz --emit 1001392) is well defined; LoomCL -cl-opt-disable runs
 * it without fault. LoomCL (default optimisation) faults at the FIRST launch
 * with local size 32 (1D, global 32, global offset 4): "LoomCL: kernel 'k'
 * faulted (signal 11) in work-group 0", also with LOOMCL_SPECIALIZE=0.
 * Ingredients left: a barrier in a uniform loop, then a divergent read of a
 * __local argument, then nested switches with cases sharing a block (compare
 * switch-phi-barrier.cl: perhaps the same wg-barriers mistake, where the
 * duplicated PHI entries happen to verify). Hand-written versions of this
 * shape did not fault; the trigger is still in here somewhere.
 * (It reads __local memory nobody wrote: cvise's doing.)
 * Analysis so far (2026-11-26): the fault is the masked gather of
 * la[(v0).x % lsz] (vpgatherdq (%rax,%ymm8,8) with rax = la + edx * 8), whose
 * uniform index edx holds the low 32 bits of a pointer (0xd4002800 beside
 * rdx = 0x7fffd4002800). Every one of the four ingredients is needed (the
 * struct field read, the barrier loop, the private array pa, the __local
 * read). Suspect: a group-uniform value live across the barrier (the
 * optimised IR stores `i32 %119` to %uniform_slots inside the vectorised
 * work-item loop) read back through the region's uniform snapshot
 * (workgroup/wg_function.c, resolve_uniform_views) in the wrong place.
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/o3-fault-switch.cl --seed 1001392 --reference O0
 *   -> FAIL ... kind=run-error LoomCL launch error -5, shape 2 (1d g=32x1x1 l=32x1x1 off=4,0,0) */
struct P {
  ulong e;
  int b;
  char f;
  uint g;
};
__kernel void k(__global const uint *in, __global uint *out, __global int *acc, __local ulong *la,
                struct P s, uint u0, int u1) {
  const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint gl =
      (get_global_id(0) - get_global_offset(0)) +
      get_global_size(0) * (0 + get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  long pa[8];
  for (uint q = 0u; q < 8u; q++)
    pa[q] = ((in[(gl * 3u + q) & 1023u]));
  int2 v0 = ((int2)((0x3c7ab399u), 0));
  int v1 = 0;
  for (uint j0 = 0u; j0 < ((get_work_dim()) & 7u); j0++)
    barrier(CLK_LOCAL_MEM_FENCE);
  if ((((pa[0 & 7u]))) & 1u)
    v1 = ((la[((((v0).x))) % lsz]));
  switch ((((add_sat(((ulong)0), ((ulong)(lsz))) > 0))) & 3u) {
  case 0u:
    break;
  default:
    switch ((((0 || ((0xffffffffu))))) & 3u)
    case 1u:
    case 2u: {
      v1 = (((__private long)((s.b) & 7u)));
    }
  }
  out[gl * 8u + 1u] = (v1);
}
