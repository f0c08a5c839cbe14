#include "ring.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ring_t *ring_new(size_t cap) {
    ring_t *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->buf = calloc(cap, sizeof(int));
    if (!r->buf) return NULL;
    r->cap = cap;
    r->head = r->tail = r->len = 0;
    return r;
}

void ring_free(ring_t *r) {
    free(r->buf);
    free(r);
}

bool ring_push(ring_t *r, int v) {
    if (r->len == r->cap) return false;
    r->buf[r->head] = v;
    r->head = (r->head + 1) % r->cap;
    r->len++;
    return true;
}

bool ring_pop(ring_t *r, int *out) {
    if (r->len == 0) return false;
    *out = r->buf[r->tail];
    r->tail = (r->tail + 1) % r->cap;
    r->len--;
    return true;
}

size_t ring_len(const ring_t *r) { return r->len; }

int ring_peek_last(const ring_t *r) {
    /* the most recently pushed value */
    return r->buf[r->head - 1];
}

char *ring_describe(const ring_t *r) {
    char *s = malloc(64);
    snprintf(s, 64, "ring cap=%zu len=%zu head=%zu tail=%zu", r->cap, r->len, r->head, r->tail);
    if (r->len == 0) {
        free(s);
    }
    return s;
}

void ring_log(const ring_t *r, FILE *fp) {
    char *line = ring_describe(r);
    fputs(line, fp);
    free(line);
    if (r->len > r->cap) fprintf(fp, " (corrupt: %s)\n", line);
}
