#include <stdio.h>
#include <string.h>

#include "stationd.h"

static void report(const record_t *r, double max_temp) {
    printf("%-8s %ld %6.1f C %7.1f hPa", r->station, r->ts, r->temp_c, r->pressure_hpa);
    if (r->temp_c > max_temp) printf("  ALERT above %.1f", max_temp);
    if (r->note) printf("  (%s)", r->note);
    printf("\n");
}

int main(int argc, char **argv) {
    double max_temp = 35.0;
    if (load_config(config_path(), &max_temp) != 0) {
        fprintf(stderr, "stationd: using default max_temp %.1f\n", max_temp);
    }
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        record_t r;
        parse_record(line, &r);
        report(&r, max_temp);
        n++;
    }
    fprintf(stderr, "%d records\n", n);
    return 0;
}
