/* loom-config-doc: the LOOMCL_* table of src/config/config_table.h as the
 * README's markdown table, one row per variable in table order:
 *
 *   | variable | effect |
 *   |---|---|
 *   | `LOOMCL_CACHE_DIR` | where compiled programs are cached (...) |
 *
 * usage: loom-config-doc                 prints the table
 *        loom-config-doc --check README   exit 0 when README's "## Configuration"
 *                                        section holds exactly that table, else
 *                                        says which rows differ, are missing or
 *                                        are extra and exits 1
 *        loom-config-doc --update README  replaces the table in README's
 *                                        "## Configuration" section with it
 * Exit 2: usage, a file that cannot be read or written, no such section. */
#include "config.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTION "## Configuration"
#define HEADER "| variable | effect |"
#define RULE "|---|---|"

static const char *prog = "loom-config-doc";
static const char *self = "build/loom-config-doc"; /* argv[0], for the hint */

/* ---- growable strings and line lists ---- */
struct lines {
  char **v;
  size_t n, cap;
};

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n);
  if (!p) {
    fprintf(stderr, "%s: out of memory\n", prog);
    exit(2);
  }
  return p;
}

static void lines_push(struct lines *l, char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 32;
    l->v = xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = s;
}

static void lines_free(struct lines *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
}

/* ---- the generated table ---- */

/* One row: "| `LOOMCL_X` | doc |", with the doc's '|' escaped so that it
 * stays one cell and its line breaks folded (a cell is one line). */
static char *row_for(const struct loom_cfg_row *r) {
  size_t n = strlen(r->name) + 2 * strlen(r->doc) + 16;
  char *s = xrealloc(NULL, n), *o = s;
  o += sprintf(o, "| `%s` | ", r->name);
  for (const char *d = r->doc; *d; d++) {
    if (*d == '|')
      *o++ = '\\';
    *o++ = (*d == '\n' || *d == '\r') ? ' ' : *d;
  }
  strcpy(o, " |");
  return s;
}

static void generated(struct lines *out) {
  lines_push(out, strdup(HEADER));
  lines_push(out, strdup(RULE));
  for (int i = 0; i < LOOM_CFG_COUNT; i++)
    lines_push(out, row_for(&loom_cfg_table[i]));
}

/* ---- reading the README ---- */

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t n = 0, cap = 1 << 16;
  char *s = xrealloc(NULL, cap);
  size_t got;
  while ((got = fread(s + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2)
      s = xrealloc(s, cap *= 2);
  }
  bool err = ferror(f);
  fclose(f);
  if (err) {
    free(s);
    return NULL;
  }
  s[n] = 0;
  return s;
}

/* splits text into lines (without their '\n'; a trailing "\r" dropped) */
static void split_lines(const char *text, struct lines *out) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char *s = xrealloc(NULL, len + 1);
    memcpy(s, p, len);
    s[len] = 0;
    if (len && s[len - 1] == '\r')
      s[len - 1] = 0;
    lines_push(out, s);
    p = nl ? nl + 1 : p + len;
  }
}

static bool starts_with(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}

static bool is_table_line(const char *s) {
  while (*s == ' ')
    s++;
  return *s == '|';
}

/* Finds the table of the "## Configuration" section: [*begin, *end) of
 * file's lines (begin == end: the section has no table, which then goes
 * where *begin says: after the section's text). Returns the section's
 * heading line, or -1 if there is no such section. */
static long find_table(const struct lines *file, size_t *begin, size_t *end) {
  size_t i = 0;
  while (i < file->n && strcmp(file->v[i], SECTION) != 0)
    i++;
  if (i == file->n)
    return -1;
  long heading = (long)i;
  size_t section_end = i + 1;
  while (section_end < file->n && !starts_with(file->v[section_end], "## ") &&
         !starts_with(file->v[section_end], "# "))
    section_end++;
  size_t b = heading + 1;
  while (b < section_end && !is_table_line(file->v[b]))
    b++;
  if (b == section_end) { /* no table: insert before the trailing blank lines */
    while (b > (size_t)heading + 1 && file->v[b - 1][0] == 0)
      b--;
    *begin = *end = b;
    return heading;
  }
  size_t e = b;
  while (e < section_end && is_table_line(file->v[e]))
    e++;
  *begin = b;
  *end = e;
  return heading;
}

/* ---- comparing ---- */

/* the variable a row is about: the text of its first cell without the
 * backticks and anything after the name ("LOOMCL_CACHE=0" -> LOOMCL_CACHE);
 * NULL for a row that names none */
static char *row_variable(const char *row) {
  const char *p = strstr(row, "LOOMCL_");
  const char *bar = strchr(row + (row[0] == '|'), '|');
  if (!p || (bar && p > bar))
    return NULL;
  size_t n = 0;
  while ((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
    n++;
  char *v = xrealloc(NULL, n + 1);
  memcpy(v, p, n);
  v[n] = 0;
  return v;
}

/* Prints what separates the README's table (have, from line first + 1)
 * from the generated one (want), and returns the number of differences:
 * a line-by-line diff (longest common subsequence), then each difference
 * named by its variable. */
static int compare(const char *path, const struct lines *have, size_t first,
                   const struct lines *want) {
  size_t n = have->n, m = want->n;
  /* lcs[i][j]: the longest common subsequence of have[i..] and want[j..] */
  size_t *lcs = calloc((n + 1) * (m + 1), sizeof *lcs);
  if (!lcs) {
    fprintf(stderr, "%s: out of memory\n", prog);
    exit(2);
  }
#define LCS(i, j) lcs[(i) * (m + 1) + (j)]
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      LCS(i, j) = !strcmp(have->v[i], want->v[j]) ? LCS(i + 1, j + 1) + 1
                  : LCS(i + 1, j) >= LCS(i, j + 1) ? LCS(i + 1, j)
                                                    : LCS(i, j + 1);
  if (LCS(0, 0) == n && n == m) {
    free(lcs);
    return 0;
  }

  /* the removed ('-') and added ('+') lines, in order */
  struct change {
    char op;
    size_t line; /* '-': README line index; '+': generated line index */
  } *changes = calloc(n + m, sizeof *changes);
  size_t nc = 0, i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !strcmp(have->v[i], want->v[j])) {
      i++, j++;
    } else if (i < n && (j == m || LCS(i + 1, j) >= LCS(i, j + 1))) {
      changes[nc++] = (struct change){'-', i++};
    } else {
      changes[nc++] = (struct change){'+', j++};
    }
  }
#undef LCS
  free(lcs);

  fprintf(stderr, "%s: the table in %s's \"%s\" section is not the one in "
                  "src/config/config_table.h:\n", prog, path, SECTION);
  /* each difference, by variable: a removed row and an added row for the
   * same variable are one row that differs; a variable in both tables in
   * another place is a row out of order */
  int differences = 0;
  bool *paired = calloc(nc + 1, sizeof *paired);
  for (size_t a = 0; a < nc; a++) {
    if (paired[a])
      continue;
    const char *text = changes[a].op == '-' ? have->v[changes[a].line] : want->v[changes[a].line];
    char *var = row_variable(text);
    size_t other = nc;
    for (size_t b = a + 1; var && b < nc && other == nc; b++) {
      if (paired[b] || changes[b].op == changes[a].op)
        continue;
      const char *t = changes[b].op == '-' ? have->v[changes[b].line] : want->v[changes[b].line];
      char *v2 = row_variable(t);
      if (v2 && !strcmp(var, v2))
        other = b;
      free(v2);
    }
    differences++;
    if (other < nc) {
      paired[other] = true;
      size_t readme = changes[a].op == '-' ? changes[a].line : changes[other].line;
      size_t gen = changes[a].op == '+' ? changes[a].line : changes[other].line;
      const char *what = !strcmp(have->v[readme], want->v[gen]) ? "is out of order" : "differs";
      fprintf(stderr, "  %s:%zu: the row of %s %s\n    README: %s\n    table:  %s\n", path,
              first + readme + 1, var, what, have->v[readme], want->v[gen]);
    } else if (changes[a].op == '+') {
      fprintf(stderr, "  %s: missing the row%s%s (table row %zu):\n    table:  %s\n", path,
              var ? " of " : "", var ? var : "", changes[a].line + 1, want->v[changes[a].line]);
    } else {
      fprintf(stderr, "  %s:%zu: extra row%s%s, not in the table:\n    README: %s\n", path,
              first + changes[a].line + 1, var ? " of " : "", var ? var : "",
              have->v[changes[a].line]);
    }
    free(var);
  }
  free(paired);

  fprintf(stderr, "--- %s (from line %zu)\n+++ generated\n", path, first + 1);
  for (size_t c = 0; c < nc; c++)
    fprintf(stderr, "%c%s\n", changes[c].op,
            changes[c].op == '-' ? have->v[changes[c].line] : want->v[changes[c].line]);
  fprintf(stderr, "Run `%s --update %s` to write the generated table.\n", self, path);
  free(changes);
  return differences;
}

/* ---- modes ---- */

static int usage(void) {
  fprintf(stderr,
          "usage: %s                    print the LOOMCL_* table as markdown\n"
          "       %s --check README.md  exit 1 unless README.md's \"%s\" section\n"
          "                             holds exactly that table\n"
          "       %s --update README.md write that table into the section\n",
          prog, prog, SECTION, prog);
  return 2;
}

static int load(const char *path, struct lines *file, size_t *begin, size_t *end) {
  char *text = read_all(path);
  if (!text) {
    fprintf(stderr, "%s: cannot read %s\n", prog, path);
    return -1;
  }
  split_lines(text, file);
  free(text);
  if (find_table(file, begin, end) < 0) {
    fprintf(stderr, "%s: %s has no \"%s\" section\n", prog, path, SECTION);
    return -1;
  }
  return 0;
}

static int check(const char *path) {
  struct lines file = {0}, want = {0};
  size_t begin, end;
  if (load(path, &file, &begin, &end) != 0) {
    lines_free(&file);
    return 2;
  }
  generated(&want);
  struct lines have = {file.v + begin, end - begin, 0};
  int d = compare(path, &have, begin, &want);
  if (d)
    fprintf(stderr, "%s: %d difference%s\n", prog, d, d == 1 ? "" : "s");
  lines_free(&file);
  lines_free(&want);
  return d ? 1 : 0;
}

static int update(const char *path) {
  struct lines file = {0}, want = {0};
  size_t begin, end;
  if (load(path, &file, &begin, &end) != 0) {
    lines_free(&file);
    return 2;
  }
  generated(&want);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    fprintf(stderr, "%s: cannot write %s\n", prog, tmp);
    lines_free(&file);
    lines_free(&want);
    return 2;
  }
  for (size_t i = 0; i < begin; i++)
    fprintf(f, "%s\n", file.v[i]);
  /* a new table stands apart from the text around it */
  if (begin == end && file.v[begin - 1][0])
    fputc('\n', f);
  for (size_t i = 0; i < want.n; i++)
    fprintf(f, "%s\n", want.v[i]);
  if (begin == end && end < file.n && file.v[end][0])
    fputc('\n', f);
  for (size_t i = end; i < file.n; i++)
    fprintf(f, "%s\n", file.v[i]);
  int rc = 0;
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "%s: cannot write %s\n", prog, path);
    remove(tmp);
    rc = 2;
  }
  lines_free(&file);
  lines_free(&want);
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 0 && argv[0])
    self = argv[0];
  if (argc == 1) {
    struct lines want = {0};
    generated(&want);
    for (size_t i = 0; i < want.n; i++)
      printf("%s\n", want.v[i]);
    lines_free(&want);
    return ferror(stdout) ? 2 : 0;
  }
  if (argc == 3 && !strcmp(argv[1], "--check"))
    return check(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "--update"))
    return update(argv[2]);
  return usage();
}
