#include <stdio.h>
#include <string.h>
#include "imgcore.h"

int main(int argc, char **argv) {
    unsigned long bins[256];
    uint8_t px[] = {0, 10, 10, 200, 255};
    histogram(px, sizeof px, bins);
    printf("mean brightness %.2f\n", mean_brightness(bins));
    return argc > 1 && strcmp(argv[1], "--selftest") == 0 ? 0 : 0;
}
