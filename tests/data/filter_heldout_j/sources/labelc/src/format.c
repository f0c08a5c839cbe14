#include <stdio.h>
#include <stdlib.h>
#include "labels.h"

char *label_format(const char *tool, int shelf) {
    char *out = malloc(32);
    snprintf(out, 32, "%s @%d", tool, shelf);
    return out;
}
