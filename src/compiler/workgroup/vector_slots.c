/* OpenCL vectors live across a barrier, stored component-major.
 *
 * wg-barriers keeps a value live across a barrier in a per-work-item slot:
 * work-item w's copy at slot_base(off) + w * size (wg_barriers.c), one
 * whole float4 after the other. Split into scalars and widened across
 * work-items, component c of a vector read back is then a family of
 * gathers at a stride of `size` bytes, and the write a family of scatters:
 * CLBlast's Xgemm keeps its float4 accumulators across the barriers of its
 * k loop, and on AMD Zen 5 its compute region spent most of its time in
 * eight 8-lane scatters a k tile (36 GFLOP/s on 2 cores at 1024).
 *
 * The slot's area, size * items bytes from slot_base(off), holds the
 * components one after the other instead: component c of work-item w at
 * slot_base(off + c * E) + w * E for elements of E bytes, a slot of its own
 * as wg_barriers.c would lay it out. Consecutive work-items' components are
 * then consecutive elements, read and written as whole vectors.
 *
 * Only slots used everywhere (every region, any function) by whole loads
 * and stores of one vector type at the work-item's own address; a slot a
 * private variable's pointer reaches (an array, a component written on its
 * own) keeps its layout. Kernels that keep their vectors whole
 * (loom_wg_keeps_vectors_whole) run one work-item at a time on them and
 * keep the whole-vector layout: one load, not one a component. */
#include "workgroup/workgroup.h"
#include "loom_abi.h"
#include <stdlib.h>

/* the slot's address for work-item `lin`: gep i8 slot_base(off), lin * size
 * (loom_wg_finish_regions); its offset and size, or false */
static bool slot_address(LLVMValueRef gep, uint64_t *off, uint64_t *size) {
  if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetNumOperands(gep) != 2)
    return false;
  LLVMValueRef base = LLVMGetOperand(gep, 0), idx = LLVMGetOperand(gep, 1);
  if (!loom_is_call_to(base, LOOM_SYM_SLOT_BASE) || !LLVMIsAConstantInt(LLVMGetOperand(base, 0)))
    return false;
  if (!LLVMIsABinaryOperator(idx) || LLVMGetInstructionOpcode(idx) != LLVMMul ||
      !LLVMIsAConstantInt(LLVMGetOperand(idx, 1)))
    return false;
  LLVMTypeRef et = LLVMGetGEPSourceElementType(gep);
  if (LLVMGetTypeKind(et) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(et) != 8)
    return false;
  *off = LLVMConstIntGetZExtValue(LLVMGetOperand(base, 0));
  *size = LLVMConstIntGetZExtValue(LLVMGetOperand(idx, 1));
  return true;
}

/* The vector type a plain load or store through `p` moves, or NULL */
static LLVMTypeRef whole_access(LLVMValueRef user, LLVMValueRef p) {
  LLVMTypeRef t;
  if (LLVMIsALoadInst(user))
    t = LLVMTypeOf(user);
  else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p)
    t = LLVMTypeOf(LLVMGetOperand(user, 0));
  else
    return NULL;
  if (LLVMGetVolatile(user) || LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic)
    return NULL;
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) >= 2 ? t : NULL;
}

struct slot {
  uint64_t off, size;
  LLVMTypeRef ty; /* the one vector type its accesses move */
  bool ok;
};

static struct slot *find_slot(struct slot *s, size_t n, uint64_t off) {
  for (size_t i = 0; i < n; i++)
    if (s[i].off == off)
      return &s[i];
  return NULL;
}

/* One access through gep, rebuilt component by component. */
static void split_access(LLVMBuilderRef bld, LLVMValueRef access, LLVMValueRef gep,
                         LLVMTypeRef ty, LLVMTargetDataRef td) {
  LLVMValueRef base = LLVMGetOperand(gep, 0), idx = LLVMGetOperand(gep, 1);
  LLVMValueRef base_fn = LLVMGetCalledValue(base);
  LLVMContextRef c = LLVMGetTypeContext(ty);
  LLVMTypeRef elt = LLVMGetElementType(ty), i8 = LLVMInt8TypeInContext(c);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  uint64_t esize = LLVMABISizeOfType(td, elt);
  uint64_t off = LLVMConstIntGetZExtValue(LLVMGetOperand(base, 0));
  unsigned n = LLVMGetVectorSize(ty);
  LLVMPositionBuilderBefore(bld, access);
  LLVMValueRef lin = LLVMGetOperand(idx, 0);
  LLVMValueRef at = LLVMBuildMul(bld, lin, LLVMConstInt(i64, esize, 0), "");
  bool load = LLVMIsALoadInst(access);
  LLVMValueRef v = load ? LLVMGetPoison(ty) : LLVMGetOperand(access, 0);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef arg = LLVMConstInt(i64, off + k * esize, 0);
    LLVMValueRef area = LLVMBuildCall2(bld, LLVMGlobalGetValueType(base_fn), base_fn, &arg, 1, "");
    LLVMValueRef p = LLVMBuildGEP2(bld, i8, area, &at, 1, "component_slot");
    LLVMValueRef lane = LLVMConstInt(i64, k, 0), e;
    if (load) {
      e = LLVMBuildLoad2(bld, elt, p, "");
      v = LLVMBuildInsertElement(bld, v, e, lane, "");
    } else {
      e = LLVMBuildStore(bld, LLVMBuildExtractElement(bld, v, lane, ""), p);
    }
    LLVMSetAlignment(e, (unsigned)LLVMABIAlignmentOfType(td, elt));
  }
  if (load)
    LLVMReplaceAllUsesWith(access, v);
  LLVMInstructionEraseFromParent(access);
}

/* whether call is a slot area of one of these functions (a kernel's
 * regions: each kernel has its own slot layout) */
static bool area_in(LLVMValueRef call, LLVMValueRef *fns, unsigned nfns) {
  if (!LLVMIsACallInst(call) || !LLVMIsAConstantInt(LLVMGetOperand(call, 0)))
    return false;
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  for (unsigned i = 0; i < nfns; i++)
    if (fns[i] == f)
      return true;
  return false;
}

void loom_wg_split_vector_slots(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef *regions,
                                unsigned nregions) {
  LLVMValueRef base_fn = LLVMGetNamedFunction(m, LOOM_SYM_SLOT_BASE);
  if (!base_fn)
    return;
  size_t n = 0, cap = 16;
  struct slot *slots = malloc(cap * sizeof *slots);
  /* every slot area's users in the kernel's regions */
  for (LLVMUseRef u = LLVMGetFirstUse(base_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!area_in(call, regions, nregions))
      continue;
    uint64_t off = LLVMConstIntGetZExtValue(LLVMGetOperand(call, 0));
    struct slot *s = find_slot(slots, n, off);
    if (!s) {
      if (n == cap)
        slots = realloc(slots, (cap *= 2) * sizeof *slots);
      s = &slots[n++];
      *s = (struct slot){.off = off, .size = 0, .ty = NULL, .ok = true};
    }
    for (LLVMUseRef g = LLVMGetFirstUse(call); g && s->ok; g = LLVMGetNextUse(g)) {
      LLVMValueRef gep = LLVMGetUser(g);
      uint64_t o, size;
      if (!slot_address(gep, &o, &size) || (s->size && size != s->size)) {
        s->ok = false;
        break;
      }
      s->size = size;
      for (LLVMUseRef a = LLVMGetFirstUse(gep); a && s->ok; a = LLVMGetNextUse(a)) {
        LLVMTypeRef t = whole_access(LLVMGetUser(a), gep);
        s->ok = t && (!s->ty || t == s->ty) &&
                LLVMABISizeOfType(td, LLVMGetElementType(t)) * LLVMGetVectorSize(t) <= size;
        s->ty = t;
      }
    }
  }
  /* then the accesses of the slots that qualify, rebuilt */
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  size_t ngeps = 0, gcap = 16;
  LLVMValueRef *geps = malloc(gcap * sizeof *geps);
  for (LLVMUseRef u = LLVMGetFirstUse(base_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!area_in(call, regions, nregions))
      continue;
    struct slot *s = find_slot(slots, n, LLVMConstIntGetZExtValue(LLVMGetOperand(call, 0)));
    if (!s || !s->ok || !s->ty)
      continue;
    for (LLVMUseRef g = LLVMGetFirstUse(call); g; g = LLVMGetNextUse(g)) {
      if (ngeps == gcap)
        geps = realloc(geps, (gcap *= 2) * sizeof *geps);
      geps[ngeps++] = LLVMGetUser(g);
    }
  }
  for (size_t i = 0; i < ngeps; i++) {
    LLVMValueRef gep = geps[i];
    LLVMTypeRef ty = NULL;
    while (LLVMGetFirstUse(gep)) {
      LLVMValueRef access = LLVMGetUser(LLVMGetFirstUse(gep));
      ty = whole_access(access, gep);
      split_access(bld, access, gep, ty, td);
    }
    LLVMValueRef idx = LLVMGetOperand(gep, 1), area = LLVMGetOperand(gep, 0);
    LLVMInstructionEraseFromParent(gep);
    if (!LLVMGetFirstUse(idx))
      LLVMInstructionEraseFromParent(idx);
    if (!LLVMGetFirstUse(area))
      LLVMInstructionEraseFromParent(area);
  }
  LLVMDisposeBuilder(bld);
  free(geps);
  free(slots);
}
