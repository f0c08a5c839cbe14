#include <stdio.h>
#include <stdlib.h>
#include "ring.h"

int main(void) {
    ring_t *r = ring_new(4);
    for (int i = 1; i <= 6; i++) {
        if (!ring_push(r, i * 10)) printf("full at %d\n", i * 10);
    }
    int v;
    while (ring_pop(r, &v)) printf("pop %d\n", v);
    char *d = ring_describe(r);
    printf("%s\n", d);
    ring_free(r);
    return 0;
}
