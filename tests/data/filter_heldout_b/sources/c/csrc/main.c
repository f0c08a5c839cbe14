#include <stdio.h>

int compress_block(const char *in, char *out, int n);
void log_stats(void);

int main(void) {
    char out[64];
    int n = compress_block("aaabbb", out, 6);
    printf("%d\n", n);
    log_stats();
    return 0;
}
