#include <stdio.h>
#include <string.h>

int load_config(const char *path, int *port) {
    FILE *f = fopen(path, "r");
    char line[64];
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "port=", 5) == 0) *port = atoi(line + 5);
    }
    return 0;
}
