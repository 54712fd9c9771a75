/* The front end: Clang 19 compiles OpenCL C to LLVM bitcode for spir64 (a
 * target that keeps OpenCL address spaces). Clang runs as a child process
 * (started ahead of time: tool_spare.c) whose working directory is a private
 * temporary folder holding the source and any embedded headers, so
 * `#include "name.h"` finds them exactly as the application named them.
 * Clang's diagnostics become the build log verbatim. */
#include "support/build_time.h"
#include "frontend/clang_overlap.h"
#include "frontend/tool_spare.h"
#include "frontend/opencl_features.h"
#include "compiler.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *clang_path(void) {
  const char *p = loom_cfg_str(LOOM_CFG_CLANG);
  return p ? p : LOOMCL_CLANG_PATH;
}

/* Writes header `name` (possibly with sub-folders) below dir. */
static int write_header(const char *dir, const struct loom_header *h) {
  if (!h->name || strstr(h->name, "..") || h->name[0] == '/')
    return -1;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, h->name);
  char *slash = strrchr(path, '/');
  if (slash && slash > path + strlen(dir)) {
    *slash = 0;
    loom_mkdirs(path);
    *slash = '/';
  }
  return loom_write_file(path, h->source, strlen(h->source));
}

/* The OpenCL C feature table (opencl_features.h): what Clang enables
 * (-cl-ext=-all,+name,...; FP64 rows on targets with doubles) ... */
enum feature_when { ENABLED, ENABLED_FP64, UNDEFINED };
#define WHEN_YES ENABLED
#define WHEN_FP64 ENABLED_FP64
#define WHEN_NO UNDEFINED
static const struct {
  const char *name;
  enum feature_when when;
} features[] = {
#define FEATURE(name, version, when) {name, WHEN_##when},
    LOOM_OPENCL_C_FEATURES(FEATURE)
#undef FEATURE
};

/* ... and the header every program is compiled with (-include): #undefs
 * what the device lacks but Clang's headers define, and the device's
 * OpenCL version, which Clang leaves to the implementation */
#define UNDEF_YES(name)
#define UNDEF_FP64(name)
#define UNDEF_NO(name) "#undef " name "\n"
#define UNDEF(name, version, when) UNDEF_##when(name)
/* cl_intel_subgroups' functions, which Clang does not declare
 * (builtins/subgroup.cl defines them) */
#define INTEL_SUBGROUPS                                                            \
  "#ifdef cl_intel_subgroups\n"                                                   \
  "#define __LOOM_O __attribute__((overloadable))\n"                              \
  "#define __LOOM_SG1(T) T __LOOM_O intel_sub_group_shuffle(T, uint); "           \
  "T __LOOM_O intel_sub_group_shuffle_xor(T, uint); "                             \
  "T __LOOM_O intel_sub_group_shuffle_down(T, T, uint); "                         \
  "T __LOOM_O intel_sub_group_shuffle_up(T, T, uint);\n"                          \
  "#define __LOOM_SG(T) __LOOM_SG1(T) __LOOM_SG1(T##2) __LOOM_SG1(T##3) "         \
  "__LOOM_SG1(T##4) __LOOM_SG1(T##8) __LOOM_SG1(T##16)\n"                          \
  "__LOOM_SG(char) __LOOM_SG(uchar) __LOOM_SG(short) __LOOM_SG(ushort) "          \
  "__LOOM_SG(int) __LOOM_SG(uint) __LOOM_SG(long) __LOOM_SG(ulong) "              \
  "__LOOM_SG(float)\n"                                                            \
  "#ifdef cl_khr_fp64\n__LOOM_SG(double)\n#endif\n"                               \
  "#define __LOOM_SGB(N, S) uint##N __LOOM_O intel_sub_group_block_read##S("      \
  "const __global uint *); "                                                      \
  "void __LOOM_O intel_sub_group_block_write##S(__global uint *, uint##N); "      \
  "uint##N __LOOM_O intel_sub_group_block_read##S(read_only image2d_t, int2); "   \
  "void __LOOM_O intel_sub_group_block_write##S(write_only image2d_t, int2, uint##N);\n" \
  "#define __LOOM_SGBRW(N, S) "                                                   \
  "uint##N __LOOM_O intel_sub_group_block_read##S(read_write image2d_t, int2); "  \
  "void __LOOM_O intel_sub_group_block_write##S(read_write image2d_t, int2, uint##N);\n" \
  "#define uint1 uint\n"                                                          \
  "__LOOM_SGB(1, ) __LOOM_SGB(2, 2) __LOOM_SGB(4, 4) __LOOM_SGB(8, 8)\n"          \
  "#if __OPENCL_C_VERSION__ >= 200\n"                                             \
  "__LOOM_SGBRW(1, ) __LOOM_SGBRW(2, 2) __LOOM_SGBRW(4, 4) __LOOM_SGBRW(8, 8)\n"  \
  "#endif\n"                                                                      \
  "#undef uint1\n#undef __LOOM_SGB\n#undef __LOOM_SGBRW\n#undef __LOOM_SG\n"     \
  "#undef __LOOM_SG1\n"                                                           \
  "#undef __LOOM_O\n#endif\n"
static const char prelude[] =
    LOOM_OPENCL_C_FEATURES(UNDEF) "#define __OPENCL_VERSION__ 300\n" INTEL_SUBGROUPS;
#undef UNDEF


/* headroom a build from source needs: the builtin library, LoomCL's passes,
 * O3 and code generation of a small program, the compile threads' stacks */
#define BUILD_HEADROOM ((uint64_t)512 << 20)

int loom_compile_source(const char *source, const struct loom_header *headers,
                        size_t num_headers, const char *options,
                        const struct loom_target *target, struct loom_blob *bitcode,
                        char **log) {
  *log = strdup("");
  if (!*log)
    return -1;
  if (!loom_memory_headroom(BUILD_HEADROOM + 64 * (uint64_t)strlen(source))) {
    loom_str_append(log, "error: not enough memory to compile the program (the address space "
                         "limit, RLIMIT_AS, leaves too little)\n");
    return -3;
  }
  struct loom_timer t;
  loom_time_start(&t);
  struct loom_build_options o;
  if (loom_parse_compile_options(options, &o, log) != 0)
    return -2;
  char *dir = loom_make_temp_dir();
  if (!dir) {
    loom_free_options(&o);
    loom_str_append(log, "error: cannot create a temporary folder\n");
    return -1;
  }
  int rc = 0;
  for (size_t i = 0; i < num_headers && rc == 0; i++)
    if (write_header(dir, &headers[i]) != 0) {
      loom_str_append(log, "error: invalid header name\n");
      rc = -1;
    }
  /* Clang's opencl-c-base.h defines optional OpenCL C 3.0 features and
   * extensions a SPIR target could have; the program must see only what the
   * device reports (CL_DEVICE_OPENCL_C_FEATURES), so the prelude undefines
   * the rest */
  char prelude_path[4096], prelude_dir[4096], src_path[4096];
  snprintf(prelude_path, sizeof prelude_path, "%s/.loomcl-prelude/features.h", dir);
  snprintf(prelude_dir, sizeof prelude_dir, "%s/.loomcl-prelude", dir);
  snprintf(src_path, sizeof src_path, "%s/program.cl", dir);
  if (rc == 0 && (loom_mkdirs(prelude_dir) != 0 ||
                  loom_write_file(prelude_path, prelude, sizeof prelude - 1) != 0))
    rc = -1;
  if (rc == 0 && loom_write_file(src_path, source, strlen(source)) != 0)
    rc = -1;

  /* the front end sees exactly the features and extensions the device
   * reports */
  char ext[2048] = "-cl-ext=-all";
  for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
    if (features[i].when == ENABLED || (features[i].when == ENABLED_FP64 && target->fp64))
      snprintf(ext + strlen(ext), sizeof ext - strlen(ext), ",+%s", features[i].name);
  for (const char *e = target->extensions ? target->extensions : ""; *e;) {
    while (*e == ' ')
      e++;
    size_t n = strcspn(e, " ");
    if (n && n < 200 && strlen(ext) + n + 3 < sizeof ext)
      snprintf(ext + strlen(ext), sizeof ext - strlen(ext), ",+%.*s", (int)n, e);
    e += n;
  }
  char incl[4200], bc_path[4200];
  snprintf(incl, sizeof incl, "-I%s", dir);
  snprintf(bc_path, sizeof bc_path, "%s/program.bc", dir);
  /* Clang's arguments after its path; they reach it through a pipe
   * (tool_spare.c), so no size limit of a command line applies. The
   * source's own name stays relative: the log says `program.cl:2:5: error` */
  const char *fixed[] = {"-working-directory", dir, "-x", "cl", "-target", "spir64-unknown-unknown",
                         "-Xclang", "-fdeclare-opencl-builtins", "-Xclang",
                         "-finclude-default-header", "-Xclang", ext, "-emit-llvm", "-c", "-O2",
                         "-Xclang", "-disable-llvm-passes", "-ffp-contract=on",
                         "-fno-discard-value-names", incl};
  size_t nf = sizeof fixed / sizeof fixed[0];
  char **args = calloc(nf + o.num_clang_args + 8, sizeof(char *));
  if (!args && rc == 0) {
    loom_str_append(log, "error: out of host memory\n");
    rc = -1;
  }
  if (rc == 0) {
    size_t a = 0;
    for (size_t i = 0; i < nf; i++)
      args[a++] = (char *)fixed[i];
    if (o.cl_std == 0)
      args[a++] = "-cl-std=CL1.2";
    for (size_t i = 0; i < o.num_clang_args; i++)
      args[a++] = o.clang_args[i];
    args[a++] = "-include";
    args[a++] = ".loomcl-prelude/features.h";
    args[a++] = "-o";
    args[a++] = bc_path;
    args[a++] = "program.cl";
    loom_time_phase(&t, "front end: setup");
    /* the link step's preparation runs while Clang does */
    struct loom_overlap *overlap = loom_overlap_begin(target);
    rc = loom_tool_call(clang_path(), args, a, "the OpenCL C front end", log);
    loom_time_phase(&t, "front end: clang");
    loom_overlap_end(overlap);
    loom_time_phase(&t, "front end: wait for helper");
  }
  free(args);
  if (rc == 0) {
    if (loom_read_file(bc_path, bitcode) != 0)
      rc = -1;
  } else if (strstr(*log, "unknown argument") || strstr(*log, "unsupported option") ||
             strstr(*log, "invalid value") || strstr(*log, "unsupported argument")) {
    rc = -2;
  }
  loom_free_options(&o);
  loom_remove_temp_dir(dir);
  return rc;
}
