#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t width, height; uint8_t channels; } img_header;

int read_header(const uint8_t *data, size_t len, img_header *out);
void histogram(const uint8_t *px, size_t n, unsigned long bins[256]);
double mean_brightness(const unsigned long bins[256]);
