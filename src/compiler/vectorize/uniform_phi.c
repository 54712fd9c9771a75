/* Uniform vector recurrences back to scalars.
 *
 * VPlan's native path widens everything inside an outer loop, including the
 * inner loop's induction variable, which is the same in every lane: a
 * <16 x i64> phi stepping by splat(1) whose users address memory through
 * 16 equal pointers, i.e. gathers. This pass finds vector phis whose incoming
 * values are all lane-uniform (splat constants, splats, the phis themselves,
 * and element-wise integer/float arithmetic of such values), rebuilds each as
 * a scalar phi and hands its users a splat of it. Gathers whose 16 addresses
 * are then provably equal (address arithmetic on splats) become one scalar
 * load and a broadcast. */
#include "vectorize/vectorize.h"
#include <stdlib.h>
#include <string.h>

struct uphi_state {
  LLVMValueRef *phis; /* candidate vector phis */
  LLVMValueRef *scalars;
  size_t n;
  LLVMBuilderRef b;
};

static long find_phi(struct uphi_state *s, LLVMValueRef v) {
  for (size_t i = 0; i < s->n; i++)
    if (s->phis[i] == v)
      return (long)i;
  return -1;
}

static bool is_splat_constant(LLVMValueRef v) {
  if (!LLVMIsConstant(v) || LLVMIsAConstantExpr(v))
    return false;
  if (LLVMIsNull(v))
    return true;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
  LLVMValueRef first = LLVMGetAggregateElement(v, 0);
  if (!first)
    return false;
  for (unsigned i = 1; i < n; i++)
    if (LLVMGetAggregateElement(v, i) != first)
      return false;
  return true;
}

/* shufflevector (insertelement undef/poison, x, 0), undef, zeroinitializer */
static bool is_splat_shuffle(LLVMValueRef v) {
  if (!LLVMIsAShuffleVectorInst(v))
    return false;
  unsigned n = LLVMGetNumMaskElements(v);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetMaskValue(v, i) != 0)
      return false;
  LLVMValueRef ins = LLVMGetOperand(v, 0);
  return LLVMIsAInsertElementInst(ins) && LLVMIsConstant(LLVMGetOperand(ins, 2)) &&
         LLVMConstIntGetZExtValue(LLVMGetOperand(ins, 2)) == 0;
}

static bool elementwise_op(LLVMValueRef v) {
  if (!LLVMIsABinaryOperator(v))
    return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAnd: case LLVMOr:
  case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul:
    return true;
  default:
    return false;
  }
}

static bool uniform(struct uphi_state *s, LLVMValueRef v, int depth) {
  if (depth > 8)
    return false;
  if (find_phi(s, v) >= 0 || is_splat_constant(v) || is_splat_shuffle(v))
    return true;
  if (elementwise_op(v))
    return uniform(s, LLVMGetOperand(v, 0), depth + 1) &&
           uniform(s, LLVMGetOperand(v, 1), depth + 1);
  return false;
}

static void position_after(LLVMBuilderRef b, LLVMValueRef inst) {
  LLVMValueRef next = LLVMGetNextInstruction(inst);
  while (next && LLVMIsAPHINode(next))
    next = LLVMGetNextInstruction(next);
  LLVMPositionBuilderBefore(b, next);
}

/* the scalar (lane 0) value of a uniform vector value */
static LLVMValueRef scalar_of(struct uphi_state *s, LLVMValueRef v) {
  long i = find_phi(s, v);
  if (i >= 0)
    return s->scalars[i];
  if (is_splat_constant(v)) {
    LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
    return LLVMIsNull(v) ? LLVMConstNull(et) : LLVMGetAggregateElement(v, 0);
  }
  if (is_splat_shuffle(v))
    return LLVMGetOperand(LLVMGetOperand(v, 0), 1);
  /* element-wise arithmetic: the same operation on the lane-0 values */
  LLVMValueRef a = scalar_of(s, LLVMGetOperand(v, 0));
  LLVMValueRef c = scalar_of(s, LLVMGetOperand(v, 1));
  position_after(s->b, v);
  return LLVMBuildBinOp(s->b, LLVMGetInstructionOpcode(v), a, c, "uniform");
}

static bool scalarize_function(LLVMValueRef f) {
  struct uphi_state s = {0};
  size_t cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
      if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVectorTypeKind) {
        if (s.n == cap) {
          cap = cap ? 2 * cap : 16;
          s.phis = realloc(s.phis, cap * sizeof *s.phis);
        }
        s.phis[s.n++] = in;
      }
  /* drop candidates with a non-uniform incoming value until none changes */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < s.n; i++) {
      LLVMValueRef p = s.phis[i];
      for (unsigned k = 0; k < LLVMCountIncoming(p); k++)
        if (!uniform(&s, LLVMGetIncomingValue(p, k), 0)) {
          s.phis[i--] = s.phis[--s.n];
          changed = true;
          break;
        }
    }
  }
  if (s.n == 0) {
    free(s.phis);
    return false;
  }
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  s.b = LLVMCreateBuilderInContext(c);
  s.scalars = malloc(s.n * sizeof *s.scalars);
  for (size_t i = 0; i < s.n; i++) {
    LLVMPositionBuilderBefore(s.b, s.phis[i]);
    s.scalars[i] = LLVMBuildPhi(s.b, LLVMGetElementType(LLVMTypeOf(s.phis[i])), "uniform.phi");
  }
  for (size_t i = 0; i < s.n; i++) {
    LLVMValueRef p = s.phis[i];
    for (unsigned k = 0; k < LLVMCountIncoming(p); k++) {
      LLVMValueRef v = scalar_of(&s, LLVMGetIncomingValue(p, k));
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
      LLVMAddIncoming(s.scalars[i], &v, &from, 1);
    }
  }
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  for (size_t i = 0; i < s.n; i++) {
    LLVMValueRef p = s.phis[i];
    LLVMTypeRef vt = LLVMTypeOf(p);
    position_after(s.b, p);
    LLVMValueRef ins = LLVMBuildInsertElement(s.b, LLVMGetPoison(vt), s.scalars[i],
                                              LLVMConstInt(i32, 0, 0), "");
    LLVMValueRef splat = LLVMBuildShuffleVector(s.b, ins, LLVMGetPoison(vt),
                                                LLVMConstNull(LLVMVectorType(
                                                    i32, LLVMGetVectorSize(vt))),
                                                "uniform.splat");
    LLVMReplaceAllUsesWith(p, splat);
  }
  for (size_t i = 0; i < s.n; i++)
    LLVMInstructionEraseFromParent(s.phis[i]);
  LLVMDisposeBuilder(s.b);
  free(s.phis);
  free(s.scalars);
  return true;
}

/* ---- gathers from one address ---- */

/* the scalar pointer all lanes of a vector of pointers hold, or NULL */
static LLVMValueRef uniform_pointer(LLVMBuilderRef b, LLVMValueRef v, int depth) {
  if (depth > 8)
    return NULL;
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v; /* a scalar base pointer */
  if (is_splat_shuffle(v))
    return LLVMGetOperand(LLVMGetOperand(v, 0), 1);
  if (!LLVMIsAGetElementPtrInst(v))
    return NULL;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef base = uniform_pointer(b, LLVMGetOperand(v, 0), depth + 1);
  if (!base)
    return NULL;
  LLVMValueRef idx[8];
  if (n - 1 > 8)
    return NULL;
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef x = LLVMGetOperand(v, i);
    if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVectorTypeKind)
      idx[i - 1] = x;
    else if (is_splat_shuffle(x))
      idx[i - 1] = LLVMGetOperand(LLVMGetOperand(x, 0), 1);
    else if (is_splat_constant(x))
      idx[i - 1] = LLVMIsNull(x) ? LLVMConstNull(LLVMGetElementType(LLVMTypeOf(x)))
                                 : LLVMGetAggregateElement(x, 0);
    else
      return NULL;
  }
  LLVMPositionBuilderBefore(b, v);
  LLVMTypeRef src = LLVMGetGEPSourceElementType(v);
  return LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(b, src, base, idx, n - 1, "uniform.ptr")
                           : LLVMBuildGEP2(b, src, base, idx, n - 1, "uniform.ptr");
}

static bool is_gather(LLVMValueRef in) { return loom_is_call_to_prefix(in, "llvm.masked.gather."); }

static bool uniform_gathers_to_loads(LLVMValueRef f) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  bool changed = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
      LLVMValueRef next = LLVMGetNextInstruction(in);
      if (is_gather(in) && loom_all_ones_mask(LLVMGetOperand(in, 2))) {
        LLVMValueRef p = uniform_pointer(b, LLVMGetOperand(in, 0), 0);
        if (p) {
          LLVMTypeRef vt = LLVMTypeOf(in);
          LLVMPositionBuilderBefore(b, in);
          LLVMValueRef ld = LLVMBuildLoad2(b, LLVMGetElementType(vt), p, "uniform.load");
          LLVMSetAlignment(ld, (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1)));
          LLVMValueRef ins =
              LLVMBuildInsertElement(b, LLVMGetPoison(vt), ld, LLVMConstInt(i32, 0, 0), "");
          LLVMValueRef splat = LLVMBuildShuffleVector(
              b, ins, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(i32, LLVMGetVectorSize(vt))),
              "uniform.splat");
          LLVMReplaceAllUsesWith(in, splat);
          LLVMInstructionEraseFromParent(in);
          changed = true;
        }
      }
      in = next;
    }
  LLVMDisposeBuilder(b);
  return changed;
}

bool loom_scalarize_uniform_vector_phis(LLVMModuleRef m) {
  bool changed = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) {
      changed |= scalarize_function(f);
      changed |= uniform_gathers_to_loads(f);
    }
  return changed;
}
