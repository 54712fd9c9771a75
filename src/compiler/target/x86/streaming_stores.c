/* Non-temporal stores for large write-only streams.
 *
 * A kernel like `c[i] = a[i] + s * b[i]` over arrays larger than the last
 * level cache is bound by memory bandwidth, and an ordinary store first reads
 * each line of c into the cache (read-for-ownership) only to overwrite all of
 * it: a quarter of the traffic of a triad is wasted. A non-temporal store
 * writes whole lines straight to memory.
 *
 * After O3 this pass looks, in each work-group function, for full-width
 * vector stores into a buffer argument that the kernel never reads, and
 * guards each with a test made at run time: the launch writes at least the
 * driver's threshold (ctx slot LOOM_CTX_STREAM_BYTES, about the last level
 * cache; 0 disables it) and the address is aligned to the vector (x86 has no
 * unaligned non-temporal vector store). The store is then duplicated:
 *
 *     head:   (what preceded the store)  br (big && aligned), %nt, %plain
 *     nt:     store ..., !nontemporal     br %tail
 *     plain:  store ...                   br %tail
 *     tail:   (what followed the store)
 *
 * Non-temporal stores are weakly ordered against other stores. Functions
 * with atomics, fences, volatile accesses or calls (other than intrinsics)
 * are left alone; the driver issues a store fence after its work-groups,
 * before the launch can be seen as complete. Within a work-group everything
 * runs on one thread, which always sees its own stores in order. */
#include "workgroup/workgroup.h"
#include "vectorize/vectorize.h"
#include "analysis/analysis.h"
#include "compiler.h"
#include "support/llvm_util.h"
#include "target/x86/x86.h"
#include <stdlib.h>
#include <string.h>

/* May the function's stores be reordered against each other as seen by
 * other threads? Only when it has no atomics, fences or opaque calls. */
static bool ordering_free(LLVMValueRef f) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      if (loom_orders_memory(i))
        return false;
  return true;
}

struct stream_candidates {
  LLVMValueRef *stores;
  size_t n, cap;
};

/* bits of a vector element the pass streams (0: not one) */
static unsigned element_bits(LLVMTypeRef et) {
  return LLVMGetTypeKind(et) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(et)
         : LLVMGetTypeKind(et) == LLVMFloatTypeKind  ? 32
         : LLVMGetTypeKind(et) == LLVMDoubleTypeKind ? 64
                                                     : 0;
}

static void collect(LLVMValueRef f, unsigned simd_bits, struct stream_candidates *out) {
  unsigned nontemporal =
      LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(f)), "nontemporal", 11);
  /* the buffers the kernel reads: storing to them is not a pure stream */
  struct loom_buffer_set read = {0};
  if (!loom_wg_plain_buffer_accesses(f, false, &read)) {
    free(read.args);
    return;
  }
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i) || LLVMGetMetadata(i, nontemporal))
        continue;
      LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 0));
      if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind)
        continue;
      unsigned ebits = element_bits(LLVMGetElementType(vt));
      /* a register's worth, or several (work-items run side by side:
       * vectorize/interleave_items.c); code generation splits those */
      unsigned bits = ebits * LLVMGetVectorSize(vt);
      if (!ebits || ebits % 8 || bits % simd_bits || bits > 4 * simd_bits)
        continue;
      LLVMValueRef arg = loom_wg_buffer_argument(f, LLVMGetOperand(i, 1));
      if (!arg || loom_buffer_set_has(&read, arg))
        continue;
      if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 8;
        out->stores = realloc(out->stores, out->cap * sizeof *out->stores);
      }
      out->stores[out->n++] = i;
    }
  }
  free(read.args);
}

/* Is the launch large enough for elem_bytes per work-item to stream? Computed
 * once in the entry block per element size, so each store only tests its
 * alignment. */
struct stream_launch {
  LLVMValueRef items, threshold;
  LLVMValueRef big[9]; /* by log2 of the element size */
};

static LLVMValueRef launch_is_big(struct stream_launch *sl, unsigned elem_bytes, LLVMValueRef f,
                                  LLVMBuilderRef bld) {
  unsigned lg = 0;
  while ((1u << lg) < elem_bytes && lg < 8)
    lg++;
  if (sl->big[lg])
    return sl->big[lg];
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMBasicBlockRef here = LLVMGetInsertBlock(bld);
  /* beside the launch's values at the top of the entry block, so that it
   * dominates every store, those of the entry block too (a specialised
   * function is often one block) */
  LLVMPositionBuilderBefore(bld, LLVMGetNextInstruction(sl->threshold));
  LLVMValueRef written = LLVMBuildMul(bld, sl->items, loom_i64(c, elem_bytes), "");
  sl->big[lg] = LLVMBuildAnd(
      bld, LLVMBuildICmp(bld, LLVMIntNE, sl->threshold, loom_i64(c, 0), ""),
      LLVMBuildICmp(bld, LLVMIntUGE, written, sl->threshold, ""), "stream_launch");
  LLVMPositionBuilderAtEnd(bld, here);
  return sl->big[lg];
}

static void guard_store(LLVMValueRef f, LLVMValueRef store, struct stream_launch *sl,
                        unsigned simd_bytes, LLVMBuilderRef bld) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  /* head: up to the store; plain: the store; tail: the rest */
  LLVMBasicBlockRef head = LLVMGetInstructionParent(store);
  LLVMBasicBlockRef plain = loom_split_block(head, store);
  LLVMBasicBlockRef tail = loom_split_block(plain, LLVMGetNextInstruction(store));
  LLVMBasicBlockRef nt = LLVMInsertBasicBlockInContext(c, tail, "stream.nt");

  LLVMValueRef value = LLVMGetOperand(store, 0), ptr = LLVMGetOperand(store, 1);
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(head));
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMValueRef big = launch_is_big(sl, element_bits(LLVMGetElementType(LLVMTypeOf(value))) / 8, f, bld);
  LLVMValueRef low = LLVMBuildAnd(bld, LLVMBuildPtrToInt(bld, ptr, i64, ""),
                                  loom_i64(c, simd_bytes - 1), "");
  LLVMValueRef aligned = LLVMBuildICmp(bld, LLVMIntEQ, low, loom_i64(c, 0), "");
  LLVMBuildCondBr(bld, LLVMBuildAnd(bld, big, aligned, "stream"), nt, plain);

  LLVMPositionBuilderAtEnd(bld, nt);
  LLVMValueRef s = LLVMBuildStore(bld, value, ptr);
  LLVMSetAlignment(s, simd_bytes);
  LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0));
  LLVMSetMetadata(s, LLVMGetMDKindIDInContext(c, "nontemporal", 11),
                  LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &one, 1)));
  LLVMBuildBr(bld, tail);
}

static void stream_function(LLVMValueRef f) {
  unsigned simd_bits = loom_preferred_vector_bits(f);
  if (simd_bits < 256 || !ordering_free(f)) /* SSE: no gain worth the test */
    return;
  struct stream_candidates cand = {0};
  collect(f, simd_bits, &cand);
  if (!cand.n)
    return;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
  while (LLVMIsAAllocaInst(top))
    top = LLVMGetNextInstruction(top);
  LLVMPositionBuilderBefore(bld, top);
  LLVMValueRef ctx = LLVMGetParam(f, 1);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  struct stream_launch sl = {.items = loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_GLOBAL_SIZE, i64, "")};
  for (unsigned d = 1; d < 3; d++)
    sl.items = LLVMBuildMul(bld, sl.items,
                            loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_GLOBAL_SIZE + d, i64, ""), "");
  sl.threshold = loom_wg_ctx_field(bld, c, ctx, LOOM_CTX_STREAM_BYTES, i64, "");
  for (size_t i = 0; i < cand.n; i++)
    guard_store(f, cand.stores[i], &sl, simd_bits / 8, bld);
  LLVMDisposeBuilder(bld);
  free(cand.stores);
}

void loom_stream_large_stores(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (loom_is_wg_function(f))
      stream_function(f);
}
