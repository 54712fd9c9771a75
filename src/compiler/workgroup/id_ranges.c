/* Signed division of local-id arithmetic made unsigned.
 *
 * Kernels reshape their group with int arithmetic on local ids
 * (`tid = get_local_id(0) + 8 * get_local_id(1); tid % 8, tid / 8`:
 * CLBlast's tile copies, most tiled GEMMs). An int may be negative, so
 * srem and sdiv stay signed: a shift, an add and an AND per division,
 * in every lane once vectorised, and the result's relation to the lane
 * index is lost (8 * ly | lane, modulo 8, is the lane: with urem InstCombine
 * sees it, with srem it does not), so the copy's lanes stay a gather with a
 * 512-bit contiguity test. LLVM cannot tell the ids' range: they are
 * region parameters here, loop counters later, and an llvm.assume inside
 * the x loop breaks VPlan's outer-loop path. LoomCL knows it: a local id is
 * below the local size, which is at most LOOM_MAX_GROUP_ITEMS, and so is
 * the linear id. An interval per value (constants, ids, local sizes, and
 * add, sub, mul, shl, and, or, lshr, udiv, urem, the casts, select and
 * phi of those) shows the dividend of an srem or sdiv, or the operand of
 * an ashr, non-negative and the divisor positive; they then become urem,
 * udiv and lshr (the same values). Runs on each region before it is
 * inlined into the work-group function. */
#include "loom_abi.h"
#include "workgroup/workgroup.h"
#include <stdint.h>

struct interval {
  int64_t lo, hi;
  bool known;
};

#define LIMIT ((int64_t)1 << 62)

static struct interval unknown(void) { return (struct interval){0, 0, false}; }

static struct interval span(int64_t lo, int64_t hi) {
  if (lo < -LIMIT || hi > LIMIT || lo > hi)
    return unknown();
  return (struct interval){lo, hi, true};
}

/* the interval of v's values as a signed integer of its type */
static struct interval range_of(LLVMValueRef v, LLVMValueRef region, unsigned np, int depth,
                                int *left);

static struct interval binary(LLVMOpcode op, struct interval a, struct interval b) {
  if (!a.known || !b.known)
    return unknown();
  switch (op) {
  case LLVMAdd:
    return span(a.lo + b.lo, a.hi + b.hi);
  case LLVMSub:
    return span(a.lo - b.hi, a.hi - b.lo);
  case LLVMMul:
    if (a.lo < 0 || b.lo < 0 || (a.hi && b.hi > LIMIT / a.hi))
      return unknown();
    return span(a.lo * b.lo, a.hi * b.hi);
  case LLVMShl:
    if (a.lo < 0 || b.lo != b.hi || b.lo < 0 || b.lo > 62 || a.hi > (LIMIT >> b.lo))
      return unknown();
    return span(a.lo << b.lo, a.hi << b.lo);
  case LLVMAnd: /* a non-negative side bounds the result */
    if (a.lo >= 0 && b.lo >= 0)
      return span(0, a.hi < b.hi ? a.hi : b.hi);
    if (a.lo >= 0 || b.lo >= 0)
      return span(0, a.lo >= 0 ? a.hi : b.hi);
    return unknown();
  case LLVMOr: {
    if (a.lo < 0 || b.lo < 0)
      return unknown();
    int64_t m = a.hi > b.hi ? a.hi : b.hi, p = 1;
    /* (past 2^62 p would overflow, and the loop not end: a fuzzer's kernel
     * hung its build on an `or` of a full-range value) */
    while (p <= m && p <= INT64_MAX / 2)
      p <<= 1;
    return span(a.lo > b.lo ? a.lo : b.lo, p > m ? p - 1 : INT64_MAX);
  }
  case LLVMLShr: case LLVMUDiv:
    if (a.lo < 0 || b.lo < (op == LLVMUDiv ? 1 : 0) || (op == LLVMLShr && b.hi > 62))
      return unknown();
    return op == LLVMLShr ? span(a.lo >> b.hi, a.hi >> b.lo) : span(a.lo / b.hi, a.hi / b.lo);
  case LLVMURem:
    if (a.lo < 0 || b.lo < 1)
      return unknown();
    return span(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1);
  default:
    return unknown();
  }
}

static struct interval join(struct interval a, struct interval b) {
  if (!a.known || !b.known)
    return unknown();
  return span(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

/* *left: the values a query may still visit. The walk follows every path
 * through the expression DAG (to depth 16): without a budget, a chain of
 * values each used twice costs 2^16 visits per query, and a fuzzer's kernel
 * full of guarded divisions took minutes to build. */
static struct interval range_of(LLVMValueRef v, LLVMValueRef region, unsigned np, int depth,
                                int *left) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64 || depth > 16 ||
      --*left < 0)
    return unknown();
  unsigned bits = LLVMGetIntTypeWidth(t);
  if (LLVMIsAConstantInt(v))
    return bits == 1 ? span(0, LLVMConstIntGetZExtValue(v))
                     : span(LLVMConstIntGetSExtValue(v), LLVMConstIntGetSExtValue(v));
  for (unsigned i = 0; i < 4; i++) /* local ids x, y, z and the linear id */
    if (np + i < LLVMCountParams(region) && LLVMGetParam(region, np + i) == v)
      return span(0, LOOM_MAX_GROUP_ITEMS - 1);
  if (!LLVMIsAInstruction(v))
    return unknown();
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMCall:
    if (loom_is_call_to(v, LOOM_SYM_WI) && LLVMIsAConstantInt(LLVMGetOperand(v, 0))) {
      unsigned long long kind = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 0));
      if (kind == LOOM_WI_LOCAL_SIZE || kind == LOOM_WI_ENQ_LOCAL_SIZE)
        return span(1, LOOM_MAX_GROUP_ITEMS);
    }
    return unknown();
  case LLVMTrunc: {
    struct interval a = range_of(LLVMGetOperand(v, 0), region, np, depth + 1, left);
    int64_t max = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    int64_t min = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    return a.known && a.lo >= min && a.hi <= max ? a : unknown();
  }
  case LLVMZExt: {
    struct interval a = range_of(LLVMGetOperand(v, 0), region, np, depth + 1, left);
    return a.known && a.lo >= 0 ? a : unknown();
  }
  case LLVMSExt:
    return range_of(LLVMGetOperand(v, 0), region, np, depth + 1, left);
  case LLVMSelect:
    return join(range_of(LLVMGetOperand(v, 1), region, np, depth + 1, left),
                range_of(LLVMGetOperand(v, 2), region, np, depth + 1, left));
  case LLVMPHI: { /* straight-line merges only: around a loop it would not end */
    unsigned n = LLVMCountIncoming(v);
    if (n == 0 || n > 4 || depth > 8)
      return unknown();
    struct interval r = range_of(LLVMGetIncomingValue(v, 0), region, np, depth + 8, left);
    for (unsigned i = 1; i < n && r.known; i++)
      r = join(r, range_of(LLVMGetIncomingValue(v, i), region, np, depth + 8, left));
    return r;
  }
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAnd: case LLVMOr:
  case LLVMLShr: case LLVMUDiv: case LLVMURem: {
    struct interval r = binary(op, range_of(LLVMGetOperand(v, 0), region, np, depth + 1, left),
                               range_of(LLVMGetOperand(v, 1), region, np, depth + 1, left));
    if (!r.known || bits >= 64)
      return r;
    /* the operation wraps in `bits` bits beyond this */
    int64_t max = ((int64_t)1 << (bits - 1)) - 1, min = -((int64_t)1 << (bits - 1));
    return r.lo >= min && r.hi <= max ? r : unknown();
  }
  default:
    return unknown();
  }
}

void loom_wg_unsigned_id_math(LLVMValueRef region, unsigned np) {
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(region)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(region); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      LLVMOpcode op = LLVMGetInstructionOpcode(in);
      if ((op == LLVMSDiv || op == LLVMSRem || op == LLVMAShr) &&
          LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMIntegerTypeKind) {
        LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
        int left = 512;
        struct interval ra = range_of(a, region, np, 0, &left);
        left = 512;
        struct interval rb = range_of(b, region, np, 0, &left);
        if (ra.known && ra.lo >= 0 && rb.known && rb.lo >= (op == LLVMAShr ? 0 : 1)) {
          LLVMPositionBuilderBefore(bld, in);
          LLVMValueRef u = op == LLVMSDiv   ? LLVMBuildUDiv(bld, a, b, "")
                           : op == LLVMSRem ? LLVMBuildURem(bld, a, b, "")
                                            : LLVMBuildLShr(bld, a, b, "");
          LLVMReplaceAllUsesWith(in, u);
          LLVMInstructionEraseFromParent(in);
        }
      }
      in = next;
    }
  LLVMDisposeBuilder(bld);
}
