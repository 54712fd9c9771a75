/* Program-scope variables in the global address space (OpenCL C 2.0+):
 * they are ordinary module globals in addrspace(1), compiled into the
 * program's code and so allocated (and initialised) once per loaded program.
 * This file answers CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE from the
 * program's linked bitcode. */
#include "compiler.h"
#include "support/llvm_util.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdlib.h>

uint64_t loom_bitcode_global_var_bytes(const struct loom_blob *bitcode) {
  if (!bitcode || !bitcode->data || !bitcode->size)
    return 0;
  LLVMContextRef c = LLVMContextCreate();
  char *log = NULL;
  struct loom_diag_sink sink = {&log, false}; /* a damaged binary must not exit */
  LLVMContextSetDiagnosticHandler(c, loom_on_diagnostic, &sink);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)bitcode->data, bitcode->size, "loomcl-program", 0);
  LLVMModuleRef m = NULL;
  uint64_t total = 0;
  if (!LLVMParseBitcodeInContext2(c, buf, &m)) {
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
      if (!LLVMIsDeclaration(g) && LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 1)
        total += LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    LLVMDisposeTargetData(td);
    LLVMDisposeModule(m);
  }
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(c);
  free(log);
  return total;
}
