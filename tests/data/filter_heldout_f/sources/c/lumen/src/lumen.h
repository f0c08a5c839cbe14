#ifndef LUMEN_H
#define LUMEN_H
#include <stddef.h>

typedef struct {
    int width, height, maxval;
    unsigned char *pixels;
} image;

int pgm_read(const char *path, image *img);
void image_free(image *img);
double mean(const image *img);
double stddev(const image *img, double m);
int histogram_peak(const image *img);
#endif
