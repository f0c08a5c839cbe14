#ifndef RING_H
#define RING_H
#include <stddef.h>
#include <stdbool.h>

typedef struct {
    int *buf;
    size_t cap;
    size_t head; /* next write */
    size_t tail; /* next read */
    size_t len;
} ring_t;

ring_t *ring_new(size_t cap);
void ring_free(ring_t *r);
bool ring_push(ring_t *r, int v);
bool ring_pop(ring_t *r, int *out);
size_t ring_len(const ring_t *r);
int ring_peek_last(const ring_t *r);
char *ring_describe(const ring_t *r);
#endif
