/* OpenCL C printf (OpenCL C 2.0, 6.13.13): the format grammar, shared by the
 * compiler (which rejects malformed constant formats at build time) and the
 * device runtimes (which format the output), and the argument record layout
 * between generated code and the runtime. */
#ifndef LOOM_PRINTF_H
#define LOOM_PRINTF_H
#include "compiler.h"

/* ---- the format grammar ---- */
enum loom_printf_length {
  LOOM_PF_LEN_NONE,
  LOOM_PF_LEN_HH, /* char (vector: charn) */
  LOOM_PF_LEN_H,  /* short (vector: shortn, halfn) */
  LOOM_PF_LEN_HL, /* vector only: intn, floatn */
  LOOM_PF_LEN_L,  /* long (vector: longn, doublen) */
  LOOM_PF_LEN_Z,  /* size_t (OpenCL C 3.0 later revisions) */
  LOOM_PF_LEN_T,  /* ptrdiff_t (OpenCL C 3.0 later revisions) */
};

/* one conversion specification: %[flags][width][.precision][vn][length]conv */
struct loom_printf_spec {
  char flags[8];   /* NUL-terminated subset of "-+ #0" in the order written */
  int width;       /* -1: none */
  int precision;   /* -1: none */
  unsigned vector; /* 0: scalar, else 2, 3, 4, 8 or 16 */
  enum loom_printf_length length;
  char conv;       /* d i o u x X f F e E g G a A c s p % */
  size_t chars;    /* characters after the '%' */
};

/* Parses the specification that starts right after a '%' at s. Returns 0,
 * or -1 with a static message in *error for an invalid specification. */
int loom_printf_parse_spec(const char *s, struct loom_printf_spec *spec,
                           const char **error) LOOM_HIDDEN;
/* conversion classes */
bool loom_printf_is_int_conv(char conv) LOOM_HIDDEN;
bool loom_printf_is_float_conv(char conv) LOOM_HIDDEN;

/* ---- argument records (generated code -> runtime) ----
 * Every printf argument becomes one record, 8-byte aligned: an 8-byte tag
 * (byte 0 kind, byte 1 bytes per element, byte 2 element count) followed by
 * the elements, packed, padded to a multiple of 8 bytes. Scalars have count 1;
 * pointers are stored as 64-bit integers. */
enum loom_printf_arg_kind {
  LOOM_PF_ARG_OTHER = 0, /* not printable (no elements follow) */
  LOOM_PF_ARG_INT = 1,
  LOOM_PF_ARG_FLOAT = 2,
  LOOM_PF_ARG_PTR = 3,
};
#define LOOM_PF_RECORD_BYTES(elem_bytes, count) (8 + (((size_t)(elem_bytes) * (count) + 7) & ~(size_t)7))

/* The function generated code calls instead of printf:
 *   int __loom_printf(const char *format, const void *records, int num_records)
 * Each device driver provides it (the CPU driver: devices/cpu/cpu_printf.c). */
#define LOOM_SYM_PRINTF "__loom_printf"

/* printf_lower.c: replaces every printf call in m by a call to
 * __loom_printf with the arguments packed into records; a malformed constant
 * format, or arguments that cannot match it, are build errors (in *log).
 * Returns 0, or -1 on errors. */
struct LLVMOpaqueModule; /* LLVMModuleRef, without the LLVM headers */
int loom_lower_printf(struct LLVMOpaqueModule *m, char **log) LOOM_HIDDEN;

#endif
