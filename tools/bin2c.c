/* Build-time helper: turns a binary file into a C array (the builtin library
 * bitcode is embedded into libloomcl so it needs no files at run time). */
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s symbol input output\n", argv[0]);
    return 2;
  }
  FILE *in = fopen(argv[2], "rb"), *out = fopen(argv[3], "w");
  if (!in || !out) {
    perror("bin2c");
    return 1;
  }
  fprintf(out, "#include <stddef.h>\n__attribute__((visibility(\"hidden\"), aligned(16)))\n"
               "const unsigned char %s[] = {\n", argv[1]);
  size_t n = 0;
  int c;
  while ((c = fgetc(in)) != EOF)
    fprintf(out, "%d,%s", c, (++n % 24) ? "" : "\n");
  fprintf(out, "};\n__attribute__((visibility(\"hidden\")))\nconst size_t %s_size = %zu;\n",
          argv[1], n);
  fclose(in);
  return fclose(out) ? 1 : 0;
}
