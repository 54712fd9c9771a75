/* The pipeline's code generation stage (pipeline.c) run inline or on a
 * compile thread (codegen.c, codegen_jobs.c), and object emission. */
#ifndef LOOM_CODEGEN_H
#define LOOM_CODEGEN_H
#include "compiler.h"
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

/* Object code for the optimised module m (after the pipeline's code
 * generation stage: pipeline.c); writes LOOMCL_DUMP_IR_OPT and
 * LOOMCL_DUMP_ASM first. 0 on success. */
int loom_emit_object(LLVMModuleRef m, LLVMTargetMachineRef tm, struct loom_blob *object,
                     char **log) LOOM_HIDDEN;

/* Queues the optimisation and code generation of m, which it takes over
 * with its context (the caller disposes neither) unless it returns NULL:
 * then the caller generates the code itself. */
struct loom_codegen *loom_codegen_start(LLVMModuleRef m, const struct loom_program_binary *bin,
                                        const struct loom_target *target, bool opt_disable,
                                        bool any_outer) LOOM_HIDDEN;

struct loom_codegen *loom_codegen_retain(struct loom_codegen *cg) LOOM_HIDDEN;
void loom_codegen_release(struct loom_codegen *cg) LOOM_HIDDEN;
/* The disk cache entry `entry` (a serialised binary without object code) is
 * completed and written under `key` once the code exists; takes entry. */
void loom_codegen_cache_when_done(struct loom_codegen *cg, const char *key,
                                  struct loom_blob *entry) LOOM_HIDDEN;
/* A build of the program cached under `key` whose code is still being
 * generated: *bin gets its metadata and shares its job. 0 if found. */
int loom_codegen_in_flight(const char *key, struct loom_program_binary *bin) LOOM_HIDDEN;
/* without waiting: 1 while the code is being generated (or queued), 0 once
 * it exists, -1 when its generation failed */
int loom_codegen_poll(struct loom_codegen *cg) LOOM_HIDDEN;
/* whether compile threads are enabled (LOOMCL_COMPILE_THREADS) */
bool loom_codegen_async(void) LOOM_HIDDEN;
/* Registers the exit handler that finishes the jobs (once LLVM's code
 * generator has run in this process; see codegen_jobs.c). */
void loom_codegen_register_exit(void) LOOM_HIDDEN;

/* binary.c: serialises b with `object` as its object code */
int loom_binary_serialize_with(const struct loom_program_binary *b, const struct loom_blob *object,
                               struct loom_blob *out) LOOM_HIDDEN;

#endif
