/* Helpers over the LLVM C API used by the compiler passes. */
#ifndef LOOM_LLVM_UTIL_H
#define LOOM_LLVM_UTIL_H
#include "compiler.h"
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

/* placeholders resolved by the work-group compiler (see builtins/loom_abi.h) */
#define LOOM_SYM_BARRIER_ID "__loom_barrier_id" /* i32 id: a numbered barrier */
#define LOOM_SYM_SLOT "__loom_slot"             /* (i64 off, i64 size) -> ptr */
#define LOOM_SYM_SLOT_BASE "__loom_slot_base"   /* (i64 off) -> ptr */
#define LOOM_SYM_LOCAL_BASE "__loom_local_base" /* () -> ptr addrspace(3) */
/* group-uniform values live across barriers: __loom_uslot(off) is the
 * group's copy; __loom_uvar(off, size) is the copy a region reads, set from
 * the snapshot taken when the region starts (see wg_function.c) */
#define LOOM_SYM_USLOT "__loom_uslot"
#define LOOM_SYM_UVAR "__loom_uvar"
/* (i64 id, i64 bytes) -> ptr: a work-group's buffer for a private array kept
 * per vector lane (workgroup/wide_private.c), one per id */
#define LOOM_SYM_WIDE_PRIVATE "__loom_wide_private"

/* A context's diagnostics into a build log (LLVMContextSetDiagnosticHandler
 * with loom_on_diagnostic and a sink): errors and warnings are appended to
 * *log and errors set `error`. Every context that reads bitcode needs one:
 * LLVM's default handler exits the process on an error. */
struct loom_diag_sink {
  char **log;
  bool error;
};
void loom_on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx) LOOM_HIDDEN;

/* initialises LLVM's X86 back end once per process */
void loom_llvm_init(void) LOOM_HIDDEN;
/* a target machine for code generation; dispose with LLVMDisposeTargetMachine */
LLVMTargetMachineRef loom_target_machine(const struct loom_target *t) LOOM_HIDDEN;

/* Gives m the target machine's triple and data layout; returns that layout
 * (dispose with LLVMDisposeTargetData). */
LLVMTargetDataRef loom_retarget(LLVMModuleRef m, LLVMTargetMachineRef tm) LOOM_HIDDEN;

/* whether an LLVM feature string ("+avx2,-avx512f,...") enables `name`
 * exactly ("avx512f" is not "avx512fp16") */
bool loom_has_target_feature(const char *features, const char *name) LOOM_HIDDEN;

/* Runs a new-pass-manager pipeline; returns 0 on success. */
int loom_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm) LOOM_HIDDEN;

/* Declares (or finds) a function in m. */
LLVMValueRef loom_get_fn(LLVMModuleRef m, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *params, unsigned n) LOOM_HIDDEN;

/* Is v a call to a function named `name`? */
bool loom_is_call_to(LLVMValueRef v, const char *name) LOOM_HIDDEN;
/* Is v a call to a function whose name starts with `prefix` (an overloaded
 * intrinsic family: "llvm.sqrt.")? */
bool loom_is_call_to_prefix(LLVMValueRef v, const char *prefix) LOOM_HIDDEN;
/* Is mask a constant vector of i1 true in every lane (a masked
 * intrinsic's "no lane off")? */
bool loom_all_ones_mask(LLVMValueRef mask) LOOM_HIDDEN;
/* the mask of shufflevector `sh` as a constant vector of i32 (poison where
 * it is undefined), for building the same shuffle on other operands; NULL
 * past 128 lanes */
LLVMValueRef loom_shuffle_mask(LLVMValueRef sh) LOOM_HIDDEN;
/* true when the control-flow graph of f has a cycle (a loop) */
bool loom_has_cycle(LLVMValueRef f) LOOM_HIDDEN;

/* Collects every call to `name` inside f into a malloc'd array. */
LLVMValueRef *loom_calls_in(LLVMValueRef f, const char *name, size_t *n) LOOM_HIDDEN;

/* A copy of instruction i (not a phi) at b's insertion point whose operands
 * other than blocks are map(ctx, operand); a terminator keeps i's
 * successors, for the caller to rewire. */
LLVMValueRef loom_clone_mapped(LLVMBuilderRef b, LLVMValueRef i,
                               LLVMValueRef (*map)(void *ctx, LLVMValueRef v), void *ctx) LOOM_HIDDEN;

/* Gives instruction `to` every metadata node of `from` but its debug
 * location (a wide access standing for a gather or scatter: its alias
 * scopes, type and access group stay true). */
void loom_copy_metadata(LLVMValueRef from, LLVMValueRef to) LOOM_HIDDEN;

/* Moves instruction i to b's insertion point, keeping its name (inserting
 * through a builder would name it anew). */
void loom_move_instruction(LLVMBuilderRef b, LLVMValueRef i) LOOM_HIDDEN;

/* Moves the instructions of bb starting at `from` into a new block inserted
 * after bb; bb ends with a branch to it. PHIs in the successors are updated. */
LLVMBasicBlockRef loom_split_block(LLVMBasicBlockRef bb, LLVMValueRef from) LOOM_HIDDEN;

/* Replaces every use of instruction `old` by `with`, erases `old` and gives
 * `with` its name. */
void loom_replace_instruction(LLVMValueRef old, LLVMValueRef with) LOOM_HIDDEN;

/* Replaces the incoming block `from` by `to` in every PHI of bb; with to
 * NULL, drops from's incoming values. */
void loom_phi_replace_block(LLVMBasicBlockRef bb, LLVMBasicBlockRef from,
                            LLVMBasicBlockRef to) LOOM_HIDDEN;

/* the object a pointer is based on, through GEPs and casts (at most 32) */
LLVMValueRef loom_base_object(LLVMValueRef p) LOOM_HIDDEN;
/* the predicate of `b pred' a` for `a pred b` (ULT <-> UGT, ...; EQ, NE as they are) */
LLVMIntPredicate loom_swapped_predicate(LLVMIntPredicate p) LOOM_HIDDEN;
/* the predicate that holds exactly where p does not (SLT <-> SGE, EQ <-> NE, ...) */
LLVMIntPredicate loom_inverse_predicate(LLVMIntPredicate p) LOOM_HIDDEN;
/* SLT, SLE, SGT or SGE */
bool loom_signed_predicate(LLVMIntPredicate p) LOOM_HIDDEN;

/* first instruction after the PHIs of bb */
LLVMValueRef loom_first_non_phi(LLVMBasicBlockRef bb) LOOM_HIDDEN;

/* Does the loop metadata (llvm.loop) on branch `term` name `what`? */
bool loom_loop_md_names(LLVMValueRef term, const char *what) LOOM_HIDDEN;

/* An i64 constant. */
LLVMValueRef loom_i64(LLVMContextRef c, uint64_t v) LOOM_HIDDEN;

/* Adds a string or enum attribute to a function. */
void loom_add_fn_attr(LLVMValueRef f, const char *name) LOOM_HIDDEN;
void loom_add_fn_str_attr(LLVMValueRef f, const char *k, const char *v) LOOM_HIDDEN;
void loom_remove_fn_attr(LLVMValueRef f, const char *name) LOOM_HIDDEN;

/* A pointer-keyed hash map (open addressing) used for block/value indices. */
struct loom_ptrmap {
  void **keys;
  size_t *vals;
  size_t cap, count;
};
void loom_ptrmap_put(struct loom_ptrmap *m, void *key, size_t val) LOOM_HIDDEN;
bool loom_ptrmap_get(const struct loom_ptrmap *m, void *key, size_t *val) LOOM_HIDDEN;
void loom_ptrmap_free(struct loom_ptrmap *m) LOOM_HIDDEN;

#endif
