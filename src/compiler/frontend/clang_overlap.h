/* Work done while the Clang subprocess of a build runs (clang_overlap.c). */
#ifndef LOOM_CLANG_OVERLAP_H
#define LOOM_CLANG_OVERLAP_H
#include "compiler.h"
#include <llvm-c/Core.h>

struct loom_overlap;
/* Starts the helper thread; NULL if there is nothing to do or no thread. */
struct loom_overlap *loom_overlap_begin(const struct loom_target *target) LOOM_HIDDEN;
/* Waits for it (call before returning, whatever Clang's result). */
void loom_overlap_end(struct loom_overlap *o) LOOM_HIDDEN;

/* A context for a build: one with the builtin library already opened
 * (*lib set) when a helper prepared it, a fresh one otherwise (*lib NULL). */
LLVMContextRef loom_library_take(LLVMModuleRef *lib) LOOM_HIDDEN;
/* The same for a kernel's specialisation, from a spare of their own; then
 * starts preparing the next one in the background. */
LLVMContextRef loom_library_take_spec(LLVMModuleRef *lib) LOOM_HIDDEN;
/* Starts preparing the specialisations' spare in the background (a
 * program whose kernels will be specialised was built). */
void loom_library_prepare_spec(void) LOOM_HIDDEN;
/* Runs LLVM's optimiser and code generator once in this process, on a tiny
 * function (see clang_overlap.c); later calls return at once. */
void loom_codegen_warm_up(const struct loom_target *target) LOOM_HIDDEN;
/* frees what is left at exit */
void loom_overlap_at_exit(void) LOOM_HIDDEN;

#endif
