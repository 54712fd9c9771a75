/* Every LOOMCL_* environment variable, in one table. tools/loom-config-doc
 * prints it as the README's table, and a test checks that the README holds
 * exactly that table: change a row here, then run
 * `build/loom-config-doc --update README.md`.
 *
 * X(id, type, default, choices, doc) -- the variable is LOOMCL_<id>. Types:
 *   FLAG    0 or 1
 *   COUNT   a non-negative integer (strtoull syntax: 0x.., k/M/G suffixes no)
 *   AUTO    a non-negative integer, or unset for the default the code chooses
 *   TEXT    any string (a path, a command line); unset: NULL
 *   CHOICE  one of the words in `choices` ("a|b|c"), stored as its index
 * Defaults of AUTO and TEXT rows are -1 / NULL ("not given"); the code that
 * uses them says what it does then, and the doc says it too. */
X(CACHE_DIR, TEXT, 0, 0,
  "where compiled programs are cached (default `$XDG_CACHE_HOME/loomcl` or `~/.cache/loomcl`)")
X(CACHE, FLAG, 1, 0, "`0` disables the on-disk program cache")
X(THREADS, AUTO, -1, 0, "number of worker threads that run work-groups (default: online cores)")
X(STREAMING_STORES, AUTO, -1, 0,
  "a launch writing at least this many bytes of a buffer it never reads writes it past the caches (default: the last-level cache size or 4 MiB per core, whichever is smaller; `0`: never)")
X(GROUP_PREFETCH, FLAG, 1, 0,
  "`0` turns off prefetching the `const` buffer slices of the next work-groups in 1D launches of kernels with barriers (by default a launch of 4096 groups or more tries it against not prefetching and keeps the faster)")
X(CLANG, TEXT, 0, 0, "the clang 19 binary used as the OpenCL C front end (default: the one LoomCL was built with)")
X(SPARE_TOOLS, FLAG, 1, 0,
  "`0`: no Clang or SPIR-V translator process is started ahead of the next build (by default, after each build from OpenCL C, or from SPIR-V, one waits, loaded, for the next: the tool's start-up, about 100 ms, is then paid while nothing waits for it)")
X(SPIRV_TRANSLATOR, TEXT, 0, 0,
  "the SPIRV-LLVM translator (`llvm-spirv-15`) that reads SPIR-V programs (default: the one found when LoomCL was built)")
X(DUMP_IR, TEXT, 0, 0, "writes the kernel module before optimisation to this file")
X(DUMP_IR_OPT, TEXT, 0, 0,
  "writes the kernel module after optimisation to this file (`clBuildProgram` then optimises before it returns, the program in one part)")
X(DUMP_ASM, TEXT, 0, 0,
  "appends the generated code of every compiled module (programs, kernels specialised for their local size) to this file as assembly")
X(COMPILE_THREADS, AUTO, -1, 0,
  "threads that optimise and generate code after `clBuildProgram` returns, and the parts a program with several kernels is compiled in (default: online cores, at most 8; `0`: inside `clBuildProgram`, in one part)")
X(TIME_BUILD, FLAG, 0, 0, "`1` prints the time of every build phase to stderr")
X(SPECIALIZE, CHOICE, 1, "0|1|verbose|always",
  "`0`: kernels are never recompiled for the local size they are launched with; `1` (default): a kernel with barriers (or images) is, at its first launch for that launch's size (a cached code is loaded), at other sizes in the background once they have run 100 ms (no later launch waits); a launch then runs its work-groups alternately with both codes, timed, and the faster is kept; `verbose`: as `1`, each compilation and choice reported on stderr; `always`: compiled at the second launch, which waits for it, and always used (reported as with `verbose`; for tests)")
X(LLVM_ARGS, TEXT, 0, 0,
  "extra LLVM options, space-separated, and LLVM's optimisation remarks to stderr (e.g. `-pass-remarks-missed=loop-vectorize` says why a work-item loop did not vectorise)")
X(CHECK_OVERRUN, FLAG, 0, 0,
  "`1`: the padding after every buffer is filled with a pattern and checked when the buffer is released; a buffer a kernel wrote past the end of is reported on stderr (its size, and which bytes after it changed)")
X(LOG, TEXT, 0, 0,
  "`api`: every error an entry point returns is explained on stderr by the rule that failed (`clEnqueueNDRangeKernel`, `clCreateBuffer`, `clBuildProgram`, `clSetKernelArg`, ...)")
X(VERIFY, CHOICE, LOOMCL_VERIFY_DEFAULT, "0|1",
  "`0` (default): the kernel module is verified once, before LLVM's optimiser; `1` (default of Debug builds; the test suite sets it): after every LoomCL pass too; a failure is a build error, never a crash")
X(PERF, FLAG, 0, 0,
  "`1`: generated code is described to Linux `perf` in a jitdump file (`jit-<pid>.dump` in `$JITDUMPDIR`, default `~/.debug/jit`): `perf record -k 1`, then `perf inject --jit` names each kernel's work-group function in `perf report` and `perf annotate`")
X(JIT_SWEEP, COUNT, 64, 0,
  "unused JIT symbol names are freed after every this many program unloads (`1`: after each, as the tests do to catch a name freed while in use)")
