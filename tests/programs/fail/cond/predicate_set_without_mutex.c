// causa: expect=bug:deadlock
// causa: check=bug
// The consumer checks `ready` in a loop under the mutex, as it should, but
// the producer sets `ready` and signals without taking the mutex: both can
// fall between the consumer's check and its wait, and the signal is lost.
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t full = PTHREAD_COND_INITIALIZER;
static int ready;
static int item;

static void *producer(void *arg) {
    (void)arg;
    item = 42;
    ready = 1; /* bug: not under m */
    pthread_cond_signal(&full);
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&full, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
