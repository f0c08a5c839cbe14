#include <stdio.h>
#include <stdlib.h>

int load_config(const char *path, int *port);

int main(int argc, char **argv) {
    int port;
    if (load_config(argc > 1 ? argv[1] : "pktd.conf", &port) != 0) {
        fprintf(stderr, "bad config\n");
        return 1;
    }
    printf("listening on %d\n", port);
    start_server(port);
    return 0;
}
