#include <stdlib.h>
#include "labels.h"

int shelf_parse(const char *text) {
    char *end;
    long n = strtol(text, &end, 10);
    if (*end != '\0' || n < 0 || n > 40) return -1;
    return (int)n;
}
