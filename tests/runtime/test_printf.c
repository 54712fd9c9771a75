/* printf in kernels (OpenCL C 2.0, 6.13.13): the process's stdout is
 * redirected into a temporary file around each launch and compared with
 * what the host's snprintf makes of the same formats and values; vector
 * formats, many concurrent work-groups (every line present and whole, each
 * work-item's lines in order), return values including a full printf buffer,
 * flushing before the event completes, and build errors for malformed
 * formats. */
#include "harness.h"
#include <math.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- capturing stdout ---- */
static FILE *cap_file;
static int cap_saved = -1;

static void capture_begin(void) {
  fflush(stdout);
  cap_file = tmpfile();
  if (!cap_file) {
    perror("tmpfile");
    exit(1);
  }
  cap_saved = dup(1);
  dup2(fileno(cap_file), 1);
}

/* restores stdout; returns what was written meanwhile (free it) */
static char *capture_end(size_t *len_out) {
  fflush(stdout);
  dup2(cap_saved, 1);
  close(cap_saved);
  cap_saved = -1;
  int fd = fileno(cap_file);
  off_t size = lseek(fd, 0, SEEK_END);
  char *text = malloc((size_t)(size > 0 ? size : 0) + 1);
  ssize_t got = size > 0 ? pread(fd, text, (size_t)size, 0) : 0;
  text[got > 0 ? got : 0] = 0;
  fclose(cap_file);
  if (len_out)
    *len_out = got > 0 ? (size_t)got : 0;
  return text;
}

/* runs k over global (local may be 0) with stdout captured */
static char *run_captured(struct test_env *env, cl_kernel k, size_t global, size_t local,
                          size_t *len) {
  capture_begin();
  cl_int err = test_run(env, k, 1, NULL, &global, local ? &local : NULL);
  char *out = capture_end(len);
  CHECK_OK(err);
  return out;
}

static void check_text(const char *what, const char *got, const char *want) {
  CHECK(strcmp(got, want) == 0);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "%s: output differs\n--- got:\n%s\n--- expected:\n%s\n", what, got, want);
}

/* ---- scalar conversions: kernel source and host reference from one table ---- */
enum value_kind { V_INT, V_LONG, V_DOUBLE, V_STR, V_CHAR, V_NONE };
struct scalar_case {
  const char *fmt;  /* as in the kernel and for the host */
  const char *expr; /* the kernel's argument */
  enum value_kind kind;
  long long i;
  double d;
  const char *s;
};

static const struct scalar_case scalar_cases[] = {
    {"%d", "-5", V_INT, -5, 0, NULL},
    {"%5d|", "10", V_INT, 10, 0, NULL},
    {"%-5d|", "10", V_INT, 10, 0, NULL},
    {"%05d", "-10", V_INT, -10, 0, NULL},
    {"%+d % d", "42", V_INT, 42, 0, NULL}, /* two conversions, see below */
    {"%.5i", "100", V_INT, 100, 0, NULL},
    {"%6.5i|", "100", V_INT, 100, 0, NULL},
    {"%-06i|", "100", V_INT, 100, 0, NULL},
    {"[%.0d]", "0", V_INT, 0, 0, NULL},
    {"%x %X", "0xABCDEF", V_INT, 0xABCDEF, 0, NULL},
    {"%#x %#X", "0xABCDEF", V_INT, 0xABCDEF, 0, NULL},
    {"%#X", "0", V_INT, 0, 0, NULL},
    {"%o %#o", "100000000", V_INT, 100000000, 0, NULL},
    {"%u", "4294967295u", V_INT, 4294967295ll, 0, NULL},
    {"%hhd", "200", V_INT, 200, 0, NULL},
    {"%hhx", "-128", V_INT, -128, 0, NULL},
    {"%hd", "70000", V_INT, 70000, 0, NULL},
    {"%hx", "-32767", V_INT, -32767, 0, NULL},
    {"%ld", "-9223372036854775807L", V_LONG, -9223372036854775807ll, 0, NULL},
    {"%lx %lo", "-9223372036854775807L", V_LONG, -9223372036854775807ll, 0, NULL},
    {"%lu", "18446744073709551615UL", V_LONG, -1, 0, NULL},
    {"%c|%4c|%-4c|", "'A'", V_CHAR, 'A', 0, NULL},
    {"%f", "10.3456f", V_DOUBLE, 0, (double)10.3456f, NULL},
    {"%.2f %8.3f|", "10.3456f", V_DOUBLE, 0, (double)10.3456f, NULL},
    {"%+08.2f %-9.1f|", "-3.14f", V_DOUBLE, 0, (double)-3.14f, NULL},
    {"%#.0f %.0f", "2.0f", V_DOUBLE, 0, 2.0, NULL},
    {"%e %E", "789456128.f", V_DOUBLE, 0, (double)789456128.f, NULL},
    {"%-#20.15e|", "789456128.f", V_DOUBLE, 0, (double)789456128.f, NULL},
    {"%g %G %4.2g", "12345.6789f", V_DOUBLE, 0, (double)12345.6789f, NULL},
    {"%4G", "0.0000023f", V_DOUBLE, 0, (double)0.0000023f, NULL},
    {"%a %A %.3a", "1.1f", V_DOUBLE, 0, (double)1.1f, NULL},
    {"%a", "0.5f", V_DOUBLE, 0, 0.5, NULL},
    {"%f %F %e %g %a", "INFINITY", V_DOUBLE, 0, INFINITY, NULL},
    {"%f %F %+e %G %A", "-INFINITY", V_DOUBLE, 0, -INFINITY, NULL},
    {"%f %F %E", "NAN", V_DOUBLE, 0, NAN, NULL},
    {"%e", "-0.0f", V_DOUBLE, 0, -0.0, NULL},
    {"%.17g %la %lf", "0.1", V_DOUBLE, 0, 0.1, NULL},
    {"%s|", "\"abc\"", V_STR, 0, 0, "abc"},
    {"[%s]", "\"\"", V_STR, 0, 0, ""},
    {"%.2s|%6s|%-6s|", "\"hello\"", V_STR, 0, 0, "hello"},
    {"%s", "\"foo\\tbar%%d\"", V_STR, 0, 0, "foo\tbar%%d"},
    {"%s", "\"foo\\0bar\"", V_STR, 0, 0, "foo"},
    {"100%% done, %d%%", "7", V_INT, 7, 0, NULL},
    {"no conversions", NULL, V_NONE, 0, 0, NULL},
    {"", NULL, V_NONE, 0, 0, NULL},
    {"extra arguments are ignored", "1, 2.0f, \"x\"", V_NONE, 0, 0, NULL},
};
#define NUM_SCALAR (sizeof scalar_cases / sizeof scalar_cases[0])

/* number of conversions that take an argument in a host format */
static int conversions(const char *f) {
  int n = 0;
  for (; *f; f++)
    if (*f == '%') {
      if (f[1] == '%')
        f++;
      else
        n++;
    }
  return n;
}

#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void expect_scalar(char **s, size_t *len, size_t *cap, const struct scalar_case *c) {
  int n = conversions(c->fmt);
  char line[512];
  switch (c->kind) {
  case V_INT:
  case V_CHAR:
    if (n == 1)
      snprintf(line, sizeof line, c->fmt, (int)c->i);
    else if (n == 2)
      snprintf(line, sizeof line, c->fmt, (int)c->i, (int)c->i);
    else
      snprintf(line, sizeof line, c->fmt, (int)c->i, (int)c->i, (int)c->i);
    break;
  case V_LONG:
    if (n == 1)
      snprintf(line, sizeof line, c->fmt, (long)c->i);
    else
      snprintf(line, sizeof line, c->fmt, (long)c->i, (long)c->i);
    break;
  case V_DOUBLE:
    snprintf(line, sizeof line, c->fmt, c->d, c->d, c->d, c->d, c->d);
    break;
  case V_STR:
    snprintf(line, sizeof line, c->fmt, c->s, c->s, c->s);
    break;
  default:
    snprintf(line, sizeof line, "%s", c->fmt);
    break;
  }
  test_appendf(s, len, cap, "%s\n", line);
}

/* the kernel argument list for case c: its expression once per conversion */
static void kernel_args(char **s, size_t *len, size_t *cap, const struct scalar_case *c) {
  if (!c->expr)
    return;
  if (c->kind == V_NONE) {
    test_appendf(s, len, cap, ", %s", c->expr);
    return;
  }
  for (int i = conversions(c->fmt); i > 0; i--)
    test_appendf(s, len, cap, ", %s", c->expr);
}

static void test_scalars(struct test_env *env) {
  size_t len = 0, cap = 4096, elen = 0, ecap = 4096;
  char *src = malloc(cap), *want = malloc(ecap);
  src[0] = want[0] = 0;
  test_appendf(&src, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                 "kernel void scalars(global int *ret) {\n");
  for (size_t i = 0; i < NUM_SCALAR; i++) {
    test_appendf(&src, &len, &cap, "  ret[%zu] = printf(\"%s\\n\"", i, scalar_cases[i].fmt);
    kernel_args(&src, &len, &cap, &scalar_cases[i]);
    test_appendf(&src, &len, &cap, ");\n");
    expect_scalar(&want, &elen, &ecap, &scalar_cases[i]);
  }
  test_appendf(&src, &len, &cap, "}\n");
  cl_kernel k = test_kernel_from(env, src, "scalars", NULL);
  if (k) {
    int rets[NUM_SCALAR];
    memset(rets, 0x55, sizeof rets);
    cl_mem m = test_buffer_with(env, sizeof rets, rets);
    CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
    char *got = run_captured(env, k, 1, 0, NULL);
    check_text("scalars", got, want);
    test_read_back(env, m, sizeof rets, rets);
    for (size_t i = 0; i < NUM_SCALAR; i++)
      CHECK(rets[i] == 0);
    free(got);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  free(src);
  free(want);
}

/* values that only exist at run time: kernel arguments and buffer data */
static void test_runtime_values(struct test_env *env) {
  const char *src =
      "kernel void values(global const float *f, global const long *l, int i, float x,\n"
      "                   global const void *p, global ulong *addr) {\n"
      "  printf(\"%d %x %f %e %.3a %ld %lx\\n\", i, i, x, f[0], f[1], l[0], l[1]);\n"
      "  printf(\"%c%c%c\\n\", (char)i, (uchar)(i + 1), i + 2);\n"
      "  printf(\"%p\\n\", p);\n"
      "  *addr = (ulong)p;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "values", NULL);
  if (!k)
    return;
  float fv[2] = {-1234.5f, 3.0e-3f};
  cl_long lv[2] = {-42, 0x1234567890abcdefll};
  cl_int iv = 'a';
  float xv = 0.1f;
  cl_mem fb = test_buffer_with(env, sizeof fv, fv), lb = test_buffer_with(env, sizeof lv, lv);
  cl_mem pb = test_buffer_with(env, 64, NULL), ab = test_buffer_with(env, 8, NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof fb, &fb));
  CHECK_OK(clSetKernelArg(k, 1, sizeof lb, &lb));
  CHECK_OK(clSetKernelArg(k, 2, sizeof iv, &iv));
  CHECK_OK(clSetKernelArg(k, 3, sizeof xv, &xv));
  CHECK_OK(clSetKernelArg(k, 4, sizeof pb, &pb));
  CHECK_OK(clSetKernelArg(k, 5, sizeof ab, &ab));
  char *got = run_captured(env, k, 1, 0, NULL);
  cl_ulong addr = 0;
  test_read_back(env, ab, 8, &addr);
  char want[512];
  int n = snprintf(want, sizeof want, "%d %x %f %e %.3a %ld %lx\n", iv, iv, (double)xv,
                   (double)fv[0], (double)fv[1], (long)lv[0], (long)lv[1]);
  n += snprintf(want + n, sizeof want - (size_t)n, "%c%c%c\n", iv, iv + 1, iv + 2);
  snprintf(want + n, sizeof want - (size_t)n, "%p\n", (void *)(uintptr_t)addr);
  CHECK(addr != 0);
  check_text("runtime values", got, want);
  free(got);
  clReleaseMemObject(fb);
  clReleaseMemObject(lb);
  clReleaseMemObject(pb);
  clReleaseMemObject(ab);
  clReleaseKernel(k);
}

/* ---- vectors: each element formatted like a scalar, separated by commas ---- */
static void join(char *out, size_t cap, const char *elem_fmt, int n, const double *d,
                 const long long *v, int is_float) {
  size_t o = 0;
  for (int i = 0; i < n && o < cap; i++) {
    if (i)
      out[o++] = ',';
    int w = is_float ? snprintf(out + o, cap - o, elem_fmt, d[i])
                     : snprintf(out + o, cap - o, elem_fmt, v[i]);
    o += (size_t)w;
  }
  out[o < cap ? o : cap - 1] = 0;
}

static void test_vectors(struct test_env *env) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "kernel void vecs(global const float *f, global const int *n) {\n"
      "  float4 f4 = vload4(0, f);\n"
      "  printf(\"%v4hlf\\n\", f4);\n"
      "  printf(\"f4 = %2.2v4hlf\\n\", (float4)(1.0f, 2.0f, 3.0f, 4.0f));\n"
      "  printf(\"uc = %#v4hhx\\n\", (uchar4)(0xFA, 0xFB, 0xFC, 0xFD));\n"
      "  printf(\"%#v2hx\\n\", (ushort2)(0x1234, 0x8765));\n"
      "  printf(\"%v2hd\\n\", (short2)(n[0], -n[1]));\n"
      "  printf(\"%v3hlu\\n\", vload3(0, (global const uint *)n));\n"
      "  printf(\"%+v8hli\\n\", (int8)(1, -2, 3, -4, 5, -6, 7, -8));\n"
      "  printf(\"%v16hhu\\n\", convert_uchar16(vload16(0, n)));\n"
      "  printf(\"%v2ld\\n\", (long2)(12345678, -98765432));\n"
      "  printf(\"%v4lf\\n\", convert_double4(f4));\n"
      "  printf(\"%v8hlg\\n\", (float8)(1.f, 2.f, 3.f, 4.f, 1.5f, 3.14f, 2.5f, 3.5f));\n"
      "  printf(\"%.1v4hla\\n\", (float4)(0.25f, 0.5f, 1.f, 1.5f));\n"
      "  printf(\"%.2v3hle\\n\", (float3)(1234.25f, 987654.5f, 0.0005f));\n"
      "  printf(\"%v16hlo\\n\", (uint16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 32, 64, 128, 256, 512, 1024));\n"
      "  printf(\"%05v4hlu\\n\", (uint4)(512, 1024, 262144, 1048576));\n"
      "  printf(\"<%-6v2hlX>\\n\", (int2)(255, -1));\n"
      "  printf(\"%v3hhd and %d\\n\", (char3)(-128, 0, 127), 5);\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "vecs", NULL);
  if (!k)
    return;
  float fv[4] = {0.5f, -1.25f, 1e10f, 3.0f};
  int nv[16];
  for (int i = 0; i < 16; i++)
    nv[i] = i * 37 - 5;
  nv[0] = 300;
  nv[1] = 7;
  cl_mem fb = test_buffer_with(env, sizeof fv, fv), nb = test_buffer_with(env, sizeof nv, nv);
  CHECK_OK(clSetKernelArg(k, 0, sizeof fb, &fb));
  CHECK_OK(clSetKernelArg(k, 1, sizeof nb, &nb));
  char *got = run_captured(env, k, 1, 0, NULL);

  size_t len = 0, cap = 1024;
  char *want = malloc(cap), line[512];
  want[0] = 0;
  double d[16] = {0};
  long long v[16] = {0};
  for (int i = 0; i < 4; i++)
    d[i] = fv[i];
  join(line, sizeof line, "%f", 4, d, v, 1);
  test_appendf(&want, &len, &cap, "%s\n", line);
  test_appendf(&want, &len, &cap, "f4 = 1.00,2.00,3.00,4.00\nuc = 0xfa,0xfb,0xfc,0xfd\n");
  test_appendf(&want, &len, &cap, "0x1234,0x8765\n");
  test_appendf(&want, &len, &cap, "%d,%d\n", (short)nv[0], (short)-nv[1]);
  test_appendf(&want, &len, &cap, "%u,%u,%u\n", (unsigned)nv[0], (unsigned)nv[1], (unsigned)nv[2]);
  test_appendf(&want, &len, &cap, "+1,-2,+3,-4,+5,-6,+7,-8\n");
  for (int i = 0; i < 16; i++)
    v[i] = (unsigned char)nv[i];
  join(line, sizeof line, "%llu", 16, d, v, 0);
  test_appendf(&want, &len, &cap, "%s\n", line);
  test_appendf(&want, &len, &cap, "12345678,-98765432\n");
  join(line, sizeof line, "%f", 4, d, v, 1);
  test_appendf(&want, &len, &cap, "%s\n", line);
  test_appendf(&want, &len, &cap, "1,2,3,4,1.5,%g,2.5,3.5\n", (double)3.14f);
  test_appendf(&want, &len, &cap, "0x1.0p-2,0x1.0p-1,0x1.0p+0,0x1.8p+0\n");
  test_appendf(&want, &len, &cap, "%.2e,%.2e,%.2e\n", (double)1234.25f, (double)987654.5f,
               (double)0.0005f);
  test_appendf(&want, &len, &cap, "1,2,3,4,5,6,7,10,11,0,40,100,200,400,1000,2000\n");
  test_appendf(&want, &len, &cap, "00512,01024,262144,1048576\n");
  test_appendf(&want, &len, &cap, "<FF    ,FFFFFFFF>\n");
  test_appendf(&want, &len, &cap, "-128,0,127 and 5\n");
  check_text("vectors", got, want);
  free(got);
  free(want);
  clReleaseMemObject(fb);
  clReleaseMemObject(nb);
  clReleaseKernel(k);
}

/* ---- many work-groups at once ---- */
#define MG_ITEMS 2048
#define MG_LOCAL 32

static int line_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_many_groups(struct test_env *env) {
  const char *src =
      "kernel void many(global int *ret) {\n"
      "  int g = get_global_id(0);\n"
      "  int r = printf(\"first %d group %d: %s %v4ld\\n\", g, (int)get_group_id(0),\n"
      "                 \"a string long enough to make a torn line likely\", (long4)(g, 2 * g, 3 * g, -g));\n"
      "  r |= printf(\"second %d\\n\", g);\n"
      "  ret[g] = r;\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "many", NULL);
  if (!k)
    return;
  cl_mem m = test_buffer_with(env, MG_ITEMS * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t len;
  char *got = run_captured(env, k, MG_ITEMS, MG_LOCAL, &len);
  int *ret = malloc(MG_ITEMS * sizeof *ret);
  test_read_back(env, m, MG_ITEMS * sizeof(int), ret);
  int bad_ret = 0;
  for (int i = 0; i < MG_ITEMS; i++)
    bad_ret += ret[i] != 0;
  CHECK(bad_ret == 0);

  /* split into lines, remembering where each work-item's lines are */
  char **lines = malloc(2 * MG_ITEMS * sizeof *lines + sizeof *lines);
  size_t nlines = 0;
  int *first_at = malloc(MG_ITEMS * sizeof(int)), *second_at = malloc(MG_ITEMS * sizeof(int));
  for (int i = 0; i < MG_ITEMS; i++)
    first_at[i] = second_at[i] = -1;
  int malformed = 0, out_of_order = 0;
  for (char *p = got, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1) {
    *nl = 0;
    if (nlines < 2 * MG_ITEMS)
      lines[nlines] = p;
    int g = -1;
    char want[256];
    if (sscanf(p, "first %d", &g) == 1 && g >= 0 && g < MG_ITEMS) {
      snprintf(want, sizeof want,
               "first %d group %d: a string long enough to make a torn line likely %d,%d,%d,%d", g,
               g / MG_LOCAL, g, 2 * g, 3 * g, -g);
      malformed += strcmp(p, want) != 0 || first_at[g] != -1;
      first_at[g] = (int)nlines;
    } else if (sscanf(p, "second %d", &g) == 1 && g >= 0 && g < MG_ITEMS) {
      snprintf(want, sizeof want, "second %d", g);
      malformed += strcmp(p, want) != 0 || second_at[g] != -1;
      second_at[g] = (int)nlines;
    } else {
      malformed++;
    }
    nlines++;
  }
  int missing = 0;
  for (int i = 0; i < MG_ITEMS; i++) {
    missing += first_at[i] < 0 || second_at[i] < 0;
    out_of_order += first_at[i] >= 0 && second_at[i] >= 0 && first_at[i] > second_at[i];
  }
  CHECK(nlines == 2 * MG_ITEMS);
  CHECK(malformed == 0);
  CHECK(missing == 0);
  CHECK(out_of_order == 0);
  CHECK(len > 0 && got[len - 1] == 0); /* the last line ended with a newline */
  if (nlines != 2 * MG_ITEMS || malformed || missing || out_of_order)
    fprintf(stderr, "many groups: %zu lines, %d malformed, %d missing, %d out of order\n", nlines,
            malformed, missing, out_of_order);
  /* every line distinct */
  if (nlines == 2 * MG_ITEMS) {
    qsort(lines, nlines, sizeof *lines, line_cmp);
    int dup = 0;
    for (size_t i = 1; i < nlines; i++)
      dup += strcmp(lines[i - 1], lines[i]) == 0;
    CHECK(dup == 0);
  }
  free(lines);
  free(first_at);
  free(second_at);
  free(ret);
  free(got);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* ---- a full buffer: printf returns -1 and writes nothing ---- */
#define OV_ITEMS 8192
#define OV_WIDTH 200

static void test_overflow(struct test_env *env) {
  size_t buf_size = 0;
  CHECK_OK(clGetDeviceInfo(env->device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof buf_size, &buf_size,
                           NULL));
  CHECK(buf_size >= 1024 * 1024);
  CHECK((size_t)OV_ITEMS * (OV_WIDTH + 1) > buf_size); /* the launch cannot print it all */
  char src[512];
  snprintf(src, sizeof src,
           "kernel void flood(global int *ret) {\n"
           "  int g = get_global_id(0);\n"
           "  ret[g] = printf(\"%%%dd\\n\", g);\n"
           "}\n",
           OV_WIDTH);
  cl_kernel k = test_kernel_from(env, src, "flood", NULL);
  if (!k)
    return;
  cl_mem m = test_buffer_with(env, OV_ITEMS * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t len;
  char *got = run_captured(env, k, OV_ITEMS, 64, &len);
  int *ret = malloc(OV_ITEMS * sizeof *ret);
  test_read_back(env, m, OV_ITEMS * sizeof(int), ret);
  size_t ok = 0, failed = 0, other = 0;
  char *printed = calloc(OV_ITEMS, 1);
  for (int i = 0; i < OV_ITEMS; i++) {
    ok += ret[i] == 0;
    failed += ret[i] == -1;
    other += ret[i] != 0 && ret[i] != -1;
  }
  CHECK(other == 0);
  CHECK(failed > 0);
  CHECK(ok * (OV_WIDTH + 1) == len); /* exactly the successful calls were printed */
  CHECK(len <= buf_size);
  /* whole lines only, each from a call that returned 0 */
  int bad = 0;
  for (size_t at = 0; at + OV_WIDTH + 1 <= len; at += OV_WIDTH + 1) {
    int g = -1;
    bad += got[at + OV_WIDTH] != '\n' || sscanf(got + at, "%d", &g) != 1 || g < 0 ||
           g >= OV_ITEMS || ret[g] != 0 || printed[g];
    if (g >= 0 && g < OV_ITEMS)
      printed[g] = 1;
  }
  CHECK(bad == 0);
  free(printed);
  free(ret);
  free(got);

  /* the next launch has a fresh buffer */
  size_t one = 1;
  capture_begin();
  cl_int err = test_run(env, k, 1, NULL, &one, NULL);
  got = capture_end(&len);
  CHECK_OK(err);
  CHECK(len == OV_WIDTH + 1);
  int r = -1;
  test_read_back(env, m, sizeof r, &r);
  CHECK(r == 0);
  free(got);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* ---- output is on stdout before the event reports CL_COMPLETE ---- */
static atomic_long size_at_complete = -1;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data) {
  (void)ev;
  (void)data;
  struct stat st;
  if (status == CL_COMPLETE && fstat(1, &st) == 0)
    atomic_store(&size_at_complete, (long)st.st_size);
}

static void test_flush_on_completion(struct test_env *env) {
  cl_kernel k = test_kernel_from(env,
                                 "kernel void hello(int n) { printf(\"hello from %d\\n\", n); }",
                                 "hello", NULL);
  if (!k)
    return;
  cl_int n = 7;
  CHECK_OK(clSetKernelArg(k, 0, sizeof n, &n));
  cl_event user = clCreateUserEvent(env->context, NULL), ev = NULL;
  size_t one = 1;
  capture_begin();
  /* the launch waits for the user event, so the callback is set in time */
  CHECK_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &one, NULL, 1, &user, &ev));
  CHECK_OK(clSetEventCallback(ev, CL_COMPLETE, on_complete, NULL));
  CHECK_OK(clSetUserEventStatus(user, CL_COMPLETE));
  CHECK_OK(clWaitForEvents(1, &ev));
  /* callbacks may still be running when clWaitForEvents returns */
  CHECK_OK(clFinish(env->queue));
  for (int i = 0; i < 1000 && atomic_load(&size_at_complete) < 0; i++)
    usleep(1000);
  size_t len;
  char *got = capture_end(&len);
  check_text("flush", got, "hello from 7\n");
  CHECK(atomic_load(&size_at_complete) == (long)strlen("hello from 7\n"));
  free(got);
  clReleaseEvent(ev);
  clReleaseEvent(user);
  clReleaseKernel(k);
}

/* ---- barriers, helper functions, formats chosen at run time ---- */
static void test_control_flow(struct test_env *env) {
  const char *src =
      "void say(constant char *fmt, int x) { printf(fmt, x); }\n"
      "int twice(int x) { return printf(\"helper %d\\n\", x) + printf(\"helper again %d\\n\", x); }\n"
      "kernel void flow(global int *ret) {\n"
      "  int l = get_local_id(0);\n"
      "  printf(\"before %d\\n\", l);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  printf(\"after %d\\n\", l);\n"
      "  if (l == 0) {\n"
      "    ret[0] = twice(5);\n"
      "    say(\"through a parameter %d\\n\", 6);\n"
      "  }\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (l < 2)\n"
      "    ret[1 + l] = printf(l & 1 ? \"odd %d\\n\" : \"even %d\\n\", l);\n"
      "  for (int i = 0; i < 2 && l == 3; i++)\n"
      "    printf(\"loop %d\\n\", i);\n"
      "}\n";
  cl_kernel k = test_kernel_from(env, src, "flow", NULL);
  if (!k)
    return;
  cl_mem m = test_buffer_with(env, 3 * sizeof(int), NULL);
  CHECK_OK(clSetKernelArg(k, 0, sizeof m, &m));
  char *got = run_captured(env, k, 4, 4, NULL);
  check_text("control flow", got,
             "before 0\nbefore 1\nbefore 2\nbefore 3\n"
             "after 0\nhelper 5\nhelper again 5\nthrough a parameter 6\n"
             "after 1\nafter 2\nafter 3\n"
             "even 0\nodd 1\nloop 0\nloop 1\n");
  int ret[3] = {1, 1, 1};
  test_read_back(env, m, sizeof ret, ret);
  CHECK(ret[0] == 0 && ret[1] == 0 && ret[2] == 0);
  free(got);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* ---- programs from binaries call the printf runtime too ---- */
static void test_from_binary(struct test_env *env) {
  cl_program p = test_program_from(env, "kernel void bin(void) { printf(\"from a binary %d\\n\", 3); }",
                                   NULL);
  if (!p)
    return;
  size_t size = 0;
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_int err, status;
  const unsigned char *bins[1] = {bin};
  cl_program p2 = clCreateProgramWithBinary(env->context, 1, &env->device, &size, bins, &status, &err);
  CHECK_OK(err);
  CHECK_OK(clBuildProgram(p2, 1, &env->device, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(p2, "bin", &err);
  CHECK_OK(err);
  if (k) {
    char *got = run_captured(env, k, 1, 0, NULL);
    check_text("from binary", got, "from a binary 3\n");
    free(got);
    clReleaseKernel(k);
  }
  free(bin);
  clReleaseProgram(p2);
  clReleaseProgram(p);
}

/* ---- malformed formats are build errors ---- */
struct bad_format {
  const char *call; /* the printf arguments */
  const char *message; /* part of the expected build log */
};

static const struct bad_format bad_formats[] = {
    {"\"%v5d\\n\", 1", "vector size"},
    {"\"%v4d\\n\", (int4)(1)", "length modifier"},
    {"\"%hlf\\n\", 1.0f", "'hl'"},
    {"\"%hf\\n\", 1.0f", "length modifier"},
    {"\"%lc\\n\", 'c'", "length modifiers"},
    {"\"%lld\\n\", 1L", "reserved"},
    {"\"%Lf\\n\", 1.0f", "reserved"},
    {"\"%n\\n\", 1", "reserved"},
    {"\"%y\\n\", 1", "invalid conversion"},
    {"\"%*d\\n\", 1, 2", "'*'"},
    {"\"%.*d\\n\", 1, 2", "'*'"},
    {"\"%5%%\\n\"", "%%"},
    {"\"abc%\"", "incomplete"},
    {"\"%d %d\\n\", 1", "2 arguments expected"},
    {"\"%v4hlf\\n\", 1.0f", "vector argument"},
    {"\"%f\\n\", (float4)(1.0f)", "vector specifier"},
    {"\"%v2hlf\\n\", (float4)(1.0f)", "vector size"},
    {"\"%v4hld\\n\", (float4)(1.0f)", "element type"},
    {"\"%v4hd\\n\", (int4)(1)", "length modifier does not match"},
    {"\"%v2hhf\\n\", (float2)(1.0f)", "'hh'"},
    {"\"%v2hlc\\n\", (int2)(1)", "vector specifier applies"},
    {"\"%s\\n\", 5", "literal string"},
};

static const char *const good_formats[] = {
    "\"%%\\n\"", "\"%lf %lf\\n\", 1.0f, 2.0", "\"%-+ #0d\\n\", 1", "\"%.d|\\n\", 0",
    "\"%#016v16hhx\\n\", (uchar16)(1)", "\"%v2hlf\\n\", (float2)(1.0f)",
    "\"%d\\n\", 1L" /* scalar width mismatches are only Clang warnings */,
};

static void test_build_errors(struct test_env *env) {
  for (size_t i = 0; i < sizeof bad_formats / sizeof bad_formats[0]; i++) {
    char src[512];
    snprintf(src, sizeof src, "kernel void bad(void) { printf(%s); }\n", bad_formats[i].call);
    cl_int err;
    const char *s = src;
    cl_program p = clCreateProgramWithSource(env->context, 1, &s, NULL, &err);
    CHECK_OK(err);
    CHECK_ERR(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[8192] = "";
    CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    bool mentions = strstr(log, "printf format") && strstr(log, bad_formats[i].message);
    CHECK(mentions);
    if (!mentions)
      fprintf(stderr, "format %s: build log lacks '%s':\n%s\n", bad_formats[i].call,
              bad_formats[i].message, log);
    cl_build_status st;
    CHECK_OK(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_ERROR);
    clReleaseProgram(p);
  }
  /* the check runs when the executable is linked */
  {
    const char *s = "kernel void bad(void) { printf(\"%v3hhq\\n\", (uchar3)(1)); }\n";
    cl_int err;
    cl_program obj = clCreateProgramWithSource(env->context, 1, &s, NULL, &err);
    CHECK_OK(clCompileProgram(obj, 1, &env->device, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program linked = clLinkProgram(env->context, 1, &env->device, NULL, 1, &obj, NULL, NULL, &err);
    CHECK_ERR(err, CL_LINK_PROGRAM_FAILURE);
    if (linked)
      clReleaseProgram(linked);
    clReleaseProgram(obj);
  }
  for (size_t i = 0; i < sizeof good_formats / sizeof good_formats[0]; i++) {
    char src[512];
    snprintf(src, sizeof src, "kernel void good(void) { printf(%s); }\n", good_formats[i]);
    cl_program p = test_program_from(env, src, NULL);
    if (p)
      clReleaseProgram(p);
  }
}

int main(void) {
  struct test_env env;
  test_env_init(&env);
  test_scalars(&env);
  test_runtime_values(&env);
  test_vectors(&env);
  test_many_groups(&env);
  test_overflow(&env);
  test_flush_on_completion(&env);
  test_control_flow(&env);
  test_from_binary(&env);
  test_build_errors(&env);
  test_env_release(&env);
  return test_finish("test_printf");
}
