// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// Message passing without a fence: the producer writes the data, then the
// flag. TSO keeps the two stores in order; PSO buffers them per address, so
// the flag can become visible first and the consumer reads stale data.

#include <assert.h>
#include <pthread.h>

int data, ready;

void *producer(void *arg) {
    data = 42;
    ready = 1;
    return 0;
}

void *consumer(void *arg) {
    if (ready)
        assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&q, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
