#include <stdio.h>
#include "img.h"

int filter_16(struct image *im, int strength)
{
    int changed = 0;
    for (int y = 0; y < im->height; y++)
        changed += im->pixels[y] * strength;
    return changed;
}
