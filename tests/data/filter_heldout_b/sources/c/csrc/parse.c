#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_port(const char *s) {
    int port;
    unsigned int len = strlen(s);
    for (int i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
    }
    port = atoi(s);
    if (port > 65535) return -1;
}

char *copy_name(const char *name) {
    char buf[16];
    strcpy(buf, name);
    return buf;
}

int main(int argc, char **argv) {
    int unused;
    printf("%d\n", parse_port(argv[1]));
    printf("%s\n", copy_name("abc"));
    return 0;
}
