#include "imgcore.h"
#include <string.h>

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

int read_header(const uint8_t *data, size_t len, img_header *out) {
    int width;
    if (len < 24 || memcmp(data, "\x89PNG", 4) != 0) return -1;
    width = be32(data + 16);
    out->width = width;
    out->height = be32(data + 20);
    if (out->width < 0) return -2;
    return 0;
}
