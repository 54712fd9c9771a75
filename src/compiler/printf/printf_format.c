/* The OpenCL C printf format grammar (OpenCL C 2.0, 6.13.13):
 *   %[flags][width][.precision][vn][length]conversion
 * Everything the spec leaves undefined in the grammar (a vector specifier
 * without a length modifier, hl without a vector, reserved modifiers and
 * conversions, lengths that do not apply to the conversion) is rejected, so
 * that the compiler can report it as a build error. */
#include "printf/printf.h"
#include <string.h>

#define MAX_FIELD 100000000 /* larger widths and precisions are rejected */

bool loom_printf_is_int_conv(char conv) {
  return conv && strchr("diouxX", conv) != NULL;
}

bool loom_printf_is_float_conv(char conv) {
  return conv && strchr("fFeEgGaA", conv) != NULL;
}

/* reads a decimal number at *s; -1 if it is too large */
static int read_number(const char **s) {
  long v = 0;
  while (**s >= '0' && **s <= '9') {
    if (v <= MAX_FIELD)
      v = v * 10 + (**s - '0');
    (*s)++;
  }
  return v > MAX_FIELD ? -1 : (int)v;
}

/* records the error and how far the specification reaches (through the
 * offending character) */
static int fail_at(struct loom_printf_spec *sp, const char *start, const char *at,
                   const char **error, const char *msg) {
  *error = msg;
  sp->chars = (size_t)(at - start) + (*at ? 1 : 0);
  return -1;
}
#define fail(error, msg) fail_at(sp, start, s, error, msg)

static const char *parse_length(const char **s, enum loom_printf_length *len) {
  const char *p = *s;
  *len = LOOM_PF_LEN_NONE;
  if (p[0] == 'h' && p[1] == 'h') {
    *len = LOOM_PF_LEN_HH;
    p += 2;
  } else if (p[0] == 'h' && p[1] == 'l') {
    *len = LOOM_PF_LEN_HL;
    p += 2;
  } else if (p[0] == 'h') {
    *len = LOOM_PF_LEN_H;
    p++;
  } else if (p[0] == 'l' && p[1] == 'l') {
    return "the length modifier 'll' is reserved in OpenCL C";
  } else if (p[0] == 'l') {
    *len = LOOM_PF_LEN_L;
    p++;
  } else if (p[0] == 'z') {
    *len = LOOM_PF_LEN_Z;
    p++;
  } else if (p[0] == 't') {
    *len = LOOM_PF_LEN_T;
    p++;
  } else if (p[0] == 'j' || p[0] == 'L') {
    return "the length modifiers 'j' and 'L' are reserved in OpenCL C";
  }
  *s = p;
  return NULL;
}

/* does the length modifier fit the conversion (and the vector specifier)? */
static const char *check_length(const struct loom_printf_spec *sp) {
  bool is_int = loom_printf_is_int_conv(sp->conv), is_float = loom_printf_is_float_conv(sp->conv);
  if (sp->vector) {
    if (!is_int && !is_float)
      return "a vector specifier applies only to the d, i, o, u, x, X, a, A, e, E, f, F, g and G conversions";
    if (sp->length == LOOM_PF_LEN_NONE)
      return "a vector specifier needs a length modifier (hh, h, hl or l)";
    if (sp->length == LOOM_PF_LEN_Z || sp->length == LOOM_PF_LEN_T)
      return "the length modifiers 'z' and 't' do not apply to vectors";
    if (is_float && sp->length == LOOM_PF_LEN_HH)
      return "the length modifier 'hh' does not apply to floating-point vectors";
    return NULL;
  }
  if (sp->length == LOOM_PF_LEN_NONE)
    return NULL;
  if (sp->length == LOOM_PF_LEN_HL)
    return "the length modifier 'hl' is only allowed with a vector specifier";
  if (is_int)
    return NULL;
  if (is_float) /* C99's %lf: l has no effect on a scalar double */
    return sp->length == LOOM_PF_LEN_L ? NULL
                                       : "this length modifier does not apply to a scalar floating-point conversion";
  if (sp->conv == 'c' || sp->conv == 's')
    return "length modifiers are not supported with the c and s conversions";
  return "length modifiers are not supported with the p conversion";
}

int loom_printf_parse_spec(const char *s, struct loom_printf_spec *sp, const char **error) {
  const char *start = s;
  memset(sp, 0, sizeof *sp);
  sp->width = -1;
  sp->precision = -1;
  size_t nf = 0;
  while (*s && strchr("-+ #0", *s)) {
    if (!memchr(sp->flags, *s, nf) && nf + 1 < sizeof sp->flags)
      sp->flags[nf++] = *s;
    s++;
  }
  if (*s == '*')
    return fail(error, "a field width given as '*' is not supported in OpenCL C");
  if (*s >= '0' && *s <= '9' && (sp->width = read_number(&s)) < 0)
    return fail(error, "the field width is too large");
  if (*s == '.') {
    s++;
    if (*s == '*')
      return fail(error, "a precision given as '*' is not supported in OpenCL C");
    if ((sp->precision = read_number(&s)) < 0)
      return fail(error, "the precision is too large");
  }
  if (*s == 'v') {
    s++;
    if (*s < '0' || *s > '9')
      return fail(error, "the vector specifier needs a size (2, 3, 4, 8 or 16)");
    int n = read_number(&s);
    if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
      return fail(error, "the vector size must be 2, 3, 4, 8 or 16");
    sp->vector = (unsigned)n;
  }
  const char *len_error = parse_length(&s, &sp->length);
  if (len_error)
    return fail(error, len_error);
  sp->conv = *s;
  if (!*s)
    return fail(error, "the conversion specification is incomplete");
  if (*s == 'n')
    return fail(error, "the conversion specifier 'n' is reserved in OpenCL C");
  if (!strchr("diouxXfFeEgGaAcsp%", *s))
    return fail(error, "invalid conversion specifier");
  s++;
  sp->chars = (size_t)(s - start);
  if (sp->conv == '%') {
    if (sp->chars != 1) {
      *error = "a '%' conversion must be written as '%%'";
      return -1;
    }
    return 0;
  }
  const char *bad = check_length(sp);
  if (bad) {
    *error = bad;
    return -1;
  }
  return 0;
}
