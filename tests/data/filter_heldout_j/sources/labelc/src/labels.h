#ifndef LABELS_H
#define LABELS_H
#include <stddef.h>
char *label_format(const char *tool, int shelf);
int barcode_checksum(const char *digits);
size_t label_width(const char *text);
int shelf_parse(const char *text);
char *label_join(char **parts, int n);
#endif
