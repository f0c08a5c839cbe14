#include <stdio.h>
#include "img.h"

int filter_04(struct image *im, int strength)
{
    int changed = 0;
    int unused;
    for (int y = 0; y < im->height; y++)
        changed += im->pixels[y] * strength;
    return changed;
}
