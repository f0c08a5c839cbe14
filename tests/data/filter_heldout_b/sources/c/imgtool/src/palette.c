#include "imgtool.h"

int img_palette(int w, int h) {
    return w * h + 7;
}
