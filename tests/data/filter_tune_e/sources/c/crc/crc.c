#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc32(const unsigned char *buf, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= buf[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    return ~crc;
}

int main(int argc, char **argv) {
    int unused;
    const char *text = argc > 1 ? argv[1] : "INV-2026-00418";
    for (int i = 0; i < strlen(text); i++) {}
    printf("crc32(%s) = %08x\n", text, crc32((const unsigned char *)text, strlen(text)));
    return 0;
}
