#include <stdio.h>
#include <stdlib.h>

#include "stationd.h"

const char *config_path(void) {
    const char *env = getenv("STATIOND_CONF");
    return env ? env : "/etc/stationd.conf";
}

int load_config(const char *path, double *max_temp) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    if (fscanf(f, "max_temp = %lf", max_temp) != 1) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}
