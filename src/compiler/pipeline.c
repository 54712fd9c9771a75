/* The kernel pipeline: every step a program's linked bitcode goes through
 * to become object code, in order, one line each. Read this table first;
 * each pass lives in the folder its line names. The front end (OpenCL C
 * to bitcode: frontend/frontend.c, linking inputs: frontend/link.c) runs
 * before it; the device's driver loads the result (src/devices/).
 *
 * Two stages. The build stage runs inside clBuildProgram and ends with
 * every build error and all kernel metadata known, and with the module
 * verified; the code generation stage runs on a compile thread
 * (backend/codegen_jobs.c) or right after. Every pass can run alone on IR
 * (tools/loom-opt); with LOOMCL_VERIFY=1 (the test suite) the module is
 * verified after each one, and a broken module is a build error, never a
 * crash inside LLVM. */
#include "pipeline.h"
#include "loom_abi.h"
#include "analysis/analysis.h"
#include "backend/codegen.h"
#include "frontend/frontend.h"
#include "printf/printf.h"
#include "support/build_time.h"
#include "support/util.h"
#include "target/x86/half_lower.h"
#include "target/x86/x86.h"
#include "vectorize/vectorize.h"
#include <assert.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the build stage ---- */

static int lower_opaque_types(struct loom_pipeline *p) {
  return loom_lower_opaque_types(p->m, p->log);
}

/* The sub-group functions' combine step is called only by the work-group
 * function that "wg-function" builds: linked here, by name, when the
 * program calls a sub-group function (frontend/link.c keeps it). */
static int link_sub_group_combine(struct loom_pipeline *p) {
  bool uses = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(p->m); f && !uses; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    uses = LLVMGetFirstUse(f) && (strstr(name, LOOM_SYM_SG_COLLECTIVE) || !strcmp(name, LOOM_SYM_SG_BARRIER));
  }
  LLVMValueRef have = LLVMGetNamedFunction(p->m, LOOM_SYM_SG_COMBINE);
  if (!uses || (have && !LLVMIsDeclaration(have)))
    return 0;
  LLVMModuleRef lib = loom_open_builtin_library(LLVMGetModuleContext(p->m), p->log);
  if (!lib)
    return -1;
  LLVMValueRef def = LLVMGetNamedFunction(lib, LOOM_SYM_SG_COMBINE);
  if (!def) {
    LLVMDisposeModule(lib);
    loom_str_append(p->log, "error: the builtin library has no sub-group combine step\n");
    return -1;
  }
  if (!have)
    LLVMAddFunction(p->m, LOOM_SYM_SG_COMBINE, LLVMGlobalGetValueType(def));
  if (LLVMLinkModules2(p->m, lib)) {
    loom_str_append(p->log, "error: linking the builtin library failed\n");
    return -1;
  }
  return 0;
}

static int link_builtins(struct loom_pipeline *p) {
  LLVMModuleRef lib = p->lib ? p->lib : loom_open_builtin_library(LLVMGetModuleContext(p->m), p->log);
  p->lib = NULL;
  if (!lib)
    return -1;
  if (LLVMLinkModules2(p->m, lib)) {
    loom_str_append(p->log, "error: linking the builtin library failed\n");
    return -1;
  }
  if (link_sub_group_combine(p) != 0)
    return -1;
  return loom_fix_event_calls(p->m, p->log);
}

static int lower_printf(struct loom_pipeline *p) { return loom_lower_printf(p->m, p->log); }

static int check_undefined(struct loom_pipeline *p) { return loom_check_undefined(p->m, p->log); }

static int retarget(struct loom_pipeline *p) {
  if (p->td)
    LLVMDisposeTargetData(p->td);
  p->td = loom_retarget(p->m, p->tm);
  return 0;
}

/* A sub-group is one vector of 32-bit lanes unless the kernel asks for a
 * size (intel_reqd_sub_group_size): a power of two from LOOM_SG_MIN_SIZE to
 * LOOM_SG_MAX_SIZE, what CL_DEVICE_SUB_GROUP_SIZES_INTEL reports. */
static int sub_group_sizes(struct loom_pipeline *p) {
  for (uint32_t i = 0; i < p->out->num_kernels; i++) {
    struct loom_kernel_meta *km = &p->out->kernels[i];
    uint32_t r = km->reqd_sub_group_size;
    if (r && (r < LOOM_SG_MIN_SIZE || r > LOOM_SG_MAX_SIZE || (r & (r - 1)))) {
      char msg[512];
      snprintf(msg, sizeof msg,
               "error: kernel '%.200s': intel_reqd_sub_group_size(%u) is not a supported "
               "sub-group size (a power of two from %u to %u)\n",
               km->name, r, LOOM_SG_MIN_SIZE, LOOM_SG_MAX_SIZE);
      loom_str_append(p->log, msg);
      return -1;
    }
    unsigned lanes = p->target && p->target->simd_bytes >= 16 ? p->target->simd_bytes / 4 : 8;
    km->sub_group_size = r ? r : lanes;
  }
  return 0;
}

static int kernel_meta(struct loom_pipeline *p) {
  loom_kernels_meta_free(p->out); /* read anew when run alone (tools/loom-opt) */
  if (loom_kernel_meta_from_module(p->m, p->td, true, p->out) < 0)
    return -1;
  return sub_group_sizes(p);
}

/* A specialisation compiles one kernel: the others (those no kernel calls)
 * return at once, so that the build stage does not work through all of
 * them again; their dead code goes with the inliner's clean-up. CLBlast's
 * GEMM program: 0.3 s less of a background compilation that shares the
 * cores with the launches. */
static void empty_other_kernels(struct loom_pipeline *p) {
  LLVMContextRef c = LLVMGetModuleContext(p->m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (uint32_t i = 0; i < p->out->num_kernels; i++) {
    const char *name = p->out->kernels[i].name;
    LLVMValueRef f = LLVMGetNamedFunction(p->m, name);
    if (!f || LLVMIsDeclaration(f) || LLVMGetFirstUse(f) || !strcmp(name, p->spec->kernel))
      continue;
    LLVMBasicBlockRef entry = LLVMInsertBasicBlockInContext(c, LLVMGetEntryBasicBlock(f), "skipped");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildRetVoid(b);
  }
  LLVMDisposeBuilder(b);
}

static int prepare_functions(struct loom_pipeline *p) {
  loom_prepare_functions(p->m);
  if (p->spec && p->out)
    empty_other_kernels(p);
  return 0;
}

static int byval_copies(struct loom_pipeline *p) {
  loom_copy_byval_arguments(p->m);
  return 0;
}

static int guard_divisions(struct loom_pipeline *p) {
  loom_guard_divisions(p->m);
  return 0;
}

static int inline_all(struct loom_pipeline *p) {
  return loom_run_passes(p->m,
                         "always-inline,function(sroa,early-cse,simplifycfg,"
                         "instcombine<no-verify-fixpoint>,loop-simplify,lcssa)",
                         p->tm);
}

static int unroll_private(struct loom_pipeline *p) {
  if (p->opt_disable)
    return 0;
  return loom_unroll_for_private_arrays(p->m, p->tm);
}

static int spec_unroll(struct loom_pipeline *p) {
  if (p->opt_disable || !p->spec)
    return 0;
  return loom_spec_unroll(p->m, p->spec->kernel, p->spec->local, p->tm);
}

/* the kernel function of kernel i (NULL if the module lost it) */
static LLVMValueRef kernel_fn(struct loom_pipeline *p, uint32_t i) {
  return LLVMGetNamedFunction(p->m, p->out->kernels[i].name);
}

static int missing_kernel(struct loom_pipeline *p, uint32_t i) {
  loom_str_append(p->log, "error: internal: kernel '");
  loom_str_append(p->log, p->out->kernels[i].name);
  loom_str_append(p->log, "' is not in the module\n");
  return -1;
}

static int wg_local_atomics(struct loom_pipeline *p) {
  for (uint32_t i = 0; i < p->out->num_kernels; i++) {
    LLVMValueRef k = kernel_fn(p, i);
    if (!k)
      return missing_kernel(p, i);
    loom_lower_local_atomics(k);
  }
  return 0;
}

static int wg_local_vars(struct loom_pipeline *p) {
  for (uint32_t i = 0; i < p->out->num_kernels; i++) {
    LLVMValueRef k = kernel_fn(p, i);
    if (!k)
      return missing_kernel(p, i);
    struct loom_kernel_meta *km = &p->out->kernels[i];
    km->local_static_bytes = loom_wg_lower_local_vars(p->m, k, p->td);
    km->private_per_item = loom_private_bytes(k, p->td);
  }
  return 0;
}

/* what the runtime needs to know of a kernel's slot layout */
static void slots_to_meta(struct loom_kernel_meta *km, unsigned num_barriers,
                          const struct loom_slots *s) {
  km->num_barriers = num_barriers;
  km->sub_group_barriers = s->num_sg;
  km->divergent_loops = s->num_divergent;
  km->scratch_per_item = s->bytes_per_item;
  km->scratch_uniform = 2 * ((s->uniform_bytes + 63) / 64 * 64);
}

static int wg_barriers(struct loom_pipeline *p) {
  for (uint32_t i = 0; i < p->out->num_kernels; i++) {
    LLVMValueRef k = kernel_fn(p, i);
    if (!k)
      return missing_kernel(p, i);
    struct loom_slots slots;
    unsigned nb = loom_wg_prepare_barriers(p->m, k, p->td, &slots);
    loom_wg_record_slots(k, nb, &slots); /* for "wg-function" (workgroup/wg_state.c) */
    slots_to_meta(&p->out->kernels[i], nb, &slots);
    free(slots.divergent);
    free(slots.sg);
  }
  return 0;
}

/* The work-group function of every kernel, in three steps around LLVM's
 * inliner: the code between barriers becomes one region function each; the
 * work-item loops around the regions (with parallel-loop metadata) and the
 * barrier dispatch form "<kernel>.loom_wg"; the work-item builtins and slot
 * placeholders become loads from the context and scratch. */
static int wg_function(struct loom_pipeline *p) {
  uint32_t n = p->out->num_kernels;
  struct loom_wg_build *builds = calloc(n + 1, sizeof *builds);
  if (!builds)
    return -1;
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    struct loom_kernel_meta *km = &p->out->kernels[i];
    struct loom_wg_build *b = &builds[i];
    struct loom_slots slots;
    b->kernel = kernel_fn(p, i);
    if (!b->kernel) {
      rc = missing_kernel(p, i);
    } else if (loom_wg_read_slots(b->kernel, &b->num_barriers, &slots) != 0) {
      loom_str_append(p->log, "error: internal: a kernel without its slot layout (wg-barriers)\n");
      rc = -1;
    } else {
      slots_to_meta(km, b->num_barriers, &slots);
      b->meta = km;
      b->specialised = p->spec && !strcmp(km->name, p->spec->kernel);
      b->local_x = b->specialised ? p->spec->local[0] : km->reqd_work_group_size[0];
      b->uniform_bytes = slots.uniform_bytes;
      b->num_divergent = slots.num_divergent;
      b->divergent = slots.divergent; /* freed with the builds */
      b->masked = slots.masked;
      b->where_slot = slots.where_slot;
      b->num_sg = slots.num_sg;
      b->sg = slots.sg; /* freed with the builds */
      b->sg_size = km->sub_group_size;
      b->simd_bytes = p->target->simd_bytes;
      b->native_half = p->target->features &&
                       loom_has_target_feature(p->target->features, "avx512fp16");
    }
  }
  for (uint32_t i = 0; i < n && rc == 0; i++)
    loom_wg_make_regions(p->m, &builds[i]);
  if (rc == 0)
    rc = loom_run_passes(p->m, "always-inline", p->tm);
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    loom_wg_finish_regions(p->m, &builds[i], p->td);
    loom_wg_make_function(p->m, &builds[i], p->td, p->target->simd_bytes);
  }
  if (rc == 0)
    rc = loom_run_passes(p->m, "always-inline", p->tm);
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    loom_wg_resolve(p->m, &builds[i]);
    LLVMSetLinkage(builds[i].kernel, LLVMInternalLinkage);
    p->any_outer |= builds[i].any_outer;
  }
  loom_wg_builds_free(builds, n);
  return rc;
}

static int wg_specialize(struct loom_pipeline *p) {
  if (!p->spec)
    return 0;
  return loom_wg_specialize(p->m, p->out->kernels, p->out->num_kernels, p->spec, p->log);
}

static int internalize(struct loom_pipeline *p) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(p->m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMInternalLinkage);
  /* the sub-group combine step, inlined into the work-group functions */
  LLVMValueRef combine = LLVMGetNamedFunction(p->m, LOOM_SYM_SG_COMBINE);
  if (combine && !LLVMIsDeclaration(combine))
    LLVMSetLinkage(combine, LLVMInternalLinkage);
  return 0;
}

static int vector_variants(struct loom_pipeline *p) {
  loom_add_vector_variants(p->m);
  return 0;
}

/* ---- the code generation stage ---- */

static int mark_rsqrt(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_mark_rsqrt_divisions(p->m, p->features);
  return 0;
}

/* LLVM's loop vectoriser cannot widen OpenCL vector values (it would need
 * vectors of vectors), neither in an innermost work-item loop nor in the
 * outer loops VPlan's native path takes: split them into scalars first,
 * and the vectoriser re-vectorises them across work-items; not in kernels
 * that keep them whole (workgroup/wg_function.c keep_vectors_whole). */
/* The work-group functions that keep their vectors whole, hidden from (or
 * shown again to) LLVM's function passes as optnone, which its pass manager
 * skips. Work-group functions are called by the runtime only: never
 * noinline before. */
static void hide_whole_kernels(LLVMModuleRef m, bool hide) {
  unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMContextRef c = LLVMGetModuleContext(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!loom_wg_keeps_vectors_whole(f))
      continue;
    if (hide) {
      assert(!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline));
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, optnone, 0));
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, noinline, 0));
    } else {
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
    }
  }
}

static int scalarize_vectors(struct loom_pipeline *p) {
  if (!p->any_outer && p->opt_disable)
    return 0;
  bool any_split = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(p->m); f && !any_split; f = LLVMGetNextFunction(f))
    any_split = loom_is_wg_function(f) && !loom_wg_keeps_vectors_whole(f);
  if (!any_split)
    return 0;
  hide_whole_kernels(p->m, true);
  loom_pack_narrow_vector_memops(p->m);
  int rc = loom_run_passes(p->m, "function(scalarizer)", p->tm);
  if (rc == 0) {
    loom_split_mask_tests(p->m);
    rc = loom_run_passes(p->m, "function(instcombine<no-verify-fixpoint>)", p->tm);
  }
  hide_whole_kernels(p->m, false);
  return rc;
}

static int hoist_divisions(struct loom_pipeline *p) {
  return p->opt_disable ? 0 : loom_hoist_invariant_divisions(p->m, p->tm);
}

static int jam_items(struct loom_pipeline *p) {
  return p->opt_disable ? 0 : loom_jam_work_items(p->m, p->tm);
}

static int optimize(struct loom_pipeline *p) {
  return loom_run_passes(p->m, p->opt_disable ? "default<O1>" : "default<O3>", p->tm);
}

static int uniform_phis(struct loom_pipeline *p) {
  if (p->any_outer && loom_scalarize_uniform_vector_phis(p->m))
    return loom_run_passes(p->m, "function(instcombine<no-verify-fixpoint>,early-cse,simplifycfg)",
                           p->tm);
  return 0;
}

static int consecutive_lanes(struct loom_pipeline *p) {
  if (p->any_outer && loom_consecutive_lanes_to_vectors(p->m))
    return loom_run_passes(p->m, "function(instcombine<no-verify-fixpoint>,early-cse)", p->tm);
  return 0;
}

static int jam_rows(struct loom_pipeline *p) {
  if (p->any_outer && !p->opt_disable && loom_jam_rows(p->m))
    return loom_run_passes(p->m, "function(instsimplify)", p->tm);
  return 0;
}

static int combine_gathers(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_combine_component_gathers(p->m);
  return 0;
}

static int gather_rows(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_combine_row_gathers(p->m);
  return 0;
}

static int combine_scatters(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_combine_component_scatters(p->m);
  return 0;
}

static int scatter_rows(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_scatter_rows(p->m);
  return 0;
}

static int pair_chains(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_pair_fma_chains(p->m);
  return 0;
}

static int hoist_tests(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_hoist_tests(p->m);
  return 0;
}

static int half_lower(struct loom_pipeline *p) {
  char *features = p->tm ? LLVMGetTargetMachineFeatureString(p->tm) : NULL;
  loom_lower_half_ops(p->m, features && loom_has_target_feature(features, "avx512fp16"));
  LLVMDisposeMessage(features);
  return 0;
}

static int drop_vector_variants(struct loom_pipeline *p) {
  loom_drop_unused_vector_variants(p->m);
  return 0;
}

/* Every function definition but the work-group functions becomes internal:
 * the runtime looks up only those, and a program compiled in parts
 * (backend/codegen_split.c) has a copy of its helpers, the vector variants
 * its loops call, in each part's object, which must not clash in the JIT.
 * After O3, which treats external and internal functions differently
 * (inlining, interprocedural passes): the code is the same split or not. */
static int local_helpers(struct loom_pipeline *p) {
  for (LLVMValueRef f = LLVMGetFirstFunction(p->m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && !loom_is_wg_function(f) &&
        LLVMGetLinkage(f) != LLVMInternalLinkage && LLVMGetLinkage(f) != LLVMPrivateLinkage) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
  return 0;
}

static int streaming_stores(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_stream_large_stores(p->m);
  return 0;
}

static int prefetch_strides(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_prefetch_strides(p->m);
  return 0;
}

static int fast_rsqrt(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_fast_rsqrt(p->m, p->features);
  return 0;
}

static int combine_atomics(struct loom_pipeline *p) {
  if (!p->opt_disable)
    loom_combine_atomic_adds(p->m);
  return 0;
}

static int shift_lanes(struct loom_pipeline *p) {
  loom_fix_shift_lanes(p->m);
  return 0;
}

#define BUILD LOOM_STAGE_BUILD
#define CODEGEN LOOM_STAGE_CODEGEN
const struct loom_pass loom_passes[] = {
    /* ---- build stage: inside clBuildProgram ---- */
    {"lower-opaque-types", lower_opaque_types, BUILD, NULL,
     "image and sampler types become a descriptor pointer and a bit field (frontend/opaque_types.c)"},
    {"link-builtins", link_builtins, BUILD, NULL,
     "links the builtin library's functions the program uses, and the sub-group combine step when it calls a sub-group function (frontend/link.c); calls passing the SPIR-V translator's event pointers get the library's event type (frontend/event_calls.c)"},
    {"lower-printf", lower_printf, BUILD, NULL,
     "printf calls become __loom_printf with packed argument records; bad formats are errors (printf/)"},
    {"check-undefined", check_undefined, BUILD, NULL,
     "calls to functions nobody defines are link errors (frontend/link.c)"},
    {"retarget", retarget, BUILD, NULL, "spir64 becomes the host's triple and data layout (support/llvm_util.c)"},
    {"kernel-meta", kernel_meta, BUILD, "retarget",
     "kernel names, argument kinds, sizes and offsets (frontend/kernel_meta.c)"},
    {"prepare-functions", prepare_functions, BUILD, NULL,
     "C calling convention; everything but kernels internal and always-inline, cold builtin paths kept out of line (frontend/link.c); in a specialisation build the other kernels no kernel calls return at once"},
    {"byval-copies", byval_copies, BUILD, NULL,
     "by-value struct arguments get an explicit private copy in the kernel, so regions that start past the entry see it (workgroup/byval_copies.c)"},
    {"guard-divisions", guard_divisions, BUILD, NULL,
     "integer division by 0 and INT_MIN / -1 never trap (target/x86/safe_division.c)"},
    {"inline", inline_all, BUILD, NULL,
     "LLVM: always-inline, sroa, early-cse, simplifycfg, instcombine, loop-simplify, lcssa"},
    {"unroll-private", unroll_private, BUILD, NULL,
     "volatile private variables made plain; private arrays SROA left in memory (indexed by loop counters): loops with a constant trip count fully unrolled, SROA again (workgroup/private_arrays.c)"},
    {"spec-unroll", spec_unroll, BUILD, NULL,
     "in a build for one local size: the kernel's local size queries become constants, and when a loop holds a barrier, loops with a constant trip count are fully unrolled (a tree reduction's levels: one region each, their steps constants) (workgroup/spec_unroll.c)"},
    {"wg-local-atomics", wg_local_atomics, BUILD, "kernel-meta",
     "atomics on __local memory become plain operations: one thread runs a group (workgroup/local_atomics.c)"},
    {"wg-local-vars", wg_local_vars, BUILD, "kernel-meta",
     "__local variables become offsets into the group's local memory; private bytes measured (workgroup/local_mem.c)"},
    {"wg-barriers", wg_barriers, BUILD, "kernel-meta",
     "sub-group functions become sub-group barriers with their values in slots (workgroup/sg_collectives.c); barriers numbered; values live across them and private arrays moved to per-work-item slots; divergent loops marked (workgroup/wg_barriers.c)"},
    {"wg-function", wg_function, BUILD, "kernel-meta",
     "<kernel>.loom_wg: a region function per barrier interval (signed divisions of local-id arithmetic made unsigned: workgroup/id_ranges.c), the work-item loops around them with parallel-loop metadata (y loops of outer-vectorised regions marked for jam-rows), private arrays of outer-vectorised regions kept per lane, kernels estimated faster on whole OpenCL vectors marked to keep them (vectorize/whole_vectors.c), in the others vectors live across barriers kept component-major (workgroup/vector_slots.c), the builtins resolved; with sub-group barriers, one point at a time with the combine steps between (workgroup/wg_function.c, workgroup/sg_driver.c, workgroup/wide_private.c, workgroup/vector_slots.c, vectorize/parallel_md.c)"},
    {"wg-specialize", wg_specialize, BUILD, "kernel-meta",
     "with a local size to specialise for: that kernel's work-group function alone, the size as constants (workgroup/wg_specialize.c)"},
    {"internalize", internalize, BUILD, NULL,
     "program-scope variables and the sub-group combine step become internal: only functions stay visible (the work-group functions, vector variants until drop-vector-variants)"},
    {"vector-variants", vector_variants, BUILD, NULL,
     "scalar math calls get vector variants so that their work-item loops still vectorise (vectorize/vector_variants.c)"},
    /* ---- code generation stage: on a compile thread ---- */
    {"mark-rsqrt", mark_rsqrt, CODEGEN, NULL,
     "AVX-512: 1 / sqrt(x) divisions marked approximable before InstCombine drops !fpmath (target/x86/fast_rsqrt.c)"},
    {"scalarize-vectors", scalarize_vectors, CODEGEN, NULL,
     "OpenCL vector values split into scalars so the loop vectoriser can widen them across work-items, any()/all() tests too, except in kernels marked to keep them whole (vectorize/scalarize_choice.c)"},
    {"hoist-divisions", hoist_divisions, CODEGEN, NULL,
     "integer divisions invariant in their loop move before it, divisor guarded again: LLVM 19's vectoriser mis-compiles them in conditional blocks (vectorize/hoist_divisions.c)"},
    {"jam-items", jam_items, CODEGEN, NULL,
     "work-item loops that run inner loops bound by a chain's latency for more than 64 work-items are unrolled and jammed (LLVM's unroll-and-jam; vectorize/interleave_items.c), the copies' steps then interleaved (vectorize/chain_order.c)"},
    {"O3", optimize, CODEGEN, NULL,
     "LLVM's O3 (O1 with -cl-opt-disable) for the host CPU: the loop vectoriser widens the work-item loops"},
    {"uniform-phis", uniform_phis, CODEGEN, NULL,
     "lane-uniform vector phis from VPlan's outer loops back to scalars (vectorize/uniform_phi.c)"},
    {"consecutive-lanes", consecutive_lanes, CODEGEN, NULL,
     "gathers and scatters of VPlan's outer loops whose lanes are provably consecutive (induction, lane-uniform and constant terms) become vector loads and stores (vectorize/consecutive_lanes.c)"},
    {"jam-rows", jam_rows, CODEGEN, NULL,
     "y work-item loops around one vector of work-items and an inner loop run 2 or 4 rows at once (up to 8 without an inner loop), the inner loop's row-invariant code once for all, two rows to a register where a row is half of one; where the y loop still iterates, the inner loop's row-invariant reads once per group into tables (vectorize/jam_rows.c, jam_build.c, row_tables.c)"},
    {"combine-gathers", combine_gathers, CODEGEN, NULL,
     "gathers of a vector's components across work-items become whole loads and shuffles when a run time test finds them contiguous (for an int index: one scalar compare); those only scattered to local memory become loads and stores (vectorize/gather_groups.c, vectorize/copy_groups.c)"},
    {"gather-rows", gather_rows, CODEGEN, NULL,
     "gathers that read each lane's own row (a[lid * ld + k], k unrolled) become row loads and shuffles, tested at run time for a 32-bit index that wraps (vectorize/gather_rows.c)"},
    {"combine-scatters", combine_scatters, CODEGEN, NULL,
     "scatters of a vector's components across work-items become shuffles and whole stores when a run time test finds them contiguous (vectorize/scatter_groups.c)"},
    {"scatter-rows", scatter_rows, CODEGEN, NULL,
     "scatters that write each lane's few consecutive elements (c[(idm + mi) * ldc + idn + ni], ni unrolled; a select on a uniform flag followed to either side) become shuffles and a store per lane, tested at run time for the select's side and a 32-bit index that wraps (vectorize/scatter_rows.c)"},
    {"pair-chains", pair_chains, CODEGEN, NULL,
     "two chains of FMAs on half-register vectors that multiply by the same broadcast at every step become one chain on full registers (vectorize/pair_chains.c)"},
    {"half-lower", half_lower, CODEGEN, NULL,
     "half operations LLVM 19's x86 back end gets wrong, through float (target/x86/half_lower.c)"},
    {"drop-vector-variants", drop_vector_variants, CODEGEN, NULL,
     "the vector variants the vectoriser did not call are deleted (vectorize/vector_variants.c)"},
    {"local-helpers", local_helpers, CODEGEN, NULL,
     "function definitions other than the work-group functions become internal: each part of a program compiled in parts has its own copies (backend/codegen_split.c)"},
    {"streaming-stores", streaming_stores, CODEGEN, NULL,
     "large write-only vector stores become non-temporal, tested at run time (target/x86/streaming_stores.c)"},
    {"prefetch-strides", prefetch_strides, CODEGEN, NULL,
     "loads in inner loops whose pointer moves 2 KB to 16 MB an iteration (tested at run time: the hardware prefetchers stop at 2 KB strides and 4 KB pages) are prefetched about 256 cycles ahead (target/x86/stride_prefetch.c)"},
    {"hoist-tests", hoist_tests, CODEGEN, NULL,
     "the run time tests of combine-gathers, gather-rows, combine-scatters and LLVM's vectoriser (its wrap tests) that are affine in their loop's counter are evaluated once before it, at its first and last trips; the loop runs without them (their slow paths deleted) when they hold throughout, else as it was; tests decided at compile time lose their other path (vectorize/hoist_tests.c); after prefetch-strides, which would take a work-item loop left without its scalar remainder loop for an inner loop"},
    {"fast-rsqrt", fast_rsqrt, CODEGEN, NULL,
     "AVX-512: float 1 / sqrt(x) becomes VRSQRT14PS and a Newton step (target/x86/fast_rsqrt.c)"},
    {"combine-atomics", combine_atomics, CODEGEN, NULL,
     "a group's relaxed atomic additions summed per address, applied once (target/x86/atomic_combining.c)"},
    {"shift-lanes", shift_lanes, CODEGEN, NULL,
     "vector shifts by constants get amount 0 in out-of-range and poison lanes: LLVM 19's x86 code generator takes those lanes for zero (target/x86/shift_lanes.c)"},
    {NULL, NULL, 0, NULL, NULL},
};
#undef BUILD
#undef CODEGEN

/* ---- running it ---- */

size_t loom_pipeline_count(void) {
  size_t n = 0;
  while (loom_passes[n].name)
    n++;
  return n;
}

size_t loom_pipeline_codegen_start(void) {
  size_t i = 0;
  while (loom_passes[i].name && loom_passes[i].stage != LOOM_STAGE_CODEGEN)
    i++;
  return i;
}

const struct loom_pass *loom_pass_find(const char *name) {
  for (const struct loom_pass *ps = loom_passes; ps->name; ps++)
    if (!strcmp(ps->name, name))
      return ps;
  return NULL;
}

int loom_pipeline_verify(struct loom_pipeline *p, const char *when) {
  char *msg = NULL;
  if (!LLVMVerifyModule(p->m, LLVMReturnStatusAction, &msg)) {
    LLVMDisposeMessage(msg);
    return 0;
  }
  const char *dump = loom_cfg_str(LOOM_CFG_DUMP_IR);
  if (dump) /* the invalid module, for a bug report */
    LLVMPrintModuleToFile(p->m, dump, NULL);
  loom_str_append(p->log, "error: LoomCL made invalid IR ");
  loom_str_append(p->log, when);
  loom_str_append(p->log, ":\n");
  /* the verifier lists every broken instruction: the first lines say enough */
  if (msg && strlen(msg) > 4000)
    strcpy(msg + 3990, "\n...\n");
  loom_str_append(p->log, msg ? msg : "");
  loom_str_append(p->log, "\n");
  LLVMDisposeMessage(msg);
  return -1;
}

int loom_pipeline_run(struct loom_pipeline *p, size_t first, size_t last) {
  struct loom_timer t;
  loom_time_start(&t);
  for (size_t i = first; i <= last && loom_passes[i].name; i++) {
    const struct loom_pass *ps = &loom_passes[i];
    if (ps->run(p) != 0) {
      if (!*p->log || !strstr(*p->log, "error"))
        loom_str_append(p->log, "error: the compiler failed in a LoomCL pass\n");
      return -1;
    }
    loom_time_phase(&t, ps->name);
    if (p->verify_each) {
      char when[64];
      snprintf(when, sizeof when, "after pass %s", ps->name);
      if (loom_pipeline_verify(p, when))
        return -1;
    }
  }
  return 0;
}

void loom_pipeline_finish(struct loom_pipeline *p) {
  if (p->td)
    LLVMDisposeTargetData(p->td);
  p->td = NULL;
  if (p->lib)
    LLVMDisposeModule(p->lib);
  p->lib = NULL;
  LLVMDisposeMessage(p->features);
  p->features = NULL;
}

int loom_pipeline_prepare_alone(struct loom_pipeline *p, LLVMModuleRef m,
                                const struct loom_target *target,
                                struct loom_program_binary *out, char **log) {
  memset(p, 0, sizeof *p);
  memset(out, 0, sizeof *out);
  p->m = m;
  p->target = target;
  p->out = out;
  p->log = log;
  p->tm = loom_target_machine(target);
  if (!p->tm) {
    loom_str_append(log, "error: no code generator for this host\n");
    return -1;
  }
  p->td = LLVMCreateTargetDataLayout(p->tm);
  p->features = LLVMGetTargetMachineFeatureString(p->tm);
  p->any_outer = loom_module_has_outer_loops(m);
  if (loom_kernel_meta_from_module(m, p->td, true, out) < 0) {
    loom_str_append(log, "error: the module's kernel metadata cannot be read\n");
    return -1;
  }
  return 0;
}

int loom_pipeline_build(struct loom_pipeline *p) {
  p->verify_each = loom_cfg_int(LOOM_CFG_VERIFY) == 1;
  if (loom_pipeline_run(p, 0, loom_pipeline_codegen_start() - 1))
    return -1;
  /* always, whatever LOOMCL_VERIFY says: LLVM's optimiser assumes valid IR
   * and may crash the application on anything else */
  struct loom_timer t;
  loom_time_start(&t);
  int rc = loom_pipeline_verify(p, "before optimisation");
  loom_time_phase(&t, "verify");
  return rc;
}

int loom_pipeline_codegen(LLVMModuleRef m, LLVMTargetMachineRef tm, bool opt_disable,
                          bool any_outer, struct loom_blob *object, char **log) {
  struct loom_pipeline p = {
      .m = m,
      .tm = tm,
      .opt_disable = opt_disable,
      .any_outer = any_outer,
      .features = LLVMGetTargetMachineFeatureString(tm),
      .verify_each = loom_cfg_int(LOOM_CFG_VERIFY) == 1,
      .log = log,
  };
  int rc = loom_pipeline_run(&p, loom_pipeline_codegen_start(), loom_pipeline_count() - 1);
  /* LLVM's code generator may crash on invalid IR, and a LoomCL pass that
   * made some must fail the build instead (a few ms: one linear walk) */
  if (rc == 0 && !p.verify_each)
    rc = loom_pipeline_verify(&p, "before code generation");
  loom_pipeline_finish(&p);
  if (rc == 0)
    rc = loom_emit_object(m, tm, object, log);
  return rc;
}
