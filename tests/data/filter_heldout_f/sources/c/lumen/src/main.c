#include <stdio.h>
#include "lumen.h"

int main(int argc, char **argv) {
    int failed = 0;
    printf("%-24s %6s %6s %8s %8s %5s\n", "file", "width", "height", "mean", "stddev", "peak");
    for (int i = 1; i < argc; i++) {
        image img = {0};
        int rc = pgm_read(argv[i], &img);
        if (rc) {
            fprintf(stderr, "lumen: %s: %s\n", argv[i], rc == -1 ? "cannot open" : "not a plain PGM (P2) file");
            failed++;
            continue;
        }
        double m = mean(&img);
        printf("%-24s %6d %6d %8.2f %8.2f %5d\n", argv[i], img.width, img.height, m, stddev(&img, m), histogram_peak(&img));
        image_free(&img);
    }
    return failed ? 1 : 0;
}
