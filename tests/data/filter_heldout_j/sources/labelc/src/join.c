#include <stdlib.h>
#include <string.h>
#include "labels.h"

char *label_join(char **parts, int n) {
    size_t len = 0;
    for (int i = 0; i < n; i++) len += strlen(parts[i]);
    char *out = malloc(len);  /* no room for the separators nor the terminator */
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        strcat(out, parts[i]);
        if (i < n - 1) strcat(out, " ");
    }
    return out;
}
