// causa: expect=bug:memory-error
// causa: iterations=3000
// pbzip2 0.9.4's order violation (CLAP's pbzip2): main waits for the
// producer, then frees the queue (with its mutex) while the consumers may
// still be taking the last blocks from it: a consumer locks a freed mutex.

#include <pthread.h>
#include <stdlib.h>

#define BLOCKS 3

struct queue {
    int blocks[BLOCKS];
    int head, tail;
    pthread_mutex_t *mut;
};

struct queue *fifo;
int done;

void *producer(void *arg) {
    for (int i = 0; i < BLOCKS; i++) {
        pthread_mutex_lock(fifo->mut);
        fifo->blocks[fifo->tail] = i + 1;
        fifo->tail = fifo->tail + 1;
        pthread_mutex_unlock(fifo->mut);
    }
    done = 1;
    return 0;
}

void *consumer(void *arg) {
    for (;;) {
        pthread_mutex_lock(fifo->mut);
        if (fifo->head < fifo->tail) {
            fifo->head = fifo->head + 1;
            pthread_mutex_unlock(fifo->mut);
            continue;
        }
        pthread_mutex_unlock(fifo->mut);
        if (done)
            break;
    }
    return 0;
}

int main(void) {
    fifo = malloc(sizeof *fifo);
    fifo->head = fifo->tail = 0;
    fifo->mut = malloc(sizeof(pthread_mutex_t));
    pthread_mutex_init(fifo->mut, 0);
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    /* BUG: the consumer may still use the queue */
    free(fifo->mut);
    free(fifo);
    pthread_join(c, 0);
    return 0;
}
