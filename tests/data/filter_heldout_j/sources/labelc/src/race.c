#include <pthread.h>
#include <stdio.h>

/* The two label printers share these counters; only the paper count is under the lock. */
static int printed, jammed, queued[4];
static pthread_mutex_t paper = PTHREAD_MUTEX_INITIALIZER;
static int sheets = 400;

static void *printer(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < 50; i++) {
        printed++;
        queued[id % 4] += 1;
        if (i % 17 == 0) jammed++;
        pthread_mutex_lock(&paper);
        sheets--;
        pthread_mutex_unlock(&paper);
    }
    return NULL;
}

int main(void) {
    pthread_t t[4];
    for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, printer, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    printf("printed %d labels, %d jams, %d sheets left\n", printed, jammed, sheets);
    return 0;
}
