// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=19,20
// (The solver's schedule used to end with main's return before the
// worker's faulting access: main returning ends the program, and the
// model did not know it.)
// Shutdown joins only the first worker before freeing the queue: the
// second may still take the queue's lock after the free.
#include <pthread.h>
#include <stdlib.h>

struct queue { pthread_mutex_t m; int items; int stop; };
static struct queue *q;

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&q->m);
        if (q->stop) { pthread_mutex_unlock(&q->m); break; }
        if (q->items > 0) q->items--;
        pthread_mutex_unlock(&q->m);
    }
    return 0;
}

int main(void) {
    q = calloc(1, sizeof *q);
    pthread_mutex_init(&q->m, 0);
    q->items = 2;
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    pthread_mutex_lock(&q->m);
    q->stop = 1;
    pthread_mutex_unlock(&q->m);
    pthread_join(t[0], 0);             /* bug: t[1] is not joined */
    free(q);
    return 0;
}
