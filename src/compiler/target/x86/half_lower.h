/* Half operations that LLVM 19's x86 back end gets wrong (see half_lower.c). */
#ifndef LOOM_HALF_LOWER_H
#define LOOM_HALF_LOWER_H
#include "compiler.h"
#include <llvm-c/Core.h>

/* Rewrites the half operations of m that the x86 back end would compute
 * with the wrong rounding or bits. Run after the last optimisation pipeline
 * (instcombine would fold some of the rewrites back). */
void loom_lower_half_ops(LLVMModuleRef m, bool native_half) LOOM_HIDDEN;

#endif
