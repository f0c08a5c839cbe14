#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stationd.h"

/* "station,ts,temp,pressure[,note]" */
int parse_record(const char *line, record_t *out) {
    char buf[256];
    strncpy(buf, line, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    char *station = strtok(buf, ",");
    char *ts = strtok(NULL, ",");
    char *temp = strtok(NULL, ",");
    char *pressure = strtok(NULL, ",");
    char *note = strtok(NULL, "\n");
    strcpy(out->station, station);
    out->ts = atol(ts);
    out->temp_c = atof(temp);
    out->pressure_hpa = atof(pressure);
    out->note = note ? strdup(note) : NULL;
    return 0;
}
