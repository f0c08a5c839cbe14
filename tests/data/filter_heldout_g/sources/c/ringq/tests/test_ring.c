#include <stdio.h>
#include "ring.h"

static int failures = 0, run = 0;
#define CHECK(cond) do { run++; if (!(cond)) { failures++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } else { printf("ok   %s\n", #cond); } } while (0)

int main(void) {
    ring_t *r = ring_new(3);
    int v = 0;
    CHECK(ring_len(r) == 0);
    CHECK(!ring_pop(r, &v));
    CHECK(ring_push(r, 1));
    CHECK(ring_push(r, 2));
    CHECK(ring_push(r, 3));
    CHECK(ring_peek_last(r) == 3);
    CHECK(!ring_push(r, 4));
    CHECK(ring_len(r) == 3);
    CHECK(ring_pop(r, &v) && v == 1);
    CHECK(ring_push(r, 5));
    CHECK(ring_peek_last(r) == 5);
    CHECK(ring_pop(r, &v) && v == 2);
    CHECK(ring_pop(r, &v) && v == 3);
    CHECK(ring_pop(r, &v) && v == 5);
    CHECK(ring_len(r) == 0);
    ring_free(r);
    printf("%d checks, %d failed\n", run, failures);
    return failures ? 1 : 0;
}
