/* Formatting printf output from the format string and the argument records
 * generated code stored (printf.h). Each conversion is handed to the host's
 * snprintf with a C type chosen from the specification, so the output is
 * exactly C99's; vectors print their elements separated by commas, each with
 * the same flags, width and precision. */
#include "cpu_printf.h"
#include "printf/printf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* appends printf-style text, growing the buffer (onto the heap) as needed */
static int out_printf(struct loom_printf_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int out_printf(struct loom_printf_out *o, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->data + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0)
      return -1;
    if ((size_t)n > o->limit - o->len)
      return -1;
    if ((size_t)n < o->cap - o->len) {
      o->len += (size_t)n;
      return 0;
    }
    size_t cap = o->cap * 2;
    while (cap <= o->len + (size_t)n)
      cap *= 2;
    char *grown = o->heap ? realloc(o->data, cap) : malloc(cap);
    if (!grown)
      return -1;
    if (!o->heap)
      memcpy(grown, o->data, o->len);
    o->data = grown;
    o->cap = cap;
    o->heap = true;
  }
}

struct record {
  unsigned kind, elem, count;
  const unsigned char *data;
};

static const unsigned char *read_record(const unsigned char *p, struct record *r) {
  uint64_t tag;
  memcpy(&tag, p, 8);
  r->kind = tag & 0xff;
  r->elem = (tag >> 8) & 0xff;
  r->count = (tag >> 16) & 0xff;
  if (r->kind == LOOM_PF_ARG_OTHER || (r->elem != 1 && r->elem != 2 && r->elem != 4 && r->elem != 8))
    r->kind = LOOM_PF_ARG_OTHER, r->elem = 0, r->count = 0;
  r->data = p + 8;
  return p + LOOM_PF_RECORD_BYTES(r->elem, r->count);
}

/* element i's bits, sign-extended from its size */
static int64_t elem_bits(const struct record *r, unsigned i) {
  if (i >= r->count)
    return 0;
  const unsigned char *p = r->data + (size_t)i * r->elem;
  switch (r->elem) {
  case 1: {
    int8_t v;
    memcpy(&v, p, 1);
    return v;
  }
  case 2: {
    int16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    int64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}

static double half_to_double(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0x1f)
    v = mant ? __builtin_nan("") : __builtin_inf();
  else if (exp == 0)
    v = __builtin_ldexp((double)mant, -24);
  else
    v = __builtin_ldexp((double)(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

static double elem_double(const struct record *r, unsigned i) {
  if (i >= r->count)
    return 0.0;
  int64_t bits = elem_bits(r, i);
  if (r->kind != LOOM_PF_ARG_FLOAT)
    return (double)bits;
  if (r->elem == 2)
    return half_to_double((uint16_t)bits);
  if (r->elem == 4) {
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

/* the integer value after the conversion to the specified type */
static void int_value(const struct loom_printf_spec *sp, int64_t bits, long long *s,
                      unsigned long long *u) {
  unsigned width = 32;
  switch (sp->length) {
  case LOOM_PF_LEN_HH: width = 8; break;
  case LOOM_PF_LEN_H: width = 16; break;
  case LOOM_PF_LEN_L:
  case LOOM_PF_LEN_Z:
  case LOOM_PF_LEN_T: width = 64; break;
  default: break;
  }
  uint64_t mask = width == 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
  uint64_t v = (uint64_t)bits & mask;
  *u = v;
  /* sign-extend from width */
  if (width < 64 && (v >> (width - 1)) & 1)
    v |= ~mask;
  *s = (long long)v;
}

/* "%<flags><width>.<precision><length><conv>" for the host's snprintf */
static void host_spec(const struct loom_printf_spec *sp, const char *length, char conv,
                      char *out, size_t cap) {
  int n = snprintf(out, cap, "%%%s", sp->flags);
  if (sp->width >= 0)
    n += snprintf(out + n, cap - (size_t)n, "%d", sp->width);
  if (sp->precision >= 0)
    n += snprintf(out + n, cap - (size_t)n, ".%d", sp->precision);
  snprintf(out + n, cap - (size_t)n, "%s%c", length, conv);
}

/* formats element i of r under specification sp */
static int render_elem(struct loom_printf_out *o, const struct loom_printf_spec *sp,
                       const struct record *r, unsigned i) {
  char hs[64];
  /* the host formats are built at run time from a validated specification */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if (loom_printf_is_int_conv(sp->conv)) {
    long long s;
    unsigned long long u;
    int_value(sp, elem_bits(r, i), &s, &u);
    host_spec(sp, "ll", sp->conv, hs, sizeof hs);
    return (sp->conv == 'd' || sp->conv == 'i') ? out_printf(o, hs, s) : out_printf(o, hs, u);
  }
  if (loom_printf_is_float_conv(sp->conv)) {
    host_spec(sp, "", sp->conv, hs, sizeof hs);
    return out_printf(o, hs, elem_double(r, i));
  }
  host_spec(sp, "", sp->conv, hs, sizeof hs);
  uint64_t bits = (uint64_t)elem_bits(r, i);
  switch (sp->conv) {
  case 'c':
    return out_printf(o, hs, (int)(unsigned char)bits);
  case 's':
    if (r->kind != LOOM_PF_ARG_PTR)
      return 0;
    return out_printf(o, hs, bits ? (const char *)(uintptr_t)bits : "(null)");
  default: /* p */
    return out_printf(o, hs, (void *)(uintptr_t)bits);
  }
#pragma GCC diagnostic pop
}

int loom_printf_render(const char *fmt, const void *records, unsigned num_records,
                       struct loom_printf_out *o) {
  const unsigned char *rec = records;
  unsigned used = 0;
  const char *p = fmt;
  while (*p) {
    const char *lit = p;
    while (*p && *p != '%')
      p++;
    if (p > lit && out_printf(o, "%.*s", (int)(p - lit), lit) != 0)
      return -1;
    if (!*p)
      break;
    struct loom_printf_spec sp;
    const char *err;
    if (loom_printf_parse_spec(p + 1, &sp, &err) != 0)
      return -1;
    p += 1 + sp.chars;
    if (sp.conv == '%') {
      if (out_printf(o, "%%") != 0)
        return -1;
      continue;
    }
    if (used >= num_records)
      continue; /* fewer arguments than conversions: nothing to print */
    struct record r;
    rec = read_record(rec, &r);
    used++;
    unsigned n = sp.vector ? sp.vector : 1;
    for (unsigned i = 0; i < n; i++)
      if ((i && out_printf(o, ",") != 0) || render_elem(o, &sp, &r, i) != 0)
        return -1;
  }
  return 0;
}
