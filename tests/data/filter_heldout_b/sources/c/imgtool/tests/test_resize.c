#include <stdio.h>
#include "../src/imgtool.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } else { printf("ok   %s\n", #cond); } } while (0)

int main(void) {
    CHECK(img_resize(2, 2) == 10);
    CHECK(img_resize(0, 5) == 6);
    CHECK(img_crop(1, 1) == 5);
    CHECK(img_rotate(3, 3) == 15);
    CHECK(img_blur(10, 10) == 100);
    CHECK(img_dither(2, 3) == 12);
    printf("%d checks failed\n", failures);
    return failures ? 1 : 0;
}
