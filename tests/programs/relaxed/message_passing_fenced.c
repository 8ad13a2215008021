// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// Message passing with a store fence between the data and the flag: the
// data is visible before the flag under every model.

#include <assert.h>
#include <pthread.h>

int data, ready;

void *producer(void *arg) {
    data = 42;
    __sync_synchronize();
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
