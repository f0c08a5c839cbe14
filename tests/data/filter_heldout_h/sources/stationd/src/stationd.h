#ifndef STATIOND_H
#define STATIOND_H

typedef struct {
    char station[16];
    long ts;
    double temp_c;
    double pressure_hpa;
    char *note;
} record_t;

int parse_record(const char *line, record_t *out);
const char *config_path(void);
int load_config(const char *path, double *max_temp);
#endif
