/* loom-fuzz seeds 1000105, 1000178, 1000299, 1002095 (cvise; the loops are what is left of
 * the generated kernel). The construct of byval-unused-barrier.cl (an unused
 * by-value struct argument, barriers) in a kernel with barriers in nested
 * uniform loops and branches: pass wg-function leaves IR so broken that
 * LLVM's verifier itself dies of SIGSEGV inside clBuildProgram, killing the
 * application (every optimisation level; with LOOMCL_VERIFY=0 it dies in the
 * verification before O3). Backtrace (LOOMCL_COMPILE_THREADS=0, loom-fuzz --no-fork):
 *   #1 llvm::Value::print  ...  #7 llvm::verifyModule  #8 LLVMVerifyModule
 *   #9 loom_pipeline_verify (when="after pass wg-function") pipeline.c:351
 *   #10 loom_pipeline_run pipeline.c:384  #11 loom_pipeline_build  #12 make_executable link.c:195
 * Without the struct parameter it builds and runs. (The kernel reads __local
 * memory nobody wrote: cvise's doing; it only has to build.) PoCL builds it.
 * Reproduce: loom-fuzz --file tests/fuzz/bugs/byval-unused-verifier-crash.cl --seed 1000105 --reference O0 */
struct P { ulong e; uint a; int b; ushort c; uchar d; char f; uint g; };
        __kernel void k(__global const uint *in, __global uint *out, __global int *acc,                 __local ushort *la, struct P s, uint u0, int u1) {
     const uint lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);
     ulong8 v0 = as_ulong8((mul_hi(((ulong8)(((ulong)0x9UL), ((ulong)0xbUL), ((ulong)0x7UL), ((ulong)0xc4bd8380b2de845eUL), ((ulong)0x0UL), ((ulong)0x7UL), ((ulong)0x8000000000000000UL), ((ulong)0x0UL))), ((ulong8)(((ulong)0x24b1a0ed64629e9dUL), ((ulong)0xaUL), ((ulong)0xdUL), ((ulong)0xffffffffffffffffUL), ((ulong)0x1UL), ((ulong)0x88827caaa39ed52bUL), ((ulong)0x91a7b6b59fe100UL), ((ulong)0x8UL)))) <= ((ulong8)(((ulong)0x0UL)))));
     int v1 = ((int)0xcfb79924u);
     int v2 = ((int)((v0).s2));
     long v3 = ((long)((uint)u1));
     uint v4 = ((uint)0xfu);
     ushort v5 = ((ushort)(get_work_dim()));
     const uint n1 = (u0) % 2u;
     for (uint i0 = 0u;
   i0 < n1;
   i0++) {
      ulong4 t2 = ((ulong4)((ulong)(v3)));
      const uint n4 = (i0) % 3u;
      for (uint i3 = 0u;
  i3 < n4;
  i3++) {
        if (((int)((uint)(((int)(i0))) ^ (uint)(((int)((uint)u1)))))) {
          if (((short)((v0).s1)) != ((short)0xdu)) {
            barrier(CLK_LOCAL_MEM_FENCE);
            uint j6 = (i3) & 3u;
            do {
            }
  while (j6-- != 0u);
          }
          const uint n8 = (i0) % 3u;
          for (uint i7 = 0u;
  i7 < n8;
  i7++) {
          }
        }
      }
      if (((ushort)(in[(((uint)(v2))) & 1023u]))) {
        if (((uint)(~(uint)(((uint)(v2))))) == add_sat(add_sat(i0, i0), get_work_dim())) {
          if (((uchar)0x80u) < ((uchar)(v1))) {
          }
          v4 = ((uint)(la[(v4) % lsz]));
          barrier(CLK_LOCAL_MEM_FENCE);
          v3 = ((long)(la[(clz(((uint)0x0u))) % lsz]));
          const uint n13 = (i0) % 4u;
          for (uint i12 = 0u;
  i12 < n13;
  i12++) {
          }
        }
      }
    }
   }
