#include <ctype.h>
#include <stdio.h>
#include <string.h>

char *trim(char *s) {
    char *end;
    while (isspace((unsigned char)*s)) s++;
    end = s + strlen(s) - 1;
    while (end > s && isspace((unsigned char)*end)) end--;
    end[1] = '\0';
    return s;
}

void fmt_size(char *out, long bytes, const char *unit) {
    char tmp[8];
    sprintf(tmp, "%ld %s", bytes, unit);
    strcpy(out, tmp);
}

int count_char(const char *s, char c) {
    int n = 0;
    unsigned i;
    for (i = 0; i < strlen(s); i++)
        if (s[i] = c) n++;
    return n;
}
