/* Combining a work-group's atomic additions before they reach memory.
 *
 * A histogram kernel does `atomic_inc(&hist[bin])` for every element; on a
 * CPU each is a locked instruction, and with all workers incrementing the
 * same few cache lines the kernel runs no faster on two cores than on one.
 * A work-group runs on one thread, so its relaxed additions can be summed
 * per address in a small table on the stack and applied once, when the
 * group ends: the result is the execution in which each address's
 * increments from this group happened one after another, with no other
 * work-group's access in between, which relaxed atomics allow.
 *
 * After O3, in each work-group function, the candidates are `atomicrmw add`
 * and `sub` with monotonic (relaxed) ordering, not volatile, whose result is
 * unused, into a buffer argument, all of one integer width. The function
 * qualifies only when nothing could observe a pending sum: no other atomic
 * instruction, no fence, no volatile access, no call other than an
 * intrinsic, no plain load or store of any candidate's buffer, and no plain
 * access whose buffer cannot be told. Each candidate becomes
 *
 *     slot = (address / width) mod SLOTS
 *     if (slot in use && table.address[slot] == address) table.sum[slot] += v;
 *     else { if (slot in use) atomic add table.sum[slot] at table.address[slot];
 *            table.address[slot] = address; table.sum[slot] = v; mark slot in use }
 *
 * and before every return the slots in use (a bit map, the only part of the
 * table cleared per group) are added to memory with relaxed atomics. Sums
 * are kept in 64 bits and truncated, which gives the same wrapped result as
 * the individual 32-bit additions.
 *
 * Kernel arguments may name the same buffer: when a combined buffer is also
 * one the kernel reads or writes plainly (compared once per group on entry),
 * every addition goes straight to memory. */
#include "workgroup/workgroup.h"
#include "analysis/analysis.h"
#include "compiler.h"
#include "support/llvm_util.h"
#include "target/x86/x86.h"
#include <stdlib.h>
#include <string.h>

#define SLOTS 256

struct combine_plan {
  LLVMValueRef *atomics;
  size_t n, cap;
  struct loom_buffer_set combined, plain; /* buffer arguments (their loads) */
  unsigned bits;      /* integer width of every candidate */
  LLVMTypeRef ptr_ty; /* their pointer type (address space) */
};

static bool is_candidate(LLVMValueRef wg, LLVMValueRef i) {
  if (!LLVMIsAAtomicRMWInst(i) || LLVMGetVolatile(i) ||
      LLVMGetOrdering(i) != LLVMAtomicOrderingMonotonic || LLVMGetFirstUse(i))
    return false;
  LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(i);
  if (op != LLVMAtomicRMWBinOpAdd && op != LLVMAtomicRMWBinOpSub)
    return false;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 1));
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
      (LLVMGetIntTypeWidth(t) != 32 && LLVMGetIntTypeWidth(t) != 64))
    return false;
  return loom_wg_buffer_argument(wg, LLVMGetOperand(i, 0)) != NULL;
}

/* Is the buffer pointer that `arg_load` loads at the argument block plus a
 * constant, so that the entry block can load it again? */
static bool reloadable(LLVMValueRef wg, LLVMValueRef arg_load) {
  LLVMValueRef at = LLVMGetOperand(arg_load, 0), args = LLVMGetParam(wg, 0);
  if (at == args)
    return true;
  if (!LLVMIsAGetElementPtrInst(at))
    return false;
  for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(at); k++) {
    LLVMValueRef o = LLVMGetOperand(at, k);
    if (o != args && !LLVMIsAConstant(o))
      return false;
  }
  return true;
}

/* the candidates, or none when something could observe a pending sum */
static bool plan(LLVMValueRef wg, struct combine_plan *p) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(wg); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (is_candidate(wg, i)) {
        unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(i, 1)));
        LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(i, 0));
        if ((p->bits && p->bits != bits) || (p->ptr_ty && p->ptr_ty != pt))
          return false;
        p->bits = bits;
        p->ptr_ty = pt;
        if (p->n == p->cap) {
          p->cap = p->cap ? 2 * p->cap : 8;
          p->atomics = realloc(p->atomics, p->cap * sizeof *p->atomics);
        }
        p->atomics[p->n++] = i;
        continue;
      }
      if (loom_orders_memory(i))
        return false;
    }
  if (!p->n || !loom_wg_plain_buffer_accesses(wg, true, &p->plain))
    return false;
  for (size_t k = 0; k < p->n; k++) {
    LLVMValueRef arg = loom_wg_buffer_argument(wg, LLVMGetOperand(p->atomics[k], 0));
    if (loom_buffer_set_has(&p->plain, arg))
      return false;
    loom_buffer_set_add(&p->combined, arg);
  }
  /* the aliasing test on entry loads every such pointer again */
  for (size_t k = 0; k < p->combined.n; k++)
    if (!reloadable(wg, p->combined.args[k]))
      return false;
  for (size_t k = 0; k < p->plain.n; k++)
    if (!reloadable(wg, p->plain.args[k]))
      return false;
  return true;
}

/* the (reloadable) buffer pointer `arg_load` loads, loaded again at the
 * builder (the entry block), as an integer */
static LLVMValueRef reload(LLVMValueRef wg, LLVMValueRef arg_load, LLVMBuilderRef bld,
                           LLVMTypeRef i64) {
  LLVMValueRef at = LLVMGetOperand(arg_load, 0);
  if (at != LLVMGetParam(wg, 0)) {
    at = LLVMInstructionClone(at);
    LLVMInsertIntoBuilder(bld, at);
  }
  return LLVMBuildPtrToInt(bld, LLVMBuildLoad2(bld, LLVMTypeOf(arg_load), at, ""), i64, "");
}

/* on entry: does some combined buffer argument name the same memory as
 * one the kernel accesses plainly? */
static LLVMValueRef aliased(LLVMValueRef wg, const struct combine_plan *p, LLVMBuilderRef bld,
                            LLVMTypeRef i64) {
  LLVMValueRef any = LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(i64)), 0, 0);
  LLVMValueRef *plain = malloc((p->plain.n + 1) * sizeof *plain);
  for (size_t b = 0; b < p->plain.n; b++)
    plain[b] = reload(wg, p->plain.args[b], bld, i64);
  for (size_t a = 0; a < p->combined.n; a++) {
    LLVMValueRef ca = reload(wg, p->combined.args[a], bld, i64);
    for (size_t b = 0; b < p->plain.n; b++)
      any = LLVMBuildOr(bld, any, LLVMBuildICmp(bld, LLVMIntEQ, ca, plain[b], ""), "");
  }
  free(plain);
  return any;
}

struct table {
  LLVMValueRef addrs, sums; /* [SLOTS x i64] allocas */
  LLVMValueRef used;        /* [SLOTS / 64 x i64]: which slots hold a sum */
  LLVMValueRef aliased;     /* i1: add straight to memory instead */
  LLVMTypeRef i64, arr, used_arr;
};

static LLVMValueRef slot_ptr(LLVMBuilderRef bld, const struct table *t, LLVMValueRef base,
                             LLVMValueRef slot) {
  LLVMValueRef idx[2] = {LLVMConstInt(t->i64, 0, 0), slot};
  return LLVMBuildInBoundsGEP2(bld, t->arr, base, idx, 2, "");
}

/* word `word` of the use map */
static LLVMValueRef used_word(LLVMBuilderRef bld, const struct table *t, LLVMValueRef word) {
  LLVMValueRef idx[2] = {LLVMConstInt(t->i64, 0, 0), word};
  return LLVMBuildInBoundsGEP2(bld, t->used_arr, t->used, idx, 2, "");
}

/* relaxed `*addr += sum` in memory, addr being the integer address */
static void apply(LLVMBuilderRef bld, const struct combine_plan *p, const struct table *t,
                  LLVMValueRef addr, LLVMValueRef sum) {
  LLVMContextRef c = LLVMGetTypeContext(t->i64);
  LLVMValueRef ptr = LLVMBuildIntToPtr(bld, addr, p->ptr_ty, "");
  LLVMValueRef v = p->bits == 64 ? sum : LLVMBuildTrunc(bld, sum, LLVMIntTypeInContext(c, p->bits), "");
  LLVMBuildAtomicRMW(bld, LLVMAtomicRMWBinOpAdd, ptr, v, LLVMAtomicOrderingMonotonic, 0);
}

static void combine(LLVMValueRef rmw, const struct combine_plan *p,
                    const struct table *t, LLVMBuilderRef bld) {
  LLVMContextRef c = LLVMGetTypeContext(t->i64);
  LLVMBasicBlockRef head = LLVMGetInstructionParent(rmw);
  LLVMBasicBlockRef tail = loom_split_block(head, rmw);
  LLVMBasicBlockRef hit = LLVMInsertBasicBlockInContext(c, tail, "combine.hit");
  LLVMBasicBlockRef miss = LLVMInsertBasicBlockInContext(c, tail, "combine.miss");
  LLVMBasicBlockRef evict = LLVMInsertBasicBlockInContext(c, tail, "combine.evict");
  LLVMBasicBlockRef install = LLVMInsertBasicBlockInContext(c, tail, "combine.install");
  LLVMBasicBlockRef lookup = LLVMInsertBasicBlockInContext(c, hit, "combine.lookup");
  LLVMBasicBlockRef direct = LLVMInsertBasicBlockInContext(c, tail, "combine.direct");

  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(head));
  LLVMPositionBuilderAtEnd(bld, head);
  LLVMBuildCondBr(bld, t->aliased, direct, lookup);
  LLVMPositionBuilderAtEnd(bld, lookup);
  LLVMValueRef addr = LLVMBuildPtrToInt(bld, LLVMGetOperand(rmw, 0), t->i64, "");
  LLVMValueRef v = LLVMGetOperand(rmw, 1);
  v = p->bits == 64 ? v : LLVMBuildZExt(bld, v, t->i64, "");
  if (LLVMGetAtomicRMWBinOp(rmw) == LLVMAtomicRMWBinOpSub)
    v = LLVMBuildNeg(bld, v, "");
  unsigned shift = p->bits == 64 ? 3 : 2;
  LLVMValueRef slot = LLVMBuildAnd(bld, LLVMBuildLShr(bld, addr, LLVMConstInt(t->i64, shift, 0), ""),
                                   LLVMConstInt(t->i64, SLOTS - 1, 0), "slot");
  LLVMValueRef aslot = slot_ptr(bld, t, t->addrs, slot), sslot = slot_ptr(bld, t, t->sums, slot);
  LLVMValueRef wptr = used_word(bld, t, LLVMBuildLShr(bld, slot, LLVMConstInt(t->i64, 6, 0), ""));
  LLVMValueRef word = LLVMBuildLoad2(bld, t->i64, wptr, "used");
  LLVMValueRef bit = LLVMBuildShl(bld, LLVMConstInt(t->i64, 1, 0),
                                  LLVMBuildAnd(bld, slot, LLVMConstInt(t->i64, 63, 0), ""), "");
  LLVMValueRef in_use = LLVMBuildICmp(bld, LLVMIntNE, LLVMBuildAnd(bld, word, bit, ""),
                                      LLVMConstInt(t->i64, 0, 0), "");
  LLVMValueRef held = LLVMBuildLoad2(bld, t->i64, aslot, "held");
  LLVMBuildCondBr(bld, LLVMBuildAnd(bld, in_use, LLVMBuildICmp(bld, LLVMIntEQ, held, addr, ""), ""),
                  hit, miss);

  LLVMPositionBuilderAtEnd(bld, hit);
  LLVMBuildStore(bld, LLVMBuildAdd(bld, LLVMBuildLoad2(bld, t->i64, sslot, ""), v, ""), sslot);
  LLVMBuildBr(bld, tail);

  LLVMPositionBuilderAtEnd(bld, miss);
  LLVMBuildCondBr(bld, in_use, evict, install);
  LLVMPositionBuilderAtEnd(bld, evict);
  apply(bld, p, t, held, LLVMBuildLoad2(bld, t->i64, sslot, ""));
  LLVMBuildBr(bld, install);
  LLVMPositionBuilderAtEnd(bld, install);
  LLVMBuildStore(bld, addr, aslot);
  LLVMBuildStore(bld, v, sslot);
  LLVMBuildStore(bld, LLVMBuildOr(bld, word, bit, ""), wptr);
  LLVMBuildBr(bld, tail);
  /* the original addition, for aliased arguments */
  LLVMPositionBuilderAtEnd(bld, direct);
  loom_move_instruction(bld, rmw);
  LLVMBuildBr(bld, tail);
}

/* before `ret`: every slot in use is added to memory, word by word of the
 * use map, lowest set bit first */
static void flush_before(LLVMValueRef ret, const struct combine_plan *p, const struct table *t,
                         LLVMBuilderRef bld) {
  LLVMContextRef c = LLVMGetTypeContext(t->i64);
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(ret)));
  LLVMTypeRef i64 = t->i64;
  LLVMValueRef cttz = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID("llvm.cttz", 9), &i64, 1);
  LLVMTypeRef cttz_params[2] = {t->i64, LLVMInt1TypeInContext(c)};
  LLVMTypeRef cttz_ty = LLVMFunctionType(t->i64, cttz_params, 2, 0);
  LLVMBasicBlockRef head = LLVMGetInstructionParent(ret);
  LLVMBasicBlockRef done = loom_split_block(head, ret);
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(head));
  LLVMBasicBlockRef from = head;
  for (unsigned w = 0; w < SLOTS / 64; w++) {
    LLVMBasicBlockRef loop = LLVMInsertBasicBlockInContext(c, done, "combine.flush");
    LLVMBasicBlockRef next = LLVMInsertBasicBlockInContext(c, done, "combine.flush.next");
    LLVMPositionBuilderAtEnd(bld, from);
    LLVMValueRef word = LLVMBuildLoad2(bld, t->i64, used_word(bld, t, LLVMConstInt(t->i64, w, 0)), "");
    LLVMValueRef zero = LLVMConstInt(t->i64, 0, 0);
    LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntNE, word, zero, ""), loop, next);

    LLVMPositionBuilderAtEnd(bld, loop);
    LLVMValueRef bits = LLVMBuildPhi(bld, t->i64, "bits");
    LLVMValueRef args[2] = {bits, LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0)};
    LLVMValueRef low = LLVMBuildCall2(bld, cttz_ty, cttz, args, 2, "");
    LLVMValueRef slot = LLVMBuildAdd(bld, low, LLVMConstInt(t->i64, 64 * w, 0), "");
    apply(bld, p, t, LLVMBuildLoad2(bld, t->i64, slot_ptr(bld, t, t->addrs, slot), ""),
          LLVMBuildLoad2(bld, t->i64, slot_ptr(bld, t, t->sums, slot), ""));
    LLVMValueRef rest = LLVMBuildAnd(bld, bits, LLVMBuildSub(bld, bits, LLVMConstInt(t->i64, 1, 0), ""), "");
    LLVMBuildCondBr(bld, LLVMBuildICmp(bld, LLVMIntNE, rest, zero, ""), loop, next);
    LLVMValueRef in_vals[2] = {word, rest};
    LLVMBasicBlockRef in_blocks[2] = {from, loop};
    LLVMAddIncoming(bits, in_vals, in_blocks, 2);
    from = next;
  }
  LLVMPositionBuilderAtEnd(bld, from);
  LLVMBuildBr(bld, done);
}

static void combine_function(LLVMValueRef wg) {
  struct combine_plan p = {0};
  if (!plan(wg, &p)) {
    free(p.atomics);
    free(p.combined.args);
    free(p.plain.args);
    return;
  }
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(wg));
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  struct table t;
  t.i64 = LLVMInt64TypeInContext(c);
  t.arr = LLVMArrayType2(t.i64, SLOTS);
  t.used_arr = LLVMArrayType2(t.i64, SLOTS / 64);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(wg);
  LLVMPositionBuilderBefore(bld, LLVMGetFirstInstruction(entry));
  t.addrs = LLVMBuildAlloca(bld, t.arr, "combine.addrs");
  t.sums = LLVMBuildAlloca(bld, t.arr, "combine.sums");
  t.used = LLVMBuildAlloca(bld, t.used_arr, "combine.used");
  LLVMSetAlignment(t.addrs, 64);
  LLVMSetAlignment(t.sums, 64);
  LLVMSetAlignment(t.used, 32);
  /* only the use map needs clearing: a group that adds nothing costs 32
   * bytes of stores and 4 tests */
  LLVMBuildMemSet(bld, t.used, LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0),
                  LLVMConstInt(t.i64, SLOTS / 8, 0), 32);

  LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(entry));
  t.aliased = aliased(wg, &p, bld, t.i64);

  /* the returns, before the blocks change */
  size_t nret = 0;
  LLVMValueRef *rets = NULL;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(wg); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    if (term && LLVMIsAReturnInst(term)) {
      rets = realloc(rets, (nret + 1) * sizeof *rets);
      rets[nret++] = term;
    }
  }
  for (size_t i = 0; i < p.n; i++)
    combine(p.atomics[i], &p, &t, bld);
  for (size_t i = 0; i < nret; i++)
    flush_before(rets[i], &p, &t, bld);
  free(rets);
  free(p.atomics);
  free(p.combined.args);
  free(p.plain.args);
  LLVMDisposeBuilder(bld);
}

void loom_combine_atomic_adds(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (loom_is_wg_function(f))
      combine_function(f);
}
