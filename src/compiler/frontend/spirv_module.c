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
  OP_TYPE_POINTER = 32,
  OP_LOAD = 61,
  OP_STORE = 62,
  OP_COPY_MEMORY = 63,
  OP_COPY_MEMORY_SIZED = 64,
  OP_DECORATE = 71,
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
    {58, "SubgroupDispatch", false},
    {59, "NamedBarrier", false},
    {60, "PipeStorage", false},
    {61, "GroupNonUniform", false},
    {62, "GroupNonUniformVote", false},
    {63, "GroupNonUniformArithmetic", false},
    {64, "GroupNonUniformBallot", false},
    {65, "GroupNonUniformShuffle", false},
    {66, "GroupNonUniformShuffleRelative", false},
    {67, "GroupNonUniformClustered", false},
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

/* Rewrites what translator 15 cannot read into what it can; returns the
 * new module (w itself, or a larger copy: w is then freed) of *out_n words,
 * NULL when out of memory. The module was walked: every instruction fits.
 *  - OpDecorateString and OpMemberDecorateString (UserSemantic strings and
 *    the like, SPIR-V 1.4) carry no meaning for execution: dropped;
 *  - OpCopyMemorySized with separate target and source memory operands
 *    (1.4) keeps the first set, which applies to both in SPIR-V 1.0;
 *  - OpCopyMemory, which the translator cannot read at all (it asserts),
 *    becomes an OpLoad of the source's pointee type into a new id and an
 *    OpStore of it, each with its own memory operands. */
static uint32_t *legalize(uint32_t *w, size_t n, size_t *out_n) {
  uint32_t bound = w[3];
  uint32_t *pointee = calloc(bound, sizeof *pointee); /* of each pointer type */
  uint32_t *type_of = calloc(bound, sizeof *type_of); /* pointer-typed values */
  uint32_t *out = NULL;
  if (!pointee || !type_of)
    goto done;
  size_t copies = 0;
  for (size_t at = 5; at < n; at += w[at] >> 16) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    if (op == OP_TYPE_POINTER && wc >= 4 && w[at + 1] < bound)
      pointee[w[at + 1]] = w[at + 3];
    else if (may_define_pointer(op) && wc >= 3 && w[at + 1] < bound && w[at + 2] < bound &&
             pointee[w[at + 1]])
      type_of[w[at + 2]] = w[at + 1];
    copies += op == OP_COPY_MEMORY;
  }
  out = malloc((n + 4 * copies) * sizeof *out);
  if (!out)
    goto done;
  memcpy(out, w, 5 * sizeof *w);
  size_t o = 5;
  for (size_t at = 5; at < n;) {
    uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
    const uint32_t *ins = &w[at];
    at += wc;
    if (op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING)
      continue;
    if (op == OP_COPY_MEMORY && wc >= 3 && ins[2] < bound && type_of[ins[2]] &&
        bound < SPIRV_MAX_BOUND) {
      uint32_t first = wc > 3 ? memory_operand_words(ins[3]) : 0;
      if (3 + first > wc)
        first = wc - 3;
      uint32_t second = 3 + first < wc ? wc - 3 - first : first; /* one set: both */
      const uint32_t *dst_ops = &ins[3], *src_ops = 3 + first < wc ? &ins[3 + first] : &ins[3];
      uint32_t id = bound++;
      out[o++] = ((4 + second) << 16) | OP_LOAD;
      out[o++] = pointee[type_of[ins[2]]];
      out[o++] = id;
      out[o++] = ins[2];
      memcpy(&out[o], src_ops, second * sizeof *out);
      o += second;
      out[o++] = ((3 + first) << 16) | OP_STORE;
      out[o++] = ins[1];
      out[o++] = id;
      memcpy(&out[o], dst_ops, first * sizeof *out);
      o += first;
      continue;
    }
    uint32_t keep = wc;
    if (op == OP_COPY_MEMORY_SIZED && wc > 4 && 4 + memory_operand_words(ins[4]) < wc)
      keep = 4 + memory_operand_words(ins[4]);
    memcpy(&out[o], ins, keep * sizeof *out);
    out[o] = (keep << 16) | op;
    o += keep;
  }
  out[3] = bound;
  *out_n = o;
done:
  free(pointee);
  free(type_of);
  free(w);
  return out;
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
