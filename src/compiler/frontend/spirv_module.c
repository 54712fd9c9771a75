/* LoomCL's own reading of a SPIR-V module, before the translator sees it
 * (spirv.c): the checks that give a malformed or unsupported module a
 * precise error instead of the translator's crash or silence, and the facts
 * the runtime needs without translating (specialization constants and
 * their sizes, for clSetProgramSpecializationConstant).
 *
 * It walks the instruction stream once and never reads past the module:
 * every length comes from the module and is checked against its size. */
#include "compiler.h"
#include "support/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPIRV_MAGIC 0x07230203u
/* SPIR-V's universal limit on ids (2.17, "Universal Limits") */
#define SPIRV_MAX_BOUND 0x3FFFFFu

enum {
  OP_UNDEF = 1,
  OP_EXTENSION = 10,
  OP_MEMORY_MODEL = 14,
  OP_ENTRY_POINT = 15,
  OP_CAPABILITY = 17,
  OP_TYPE_BOOL = 20,
  OP_TYPE_INT = 21,
  OP_TYPE_FLOAT = 22,
  OP_SPEC_CONSTANT_TRUE = 48,
  OP_SPEC_CONSTANT_FALSE = 49,
  OP_SPEC_CONSTANT = 50,
  OP_TYPE_VECTOR = 23,
  OP_TYPE_ARRAY = 28,
  OP_TYPE_STRUCT = 30,
  OP_TYPE_POINTER = 32,
  OP_CONSTANT = 43,
  OP_FUNCTION = 54,
  OP_LOAD = 61,
  OP_STORE = 62,
  OP_COPY_MEMORY = 63,
  OP_COPY_MEMORY_SIZED = 64,
  OP_DECORATE = 71,
  OP_COMPOSITE_CONSTRUCT = 80,
  OP_COMPOSITE_EXTRACT = 81,
  OP_COMPOSITE_INSERT = 82,
  OP_CONVERT_PTR_TO_U = 117,
  OP_BITCAST = 124,
  OP_ISUB = 130,
  OP_SDIV = 135,
  OP_IEQUAL = 170,
  OP_INOT_EQUAL = 171,
  OP_PTR_EQUAL = 401,
  OP_PTR_NOT_EQUAL = 402,
  OP_PTR_DIFF = 403,
  OP_COPY_LOGICAL = 400,
  OP_DECORATE_STRING = 5632,
  OP_MEMBER_DECORATE_STRING = 5633,
};
enum { DECORATION_SPEC_ID = 1 };
enum { ADDRESSING_PHYSICAL32 = 1, ADDRESSING_PHYSICAL64 = 2, MEMORY_MODEL_OPENCL = 2 };
enum { EXECUTION_MODEL_KERNEL = 6 };

/* The capabilities a LoomCL device accepts (the SPIR-V environment spec's
 * list for a full-profile device, as far as LoomCL implements the features
 * behind them), and the names of the others for the error message. */
static const struct {
  uint32_t id;
  const char *name;
  bool supported;
} capabilities[] = {
    {0, "Matrix", false},
    {1, "Shader", false},
    {4, "Addresses", true},
    {5, "Linkage", true},
    {6, "Kernel", true},
    {7, "Vector16", true},
    {8, "Float16Buffer", true},
    {9, "Float16", true},
    {10, "Float64", true},
    {11, "Int64", true},
    {12, "Int64Atomics", true},
    {13, "ImageBasic", true},
    {14, "ImageReadWrite", true},
    {15, "ImageMipmap", false},
    {17, "Pipes", false},
    {18, "Groups", true},
    {19, "DeviceEnqueue", false},
    {20, "LiteralSampler", true},
    {22, "Int16", true},
    {38, "GenericPointer", true},
    {39, "Int8", true},
    {43, "Sampled1D", true},
    {44, "Image1D", true},
    {46, "SampledBuffer", true},
    {47, "ImageBuffer", true},
    {50, "ImageQuery", true},
    {58, "SubgroupDispatch", true},
    {59, "NamedBarrier", false},
    {60, "PipeStorage", false},
    {61, "GroupNonUniform", true},
    {62, "GroupNonUniformVote", true},
    {63, "GroupNonUniformArithmetic", true},
    {64, "GroupNonUniformBallot", true},
    {65, "GroupNonUniformShuffle", true},
    {66, "GroupNonUniformShuffleRelative", true},
    {67, "GroupNonUniformClustered", true},
    {5568, "SubgroupShuffleINTEL", true},
    {5569, "SubgroupBufferBlockIOINTEL", true},
    {5570, "SubgroupImageBlockIOINTEL", true},
    {5629, "ExpectAssumeKHR", true},
};

static void fail(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(char **log, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  loom_str_append(log, "error: SPIR-V: ");
  loom_str_append(log, msg);
  loom_str_append(log, "\n");
}

static uint32_t swap32(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

/* Checks a capability; false (logged) for one the device does not have. */
static bool capability_ok(uint32_t cap, char **log) {
  for (size_t i = 0; i < sizeof capabilities / sizeof *capabilities; i++)
    if (capabilities[i].id == cap) {
      if (!capabilities[i].supported)
        fail(log, "the module declares capability %s (%u), which this device does not support",
             capabilities[i].name, cap);
      return capabilities[i].supported;
    }
  fail(log, "the module declares capability %u, which this device does not support", cap);
  return false;
}

/* Sets the literal words of a specialization constant of `size` bytes
 * (signed: a signed integer type) to v's value, as SPIR-V lays literals
 * out: narrow types in the low bits of one word, zero- or sign-extended;
 * 64-bit types low word first. */
static void set_literal(uint32_t *words, uint32_t num_words, uint32_t size, bool is_signed,
                        uint64_t bits) {
  if (size == 8 && num_words >= 2) {
    words[0] = (uint32_t)bits;
    words[1] = (uint32_t)(bits >> 32);
  } else if (num_words >= 1) {
    uint32_t v = (uint32_t)bits;
    if (size < 4) {
      uint32_t shift = 32 - 8 * size;
      v = is_signed ? (uint32_t)((int32_t)(v << shift) >> shift) : (v << shift) >> shift;
    }
    words[0] = v;
  }
}

/* The value set for SpecId id, or NULL. */
static const struct loom_spec_value *value_of(const struct loom_spec_value *values, size_t n,
                                              uint32_t id) {
  for (size_t i = 0; i < n; i++)
    if (values[i].id == id)
      return &values[i];
  return NULL;
}

/* Checks the module in w (n words, native byte order after the caller's
 * swap), fills out, and with values given writes them into the module's
 * specialization constants. */
static int walk(uint32_t *w, size_t n, struct loom_spirv_info *out,
                const struct loom_spec_value *values, size_t num_values, char **log);
static uint32_t *legalize(uint32_t *w, size_t n, size_t *out_n);

int loom_spirv_inspect(const void *il, size_t size, struct loom_spirv_info *out, char **log) {
  uint32_t *w = NULL;
  size_t n = 0;
  int rc = loom_spirv_prepare(il, size, NULL, 0, &w, &n, out, log);
  free(w);
  return rc;
}

int loom_spirv_prepare(const void *il, size_t size, const struct loom_spec_value *values,
                       size_t num_values, uint32_t **words, size_t *num_words,
                       struct loom_spirv_info *out, char **log) {
  memset(out, 0, sizeof *out);
  *words = NULL;
  *num_words = 0;
  if (size % 4 != 0) {
    fail(log, "the module is %zu bytes long, not a whole number of 32-bit words", size);
    return -1;
  }
  size_t n = size / 4;
  if (n < 5) {
    fail(log, "the module is %zu words long, shorter than the 5-word header", n);
    return -1;
  }
  uint32_t *w = malloc(size);
  if (!w) {
    fail(log, "out of host memory");
    return -1;
  }
  memcpy(w, il, size);
  if (w[0] == swap32(SPIRV_MAGIC)) {
    /* a module of the other endianness: read (and translate) it swapped */
    for (size_t i = 0; i < n; i++)
      w[i] = swap32(w[i]);
    out->swapped = true;
  } else if (w[0] != SPIRV_MAGIC) {
    fail(log, "the magic number is 0x%08x, not 0x07230203", w[0]);
    free(w);
    return -1;
  }
  out->version = w[1];
  uint32_t major = (w[1] >> 16) & 0xff, minor = (w[1] >> 8) & 0xff;
  if ((w[1] & 0xff0000ffu) != 0 || major != 1 || minor > 5) {
    fail(log, "version word 0x%08x (SPIR-V %u.%u): this device reads SPIR-V 1.0 to 1.5", w[1],
         major, minor);
    free(w);
    return -1;
  }
  uint32_t bound = w[3];
  if (bound == 0 || bound > SPIRV_MAX_BOUND) {
    fail(log, "the id bound %u is not between 1 and 0x3FFFFF", bound);
    free(w);
    return -1;
  }
  if (w[4] != 0) {
    fail(log, "the header's reserved schema word is %u, not 0", w[4]);
    free(w);
    return -1;
  }
  int rc = walk(w, n, out, values, num_values, log);
  if (rc != 0) {
    free(w);
    loom_spirv_info_free(out);
    return rc;
  }
  /* The translator reads SPIR-V up to 1.4. A 1.5 module is handed to it as
   * 1.4: what 1.5 added for kernels is new instructions and enumerants,
   * which the translator rejects by name if the module uses them. */
  if (minor == 5)
    w[1] = 0x00010400u;
  if (!(*words = legalize(w, n, num_words))) {
    fail(log, "out of host memory");
    loom_spirv_info_free(out);
    return -1;
  }
  return 0;
}

/* Words of the operands a memory-access mask (OpLoad, OpStore,
 * OpCopyMemory) brings after itself: Aligned's literal, the scope ids of
 * MakePointerAvailable and MakePointerVisible. */
static uint32_t memory_operand_words(uint32_t mask) {
  return 1 + ((mask & 0x2) != 0) + ((mask & 0x8) != 0) + ((mask & 0x10) != 0);
}

/* Opcodes whose word 1 is a result type and word 2 a result id that can
 * be a pointer: how legalize finds the type of OpCopyMemory's source. */
static bool may_define_pointer(uint32_t op) {
  static const uint16_t ops[] = {1,   46,  55,  57,  59,  61,  65,  66,  67,
                                 70,  83,  120, 121, 122, 123, 124, 169, 245};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (ops[i] == op)
      return true;
  return false;
}

/* What legalize knows of the module's types and pointer values. */
struct legal {
  uint32_t bound;
  uint32_t *pointee;  /* of each pointer type */
  uint32_t *type_of;  /* the type of each pointer-typed value */
  uint32_t *size_of;  /* bytes of scalar and vector types (3 components: 4) */
  uint32_t *int_bits; /* width of integer types */
  uint32_t ulong;     /* an OpTypeInt 64 0, or 0 */
  unsigned char *is_type;
  unsigned char *is_aggregate; /* struct and array types */
  uint32_t *value_type; /* the type of each value (word 1 of its definition) */
  size_t *struct_at;    /* where each OpTypeStruct is in the module */
  const uint32_t *w;
  /* constants PtrDiff divides by: (type, value) -> id, emitted before the
   * first function */
  struct { uint32_t type, value, id; } consts[32];
  size_t num_consts;
  uint32_t *out;
  size_t o;
};

static void emit(struct legal *l, uint32_t op, uint32_t n, const uint32_t *operands) {
  l->out[l->o++] = ((n + 1) << 16) | op;
  memcpy(&l->out[l->o], operands, n * sizeof *operands);
  l->o += n;
}

/* the id of the integer constant (type, value), made if new; 0 if full */
static uint32_t constant(struct legal *l, uint32_t type, uint32_t value) {
  for (size_t i = 0; i < l->num_consts; i++)
    if (l->consts[i].type == type && l->consts[i].value == value)
      return l->consts[i].id;
  if (l->num_consts == sizeof l->consts / sizeof *l->consts || l->bound >= SPIRV_MAX_BOUND)
    return 0;
  l->consts[l->num_consts].type = type;
  l->consts[l->num_consts].value = value;
  return l->consts[l->num_consts++].id = l->bound++;
}

static bool is_pointer_value(const struct legal *l, uint32_t id) {
  return id < l->bound && l->type_of[id];
}

/* SPIR-V 1.4-1.5 pointer operations as 1.0 integer ones, written to l->out;
 * false when ins is not one or cannot be rewritten (then copied as is). */
static bool rewrite_pointer_op(struct legal *l, uint32_t op, uint32_t wc, const uint32_t *ins) {
  if (wc < 4 || l->bound + 4 >= SPIRV_MAX_BOUND)
    return false;
  uint32_t type = ins[1], result = ins[2];
  if (op == OP_BITCAST && is_pointer_value(l, ins[3]) && type < l->bound) {
    /* a pointer bitcast to a 64-bit integer or vector (1.5) */
    if (l->int_bits[type] == 64) {
      emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){type, result, ins[3]});
      return true;
    }
    if (l->size_of[type] == 8 && l->ulong) {
      uint32_t t = l->bound++;
      emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){l->ulong, t, ins[3]});
      emit(l, OP_BITCAST, 3, (uint32_t[]){type, result, t});
      return true;
    }
    return false;
  }
  if (wc < 5 || !is_pointer_value(l, ins[3]) || !is_pointer_value(l, ins[4]))
    return false;
  if ((op == OP_PTR_EQUAL || op == OP_PTR_NOT_EQUAL) && l->ulong) {
    uint32_t a = l->bound++, b = l->bound++;
    emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){l->ulong, a, ins[3]});
    emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){l->ulong, b, ins[4]});
    emit(l, op == OP_PTR_EQUAL ? OP_IEQUAL : OP_INOT_EQUAL, 4, (uint32_t[]){type, result, a, b});
    return true;
  }
  if (op == OP_PTR_DIFF && type < l->bound && l->int_bits[type]) {
    /* (a - b) / the element size, in the result's integer type */
    uint32_t elem = l->size_of[l->pointee[l->type_of[ins[3]]] < l->bound
                                   ? l->pointee[l->type_of[ins[3]]]
                                   : 0];
    uint32_t size = elem ? constant(l, type, elem) : 0;
    if (!size)
      return false;
    uint32_t a = l->bound++, b = l->bound++, d = l->bound++;
    emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){type, a, ins[3]});
    emit(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){type, b, ins[4]});
    emit(l, OP_ISUB, 4, (uint32_t[]){type, d, a, b});
    emit(l, OP_SDIV, 4, (uint32_t[]){type, result, d, size});
    return true;
  }
  return false;
}

/* Writes a struct or array of type `type` with the m values members into
 * id result, as OpUndef and one OpCompositeInsert per member: translator 15
 * crashes on an OpCompositeConstruct of a struct whose members are not
 * constants. */
static void emit_aggregate(struct legal *l, uint32_t type, uint32_t result,
                           const uint32_t *members, uint32_t m) {
  uint32_t prev = l->bound++;
  emit(l, OP_UNDEF, 2, (uint32_t[]){type, prev});
  for (uint32_t j = 0; j < m; j++) {
    uint32_t id = j + 1 == m ? result : l->bound++;
    emit(l, OP_COMPOSITE_INSERT, 5, (uint32_t[]){type, id, members[j], prev, j});
    prev = id;
  }
}

/* OpCompositeConstruct of a struct or array: emit_aggregate */
static bool rewrite_construct(struct legal *l, uint32_t wc, const uint32_t *ins) {
  if (wc < 4 || ins[1] >= l->bound || !l->is_aggregate[ins[1]] || l->bound + wc >= SPIRV_MAX_BOUND)
    return false;
  emit_aggregate(l, ins[1], ins[2], &ins[3], wc - 3);
  return true;
}

/* OpCopyLogical (1.4) between two struct types whose members have the same
 * types: the members extracted and a struct of the target type built from
 * them. Others are left to the translator, which rejects them. */
static bool rewrite_copy_logical(struct legal *l, uint32_t wc, const uint32_t *ins) {
  if (wc < 4 || ins[1] >= l->bound || ins[3] >= l->bound)
    return false;
  uint32_t to = ins[1], from = l->value_type[ins[3]];
  if (from >= l->bound || !l->struct_at[to] || !l->struct_at[from])
    return false;
  const uint32_t *st = &l->w[l->struct_at[to]], *sf = &l->w[l->struct_at[from]];
  uint32_t m = (st[0] >> 16) - 2;
  if ((sf[0] >> 16) - 2 != m || memcmp(&st[2], &sf[2], m * sizeof *st) != 0 || m > 64 ||
      l->bound + 2 * m + 2 >= SPIRV_MAX_BOUND)
    return false;
  uint32_t members[64];
  for (uint32_t j = 0; j < m; j++) {
    members[j] = l->bound++;
    emit(l, OP_COMPOSITE_EXTRACT, 4, (uint32_t[]){st[2 + j], members[j], ins[3], j});
  }
  emit_aggregate(l, to, ins[2], members, m);
  return true;
}

/* OpCopyMemory as an OpLoad of the source's pointee type into a new id and
 * an OpStore of it, each with its memory operands (SPIR-V 1.4: the first
 * set for the target, the second for the source; one set: both). */
static bool rewrite_copy_memory(struct legal *l, uint32_t wc, const uint32_t *ins) {
  if (wc < 3 || !is_pointer_value(l, ins[2]) || l->bound >= SPIRV_MAX_BOUND)
    return false;
  uint32_t first = wc > 3 ? memory_operand_words(ins[3]) : 0;
  if (3 + first > wc)
    first = wc - 3;
  uint32_t second = 3 + first < wc ? wc - 3 - first : first;
  const uint32_t *dst_ops = &ins[3], *src_ops = 3 + first < wc ? &ins[3 + first] : &ins[3];
  uint32_t id = l->bound++;
  l->out[l->o++] = ((4 + second) << 16) | OP_LOAD;
  l->out[l->o++] = l->pointee[l->type_of[ins[2]]];
  l->out[l->o++] = id;
  l->out[l->o++] = ins[2];
  memcpy(&l->out[l->o], src_ops, second * sizeof *l->out);
  l->o += second;
  l->out[l->o++] = ((3 + first) << 16) | OP_STORE;
  l->out[l->o++] = ins[1];
  l->out[l->o++] = id;
  memcpy(&l->out[l->o], dst_ops, first * sizeof *l->out);
  l->o += first;
  return true;
}

/* Rewrites what translator 15 cannot read into what it can; returns the
 * new module (w is freed) of *out_n words, NULL when out of memory. The
 * module was walked: every instruction fits.
 *  - OpDecorateString and OpMemberDecorateString (UserSemantic strings and
 *    the like, SPIR-V 1.4) carry no meaning for execution: dropped;
 *  - OpCopyMemorySized with separate target and source memory operands
 *    (1.4) keeps the first set, which applies to both in SPIR-V 1.0;
 *  - OpCopyMemory, which the translator cannot read at all (it asserts),
 *    becomes a load and a store;
 *  - the pointer comparisons and differences of 1.4 and the pointer
 *    bitcasts of 1.5 become integer operations on OpConvertPtrToU;
 *  - OpCopyLogical (1.4) between structs of the same member types becomes
 *    extracts and inserts;
 *  - OpCompositeConstruct of a struct or an array becomes OpUndef and
 *    inserts: translator 15 crashes on a struct of values that are not
 *    constants. */
static uint32_t *legalize(uint32_t *w, size_t n, size_t *out_n) {
  struct legal l = {.bound = w[3]};
  uint32_t b = l.bound;
  l.pointee = calloc(b, sizeof *l.pointee);
  l.type_of = calloc(b, sizeof *l.type_of);
  l.size_of = calloc(b, sizeof *l.size_of);
  l.int_bits = calloc(b, sizeof *l.int_bits);
  l.is_type = calloc(b, 1);
  l.is_aggregate = calloc(b, 1);
  l.value_type = calloc(b, sizeof *l.value_type);
  l.struct_at = calloc(b, sizeof *l.struct_at);
  l.w = w;
  size_t growth = 0;
  if (!l.pointee || !l.type_of || !l.size_of || !l.int_bits || !l.is_type || !l.value_type ||
      !l.struct_at || !l.is_aggregate)
    goto done;
  for (size_t at = 5; at < n; at += w[at] >> 16) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    const uint32_t *ins = &w[at];
    if (op == OP_TYPE_POINTER && wc >= 4 && ins[1] < b) {
      l.pointee[ins[1]] = ins[3];
    } else if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && wc >= 3 && ins[1] < b) {
      l.size_of[ins[1]] = ins[2] / 8;
      if (op == OP_TYPE_INT) {
        l.int_bits[ins[1]] = ins[2];
        if (ins[2] == 64 && wc >= 4 && ins[3] == 0 && !l.ulong)
          l.ulong = ins[1];
      }
    } else if (op == OP_TYPE_VECTOR && wc >= 4 && ins[1] < b && ins[2] < b) {
      l.size_of[ins[1]] = l.size_of[ins[2]] * (ins[3] == 3 ? 4 : ins[3]);
    } else if (may_define_pointer(op) && wc >= 3 && ins[1] < b && ins[2] < b && l.pointee[ins[1]]) {
      l.type_of[ins[2]] = ins[1];
    }
    /* types (OpTypeVoid .. OpTypeReserveId, pipe storage, named barrier),
     * and the type of every value: word 1 of an instruction whose word 1
     * is a type (annotations naming a type come first; a value's own
     * definition, later, overwrites what their word 2 seemed to say) */
    if (((op >= 19 && op <= 38) || op == 322 || op == 327) && wc >= 2 && ins[1] < b) {
      l.is_type[ins[1]] = 1;
      if (op == OP_TYPE_STRUCT)
        l.struct_at[ins[1]] = at;
      l.is_aggregate[ins[1]] = op == OP_TYPE_STRUCT || op == OP_TYPE_ARRAY;
    } else if (wc >= 3 && ins[1] < b && ins[2] < b && l.is_type[ins[1]]) {
      l.value_type[ins[2]] = ins[1];
    }
    if (op == OP_COPY_LOGICAL && wc >= 2 && ins[1] < b && l.struct_at[ins[1]])
      growth += 11 * (size_t)(w[l.struct_at[ins[1]]] >> 16) + 3;
    if (op == OP_COMPOSITE_CONSTRUCT)
      growth += 5 * (size_t)wc + 3;
    growth += 16; /* an instruction becomes at most 4 (PtrDiff: 5 words into 18) */
  }
  l.out = malloc((n + growth + 4 * 32) * sizeof *l.out);
  if (!l.out)
    goto done;
  memcpy(l.out, w, 5 * sizeof *w);
  l.o = 5;
  /* PtrDiff's constants go before the first function: find them first */
  size_t first_function = n;
  for (size_t at = 5; at < n && first_function == n; at += w[at] >> 16)
    if ((w[at] & 0xffff) == OP_FUNCTION)
      first_function = at;
  for (size_t at = first_function; at < n; at += w[at] >> 16) {
    const uint32_t *ins = &w[at];
    uint32_t wc = ins[0] >> 16;
    if ((ins[0] & 0xffff) == OP_PTR_DIFF && wc >= 5 && is_pointer_value(&l, ins[3]) &&
        ins[1] < b && l.int_bits[ins[1]]) {
      uint32_t pt = l.pointee[l.type_of[ins[3]]];
      if (pt < b && l.size_of[pt])
        constant(&l, ins[1], l.size_of[pt]);
    }
  }
  for (size_t at = 5; at < n;) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    const uint32_t *ins = &w[at];
    at += wc;
    if (at - wc == first_function)
      for (size_t c = 0; c < l.num_consts; c++)
        emit(&l, OP_CONSTANT, 3, (uint32_t[]){l.consts[c].type, l.consts[c].id, l.consts[c].value});
    if (op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING)
      continue;
    if (op == OP_COPY_MEMORY && rewrite_copy_memory(&l, wc, ins))
      continue;
    if (op == OP_COPY_LOGICAL && rewrite_copy_logical(&l, wc, ins))
      continue;
    if (op == OP_COMPOSITE_CONSTRUCT && rewrite_construct(&l, wc, ins))
      continue;
    if ((op == OP_BITCAST || op == OP_PTR_EQUAL || op == OP_PTR_NOT_EQUAL || op == OP_PTR_DIFF) &&
        rewrite_pointer_op(&l, op, wc, ins))
      continue;
    uint32_t keep = wc;
    if (op == OP_COPY_MEMORY_SIZED && wc > 4 && 4 + memory_operand_words(ins[4]) < wc)
      keep = 4 + memory_operand_words(ins[4]);
    memcpy(&l.out[l.o], ins, keep * sizeof *l.out);
    l.out[l.o] = (keep << 16) | op;
    l.o += keep;
  }
  l.out[3] = l.bound;
  *out_n = l.o;
done:
  free(l.pointee);
  free(l.type_of);
  free(l.size_of);
  free(l.int_bits);
  free(l.is_type);
  free(l.is_aggregate);
  free(l.value_type);
  free(l.struct_at);
  free(w);
  return l.out;
}

static int walk(uint32_t *w, size_t n, struct loom_spirv_info *out,
                const struct loom_spec_value *values, size_t num_values, char **log) {
  uint32_t bound = w[3];
  /* byte sizes of the scalar types (0: not a scalar type), and the SpecId
   * of each decorated id (UINT32_MAX: none) */
  unsigned char *type_size = calloc(bound, 1), *type_signed = calloc(bound, 1);
  uint32_t *spec_id = malloc((size_t)bound * sizeof *spec_id);
  int rc = type_size && type_signed && spec_id ? 0 : -1;
  if (rc)
    fail(log, "out of host memory");
  else
    memset(spec_id, 0xff, (size_t)bound * sizeof *spec_id);
  bool memory_model = false;
  for (size_t at = 5; at < n && rc == 0;) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    if (wc == 0) {
      fail(log, "the instruction at word %zu (opcode %u) has a word count of 0", at, op);
      rc = -1;
      break;
    }
    if (wc > n - at) {
      fail(log, "the module is truncated: the instruction at word %zu (opcode %u) needs %u words, "
                "%zu remain", at, op, wc, n - at);
      rc = -1;
      break;
    }
    const uint32_t *ins = &w[at];
    switch (op) {
    case OP_CAPABILITY:
      if (wc < 2 || !capability_ok(ins[1], log))
        rc = -1;
      break;
    case OP_MEMORY_MODEL:
      memory_model = true;
      if (wc < 3) {
        rc = -1;
        fail(log, "OpMemoryModel at word %zu is too short", at);
      } else if (ins[1] != ADDRESSING_PHYSICAL64) {
        rc = -1;
        fail(log, "addressing model %u: this device has 64-bit addresses (Physical64, 2)%s", ins[1],
             ins[1] == ADDRESSING_PHYSICAL32 ? "; the module is for 32-bit devices" : "");
      } else if (ins[2] != MEMORY_MODEL_OPENCL) {
        rc = -1;
        fail(log, "memory model %u is not OpenCL (2)", ins[2]);
      }
      break;
    case OP_ENTRY_POINT:
      if (wc < 4) {
        rc = -1;
        fail(log, "OpEntryPoint at word %zu is too short", at);
      } else if (ins[1] != EXECUTION_MODEL_KERNEL) {
        rc = -1;
        fail(log, "entry point with execution model %u: OpenCL runs Kernel (6) entry points only",
             ins[1]);
      } else {
        out->num_kernels++;
      }
      break;
    case OP_TYPE_BOOL:
      if (wc >= 2 && ins[1] < bound)
        type_size[ins[1]] = 1; /* clSetProgramSpecializationConstant passes booleans as 1 byte */
      break;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
      if (wc >= 3 && ins[1] < bound && (ins[2] == 8 || ins[2] == 16 || ins[2] == 32 ||
                                        ins[2] == 64)) {
        type_size[ins[1]] = (unsigned char)(ins[2] / 8);
        type_signed[ins[1]] = op == OP_TYPE_INT && wc >= 4 && ins[3] == 1;
      }
      break;
    case OP_DECORATE:
      if (wc >= 4 && ins[2] == DECORATION_SPEC_ID) {
        if (ins[1] >= bound) {
          rc = -1;
          fail(log, "OpDecorate at word %zu targets id %u, beyond the bound %u", at, ins[1], bound);
        } else {
          spec_id[ins[1]] = ins[3];
        }
      }
      break;
    case OP_SPEC_CONSTANT_TRUE:
    case OP_SPEC_CONSTANT_FALSE:
    case OP_SPEC_CONSTANT: {
      if (wc < 3 || ins[1] >= bound || ins[2] >= bound) {
        rc = -1;
        fail(log, "the specialization constant at word %zu is malformed", at);
        break;
      }
      uint32_t id = spec_id[ins[2]];
      if (id == UINT32_MAX)
        break; /* not settable by the application */
      const struct loom_spec_value *v = value_of(values, num_values, id);
      if (v && op == OP_SPEC_CONSTANT) {
        set_literal(&w[at + 3], wc - 3, type_size[ins[1]], type_signed[ins[1]], v->bits);
      } else if (v) { /* the boolean's value is its opcode */
        w[at] = (wc << 16) | (v->bits ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
      }
      struct loom_spirv_spec_const *grown =
          realloc(out->spec, (out->num_spec + 1) * sizeof *out->spec);
      if (!grown) {
        rc = -1;
        fail(log, "out of host memory");
        break;
      }
      out->spec = grown;
      out->spec[out->num_spec].id = id;
      out->spec[out->num_spec].size = op == OP_SPEC_CONSTANT ? type_size[ins[1]] : 1;
      out->spec[out->num_spec].is_bool = op != OP_SPEC_CONSTANT;
      out->num_spec++;
      break;
    }
    default:
      break;
    }
    at += wc;
  }
  if (rc == 0 && !memory_model) {
    fail(log, "the module has no OpMemoryModel");
    rc = -1;
  }
  free(type_size);
  free(type_signed);
  free(spec_id);
  return rc;
}

void loom_spirv_info_free(struct loom_spirv_info *info) {
  free(info->spec);
  info->spec = NULL;
  info->num_spec = 0;
}
