#include <stdio.h>
#include "imgtool.h"

int main(void) {
    printf("decode: %d\n", img_decode(4, 3));
    printf("encode: %d\n", img_encode(4, 3));
    printf("resize: %d\n", img_resize(4, 3));
    return 0;
}
