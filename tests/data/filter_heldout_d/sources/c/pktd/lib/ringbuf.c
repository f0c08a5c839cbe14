#include <stdlib.h>
#include <string.h>

typedef struct { unsigned char *buf; size_t cap, head, tail; } ringbuf;

int rb_init(ringbuf *rb, size_t cap) {
    rb->buf = malloc(cap);
    rb->cap = cap;
    rb->head = rb->tail = 0;
    return rb->buf != NULL;
}

int rb_push(ringbuf *rb, const unsigned char *data, int len) {
    for (int i = 0; i < len; i++) {
        if ((rb->head + 1) % rb->cap == rb->tail) return i;
        rb->buf[rb->head] = data[i];
        rb->head = (rb->head + 1) % rb->cap;
    }
    return len;
}

size_t rb_used(const ringbuf *rb) {
    int used = rb->head - rb->tail;
    if (used < 0) used += rb->cap;
    return used;
}
