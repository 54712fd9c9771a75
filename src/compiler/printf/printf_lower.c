/* printf in kernels: every call `printf(format, args...)` becomes
 *
 *   __loom_printf(format, records, num_args)
 *
 * where `records` is a private buffer holding each argument as a
 * self-describing record (printf.h): the runtime formats from the format
 * string and the records, whatever the arguments' types, so a mismatch can
 * never make it read past the arguments. A constant format (the spec requires
 * one) is checked here: grammar errors, missing arguments and vector
 * arguments that cannot match their specification are build errors. */
#include "support/llvm_util.h"
#include "printf/printf.h"
#include "support/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of a constant string that v points to (a global constant, maybe
 * through constant GEPs and casts), up to its first NUL; NULL if v is not
 * one. */
static const char *constant_string(LLVMValueRef v, size_t *len) {
  uint64_t offset = 0;
  while (LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMAddrSpaceCast || op == LLVMBitCast) {
      v = LLVMGetOperand(v, 0);
      continue;
    }
    if (op != LLVMGetElementPtr)
      return NULL;
    LLVMTypeRef src = LLVMGetGEPSourceElementType(v);
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    uint64_t idx[2] = {0, 0};
    if (n < 2 || n > 3)
      return NULL;
    for (unsigned i = 1; i < n; i++) {
      if (!LLVMIsAConstantInt(LLVMGetOperand(v, i)))
        return NULL;
      idx[i - 1] = LLVMConstIntGetZExtValue(LLVMGetOperand(v, i));
    }
    if (LLVMGetTypeKind(src) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(src) == 8 && n == 2)
      offset += idx[0];
    else if (LLVMGetTypeKind(src) == LLVMArrayTypeKind && n == 3 &&
             LLVMGetTypeKind(LLVMGetElementType(src)) == LLVMIntegerTypeKind &&
             LLVMGetIntTypeWidth(LLVMGetElementType(src)) == 8)
      offset += idx[0] * LLVMGetArrayLength2(src) + idx[1];
    else
      return NULL;
    v = LLVMGetOperand(v, 0);
  }
  if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || !LLVMGetInitializer(v))
    return NULL;
  LLVMValueRef init = LLVMGetInitializer(v);
  const char *data = "";
  size_t size = 0;
  if (LLVMIsAConstantDataSequential(init) && LLVMIsConstantString(init))
    data = LLVMGetAsString(init, &size);
  else if (!LLVMIsAConstantAggregateZero(init))
    return NULL;
  if (offset > size)
    return NULL;
  data += offset;
  size -= offset;
  const char *nul = memchr(data, 0, size);
  *len = nul ? (size_t)(nul - data) : size;
  return data;
}

/* how one argument is stored as a record */
struct arg_shape {
  enum loom_printf_arg_kind kind;
  unsigned elem_bytes, count;
  LLVMTypeRef elem; /* element type as called */
};

static struct arg_shape shape_of(LLVMTypeRef t) {
  struct arg_shape s = {LOOM_PF_ARG_OTHER, 0, 0, NULL};
  unsigned count = 1;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    count = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    if (w == 8 || w == 16 || w == 32 || w == 64)
      s = (struct arg_shape){LOOM_PF_ARG_INT, w / 8, count, t};
    else if (w == 1 && count == 1) /* widened to a 32-bit int when stored */
      s = (struct arg_shape){LOOM_PF_ARG_INT, 4, 1, t};
    break;
  }
  case LLVMHalfTypeKind:
    s = (struct arg_shape){LOOM_PF_ARG_FLOAT, 2, count, t};
    break;
  case LLVMFloatTypeKind:
    s = (struct arg_shape){LOOM_PF_ARG_FLOAT, 4, count, t};
    break;
  case LLVMDoubleTypeKind:
    s = (struct arg_shape){LOOM_PF_ARG_FLOAT, 8, count, t};
    break;
  case LLVMPointerTypeKind:
    if (count == 1)
      s = (struct arg_shape){LOOM_PF_ARG_PTR, 8, 1, t};
    break;
  default:
    break;
  }
  if (count > 255)
    s = (struct arg_shape){LOOM_PF_ARG_OTHER, 0, 0, NULL};
  return s;
}

static size_t record_bytes(struct arg_shape s) {
  return LOOM_PF_RECORD_BYTES(s.elem_bytes, s.count);
}

/* the format, quoted for messages (escapes, at most ~80 characters) */
static void quote_format(const char *f, size_t len, char *out, size_t cap) {
  size_t o = 0;
  out[o++] = '"';
  for (size_t i = 0; i < len && o + 8 < cap; i++) {
    char c = f[i];
    if (c == '\n' || c == '\t' || c == '"' || c == '\\') {
      out[o++] = '\\';
      out[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : c;
    } else if ((unsigned char)c < 32 || (unsigned char)c >= 127) {
      o += (size_t)snprintf(out + o, cap - o, "\\x%02x", (unsigned char)c);
    } else {
      out[o++] = c;
    }
    if (o > 80 && i + 1 < len) {
      memcpy(out + o, "...", 3);
      o += 3;
      break;
    }
  }
  out[o++] = '"';
  out[o] = 0;
}

struct checker {
  char **log;
  const char *fmt;
  size_t fmt_len;
  const char *fn_name;
  int errors;
};

static void report(struct checker *ck, const char *spec, size_t spec_len, const char *msg) {
  char q[128], qs[128], line[512];
  quote_format(ck->fmt, ck->fmt_len, q, sizeof q);
  if (spec) {
    quote_format(spec - 1, spec_len + 1, qs, sizeof qs);
    snprintf(line, sizeof line, "error: in function '%s': invalid printf format %s: %s: %s\n",
             ck->fn_name, q, qs, msg);
  } else {
    snprintf(line, sizeof line, "error: in function '%s': printf format %s: %s\n", ck->fn_name, q,
             msg);
  }
  loom_str_append(ck->log, line);
  ck->errors++;
}

/* Does the argument fit the specification? Only mismatches that would make
 * the output meaningless are errors; scalar type mismatches are left to
 * Clang's -Wformat warnings (and formatted from the record as well as they
 * can be). */
static const char *check_arg(const struct loom_printf_spec *sp, LLVMTypeRef t) {
  bool is_vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  struct arg_shape s = shape_of(t);
  if (sp->conv == 's')
    return s.kind == LOOM_PF_ARG_PTR ? NULL : "the argument of %s must be a literal string";
  if (!sp->vector)
    return is_vec ? "a vector argument needs a vector specifier (vn) and a length modifier" : NULL;
  if (!is_vec)
    return "the vector specifier needs a vector argument";
  if (s.count != sp->vector)
    return "the vector size of the specifier does not match the argument";
  bool fp = loom_printf_is_float_conv(sp->conv);
  if (fp != (s.kind == LOOM_PF_ARG_FLOAT) || (!fp && s.kind != LOOM_PF_ARG_INT))
    return "the vector's element type does not match the conversion";
  static const unsigned bytes[] = {[LOOM_PF_LEN_HH] = 1, [LOOM_PF_LEN_H] = 2, [LOOM_PF_LEN_HL] = 4,
                                   [LOOM_PF_LEN_L] = 8};
  if (sp->length >= sizeof bytes / sizeof bytes[0] || bytes[sp->length] != s.elem_bytes)
    return "the length modifier does not match the vector's element type";
  return NULL;
}

/* Validates a constant format against the call's arguments. */
static void check_format(struct checker *ck, LLVMValueRef call, unsigned nargs) {
  const char *f = ck->fmt, *end = ck->fmt + ck->fmt_len;
  unsigned used = 0;
  bool missing = false;
  for (const char *p = f; p < end; p++) {
    if (*p != '%')
      continue;
    struct loom_printf_spec sp;
    const char *err = NULL;
    size_t avail = (size_t)(end - p - 1);
    if (loom_printf_parse_spec(p + 1, &sp, &err) != 0) {
      report(ck, p + 1, sp.chars < avail ? sp.chars : avail, err);
      return;
    }
    if (sp.conv != '%') {
      if (used + 1 >= nargs) {
        missing = true;
      } else {
        const char *bad = check_arg(&sp, LLVMTypeOf(LLVMGetArgOperand(call, used + 1)));
        if (bad)
          report(ck, p + 1, sp.chars, bad);
      }
      used++;
    }
    p += sp.chars;
  }
  if (missing) {
    char msg[128];
    snprintf(msg, sizeof msg, "%u argument%s expected after the format, %u given", used,
             used == 1 ? "" : "s", nargs - 1);
    report(ck, NULL, 0, msg);
  }
}

/* stores argument v as a record at buf + offset; returns the record's size */
static size_t store_record(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef buf, size_t offset,
                           LLVMValueRef v) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  struct arg_shape s = shape_of(LLVMTypeOf(v));
  uint64_t tag = (uint64_t)s.kind | (uint64_t)s.elem_bytes << 8 | (uint64_t)s.count << 16;
  LLVMValueRef off = loom_i64(c, offset);
  LLVMValueRef at = LLVMBuildGEP2(bld, i8, buf, &off, 1, "");
  LLVMSetAlignment(LLVMBuildStore(bld, LLVMConstInt(i64, tag, 0), at), 8);
  if (s.kind == LOOM_PF_ARG_OTHER)
    return record_bytes(s);
  if (s.kind == LOOM_PF_ARG_PTR)
    v = LLVMBuildPtrToInt(bld, v, i64, "");
  else if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1)
    v = LLVMBuildZExt(bld, v, LLVMInt32TypeInContext(c), "");
  off = loom_i64(c, offset + 8);
  at = LLVMBuildGEP2(bld, i8, buf, &off, 1, "");
  LLVMSetAlignment(LLVMBuildStore(bld, v, at), 8);
  return record_bytes(s);
}

/* one record buffer per function, as large as its largest printf needs */
struct fn_buffer {
  LLVMValueRef fn, alloca;
  size_t bytes;
};

static LLVMValueRef buffer_for(struct fn_buffer *bufs, size_t *nbufs, LLVMValueRef fn,
                               LLVMContextRef c, size_t bytes) {
  size_t i;
  for (i = 0; i < *nbufs && bufs[i].fn != fn; i++)
    ;
  if (i == *nbufs) {
    bufs[i] = (struct fn_buffer){fn, NULL, 0};
    (*nbufs)++;
  }
  if (bytes > bufs[i].bytes) {
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderBefore(bld, loom_first_non_phi(LLVMGetEntryBasicBlock(fn)));
    LLVMValueRef a = LLVMBuildAlloca(bld, LLVMArrayType2(LLVMInt8TypeInContext(c), bytes), "printf_args");
    LLVMSetAlignment(a, 16);
    if (bufs[i].alloca) {
      LLVMReplaceAllUsesWith(bufs[i].alloca, a);
      LLVMInstructionEraseFromParent(bufs[i].alloca);
    }
    bufs[i].alloca = a;
    bufs[i].bytes = bytes;
    LLVMDisposeBuilder(bld);
  }
  return bufs[i].alloca;
}

int loom_lower_printf(LLVMModuleRef m, char **log) {
  LLVMValueRef pf = LLVMGetNamedFunction(m, "printf");
  if (!pf)
    return 0;
  size_t ncalls = 0, cap = 8;
  LLVMValueRef *calls = malloc(cap * sizeof *calls);
  for (LLVMUseRef u = LLVMGetFirstUse(pf); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != pf)
      continue; /* not a call: left for the undefined-function check */
    if (ncalls == cap)
      calls = realloc(calls, (cap *= 2) * sizeof *calls);
    calls[ncalls++] = user;
  }
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef params[3] = {ptr, ptr, i32};
  LLVMValueRef rt = loom_get_fn(m, LOOM_SYM_PRINTF, i32, params, 3);
  loom_add_fn_attr(rt, "nounwind");
  LLVMBuilderRef bld = LLVMCreateBuilderInContext(c);
  struct fn_buffer *bufs = calloc(ncalls + 1, sizeof *bufs);
  size_t nbufs = 0;
  int errors = 0;
  for (size_t i = 0; i < ncalls; i++) {
    LLVMValueRef call = calls[i];
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    LLVMValueRef fmt = nargs ? LLVMGetArgOperand(call, 0) : NULL;
    size_t flen = 0, fnlen = 0;
    const char *fs = fmt ? constant_string(fmt, &flen) : NULL;
    if (fs) {
      struct checker ck = {log, fs, flen, LLVMGetValueName2(fn, &fnlen), 0};
      check_format(&ck, call, nargs);
      errors += ck.errors;
    }
    if (!fmt)
      continue;
    size_t bytes = 0;
    for (unsigned a = 1; a < nargs; a++)
      bytes += record_bytes(shape_of(LLVMTypeOf(LLVMGetArgOperand(call, a))));
    LLVMPositionBuilderBefore(bld, call);
    LLVMValueRef buf = bytes ? buffer_for(bufs, &nbufs, fn, c, bytes) : LLVMConstNull(ptr);
    size_t off = 0;
    for (unsigned a = 1; a < nargs; a++)
      off += store_record(bld, c, buf, off, LLVMGetArgOperand(call, a));
    LLVMValueRef f0 = LLVMTypeOf(fmt) == ptr ? fmt : LLVMBuildAddrSpaceCast(bld, fmt, ptr, "");
    LLVMValueRef args[3] = {f0, buf, LLVMConstInt(i32, nargs - 1, 0)};
    LLVMValueRef r = LLVMBuildCall2(bld, LLVMGlobalGetValueType(rt), rt, args, 3, "");
    LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
  }
  free(bufs);
  free(calls);
  LLVMDisposeBuilder(bld);
  if (!LLVMGetFirstUse(pf))
    LLVMDeleteFunction(pf);
  return errors ? -1 : 0;
}
