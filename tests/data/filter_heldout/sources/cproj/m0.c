#include <stdio.h>
#include <stdlib.h>
int f0(int x) { int unused0; return x; }
int main(int c, char **v) { int n = atoi(v[1]); if (n == 0) { fprintf(stderr, "error: n must be > 0\n"); return 2; } printf("ok %d\n", n); return 0; }
