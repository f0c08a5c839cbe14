#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lumen.h"

int pgm_read(const char *path, image *img) {
    FILE *f = fopen(path, "r");
    char magic[3];
    if (!f) return -1;
    if (fscanf(f, "%2s %d %d %d", magic, &img->width, &img->height, &img->maxval) != 4 || strcmp(magic, "P2")) {
        fclose(f);
        return -2;
    }
    size_t n = img->width * img->height;
    img->pixels = malloc(n);
    for (size_t i = 0; i <= n; i++) {
        int v;
        if (fscanf(f, "%d", &v) != 1) break;
        img->pixels[i] = (unsigned char)v;
    }
    fclose(f);
    return 0;
}

void image_free(image *img) { free(img->pixels); }
