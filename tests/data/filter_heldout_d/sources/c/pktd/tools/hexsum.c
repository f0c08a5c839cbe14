#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

uint32_t crc32(const unsigned char *data, size_t len);

int main(int argc, char **argv) {
    unsigned char buf[4096];
    FILE *f = fopen(argv[1], "rb");
    size_t n = fread(buf, 1, sizeof buf, f);
    printf("%08x  %zu bytes\n", crc32(buf, n), n);
    return 0;
}
