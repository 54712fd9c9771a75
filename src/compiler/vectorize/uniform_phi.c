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

/* a shufflevector whose every lane is lane 0 of its first operand (a splat:
 * `shufflevector (insertelement poison, x, 0), poison, zeroinitializer`, or
 * of lane 0 of some vector VPlan computed) */
bool loom_is_splat_shuffle(LLVMValueRef v) {
  if (!LLVMIsAShuffleVectorInst(v))
    return false;
  unsigned n = LLVMGetNumMaskElements(v);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetMaskValue(v, i) != 0)
      return false;
  return true;
}

static bool elementwise_op(LLVMValueRef v) {
  if (!LLVMIsABinaryOperator(v))
    return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul:
    return true;
  default:
    return false;
  }
}

static bool elementwise_cast(LLVMValueRef v) {
  if (!LLVMIsACastInst(v))
    return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMSIToFP: case LLVMUIToFP:
  case LLVMFPToSI: case LLVMFPToUI: case LLVMFPExt: case LLVMFPTrunc:
    return true;
  default:
    return false;
  }
}

/* v holds the same value in every lane: scalars, splat constants, splats,
 * the candidate phis of s (NULL: none), and element-wise arithmetic, casts
 * and address computations on such values */
static bool uniform(struct uphi_state *s, LLVMValueRef v, int depth) {
  if (depth > 12)
    return false;
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return true;
  if ((s && find_phi(s, v) >= 0) || is_splat_constant(v) || loom_is_splat_shuffle(v))
    return true;
  if (elementwise_op(v))
    return uniform(s, LLVMGetOperand(v, 0), depth + 1) &&
           uniform(s, LLVMGetOperand(v, 1), depth + 1);
  if (elementwise_cast(v))
    return uniform(s, LLVMGetOperand(v, 0), depth + 1);
  if (LLVMIsAGetElementPtrInst(v) && LLVMGetNumOperands(v) <= 9) { /* scalar_of's ops[9] */
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
      if (!uniform(s, LLVMGetOperand(v, (unsigned)i), depth + 1))
        return false;
    return true;
  }
  return false;
}

static void position_after(LLVMBuilderRef b, LLVMValueRef inst) {
  LLVMValueRef next = LLVMGetNextInstruction(inst);
  while (next && LLVMIsAPHINode(next))
    next = LLVMGetNextInstruction(next);
  /* a block under construction (combine-gathers' test block) has no
   * terminator yet: inst may be its last instruction */
  if (next)
    LLVMPositionBuilderBefore(b, next);
  else
    LLVMPositionBuilderAtEnd(b, LLVMGetInstructionParent(inst));
}

/* the scalar (lane 0) value of a value `uniform` accepted */
static LLVMValueRef scalar_of(struct uphi_state *s, LLVMBuilderRef b, LLVMValueRef v) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v;
  long i = s ? find_phi(s, v) : -1;
  if (i >= 0)
    return s->scalars[i];
  if (is_splat_constant(v)) {
    LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
    return LLVMIsNull(v) ? LLVMConstNull(et) : LLVMGetAggregateElement(v, 0);
  }
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
  if (loom_is_splat_shuffle(v)) {
    LLVMValueRef src = LLVMGetOperand(v, 0);
    if (LLVMIsAInsertElementInst(src) && LLVMIsAConstantInt(LLVMGetOperand(src, 2)) &&
        LLVMConstIntGetZExtValue(LLVMGetOperand(src, 2)) == 0)
      return LLVMGetOperand(src, 1);
    position_after(b, v);
    return LLVMBuildExtractElement(b, src, LLVMConstInt(i32, 0, 0), "lane0");
  }
  if (elementwise_cast(v)) {
    LLVMValueRef a = scalar_of(s, b, LLVMGetOperand(v, 0));
    position_after(b, v);
    return LLVMBuildCast(b, LLVMGetInstructionOpcode(v), a,
                         LLVMGetElementType(LLVMTypeOf(v)), "uniform");
  }
  if (LLVMIsAGetElementPtrInst(v)) {
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    LLVMValueRef ops[9];
    for (unsigned k = 0; k < n; k++)
      ops[k] = scalar_of(s, b, LLVMGetOperand(v, k));
    position_after(b, v);
    LLVMTypeRef src = LLVMGetGEPSourceElementType(v);
    return LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(b, src, ops[0], ops + 1, n - 1, "uniform.ptr")
                             : LLVMBuildGEP2(b, src, ops[0], ops + 1, n - 1, "uniform.ptr");
  }
  /* element-wise arithmetic: the same operation on the lane-0 values */
  LLVMValueRef a = scalar_of(s, b, LLVMGetOperand(v, 0));
  LLVMValueRef c = scalar_of(s, b, LLVMGetOperand(v, 1));
  position_after(b, v);
  return LLVMBuildBinOp(b, LLVMGetInstructionOpcode(v), a, c, "uniform");
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
      LLVMValueRef v = scalar_of(&s, s.b, LLVMGetIncomingValue(p, k));
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

bool loom_lane_uniform(LLVMValueRef v) { return uniform(NULL, v, 0); }

LLVMValueRef loom_lane0_scalar(LLVMBuilderRef b, LLVMValueRef v) { return scalar_of(NULL, b, v); }

/* ---- gathers from one address ---- */

/* the scalar pointer all lanes of a vector of pointers hold, or NULL */
static LLVMValueRef uniform_pointer(LLVMBuilderRef b, LLVMValueRef v) {
  return uniform(NULL, v, 0) ? scalar_of(NULL, b, v) : NULL;
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
        LLVMValueRef p = uniform_pointer(b, LLVMGetOperand(in, 0));
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
