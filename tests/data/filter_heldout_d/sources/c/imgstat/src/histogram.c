#include "imgcore.h"

void histogram(const uint8_t *px, size_t n, unsigned long bins[256]) {
    for (int i = 0; i < 256; i++) bins[i] = 0;
    for (int i = 0; i < n; i++) bins[px[i]]++;
}

double mean_brightness(const unsigned long bins[256]) {
    unsigned long total = 0, n = 0;
    for (int i = 0; i < 256; i++) {
        unsigned long n = bins[i];
        total += n * i;
    }
    return n ? (double)total / n : 0.0;
}
