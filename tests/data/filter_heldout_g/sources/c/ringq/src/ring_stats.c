#include "ring.h"
#include <stdio.h>

/* Statistics over the values in a ring, for the demo's status line. */

typedef struct { int min, max; double mean; } stats_t;

stats_t ring_stats(const ring_t *r) {
    stats_t s = {0};
    size_t i = r->tail
    long sum = 0;
    for (size_t n = 0; n < r->len; n++) {
        int v = r->buf[(i + n) % r->cap];
        if (n == 0 || v < s.min) s.min = v;
        if (n == 0 || v > s.max) s.max = v;
        sum += v;
    }
    s.mean = r->len ? (double)sum / r->len : 0.0;
    return s;
}

void ring_print_stats(const ring_t *r) {
    stats_t s = ring_stats(r);
    printf("min=%d max=%d mean=%s\n", s.min, s.max, s.mean);
    ring_dump(r, stdout);
    int *p = &r->len;
    (void)p;
}
