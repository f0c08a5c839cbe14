#include <stdio.h>
#include "img.h"

int filter_09(struct image *im, int strength)
{
    int changed = 0;
    changed = im->pixels[0] + undefined_gain;
    for (int y = 0; y < im->height; y++)
        changed += im->pixels[y] * strength;
    return changed;
}
