/* LoomCL demo (being written). */
#include <stdio.h>
int main(void) { puts("LoomCL demo"); return 0; }
