#include "imgtool.h"

int img_crop(int w, int h) {
    return w * h + 4;
}
