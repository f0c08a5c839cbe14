#include <stdio.h>
#include <stdlib.h>
#include "labels.h"

int main(void) {
    const char *tools[] = {"drill", "ladder", "saw", "sander", "clamp", "level"};
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 6; i++) {
            char *label = label_format(tools[i], i * 7);
            char *parts[] = {label, "due", "2026-12-01"};
            char *line = label_join(parts, 3);
            printf("%s width=%zu check=%d\n", line, label_width(line), barcode_checksum("4006381333931"));
            if (i % 2) free(label);  /* the even labels leak */
            free(line);
        }
    }
    int shelf;
    if (shelf_parse("12") > 10) shelf = 1;
    if (shelf) puts("shelf ok");
    return 0;
}
