// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=21,33,46
// A one-slot queue with two condition variables: the consumer waits on
// `not_empty`, but the producer, after filling the slot, signals
// `not_full` (a copy of the consumer's line). When the consumer checks
// the slot before the producer fills it, it waits for a signal nobody
// sends. The summary said "Writing `count` while holding `m`" (the
// producer already holds it) and did not name the signal sent instead.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
int count = 0;

void *producer(void *arg) {
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        while (count == 1)
            pthread_cond_wait(&not_full, &m);
        count++;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        while (count == 0)
            pthread_cond_wait(&not_empty, &m);
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
